"""The rule's tolerance at its edge: a case with a gradient of 1e7, and a backward a hair off on it."""

from tests.support import solutions

# A reuse case whose a.grad is 1e7, and a backward that leaves it 0.010000005 off: within the rule's
# relative 1e-9 (a hair more), outside the page's old rule of its own (1e-9 relative + 1e-12).
BIG = {
    "group": "reuse",
    "leaves": ["a", "b"],
    "inputs": {"values": [5e6, 0.0]},
    "expected": [1e7, 5e6],
    "example": False,
}
NUDGED = (
    solutions.CORRECT + "    for v in topo:\n        if v.grad == 1e7:\n            v.grad += 0.010000005\n"
)


def big_cases(cases: list[dict]) -> list[dict]:
    """The real cases with BIG among them, leaves named as the engine names them."""
    reuse = next(c for c in cases if c["group"] == "reuse")
    return [*cases, {**reuse, **BIG}]
