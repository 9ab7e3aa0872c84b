"""Numbers and inputs as the report writes them, for what the server writes beside it.

The page's report writes a case's numbers with JavaScript's String(x) (static/js/shared/format.js's
`exact`) and its other inputs with JSON.stringify (static/js/page/report.js). The worked examples the
server writes in the statement (templates/index.html) say the same numbers, so they are written the same
way: 16, not Python's 16.0; [0.5,-0.3], not [0.5, -0.3]. tests/test_written.py runs both in Node.
"""

import json
import math
from decimal import Decimal

from flask import Flask


def number(x: float) -> str:
    """A number as JavaScript's String(x) writes it (ECMAScript's Number::toString): the shortest digits
    that read back as x, which Python's repr finds too, laid out by JavaScript's rules."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"  # -0 too
    if x < 0:
        return "-" + number(-x)
    _, digits, exponent = Decimal(repr(float(x))).normalize().as_tuple()
    s = "".join(map(str, digits))
    k, n = len(s), len(s) + exponent  # x = s × 10^(n - k)
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return f"{s[:n]}.{s[n:]}"
    if -6 < n <= 0:
        return "0." + "0" * -n + s
    e = n - 1
    return f"{s[0]}{'.' + s[1:] if k > 1 else ''}e{'+' if e >= 0 else '-'}{abs(e)}"


def exact(value: object) -> str:
    """A case's number as the report's tables write it ("—" for none)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return json.dumps(value)  # true, false: as JavaScript writes them
    if not isinstance(value, int | float):
        return str(value)
    return number(value)


def as_json(value: object) -> str:
    """A case's other input (nin, nouts, weights...) as JSON.stringify writes it in the report."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int | float):
        return number(value) if math.isfinite(value) else "null"
    if isinstance(value, list | tuple):
        return "[" + ",".join(map(as_json, value)) + "]"
    if isinstance(value, dict):
        return (
            "{"
            + ",".join(f"{json.dumps(str(k), ensure_ascii=False)}:{as_json(v)}" for k, v in value.items())
            + "}"
        )
    return json.dumps(value, ensure_ascii=False)


def init_app(app: Flask) -> None:
    """The templates' filters: {{ x|exact }}, {{ inputs|as_json }}."""
    app.jinja_env.filters.update(exact=exact, as_json=as_json)
