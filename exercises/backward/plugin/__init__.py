"""The seed's plugin (engine/plugin.py's hooks): what only the backward(out) exercise has.

Its engine builds its graphs through the seed's own builder (extras.py: the three expressions with the
engine's build(), the order graphs and the deep chain here, a graph drawn as data from its rows), each
build watched (engine/watch.py), so every group's first wrong case is explained (explain.py: the order
diagnosis, the mistake behind it, the picture) and /verify's sandbox hands back each case's pass as
plain data (trace.py), which the records' judge diagnoses outside the sandbox. Its groups' words are
written from the graphs (expressions.py); the report's order from the graphs that tell orders apart
(order.py).
"""

from engine.errors import fatal
from engine.plugin import Plugin
from engine.words import N_

from .explain import Shown, explain
from .expressions import words
from .extras import build_graph
from .order import order
from .trace import Trace, plain

AFTER_BACKWARD = N_(" (after your backward returned, reading the leaves' .grad)")
NOT_A_NUMBER = N_("The gradient of {value} is {grad}, which is not a number: {error}")


class Seed(Plugin):
    """The hooks of the backward(out) exercise."""

    watch = True
    after_call = AFTER_BACKWARD
    not_a_number = NOT_A_NUMBER

    def words(self, group: dict) -> dict:
        return words(group["name"], group["leaves"])

    def load(self, runner) -> None:
        """Swap the engine's build() for the seed's builder: the engine's, not the learner's (they cannot
        reach or replace it), watched where the Check watches."""
        runner.rows = None  # the rows of the graph the case under way gives as data (/verify's)
        runner.built = None  # the graph built for the case under way
        runner.shown = {}  # each group's case it is explained with (Shown)
        build, value = runner.engine["build"], runner.engine["Value"]

        def building(expr, vals):
            if runner.watcher is not None:
                runner.built = runner.watcher.build(build_graph, build, value, expr, vals, runner.rows)
                return runner.built.leaves, runner.built.out
            return build_graph(build, value, expr, vals, runner.rows)[:2]

        runner.engine["build"] = building

    def prepare(self, runner, case: dict) -> int:
        runner.rows, runner.built = case["inputs"].get("graph"), None
        return len(runner.watcher.calls) if runner.watcher is not None else 0

    def ran(self, runner, case: dict, mark: int, expression: dict, error: dict | None) -> None:
        """Keep the case each group is explained with: its first wrong one (else its first), and its pass."""
        result, name, shown = expression["cases"][-1], case["group"], runner.shown
        if name not in shown or (shown[name].result["passed"] and not result["passed"]):
            built = runner.built
            trace = Trace(built, runner.watcher.calls[mark:]) if built is not None else None
            shown[name] = Shown(case, len(expression["cases"]) - 1, result, error, trace)

    def explain(self, runner, expressions: dict[str, dict], side) -> None:
        for name, explained in runner.shown.items():
            explain(expressions[name], explained, side)

    def sandbox_data(self, runner, case: dict, mark: int) -> dict | None:
        """The pass the case under way made, as plain data; None where none can be read whole (no graph
        built, calls past the watcher's limit) or reading it raised: it never changes the numbers."""
        if runner.built is None or runner.watcher is None or runner.watcher.dropped:
            return None
        try:
            return plain(runner.built, runner.watcher.calls[mark:])
        except Exception as exc:  # noqa: BLE001 - the fatal ones end the Check
            if fatal(exc):
                raise
            return None

    def verdict(self, expressions: list[dict], error: dict | None) -> str | None:
        return order(expressions, error)


PLUGIN = Seed()
