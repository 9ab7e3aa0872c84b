"""Two exercises of plan 51's drafts (ops: the _backward of + and *; step: one gradient-descent step),
copied as the minimal text the grader's tests need: each one's engine, reference, starter and named wrong
solutions, its descriptor and fixed cases. Their home is the drafts (and, from issue 51's P2, their
exercise folders); these are the tests' copies, so the general grader is tested on more than the seed.
"""

OPS_ENGINE = """\
# What Check computes on each case. Value is yours: the class in the editor.


def build(name, values):
    \"\"\"Build the expression called name from a Value for each number in values.

    Returns its leaves and the values whose _backward runs, out first.
    \"\"\"
    leaves = [Value(v) for v in values]
    if name == "a+b":
        a, b = leaves
        out = a + b
        runs = [out]
    elif name == "a*b":
        a, b = leaves
        out = a * b
        runs = [out]
    elif name == "a+a":
        (a,) = leaves
        out = a + a
        runs = [out]
    elif name == "a*a":
        (a,) = leaves
        out = a * a
        runs = [out]
    else:  # "a*b+a": a is used twice, by two operations
        a, b = leaves
        p = a * b
        out = p + a
        runs = [out, p]
    return leaves, runs


def grads_of(name, values, g):
    \"\"\"Set out.grad to g, run each _backward once (out first), and give each leaf's grad.\"\"\"
    leaves, runs = build(name, values)
    runs[0].grad = g
    for v in runs:
        v._backward()
    return [round(v.grad, 9) for v in leaves]  # same digits in every language
"""

OPS_REFERENCE = """\
class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = children
        self._backward = lambda: None

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other))

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out
"""

OPS_STARTER = """\
class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = children
        self._backward = lambda: None

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other))

        def _backward():
            # out = self + other: pass out.grad on to self and to other.
            pass

        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))

        def _backward():
            # out = self * other: pass out.grad on to each, times its local gradient.
            pass

        out._backward = _backward
        return out
"""

OPS_MISTAKES = {
    "assign": """\
class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = children
        self._backward = lambda: None

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other))

        def _backward():
            self.grad = out.grad
            other.grad = out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))

        def _backward():
            self.grad = other.data * out.grad
            other.grad = self.data * out.grad

        out._backward = _backward
        return out
""",
    "swapped": """\
class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = children
        self._backward = lambda: None

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other))

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))

        def _backward():
            self.grad += self.data * out.grad
            other.grad += other.data * out.grad

        out._backward = _backward
        return out
""",
    "no-chain": """\
class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = children
        self._backward = lambda: None

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other))

        def _backward():
            self.grad += 1.0
            other.grad += 1.0

        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data
            other.grad += self.data

        out._backward = _backward
        return out
""",
}

OPS_DESCRIPTOR = {
    "format": 1,
    "id": "ops",
    "learner_writes": ["Value"],
    "call": "grads_of(group, values, g)",
    "tolerance": {"digits": 9, "within": 1e-09, "relative_above": 1.0},
    "plugin": None,
    "groups": [
        {"name": "a*b", "leaves": ["a", "b"]},
        {"name": "a+a", "leaves": ["a"]},
        {"name": "a*b+a", "leaves": ["a", "b"]},
        {"name": "a+b", "leaves": ["a", "b"]},
        {"name": "a*a", "leaves": ["a"]},
    ],
    "mistakes": [
        {"key": "assign", "words": {"en": {"title": "assign", "says": "says assign", "hint": ""}}},
        {"key": "swapped", "words": {"en": {"title": "swapped", "says": "says swapped", "hint": ""}}},
        {"key": "no-chain", "words": {"en": {"title": "no-chain", "says": "says no-chain", "hint": ""}}},
    ],
}

