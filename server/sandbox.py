"""Run Python in a fresh bubblewrap sandbox per call: no network, a read-only system, its own PIDs.

The sandbox sees the system's /usr (and /lib*, /bin), the Python interpreter's own prefix, and one
folder of files copied in for this run, read-only at /sandbox; a private, size-capped /tmp; no
environment variables. Resource limits (CPU, address space, processes, file size, open files) are set
by util-linux's prlimit, which then execs bubblewrap, so they apply to everything inside (and no Python
code runs between fork and exec in the server's threaded process); a wall-clock limit kills the whole
process group, and bubblewrap's --die-with-parent and PID namespace take every process inside with it.

When the server runs as root, bubblewrap runs with every namespace but the user one, and the code
inside is switched to an unprivileged uid of its own (one per slot of each server process, sandbox_uid)
with no capabilities by util-linux's
setpriv: a uid that is not root, so the kernel enforces RLIMIT_NPROC (it does not for uid 0) and
nothing inside may signal or read the server's processes. Run as another user, bubblewrap uses a user
namespace (--unshare-all), which needs unprivileged user namespaces.
"""

import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

BWRAP = "bwrap"
SETPRIV = "/usr/bin/setpriv"
PRLIMIT = "/usr/bin/prlimit"  # util-linux: sets the limits, then execs bwrap
INSIDE = "/sandbox"  # where the run's files are, read-only
BASE_UID = 64000  # the sandboxes' uids are past it (SANDBOX_UID)
UIDS_PER_PROCESS = 256  # each server process has uids of its own: one per slot, one for its start-up check
CHECK_SLOT = UIDS_PER_PROCESS - 1  # the start-up check's uid
PLAIN_SLOT = UIDS_PER_PROCESS - 2  # a run given no uid
UNPRIVILEGED_PROCESSES = 16  # the process limit without root: it counts the server user's processes too


@dataclass(frozen=True)
class Limits:
    """What one run may use."""

    wall_s: float = 5.0  # seconds of real time, then the whole process group is killed
    cpu_s: int = 5  # seconds of CPU (SIGXCPU, then SIGKILL one second later)
    memory: int = 1 << 30  # bytes of address space: of the one process the learner's code runs in (below)
    # Processes and threads of the sandbox's own uid (as root): 1, so the code inside cannot fork or start
    # a thread, and the address-space limit bounds all of one verification's memory (docs/verification.md,
    # "Bounds under abuse"). Run as another user, the kernel counts that user's processes, so the bound
    # is UNPRIVILEGED_PROCESSES.
    processes: int = 1
    file_size: int = 8 << 20  # bytes any one file may grow to
    open_files: int = 64
    tmp_size: int = 16 << 20  # bytes of the private /tmp
    result_size: int = 1 << 20  # bytes read from the result channel; more ends the run


