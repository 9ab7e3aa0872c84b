"""The seccomp filter bubblewrap loads before the code inside starts (server/sandbox/box.py runs it).

It refuses what would let the code outlive or reach past its one process: fork, clone and vfork (so the
code is one process and thread, whatever its uid shares with other sandboxes on the kernel), the
kernel keyrings (add_key, keyctl, request_key: a key is kept per uid, past the process that added it),
unshare, io_uring. Compiled here by libseccomp.
"""

import errno
import os
import tempfile
from functools import cache

from server.sandbox.terms import SandboxUnavailable

# What the seccomp filter refuses, and with which error: the code inside sees a process limit reached
# (EAGAIN, as RLIMIT_NPROC says it) or an operation not permitted.
REFUSED = {
    "EAGAIN": ("fork", "vfork", "clone", "clone3"),
    "EPERM": ("add_key", "keyctl", "request_key", "unshare", "io_uring_setup"),
}


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
