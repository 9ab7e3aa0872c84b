"""The seed's own kinds: of its diagnosis's lines and of the mistakes its diagnosis names.

The report (engine/report.py) takes any exercise's keys; these are the ones the seed's plugin says, and
server/contract/schema.py, the export and the class view list them.
"""

# Every kind of a diagnosis's line (diagnose.py finds them): out.grad not 1 when out passed on, a value
# passing its gradient on before it had all of it, a _backward run more than once or never, a grad
# changed directly, a recursion too deep.
FINDINGS = ("out-grad", "early", "repeated", "never", "direct", "recursion")
# Every kind of mistake, in the order diagnose.py tries them (the likeliest cause first): the code does
# nothing yet; out.grad not 1; the order not reversed; a grad set by hand; a _backward run twice; a value
# passing its gradient on early; a _backward that never ran; none of these, yet gradients wrong.
MISTAKES = ("nothing", "out-grad", "reversed", "direct", "repeated", "early", "never", "wrong")
