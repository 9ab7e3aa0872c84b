"""What the grader decides with, sealed before any learner code runs and checked before each verdict.

Learner code runs in the grader's own Python (in the browser, and in the server's sandbox), so it can
reach the grader's objects. Rebinding a name (`engine.compare.close = ...`) does not reach the grader,
which keeps its own references; changing a function in place does (`engine.compare.close.__code__ = ...`,
its defaults, a module's constant). A Seal notes, once, every function of the engine's modules (their
code, defaults, closures) and every name those modules and their classes bind; the grader checks the
seal right before it compares a value set, after the last of the learner's code for it has run.

What it cannot stop, and does not try to: code that gets around the check itself (patching it, the
report once made, the runtime's memory with ctypes, or the page's messages through `js`). In the page
the verdict is the learner's own to fake; only the server's verification counts (docs/verification.md),
where the verdict is decided outside the sandbox from the numbers it returned.
"""

import sys
from types import FunctionType, ModuleType


def functions_of(value: object) -> list[FunctionType]:
    """The Python functions a value is or wraps (functools.cache's too)."""
    found = []
    while callable(value):
        if isinstance(value, FunctionType):
            found.append(value)
        value = getattr(value, "__wrapped__", None)
    return found


def contents(cell) -> int | None:
    """The identity of what a closure cell holds (None: empty)."""
    try:
        return id(cell.cell_contents)
    except ValueError:
        return None


class Seal:
    """Every binding and function of the modules loaded now under the prefixes (the engine's, and an
    exercise's plugin's), as they are now."""

    def __init__(self, prefixes: tuple[str, ...] = ("engine",)) -> None:
        modules = [
            m
            for name, m in sorted(sys.modules.items())
            if m and any(name == p or name.startswith(p + ".") for p in prefixes)
        ]
        self.bindings: list[tuple[str, dict, str, object]] = []
        self.functions: list[tuple[str, FunctionType, tuple]] = []
        for module in modules:
            for name, value in list(vars(module).items()):
                self.note(f"{module.__name__}.{name}", vars(module), name, value)
                if isinstance(value, type) and value.__module__ == module.__name__:
                    for attr, inner in list(vars(value).items()):
                        self.note(f"{module.__name__}.{name}.{attr}", None, attr, inner, owner=value)

    def note(
        self, where: str, table: dict | None, name: str, value: object, owner: type | None = None
    ) -> None:
        if isinstance(value, ModuleType) or name.startswith("__") and name not in ("__init__", "__call__"):
            return
        self.bindings.append((where, owner if owner is not None else table, name, value))
        for function in functions_of(value):
            self.functions.append((where, function, self.state(function)))

    @staticmethod
    def state(function: FunctionType) -> tuple:
        """What a function runs with: its code, defaults and closure's contents (by identity)."""
        return (
            id(function.__code__),
            id(function.__defaults__),
            id(function.__kwdefaults__),
            tuple(contents(cell) for cell in function.__closure__ or ()),
        )

    def broken(self) -> str | None:
        """The name of the first thing changed since the seal, or None."""
        for where, table, name, value in self.bindings:
            current = vars(table).get(name) if isinstance(table, type) else table.get(name)
            if current is not value:
                return where
        for where, function, state in self.functions:
            if self.state(function) != state:
                return where
        return None
