"""JSON read with the line of each value, so a complaint about a field names path:line.

json.loads gives the data (and, for text that is no JSON, its line and column); lines() scans the same
text again and gives the line each value starts on, by its JSON Pointer ("" for the whole document,
"/cases/3/group" for a case's group).
"""

import json
import re
from bisect import bisect_right
from functools import lru_cache
from json.decoder import scanstring

SPACE = re.compile(r"[ \t\n\r]*")
LITERAL = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")


def pointer(path) -> str:
    """A JSON Pointer from a path of keys and indexes (jsonschema's error.absolute_path)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def lines(text: str) -> dict[str, int]:
    """The line (from 1) each value of a valid JSON text starts on, by its pointer."""
    return dict(lines_of(text))


@lru_cache(maxsize=256)  # every app made in one process (the tests make hundreds) reads the same files
def lines_of(text: str) -> dict[str, int]:
    """lines(text), found once per text (not to be changed: lines() hands out copies)."""
    breaks = [i for i, c in enumerate(text) if c == "\n"]
    found: dict[str, int] = {}

    def skip(i: int) -> int:
        return SPACE.match(text, i).end()

    def value(i: int, where: str) -> int:
        i = skip(i)
        found[where] = bisect_right(breaks, i - 1) + 1
        if text[i] == "{":
            i = skip(i + 1)
            while text[i] != "}":
                key, i = scanstring(text, i + 1)
                i = skip(skip(i) + 1)  # past the colon
                i = skip(value(i, where + pointer([key])))
                i = skip(i + 1) if text[i] == "," else i
            return i + 1
        if text[i] == "[":
            i, n = skip(i + 1), 0
            while text[i] != "]":
                i = skip(value(i, where + pointer([n])))
                i, n = (skip(i + 1) if text[i] == "," else i), n + 1
            return i + 1
        if text[i] == '"':
            return scanstring(text, i + 1)[1]
        return LITERAL.match(text, i).end()

    value(0, "")
    return found


def line_of(found: dict[str, int], path) -> int:
    """The line of the value at path, else of the nearest value that holds it."""
    parts = list(path)
    while parts and pointer(parts) not in found:
        parts.pop()
    return found.get(pointer(parts), 1)


def read(text: str) -> tuple[object, dict[str, int]]:
    """The data of a JSON text and its values' lines; json.JSONDecodeError (lineno, colno) if it is none."""
    data = json.loads(text)
    return data, lines(text)
