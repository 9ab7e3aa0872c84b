class Value(BaseValue):  # BaseValue (in the engine) has +, *, tanh, exp, **, - and /
    def relu(self):
        out = Value(self.data if self.data > 0 else 0.0, (self,))

        def _backward():
            # out = relu(self): pass out.grad on to self where self.data > 0, nothing where it is < 0.
            pass

        out._backward = _backward
        return out
