"""Fresh cases for /verify (server-side only): the seed's draws, whose rules live in the server for now.

Each counted expression gets leaves in [-2, 2] (three decimals, not 0), drawn again until every leaf's
gradient is big enough to tell a mistake (server/exercises/value_sets.py's fresh_values); the group
`random` gets a random graph of the seed's operations, as rows after four leaves, with a value set on
which every misplaced _backward shows (server/exercises/graphs.py).
"""

from server.exercises import graphs, value_sets


def draw(group, rng):
    """One case of group no page has shown: its values (and, for `random`, its graph's rows)."""
    if group == "random":
        rows, values = graphs.draw(rng)
        return {"values": values, "graph": rows}
    values, _expected = value_sets.fresh_values(rng, group)
    return {"values": values}
