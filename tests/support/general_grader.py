"""A small stand-in for the general grader (issue 51's P1: engine/descriptor.py, outputs.py, grade.py,
named.py), for an exercise without a plugin: while this checkout has no general grader, the exercises'
check runs its stages 3 to 6 through this (server/exercises/grading.py's use()).

It runs code as the general grader's contract says (docs/architecture.md, "The general grader and an
exercise"): a fresh engine, the learner's names put in its place, the call evaluated on each case's
inputs, the numbers compared by the exercise's tolerance and named by the numbers rule. Run as a module,
it is `python -m server.exercises.checking` with itself in the grader's place.
"""

import math
import sys
from types import SimpleNamespace

from server.exercises import checking, grading


def available() -> bool:
    """Whether this checkout has the general grader itself."""
    import importlib.util

    return importlib.util.find_spec("engine.descriptor") is not None


def close(got: float, expected: float, tolerance: dict) -> bool:
    digits, within = tolerance.get("digits", 9), tolerance.get("within", 1e-9)
    above = tolerance.get("relative_above", 1.0)
    if round(got, digits) == round(expected, digits):
        return True
    return abs(got - expected) <= within * max(above, abs(expected)) * (1 + 1e-6)


class Adapter:
    def read(self, exercise) -> SimpleNamespace:
        if exercise.data.get("plugin"):
            raise NotImplementedError("the stand-in grades exercises without a plugin only")
        code = compile(exercise.code["engine.py"], "engine.py", "exec")
        data = exercise.data
        return SimpleNamespace(
            engine=code,
            writes=data["learner_writes"],
            call=compile(data["grade"]["call"], "<call>", "eval"),
            tolerance=data["grade"].get("tolerance", {}),
            keys=exercise.keys,
        )

    def numbers(self, read, source: str, cases: list[dict]) -> list[list[float] | None]:
        found = []
        for case in cases:
            try:
                engine: dict = {"__name__": "engine"}
                exec(read.engine, engine)
                namespace = dict(engine, __name__="__main__")
                for name in read.writes:
                    namespace.pop(name, None)
                exec(compile(source, "<editor>", "exec"), namespace)
                for name in read.writes:
                    engine[name] = namespace[name]
                got = eval(read.call, engine, {**case["inputs"], "group": case["group"]})
                found.append([float(x) for x in got])
            except Exception:  # noqa: BLE001 - as the grader, a case whose run raised has no numbers
                found.append(None)
        return found

    def same(self, a, b, tolerance: dict) -> bool:
        return (
            a is not None
            and b is not None
            and len(a) == len(b)
            and all(math.isfinite(x) and close(x, y, tolerance) for x, y in zip(a, b, strict=True))
        )

    def named(self, got, expected, wrong, keys, tolerance) -> str | None:
        for key in keys:
            theirs = wrong.get(key)
            if theirs is None or len(theirs) != len(got):
                continue
            apart = [
                i for i, w in enumerate(theirs) if w is not None and not self.same(w, expected[i], tolerance)
            ]
            if apart and all(self.same(got[i], theirs[i], tolerance) for i in apart):
                return key
        return None

    def grade(self, read, source: str, cases: list[dict]) -> dict:
        got = self.numbers(read, source, cases)
        expressions: dict[str, dict] = {}
        rows: dict[str, list] = {}
        for case, numbers in zip(cases, got, strict=True):
            passed = self.same(numbers, case["expected"], read.tolerance)
            expr = expressions.setdefault(
                case["group"],
                {"name": case["group"], "extra": case["extra"], "passed": True, "mistake": None, "cases": []},
            )
            expr["cases"].append({"passed": passed})
            expr["passed"] = expr["passed"] and passed
            rows.setdefault(case["group"], []).append((numbers, case["expected"], case.get("wrong") or {}))
        for name, expr in expressions.items():
            if not expr["passed"]:
                wrong = {k: [w.get(k) for _, _, w in rows[name]] for k in read.keys}
                key = self.named(
                    [g for g, _, _ in rows[name]],
                    [e for _, e, _ in rows[name]],
                    wrong,
                    read.keys,
                    read.tolerance,
                )
                expr["mistake"] = {"kind": key or "wrong"}
        graded = [e for e in expressions.values() if not e["extra"]]
        passed = bool(graded) and all(e["passed"] for e in graded)
        return {"passed": passed, "error": None, "expressions": list(expressions.values())}


if __name__ == "__main__":
    grading.use(Adapter())
    sys.exit(checking.main())
