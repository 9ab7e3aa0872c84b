"""The comments of the code the page hands out, in the learner's language.

The starter (exercises/backward/starter.py), the scratch pad's starter and examples
(server/exercises/presets.py) and the solution (exercises/backward/reference.py) explain themselves
in comments, which a learner reads as text of the exercise. Each comment that says something in words (a run
of whole-line comments at one indentation, or the comment after a line's code) is a message of the catalogue:
`pybabel extract` finds them with extract() (babel.cfg), and said() gives the code with each in the page's
language, a run rewrapped to the width the English takes. The code itself (names, strings, numbers) stays
as written: it is Python, and the same code runs whatever the language. A comment without words
("# dc/da = 4.0") is not a message.
"""

import ast
import io
import re
import textwrap
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from babel.messages.extract import extract_python

WORDS = re.compile(r"[A-Za-z]{2,}[,:;]? [A-Za-z]{2,}")  # two words in a row: said, not a formula


@dataclass
class Comment:
    """A comment: its lines (1-based, inclusive), its column, its text, whether it follows code."""

    first: int
    last: int
    column: int
    text: str
    after_code: bool


def comments(code: str) -> list[Comment]:
    """The comments of code that say something in words, a run of whole-line comments as one."""
    found: list[Comment] = []
    lines = code.splitlines()
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    for token in (t for t in tokens if t.type == tokenize.COMMENT):
        row, column = token.start
        text = token.string[1:].strip()
        after_code = bool(lines[row - 1][:column].strip())
        last = found[-1] if found else None
        if last and not after_code and not last.after_code and last.last == row - 1 and last.column == column:
            last.last, last.text = row, f"{last.text} {text}"  # the run goes on
        else:
            found.append(Comment(row, row, column, text, after_code))
    return [c for c in found if WORDS.search(c.text)]


def said(code: str, gettext: Callable[[str], str]) -> str:
    """code with each comment said in the language of gettext (a comment it keeps as is stays as written)."""
    lines = code.splitlines()
    out: list[str] = []
    at = 0  # lines before this are in out
    for comment in comments(code):
        text = gettext(comment.text)
        out += lines[at : comment.first - 1]
        at = comment.last
        first = lines[comment.first - 1]
        if text == comment.text:
            out += lines[comment.first - 1 : comment.last]
        elif comment.after_code:
            out.append(f"{first[: comment.column]}# {text}")
        else:
            lead = first[: comment.column] + "# "
            width = max(len(line) for line in lines[comment.first - 1 : comment.last])
            out += textwrap.wrap(
                text,
                width=max(width, 72),
                initial_indent=lead,
                subsequent_indent=lead,
                break_long_words=False,
                break_on_hyphens=False,
            )
    out += lines[at:]
    return "\n".join(out) + ("\n" if code.endswith("\n") else "")


def extract(fileobj, keywords, comment_tags, options: dict) -> Iterator[tuple]:
    """Babel's extraction method for a module that hands out code (babel.cfg): its messages, as Babel's
    own Python extraction finds them, and the comments of the code it hands out.

    options: code = "file" (the file is the code: exercises/backward/starter.py and reference.py), "strings"
    (the code is in the module's multi-line strings: server/exercises/presets.py) or "function" (the code is
    the function named by name= in the module).
    """
    raw = fileobj.read()
    yield from extract_python(io.BytesIO(raw), keywords, comment_tags, options)
    source = raw.decode("utf-8")
    for offset, code in handed_out(source, options.get("code", "file"), options.get("name", "")):
        for comment in comments(code):
            yield offset + comment.first, None, comment.text, []


def handed_out(source: str, where: str, name: str = "") -> list[tuple[int, str]]:
    """The code a module hands out, each piece with the number of lines before it in the module."""
    if where == "file":
        return [(0, source)]
    tree = ast.parse(source)
    if where == "function":
        lines = source.splitlines(keepends=True)
        return [
            (node.lineno - 1, "".join(lines[node.lineno - 1 : node.end_lineno]))
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name == name
        ]
    return [
        (node.lineno, node.value)  # each starts with a backslash-newline: its first line is the next
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" in node.value
        if "#" in node.value
    ]
