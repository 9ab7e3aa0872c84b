def train(model, xs, ys):
    # Repeat, for a number of steps you choose (30 at most):
    #   compute the loss of the model on the points, loss(model, xs, ys);
    #   clear the parameters' grads and run backward on the loss;
    #   move each parameter's data against its grad, by a learning rate you choose.
    pass
