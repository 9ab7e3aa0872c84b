"""POST /verify and its receipts: statuses, signatures, fresh value sets, the browser's grader agreeing.

Every verification here runs in the real bubblewrap sandbox (through Flask's test client, or the real
gunicorn where a URL is needed).
"""

import base64
import hashlib
import json
import random
import re
import shutil
import sys
import time
from pathlib import PurePosixPath

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.errors import MAX_SOURCE
from server import ROOT, create_app
from server.exercises import value_sets
from server.export.site import export_site
from server.page.assets import archived_files
from server.sandbox import bwrap, judging, terms
from server.verify import receipt
from server.verify.receipt import CLAIMS, public_jwk
from tests.support import servers, solutions
from tests.support.events import assert_valid
from tests.support.node import module_json
from tests.support.seed import grade
from tests.support.served_page import SEED, page_config

pytestmark = pytest.mark.slow  # real sandboxes, server processes or databases: not in make test-fast

SOLUTIONS = {name: getattr(solutions, name) for name in dir(solutions) if name.isupper()}


def verifying(tmp_path, **config):
    """A client of an app with verification on, its key in tmp_path."""
    settings = {"TESTING": True, "VERIFY": True, "SIGNING_KEY_FILE": str(tmp_path / "k.pem")}
    return create_app({**settings, **config}).test_client()


@pytest.fixture
def verifying_app(tmp_path):
    """An app with verification on, a 2 s limit and no rate limit to speak of."""
    return create_app(
        {
            "TESTING": True,
            "VERIFY": True,
            "VERIFY_TIME_LIMIT_MS": 2000,
            "VERIFY_RATE_LIMIT": 10_000,
            "SIGNING_KEY_FILE": str(tmp_path / "signing-key.pem"),
            "SIGNING_RETIRED_KEYS": str(tmp_path / "retired"),
        }
    )


@pytest.fixture
def verifying_client(verifying_app):
    return verifying_app.test_client()


def verified(client, source: str) -> dict:
    response = client.post("/verify", json={"source": source})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def keys(client) -> jwt.PyJWKSet:
    return jwt.PyJWKSet.from_dict(client.get("/.well-known/jwks.json").get_json())


def decode(client, token: str) -> dict:
    """Check a receipt as a course would: the key named by its kid in the JWKS, EdDSA only."""
    kid = jwt.get_unverified_header(token)["kid"]
    return jwt.decode(token, keys(client)[kid].key, algorithms=["EdDSA"])


# -- on, off, and refusing to start ----------------------------------------------------------------


def test_verification_is_off_by_default():
    client = create_app({"TESTING": True}).test_client()
    assert client.post("/verify", json={"source": solutions.CORRECT}).status_code == 404
    assert client.get("/.well-known/jwks.json").status_code == 404


def test_no_bubblewrap_refuses_to_start(monkeypatch, tmp_path):
    monkeypatch.setattr(bwrap, "BWRAP", "/nonexistent/bwrap")
    # what is missing, and how to get it
    with pytest.raises(terms.SandboxUnavailable, match="PLAYGROUND_VERIFY=1.*apt-get install bubblewrap"):
        create_app({"TESTING": True, "VERIFY": True, "SIGNING_KEY_FILE": str(tmp_path / "k.pem")})


def test_a_sandbox_that_cannot_run_refuses_to_start(monkeypatch, tmp_path):
    monkeypatch.setattr(bwrap, "BWRAP", shutil.which("false"))  # starts, runs nothing
    with pytest.raises(terms.SandboxUnavailable, match="cannot start a sandbox"):
        create_app({"TESTING": True, "VERIFY": True, "SIGNING_KEY_FILE": str(tmp_path / "k.pem")})


def test_an_unknown_verdict_rule_refuses_to_start():
    with pytest.raises(ValueError, match="seed, strict"):
        create_app({"TESTING": True, "VERDICT": "lenient"})


