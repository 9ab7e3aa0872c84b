"""`POST <prefix>/verify`: re-grade a pass in the sandbox, decide here, and sign a receipt.

The learner's source runs in a fresh sandbox (server/sandbox.py) on the page's value sets and on
fresh ones drawn for this request; the sandbox hands back only the gradients it got. This process
compares them with the reference's (engine/compare.py's rule) and builds the report, so nothing the
learner's code prints, patches or forges changes the verdict; it can only spoil its own report.
"""

import contextlib
import fcntl
import hashlib
import importlib.util
import json
import math
import os
import py_compile
import random
import signal
import tempfile
import time
import uuid
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, jsonify, request, url_for
from flask_babel import format_number, gettext
from werkzeug.exceptions import RequestEntityTooLarge

from engine import report
from engine.cases import LEAVES, SEED, VERDICTS, role
from engine.compare import leaves_right
from engine.errors import MAX_SOURCE, refusal
from engine.expressions import words
from engine.grade import order
from engine.output import MAX_CHARS
from engine.report import KINDS, MAX_TEXT, cap, error, number
from server import ROOT, graphs, i18n, sandbox
from server.assets import engine_archive, graded_cases
from server.keysets import key_sets
from server.learner import Learners, LearnerTokenError
from server.limits import client, limits
from server.receipt import Signer
from server.reference import expected

bp = Blueprint("verify", __name__)
UNCHECKED = py_compile.PycInvalidationMode.UNCHECKED_HASH

EXERCISE = "backward"


def counted(verdict: str) -> tuple[str, ...]:
    """The expressions a verdict counts: the seed's three, and the teacher's choice of extras."""
    return (*SEED, *VERDICTS[verdict])


def fresh_values(rng: random.Random, expr: str) -> tuple[list[float], list[float]]:
    """One value set no page has shown, and its expected gradients: each leaf uniform in [-2, 2], to
    three decimals, not 0, drawn again until every leaf's gradient is at least graphs.SHARE (a long
    chain with a small w has gradients that round to 0: code that does nothing would pass it)."""
    for _ in range(graphs.ATTEMPTS):
        values = [graphs.leaf_value(rng) for _ in LEAVES[expr]]
        grads = expected(expr, values)
        if min(abs(g) for g in grads) >= graphs.SHARE:
            break
    return values, grads


def value_sets(verdict: str, fresh: int, rng: random.Random, graphs_drawn: int = 0) -> list[dict]:
    """The counted expressions' value sets: the page's, then `fresh` new ones each, with expected grads.

    Under strict, `graphs_drawn` random graphs too, each with a value set of its own (server/graphs.py).
    """
    cases = []
    for name in counted(verdict):
        page = [dict(c, fresh=False) for c in graded_cases(verdict) if c["expr"] == name]
        cases += [{k: v for k, v in c.items() if k != "expected_nodes"} for c in page]
        for _ in range(fresh):
            values, grads = fresh_values(rng, name)
            cases.append(
                {
                    "expr": name,
                    "leaves": list(LEAVES[name]),
                    "values": values,
                    "expected": grads,
                    "example": False,
                    "extra": False,
                    "fresh": True,
                }
            )
    for _ in range(graphs_drawn if VERDICTS[verdict] else 0):
        rows, values = graphs.draw(rng)
        cases.append(
            {
                "expr": "random",
                "leaves": list(LEAVES["random"]),
                "values": values,
                "graph": rows,
                "expected": expected("random", values, rows),
                "example": False,
                "extra": False,
                "fresh": True,
            }
        )
    return cases


@cache
def engine_files() -> dict[str, bytes]:
    """engine/ as the browser gets it, and its bytecode, which the sandbox's Python would compile each time.

    Unchecked-hash .pyc files: valid whatever the copies' times, for this interpreter (the sandbox's).
    """
    files = {}
    with tempfile.TemporaryDirectory() as folder:
        for path in sorted((ROOT / "engine").glob("*.py")):
            files[f"engine/{path.name}"] = path.read_bytes()
            compiled = Path(folder) / path.name
            py_compile.compile(
                str(path), str(compiled), f"engine/{path.name}", doraise=True, invalidation_mode=UNCHECKED
            )
            files[f"engine/{importlib.util.cache_from_source(path.name)}"] = compiled.read_bytes()
    files["driver.py"] = (ROOT / "server" / "sandbox_driver.py").read_bytes()
    return files


