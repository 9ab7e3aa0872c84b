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
