"""Run Python in a fresh bubblewrap sandbox per call: no network, a read-only system, its own PIDs.

The sandbox sees the system's /usr (and /lib*, /bin), the Python interpreter's own prefix, and one
folder of files copied in for this run, read-only at /sandbox; a private, size-capped /tmp; no
environment variables. Resource limits (CPU, address space, file size, open files) are set
by util-linux's prlimit, which then execs bubblewrap, so they apply to everything inside (and no Python
code runs between fork and exec in the server's threaded process); a wall-clock limit kills the whole
process group, and bubblewrap's --die-with-parent and PID namespace take every process inside with it.

A seccomp filter (compiled here by libseccomp, loaded by bubblewrap before the code inside starts)
refuses what would let the code outlive or reach past its one process: fork, clone and vfork (so the
code is one process and thread, whatever its uid shares with other sandboxes on the kernel), the
kernel keyrings (add_key, keyctl, request_key: a key is kept per uid, past the process that added it),
unshare, io_uring.

When the server runs as root, bubblewrap runs with every namespace but the user one, and the code
inside is switched to an unprivileged uid of its own (one per slot of each server process, sandbox_uid)
with no capabilities by util-linux's setpriv: nothing inside may signal or read the server's
processes. Deployments in containers on one kernel may give their sandboxes the same uid (their pids
are alike); nothing then depends on it: the one-process bound is the filter's, and the process limit
(RLIMIT_NPROC, counted per uid across the kernel) is only a backstop well above one. Run as another
user, bubblewrap uses a user namespace (--unshare-all), which needs unprivileged user namespaces.
"""

import errno
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

BWRAP = "bwrap"
SETPRIV = "/usr/bin/setpriv"
PRLIMIT = "/usr/bin/prlimit"  # util-linux: sets the limits, then execs bwrap
INSIDE = "/sandbox"  # where the run's files are, read-only
BASE_UID = 64000  # the sandboxes' uids are past it (SANDBOX_UID)
UIDS_PER_PROCESS = 256  # each server process has uids of its own: one per slot, one for its start-up check
CHECK_SLOT = UIDS_PER_PROCESS - 1  # the start-up check's uid
PLAIN_SLOT = UIDS_PER_PROCESS - 2  # a run given no uid
# What the seccomp filter refuses, and with which error: the code inside sees a process limit reached
# (EAGAIN, as RLIMIT_NPROC says it) or an operation not permitted.
REFUSED = {
    "EAGAIN": ("fork", "vfork", "clone", "clone3"),
    "EPERM": ("add_key", "keyctl", "request_key", "unshare", "io_uring_setup"),
}


