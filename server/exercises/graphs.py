"""Random graphs of the seed's operations, drawn fresh for every /verify under the strict verdict.

A graph is rows of (op, input, input) after four leaves (exercises/backward/plugin/extras.py builds
it). Each one drawn here holds, at random places and on random inputs, every shape that tells a
topological order from the wrong orders people write, wired into a random core:
- a value that reaches out by paths of different lengths (a walk level by level from out runs it early),
- a value used twice by one value and once more by another (in-degrees counted per value, not per use),
- two different values with the same data (values remembered by their data),
- inner values used by several values at different depths (any walk that runs a value when first met).
Its value set is kept only where every value's share of gradient from each of its users, and its own
reach to the leaves, is big enough that running any _backward early, twice or never changes some leaf's
gradient by far more than the comparison rule's tolerance. tests/test_graphs.py runs the wrong orders.
"""

import math
import random

LEAVES = 4
SHARE = 1e-3  # the least gradient any one use passes on, and the least any value moves a leaf by
MOST = 1e3  # the largest gradient or datum, so the tolerance (relative above 1) stays far below the shares
ATTEMPTS = 200


def draw(rng: random.Random) -> tuple[list[list], list[float]]:
    """Draw one graph and a value set on which every misplaced _backward shows in the leaves' gradients."""
    for _ in range(ATTEMPTS):
        rows = shape(rng)
        for _ in range(5):
            values = [leaf_value(rng) for _ in range(LEAVES)]
            if clear(rows, values):
                return rows, values
    raise RuntimeError("no clear graph drawn")  # not seen in 10,000 draws (tests/test_graphs.py)


def leaf_value(rng: random.Random) -> float:
    """A leaf's value, as /verify's fresh value sets have them: in [-2, 2], to three decimals, not 0."""
    value = 0.0
    while value == 0.0:
        value = round(rng.uniform(-2.0, 2.0), 3)
    return value


def shape(rng: random.Random) -> list[list]:
    """Draw the rows: a random core, every telling shape on random inputs, all summed up into out."""
    rows: list[list] = []
    open_ = list(range(LEAVES))  # what a shape may take as input: leaves, the core, other shapes' tops

    def add(*row) -> int:
        rows.append(list(row))
        return LEAVES + len(rows) - 1

    def pick() -> int:  # at every depth; never a shape's inner value, whose users the shape fixes
        return rng.choice(open_)

    def binary(a: int, b: int) -> int:
        return add(rng.choice("+*"), a, b)

    for _ in range(rng.randint(6, 12)):  # the core: mostly built on its latest values, now and then on any
        a = rng.choice(open_[-3:]) if rng.random() < 0.7 else pick()
        open_.append(add("tanh", a) if rng.random() < 0.3 else binary(a, pick()))

    def uneven() -> int:  # u, then u again two or three steps on
        u = binary(pick(), pick())
        far = add("tanh", u)
        if rng.random() < 0.5:
            far = binary(far, pick())
        return binary(u, add("tanh", far))

    def square() -> int:  # u·u beside a longer path from u
        u = binary(pick(), pick())
        return add("+", add("*", u, u), add("tanh", add("tanh", u)))

    def twins() -> int:  # a·b and b·a (or a+b and b+a): the same data, two values
        a, b, op = pick(), pick(), rng.choice("+*")
        p, q = add(op, a, b), add(op, b, a)
        return add("+", add("tanh", p), add("*", q, pick()))

    def shared() -> int:  # h·h + h
        h = add("tanh", binary(pick(), pick()))
        return add("+", add("*", h, h), h)

    def diamond() -> int:  # tanh(u) + u·c
        u = binary(pick(), pick())
        return add("+", add("tanh", u), add("*", u, pick()))

    makers = [uneven, square, twins, *rng.sample([shared, diamond], rng.randint(1, 2))]
    rng.shuffle(makers)
    tops = []
    for make in makers:
        tops.append(make())
        open_.append(tops[-1])
    used = {i for _, *inputs in rows for i in inputs}
    tops += [i for i in range(LEAVES + len(rows)) if i not in used and i not in tops]  # every leaf counts
    while len(tops) > 1:  # join the tops two at a time, in a random order, until one is left: out
        a = tops.pop(rng.randrange(len(tops)))
        b = tops.pop(rng.randrange(len(tops)))
        tops.append(add("tanh", binary(a, b)) if rng.random() < 0.2 else binary(a, b))
    return rows


