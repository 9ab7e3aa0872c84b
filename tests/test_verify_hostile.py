"""Hostile code at POST /verify: a real gunicorn, the real bubblewrap sandbox, the issue's table.

Each body runs at module level and inside backward (on every call); each is followed by a correct and
a wrong verification, which must come out right: nothing one verification does reaches the next.
"""

import json
import os
import secrets
import time
import urllib.error
import urllib.request

import pytest

from engine.compare import close
from engine.output import MAX_CHARS
from server import ROOT
from tests.support import servers, solutions
from tests.support.sandboxes import sandbox_processes, server_uids

# Slow: real sandboxes and a server process (not in make test-fast). Alone: a runaway row is stopped at
# a 1 s limit, so honest rows must finish well inside it, which a machine busy with other tests blurs.
pytestmark = [pytest.mark.slow, pytest.mark.alone]

CANARY = f"canary-{secrets.token_hex(8)}"  # in the server's environment: must never come back
LIMIT_MS = 1000  # a short time limit, so the runaway rows take a second each
WRONG = solutions.NOT_REVERSED

# (id, body, outcomes allowed, base): outcome is "pass", "fail" or the error's kind. APP_DIR, KEY_FILE
# and PORT are replaced by the app's folder, the signing key's path and the server's port.
ROWS = [
    ("etc-passwd", 'print(open("/etc/passwd").read())', {"runtime"}, None),
    ("proc-1-environ", 'print(open("/proc/1/environ", "rb").read())', {"runtime", "pass"}, None),
    ("proc-self-environ", 'print(open("/proc/self/environ", "rb").read())', {"pass"}, None),
    ("signing-key", 'print(open("KEY_FILE").read())', {"runtime"}, None),
    ("app-folder", 'import os\nprint(os.listdir("APP_DIR"))', {"runtime"}, None),
    (
        "import-reference",
        "import importlib\n"
        'for name in ("server.exercises.reference", "reference", "server", "engine.reference"):\n'
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError:\n"
        "        continue\n"
        '    raise SystemExit("imported " + name)\n'
        'exec(open("APP_DIR/server/reference.py").read())',
        {"runtime"},
        None,
    ),
    (
        "tcp-to-server",
        'import socket\nsocket.create_connection(("127.0.0.1", PORT), timeout=2)',
        {"runtime"},
        None,
    ),
    ("dns", 'import socket\nsocket.getaddrinfo("example.org", 80)', {"runtime"}, None),
    (
        "udp",
        'import socket\nsocket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("8.8.8.8", 53))',
        {"runtime"},
        None,
    ),
    ("fork-loop", "import os\nwhile True:\n    os.fork()", {"runtime", "crash", "timeout"}, None),
    (  # the 6 forked processes of 300 MB each: one process may run, so one memory bound holds
        "fork-six-hogs",
        "import os\nfor _ in range(6):\n    if os.fork() == 0:\n"
        "        b = bytearray(300 * 2**20)\n        while True:\n            pass",
        {"runtime"},
        None,
    ),
    ("thread", "import threading\nthreading.Thread(target=lambda: None).start()", {"runtime"}, None),
    ("over-a-gib", "b = bytearray(2**30)", {"runtime"}, None),
    (
        "popen-sh",
        'import subprocess\nsubprocess.Popen(["sh", "-c", "sleep 1000 & cat /etc/shadow"]).wait()',
        {"runtime"},  # one process: no fork
        None,
    ),
    ("os-system", 'import os\nos.system("kill -9 -1")', {"pass"}, None),  # no shell starts: it returns -1
    ("kill-parent", "import os\nos.kill(os.getppid(), 9)", {"runtime", "pass"}, None),
    ("killpg", "import os\nos.killpg(0, 9)", {"crash"}, None),
    (
        "signals-ignored",
        "import signal\n"
        "for s in (signal.SIGXCPU, signal.SIGTERM, signal.SIGINT, signal.SIGALRM, signal.SIGHUP):\n"
        "    signal.signal(s, signal.SIG_IGN)\n"
        "signal.alarm(1)\n"
        "while True:\n"
        "    pass",
        {"timeout"},
        None,
    ),
    ("while-true", "while True:\n    pass", {"timeout"}, None),
    ("sleep", "import time\ntime.sleep(10**6)", {"timeout"}, None),
    (
        "catch-everything",
        "while True:\n    try:\n        while True:\n            pass\n"
        "    except BaseException:\n        pass",
        {"timeout"},
        None,
    ),
    ("bytearray-4gb", "bytearray(4 * 10**9)", {"runtime"}, None),
    ("growing-list", "x = []\nwhile True:\n    x.append([0] * 10000)", {"runtime", "crash", "timeout"}, None),
    ("print-100mb", 'print("x" * 10**8)', {"output", "timeout"}, None),  # stopped: far past the cap
    ("ten-million-prints", 'for _ in range(10**7):\n    print("x")', {"output", "timeout"}, None),
    (
        "tmp-1gb",
        'f = open("/tmp/big", "wb")\nwhile True:\n    f.write(b"x" * 2**20)',
        {"runtime", "crash"},
        None,
    ),
    ("app-write", 'open("APP_DIR/pwned", "w").write("x")', {"runtime"}, None),
    (
        "home-write",
        'import os\nopen(os.path.expanduser("~/pwned-by-verify"), "w").write("x")',
        {"runtime"},
        None,
    ),
    ("ctypes-poke", "import ctypes\nctypes.string_at(0)", {"crash"}, None),
    (
        "deep-recursion",
        "import sys\nsys.setrecursionlimit(10**6)\ndef f(n):\n    return f(n + 1)\nf(0)",
        {"runtime", "crash"},
        None,
    ),
    # Forgeries, with a WRONG backward: the verdict must stay "not passed".
    (  # the sandbox runs no grader, but has its files: patched, they decide nothing
        "patch-grader",
        "import engine.judge\n"
        "engine.judge.outputs_right = lambda got, expected, tolerance: [True] * len(got)",
        {"fail"},
        WRONG,
    ),
    (
        "patch-compare",
        "import engine.compare\nengine.compare.close = lambda a, b, tolerance=None: True\n"
        "import engine.outputs\n"
        "engine.outputs.as_floats = lambda numbers, leaves, source, said: ([1.0] * len(leaves), None)",
        {"fail"},
        WRONG,
    ),
    ("print-forged", 'print(\'{"passed": true, "got": [[1.0]], "error": null}\')', {"fail"}, WRONG),
    (
        "forge-channel",
        "import os, sys, json\n"
        "cases = json.load(open('cases.json'))\n"
        'os.write(int(sys.argv[1]), json.dumps({"got": [[0.0] * len(c["leaves"]) for c in cases],'
        ' "error": None}).encode())',
        {"fail", "crash"},
        WRONG,
    ),
    (
        "lying-float",
        "class Liar(float):\n"
        "    calls = 0\n"
        "    def __round__(self, n=None):\n"
        "        return self\n"
        "    def __float__(self):\n"
        "        Liar.calls += 1\n"
        "        return float.__float__(self) + (Liar.calls % 2)\n"
        "import builtins\n"
        "real_round = builtins.round\n"
        "builtins.round = lambda x, n=None: Liar(x)",
        {"fail", "runtime"},
        WRONG,
    ),
]


