# What Check computes on each case. Value is yours: the class in the editor.


def build(name, values):
    """Build the expression called name from a Value for each number in values.

    Returns its leaves and the values whose _backward runs, out first.
    """
    leaves = [Value(v) for v in values]
    if name == "a+b":
        a, b = leaves
        out = a + b
        runs = [out]
    elif name == "a*b":
        a, b = leaves
        out = a * b
        runs = [out]
    elif name == "a+a":
        (a,) = leaves
        out = a + a
        runs = [out]
    elif name == "a*a":
        (a,) = leaves
        out = a * a
        runs = [out]
    elif name == "a*b+a":  # a is used twice, by two operations
        a, b = leaves
        p = a * b
        out = p + a
        runs = [out, p]
    elif name == "2*a":  # a number times a Value: Python calls a.__rmul__(2)
        (a,) = leaves
        out = 2 * a
        runs = [out]
    elif name == "a+1":  # a Value plus a number: a.__add__(1)
        (a,) = leaves
        out = a + 1
        runs = [out]
    elif name == "1+a":  # a number plus a Value: a.__radd__(1)
        (a,) = leaves
        out = 1 + a
        runs = [out]
    else:  # "3*a*a": (3 * a) * a, a used twice
        (a,) = leaves
        p = 3 * a
        out = p * a
        runs = [out, p]
    return leaves, runs


def grads_of(name, values, g):
    """Set out.grad to g, run each _backward once (out first), and give each leaf's grad."""
    leaves, runs = build(name, values)
    runs[0].grad = g
    for v in runs:
        v._backward()
    return [round(v.grad, 9) for v in leaves]  # same digits in every language
