"""The terms of one sandbox run: what it may use (Limits), how it ended (Outcome), and the refusal to run
at all (SandboxUnavailable)."""

from dataclasses import dataclass


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
