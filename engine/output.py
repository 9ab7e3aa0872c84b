"""Capture what learner code prints, capped so a print in a tight loop cannot flood the page."""

import io

MAX_LINES = 2000
MAX_CHARS = 200_000


class CappedOutput(io.TextIOBase):
    """A text stream that keeps the first MAX_LINES lines / MAX_CHARS characters and counts the rest."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.lines = 0
        self.chars = 0
        self.cut_chars = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self.cut_chars or self.lines >= MAX_LINES or self.chars >= MAX_CHARS:
            self.cut_chars += len(text)
            return len(text)
        keep = text[: MAX_CHARS - self.chars]
        room = MAX_LINES - self.lines
        if keep.count("\n") >= room:  # cut after the last line there is room for
            keep = "\n".join(keep.split("\n")[:room]) + "\n"
        self.parts.append(keep)
        self.chars += len(keep)
        self.lines += keep.count("\n")
        self.cut_chars += len(text) - len(keep)
        return len(text)

    def report(self) -> dict:
        """Return the kept text and how much was cut."""
        return {"text": "".join(self.parts), "cut_chars": self.cut_chars}
