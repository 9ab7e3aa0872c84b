def step(model, xs, ys, lr):
    # The model's parameters still hold the grads of an earlier batch.
    # Clear them, compute loss(model, xs, ys) and run backward on it,
    # then move each parameter's data against its gradient, by lr.
    pass
