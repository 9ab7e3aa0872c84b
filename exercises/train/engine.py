# What Check computes on each case. train is yours: the function in the editor. Value, backward, the
# network and the loss are what the exercises before this one built.
import math
import random


class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = children
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)  # a number becomes a constant leaf
        out = Value(self.data + other.data, (self, other))

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):  # other + self, when other is a number: + does not care about the order
        return self + other

    def __rmul__(self, other):  # other * self, when other is a number
        return self * other

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,))

        def _backward():
            self.grad += (1 - t * t) * out.grad  # from the output t, times out.grad

        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,))

        def _backward():
            self.grad += out.data * out.grad  # exp's local gradient is its output

        out._backward = _backward
        return out

    def __pow__(self, other):  # a number power only
        assert isinstance(other, (int, float)), "only a number power"
        out = Value(self.data**other, (self,))

        def _backward():
            self.grad += other * self.data ** (other - 1) * out.grad

        out._backward = _backward
        return out

    def __neg__(self):  # built from *
        return self * -1

    def __sub__(self, other):  # built from + and -
        return self + (-other)

    def __rsub__(self, other):  # other - self
        return other + (-self)

    def __truediv__(self, other):  # built from * and **
        return self * other**-1

    def __rtruediv__(self, other):  # other / self
        return other * self**-1

    def relu(self):
        out = Value(self.data if self.data > 0 else 0.0, (self,))

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out


def backward(out):
    """Set out.grad to 1, then run every _backward in reverse topological order.

    While Check trains a network, it also tells Check's watch (below) what it sees."""
    if watch is not None:
        watch.backward_called(out)
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
    if watch is not None:
        watch.backward_done()


class Neuron:
    """tanh(w·x + b), or w·x + b when it is linear (the last layer's)."""

    def __init__(self, nin, linear=False):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))
        self.linear = linear

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act if self.linear else act.tanh()

    def parameters(self):
        return self.w + [self.b]


class Layer:
    def __init__(self, nin, nout, linear=False):
        self.neurons = [Neuron(nin, linear) for _ in range(nout)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]


class MLP:
    """Layers of neurons: nin inputs, then a layer of each size in nouts. The last layer is linear."""

    def __init__(self, nin, nouts):
        sizes = [nin] + nouts
        self.layers = [Layer(sizes[i], sizes[i + 1], i == len(nouts) - 1) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0.0


def loss(model, xs, ys):
    """The squared error of the model's outputs, summed over the points (xs[i], ys[i]): a Value."""
    return sum(((model(x) - y) ** 2 for x, y in zip(xs, ys)), Value(0.0))


# What Check measures while your train runs: the rules a training loop keeps, as numbers a right loop
# gives whatever its learning rate and number of steps.
LOSS_BELOW = 0.05  # the final loss must be under this
MAX_STEPS = 30  # backward may be called this many times at most
NETWORKS = {"lecture": (3, [4, 4, 1]), "plane": (2, [3, 1])}  # inputs per point, layer sizes


class TooManySteps(Exception):
    """backward called more than MAX_STEPS times: the training is stopped there."""


class Watch:
    """What backward sees of the model's parameters during one training."""

    def __init__(self, parameters):
        self.parameters = parameters
        self.calls = 0
        self.cleared = True  # every parameter's grad was 0 at each call of backward
        self.new_loss = True  # backward was never called twice on the same loss
        self.moved = False  # some update changed some parameter's data
        self.against = True  # every update that changed the data went against the grads
        self.left = None  # each parameter's (data, grad) as the last backward left them
        self.done = []  # the losses backward was called on

    def backward_called(self, out):
        self.calls += 1
        if self.calls > MAX_STEPS:
            raise TooManySteps(f"backward called more than {MAX_STEPS} times")
        self.updated()
        if any(p.grad != 0 for p in self.parameters):
            self.cleared = False
        if any(out is done for done in self.done):
            self.new_loss = False
        self.done.append(out)

    def backward_done(self):
        self.left = [(p.data, p.grad) for p in self.parameters]

    def updated(self):
        """Read the update made since the last backward, if any: did the data move, and which way?"""
        if self.left is None:
            return
        change = [p.data - data for p, (data, _) in zip(self.parameters, self.left)]
        if any(change):
            self.moved = True
            if sum(d * grad for d, (_, grad) in zip(change, self.left)) >= 0:
                self.against = False
        self.left = None


watch = None


def trained(group, xs, ys, seed):
    """Make the network of group with weights from random.seed(seed); call your train(model, xs, ys);
    and give what Check measured, 1 for yes and 0 for no (a loss that is not a number is not under):
    [final loss < LOSS_BELOW, final loss < first loss, grads 0 at each backward,
     a new loss at each backward, data moved, against the grad, at most MAX_STEPS steps]."""
    global watch
    nin, nouts = NETWORKS[group]
    random.seed(seed)
    model = MLP(nin, nouts)
    first = loss(model, xs, ys).data
    watch = Watch(model.parameters())
    within_steps = True
    try:
        train(model, xs, ys)
    except TooManySteps:  # stopped at the limit: what it reached is measured
        within_steps = False
    except OverflowError:  # a number grew past what a float holds: the loss blew up, and is measured so
        pass
    finally:
        measured, watch = watch, None
    measured.updated()
    try:
        final = loss(model, xs, ys).data
    except OverflowError:
        final = math.inf
    flags = [
        final < LOSS_BELOW,
        final < first,
        measured.cleared,
        measured.new_loss,
        measured.moved,
        measured.against,
        within_steps,
    ]
    return [1.0 if flag else 0.0 for flag in flags]


def train(model, xs, ys):
    # Yours to write, in the editor.
    raise NotImplementedError("train(model, xs, ys) is the exercise")
