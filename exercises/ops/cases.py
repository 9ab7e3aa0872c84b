"""Fresh cases for /verify (server-side only: never sent to the browser or the sandbox)."""


def number(rng, low, high, apart_from=()):
    """A number in [low, high] to three decimals, not 0, at least 0.1 from each of apart_from."""
    while True:
        x = round(rng.uniform(low, high), 3)
        if x != 0 and all(abs(x - y) >= 0.1 for y in apart_from):
            return x


def draw(group, rng):
    """One case of group no page has shown: the leaves' values and out.grad (g).

    g stays away from 0, 1 and 2 (so forgetting out.grad, or = for +=, changes the numbers), and
    in a*b, a and b differ (so swapping the two factors changes them); in 2*a, a is not 2 and in
    3*a*a not 5/3 (where swapping gives the right numbers).
    """
    g = number(rng, -2.5, 2.5, apart_from=(0.0, 1.0, 2.0))
    a = number(rng, -2, 2, apart_from=(2.0, 5 / 3))
    if group in ("a+a", "a*a", "2*a", "a+1", "1+a", "3*a*a"):
        return {"values": [a], "g": g}
    b = number(rng, -2, 2, apart_from=(a, -a))
    return {"values": [a, b], "g": g}