# -- statuses: never a 500 for what a client sends ----------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[1, 2]",
        b'{"code": "x"}',
        b'{"source": 42}',
        b'{"source": "   "}',
        b"\xff\xfe\x00",
        b'{"source": null}',
    ],
)
def test_bad_requests_get_400_and_a_message(verifying_client, body):
    response = verifying_client.post("/verify", data=body, content_type="application/json")
    assert response.status_code == 400 and "source" in response.get_json()["error"]


def test_sources_over_the_limit_get_413(verifying_client):
    response = verifying_client.post("/verify", json={"source": "#" * (MAX_SOURCE + 1)})
    assert response.status_code == 413 and f"{MAX_SOURCE:,}" in response.get_json()["error"]
    huge = json.dumps({"source": "\u2603" * MAX_SOURCE * 2})  # a body over any JSON the limit allows
    response = verifying_client.post("/verify", data=huge, content_type="application/json")
    assert response.status_code == 413 and response.is_json


def test_odd_sources_get_a_report_not_a_500(verifying_client):
    report = verified(verifying_client, "def backward(out):\n    out.grad = 1\n" * 2000)["report"]
    assert report["passed"] is False
    assert report["error"] is None or report["error"]["kind"] in ("syntax", "runtime", "crash")


@pytest.mark.parametrize("source", ["\x00", "\ud800 = 1"])
def test_sources_with_text_no_file_keeps_get_a_400_that_says_so(verifying_client, source):
    response = verifying_client.post("/verify", json={"source": source})  # a NUL, a lone surrogate
    assert response.status_code == 400 and "not text" in response.get_json()["error"]


