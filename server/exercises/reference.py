"""The reference backward and the expected gradients: server-only, outside engine/ (the browser's).

The reference itself is the seed's exercise's (exercises/backward/reference.py), its one home.
"""

from collections.abc import Callable
from pathlib import Path

from engine.namespace import new_engine
from engine.picture import MAX_PICTURE
from engine.watch import Watcher
from exercises.backward.plugin.extras import build_graph
from exercises.backward.seed import exercise, value_sets

REFERENCE = Path(__file__).resolve().parents[2] / "exercises" / "backward" / "reference.py"


def load(path: Path = REFERENCE) -> Callable:
    """The seed's reference backward, from its exercise's folder (exercises/backward/reference.py)."""
    namespace: dict = {}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)  # noqa: S102 - ours
    return namespace["backward"]


backward = load()


def graded_cases(verdict: str = "seed") -> list[dict]:
    """Return every value set with the gradients the reference gives its leaves and all its values."""
    cases = value_sets(verdict)
    for case in cases:
        leaves, made = solve(case["group"], case["inputs"]["values"])
        case["expected"] = [round(v.grad, 9) for v in leaves]  # as grads_of rounds them
        if len(made) <= MAX_PICTURE:  # for the picture: every value's right gradient (the plugin's data)
            case["data"] = {"nodes": [round(v.grad, 9) for v in made]}
    return cases


def expected(expr: str, values: list[float], rows=None) -> list[float]:
    """The leaves' gradients the reference gives one value set, rounded as grads_of rounds them.

    rows: a graph given as data (exercises/backward/plugin/extras.py), for the graphs /verify draws."""
    leaves, _ = solve(expr, values, rows)
    return [round(v.grad, 9) for v in leaves]


def solve(expr: str, values: list[float], rows=None) -> tuple[list, list]:
    """Build one graph in a fresh engine and run the reference backward; return its leaves and values."""
    engine = new_engine(exercise())
    built = Watcher(engine).build(build_graph, engine["build"], engine["Value"], expr, list(values), rows)
    backward(built.out)
    return built.leaves, built.values