@dataclass(frozen=True)
class Limits:
    """What one run may use."""

    wall_s: float = 5.0  # seconds of real time, then the whole process group is killed
    cpu_s: int = 5  # seconds of CPU (SIGXCPU, then SIGKILL one second later)
    memory: int = 1 << 30  # bytes of address space: of the one process the learner's code runs in (below)
    # Processes and threads of the sandbox's uid (as root; run as another user, the server user's limit
    # stays): a backstop only. The seccomp filter refuses fork, clone and vfork, so the code inside is one
    # process and the address-space limit bounds all of one verification's memory (docs/verification.md,
    # "Bounds under abuse"). Not 1: the kernel counts a uid's processes across containers, and another
    # deployment's sandboxes may share this one's uid.
    processes: int = 16
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
    stderr: bytes = b""  # the first 4 kB of bwrap's and Python's (the learner's too: for the log only)


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot start on this machine; learner code must not run at all."""


@cache
def seccomp_program() -> bytes:
    """The seccomp filter as the compiled BPF program bubblewrap's --seccomp loads (REFUSED refused).

    Built by libseccomp (Debian's libseccomp2, through pyseccomp's ctypes binding): it checks the
    architecture (a call of another ABI, i386's or x32's, kills the process) and knows each
    architecture's numbers. SandboxUnavailable when libseccomp cannot be loaded.
    """
    try:
        import pyseccomp
    except (ImportError, OSError) as exc:  # the binding loads libseccomp.so.2 when imported
        why = f"pyseccomp (requirements.lock) and Debian's libseccomp2 build it: {exc}"
        raise SandboxUnavailable(f"the seccomp filter cannot be built; {why}") from exc
    rules = pyseccomp.SyscallFilter(defaction=pyseccomp.ALLOW)
    for name, calls in REFUSED.items():
        for call in calls:
            rules.add_rule(pyseccomp.ERRNO(getattr(errno, name)), call)
    with tempfile.TemporaryFile() as file:
        rules.export_bpf(file)
        file.seek(0)
        return file.read()


def seccomp_fd() -> int:
    """A file descriptor of a fresh in-memory file holding the filter, at its start: bwrap reads it."""
    fd = os.memfd_create("playground-seccomp", os.MFD_CLOEXEC)
    os.write(fd, seccomp_program())
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


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


def command(folder: Path, argv: list[str], limits: Limits, uid: int, seccomp: int) -> list[str]:
    """The bwrap command line that runs argv (a Python script's arguments) in folder, under the seccomp
    filter read from the file descriptor seccomp."""
    python, prefix = interpreter()
    args = [*rlimits(limits), BWRAP, "--die-with-parent", "--new-session", "--seccomp", str(seccomp)]
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
        *([f"--nproc={limits.processes}"] if privileged() else []),  # another user's counts all its own
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


def run(files: dict[str, bytes], script: str, limits: Limits, uid: int | None = None) -> Outcome:
    """Run `python script <fd>` inside a fresh sandbox over files; collect what it writes on fd.

    The script gets the number of its result channel as its one argument. Its stdout goes nowhere; its
    stderr (bwrap's, setpriv's, Python's) to a file of this run, whose first 4 kB come back for the log
    (a file, not a pipe: the code inside cannot block on it). Only the result channel comes back as the
    run's answer, and only up to limits.result_size bytes.
    """
    start = time.monotonic()
    uid = sandbox_uid(PLAIN_SLOT) if uid is None else uid
    folder = Path(tempfile.mkdtemp(prefix="playground-sandbox-"))
    read_end, write_end = os.pipe()
    filter_fd = seccomp_fd()
    process = None
    try:
        write_files(folder, files)
        with tempfile.TemporaryFile() as errors:
            process = subprocess.Popen(
                command(folder, [f"{INSIDE}/{script}", str(write_end)], limits, uid, filter_fd),
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
    if shutil.which(BWRAP) is None:
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed: `apt-get install bubblewrap` (as root, "
            "`PLAYGROUND_VERIFY=1 make run` and `make test` do it)"
        )
    for tool, job in ((PRLIMIT, "sets its limits"), (SETPRIV, "drops it to a uid of its own")):
        if (tool == PRLIMIT or privileged()) and not os.access(tool, os.X_OK):
            raise SandboxUnavailable(f"{tool} (util-linux) is missing: it {job}")
    seccomp_program()  # SandboxUnavailable without libseccomp
    probe = "import os, sys; os.write(int(sys.argv[1]), b'ok')"
    try:
        limits = Limits(wall_s=10)
        outcome = run({"probe.py": probe.encode()}, "probe.py", limits, sandbox_uid(CHECK_SLOT))
    except OSError as exc:
        raise SandboxUnavailable(f"bubblewrap could not be started: {exc}") from exc
    if outcome.result != b"ok":
        message = outcome.stderr.decode(errors="replace").strip() or f"exit status {outcome.returncode}"
        if "namespace" in message or "ermission" in message or "not permitted" in message:
            message += " (are unprivileged user namespaces off? sysctl user.max_user_namespaces; "
            message += "or can this user not read the Python installation?)"
        raise SandboxUnavailable(f"bubblewrap cannot start a sandbox here: {message}")