def sandbox_files(source: str, cases: list[dict], catalogue: dict | None = None) -> dict[str, bytes]:
    """What the sandbox sees: the engine (as the browser gets it), the driver, the source, the values, and
    the messages of the learner's language (server/i18n.py's catalogue; None: English)."""
    files = dict(engine_files())
    files["source.py"] = source.encode("utf-8", "surrogatepass")
    files["catalogue.json"] = json.dumps(catalogue).encode()
    fields = ("expr", "leaves", "values", "graph", "example", "extra")
    plain = [{k: c[k] for k in fields if k in c} for c in cases]
    files["cases.json"] = json.dumps(plain).encode()  # no expected gradients: the sandbox never sees them
    return files


def read_result(outcome: sandbox.Outcome) -> tuple[dict | None, dict | None]:
    """Parse the sandbox's one JSON document; or say, as an error, why there is none to trust."""
    limit = f"{current_app.config['VERIFY_TIME_LIMIT_MS'] / 1000:g} s"
    code = outcome.returncode  # bwrap gives 128 + n for a process inside killed by signal n
    killed_by = -code if code is not None and code < 0 else code - 128 if code and code > 128 else None
    if outcome.timed_out or killed_by == signal.SIGXCPU:  # the CPU limit
        return None, error(
            "timeout",
            gettext("Stopped at the server's time limit (%(limit)s): your code ran too long.", limit=limit),
        )
    if outcome.result_overflow:
        return None, error("crash", gettext("The server's sandbox wrote more than the result may hold."))
    try:
        data = json.loads(outcome.result.decode())
        if not isinstance(data, dict) or not isinstance(data.get("got"), list):
            raise ValueError("not a result")
    except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than Python parses
        how = (
            gettext("killed by %(signal)s", signal=signal_name(killed_by))
            if killed_by
            else gettext("exit status %(code)s", code=code)
        )
        if not outcome.result:
            why = gettext("it gave no result (%(how)s)", how=how)
        else:
            why = gettext("its result channel held something other than the grader's answer")
        return None, error("crash", gettext("Your code ended the server's Python: %(why)s.", why=why))
    return data, None


def signal_name(number: int) -> str:
    """SIGSEGV for 11, and so on."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def sandbox_error(data: dict) -> dict | None:
    """The error the sandbox's grader reported, checked and capped (its text is the learner's to spoil)."""
    err = data.get("error")
    if err is None:
        return None
    if not isinstance(err, dict) or err.get("kind") not in KINDS:
        return error("crash", gettext("The server's sandbox gave an error the grader does not know."))
    line = err.get("line")
    return error(
        err["kind"],
        cap(str(err.get("message", ""))),
        line if isinstance(line, int) and not isinstance(line, bool) else None,
        cap(str(err.get("traceback", "")), MAX_TEXT * 2),
        "editor" if err.get("file") == "editor" else None,
    )


def numbers(got: object, size: int) -> list | None:
    """The gradients of one value set as the report gives them (finite floats, or text), or None.

    None when they are not a list of size numbers and texts: the sandbox's grader would not send that.
    """
    if not isinstance(got, list) or len(got) != size:
        return None
    if any(type(g) not in (int, float, str) for g in got):
        return None
    # nan, inf and ints beyond any float as text, as the browser's grader gives them; text as it came
    return [g[:40] if type(g) is str else number(g) for g in got]


def judge(cases: list[dict], outcome: sandbox.Outcome, verdict: str) -> dict:
    """Decide from the numbers the sandbox returned: the report, in the browser's shape."""
    data, err = read_result(outcome)
    got_all = data["got"] if data else []
    err = err or (sandbox_error(data) if data else None)
    expressions: dict[str, dict] = {}
    for i, case in enumerate(cases):
        name = case["expr"]
        if name not in expressions:
            expressions[name] = report.expression(name, words(name), list(case["leaves"]), False, role(name))
        result = report.case(case["values"], case["expected"], case["example"], case["fresh"])
        result["got"] = numbers(got_all[i], len(case["values"])) if i < len(got_all) else None
        result["right"] = None if result["got"] is None else leaves_right(result["got"], case["expected"])
        result["passed"] = result["right"] is not None and all(result["right"])
        expressions[name]["cases"].append(result)
        expressions[name]["passed"] = expressions[name]["passed"] and result["passed"]
    graded = list(expressions.values())
    passed = err is None and bool(graded) and all(e["passed"] for e in graded)
    judged = report.report(graded, err, order(graded, err), verdict, passed)
    judged["output"] = printed(data.get("output") if data else None)
    return judged