def forward(rows: list[list], values: list[float]) -> list[float]:
    """Every value's data: the leaves', then each row's."""
    data = list(values)
    for op, a, *b in rows:
        x = data[a]
        data.append(math.tanh(x) if op == "tanh" else x + data[b[0]] if op == "+" else x * data[b[0]])
    return data


def local(op: str, inputs: list[int], data: list[float], out: float, i: int) -> float:
    """How much a row's value changes per unit of its input i (counting i twice in a·a)."""
    if op == "tanh":
        return 1 - out * out
    if op == "+":
        return float(inputs.count(i))
    a, b = inputs
    return (data[b] if a == i else 0.0) + (data[a] if b == i else 0.0)


def clear(rows: list[list], values: list[float]) -> bool:
    """Whether every inner value's gradient from each user, its reach to the leaves, and every leaf's
    gradient are big enough to tell, and every number small enough to compare closely."""
    data = forward(rows, values)
    n = len(data)
    if not all(math.isfinite(d) and abs(d) <= MOST for d in data):
        return False
    grad = [0.0] * n
    grad[-1] = 1.0
    shares: list[list[float]] = [[] for _ in range(n)]  # what each user passes on to each value
    for k in range(n - 1, LEAVES - 1, -1):
        op, *inputs = rows[k - LEAVES]
        for i in dict.fromkeys(inputs):
            share = grad[k] * local(op, inputs, data, data[k], i)
            shares[i].append(share)
            grad[i] += share
    reach = [[1.0 if j == i else 0.0 for j in range(LEAVES)] for i in range(LEAVES)]  # d value / d leaf
    for k in range(LEAVES, n):
        op, *inputs = rows[k - LEAVES]
        reach.append(
            [sum(local(op, inputs, data, data[k], i) * reach[i][j] for i in dict.fromkeys(inputs))
             for j in range(LEAVES)]
        )  # fmt: skip
    for k in range(LEAVES, n - 1):
        if not shares[k] or min(abs(s) for s in shares[k]) < SHARE or abs(grad[k]) < SHARE:
            return False
        if max(abs(r) for r in reach[k]) < SHARE:
            return False
    return all(abs(g) <= MOST for g in grad) and min(abs(g) for g in grad[:LEAVES]) >= SHARE


def features(rows: list[list], values: list[float]) -> set[str]:
    """Name the telling shapes a graph has (tests and the fixed tangle are checked against them)."""
    n = LEAVES + len(rows)
    users: list[list[int]] = [[] for _ in range(n)]
    for k, (_, *inputs) in enumerate(rows, LEAVES):
        for i in inputs:
            users[i].append(k)
    near = [math.inf] * n  # steps from out by the shortest path
    near[-1] = 0
    for k in range(n - 1, LEAVES - 1, -1):
        for i in rows[k - LEAVES][1:]:
            near[i] = min(near[i], near[k] + 1)
    inner = range(LEAVES, n - 1)
    data = forward(rows, values)
    found = set()
    if any(near[u] > near[k] for k in inner for u in users[k]):
        found.add("uneven")  # a user farther from out than the value: level by level runs the value first
    if any(len(users[k]) > len(set(users[k])) > 1 for k in inner):
        found.add("used twice by one")
    if any(data[k] == data[m] for k in inner for m in inner if k < m):
        found.add("same data")
    if sum(len(set(users[k])) > 1 for k in inner) >= 3:
        found.add("shared")
    return found
