def step(model, xs, ys, lr):
    backward(loss(model, xs, ys))
    for p in model.parameters():
        p.data -= lr * p.grad
