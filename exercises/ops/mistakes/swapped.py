class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = children
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)  # a number becomes a Value
        out = Value(self.data + other.data, (self, other))

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)  # a number becomes a Value
        out = Value(self.data * other.data, (self, other))

        def _backward():
            self.grad += self.data * out.grad
            other.grad += other.data * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):  # other + self, where other is a number: 1 + v
        return self + other

    def __rmul__(self, other):  # other * self, where other is a number: 2 * v
        return self * other
