"""The class view's downloads: the activity's Checks (JSON Lines) and its learners (CSV), each file named
by the course and the activity it holds (a teacher of several keeps them apart)."""

import re
import unicodedata
from urllib.parse import quote

from flask import Response, g, stream_with_context

from server.classview.pages import scope, titles
from server.classview.views import bp
from server.db import database
from server.records import export

NAME_PART_CHARS = 40  # the most of a title a file name keeps (whole words)


def name_part(title: str, ascii_only: bool) -> str:
    """A title as part of a file name: letters and digits, lower case, words joined by "-"."""
    text = unicodedata.normalize("NFKD" if ascii_only else "NFC", title).lower()
    if ascii_only:
        text = text.encode("ascii", "ignore").decode()
    part = ""
    for word in re.findall(r"[^\W_]+", text):  # whole words, as many as fit
        if len(part) + 1 + len(word) > NAME_PART_CHARS:
            return part or word[:NAME_PART_CHARS]
        part = f"{part}-{word}" if part else word
    return part


def file_name(kind: str, ascii_only: bool = True) -> str:
    """The download's name: the course's and the activity's titles (their ids where the LMS sent none),
    then what it holds: machine-learning-101-backprop-checks.jsonl."""
    view, named = g.class_view, titles(g.class_view)
    course = named["course_title"] or view["course"]
    activity = named["activity_title"] or view["activity"]
    parts = [name_part(course, ascii_only), name_part(activity, ascii_only)]
    return "-".join([p for p in parts if p] + [kind])


def download(lines, kind: str, mimetype: str) -> Response:
    """A download of lines made while it is sent (never every row in memory), named for its activity:
    an ASCII name for any browser, and the titles as written (filename*, RFC 6266) for those that read it."""
    response = Response(stream_with_context(lines), mimetype=mimetype)
    plain, written = file_name(kind), file_name(kind, ascii_only=False)
    disposition = f'attachment; filename="{plain}"'
    if written != plain:
        disposition += f"; filename*=UTF-8''{quote(written, safe='')}"
    response.headers["Content-Disposition"] = disposition
    return response


@bp.get("/checks.jsonl")
def checks_jsonl() -> Response:
    """Every Check of the activity, one JSON object a line (docs/class-view.md names the fields)."""
    issuer, course, activity = scope()

    def lines():
        with database().connect() as conn:
            yield from export.jsonl(
                export.attempt_rows(conn, issuer=issuer, course=course, activity=activity)
            )

    return download(lines(), "checks.jsonl", "application/jsonl")


@bp.get("/learners.csv")
def learners_csv() -> Response:
    """The activity's learners, one a row."""
    issuer, course, activity = scope()

    def lines():
        with database().connect() as conn:
            yield from export.learners_csv(conn, issuer, course, activity)

    return download(lines(), "learners.csv", "text/csv; charset=utf-8")
