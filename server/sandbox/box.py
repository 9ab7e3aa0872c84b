"""Run Python in a fresh bubblewrap sandbox per call: no network, a read-only system, its own PIDs.

The sandbox sees the system's /usr (and /lib*, /bin), the Python interpreter's own prefix, and one
folder of files copied in for this run, read-only at /sandbox; a private, size-capped /tmp; no
environment variables. Resource limits (CPU, address space, file size, open files) are set
by util-linux's prlimit, which then execs bubblewrap, so they apply to everything inside (and no Python
code runs between fork and exec in the server's threaded process); a wall-clock limit kills the whole
process group, and bubblewrap's --die-with-parent and PID namespace take every process inside with it.

The seccomp filter it loads: server/sandbox/seccomp.py; the command line, the uids and who runs as
which: server/sandbox/bwrap.py; what a run may use and how it ended: server/sandbox/terms.py.
"""

import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from server.sandbox import bwrap
from server.sandbox.seccomp import seccomp_fd, seccomp_program
from server.sandbox.terms import Limits, Outcome, SandboxUnavailable


def write_files(folder: Path, files: dict[str, bytes]) -> None:
    """Copy the run's files in, readable by the sandbox's uid, writable by no one inside."""
    folder.chmod(0o755)
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.parent.chmod(0o755)
        path.write_bytes(data)
        path.chmod(0o644)


def run(files: dict[str, bytes], script: str, limits: Limits, uid: int | None = None) -> Outcome:
    """Run `python script <fd>` inside a fresh sandbox over files; collect what it writes on fd.

    The script gets the number of its result channel as its one argument. Its stdout goes nowhere; its
    stderr (bwrap's, setpriv's, Python's) to a file of this run, whose first 4 kB come back for the log
    (a file, not a pipe: the code inside cannot block on it). Only the result channel comes back as the
    run's answer, and only up to limits.result_size bytes.
    """
    start = time.monotonic()
    uid = bwrap.sandbox_uid(bwrap.PLAIN_SLOT) if uid is None else uid
    folder = Path(tempfile.mkdtemp(prefix="playground-sandbox-"))
    read_end, write_end = os.pipe()
    filter_fd = seccomp_fd()
    process = None
    try:
        write_files(folder, files)
        with tempfile.TemporaryFile() as errors:
            process = subprocess.Popen(
                bwrap.command(folder, [f"{bwrap.INSIDE}/{script}", str(write_end)], limits, uid, filter_fd),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errors,
                pass_fds=(write_end, filter_fd),
                env={},  # bwrap itself (PID 1 inside, /proc/1/environ) has none of the server's environment
                start_new_session=True,  # its own process group, killed whole at the limit
            )
            for fd in (write_end, filter_fd):
                os.close(fd)
            write_end = filter_fd = -1
            result, overflow, timed_out = collect(read_end, limits, start + limits.wall_s)
            if overflow or timed_out:
                kill(process)
            returncode = wait(process, start + limits.wall_s)
            timed_out = timed_out or returncode is None
            errors.seek(0)
            said = errors.read(4096)
        return Outcome(result, returncode, timed_out, overflow, time.monotonic() - start, said)
    finally:
        if process is not None and process.returncode is None:  # never a group whose leader was reaped
            kill(process)
            process.wait()
        for fd in (read_end, write_end, filter_fd):
            if fd >= 0:
                os.close(fd)
        shutil.rmtree(folder, ignore_errors=True)


def collect(fd: int, limits: Limits, deadline: float) -> tuple[bytes, bool, bool]:
    """Read the result channel until every writer has closed it; say if it overflowed or timed out."""
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return b"".join(chunks), False, True
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks), False, False
        size += len(chunk)
        chunks.append(chunk)
        if size > limits.result_size:
            return b"".join(chunks)[: limits.result_size], True, False


def wait(process: subprocess.Popen, deadline: float) -> int | None:
    """Wait for bwrap to exit until the deadline; kill its group then and return None."""
    try:
        return process.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        kill(process)
        process.wait()
        return None


def kill(process: subprocess.Popen) -> None:
    """Kill bwrap's whole process group; the PID namespace inside dies with it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def check() -> None:
    """Start one sandbox and run Python in it; raise SandboxUnavailable saying what is missing."""
    if shutil.which(bwrap.BWRAP) is None:
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed: `apt-get install bubblewrap` (as root, "
            "`PLAYGROUND_VERIFY=1 make run` and `make test` do it)"
        )
    for tool, job in ((bwrap.PRLIMIT, "sets its limits"), (bwrap.SETPRIV, "drops it to a uid of its own")):
        if (tool == bwrap.PRLIMIT or bwrap.privileged()) and not os.access(tool, os.X_OK):
            raise SandboxUnavailable(f"{tool} (util-linux) is missing: it {job}")
    seccomp_program()  # SandboxUnavailable without libseccomp
    probe = "import os, sys; os.write(int(sys.argv[1]), b'ok')"
    try:
        limits = Limits(wall_s=10)
        outcome = run({"probe.py": probe.encode()}, "probe.py", limits, bwrap.sandbox_uid(bwrap.CHECK_SLOT))
    except OSError as exc:
        raise SandboxUnavailable(f"bubblewrap could not be started: {exc}") from exc
    if outcome.result != b"ok":
        message = outcome.stderr.decode(errors="replace").strip() or f"exit status {outcome.returncode}"
        if "namespace" in message or "ermission" in message or "not permitted" in message:
            message += " (are unprivileged user namespaces off? sysctl user.max_user_namespaces; "
            message += "or can this user not read the Python installation?)"
        raise SandboxUnavailable(f"bubblewrap cannot start a sandbox here: {message}")
