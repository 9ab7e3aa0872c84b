def train(model, xs, ys):
    L = loss(model, xs, ys)
    for _ in range(20):
        model.zero_grad()
        backward(L)
        for p in model.parameters():
            p.data -= 0.05 * p.grad
