# What Check computes on each case. Value and backward are the earlier exercises' (their right code);
# zero_grad and accumulate are yours: the functions in the editor.
import math
from contextlib import contextmanager


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

    def tanh(self):  # exercise 2
        t = math.tanh(self.data)
        out = Value(t, (self,))

        def _backward():
            self.grad += (1 - t * t) * out.grad  # from the output t, times out.grad

        out._backward = _backward
        return out

    def exp(self):  # exercise 3
        out = Value(math.exp(self.data), (self,))

        def _backward():
            self.grad += out.data * out.grad  # exp's local gradient is its output

        out._backward = _backward
        return out

    def __pow__(self, other):  # exercise 3: a number power only
        assert isinstance(other, (int, float)), "only a number power"
        out = Value(self.data**other, (self,))

        def _backward():
            self.grad += other * self.data ** (other - 1) * out.grad

        out._backward = _backward
        return out

    def __neg__(self):  # exercise 3: built from *
        return self * -1

    def __sub__(self, other):  # built from + and -
        return self + (-other)

    def __rsub__(self, other):  # other - self
        return other + (-self)

    def __truediv__(self, other):  # built from * and **
        return self * other**-1

    def __rtruediv__(self, other):  # other / self
        return other * self**-1

    def relu(self):  # exercise 4
        out = Value(self.data if self.data > 0 else 0.0, (self,))

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out


def backward(out):  # exercise 5
    """Set out.grad to 1, then run every _backward in reverse topological order."""
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


def neuron(params, x):
    """The lecture's neuron: tanh(w1·x1 + w2·x2 + b), with params = [w1, w2, b]."""
    w1, w2, b = params
    return (w1 * x[0] + w2 * x[1] + b).tanh()


def loss(params, xs, ys):
    """The squared error of the neuron's outputs, summed over the points (xs[i], ys[i]): a Value."""
    return sum((neuron(params, x) - y) ** 2 for x, y in zip(xs, ys))


def grads_after(part, weights, earlier, batches):
    """Make the parameters w1, w2, b from weights; run backward once on the earlier batch (its grads are
    what the parameters arrive with); then, for "zero_grad", your zero_grad and one backward on each
    batch, or, for "accumulate", your accumulate (the zero_grad it calls a right one); and give each
    parameter's grad."""
    params = [Value(w) for w in weights]
    backward(loss(params, earlier["xs"], earlier["ys"]))
    if part == "zero_grad":
        zero_grad(params)
        for batch in batches:
            backward(loss(params, batch["xs"], batch["ys"]))
    else:
        with right_zero_grad(accumulate):
            accumulate(params, batches)
    return [round(p.grad, 9) for p in params]  # same digits in every language


@contextmanager
def right_zero_grad(function):
    """While function runs, the zero_grad it calls is a right one (each part is graded on its own: a
    wrong zero_grad is said in zero_grad, not again in accumulate); yours again after."""
    names = getattr(function, "__globals__", {})
    yours = names.get("zero_grad")
    names["zero_grad"] = cleared
    try:
        yield
    finally:
        names["zero_grad"] = yours


def cleared(params):
    """A right zero_grad: every grad set to 0."""
    for p in params:
        p.grad = 0.0


def zero_grad(params):
    # Yours to write, in the editor.
    raise NotImplementedError("zero_grad(params) is the exercise")


def accumulate(params, batches):
    # Yours to write, in the editor.
    raise NotImplementedError("accumulate(params, batches) is the exercise")