OPS_CASES = [
    {"group": "a*b", "inputs": {"values": [3.0, -2.0], "g": 1.5}, "example": True},
    {"group": "a*b", "inputs": {"values": [0.8, -1.6], "g": -2.5}, "example": False},
    {"group": "a*b", "inputs": {"values": [-1.1, 0.35], "g": 0.75}, "example": False},
    {"group": "a+a", "inputs": {"values": [3.0], "g": 1.5}, "example": True},
    {"group": "a+a", "inputs": {"values": [-0.6], "g": -2.5}, "example": False},
    {"group": "a*b+a", "inputs": {"values": [1.2, -0.7], "g": 1.5}, "example": True},
    {"group": "a*b+a", "inputs": {"values": [-0.9, 2.2], "g": -2.5}, "example": False},
    {"group": "a+b", "inputs": {"values": [0.5, -1.25], "g": 2.5}, "example": False},
    {"group": "a+b", "inputs": {"values": [-1.5, 0.75], "g": -0.5}, "example": False},
    {"group": "a*a", "inputs": {"values": [0.7], "g": 2.5}, "example": False},
    {"group": "a*a", "inputs": {"values": [-1.3], "g": -0.5}, "example": False},
]

STEP_ENGINE = """\
import math


class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = children
        self._backward = lambda: None

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other))

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,))

        def _backward():
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out


def backward(out):
    \"\"\"Set out.grad to 1, then run every _backward in reverse topological order.\"\"\"
    order, seen, stack = [], set(), [(out, False)]
    while stack:
        v, expanded = stack.pop()
        if expanded:
            order.append(v)
        elif v not in seen:
            seen.add(v)
            stack.append((v, True))
            stack.extend((child, False) for child in v._prev)
    out.grad = 1.0
    for v in reversed(order):
        v._backward()


class Neuron:
    \"\"\"sum(w·x) + b, then tanh, unless the neuron is linear (the last layer's).\"\"\"

    def __init__(self, weights, bias, linear):
        self.w = [Value(w) for w in weights]
        self.b = Value(bias)
        self.linear = linear

    def __call__(self, x):
        act = self.b
        for wi, xi in zip(self.w, x):
            act = act + wi * xi
        return act if self.linear else act.tanh()

    def parameters(self):
        return self.w + [self.b]


class MLP:
    \"\"\"Layers of neurons, each layer's made from the numbers in weights, in order: for each neuron,
    its weights, then its bias. The last layer is linear.\"\"\"

    def __init__(self, nin, nouts, weights):
        numbers = iter(weights)
        sizes = [nin] + nouts
        self.layers = [
            [
                Neuron([next(numbers) for _ in range(sizes[i])], next(numbers), i == len(nouts) - 1)
                for _ in range(sizes[i + 1])
            ]
            for i in range(len(nouts))
        ]

    def __call__(self, x):
        x = [Value(xi) for xi in x]
        for layer in self.layers:
            x = [n(x) for n in layer]
        return x[0]

    def parameters(self):
        return [p for layer in self.layers for n in layer for p in n.parameters()]


def loss(model, xs, ys):
    \"\"\"The squared error of the model's outputs, summed over the points (xs[i], ys[i]).\"\"\"
    total = Value(0.0)
    for x, y in zip(xs, ys):
        d = model(x) + Value(-y)
        total = total + d * d
    return total


NETWORKS = {"1-2-1": (1, [2, 1]), "2-3-1": (2, [3, 1])}


def data_after_step(net, weights, earlier, xs, ys, lr):
    \"\"\"Make the network net from weights; run one backward on an earlier batch (its grads are what the
    model arrives with); then your step on (xs, ys); and give each parameter's data.\"\"\"
    nin, nouts = NETWORKS[net]
    model = MLP(nin, nouts, weights)
    backward(loss(model, earlier["xs"], earlier["ys"]))
    step(model, xs, ys, lr)
    return [round(p.data, 9) for p in model.parameters()]  # same digits in every language


def step(model, xs, ys, lr):
    # Yours to write, in the editor.
    raise NotImplementedError("step(model, xs, ys, lr) is the exercise")
"""

STEP_REFERENCE = """\
def step(model, xs, ys, lr):
    for p in model.parameters():
        p.grad = 0.0
    backward(loss(model, xs, ys))
    for p in model.parameters():
        p.data -= lr * p.grad
"""

STEP_STARTER = """\
def step(model, xs, ys, lr):
    # The model's parameters still hold the grads of an earlier batch.
    # Clear them, compute loss(model, xs, ys) and run backward on it,
    # then move each parameter's data against its gradient, by lr.
    pass
"""

