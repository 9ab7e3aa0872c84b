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
