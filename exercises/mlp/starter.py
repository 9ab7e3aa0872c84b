class Neuron(Module):
    def __init__(self, nin, nonlin=True):
        # nin weights and a bias, each a Value(random.uniform(-1, 1)).
        self.nonlin = nonlin

    def __call__(self, x):
        # The weights times the inputs x, summed, plus the bias: through tanh when nonlin.
        return Value(0.0)

    def parameters(self):
        # The weights, then the bias: the same Values at every call.
        return []


class Layer(Module):
    def __init__(self, nin, nout, **kwargs):
        # nout neurons, each with nin inputs (kwargs: nonlin, passed on to each).
        self.neurons = []

    def __call__(self, x):
        # Each neuron's output: a list, or the one Value when the layer has one neuron.
        return Value(0.0)

    def parameters(self):
        # Every neuron's parameters, neuron by neuron.
        return []


class MLP(Module):
    def __init__(self, nin, nouts):
        # One layer for each size in nouts, its inputs the layer before's outputs:
        # tanh neurons, but the last layer's are linear (nonlin=False).
        self.layers = []

    def __call__(self, x):
        # x through every layer in turn.
        return Value(0.0)

    def parameters(self):
        # Every layer's parameters, layer by layer.
        return []
