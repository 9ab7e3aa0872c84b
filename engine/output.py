"""Capture what learner code prints, capped so a print in a tight loop cannot flood the page."""

import io
import time

from engine.words import _, number

MAX_LINES = 2000
MAX_CHARS = 200_000
SEND_CHARS = 8192  # with a sink: pass on what was printed once this much is waiting...
SEND_SECONDS = 0.1  # ...or this long after the last time, so a run that is killed keeps its output
# Far past the cap, printing is what takes the time (a print in a loop in backward, run on every value
# set): the code is stopped, with a message that says so, before the time limit blames a loop.
FLOOD_CHARS = 10 * MAX_CHARS
FLOOD_WRITES = 50_000  # print() writes twice (the text, then the end): 25,000 prints, 12 times the line cap


class PrintedTooMuch(BaseException):
    """Raised where the learner's code prints far past the cap. Not an Exception: it ends the Check."""


class CappedOutput(io.TextIOBase):
    """A text stream that keeps the first MAX_LINES lines / MAX_CHARS characters and counts the rest.

    A sink, when given, receives the kept text as it is printed, in pieces (the browser's worker
    posts them to the page, where they survive the worker being stopped).
    """

    def __init__(self, sink=None) -> None:
        self.parts: list[str] = []
        self.lines = 0
        self.chars = 0
        self.cut_chars = 0
        self.cut_writes = 0
        self.cut_lines = 0  # counted past the cap, for the flood's message
        self.sink = sink
        self.waiting: list[str] = []  # kept, not yet passed to the sink
        self.waiting_chars = 0
        self.sent = time.monotonic()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self.cut_chars or self.lines >= MAX_LINES or self.chars >= MAX_CHARS:
            self.write = self.overflow  # from now on, only count: print finds this before the method
            return self.overflow(text)
        keep = text[: MAX_CHARS - self.chars]
        room = MAX_LINES - self.lines
        if keep.count("\n") >= room:  # cut after the last line there is room for
            keep = "\n".join(keep.split("\n")[:room]) + "\n"
        self.parts.append(keep)
        self.chars += len(keep)
        self.lines += keep.count("\n")
        self.cut_chars += len(text) - len(keep)
        if self.sink is not None:
            self.waiting.append(keep)
            self.waiting_chars += len(keep)
            if self.waiting_chars >= SEND_CHARS or time.monotonic() - self.sent >= SEND_SECONDS:
                self.flush()
        return len(text)

    def overflow(self, text: str) -> int:
        """Count what is printed past the cap, as cheaply as can be; stop a flood."""
        if type(text) is not str:
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.cut_chars += len(text)
        self.cut_writes += 1
        self.cut_lines += text.count("\n")
        if self.cut_chars > FLOOD_CHARS or self.cut_writes > FLOOD_WRITES:
            self.write = self.overflow = self.counted  # once raised, a learner's except cannot loop on it
            raise PrintedTooMuch(self.flood_message())
        return len(text)

    def flood_message(self) -> str:
        """Say how far past the cap the code printed, by the measure it passed: characters or writes."""
        if self.cut_chars > FLOOD_CHARS:
            how_much = _(
                "{chars} characters so far, far past the {limit} characters the page keeps",
                chars=number(self.chars + self.cut_chars),
                limit=number(MAX_CHARS),
            )
        else:  # a print in a loop: many short writes
            how_much = _(
                "{lines} lines ({chars} characters) so far, far past the {limit} lines the page keeps",
                lines=number(self.lines + self.cut_lines),
                chars=number(self.chars + self.cut_chars),
                limit=number(MAX_LINES),
            )
        return _(
            "Your code printed too much: {how_much}. Printing that much is what took the time, so your "
            "code was stopped here. Print less: a few values, or only in the first value set.",
            how_much=how_much,
        )

    def counted(self, text: str) -> int:
        """Count output after a flood was stopped (code that caught it and printed on)."""
        self.cut_chars += len(text)
        return len(text)

    def flush(self) -> None:
        """Pass what is waiting to the sink."""
        if self.sink is not None and self.waiting:
            text, self.waiting, self.waiting_chars = "".join(self.waiting), [], 0
            self.sent = time.monotonic()
            self.sink(text)

    def report(self) -> dict:
        """Return the kept text and how much was cut."""
        return {"text": "".join(self.parts), "cut_chars": self.cut_chars}
