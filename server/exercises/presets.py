"""The scratch pad's starting code and its examples: the experiments micrograd's learners ask about.

Each runs the learner's own backward (the scratch pad's "Run my backward first" is on by default), so
what it prints and draws is what their code does; a right backward gives the numbers in the comments.
"""

from engine.words import N_  # the titles are translated where the page shows them

STARTER = """\
# Try your backward on Values of your own: Run prints, and draw(v) draws the graph that ends at v.
a = Value(2.0)
b = Value(-3.0)
c = a * b + a
backward(c)
print("a.grad =", a.grad, " b.grad =", b.grad)  # a.grad = b + 1 = -2.0, b.grad = a = 2.0
draw(c)
"""

PRESETS = [
    {
        "id": "reused",
        "title": N_("A value used twice (b = a + a, c = b + b)"),
        "code": """\
# b is not a leaf, and c uses it twice: b must collect both shares before it passes them on.
a = Value(1.0)
b = a + a
c = b + b
backward(c)
print("a.grad =", a.grad)  # dc/da = 4.0
draw(c)
""",
    },
    {
        "id": "square",
        "title": N_("x * x"),
        "code": """\
# One value as both inputs of *: its _backward adds to x.grad twice.
x = Value(3.0)
y = x * x
backward(y)
print("x.grad =", x.grad)  # dy/dx = 2x = 6.0
draw(y)
""",
    },
    {
        "id": "twice",
        "title": N_("backward called twice"),
        "code": """\
# Each _backward adds (+=) to the grads: a second backward adds the same again.
x = Value(2.0)
w = Value(-0.5)
y = x * w
backward(y)
print("after one backward: x.grad =", x.grad)  # -0.5
backward(y)
print("after two:          x.grad =", x.grad)  # -1.0: set the grads to 0 before a new pass
draw(y)
""",
    },
    {
        "id": "before-after",
        "title": N_("draw before and after backward"),
        "code": """\
# draw() shows the graph as it is when called: every grad 0 before backward, set after.
a = Value(2.0)
b = Value(-3.0)
c = a * b + a
draw(c)
backward(c)
draw(c)
""",
    },
    {
        "id": "deep",
        "title": N_("A deep chain (1,000 values)"),
        "code": """\
# 1,000 values deep: a recursive search needs a Python frame per value, past the recursion limit.
x = Value(0.5)
w = Value(1.01)
out = x
for _ in range(500):
    out = (out * w).tanh()
backward(out)
print("x.grad =", x.grad)
draw(out)  # too big to draw: the page says how big
""",
    },
]
