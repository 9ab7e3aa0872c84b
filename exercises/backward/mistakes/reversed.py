def backward(out):
    topo = []
    seen = set()

    def visit(v):
        if v not in seen:
            seen.add(v)
            for child in v._prev:
                visit(child)
            topo.append(v)

    visit(out)
    out.grad = 1
    for v in topo:
        v._backward()
