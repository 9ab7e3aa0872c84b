def step(model, xs, ys, lr):
    for p in model.parameters():
        p.grad = 0.0
    backward(loss(model, xs, ys))
    for p in model.parameters():
        p.grad -= lr * p.grad
