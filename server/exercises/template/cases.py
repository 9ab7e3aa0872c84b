"""Fresh cases for /verify (server-side only): a value and out.grad no page has shown."""


def draw(group, rng):
    """One case of group: a in [-2, 2] away from 0 (where tanh's gradient is 1 whatever the slip), and g
    away from 0 and 1 (so leaving out out.grad changes the numbers)."""
    a = 0.0
    while abs(a) < 0.2:
        a = round(rng.uniform(-2, 2), 3)
    g = 1.0
    while abs(g) < 0.2 or abs(g - 1) < 0.2:
        g = round(rng.uniform(-2.5, 2.5), 3)
    return {"values": [a], "g": g}
