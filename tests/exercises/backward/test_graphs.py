"""The random graphs /verify draws, and the fixed tangle drawn the same way: what each one holds."""

import math
import random

import pytest

from exercises.backward.plugin.extras import TANGLE
from exercises.backward.seed import VALUE_SETS
from server.exercises import graphs

FEATURES = {"uneven", "used twice by one", "same data", "shared"}


def longest(rows: list) -> int:
    """Steps from out to the farthest value: the depth a recursive search reaches."""
    n = graphs.LEAVES + len(rows)
    far = [0] * n
    for k in range(n - 1, graphs.LEAVES - 1, -1):
        for i in rows[k - graphs.LEAVES][1:]:
            far[i] = max(far[i], far[k] + 1)
    return max(far)


@pytest.mark.slow  # draws hundreds of graphs
def test_every_drawn_graph_holds_every_telling_shape_and_is_clear(rng):
    for _ in range(2000):
        rows, values = graphs.draw(rng)
        assert graphs.features(rows, values) == FEATURES
        assert graphs.clear(rows, values)
        assert 31 <= graphs.LEAVES + len(rows) <= 71  # the most: 12 in the core, 23 in shapes, 32 joining
        assert longest(rows) < 40  # far below the recursion limit: a recursive search is right here
        assert all(v != 0 and -2 <= v <= 2 and round(v, 3) == v for v in values)


def test_the_fixed_tangle_holds_every_shape_and_is_clear_on_the_pages_value_sets():
    rows = [list(row) for row in TANGLE]
    for values in VALUE_SETS["tangle"]:
        assert graphs.features(rows, list(values)) == FEATURES
        assert graphs.clear(rows, list(values))


def test_clear_refuses_a_value_set_where_a_share_is_too_small():
    # u = a·b, out = (u + u·c)·d: with c tiny, u·c passes u almost nothing, so running u before it hides.
    rows = [["*", 0, 1], ["*", 4, 2], ["+", 4, 5], ["*", 6, 3]]
    assert graphs.clear(rows, [1.0, 0.5, 0.5, 1.0])
    assert not graphs.clear(rows, [1.0, 0.5, 1e-5, 1.0])
    assert not graphs.clear(rows[:3], [1.0, 0.5, 0.5, 1.0])  # d unused: its gradient says nothing


def test_a_graph_without_the_uneven_shape_is_named_so():
    # h·h + h: h reaches out in one step and in two, but its user h·h is not farther than it is.
    rows = [["*", 0, 1], ["tanh", 4], ["*", 5, 5], ["+", 6, 5]]
    assert "uneven" not in graphs.features(rows, [0.5, 0.7, 1.0, 1.0])
    rows = [["*", 0, 1], ["tanh", 4], ["tanh", 5], ["+", 4, 6]]  # u + tanh(tanh(u))
    assert "uneven" in graphs.features(rows, [0.5, 0.7, 1.0, 1.0])


def test_graphs_are_drawn_from_the_random_source_given():
    a, b = random.Random(5), random.Random(5)
    assert graphs.draw(a) == graphs.draw(b)
    assert graphs.draw(a) != graphs.draw(random.Random(6))


@pytest.mark.parametrize("seed", range(5))
def test_the_forward_pass_is_the_engines(seed):
    from engine.namespace import new_engine
    from exercises.backward.plugin.extras import from_rows
    from exercises.backward.seed import exercise

    rows, values = graphs.draw(random.Random(seed))
    _, out = from_rows(new_engine(exercise())["Value"], rows, values)
    assert math.isclose(out.data, graphs.forward(rows, values)[-1], rel_tol=1e-12)
