# What Check computes on each case. Value is yours: the class in the editor (its + and * are
# exercise 1's; tanh's _backward is yours to write). backward is the engine's own here: you write
# it yourself in a later exercise.


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
    if name == "neuron":  # the lecture's: tanh(x1·w1 + x2·w2 + b)
        x1, x2, w1, w2, b = leaves
        out = (x1 * w1 + x2 * w2 + b).tanh()
    elif name == "tanh(a)+a":  # a is used by tanh and by +: + passes a its share first
        (a,) = leaves
        out = a.tanh() + a
    elif name == "tanh(a)*b":  # tanh's out.grad is b, not 1
        a, b = leaves
        out = a.tanh() * b
    else:  # "tanh(tanh(a))": the inner tanh's out.grad is the outer one's local gradient
        (a,) = leaves
        out = a.tanh().tanh()
    return leaves, out


def grads_of(name, values):
    """Build the expression, run backward on its out, and give each leaf's grad."""
    leaves, out = build(name, values)
    backward(out)
    return [round(v.grad, 9) for v in leaves]  # same digits in every language
