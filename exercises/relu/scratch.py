# Try the engine with your own code: Run prints, and draw(v) draws the graph that ends at v.
a = Value(-1.5)
b = Value(2.0)
c = a.relu() * b + b.relu()
backward(c)
print(c.data, a.grad, b.grad)
draw(c)
