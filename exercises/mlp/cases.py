"""Fresh cases for /verify (server-side only: never sent to the browser or the sandbox)."""


def number(rng, low, high):
    """A number in [low, high] to two decimals, at least 0.1 from 0."""
    while True:
        x = round(rng.uniform(low, high), 2)
        if abs(x) >= 0.1:
            return x


def draw(group, rng):
    """One case of group no page has shown: three layers' sizes and nin (count, same), or a network of
    one input, its weights and three inputs (forward). No layer but the last has one neuron (a layer of
    one gives one Value, not a list, as micrograd's does)."""
    if group in ("count", "same"):
        return {"values": [rng.randint(2, 6), rng.randint(2, 6), rng.randint(1, 3)], "nin": rng.randint(1, 4)}
    nouts = [rng.randint(2, 4) for _ in range(rng.randint(1, 2))] + [1]
    sizes = [1] + nouts
    size = sum((sizes[i] + 1) * sizes[i + 1] for i in range(len(nouts)))
    return {
        "values": [number(rng, -2, 2) for _ in range(3)],
        "nouts": nouts,
        "weights": [number(rng, -1, 1) for _ in range(size)],
    }
