"""Fresh cases for /verify (server-side only: never sent to the browser or the sandbox)."""


def number(rng, low, high, apart_from=()):
    """A number in [low, high] to three decimals, at least 0.2 from 0 and 0.1 from each of apart_from."""
    while True:
        x = round(rng.uniform(low, high), 3)
        if abs(x) >= 0.2 and all(abs(x - y) >= 0.1 for y in apart_from):
            return x


def draw(group, rng):
    """One case of group no page has shown: the leaves' values and out.grad (g).

    a stays away from 0 (relu has a kink there: no gradient is graded at it) and from 1 (where relu's
    output equals its gradient); g from 1 (so forgetting out.grad changes the numbers). The signs are
    the group's, so every request's fresh cases show every named mistake: relu(a) has a > 0 and g < 0
    (a gradient scaled by out.data, by 1, or kept only where out.grad > 0 is wrong there); relu(a)*b
    has a < 0 (a gradient passed through, or flipped, is wrong there); relu(a)+a either sign.
    """
    if group == "relu(a)":
        return {"values": [number(rng, 0.2, 2, apart_from=(1.0,))], "g": number(rng, -2.5, -0.2)}
    g = number(rng, -2.5, 2.5, apart_from=(1.0,))
    if group == "relu(a)*b":
        return {"values": [number(rng, -2, -0.2), number(rng, -2, 2, apart_from=(1.0,))], "g": g}
    return {"values": [number(rng, -2, 2, apart_from=(1.0,))], "g": g}
