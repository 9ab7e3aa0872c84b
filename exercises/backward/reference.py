def backward(out) -> None:
    """Set out.grad to 1, then call every _backward in reverse topological order."""
    order, seen = [], set()
    stack = [(out, False)]
    while stack:  # iterative depth-first search: deep graphs do not hit the recursion limit
        v, expanded = stack.pop()
        if expanded:
            order.append(v)
        elif id(v) not in seen:
            seen.add(id(v))
            stack.append((v, True))
            stack.extend((child, False) for child in v._prev)
    out.grad = 1.0
    for v in reversed(order):
        v._backward()
