"""Fresh cases for /verify (server-side only: never sent to the browser or the sandbox)."""

POINTS = {  # each group's points: xs, then ys
    "lecture": (
        [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]],
        [1.0, -1.0, -1.0, 1.0],
    ),
    "plane": ([[1.0, 0.5], [-0.5, 1.0], [0.8, -0.9], [-1.2, -0.3]], [1.0, -1.0, 1.0, -1.0]),
}
# The seeds from 1 to 60 whose network a loop with a learning rate of 0.05 to 0.1 (each hundredth) brings
# under the loss of 0.05 after any number of steps from 20 to 30: the ones the statement promises. The fixed
# cases' (lecture 13, plane 30) are left out, so a fresh case is one no page has shown.
# fmt: off
SEEDS = {
    "lecture": [2, 3, 4, 5, 6, 7, 8, 10, 14, 15, 16, 24, 27, 29, 33, 36, 40, 41, 42, 44, 48, 49,
                50, 51, 52, 57, 58, 59, 60],
    "plane": [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 18, 20, 21, 22, 23, 24, 25, 26, 27, 29, 31, 32,
              33, 34, 36, 37, 38, 39, 40, 41, 42, 43, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 60],
}
# fmt: on


def draw(group, rng):
    """One case of group: its points, and the seed the network's weights are drawn with."""
    xs, ys = POINTS[group]
    return {"values": [1] * 7, "xs": xs, "ys": ys, "seed": rng.choice(SEEDS[group])}
