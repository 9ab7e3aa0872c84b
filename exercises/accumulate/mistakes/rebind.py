def zero_grad(params):
    for p in params:
        p = 0.0  # noqa: F841 - the mistake: the name p given a new value, no Value changed


def accumulate(params, batches):
    zero_grad(params)
    for batch in batches:
        backward(loss(params, batch["xs"], batch["ys"]))
