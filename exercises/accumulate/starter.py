def zero_grad(params):
    # Set the grad of every parameter in params to 0.
    pass


def accumulate(params, batches):
    # The parameters arrive with the grads of an earlier batch. Clear them,
    # then run backward once on each batch's loss(params, batch["xs"], batch["ys"]):
    # the grads add up to those of all the batches' losses summed.
    pass