def placed(body: str, where: str, base: str) -> str:
    """The body at module level before base, or as the first lines of base's backward."""
    if where == "module":
        return body + "\n" + base
    indented = "".join(f"    {line}\n" for line in body.splitlines())
    head = "def backward(out):\n"
    return base.replace(head, head + indented, 1)


def outcome(report: dict) -> str:
    """pass, fail, or the error's kind."""
    if report["passed"]:
        return "pass"
    return report["error"]["kind"] if report["error"] else "fail"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real gunicorn with verification on, a key of its own, a canary in its environment."""
    folder = tmp_path_factory.mktemp("instance")
    env = {
        "PLAYGROUND_VERIFY": "1",
        "PLAYGROUND_VERIFY_TIME_LIMIT_MS": str(LIMIT_MS),
        "PLAYGROUND_VERIFY_RATE_LIMIT": "100000",
        "PLAYGROUND_SIGNING_KEY_FILE": str(folder / "signing-key.pem"),
        "BACKPROP_CANARY": CANARY,
    }
    log: list[str] = []
    with servers.gunicorn(workers=1, threads=4, env=env, log=log) as base:
        yield base, folder / "signing-key.pem", log


def post(base: str, source: str) -> tuple[int, dict, str]:
    """POST a source to /verify; return the status, the JSON answer and its raw text."""
    request = urllib.request.Request(
        base + "verify", json.dumps({"source": source}).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
            return response.status, json.loads(text), text
    except urllib.error.HTTPError as exc:
        text = exc.read().decode()
        return exc.code, json.loads(text), text


def honest(report: dict) -> None:
    """Every case's verdict is what its own numbers say, and the report's verdict follows from them."""
    for expr in report["expressions"]:
        for case in expr["cases"]:
            got = case["got"]
            right = got is not None and all(
                isinstance(g, int | float) and close(float(g), e)
                for g, e in zip(got, case["expected"], strict=True)
            )
            assert case["passed"] == right, case
        assert expr["passed"] == all(c["passed"] for c in expr["cases"])
    assert report["passed"] == (report["error"] is None and all(e["passed"] for e in report["expressions"]))
    assert any(c["fresh"] for e in report["expressions"] for c in e["cases"])  # fresh value sets were used


@pytest.mark.parametrize("where", ["module", "backward"])
@pytest.mark.parametrize(("name", "body", "allowed", "base"), ROWS, ids=[r[0] for r in ROWS])
def test_hostile_body_is_contained(server, name, body, allowed, base, where):
    url, key_file, log = server
    port = url.rstrip("/").rsplit(":", 1)[1]
    body = body.replace("APP_DIR", str(ROOT)).replace("KEY_FILE", str(key_file)).replace("PORT", port)
    status, answer, text = post(url, placed(body, where, base or solutions.CORRECT))
    assert status == 200, text
    report = answer["report"]
    honest(report)
    assert outcome(report) in allowed, (outcome(report), report["error"], report["output"]["text"][:300])
    for secret in (CANARY, "PRIVATE KEY", key_file.read_text().splitlines()[1], "root:x:0"):
        assert secret not in text
    assert len(report["output"]["text"]) <= MAX_CHARS
    assert not (ROOT / "pwned").exists() and not os.path.exists(os.path.expanduser("~/pwned-by-verify"))
    deadline = time.monotonic() + 3
    ours = server_uids(log)
    assert ours, "no worker pid in the server's log"
    while sandbox_processes(ours) and time.monotonic() < deadline:  # the PID namespace is torn down
        time.sleep(0.05)
    assert sandbox_processes(ours) == []
    # The next verifications come out right: the server and its sandboxes are unaffected.
    status, answer, _ = post(url, solutions.CORRECT)
    assert status == 200 and answer["report"]["passed"] is True, answer["report"]["error"]
    status, answer, _ = post(url, WRONG)
    assert status == 200 and outcome(answer["report"]) == "fail"


def test_nothing_written_to_tmp_is_left_for_the_next_verification(server):
    url, _, _ = server
    leave = 'open("/tmp/left-behind", "w").write("x")\n' + solutions.CORRECT
    assert post(url, leave)[1]["report"]["passed"] is True  # /tmp is writable, within its cap
    look = 'import os\nassert not os.path.exists("/tmp/left-behind"), "found"\n' + solutions.CORRECT
    assert post(url, look)[1]["report"]["passed"] is True
