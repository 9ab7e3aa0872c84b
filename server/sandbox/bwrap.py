"""The command line that starts one sandbox: util-linux's prlimit (the resource limits), then bubblewrap
(the namespaces, the read-only system, the run's folder), then, as root, setpriv (a uid of its own).

When the server runs as root, bubblewrap runs with every namespace but the user one, and the code
inside is switched to an unprivileged uid of its own (one per slot of each server process, sandbox_uid)
with no capabilities by util-linux's setpriv: nothing inside may signal or read the server's
processes. Deployments in containers on one kernel may give their sandboxes the same uid (their pids
are alike); nothing then depends on it: the one-process bound is the seccomp filter's
(server/sandbox/seccomp.py), and the process limit (RLIMIT_NPROC, counted per uid across the kernel) is
only a backstop well above one. Run as another user, bubblewrap uses a user namespace (--unshare-all),
which needs unprivileged user namespaces.
"""

import os
import sys
from pathlib import Path

from server.sandbox.terms import Limits

BWRAP = "bwrap"
SETPRIV = "/usr/bin/setpriv"
PRLIMIT = "/usr/bin/prlimit"  # util-linux: sets the limits, then execs bwrap
INSIDE = "/sandbox"  # where the run's files are, read-only
BASE_UID = 64000  # the sandboxes' uids are past it (SANDBOX_UID)
UIDS_PER_PROCESS = 256  # each server process has uids of its own: one per slot, one for its start-up check
CHECK_SLOT = UIDS_PER_PROCESS - 1  # the start-up check's uid
PLAIN_SLOT = UIDS_PER_PROCESS - 2  # a run given no uid


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
