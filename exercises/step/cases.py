"""Fresh cases for /verify (server-side only: never sent to the browser or the sandbox)."""

NETWORKS = {"1-2-1": (1, 7), "2-3-1": (2, 13)}  # inputs per point, parameters


def number(rng, low, high):
    """A number in [low, high] to two decimals, not 0."""
    while True:
        x = round(rng.uniform(low, high), 2)
        if x != 0:
            return x


def points(rng, nin, count):
    xs = [[number(rng, -1.5, 1.5) for _ in range(nin)] for _ in range(count)]
    return xs, [number(rng, -1, 1) for _ in range(count)]


def draw(group, rng):
    """One case of group no page has shown: weights, an earlier batch, a batch and a learning rate."""
    nin, size = NETWORKS[group]
    earlier_xs, earlier_ys = points(rng, nin, rng.randint(1, 2))
    xs, ys = points(rng, nin, rng.randint(1, 3))
    return {
        "values": [number(rng, -1, 1) for _ in range(size)],
        "earlier": {"xs": earlier_xs, "ys": earlier_ys},
        "xs": xs,
        "ys": ys,
        "lr": rng.choice([0.05, 0.1, 0.2]),
    }
