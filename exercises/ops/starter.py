class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._prev = children
        self._backward = lambda: None

    def __add__(self, other):
        # other may be a number (v + 1): make it a Value first.
        out = Value(self.data + other.data, (self, other))

        def _backward():
            # out = self + other: pass out.grad on to self and to other.
            pass

        out._backward = _backward
        return out

    def __mul__(self, other):
        # other may be a number (v * 2): make it a Value first.
        out = Value(self.data * other.data, (self, other))

        def _backward():
            # out = self * other: pass out.grad on to each, times its local gradient.
            pass

        out._backward = _backward
        return out

    def __radd__(self, other):
        # 1 + v: Python calls v.__radd__(1), as the number cannot add a Value. Write it with +.
        return NotImplemented  # until then, 1 + v is a TypeError

    def __rmul__(self, other):
        # 2 * v: Python calls v.__rmul__(2). Write it with *.
        return NotImplemented  # until then, 2 * v is a TypeError