STEP_MISTAKES = {
    "sign": """\
def step(model, xs, ys, lr):
    for p in model.parameters():
        p.grad = 0.0
    backward(loss(model, xs, ys))
    for p in model.parameters():
        p.data += lr * p.grad
""",
    "no-zero-grad": """\
def step(model, xs, ys, lr):
    backward(loss(model, xs, ys))
    for p in model.parameters():
        p.data -= lr * p.grad
""",
    "grad-not-data": """\
def step(model, xs, ys, lr):
    for p in model.parameters():
        p.grad = 0.0
    backward(loss(model, xs, ys))
    for p in model.parameters():
        p.grad -= lr * p.grad
""",
    "stale": """\
def step(model, xs, ys, lr):
    for p in model.parameters():
        p.data -= lr * p.grad
    for p in model.parameters():
        p.grad = 0.0
    backward(loss(model, xs, ys))
""",
}

STEP_DESCRIPTOR = {
    "format": 1,
    "id": "step",
    "learner_writes": ["step"],
    "call": "data_after_step(group, values, earlier, xs, ys, lr)",
    "tolerance": {"digits": 9, "within": 1e-09, "relative_above": 1.0},
    "plugin": None,
    "groups": [
        {"name": "1-2-1", "leaves": ["h1.w1", "h1.b", "h2.w1", "h2.b", "o.w1", "o.w2", "o.b"]},
        {
            "name": "2-3-1",
            "leaves": [
                "h1.w1",
                "h1.w2",
                "h1.b",
                "h2.w1",
                "h2.w2",
                "h2.b",
                "h3.w1",
                "h3.w2",
                "h3.b",
                "o.w1",
                "o.w2",
                "o.w3",
                "o.b",
            ],
        },
    ],
    "mistakes": [
        {"key": "sign", "words": {"en": {"title": "sign", "says": "says sign", "hint": ""}}},
        {
            "key": "no-zero-grad",
            "words": {"en": {"title": "no-zero-grad", "says": "says no-zero-grad", "hint": ""}},
        },
        {
            "key": "grad-not-data",
            "words": {"en": {"title": "grad-not-data", "says": "says grad-not-data", "hint": ""}},
        },
        {"key": "stale", "words": {"en": {"title": "stale", "says": "says stale", "hint": ""}}},
    ],
}

STEP_CASES = [
    {
        "group": "1-2-1",
        "inputs": {
            "values": [0.5, -0.3, -0.8, 0.2, 0.7, -0.4, 0.1],
            "earlier": {"xs": [[1.0]], "ys": [0.5]},
            "xs": [[-0.5], [1.5]],
            "ys": [0.3, -0.2],
            "lr": 0.1,
        },
        "example": True,
    },
    {
        "group": "1-2-1",
        "inputs": {
            "values": [-0.6, 0.4, 0.9, -0.1, -0.5, 0.8, 0.3],
            "earlier": {"xs": [[-1.2]], "ys": [-0.4]},
            "xs": [[0.7], [-1.1]],
            "ys": [0.6, 0.1],
            "lr": 0.05,
        },
        "example": False,
    },
    {
        "group": "1-2-1",
        "inputs": {
            "values": [0.35, 0.15, -0.45, -0.25, 0.6, 0.55, -0.2],
            "earlier": {"xs": [[0.4], [-0.9]], "ys": [0.2, 0.8]},
            "xs": [[1.3]],
            "ys": [-0.5],
            "lr": 0.2,
        },
        "example": False,
    },
    {
        "group": "2-3-1",
        "inputs": {
            "values": [0.4, -0.6, 0.1, -0.3, 0.8, -0.2, 0.7, 0.5, 0.3, -0.9, 0.6, 0.25, 0.05],
            "earlier": {"xs": [[1.0, -1.0]], "ys": [0.5]},
            "xs": [[0.5, 1.5], [-1.0, 0.2], [1.2, -0.7]],
            "ys": [1.0, -0.5, 0.3],
            "lr": 0.1,
        },
        "example": False,
    },
    {
        "group": "2-3-1",
        "inputs": {
            "values": [-0.2, 0.5, -0.4, 0.9, 0.1, 0.3, -0.7, -0.6, 0.2, 0.45, -0.35, 0.8, -0.1],
            "earlier": {"xs": [[-0.5, 0.8], [0.3, 0.3]], "ys": [0.0, 1.0]},
            "xs": [[1.1, -0.4], [-0.6, -1.3]],
            "ys": [-0.3, 0.7],
            "lr": 0.05,
        },
        "example": False,
    },
]
