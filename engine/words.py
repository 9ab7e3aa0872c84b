"""The learner's words in their language: the engine's side of the message catalogue.

The engine runs where Babel is not (Pyodide's worker, /verify's sandbox), so the messages of the page's
language come in as data: the same catalogue JSON the page gets (server/page/i18n.py makes it from the
compiled translations), handed to the grader with the cases. `_()` and `ngettext()` look a message up
in it; with no catalogue, or a message it lacks, the English msgid itself is said. `pybabel extract`
finds the calls (babel.cfg), so adding a message is writing the call and translating it in the .po.

Placeholders are `{name}`, filled from keyword arguments after the lookup, the same in JS
(static/js/shared/i18n.js). Python's own exception texts stay as Python says them.
"""

import re

ENGLISH_PLURAL = ["!=", ["n"], [1]]  # "(n != 1)", as server/page/plural.py's plural_tree parses it
ENGLISH = {
    "language": "en",
    "messages": {},
    "plural": ENGLISH_PLURAL,
    "numbers": {"decimal": ".", "group": ","},
}
# The catalogue in use: one dict, changed in place, never rebound (the grader's seal,
# engine/integrity.py, holds every name the engine's modules bind).
_now: dict = {"catalogue": ENGLISH}

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def use(catalogue: dict | None) -> None:
    """Speak the language of catalogue (server/page/i18n.py's shape); None: English."""
    _now["catalogue"] = catalogue or ENGLISH


def fill(message: str, params: dict) -> str:
    """Put each {name}'s value in message; a {name} with no value stays as written."""
    if not params:
        return message
    return PLACEHOLDER.sub(lambda m: str(params[m[1]]) if m[1] in params else m[0], message)


def _(message: str, **params: object) -> str:
    """Say message in the learner's language, its {placeholders} filled."""
    said = _now["catalogue"]["messages"].get(message)
    return fill(said if isinstance(said, str) and said else message, params)


def ngettext(singular: str, plural: str, n: int, **params: object) -> str:
    """Say the form of a message that fits the count n ({n} is filled with n as the locale writes it)."""
    forms = _now["catalogue"]["messages"].get(singular)
    if isinstance(forms, list) and forms:
        index = plural_index(_now["catalogue"].get("plural") or ENGLISH_PLURAL, n)
        said = forms[index] if 0 <= index < len(forms) and forms[index] else forms[0]
    else:
        said = singular if n == 1 else plural
    return fill(said, {"n": number(n), **params})


def N_(message: str) -> str:  # noqa: N802 - gettext's name for a message marked, translated where it is shown
    """Mark a message for the catalogue without translating it here (it is translated where it is shown)."""
    return message


def language() -> str:
    """The learner's language, as its code ("en", "de")."""
    return _now["catalogue"].get("language", "en")


def number(x: float | int, spec: str = ",") -> str:
    """Write a number with the locale's decimal sign and grouping: number(1234) is "1.234" in German."""
    written = format(x, spec)
    symbols = _now["catalogue"].get("numbers") or ENGLISH["numbers"]
    return written.translate(str.maketrans({",": symbols["group"], ".": symbols["decimal"]}))


# A catalogue's Plural-Forms rule comes as a tree (server/page/plural.py parses it, on the server: the page
# and the engine only evaluate it, plural_index here, pluralIndex in static/js/shared/i18n.js).
# C's binary operators on integers (division and modulo by zero give 0, not an error).
OPERATORS = {
    "||": lambda a, b: int(bool(a) or bool(b)),
    "&&": lambda a, b: int(bool(a) and bool(b)),
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b),
    ">": lambda a, b: int(a > b),
    "<=": lambda a, b: int(a <= b),
    ">=": lambda a, b: int(a >= b),
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else 0,
    "%": lambda a, b: a % b if b else 0,
}


def plural_index(tree: list, n: int) -> int:
    """The index of the plural form that fits the count n, by a rule server/page/plural.py parsed."""
    n = abs(int(n))

    def value(node: list) -> int:
        head = node[0]
        if head == "n":
            return n
        if head == "!":
            return int(not value(node[1]))
        if head == "?":
            return value(node[2] if value(node[1]) else node[3])
        if head in OPERATORS:
            return OPERATORS[head](value(node[1]), value(node[2]))
        return int(head)

    return int(value(tree))


use(None)
