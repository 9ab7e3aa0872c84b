"""Learner code used by the tests: one right answer and the usual mistakes."""

CORRECT = """\
def backward(out):
    topo = []
    seen = set()

    def visit(v):
        if v not in seen:
            seen.add(v)
            for child in v._prev:
                visit(child)
            topo.append(v)

    visit(out)
    out.grad = 1
    for v in reversed(topo):
        v._backward()
"""

# The same order, found with a stack of its own: survives the deep chain too.
ITERATIVE = """\
def backward(out):
    topo, seen = [], set()
    stack = [(out, False)]
    while stack:
        v, done = stack.pop()
        if done:
            topo.append(v)
        elif v not in seen:
            seen.add(v)
            stack.append((v, True))
            stack.extend((child, False) for child in v._prev)
    out.grad = 1
    for v in reversed(topo):
        v._backward()
"""

NO_SEED = CORRECT.replace("    out.grad = 1\n", "")

NOT_REVERSED = CORRECT.replace("reversed(topo)", "topo")

TWICE = CORRECT.replace("        v._backward()\n", "        v._backward()\n        v._backward()\n")

# Pre-order, no memory of what was visited: right on trees only.
PRE_ORDER = """\
def backward(out):
    out.grad = 1

    def visit(v):
        v._backward()
        for child in v._prev:
            visit(child)

    visit(out)
"""

# Sets the leaves' gradients by hand after a right pass: right numbers nowhere.
LEAF_BY_HAND = (
    CORRECT
    + """\
    for v in topo:
        if not v._prev:
            v.grad += 1
"""
)

OUT_TWO = CORRECT.replace("out.grad = 1", "out.grad = 2")

# Skips every tanh: their inputs never hear from them.
SKIP_TANH = CORRECT.replace(
    "        v._backward()\n", "        if len(v._prev) != 1:\n            v._backward()\n"
)


def lookup_table(cases: list[dict]) -> str:
    """A backward that knows no algorithm: it looks up the expected gradients of the given (graded) cases."""
    table = {(c["group"], tuple(c["inputs"]["values"])): c["expected"] for c in cases if not c["extra"]}
    return (
        f"TABLE = {table!r}\n"
        "def backward(out):\n"
        "    leaves, seen = [], set()\n"
        "    def visit(v):  # the leaves in the order build() made them\n"
        "        if id(v) not in seen:\n"
        "            seen.add(id(v))\n"
        "            if not v._prev:\n"
        "                leaves.append(v)\n"
        "            for child in v._prev:\n"
        "                visit(child)\n"
        "    visit(out)\n"
        "    for (expr, vals), grads in TABLE.items():\n"
        "        if vals == tuple(v.data for v in leaves):\n"
        "            for leaf, g in zip(leaves, grads):\n"
        "                leaf.grad = g\n"
    )


def indent(text: str, spaces: int) -> str:
    return "\n".join(" " * spaces + line for line in text.split("\n"))
