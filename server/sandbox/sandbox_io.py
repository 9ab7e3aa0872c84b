"""What /verify hands its sandbox and reads back: the files in, the one JSON document out, and the slots.

The sandbox (server/sandbox/box.py) runs the driver (server/sandbox/sandbox_driver.py) over the engine
as the browser gets it, the learner's source and the value sets without their expected gradients. What
comes back is the learner's to spoil: it is read here as untrusted data, each part checked and capped,
never obeyed; server/sandbox/judging.py then judges the numbers (engine/judge.py) in the server process.
"""

import contextlib
import fcntl
import importlib.util
import json
import os
import py_compile
import signal
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from flask import current_app
from flask_babel import gettext

from engine import report
from engine.output import MAX_CHARS
from engine.report import KINDS, MAX_TEXT, cap, error, number
from server import ROOT
from server.page.assets import archived_files
from server.sandbox import terms
from server.sandbox.sandbox_driver import STARTED

UNCHECKED = py_compile.PycInvalidationMode.UNCHECKED_HASH


@cache
def engine_files() -> dict[str, bytes]:
    """The seed's engine archive's files (server/page/assets.py) with their bytecode and the driver."""
    return with_bytecode(archived_files())


def with_bytecode(archived: dict[str, bytes]) -> dict[str, bytes]:
    """An exercise's archive's files (engine/ and the exercise, as the browser gets them), their
    bytecode, which the sandbox's Python would compile each time, and the driver.

    Unchecked-hash .pyc files: valid whatever the copies' times, for this interpreter (the sandbox's).
    """
    files = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, data in archived.items():
            files[name] = data
            if not name.endswith(".py"):
                continue
            source, compiled = Path(folder) / "source.py", Path(folder) / "compiled.pyc"
            source.write_bytes(data)
            py_compile.compile(str(source), str(compiled), name, doraise=True, invalidation_mode=UNCHECKED)
            where, file = os.path.split(name)
            files[os.path.join(where, importlib.util.cache_from_source(file))] = compiled.read_bytes()
    files["driver.py"] = (ROOT / "server" / "sandbox" / "sandbox_driver.py").read_bytes()
    return files


def sandbox_files(
    source: str, cases: list[dict], catalogue: dict | None = None, engine: dict[str, bytes] | None = None
) -> dict[str, bytes]:
    """What the sandbox sees: the exercise's engine (as the browser gets it, with_bytecode's; None: the
    seed's), the driver, the source, the values, and the messages of the learner's language
    (server/page/i18n.py's catalogue; None: English)."""
    files = dict(engine_files() if engine is None else engine)
    files["source.py"] = source.encode("utf-8", "surrogatepass")
    files["catalogue.json"] = json.dumps(catalogue).encode()
    fields = ("group", "leaves", "inputs", "example", "extra")
    plain = [{k: c[k] for k in fields if k in c} for c in cases]
    files["cases.json"] = json.dumps(plain).encode()  # no expected or wrong numbers: never in the sandbox
    return files


def server_fault(outcome: terms.Outcome) -> str | None:
    """Why the sandbox ended before the driver said it started, for the host's log; None if it started.

    Before that nothing of the learner's ran: bubblewrap could not set up, the process limit refused
    the uid, the machine was too busy to start Python within the time limit. The server's fault, never
    told to the learner as their code's.
    """
    if outcome.result.startswith(STARTED):
        return None
    how = "at the time limit" if outcome.timed_out else f"exit status {outcome.returncode}"
    said = outcome.stderr.decode(errors="replace").strip()
    return f"the sandbox ended before its Python started ({how})" + (f": {said}" if said else "")


