# What Check computes on each case. Value, backward and zero_grad are the earlier exercises' (their right
# code); Neuron, Layer and MLP are yours: the classes in the editor.
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


def zero_grad(params):  # exercise 6
    for p in params:
        p.grad = 0.0


class Module:
    """What micrograd's Neuron, Layer and MLP share: zero_grad, and parameters(), which each replaces."""

    def zero_grad(self):
        zero_grad(self.parameters())

    def parameters(self):
        return []


def built(nin, nouts):
    """MLP(nin, nouts), its random weights the same at every Check: the numbers below never depend on
    them when the parameters are right (every one is set, or only counted)."""
    random.seed(0)
    return MLP(nin, nouts)


def counted(part, sizes, nin):
    """For each layer of MLP(nin, sizes): for "count", how many parameters it adds to len(parameters());
    for "same", how many of them a second call of parameters(), after a call of the model, gives again as
    the same objects in the same places. A layer's are what MLP(nin, sizes up to it) has more than
    MLP(nin, sizes before it)."""
    found = [0]
    for k in range(1, len(sizes) + 1):
        model = built(nin, list(sizes[:k]))
        first = model.parameters()
        if part == "count":
            found.append(len(first))
        else:
            model([0.5] * nin)
            found.append(sum(a is b for a, b in zip(first, model.parameters())))
    return [b - a for a, b in zip(found, found[1:])]


def outputs(xs, nouts, weights):
    """MLP(1, nouts) with each parameter's data set from weights, in parameters()' order (each neuron's
    w, then its b, neuron by neuron, layer by layer); the model's output at each x in xs."""
    model = built(1, nouts)
    for p, w in zip(model.parameters(), weights):
        p.data = w
    return [round(model([x]).data, 9) for x in xs]  # same digits in every language


class Neuron(Module):
    """Yours to write, in the editor."""


class Layer(Module):
    """Yours to write, in the editor."""


class MLP(Module):
    """Yours to write, in the editor."""
