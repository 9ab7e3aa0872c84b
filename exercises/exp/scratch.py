# Try the engine with your own code: Run prints, and draw(v) draws the graph that ends at v.
a = Value(0.6)
e = (2 * a).exp()
t = (e - 1) / (e + 1)  # tanh(a), rebuilt from exp
backward(t)
print(t.data, a.grad)
print(a.tanh().data, 1 - a.tanh().data ** 2)  # the primitive tanh, and its local gradient
draw(t)
