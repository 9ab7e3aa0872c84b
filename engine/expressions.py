"""Each expression in words, for the page and the report: its formula and what to notice about it.

Written from the code that builds the graphs: a chain's length is counted in the graph build() makes,
so changing the engine's `range(10)` or extras.DEPTH changes the text everywhere it is shown.
"""

from functools import cache

from engine.cases import LEAVES
from engine.extras import TANGLE
from engine.namespace import new_engine
from engine.watch import Watcher

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def count(n: int) -> str:
    """Write a count as a reader would: words up to ten, then digits (500, 1,000)."""
    return NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else f"{n:,}"


def layers(expr: str) -> int:
    """Count the tanh layers in the graph of expr (tanh is the engine's one operation with one input)."""
    engine = new_engine()
    built = Watcher(engine).build(engine["build"], expr, [0.5] * len(LEAVES[expr]))
    return sum(1 for v in built.values if len(v._prev) == 1)


@cache
def words(expr: str) -> dict:
    """Say what expr computes: {"formula", "about"}, plain text."""
    times = count(layers(expr)) if expr in ("chain", "deep") else ""
    formula, about = {
        "neuron": ("tanh(x1·w1 + x2·w2 + b)", "a neuron with two inputs"),
        "reuse": ("a·b + a·a", "a is used three times"),
        "chain": (f"tanh(… tanh(x·w) · w …), {times} times", f"tanh of out·w, {times} times over, from x"),
        "shared": ("h·h + h, with h = tanh(x·w)", "h is used three times, twice by one value"),
        "diamond": ("tanh(u) + u·c, with u = x·w", "u feeds two paths that meet again"),
        "uneven": ("u·u + tanh(tanh(u)), with u = x·w", "u reaches out in two steps and in three"),
        "twins": ("tanh(x·w) + (w·x)·c", "x·w and w·x are two values with the same data"),
        "tangle": (
            f"{count(len(LEAVES['tangle']) + len(TANGLE))} values of +, · and tanh on a, b, c, d",
            "drawn at random once, with all of the above inside it",
        ),
        "random": ("graphs of +, · and tanh on a, b, c, d", "drawn at random for this request"),
        "deep": (f"tanh(… tanh(x·w) · w …), {times} times", "a chain deeper than Python's recursion limit"),
    }[expr]
    return {"formula": formula, "about": about}
