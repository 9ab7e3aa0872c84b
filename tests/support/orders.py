"""Orders people write for backward(out), as learner code: the right ones and the wrong ones.

Every RIGHT one must pass the strict verdict with every graph right; every WRONG one must fail it, in
CPython, in the page and at /verify (tests/test_orders.py, tests/browser/test_orders.py).
"""

from tests.support.solutions import CORRECT, ITERATIVE, NOT_REVERSED, PRE_ORDER

KAHN = """\
from collections import deque


def backward(out):
    waiting, seen, stack = {}, {out}, [out]
    while stack:
        v = stack.pop()
        for child in v._prev:
            waiting[child] = waiting.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    out.grad = 1
    ready = deque([out])
    while ready:
        v = ready.popleft()
        v._backward()
        for child in v._prev:
            waiting[child] -= 1
            if waiting[child] == 0:
                ready.append(child)
"""

RIGHT = {
    # micrograd's own: a recursive topological sort, then reversed
    "recursive": CORRECT,
    # the same order with a stack of its own
    "stack": ITERATIVE,
    # the same, with a set of id(v) and a reversed copy
    "id set": """\
def backward(out):
    topo, seen = [], set()

    def build(v):
        if id(v) not in seen:
            seen.add(id(v))
            for child in v._prev:
                build(child)
            topo.append(v)

    build(out)
    out.grad = 1.0
    for v in topo[::-1]:
        v._backward()
""",
    # depth-first with an iterator per value, as graph libraries do it
    "iterators": """\
def backward(out):
    order, seen, stack = [], {out}, [(out, iter(out._prev))]
    while stack:
        v, children = stack[-1]
        for child in children:
            if child not in seen:
                seen.add(child)
                stack.append((child, iter(child._prev)))
                break
        else:
            order.append(v)
            stack.pop()
    out.grad = 1
    for v in reversed(order):
        v._backward()
""",
    # Kahn's algorithm: a value is ready once every use of it has passed its share (a·a counts twice)
    "kahn": KAHN,
    # each value by its longest path from out: every user of a value is nearer to out than it is
    "longest path": """\
def backward(out):
    depth, stack = {out: 0}, [out]
    while stack:
        v = stack.pop()
        for child in v._prev:
            if depth.get(child, -1) < depth[v] + 1:
                depth[child] = depth[v] + 1
                stack.append(child)
    out.grad = 1
    for v in sorted(depth, key=depth.get):
        v._backward()
""",
}

WRONG = {
    # a queue from out: a value runs when first reached, before the users on its longer paths
    "breadth-first": """\
from collections import deque


def backward(out):
    out.grad = 1
    queue, seen = deque([out]), {out}
    while queue:
        v = queue.popleft()
        v._backward()
        for child in v._prev:
            if child not in seen:
                seen.add(child)
                queue.append(child)
""",
    # the same with a list as the queue and no memory: a value runs once per path
    "breadth-first, no memory": """\
def backward(out):
    out.grad = 1
    queue = [out]
    while queue:
        v = queue.pop(0)
        v._backward()
        queue.extend(v._prev)
""",
    # recursion, _backward before the inputs, no memory: right on trees only
    "pre-order": PRE_ORDER,
    # the same with memory: a value runs when first met, before its other users
    "pre-order, memory": """\
def backward(out):
    out.grad = 1
    seen = set()

    def visit(v):
        if v not in seen:
            seen.add(v)
            v._backward()
            for child in v._prev:
                visit(child)

    visit(out)
""",
    # a stack from out, _backward when popped: depth-first, but each value runs when first met
    "stack, run when popped": """\
def backward(out):
    out.grad = 1
    stack, seen = [out], set()
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        v._backward()
        stack.extend(v._prev)
""",
    # the topological order itself, from the leaves: forgot reversed()
    "not reversed": NOT_REVERSED,
    # appended before its inputs are visited: reversed, that list runs the leaves' side first
    "appended before visiting": CORRECT.replace(
        "            for child in v._prev:\n                visit(child)\n            topo.append(v)\n",
        "            topo.append(v)\n            for child in v._prev:\n                visit(child)\n",
    ),
    # a topological sort with no memory: a value used twice is in the list twice
    "no memory": CORRECT.replace(
        "        if v not in seen:\n            seen.add(v)\n            for child in v._prev:\n"
        "                visit(child)\n            topo.append(v)\n",
        "        for child in v._prev:\n            visit(child)\n        topo.append(v)\n",
    ),
    # values remembered by their data: x·w and w·x are one to it
    "seen by data": CORRECT.replace(
        "if v not in seen:\n            seen.add(v)", "if v.data not in seen:\n            seen.add(v.data)"
    ),
    # Kahn's on distinct users, counted down once per use: a·a makes its input ready too soon
    "kahn, users not uses": KAHN.replace(
        "        for child in v._prev:\n            waiting[child] = ",
        "        for child in set(v._prev):\n            waiting[child] = ",
    ),
    # Kahn's on uses, counted down once per distinct user: a·a's input is never ready
    "kahn, uses not users": KAHN.replace(
        "        for child in v._prev:\n            waiting[child] -= 1",
        "        for child in set(v._prev):\n            waiting[child] -= 1",
    ),
    # each value by its shortest path from out: level by level, as breadth-first
    "shortest path": """\
def backward(out):
    depth, queue = {out: 0}, [out]
    for v in queue:
        for child in v._prev:
            if child not in depth:
                depth[child] = depth[v] + 1
                queue.append(child)
    out.grad = 1
    for v in sorted(depth, key=depth.get):
        v._backward()
""",
}
