import math


class Value(BaseValue):  # BaseValue (in the engine) has +, * and tanh
    def exp(self):
        out = Value(math.exp(self.data), (self,))

        def _backward():
            # out = e^self: pass out.grad on to self, times exp's local gradient.
            pass

        out._backward = _backward
        return out

    def __pow__(self, other):
        # The power is a number (int or float), never a Value: a ** b with a Value b stops here.
        assert isinstance(other, (int, float)), "the power must be a number (int or float), not a Value"
        out = Value(self.data**other, (self,))

        def _backward():
            # out = self ** other: pass out.grad on to self, times the local gradient of x ** n.
            pass

        out._backward = _backward
        return out

    # Each of these is one line, built from +, * and **: no _backward of its own.
    def __neg__(self):  # -self
        raise NotImplementedError("-self: build it from *")

    def __sub__(self, other):  # self - other
        raise NotImplementedError("self - other: build it from + and -")

    def __rsub__(self, other):  # other - self, when other is a number (2 - a)
        raise NotImplementedError("other - self: build it from + and -")

    def __truediv__(self, other):  # self / other
        raise NotImplementedError("self / other: build it from * and **")

    def __rtruediv__(self, other):  # other / self, when other is a number (2 / a)
        raise NotImplementedError("other / self: build it from * and **")