def printed(output: object) -> dict:
    """What the sandbox says the code printed, as the report gives it, whatever the code made of it."""
    if not (isinstance(output, dict) and isinstance(output.get("text"), str)):
        return report.no_output()
    cut = output.get("cut_chars")
    cut = cut if isinstance(cut, int) and not isinstance(cut, bool) else 0
    return report.output(output["text"][:MAX_CHARS], cut + max(0, len(output["text"]) - MAX_CHARS))


class Slots:
    """A bounded number of sandboxes at once, machine-wide: one lock file per slot (flock).

    A slot's number also gives its sandbox a uid of its own, so one run's processes never count
    against another's RLIMIT_NPROC.
    """

    def __init__(self, folder: Path, count: int) -> None:
        self.folder = folder
        self.count = count
        folder.mkdir(parents=True, exist_ok=True)

    @contextlib.contextmanager
    def take(self) -> Iterator[int | None]:
        """Hold a free slot for the block, or give None when all are busy."""
        held = None
        for slot in range(self.count):
            fd = os.open(self.folder / f"{slot}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            held = (slot, fd)
            break
        try:
            yield held[0] if held else None
        finally:
            if held:
                os.close(held[1])  # closing the file releases its lock


def refuse(status: int, message: str, retry_after: float | None = None) -> tuple[Response, int]:
    """A JSON error with its status (and Retry-After, in whole seconds)."""
    response = jsonify(error=message)
    if retry_after is not None:
        response.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return response, status


@cache
def version(verdict: str) -> str:
    """A hash of the engine and the cases: a receipt names the exercise's exact version."""
    cases = json.dumps(graded_cases(verdict), sort_keys=True).encode()
    return hashlib.sha256(engine_archive() + cases).hexdigest()[:16]


class TokenRefused(Exception):
    """A learner or launch token did not check out (the message says so, to the learner)."""


def learner_of(payload: dict, state: dict) -> tuple[str | None, dict | None]:
    """The learner (sub) and LTI launch the request's tokens name; TokenRefused when one is refused."""
    token = payload.get("learner")
    sub = None
    if token is not None and state["learners"] is not None:  # without a course's keys, no learner is known
        if not isinstance(token, str):
            raise TokenRefused(gettext("The learner token must be text."))
        try:
            sub = state["learners"].subject(token)
        except LearnerTokenError as exc:
            refused = gettext(
                "The learner token was refused (%(reason)s); reload the course's page.", reason=exc
            )
            raise TokenRefused(refused) from exc
    launch = None  # LTI hook (server/lti): a launched page's token names the learner and the course
    if payload.get("launch") is not None and "lti" in current_app.extensions:
        from server.lti.views import launch_from_token

        launch = launch_from_token(payload["launch"])
        if launch is None:
            raise TokenRefused(
                gettext("The launch token was refused (expired or altered); open the exercise again.")
            )
        sub = launch["sub"]
    return sub, launch


def limits_of(config) -> sandbox.Limits:
    """The sandbox's limits from the app's settings."""
    seconds = config["VERIFY_TIME_LIMIT_MS"] / 1000
    return sandbox.Limits(wall_s=seconds, cpu_s=max(1, math.ceil(seconds)))


@bp.errorhandler(RequestEntityTooLarge)
def too_large(_: RequestEntityTooLarge) -> tuple[Response, int]:
    """Refuse a body over the source limit."""
    return refuse(
        413, gettext("The code is over the limit of %(limit)s characters.", limit=format_number(MAX_SOURCE))
    )


@bp.post("/verify")
def verify() -> tuple[Response, int]:
    """Run the posted source in the sandbox, decide its verdict here, and sign a receipt."""
    state = current_app.extensions["verify"]
    request.max_content_length = MAX_SOURCE * 6 + 4096  # JSON-escaped text may take six bytes a character
    payload = request.get_json(silent=True)
    source = payload.get("source") if isinstance(payload, dict) else None
    if not isinstance(source, str) or not source.strip():
        return refuse(
            400, 'Send JSON {"source": "<your code>"}, with the code as text.'
        )  # to a script's author
    with i18n.speaking():  # the engine's words (engine/words.py) in the page's language
        reason = refusal(source)
    if reason:
        return refuse(413, reason)
    config = current_app.config
    who = client()
    # One sandbox at a time per client; the count, before anything that costs (the course's key set,
    # the sandbox); then a slot: every one busy is a 503, and the count is taken back.
    hold_s = config["VERIFY_TIME_LIMIT_MS"] / 1000 + 60
    limit, window = config["VERIFY_RATE_LIMIT"], config["VERIFY_RATE_WINDOW_S"]
    with limits().hold("verify", who, hold_s) as mine:
        if not mine:
            return refuse(429, gettext("Your last verification is still running; wait for its answer."), 1)
        if wait := limits().count("verify", limit, window, who):
            return refuse(429, gettext("Too many verifications from you; try again in a moment."), wait)
        try:
            sub, launch = learner_of(payload, state)
        except TokenRefused as exc:
            return refuse(400, str(exc))
        with state["slots"].take() as slot:
            if slot is None:
                limits().refund("verify", who, window)
                return refuse(503, gettext("Every sandbox is busy; try again in a moment."), 1)
            verdict = config["VERDICT"]
            start = time.perf_counter()
            drawn = config["VERIFY_FRESH_GRAPHS"]
            cases = value_sets(verdict, config["VERIFY_FRESH_SETS"], random.SystemRandom(), drawn)
            try:
                outcome = sandbox.run(
                    sandbox_files(source, cases, i18n.catalogue()),
                    "driver.py",
                    limits_of(config),
                    sandbox.sandbox_uid(slot, config["SANDBOX_UID"]),
                )
            except OSError:
                current_app.logger.exception("the sandbox could not start")
                limits().refund("verify", who, window)
                return refuse(503, gettext("The sandbox could not start; try again in a moment."), 5)
    with i18n.speaking():  # the report's words: the expressions', the errors' caps
        report = judge(cases, outcome, verdict)
    report["ms"] = round((time.perf_counter() - start) * 1000, 3)
    claims = {
        "iss": url_for("page.index", _external=True),
        "iat": int(time.time()),
        "jti": uuid.uuid4().hex,
        "exercise": EXERCISE,
        "version": version(verdict),
        "rule": verdict,
        "passed": report["passed"],
        "expressions": [{"name": e["name"], "passed": e["passed"]} for e in report["expressions"]],
        "source_sha256": hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest(),
    }
    if sub is not None:
        claims["sub"] = sub  # the learner the course's token names
    if launch is not None:
        claims["lms"] = launch["issuer"]  # LTI: sub is this platform's user
    body = {"report": report, "receipt": state["signer"].sign(claims)}
    if launch is not None:  # LTI hook: a verified pass goes to the course's gradebook
        from server.lti.views import record_pass

        body["grade"] = record_pass(launch, report, claims["jti"])
    return jsonify(body), 200


@bp.get("/.well-known/jwks.json")
def jwks() -> Response:
    """Publish the public keys that sign receipts, the current one and those retired but kept."""
    response = jsonify(current_app.extensions["verify"]["signer"].jwks())
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"  # course pages may fetch it
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


def init_app(app: Flask) -> None:
    """Turn verification on: check the sandbox starts (or refuse to start), load the key, the limits."""
    if app.config["VERDICT"] not in VERDICTS:
        choices = ", ".join(VERDICTS)
        raise ValueError(f"PLAYGROUND_VERDICT must be one of {choices}, not {app.config['VERDICT']!r}")
    if not app.config["VERIFY"]:
        return
    try:
        sandbox.check()
    except sandbox.SandboxUnavailable as exc:
        message = f"PLAYGROUND_VERIFY=1, but no sandbox can start, so no learner code will run here: {exc}"
        raise sandbox.SandboxUnavailable(message) from None
    instance = Path(app.instance_path)
    key_file = Path(app.config["SIGNING_KEY_FILE"] or instance / "signing-key.pem")
    retired = Path(app.config["SIGNING_RETIRED_KEYS"] or instance / "retired-keys")
    slots = Path(app.config["VERIFY_SLOTS_DIR"] or instance / "sandbox-slots")
    if int(app.config["VERIFY_SLOTS"] or 1) > sandbox.PLAIN_SLOT:
        raise ValueError(f"PLAYGROUND_VERIFY_SLOTS is at most {sandbox.PLAIN_SLOT}")
    app.extensions["verify"] = {
        "signer": Signer(key_file, retired),
        "slots": Slots(slots, int(app.config["VERIFY_SLOTS"] or os.cpu_count() or 1)),
        "learners": Learners.from_config(app.config, key_sets(app)),
    }
    app.register_blueprint(bp)