def read_result(outcome: terms.Outcome) -> tuple[dict | None, dict | None]:
    """Parse the sandbox's one JSON document; or say, as an error, why there is none to trust."""
    limit = f"{current_app.config['VERIFY_TIME_LIMIT_MS'] / 1000:g} s"
    code = outcome.returncode  # bwrap gives 128 + n for a process inside killed by signal n
    killed_by = -code if code is not None and code < 0 else code - 128 if code and code > 128 else None
    if outcome.timed_out or killed_by == signal.SIGXCPU:  # the CPU limit
        return None, error(
            "timeout",
            gettext("Stopped at the server's time limit (%(limit)s): your code ran too long.", limit=limit),
        )
    if outcome.result_overflow:
        return None, error("crash", gettext("The server's sandbox wrote more than the result may hold."))
    try:
        data = json.loads(outcome.result.decode())
        if not isinstance(data, dict) or not isinstance(data.get("got"), list):
            raise ValueError("not a result")
    except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than Python parses
        how = (
            gettext("killed by %(signal)s", signal=signal_name(killed_by))
            if killed_by
            else gettext("exit status %(code)s", code=code)
        )
        if not outcome.result:
            why = gettext("it gave no result (%(how)s)", how=how)
        else:
            why = gettext("its result channel held something other than the grader's answer")
        return None, error("crash", gettext("Your code ended the server's Python: %(why)s.", why=why))
    return data, None


def signal_name(number: int) -> str:
    """SIGSEGV for 11, and so on."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def sandbox_error(data: dict) -> dict | None:
    """The error the sandbox's grader reported, checked and capped (its text is the learner's to spoil)."""
    err = data.get("error")
    if err is None:
        return None
    if not isinstance(err, dict) or err.get("kind") not in KINDS:
        return error("crash", gettext("The server's sandbox gave an error the grader does not know."))
    line = err.get("line")
    return error(
        err["kind"],
        cap(str(err.get("message", ""))),
        line if isinstance(line, int) and not isinstance(line, bool) else None,
        cap(str(err.get("traceback", "")), MAX_TEXT * 2),
        "editor" if err.get("file") == "editor" else None,
    )


def numbers(got: object, size: int) -> list | None:
    """The gradients of one value set as the report gives them (finite floats, or text), or None.

    None when they are not a list of size numbers and texts: the sandbox's grader would not send that.
    """
    if not isinstance(got, list) or len(got) != size:
        return None
    if any(type(g) not in (int, float, str) for g in got):
        return None
    # nan, inf and ints beyond any float as text, as the browser's grader gives them; text as it came
    return [g[:40] if type(g) is str else number(g) for g in got]


def printed(output: object) -> dict:
    """What the sandbox says the code printed, as the report gives it, whatever the code made of it."""
    if not (isinstance(output, dict) and isinstance(output.get("text"), str)):
        return report.no_output()
    cut = output.get("cut_chars")
    cut = cut if isinstance(cut, int) and not isinstance(cut, bool) else 0
    return report.output(output["text"][:MAX_CHARS], cut + max(0, len(output["text"]) - MAX_CHARS))


class Slots:
    """A bounded number of sandboxes at once across the processes that share one folder of lock files
    (VERIFY_SLOTS_DIR, else the instance folder's: one deployment's gunicorn workers), one file per slot
    (flock). Not machine-wide: another deployment, with a folder of its own, has slots of its own.

    A slot's number also picks its sandbox's uid within the server process's own range
    (bwrap.sandbox_uid), so no two runs on the machine share a uid or count against one RLIMIT_NPROC.
    """

    def __init__(self, folder: Path, count: int) -> None:
        self.folder = folder
        self.count = count
        folder.mkdir(parents=True, exist_ok=True)

    @contextlib.contextmanager
    def take(self) -> Iterator[int | None]:
        """Hold a free slot for the block, or give None when all are busy."""
        held = None
        for slot in range(self.count):
            fd = os.open(self.folder / f"{slot}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            held = (slot, fd)
            break
        try:
            yield held[0] if held else None
        finally:
            if held:
                os.close(held[1])  # closing the file releases its lock
