"""Sandboxes that share a kernel, and a sandbox that fails on the server's side (issue 42, finding 7).

Deployments in containers on one kernel have alike pids, so their sandboxes may run as one uid: three
deployments in this one process (distinct folders and keys, one pid) verify right code at once, and
each must pass. Nothing one verification leaves in the kernel (a key in the uid's keyring) reaches the
next. A sandbox that could not run the learner's code (bubblewrap failing, the uid's process limit
reached from outside) is the server's fault, said so in the learner's language and logged for the host,
never told as the learner's code's.
"""

import logging
import secrets
import subprocess
import threading
import time

import pytest
from flask import Flask

from server import create_app
from server.sandbox import bwrap, terms
from tests.support import solutions
from tests.support.sandboxes import sandbox_processes

pytestmark = pytest.mark.slow  # real sandboxes: not in make test-fast

SERVER_FAULT = "The server could not run your code; try again in a moment."


def deployment(folder, **config) -> Flask:
    """One deployment of the playground: folders and a signing key of its own, one sandbox slot."""
    folder.mkdir()
    settings = {
        "TESTING": True,
        "VERIFY": True,
        "VERIFY_SLOTS": 1,
        "VERIFY_TIME_LIMIT_MS": 5000,  # right code finishes far inside it, however busy the machine
        "SIGNING_KEY_FILE": str(folder / "key.pem"),
        "VERIFY_SLOTS_DIR": str(folder / "slots"),
    }
    return create_app({**settings, **config})


def test_three_deployments_on_one_kernel_each_verify_right_code_at_once(tmp_path):
    apps = [deployment(tmp_path / f"deployment-{n}") for n in range(3)]
    start = threading.Barrier(len(apps))
    answers: dict[int, object] = {}

    def verify(n: int) -> None:
        client = apps[n].test_client()
        for _ in range(2):  # twice each: the three sandboxes overlap
            start.wait()
            response = client.post("/verify", json={"source": solutions.CORRECT})
            answers.setdefault(n, []).append((response.status_code, response.get_json()))

    threads = [threading.Thread(target=verify, args=(n,)) for n in range(len(apps))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    for n, sent in answers.items():
        for status, body in sent:
            assert status == 200, (n, body)
            assert body["report"]["passed"], (n, body["report"].get("error"))
    assert sum(len(sent) for sent in answers.values()) == 6


# Learner code (at module level, before the right backward) that adds a key to the uid's keyrings, or
# looks for one and prints what it finds: ctypes' syscall, no keyutils needed.
KEYRING = """import ctypes, platform
NUMBERS = {"x86_64": (248, 250), "aarch64": (217, 219)}[platform.machine()]  # add_key, keyctl
libc = ctypes.CDLL(None, use_errno=True)
USER, USER_SESSION, SEARCH = -4, -5, 10  # KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING
NAME = b"DESCRIPTION"
for ring in (USER, USER_SESSION):
    if ACTION == "add":
        found = libc.syscall(NUMBERS[0], b"user", NAME, b"left by the last verification", 29, ring)
    else:
        found = libc.syscall(NUMBERS[1], SEARCH, ring, b"user", NAME, 0)
    print(ACTION, ring, found, ctypes.get_errno())
"""


def test_a_key_one_verification_adds_to_the_keyring_is_not_seen_by_the_next(tmp_path):
    client = deployment(tmp_path / "deployment").test_client()
    name = f"playground-test-{secrets.token_hex(6)}"
    printed = []
    for action in ("add", "find"):
        code = KEYRING.replace("DESCRIPTION", name).replace("ACTION", repr(action))
        response = client.post("/verify", json={"source": code + solutions.CORRECT})
        assert response.status_code == 200, response.get_json()
        report = response.get_json()["report"]
        assert report["passed"], report.get("error")
        printed.append(report["output"]["text"].splitlines())
    added, found = printed
    assert len(found) == 2, found
    for line in found:
        _, ring, key, _ = line.split()
        assert int(key) == -1, f"the key the last verification added is there: {line} (added: {added})"


def fault_said(response, caplog, log: str, language: str = "en") -> None:
    """The answer is the server's fault in the learner's words, and the host's log says why."""
    assert response.status_code == 503, response.get_json()
    body = response.get_json()
    assert "report" not in body and "receipt" not in body  # no verdict on code that never ran
    assert (
        body["error"]
        == {
            "en": SERVER_FAULT,
            "de": "Der Server konnte deinen Code nicht ausführen; versuche es gleich noch einmal.",
        }[language]
    )
    assert response.headers["Retry-After"]
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("a verification could not run" in line and log in line for line in logged), logged


def test_bubblewrap_failing_is_the_servers_fault_not_the_learners_code(tmp_path, monkeypatch, caplog):
    client = deployment(tmp_path / "deployment").test_client()
    binds = bwrap.system_binds()
    missing = str(tmp_path / "gone")  # bwrap cannot set up: it refuses to start the sandbox
    monkeypatch.setattr(bwrap, "system_binds", lambda: [*binds, "--ro-bind", missing, "/gone"])
    for language in ("en", "de"):
        caplog.clear()
        response = client.post(
            "/verify", json={"source": solutions.CORRECT}, headers={"Accept-Language": language}
        )
        fault_said(response, caplog, "Can't find source path", language)
    monkeypatch.undo()
    assert client.post("/verify", json={"source": solutions.CORRECT}).get_json()["report"]["passed"]


@pytest.mark.skipif(not bwrap.privileged(), reason="the sandbox's uid is the server user's without root")
def test_the_uids_process_limit_reached_outside_is_the_servers_fault(tmp_path, caplog):
    app = deployment(tmp_path / "deployment")
    uid = bwrap.sandbox_uid(0, app.config["SANDBOX_UID"])  # the one slot's
    switch = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "sleep", "60"]
    # The kernel checks the count before the switch adds the sandbox's: one more than the limit refuses it
    others = [subprocess.Popen(switch) for _ in range(terms.Limits().processes + 1)]
    try:
        switched = time.monotonic() + 10
        while len(sandbox_processes({uid})) < len(others):  # until each has switched to the uid
            assert time.monotonic() < switched
            time.sleep(0.02)
        response = app.test_client().post("/verify", json={"source": solutions.CORRECT})
        fault_said(response, caplog, "Resource temporarily unavailable")
    finally:
        for other in others:
            other.kill()
            other.wait()
    assert (
        app.test_client().post("/verify", json={"source": solutions.CORRECT}).get_json()["report"]["passed"]
    )
