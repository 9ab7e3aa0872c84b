"""Each expression in words, for the page and the report: its formula and what to notice about it.

Written from the code that builds the graphs: a chain's length is counted in the graph build() makes,
so changing the engine's `range(10)` or extras.DEPTH changes the text everywhere it is shown.
"""

from functools import cache
from pathlib import Path

from engine.watch import Watcher
from engine.words import N_, _, ngettext, number

from .extras import TANGLE, build_graph

ENGINE = Path(__file__).resolve().parent.parent / "engine.py"  # the seed's engine, beside this plugin

NUMBER_WORDS = (
    N_("no"),
    N_("one"),
    N_("two"),
    N_("three"),
    N_("four"),
    N_("five"),
    N_("six"),
    N_("seven"),
    N_("eight"),
    N_("nine"),
    N_("ten"),
)


def count(n: int) -> str:
    """Write a count as a reader would: words up to ten, then digits (500, 1,000)."""
    return _(NUMBER_WORDS[n]) if n < len(NUMBER_WORDS) else number(n)


@cache
def layers(expr: str, leaves: int) -> int:
    """Count the tanh layers in the graph of expr, on so many leaves (tanh is the engine's one operation
    with one input)."""
    engine: dict = {"__name__": "engine"}
    exec(compile(ENGINE.read_text(encoding="utf-8"), "<engine>", "exec"), engine)
    value = engine["Value"]
    built = Watcher(engine).build(build_graph, engine["build"], value, expr, [0.5] * leaves)
    return sum(1 for v in built.values if len(v._prev) == 1)


def words(expr: str, leaves: list[str]) -> dict:
    """Say what expr (a graph on these leaves) computes, in the learner's language: {"formula", "about"},
    plain text."""
    n = layers(expr, len(leaves)) if expr in ("chain", "deep") else 0
    times = count(n)
    chain = ngettext(
        "tanh(… tanh(x·w) · w …), {times} time", "tanh(… tanh(x·w) · w …), {times} times", n, times=times
    )
    size = len(leaves) + len(TANGLE) if expr == "tangle" else 0
    formula, about = {
        "neuron": ("tanh(x1·w1 + x2·w2 + b)", _("a neuron with two inputs")),
        "reuse": ("a·b + a·a", _("a is used three times")),
        "chain": (
            chain,
            ngettext(
                "tanh of out·w, {times} time over, from x",
                "tanh of out·w, {times} times over, from x",
                n,
                times=times,
            ),
        ),
        "shared": (_("h·h + h, with h = tanh(x·w)"), _("h is used three times, twice by one value")),
        "diamond": (_("tanh(u) + u·c, with u = x·w"), _("u feeds two paths that meet again")),
        "uneven": (_("u·u + tanh(tanh(u)), with u = x·w"), _("u reaches out in two steps and in three")),
        "twins": ("tanh(x·w) + (w·x)·c", _("x·w and w·x are two values with the same data")),
        "tangle": (
            _("{count} values of +, · and tanh on a, b, c, d", count=count(size)),
            _("drawn at random once, with all of the above inside it"),
        ),
        "random": (_("graphs of +, · and tanh on a, b, c, d"), _("drawn at random for this request")),
        "deep": (chain, _("a chain deeper than Python's recursion limit")),
    }[expr]
    return {"formula": formula, "about": about}
