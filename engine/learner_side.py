"""The learner's side of one Check: their output captured, their changes to builtins kept on their side.

Between Checks nothing needs undoing in the browser: each Check runs in a fresh runtime (see
runtime/page/client.js). Within a Check, the grader's own code must still work whatever the learner's
code did to builtins, and a few runtime settings are made safe for the browser.
"""

import builtins
import contextlib
import sys
import time

from engine.output import CappedOutput
from engine.words import _, number

RECURSION_LIMIT = 1000  # Python's default: the deep extra graph is there to meet it
# The most sys.setrecursionlimit may set. In the browser, a RecursionError's traceback is freed
# recursively on the JavaScript engine's stack: 5,000 frames overflow it and kill Python there.
MAX_RECURSION = 2000
SLEEP_STEP = 0.005  # seconds: time.sleep in steps short enough that Python looks for an interrupt (every
# 50th check of its eval loop, in CPython for Emscripten) within a few tens of milliseconds


class LearnerSide:
    """Run learner code with their own builtins and safe runtime settings; keep the grader's intact."""

    def __init__(self, output: CappedOutput) -> None:
        self.output = output
        self.grader_builtins = dict(builtins.__dict__)
        self.learner_builtins = dict(self.grader_builtins)
        self.asked: int | None = None  # a recursion limit the learner asked for beyond MAX_RECURSION

    @property
    def recursion_limit(self) -> int:
        """The recursion limit in force for the learner's code."""
        return sys.getrecursionlimit()

    def setrecursionlimit(self, limit: int) -> None:
        """sys.setrecursionlimit as the learner sees it: capped at MAX_RECURSION."""
        if isinstance(limit, int) and limit > MAX_RECURSION:
            self.asked = limit
            limit = MAX_RECURSION
        self.real_setrecursionlimit(limit)

    @contextlib.contextmanager
    def learner(self):
        """Give the learner's code their builtins for the duration of a call, then the grader's back."""
        table = builtins.__dict__
        table.clear()
        table.update(self.learner_builtins)
        try:
            yield
        finally:
            self.learner_builtins = dict(table)
            table.clear()
            table.update(self.grader_builtins)

    def note(self, message: str) -> str:
        """Add what the learner should know about the recursion cap to a RecursionError's message."""
        if self.asked is None or not message.startswith("RecursionError"):
            return ""
        return _(
            " (Your code asked for a recursion limit of {asked}; the playground allows at most {limit}, "
            "because deeper recursion overflows the browser's own stack.)",
            asked=number(self.asked),
            limit=number(MAX_RECURSION),
        )

    def __enter__(self) -> "LearnerSide":
        self.saved = sys.stdout, sys.stderr, sys.getrecursionlimit(), sys.setrecursionlimit, time.sleep
        self.real_setrecursionlimit = sys.setrecursionlimit
        self.real_setrecursionlimit(RECURSION_LIMIT)
        sys.setrecursionlimit = self.setrecursionlimit
        time.sleep = interruptible(time.sleep)
        sys.stdout = sys.stderr = self.output
        return self

    def __exit__(self, *exc_info) -> None:
        sys.stdout, sys.stderr, limit, sys.setrecursionlimit, time.sleep = self.saved
        sys.setrecursionlimit(limit)
        self.output.flush()


def interruptible(sleep):
    """Sleep in short steps: Pyodide's time.sleep waits without looking for an interrupt."""

    def steps(seconds: float) -> None:
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            sleep(min(left, SLEEP_STEP))

    return steps
