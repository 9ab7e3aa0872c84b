# What Check computes on each case. Value is yours: the class in the editor.


def build(name, values):
    """Build the expression called name from a Value for each number in values: its leaves and out."""
    (a,) = [Value(v) for v in values]
    t = a.tanh()
    if name == "tanh(a)":
        return [a], t, [t]
    out = t + a
    return [a], out, [out, t]


def grads_of(name, values, g):
    """Set out.grad to g, run each _backward once (out first), and give each leaf's grad."""
    leaves, out, runs = build(name, values)
    out.grad = g
    for v in runs:
        v._backward()
    return [round(v.grad, 9) for v in leaves]
