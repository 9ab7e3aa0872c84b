def step(model, xs, ys, lr):
    for p in model.parameters():
        p.data -= lr * p.grad
    for p in model.parameters():
        p.grad = 0.0
    backward(loss(model, xs, ys))