@dataclass
class Outcome:
    """How a run ended and what it wrote on the result channel."""

    result: bytes  # what was written on the result channel (at most result_size bytes)
    returncode: int | None  # negative: killed by that signal; None: killed at the wall-clock limit
    timed_out: bool  # the wall-clock limit was reached
    result_overflow: bool  # more than result_size bytes were written
    seconds: float
    stderr: bytes = b""  # bwrap's and Python's, only when asked for (the start-up check)


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot start on this machine; learner code must not run at all."""


def interpreter() -> tuple[str, str]:
    """The Python to run inside (this one, the venv's symlink resolved) and its installation's prefix."""
    prefix = os.path.realpath(sys.base_prefix)
    executable = os.path.realpath(sys.executable)
    if not executable.startswith(prefix + os.sep):  # a venv's python: use its base installation's
        executable = os.path.join(prefix, "bin", f"python{sys.version_info[0]}.{sys.version_info[1]}")
    return executable, prefix


def system_binds() -> list[str]:
    """Bind the system read-only: /usr, and /lib*, /bin as the symlinks or folders they are here."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("/bin", "/lib", "/lib64", "/lib32", "/sbin"):
        if os.path.islink(name):
            args += ["--symlink", os.readlink(name), name]
        elif os.path.isdir(name):
            args += ["--ro-bind", name, name]
    return args


def sandbox_uid(slot: int, base: int = BASE_UID) -> int:
    """The uid a sandbox of this server process runs as (as root), for one of its slots.

    Each live process has a range of its own (by its pid), so no other sandbox on the machine, of this
    deployment or another, nor another worker's start-up check, runs as the same uid: with a process
    limit of 1, a third process of one uid could not start (the kernel refuses the exec).
    """
    if not 0 <= slot < UIDS_PER_PROCESS:
        raise ValueError(f"a slot is 0 to {UIDS_PER_PROCESS - 1}, not {slot}")
    return base + (os.getpid() % 2**22 + 1) * UIDS_PER_PROCESS + slot


def privileged() -> bool:
    """Whether the server runs as root (then the code inside runs as a uid of its own, via setpriv)."""
    return os.geteuid() == 0


def command(folder: Path, argv: list[str], limits: Limits, uid: int) -> list[str]:
    """The bwrap command line that runs argv (a Python script's arguments) in folder."""
    python, prefix = interpreter()
    args = [*rlimits(limits), BWRAP, "--die-with-parent", "--new-session"]
    if privileged():
        # Every namespace but the user one; the uid switch below needs a real unprivileged uid.
        args += ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
        args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]  # for setpriv only: it drops all
    else:
        args += ["--unshare-all", "--unshare-user", "--disable-userns"]  # no namespaces of its own inside
    args += system_binds()
    if not prefix.startswith("/usr/"):
        args += ["--ro-bind", prefix, prefix]
    args += ["--ro-bind", str(folder), INSIDE, "--proc", "/proc", "--dev", "/dev"]
    args += ["--perms", "1777", "--size", str(limits.tmp_size), "--tmpfs", "/tmp", "--chdir", INSIDE]
    args += ["--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--hostname", "sandbox", "--"]
    if privileged():
        args += [SETPRIV, f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
        args += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
    return args + [python, "-I", "-S", "-B", *argv]


def rlimits(limits: Limits) -> list[str]:
    """prlimit's command line: the resource limits, set before bwrap starts, inherited by all inside."""
    return [
        PRLIMIT,
        f"--cpu={limits.cpu_s}:{limits.cpu_s + 1}",  # SIGXCPU, then SIGKILL a second later
        f"--as={limits.memory}",
        f"--nproc={limits.processes if privileged() else max(limits.processes, UNPRIVILEGED_PROCESSES)}",
        f"--fsize={limits.file_size}",
        f"--nofile={limits.open_files}",
        "--core=0",
        "--",
    ]


def write_files(folder: Path, files: dict[str, bytes]) -> None:
    """Copy the run's files in, readable by the sandbox's uid, writable by no one inside."""
    folder.chmod(0o755)
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.parent.chmod(0o755)
        path.write_bytes(data)
        path.chmod(0o644)


def run(
    files: dict[str, bytes], script: str, limits: Limits, uid: int | None = None, stderr: bool = False
) -> Outcome:
    """Run `python script <fd>` inside a fresh sandbox over files; collect what it writes on fd.

    The script gets the number of its result channel as its one argument. Its stdout and stderr go
    nowhere: only the result channel comes back, and only up to limits.result_size bytes. With
    stderr (for trusted code only: a full pipe would block), the first 4 kB of stderr come back too.
    """
    start = time.monotonic()
    uid = sandbox_uid(PLAIN_SLOT) if uid is None else uid
    folder = Path(tempfile.mkdtemp(prefix="playground-sandbox-"))
    read_end, write_end = os.pipe()
    process = None
    try:
        write_files(folder, files)
        process = subprocess.Popen(
            command(folder, [f"{INSIDE}/{script}", str(write_end)], limits, uid),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE if stderr else subprocess.DEVNULL,
            pass_fds=(write_end,),
            env={},  # bwrap itself (PID 1 inside, /proc/1/environ) carries none of the server's environment
            start_new_session=True,  # its own process group, killed whole at the limit
        )
        os.close(write_end)
        write_end = -1
        result, overflow, timed_out = collect(read_end, limits, start + limits.wall_s)
        if overflow or timed_out:
            kill(process)
        returncode = wait(process, start + limits.wall_s)
        timed_out = timed_out or returncode is None
        errors = process.stderr.read(4096) if process.stderr else b""
        return Outcome(result, returncode, timed_out, overflow, time.monotonic() - start, errors)
    finally:
        if process is not None:
            if process.returncode is None:  # never a group whose leader was reaped: its id may be reused
                kill(process)
                process.wait()
            if process.stderr:
                process.stderr.close()
        for fd in (read_end, write_end):
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
    if shutil.which(BWRAP) is None:
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed: `apt-get install bubblewrap` (as root, "
            "`PLAYGROUND_VERIFY=1 make run` and `make test` do it)"
        )
    for tool, job in ((PRLIMIT, "sets its limits"), (SETPRIV, "drops it to a uid of its own")):
        if (tool == PRLIMIT or privileged()) and not os.access(tool, os.X_OK):
            raise SandboxUnavailable(f"{tool} (util-linux) is missing: it {job}")
    probe = "import os, sys; os.write(int(sys.argv[1]), b'ok')"
    try:
        limits = Limits(wall_s=10)
        outcome = run({"probe.py": probe.encode()}, "probe.py", limits, sandbox_uid(CHECK_SLOT), stderr=True)
    except OSError as exc:
        raise SandboxUnavailable(f"bubblewrap could not be started: {exc}") from exc
    if outcome.result != b"ok":
        message = outcome.stderr.decode(errors="replace").strip() or f"exit status {outcome.returncode}"
        if "namespace" in message or "ermission" in message or "not permitted" in message:
            message += " (are unprivileged user namespaces off? sysctl user.max_user_namespaces; "
            message += "or can this user not read the Python installation?)"
        raise SandboxUnavailable(f"bubblewrap cannot start a sandbox here: {message}")
