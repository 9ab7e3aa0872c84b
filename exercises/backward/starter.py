def backward(out):
    # Set out.grad to 1, then call _backward() on every value,
    # starting from out and working back towards the leaves.
    pass
