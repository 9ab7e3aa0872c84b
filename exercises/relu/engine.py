# The engine of this exercise. BaseValue is what the exercises before it built (+ and *, numbers
# as constants, tanh, exp, ** and - and / built from them); your Value, in the editor, adds relu.
import math


class BaseValue:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = children
        self._backward = lambda: None

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

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

    def __radd__(self, other):  # other + self, when other is a number
        return self + other

    def __rmul__(self, other):  # other * self, when other is a number
        return self * other

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,))

        def _backward():
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,))

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "the power must be a number (int or float), not a Value"
        out = Value(self.data**other, (self,))

        def _backward():
            self.grad += other * self.data ** (other - 1) * out.grad

        out._backward = _backward
        return out

    def __neg__(self):  # -self
        return self * -1

    def __sub__(self, other):  # self - other
        return self + (-other)

    def __rsub__(self, other):  # other - self, when other is a number
        return other + (-self)

    def __truediv__(self, other):  # self / other
        return self * other**-1

    def __rtruediv__(self, other):  # other / self, when other is a number
        return other * self**-1


class Value(BaseValue):
    # Yours to write, in the editor: relu's _backward.
    pass


def backward(out):
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


def build(name, values):
    """Build the expression called name from a Value for each number in values: its leaves and out."""
    leaves = [Value(v) for v in values]
    if name == "relu(a)":
        (a,) = leaves
        out = a.relu()
    elif name == "relu(a)*b":
        a, b = leaves
        out = a.relu() * b
    else:  # "relu(a)+a": a is used twice, by relu and by +
        (a,) = leaves
        out = a.relu() + a
    return leaves, out


def grads_of(name, values, g):
    """Run backward on g·out (so out.grad is g, not 1) and give each leaf's grad."""
    leaves, out = build(name, values)
    backward(g * out)
    return [round(v.grad, 9) for v in leaves]  # same digits in every language
