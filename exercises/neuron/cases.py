"""Fresh cases for /verify (server-side only: never sent to the browser or the sandbox)."""


def number(rng, low, high, apart_from=()):
    """A number in [low, high] to three decimals, at least 0.2 from 0 and from each of apart_from."""
    while True:
        x = round(rng.uniform(low, high), 3)
        if all(abs(x - y) >= 0.2 for y in (0.0, *apart_from)):
            return x


def draw(group, rng):
    """One case of group no page has shown: the leaves' values.

    Every value stays away from 0: at tanh's input 0, 1 - x² and 1 - t² are both 1, and a weight of 0
    hides the gradient that passes through it; in tanh(a)*b, b stays away from 1 too (where leaving out
    out.grad changes nothing).
    """
    if group == "neuron":  # x1, x2, w1, w2, b: the sum stays within about [-3, 3], where tanh bends
        return {"values": [number(rng, -2, 2) for _ in range(4)] + [number(rng, -1, 1)]}
    if group == "tanh(a)*b":
        return {"values": [number(rng, -1.5, 1.5), number(rng, -2.5, 2.5, apart_from=(1.0,))]}
    return {"values": [number(rng, -1.5, 1.5)]}
