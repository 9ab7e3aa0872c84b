def zero_grad(params):
    for p in params:
        p.grad = 0.0


def accumulate(params, batches):
    for batch in batches:
        zero_grad(params)
        backward(loss(params, batch["xs"], batch["ys"]))
