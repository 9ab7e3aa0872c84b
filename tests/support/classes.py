"""Classes of learners and their Checks, written straight into the records' tables (as the records slice's
judge leaves them), for the class view's tests: one built so that every count differs, and a
real-looking one of about 30 learners for the browser.
"""

import hashlib
import random
from dataclasses import dataclass, field

from sqlalchemy import Connection, insert

from server import ROOT
from server.db.tables import attempts, learners, results
from tests.support import orders, solutions

DAY = 86400.0
START = 1796083200.0  # 2026-12-01 00:00 UTC
ERRORS = ("syntax", "runtime", "timeout", "crash", "output")

# Code a learner might send, one per shape: the class view shows these as examples.
CODE = {
    "pass": [solutions.CORRECT, solutions.ITERATIVE],
    "reversed": [solutions.NOT_REVERSED, solutions.ITERATIVE.replace("reversed(topo)", "topo")],
    "out-grad": [solutions.NO_SEED, solutions.OUT_TWO],
    "early": [orders.WRONG["breadth-first"], orders.WRONG["breadth-first, no memory"]],
    "repeated": [solutions.TWICE, solutions.PRE_ORDER],
    "direct": [solutions.LEAF_BY_HAND],
    "never": [solutions.SKIP_TANH],
    "nothing": ["def backward(out):\n    pass\n"],
    "syntax": ["def backward(out)\n    out.grad = 1\n"],
    "runtime": [solutions.CORRECT.replace("    visit(out)\n", "")],
    "timeout": ["def backward(out):\n    out.grad = 1\n    while True:\n        out._backward()\n"],
}
# Which expressions a Check with each mistake had right (an error computes nothing: no results).
RIGHT = {
    "pass": ("neuron", "reuse", "chain", "shared"),
    "reversed": ("neuron",),
    "early": ("neuron", "reuse", "shared"),
    "repeated": ("shared",),
}
EXPRESSIONS = ("neuron", "reuse", "chain", "shared")
OPS = ROOT / "exercises/ops"


@dataclass(frozen=True)
class Graded:
    """An exercise as a class's Checks are written: its id, its groups (the results' names), the groups a
    Check with each mistake had right, and the code of each mistake (its shapes)."""

    exercise: str
    groups: tuple[str, ...]
    right: dict[str, tuple[str, ...]]
    code: dict[str, list[str]]


SEED = Graded("backward", EXPRESSIONS, RIGHT, CODE)
OPS_GRADED = Graded(  # ops's: each named mistake's own code (exercises/ops/mistakes/), right where it is
    "ops",
    ("a*b", "a+a", "a*b+a", "a+b", "a*a"),
    {"pass": ("a*b", "a+a", "a*b+a", "a+b", "a*a"), "assign": ("a*b", "a+b"), "swapped": ("a+a", "a+b")},
    {"pass": [(OPS / "reference.py").read_text()]}
    | {key: [(OPS / f"mistakes/{key}.py").read_text()] for key in ("assign", "swapped", "no-chain")},
)


@dataclass
class Check:
    """One Check: its mistake (None: passed; "queued": not judged yet), the shape of its code, when."""

    mistake: str | None
    shape: int = 0
    time: float = 0.0


@dataclass
class Learner:
    sub: str
    checks: list[Check] = field(default_factory=list)
    name: str | None = None

    @property
    def learner(self) -> str:
        return "P" + hashlib.sha256(self.sub.encode()).hexdigest()[:10]


def source_of(check: Check, n: int, code: dict[str, list[str]] = CODE) -> tuple[str, str]:
    """The Check's code (its shape's, with the learner's own comment) and its shape's digest."""
    key = "pass" if check.mistake is None else check.mistake
    if key == "queued":
        key = "pass"
    variants = code.get(key, CODE["nothing"])
    code = variants[check.shape % len(variants)]
    shape = hashlib.sha256(f"{key}/{check.shape}".encode()).hexdigest()
    return code + f"# try {n}\n", shape


def add_learner(
    conn: Connection,
    issuer: str,
    course: str,
    activity: str,
    who: Learner,
    opened: float,
    graded: Graded = SEED,
    opened_row: bool = True,
) -> None:
    """The learner's row (as a launch leaves it; opened_row False: they have one) and each of their Checks
    of an exercise (graded: the seed's by default), judged (or queued)."""
    if opened_row:
        add_opened(conn, issuer, course, activity, who, opened)
    for n, check in enumerate(who.checks, 1):
        add_check(conn, (issuer, course, activity), who, check, n, graded)


def add_opened(
    conn: Connection, issuer: str, course: str, activity: str, who: Learner, opened: float
) -> None:
    """The learner's row, as a launch leaves it."""
    conn.execute(
        insert(learners).values(
            issuer=issuer,
            course=course,
            activity=activity,
            sub=who.sub,
            learner=who.learner,
            per_course=True,  # made as today's launch makes it: no start remakes it (pseudonyms.remake_old)
            name=who.name,
            opened=opened,
            last_opened=max([opened] + [c.time for c in who.checks]),
        )
    )


