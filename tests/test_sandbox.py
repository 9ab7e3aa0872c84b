"""server/sandbox/box.py on its own: the real bubblewrap, its limits, and a server not run as root."""

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pyseccomp
import pytest

from server import ROOT
from server.sandbox import box, bwrap, terms


def run(code: str, **limits) -> terms.Outcome:
    return box.run({"probe.py": code.encode()}, "probe.py", terms.Limits(**limits))


def answer(code: str) -> str:
    """Run code that computes `value`; return what it wrote on the result channel."""
    code = f"import os, sys\n{code}\nos.write(int(sys.argv[1]), repr(value).encode())"
    return run(code).result.decode()


def test_inside_is_another_uid_with_no_capabilities_no_environment_and_its_own_pids():
    uid, pid, environ, caps = eval(
        answer(
            "value = (os.getuid(), os.getpid(), dict(os.environ),"
            " open('/proc/self/status').read().split('CapEff:')[1].split()[0])"
        )
    )
    assert uid == (bwrap.sandbox_uid(bwrap.PLAIN_SLOT) if os.geteuid() == 0 else os.geteuid())
    assert pid == 2 and int(caps, 16) == 0  # bubblewrap's reaper is 1
    assert set(environ) <= {"PATH", "PWD", "LC_CTYPE"}


def test_only_the_system_python_and_the_runs_files_are_visible():
    listed = eval(answer("value = sorted(os.listdir('/'))"))
    assert set(listed) <= {
        "bin",
        "dev",
        "lib",
        "lib32",
        "lib64",
        "proc",
        "sandbox",
        "sbin",
        "tmp",
        "usr",
        "root",
    }
    assert eval(answer("value = os.listdir('/sandbox')")) == ["probe.py"]
    assert "Read-only" in answer(
        "try:\n    open('/sandbox/x', 'w')\nexcept OSError as e:\n    value = str(e)"
    )


def test_the_cpu_limit_kills_without_the_wall_clock():
    outcome = run("while True:\n    pass", wall_s=10, cpu_s=1)
    assert not outcome.timed_out and outcome.returncode in (-24, 128 + 24, -9, 128 + 9)
    assert outcome.seconds < 5


def test_the_result_channel_is_capped():
    outcome = run("import os, sys\nos.write(int(sys.argv[1]), b'x' * 3000)", result_size=1000)
    assert outcome.result_overflow and len(outcome.result) == 1000


def test_bubblewrap_error_is_said_at_start_up(monkeypatch):
    monkeypatch.setattr(bwrap, "BWRAP", shutil.which("false"))
    with pytest.raises(terms.SandboxUnavailable, match="cannot start a sandbox here"):
        box.check()


@pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists("/usr/bin/python3"), reason="needs root to switch"
)
def test_a_server_not_run_as_root_gets_a_user_namespace_sandbox():
    # As nobody, with Debian's Python (the venv's may not be readable by another user): --unshare-all.
    # A copy of the box's modules (server/sandbox/box.py and those it imports, in an empty server
    # package) and of the seccomp binding beside the probe: nobody may not read the checkout or the venv
    # (a clone in root's home, or in a `mktemp -d` folder).
    tmp_path = Path(tempfile.mkdtemp())  # pytest's folders are root's alone
    (tmp_path / "server" / "sandbox").mkdir(parents=True)
    (tmp_path / "server" / "__init__.py").write_text("")
    for name in ("__init__.py", "box.py", "bwrap.py", "seccomp.py", "terms.py"):
        shutil.copy(ROOT / "server" / "sandbox" / name, tmp_path / "server" / "sandbox" / name)
    shutil.copy(pyseccomp.__file__, tmp_path / "pyseccomp.py")
    script = tmp_path / "probe.py"
    script.write_text(
        "import json\n"
        "from server.sandbox import box, bwrap, terms\n"  # the copy: the probe's folder is first on sys.path
        "box.check()\n"
        "code = b'import os, socket, sys\\n'\n"
        "code += b'try:\\n    socket.create_connection((\"127.0.0.1\", 22), timeout=1)\\n'\n"
        "code += b'    net = \"open\"\\n'\n"
        "code += b'except OSError as e:\\n    net = type(e).__name__\\n'\n"
        "code += b'os.write(int(sys.argv[1]), repr((os.getuid(), os.getpid(), net,'\n"
        'code += b\' open("/proc/1/environ", "rb").read())).encode())\'\n'
        "outcome = box.run({'p.py': code}, 'p.py', terms.Limits())\n"
        "print(json.dumps([bwrap.privileged(), outcome.result.decode()]))\n"
    )
    for folder, _, files in os.walk(tmp_path):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)
    result = subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
    )
    shutil.rmtree(tmp_path)
    assert result.returncode == 0, result.stderr
    privileged, inside = json.loads(result.stdout)
    uid, pid, net, environ = eval(inside)
    assert privileged is False and uid == 65534 and pid == 2
    assert net == "ConnectionRefusedError"  # its own empty loopback: nothing listens
    assert environ == b""  # bubblewrap itself was started with no environment


def test_the_limits_hold_inside():
    limits = eval(answer("value = open('/proc/self/limits').read()"))
    rows = {line[:26].strip(): line[26:].split()[:2] for line in limits.splitlines()[1:]}
    default = terms.Limits()
    assert rows["Max address space"] == [str(default.memory)] * 2
    assert rows["Max processes"] == [str(default.processes)] * 2
    assert rows["Max file size"] == [str(default.file_size)] * 2
    assert rows["Max open files"] == [str(default.open_files)] * 2
    assert rows["Max cpu time"] == [str(default.cpu_s), str(default.cpu_s + 1)]
    assert rows["Max core file size"] == ["0", "0"]
