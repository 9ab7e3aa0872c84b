"""Fresh cases for /verify (server-side only: never sent to the browser or the sandbox)."""


def number(rng, low, high, apart_from=()):
    """A number in [low, high] to three decimals, at least 0.2 from 0 and 0.1 from each of apart_from."""
    while True:
        x = round(rng.uniform(low, high), 3)
        if abs(x) >= 0.2 and all(abs(x - y) >= 0.1 for y in apart_from):
            return x


def draw(group, rng):
    """One case of group no page has shown: the leaves' values and out.grad (g).

    g stays away from 0, 1 and 2 (so forgetting out.grad changes the numbers); a stays away from 0
    (it is divided by), from 1 (where 3·a^3 and 3·a^2 agree) and from 1/3 (where a^2 and 3·a^3
    agree); in a-b and a/b, a and b differ.
    """
    g = number(rng, -2.5, 2.5, apart_from=(1.0, 2.0))
    a = number(rng, -2, 2, apart_from=(1.0, 1 / 3))
    if group in ("a-b", "a/b"):
        b = number(rng, -2, 2, apart_from=(a, -a, 1.0, -1.0))
        return {"values": [a, b], "g": g}
    return {"values": [a], "g": g}
