"""The messages the page sends to a course page that embeds it, version 1, as README documents them."""

from engine.cases import EXTRAS, SEED
from engine.report import KINDS

PREFIX = "backprop-playground:"
EXPRESSIONS = SEED + EXTRAS  # those the page grades
ERROR_KINDS = tuple(KINDS)
FIELDS = {  # beside type and version
    "ready": {"exercise"},
    "checked": {"passed", "attempt", "expressions", "error", "hintsShown", "order", "verified", "receipt"},
    "resize": {"height"},
}


def is_count(value, least: int = 0) -> bool:
    return type(value) is int and value >= least  # not a bool, not a float


def assert_message(message: dict) -> None:
    """Fail unless message is one of the three documented messages, with exactly their fields."""
    kind = message.get("type", "").removeprefix(PREFIX)
    fields = FIELDS.get(kind)
    assert fields is not None, f"not a message of ours: {message}"
    assert set(message) == {"type", "version"} | fields, message
    assert message["version"] == 1
    if kind == "ready":
        assert message["exercise"] == "backward"
    elif kind == "resize":
        assert is_count(message["height"], 1), message
    else:
        assert type(message["passed"]) is bool
        assert is_count(message["attempt"], 1) and is_count(message["hintsShown"])
        assert message["error"] is None or message["error"] in ERROR_KINDS
        assert message["order"] in (None, "right", "wrong", "error")
        assert message["verified"] in (None, True, False)  # None: verification off, not a pass, or no answer
        assert message["receipt"] is None or message["receipt"].count(".") == 2  # a compact JWT
        for expr in message["expressions"]:
            assert set(expr) == {"name", "passed", "extra"}, expr
            assert expr["name"] in EXPRESSIONS and type(expr["passed"]) is type(expr["extra"]) is bool
