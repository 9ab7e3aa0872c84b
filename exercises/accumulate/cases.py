"""Fresh cases for /verify (server-side only: never sent to the browser or the sandbox)."""


def number(rng, low, high):
    """A number in [low, high] to two decimals, at least 0.1 from 0."""
    while True:
        x = round(rng.uniform(low, high), 2)
        if abs(x) >= 0.1:
            return x


def batch(rng):
    """One or two points (x1, x2) and their targets."""
    count = rng.randint(1, 2)
    return {
        "xs": [[number(rng, -1.5, 1.5), number(rng, -1.5, 1.5)] for _ in range(count)],
        "ys": [number(rng, -0.9, 0.9) for _ in range(count)],
    }


def draw(group, rng):
    """One case of group no page has shown: w1, w2, b, the earlier batch, and the batches (one for
    zero_grad; two or three for accumulate, so that clearing inside the loop changes the numbers)."""
    count = 1 if group == "zero_grad" else rng.randint(2, 3)
    return {
        "values": [number(rng, -1, 1) for _ in range(3)],
        "earlier": batch(rng),
        "batches": [batch(rng) for _ in range(count)],
    }
