"""One instance's holds and its queue for the sandboxes, in files every one of its processes sees.

Both live in the folder of the instance's slot lock files (VERIFY_SLOTS_DIR, else instance/sandbox-slots:
server/sandbox/sandbox_io.py's Slots), so gunicorn's processes of one deployment share them without Redis:

- Holds: one place per client (a learner, or an anonymous address): a locked file named by a hash of
  the client. The kernel lets go of a lock when its process ends, so a killed worker holds nothing.
- Queue: a request that finds every sandbox busy takes a ticket (a number, and a locked file of that
  number) and waits its turn: first come, first served, at most `length` waiting, each for at most
  `wait_s` seconds, and at most `per_process` of them in one process, whose other threads stay free
  for pages and quick answers. A ticket whose file no process holds locked is a waiter that died: it
  is dropped. Work that can wait (the judge's recorded Checks) takes a slot only while nobody waits.
"""

import contextlib
import fcntl
import hashlib
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from server.sandbox.sandbox_io import Slots

POLL_S = 0.05  # how often a waiter looks whether its turn came


def locked(path: Path) -> int | None:
    """An open descriptor of path, locked by it (flock), or None when another holds the lock."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


class Holds:
    """One place per client at a time, across the processes that share the folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def path(self, who: str) -> Path:
        """The file of who's place."""
        return self.folder / f"{hashlib.sha256(who.encode()).hexdigest()[:40]}.hold"

    def held(self, who: str) -> bool:
        """Whether a request holds who's place now, seen in the kernel's list of locks (/proc/locks)
        without taking the lock: a probe that took it for a moment would turn away the request it
        watches."""
        try:
            found = self.path(who).stat()
        except FileNotFoundError:
            return False
        mine = f"{os.major(found.st_dev):02x}:{os.minor(found.st_dev):02x}:{found.st_ino}"
        lines = Path("/proc/locks").read_text().splitlines()
        return any(line.split()[1:2] == ["FLOCK"] and mine in line.split() for line in lines)

    @contextlib.contextmanager
    def hold(self, who: str) -> Iterator[bool]:
        """Hold who's place for the block (True), or say another request holds it (False)."""
        path = self.path(who)
        for _ in range(10):  # the file may be removed between our open and our lock: open it again
            fd = locked(path)
            if fd is None:
                yield False
                return
            try:
                same = os.fstat(fd).st_ino == os.stat(path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        else:
            yield False
            return
        try:
            yield True
        finally:
            path.unlink(missing_ok=True)  # before the lock goes: no file is left per client ever seen
            os.close(fd)


class Queue:
    """A short, fair queue for the sandboxes of one instance: first come, first served, bounded."""

    def __init__(self, folder: Path, length: int, wait_s: float, per_process: int) -> None:
        self.folder = folder
        self.length = length
        self.wait_s = wait_s
        self.places = threading.BoundedSemaphore(per_process)  # this process's waiting threads
        folder.mkdir(parents=True, exist_ok=True)

    @contextlib.contextmanager
    def books(self) -> Iterator[int]:
        """The queue's books, locked for a moment: the descriptor of its counter file."""
        fd = os.open(self.folder / "counter", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield fd
        finally:
            os.close(fd)

    def waiting(self) -> list[Path]:
        """The live tickets, first come first (called with the books locked); dead waiters' dropped."""
        live = []
        for ticket in sorted(self.folder.glob("*.ticket")):
            fd = locked(ticket)
            if fd is None:
                live.append(ticket)
            else:  # nobody holds it: its waiter died
                ticket.unlink(missing_ok=True)
                os.close(fd)
        return live

    def ticket(self, books: int) -> tuple[Path, int]:
        """A new ticket at the end of the queue, and its locked descriptor (with the books locked)."""
        number = int(os.pread(books, 32, 0) or b"0") + 1
        os.pwrite(books, str(number).encode().ljust(32), 0)
        path = self.folder / f"{number:020d}.ticket"
        fd = locked(path)
        assert fd is not None, "a new ticket is nobody else's"
        return path, fd

    @contextlib.contextmanager
    def slot(self, slots: Slots) -> Iterator[int | None]:
        """A sandbox slot for the block, at once or after waiting in turn; None when the queue is full
        or the wait is over."""
        with contextlib.ExitStack() as held:
            yield self.turn(slots, held)

    @contextlib.contextmanager
    def spare(self, slots: Slots) -> Iterator[int | None]:
        """A free slot for the block, for work that can wait (the judge's), only when no request waits in
        the queue; None otherwise, at once."""
        with contextlib.ExitStack() as held:
            with self.books():
                slot = None if self.waiting() else held.enter_context(slots.take())
            yield slot

    def turn(self, slots: Slots, held: contextlib.ExitStack) -> int | None:
        """Wait for a slot, first come first served; held keeps it (and the ticket) until the block ends."""
        with self.books() as books:
            waiting = self.waiting()
            if not waiting:  # nobody before us: a free slot is ours at once
                slot = held.enter_context(slots.take())
                if slot is not None:
                    return slot
            if len(waiting) >= self.length or not self.places.acquire(blocking=False):
                return None  # a full queue, or as many threads of this process waiting as it may
            held.callback(self.places.release)
            ticket, fd = self.ticket(books)
        held.callback(os.close, fd)
        held.callback(ticket.unlink, missing_ok=True)
        deadline = time.monotonic() + self.wait_s
        while time.monotonic() < deadline:
            time.sleep(POLL_S)
            with self.books():
                if self.waiting()[:1] != [ticket]:
                    continue
                with contextlib.ExitStack() as attempt:
                    slot = attempt.enter_context(slots.take())
                    if slot is not None:
                        ticket.unlink()  # out of the queue: the next one is first now
                        held.push(attempt.pop_all())
                        return slot
        return None
