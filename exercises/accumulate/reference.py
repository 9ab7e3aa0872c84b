def zero_grad(params):
    for p in params:
        p.grad = 0.0


def accumulate(params, batches):
    zero_grad(params)
    for batch in batches:
        backward(loss(params, batch["xs"], batch["ys"]))
