"""Bounded input: the most each route reads of a request's body, and text every parser and the
database can keep.

Every request meets bound_body() first (a before_request, by endpoint): its route's limit from
BODY_LIMITS, or DEFAULT_BODY for any route not named there (every GET, a 404, a route added later).
A body that says it is longer is refused with a 413 before anything reads it; one sent without a
length (chunked) is read up to the limit, and refused if it reaches it. One table rather than a limit
set in each view (Flask's request.max_content_length) or one for the whole app (MAX_CONTENT_LENGTH,
which would be /verify's 600 kB everywhere): a route nobody thought of still gets a few kB, and the
limits are read in one place. The 413 is said in the route's own way: /verify's and the LTI pages'
blueprints answer it themselves, every other route in JSON (too_large, below).

JSON bodies are read by json_body(): text with a lone surrogate or a NUL character (no UTF-8 encoder,
SQLite's or PostgreSQL's text takes them) and JSON nested deeper than MAX_DEPTH are a 400 in JSON
(OddInput), before any view, token check or database sees them.
"""

import json
from collections.abc import Iterator

from flask import Flask, Response, jsonify, request
from flask_babel import gettext
from werkzeug.exceptions import RequestEntityTooLarge

from engine.errors import MAX_SOURCE

KB = 1024
DEFAULT_BODY = 4 * KB  # bytes: a route that takes no body (a GET), or a few fields
BODY_LIMITS = {
    "verify.verify": MAX_SOURCE * 6 + 4 * KB,  # the longest code, JSON-escaped (six bytes a character)
    "records.record": MAX_SOURCE * 6 + 4 * KB,  # the same code, recorded (server/records/)
    "lti.login": 16 * KB,  # an LMS's login: six parameters of at most 2,048 characters (views.MAX_PARAM)
    "lti.launch": 64 * KB,  # an LMS's id_token (a signed JWT; custom claims make some several kB) and state
    "lti.deep_link_chosen": 64 * KB,  # the teacher's choice and the offer token (the LMS's settings in it)
    "lti_grades.retry": 4 * KB,  # a launch token and a flag
}
MAX_DEPTH = 8  # levels of JSON nesting in a body: the page's are flat objects


def body_limit(endpoint: str | None) -> int:
    """The most a request to endpoint may send, in bytes."""
    return BODY_LIMITS.get(endpoint or "", DEFAULT_BODY)


def bound_body() -> None:
    """Give the request its route's body limit; refuse a body that says it is longer (a 413)."""
    limit = body_limit(request.endpoint)
    request.max_content_length = limit
    if (request.content_length or 0) > limit:
        raise RequestEntityTooLarge()
    if request.content_length is None and "chunked" in request.headers.get("Transfer-Encoding", "").lower():
        # Sent without a length: read now, up to the limit (Werkzeug hands back a body cut at the limit
        # without a word); one that reaches it is refused, one within it is kept for the view.
        if len(request.get_data(cache=True)) >= limit:
            raise RequestEntityTooLarge()


def keepable(text: str) -> bool:
    """Whether text is text a parser and the database keep: no lone surrogate (it has no UTF-8), no NUL."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return "\x00" not in text


def parts(value: object) -> Iterator[tuple[object, int]]:
    """Every value inside a JSON value, its keys too, each with the number of arrays and objects it lies
    in (the value itself: 0)."""
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        yield item, level
        if isinstance(item, dict):
            stack.extend((key, level + 1) for key in item)
            stack.extend((member, level + 1) for member in item.values())
        elif isinstance(item, list):
            stack.extend((member, level + 1) for member in item)


def unkeepable(value: object) -> bool:
    """Whether a JSON value holds, anywhere (its keys too), text that is not keepable."""
    return any(isinstance(item, str) and not keepable(item) for item, _ in parts(value))


class OddInput(Exception):
    """A request's body is JSON no view takes (too deep, or text that cannot be kept): a 400 in JSON."""


def json_body() -> object:
    """The request's JSON body (None when it is not JSON), or OddInput when it nests too deep or holds
    text that cannot be kept."""
    if not request.is_json:
        return None
    try:
        value = json.loads(request.get_data(cache=True))
    except RecursionError:  # nested deeper than Python's parser goes
        raise OddInput(gettext("The request's JSON is nested too deep.")) from None
    except ValueError:  # not JSON, or not UTF-8
        return None
    deepest, odd_text = 0, False  # one walk: how deep it nests ([] or {}: 1), and any text not keepable
    for item, level in parts(value):
        if isinstance(item, dict | list):
            deepest = max(deepest, level + 1)
        elif isinstance(item, str) and not keepable(item):
            odd_text = True
    if deepest > MAX_DEPTH:
        raise OddInput(gettext("The request's JSON is nested too deep."))
    if odd_text:
        raise OddInput(
            gettext("The request holds a character that is not text (a lone surrogate or a NUL); remove it.")
        )
    return value


def odd(exc: OddInput) -> tuple[Response, int]:
    """The 400 for an odd JSON body: what was odd, in the page's language."""
    return jsonify(error=str(exc)), 400


def too_large(_: RequestEntityTooLarge) -> tuple[Response, int]:
    """The 413 for a body over its route's limit, to a script's author (the page sends none)."""
    limit = body_limit(request.endpoint)
    return jsonify(error=f"The request's body is over this address's limit of {limit:,} bytes."), 413


def init_app(app: Flask) -> None:
    """Bound every request's body; answer an odd JSON body and a body over the limit in JSON."""
    app.before_request(bound_body)
    app.register_error_handler(OddInput, odd)
    app.register_error_handler(RequestEntityTooLarge, too_large)