def test_too_many_from_one_client_get_429_with_retry_after(tmp_path):
    client = verifying(tmp_path, VERIFY_RATE_LIMIT=2)
    assert [client.post("/verify", json={"source": "x = 1"}).status_code for _ in range(2)] == [200, 200]
    response = client.post("/verify", json={"source": "x = 1"})
    assert response.status_code == 429 and int(response.headers["Retry-After"]) >= 1
    other = client.post("/verify", json={"source": "x = 1"}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200  # the limit is per client


def test_all_slots_busy_past_the_queues_wait_get_503_with_retry_after(tmp_path):
    settings = {"TESTING": True, "VERIFY": True, "VERIFY_SLOTS": 1, "VERIFY_QUEUE_WAIT_S": 0.3}
    app = create_app({**settings, "SIGNING_KEY_FILE": str(tmp_path / "k")})
    client = app.test_client()
    with app.extensions["verify"]["slots"].take() as slot:
        assert slot == 0
        start = time.monotonic()
        response = client.post("/verify", json={"source": solutions.CORRECT})
        assert 0.3 <= time.monotonic() - start < 5  # it waited its turn, until the queue's deadline
        assert response.status_code == 503 and response.headers["Retry-After"] == "1"
        assert "busy" in response.get_json()["error"]
    assert client.post("/verify", json={"source": solutions.CORRECT}).status_code == 200


# -- the verdict: the server's numbers, fresh value sets, the browser's grader agreeing ----------------


def test_correct_code_passes_with_fresh_value_sets_drawn_per_request(verifying_client):
    first = verified(verifying_client, solutions.CORRECT)["report"]
    second = verified(verifying_client, solutions.CORRECT)["report"]
    assert first["passed"] is True and first["error"] is None and first["rule"] == "seed"
    assert [e["name"] for e in first["expressions"]] == ["neuron", "reuse", "chain"]

    def fresh(report):
        return [c["values"] for e in report["expressions"] for c in e["cases"] if c["fresh"]]

    assert fresh(first) and fresh(first) != fresh(second)
    page = {tuple(c["inputs"]["values"]) for c in page_config(verifying_client)["cases"]}
    assert not page & {tuple(v) for v in fresh(first)}


def test_a_lookup_table_of_the_pages_values_passes_in_the_browser_and_fails_at_the_server(verifying_client):
    page_cases = page_config(verifying_client)["cases"]
    source = solutions.lookup_table(page_cases)
    browser = grade(source, page_cases)  # the grader the page runs, on the page's cases
    assert browser["passed"] is True
    report = verified(verifying_client, source)["report"]
    assert report["passed"] is False
    cases = [c for e in report["expressions"] for c in e["cases"]]
    assert all(c["passed"] for c in cases if not c["fresh"])  # the table knows the page's own sets...
    assert not any(c["passed"] for c in cases if c["fresh"])  # ...and none of the fresh ones


@pytest.mark.parametrize("verdict", ["seed", "strict"])
@pytest.mark.parametrize("name", sorted(SOLUTIONS))
def test_the_browser_and_the_server_agree_on_every_solution(tmp_path, name, verdict):
    app = create_app(
        {"TESTING": True, "VERIFY": True, "VERDICT": verdict, "SIGNING_KEY_FILE": str(tmp_path / "k")}
    )
    client = app.test_client()
    config = page_config(client)
    assert config["verdict"] == verdict
    browser = grade(SOLUTIONS[name], config["cases"])
    server = verified(client, SOLUTIONS[name])["report"]
    counted = {e["name"]: e["passed"] for e in browser["expressions"] if not e["extra"]}
    # The server adds random graphs under strict, which every solution here gets as right as the tangle.
    drawn = {e["name"]: e["passed"] for e in server["expressions"] if e["name"] == "random"}
    assert drawn == ({"random": counted["tangle"]} if verdict == "strict" else {})
    assert counted == {e["name"]: e["passed"] for e in server["expressions"] if e["name"] != "random"}
    assert browser["passed"] == server["passed"]
    assert server["order"] == (browser["order"] if verdict == "strict" else None)  # seed: no order graphs
    assert server["rule"] == verdict


def test_strict_counts_every_order_graph_and_random_ones_never_the_deep_chain(tmp_path):
    app = create_app(
        {"TESTING": True, "VERIFY": True, "VERDICT": "strict", "SIGNING_KEY_FILE": str(tmp_path / "k")}
    )
    client = app.test_client()
    extra = {c["group"]: c["extra"] for c in page_config(client)["cases"]}
    assert extra == {
        "neuron": False,
        "reuse": False,
        "chain": False,
        "shared": False,
        "diamond": False,
        "uneven": False,
        "twins": False,
        "tangle": False,
        "deep": True,
    }
    answer = verified(client, solutions.PRE_ORDER)  # a pre-order walk: right on the seed's trees only
    assert answer["report"]["passed"] is False and answer["report"]["order"] == "wrong"
    assert decode(client, answer["receipt"])["rule"] == "strict"
    assert grade(solutions.PRE_ORDER, page_config(client)["cases"])["passed"] is False  # the browser too
    # A recursive search is right: the deep chain never counts, at the server as in the page.
    right = verified(client, solutions.CORRECT)["report"]
    assert right["passed"] is True and "deep" not in {e["name"] for e in right["expressions"]}


# -- receipts --------------------------------------------------------------------------------------


def test_a_receipt_carries_the_claims_and_verifies_with_the_jwks(verifying_client):
    answer = verified(verifying_client, solutions.CORRECT)
    claims = decode(verifying_client, answer["receipt"])
    assert claims["iss"] == "http://localhost/" and claims["exercise"] == "backward"
    assert claims["passed"] is True and claims["rule"] == "seed" and "sub" not in claims
    assert claims["source_sha256"] == hashlib.sha256(solutions.CORRECT.encode()).hexdigest()
    assert claims["expressions"] == [{"name": n, "passed": True} for n in ("neuron", "reuse", "chain")]
    assert re.fullmatch(r"[0-9a-f]{16}", claims["version"]) and len(claims["jti"]) == 32
    assert isinstance(claims["iat"], int)
    assert set(claims) == set(CLAIMS) - {"sub", "lms"}  # no learner named, no launch
    assert (
        decode(verifying_client, verified(verifying_client, solutions.CORRECT)["receipt"])["jti"]
        != claims["jti"]
    )
    failed = decode(verifying_client, verified(verifying_client, solutions.TWICE)["receipt"])
    assert failed["passed"] is False and not any(e["passed"] for e in failed["expressions"])


def b64(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def test_forged_receipts_are_refused(verifying_client):
    token = verified(verifying_client, solutions.TWICE)["receipt"]
    header, payload, signature = token.split(".")
    claims = jwt.decode(token, options={"verify_signature": False})
    kid = jwt.get_unverified_header(token)["kid"]
    tampered = ".".join([header, b64({**claims, "passed": True}), signature])
    with pytest.raises(jwt.InvalidSignatureError):
        decode(verifying_client, tampered)
    other_key = jwt.encode({**claims, "passed": True}, Ed25519PrivateKey.generate(), "EdDSA", {"kid": kid})
    with pytest.raises(jwt.InvalidSignatureError):
        decode(verifying_client, other_key)
    unsigned = ".".join([b64({"alg": "none", "typ": "JWT", "kid": kid}), b64({**claims, "passed": True}), ""])
    with pytest.raises(jwt.InvalidAlgorithmError):
        decode(verifying_client, unsigned)
    assert decode(verifying_client, token)["passed"] is False  # the real one still checks


def test_the_key_is_made_once_kept_private_and_old_kids_keep_verifying(tmp_path):
    config = {
        "TESTING": True,
        "VERIFY": True,
        "SIGNING_KEY_FILE": str(tmp_path / "signing-key.pem"),
        "SIGNING_RETIRED_KEYS": str(tmp_path / "retired"),
    }
    first = create_app(config).test_client()
    assert (tmp_path / "signing-key.pem").stat().st_mode & 0o077 == 0  # readable by the server alone
    old = verified(first, solutions.CORRECT)["receipt"]
    assert (
        create_app(config).extensions["verify"]["signer"].jwks()
        == first.get("/.well-known/jwks.json").get_json()
    )
    (tmp_path / "retired").mkdir()
    (tmp_path / "signing-key.pem").rename(tmp_path / "retired" / "2026-12.pem")  # rotate: a new key signs
    second = create_app(config).test_client()
    new = verified(second, solutions.CORRECT)["receipt"]
    kids = [k["kid"] for k in second.get("/.well-known/jwks.json").get_json()["keys"]]
    assert kids == [jwt.get_unverified_header(new)["kid"], jwt.get_unverified_header(old)["kid"]]
    assert decode(second, old)["passed"] is True and decode(second, new)["passed"] is True
    jwks = second.get("/.well-known/jwks.json").get_data(as_text=True)
    assert '"d"' not in jwks and "PRIVATE" not in jwks  # public halves only


def test_the_key_is_never_in_the_export(verifying_app, tmp_path):
    key = (tmp_path / "signing-key.pem").read_text()
    secret = "".join(key.splitlines()[1:-1])
    with verifying_app.app_context():
        written = export_site(tmp_path / "site", compressed=False)
    assert written
    for path in written:
        data = path.read_bytes()
        assert secret.encode() not in data and b"PRIVATE KEY" not in data, path
        assert "signing" not in path.name and "verify" not in path.name


def test_the_sandbox_gets_the_engine_and_the_source_and_nothing_else():
    cases = value_sets.value_sets("seed", 2, random.Random(1))
    files = judging.sandbox_files(solutions.CORRECT, cases)
    # the engine archive's files as the browser gets them (engine/, the exercise's descriptor, engine and
    # plugin), each Python file's bytecode beside it
    archived = set(archived_files())
    assert {f"engine/{p.name}" for p in (ROOT / "engine").glob("*.py")} | {"exercise.json"} <= archived
    tag = sys.implementation.cache_tag
    compiled = {
        str(PurePosixPath(name).parent / "__pycache__" / f"{PurePosixPath(name).stem}.{tag}.pyc")
        for name in archived
        if name.endswith(".py")
    }
    assert set(files) == archived | compiled | {"driver.py", "source.py", "cases.json", "catalogue.json"}
    assert "expected" not in files["cases.json"].decode()  # the answers stay in the server process
    assert b"reversed(order)" not in b"".join(files.values())
    assert files["catalogue.json"] == b"null"  # no language asked: the engine's English


def test_the_server_answers_in_the_pages_language(verifying_client):
    """The page asks /verify in its language (?lang=): the report's errors, refusals, the sandbox's words."""
    raised = verifying_client.post(
        "/verify?lang=de", json={"source": "def backward(out):\n    1 / 0\n"}
    ).get_json()
    error = raised["report"]["error"]
    assert error["message"] == "ZeroDivisionError: division by zero"  # Python's own words stay
    assert error["traceback"].startswith("Traceback (nur dein Code):\n  Zeile 2, in backward")  # sandbox's
    too_long = verifying_client.post("/verify?lang=de", json={"source": "#" * 100_001})
    assert too_long.status_code == 413 and "100.001 Zeichen" in too_long.get_json()["error"]
    english = verifying_client.post("/verify", json={"source": "def backward(out):\n    1 / 0\n"}).get_json()
    assert english["report"]["error"]["traceback"].startswith("Traceback (your code only):")


# -- a course's check of a receipt, as docs/verification.md gives it ---------------------------------


def readme_check(language: str) -> str:
    """A block of docs/verification.md's "Check a receipt on the course's server": python or js."""
    docs = (ROOT / "docs/verification.md").read_text()
    section = docs[docs.index("## Check a receipt on the course's server") :]
    return re.search(rf"```{language}\n(.*?)```", section, re.S)[1]


JS_HARNESS = """
const [token, learner, source] = JSON.parse(process.argv.at(-1));
checkReceipt(token, learner, source ?? undefined).then(
  (claims) => console.log(JSON.stringify({ passed: claims.passed, iss: claims.iss, sub: claims.sub })),
  (err) => console.log(JSON.stringify({ error: `${err.code ?? ""} ${err.message}` })),
);
"""


def node_check(code: str, token: str, learner: str, source: str | None = None) -> dict:
    """Run docs/verification.md's JavaScript check of a receipt in Node.js (jose from node_modules)."""
    return module_json(code + JS_HARNESS, json.dumps([token, learner, source]))


def test_the_readmes_course_side_checks_work_against_a_real_server(tmp_path):
    key_file = tmp_path / "k.pem"
    env = {
        "PLAYGROUND_VERIFY": "1",
        "PLAYGROUND_SIGNING_KEY_FILE": str(key_file),
        "PLAYGROUND_LEARNER_TOKEN_SECRET": SECRET,  # the course names its learners
    }
    with servers.gunicorn(workers=1, threads=2, env=env) as base:
        code = readme_check("python").replace("https://play.example.org/courses/ml/backprop/", base)
        namespace: dict = {}
        exec(code, namespace)
        check = namespace["check_receipt"]
        import urllib.request

        def receipt(source, learner="alice"):
            body = {"source": source, "learner": learner_token(sub=learner)}
            request = urllib.request.Request(
                base + "verify", json.dumps(body).encode(), {"Content-Type": "application/json"}
            )
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)["receipt"]

        alices = receipt(solutions.CORRECT)
        claims = check(alices, "alice", solutions.CORRECT)
        assert claims["passed"] is True and claims["iss"] == base and claims["sub"] == "alice"
        with pytest.raises(ValueError, match="another learner's"):
            check(alices, "bob")  # alice's receipt handed in for bob
        with pytest.raises(ValueError, match="did not pass"):
            check(receipt(solutions.TWICE), "alice")
        with pytest.raises(ValueError, match="other code"):
            check(alices, "alice", solutions.ITERATIVE)
        header, payload, signature = receipt(solutions.TWICE).split(".")
        failed = json.loads(base64.urlsafe_b64decode(payload + "=="))
        tampered = ".".join([header, b64({**failed, "passed": True}), signature])
        with pytest.raises(jwt.InvalidSignatureError):
            check(tampered, "alice")
        nobodys = sign_as(key_file, base, solutions.CORRECT)  # the same key, no learner token: no sub
        with pytest.raises(ValueError, match="names no learner"):
            check(nobodys, "alice")

        js = readme_check("js").replace("https://play.example.org/courses/ml/backprop/", base)
        assert node_check(js, alices, "alice", solutions.CORRECT) == {
            "passed": True,
            "iss": base,
            "sub": "alice",
        }
        assert "another learner's" in node_check(js, alices, "bob")["error"]
        assert "did not pass" in node_check(js, receipt(solutions.TWICE), "alice")["error"]
        assert "other code" in node_check(js, alices, "alice", solutions.ITERATIVE)["error"]
        assert "ERR_JWS_SIGNATURE_VERIFICATION_FAILED" in node_check(js, tampered, "alice")["error"]
        assert "names no learner" in node_check(js, nobodys, "alice")["error"]


def sign_as(key_file, base: str, source: str) -> str:
    """A receipt of a pass with no learner, signed with the server's own key: what a playground with no
    learner-token setting, and that key, signs."""
    report = {"passed": True, "rule": "seed", "expressions": []}
    return receipt.Signer(key_file, key_file.parent / "retired").sign(receipt.claims(base, report, source))


@pytest.mark.parametrize(
    ("result", "kind"),
    [
        (b"[" * 100_000, "crash"),  # nested deeper than Python's parser goes
        (b'{"got": 1}', "crash"),
        (b'{"got": [[1e999, NaN, 1]], "error": null}', None),
        (b'{"got": [[' + b"9" * 5000 + b', "x", 1.5]], "error": {"kind": "evil"}}', "crash"),
        (b'{"got": [], "error": {"kind": "runtime", "message": 7, "line": true}}', "runtime"),
        (b'{"got": [[true, false, null]], "error": null, "output": {"text": 5}}', None),
    ],
)
def test_whatever_the_sandbox_writes_the_server_judges_it_without_failing(verifying_app, result, kind):
    # three leaves' worth, for the lists above
    cases = [{"group": "reuse", "leaves": ["a", "b", "c"], "inputs": {"values": [1.0, 2.0, 3.0]}}]
    cases[0]["expected"] = [1.0, 2.0, 3.0]
    cases[0].update(example=False, extra=False, fresh=True)
    outcome = terms.Outcome(result, 0, False, False, 0.01)
    with verifying_app.test_request_context():
        report = judging.judge(cases, outcome, "seed")
    assert report["passed"] is False and (report["error"] or {}).get("kind") == kind
    json.dumps(report, allow_nan=False)  # JSON a browser can read: no NaN, no Infinity
    assert_valid("report", report)  # the published contract, whatever the sandbox wrote
    got = report["expressions"][0]["cases"][0]["got"]
    assert got is None or all(type(g) in (float, str) for g in got)


@pytest.mark.parametrize(
    ("verdict", "said"),
    [
        (
            "seed",
            "tries your backward on 5 more graphs that tell a right order from a wrong one (shared, diamond, "
            "uneven, twins, tangle): they say whether your order is right, but the verdict is the three "
            "expressions, and on a chain too deep for a recursive search, which is a lesson and never counts "
            "against you.",
        ),
        (
            "strict",
            "not shown here, and tries your backward on 5 more graphs that tell a right order from a wrong "
            "one (shared, diamond, uneven, twins, tangle), which count too, and on a chain too deep for a "
            "recursive search, which is a lesson and never counts against you.",
        ),
    ],
)
def test_the_page_says_which_graphs_count(verdict, said):
    html = create_app({"TESTING": True, "VERDICT": verdict}).test_client().get(SEED).get_data(as_text=True)
    text = " ".join(re.sub(r"<[^>]+>", "", html).split())
    assert said in text


def test_every_fresh_value_set_tells_something():
    # A set whose gradients round to 0 (a long chain, a small w) would pass code that does nothing.
    for seed in range(300):
        for case in value_sets.value_sets("strict", 2, random.Random(seed)):
            if case["fresh"]:
                assert min(abs(g) for g in case["expected"]) >= 1e-3, case


# -- the learner, where a course names one ----------------------------------------------------------

SECRET = "a secret the course and the playground share, 32+ bytes"


def learner_token(key=SECRET, algorithm="HS256", **claims) -> str:
    """A course's learner token, made now (tokens made at collection would expire in a long run)."""
    return jwt.encode({"sub": "learner-42", "exp": int(time.time()) + 600, **claims}, key, algorithm)


ONLY_SECRET = {"LEARNER_TOKEN_SECRET": SECRET}


@pytest.mark.parametrize(
    ("token", "config", "status", "sub"),
    [
        (lambda: learner_token(), {}, 200, None),  # no course keys configured: no learner is known
        (lambda: learner_token(), ONLY_SECRET, 200, "learner-42"),
        (lambda: None, ONLY_SECRET, 400, None),  # a course that names its learners: no token, no pass
        (lambda: learner_token(key=SECRET + "!"), ONLY_SECRET, 400, None),
        (lambda: learner_token(exp=int(time.time()) - 3600), ONLY_SECRET, 400, None),
        (lambda: jwt.encode({"exp": int(time.time()) + 60}, SECRET, "HS256"), ONLY_SECRET, 400, None),
        (
            lambda: learner_token(iss="https://other.example"),
            {**ONLY_SECRET, "LEARNER_TOKEN_ISSUER": "c"},
            400,
            None,
        ),
        (
            lambda: learner_token(aud="course-1"),
            {**ONLY_SECRET, "LEARNER_TOKEN_AUDIENCE": "course-1"},
            200,
            "learner-42",
        ),
        (
            lambda: learner_token(aud="course-2"),
            {**ONLY_SECRET, "LEARNER_TOKEN_AUDIENCE": "course-1"},
            400,
            None,
        ),
        (lambda: 42, ONLY_SECRET, 400, None),
        (lambda: "not a token", ONLY_SECRET, 400, None),
    ],
)
def test_a_course_token_names_the_learner_in_the_receipt(tmp_path, token, config, status, sub):
    client = verifying(tmp_path, **config)
    response = client.post("/verify", json={"source": solutions.CORRECT, "learner": token()})
    assert response.status_code == status, response.get_json()
    if status == 200:
        assert decode(client, response.get_json()["receipt"]).get("sub") == sub
    else:
        assert "learner token" in response.get_json()["error"]


def test_a_course_may_sign_learner_tokens_with_its_own_jwks(tmp_path):
    course_key = Ed25519PrivateKey.generate()
    site = tmp_path / "course"
    site.mkdir()
    (site / "jwks.json").write_text(json.dumps({"keys": [{**public_jwk(course_key.public_key())}]}))
    with servers.http_server(site) as course:
        client = verifying(tmp_path, LEARNER_TOKEN_JWKS_URL=course + "jwks.json")
        token = jwt.encode(
            {"sub": "ada", "exp": int(time.time()) + 60},
            course_key,
            "EdDSA",
            {"kid": public_jwk(course_key.public_key())["kid"]},
        )
        answer = verified_with(client, {"source": solutions.CORRECT, "learner": token})
        assert decode(client, answer["receipt"])["sub"] == "ada"
        forged = jwt.encode(
            {"sub": "ada", "exp": int(time.time()) + 60}, Ed25519PrivateKey.generate(), "EdDSA"
        )
        response = client.post("/verify", json={"source": solutions.CORRECT, "learner": forged})
        assert response.status_code == 400


def verified_with(client, body: dict) -> dict:
    response = client.post("/verify", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_short_learner_secret_refuses_to_start(tmp_path):
    with pytest.raises(ValueError, match="at least 32 bytes"):
        verifying(tmp_path, LEARNER_TOKEN_SECRET="short")
