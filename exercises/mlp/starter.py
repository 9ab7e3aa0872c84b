class Neuron(Module):
    def __init__(self, nin, nonlin=True):
        # nin weights and a bias, each a Value(random.uniform(-1, 1)).
        pass

    def __call__(self, x):
        # The weights times the inputs x, summed, plus the bias: through tanh when nonlin.
        pass

    def parameters(self):
        # The weights, then the bias.
        return []


class Layer(Module):
    def __init__(self, nin, nout, **kwargs):
        # nout neurons, each with nin inputs.
        pass

    def __call__(self, x):
        # Each neuron's output: a list, or the one Value when the layer has one neuron.
        pass

    def parameters(self):
        # Every neuron's parameters, neuron by neuron.
        return []


class MLP(Module):
    def __init__(self, nin, nouts):
        # One layer for each size in nouts, its inputs the layer before's outputs:
        # tanh neurons, but the last layer's are linear (nonlin=False).
        pass

    def __call__(self, x):
        # x through every layer in turn.
        pass

    def parameters(self):
        # Every layer's parameters, layer by layer.
        return []