def add_check(
    conn: Connection, where: tuple[str, str, str], who: Learner, check: Check, n: int, graded: Graded
) -> None:
    """One Check of the learner's in an exercise, with its results, as the judge leaves it (or queued)."""
    issuer, course, activity = where
    source, shape = source_of(check, n, graded.code)
    queued = check.mistake == "queued"
    attempt_id = conn.execute(
        insert(attempts).values(
            issuer=issuer,
            course=course,
            activity=activity,
            exercise=graded.exercise,
            sub=who.sub,
            time=check.time,
            source=source,
            source_sha256=hashlib.sha256(source.encode()).hexdigest(),
            shape_sha256=shape,
            rule="seed" if graded.exercise == "backward" else "all",
            state="queued" if queued else "judged",
            passed=None if queued else check.mistake is None,
            mistake=None if queued else check.mistake,
            judged=None if queued else check.time + 1,
        )
    ).inserted_primary_key[0]
    if queued or check.mistake in ERRORS:
        return
    right = graded.right.get("pass" if check.mistake is None else check.mistake, ())
    conn.execute(
        insert(results),
        [
            {
                "attempt_id": attempt_id,
                "expr": expr,
                "passed": expr in right,
                "mistake": None if expr in right else check.mistake,
            }
            for expr in graded.groups
        ],
    )


def timed(checks: list[str | None], start: float, shapes: list[int] | None = None) -> list[Check]:
    """Checks a minute apart from start, with their shapes (0 for each unless given)."""
    shapes = shapes or [0] * len(checks)
    return [Check(m, s, start + 60 * k) for k, (m, s) in enumerate(zip(checks, shapes, strict=True))]


def counted_class() -> list[Learner]:
    """A class in which every count the class view shows differs (tests/test_class_view_stats.py says
    what each is). Learners 0-5 work on the first day, the rest on the second."""
    plan = [
        ("ana", ["out-grad", "out-grad", None], None, "Ana Alves"),
        ("ben", ["reversed"] * 3, [0, 0, 0], None),
        ("cem", ["reversed", "early", None], [1, 0, 0], "Cem Çelik"),
        ("dora", ["timeout", "syntax"], None, None),
        ("eli", [None], None, None),
        ("fay", [], None, "Fay Fischer"),
        ("gus", ["early"] * 4, None, None),
        ("hal", ["repeated", "repeated", None, "repeated"], None, None),
        ("ida", ["queued"], None, None),
        ("jo", ["reversed"] * 4 + [None], [0, 0, 2, 2, 0], None),
        ("kim", ["out-grad", "reversed", "reversed"], [0, 3, 3], None),
        ("lea", [None, "direct", "direct", "direct"], None, None),
    ]
    made = []
    for k, (sub, checks, shapes, name) in enumerate(plan):
        start = START + (0 if k < 6 else DAY) + 3600 * k
        made.append(Learner(sub, timed(checks, start, shapes), name))
    return made


NAMES = (
    "Amira Haddad, Bruno Costa, Chloé Martin, Dmitri Volkov, Emma Schulz, Felix Wagner, Grace Okafor, "
    "Hiroshi Tanaka, Ines García, Jonas Berg, Kofi Mensah, Lena Hoffmann, Mateo Rossi, Nora Lindqvist, "
    "Omar Farouk, Priya Nair, Quentin Dubois, Rosa Jiménez, Sven Larsen, Tara Murphy, Umut Yılmaz, "
    "Vera Novak, Wei Zhang, Ximena López, Yusuf Demir, Zoe Clarke, Anton Weber, Bea Keller, Carl Jung, "
    "Dana Fox"
).split(", ")
# A learner's path to the exercise: the mistakes they go through before passing (or not).
PATHS = (
    ["reversed", None],
    ["reversed", "reversed", "early", None],
    ["out-grad", "reversed", None],
    [None],
    ["early", "early", "early"],
    ["repeated", "repeated", None],
    ["timeout", "reversed", "reversed", "reversed"],
    ["syntax", "runtime", "out-grad", None],
    ["direct", "direct", "early", "early", None],
    ["nothing", "never", "reversed", None],
    ["reversed", "reversed", "reversed", "reversed", "reversed", "reversed", None],
    [],
)


def real_looking_class(seed: int = 43, size: int = 30) -> list[Learner]:
    """About 30 learners over a week: some named (the LMS shared names), some not; most pass."""
    draw = random.Random(seed)
    made = []
    for k in range(size):
        path = PATHS[draw.randrange(len(PATHS))]
        day = START + DAY * draw.randrange(7) + 3600 * draw.randrange(8, 20)
        checks = [Check(m, draw.randrange(3), day + 90 * i + draw.randrange(60)) for i, m in enumerate(path)]
        name = NAMES[k] if draw.random() < 0.7 else None
        made.append(Learner(f"user-{k:02d}", checks, name))
    return made


def build(
    conn: Connection,
    issuer: str,
    course: str,
    activity: str,
    members: list[Learner],
    graded: Graded = SEED,
    opened_row: bool = True,
) -> None:
    """Write the class's Checks of an exercise (the seed's by default) into the database (each opened the
    activity a minute before their first Check; opened_row False: they opened it before)."""
    for who in members:
        opened = (who.checks[0].time if who.checks else START) - 60
        add_learner(conn, issuer, course, activity, who, opened, graded, opened_row)
