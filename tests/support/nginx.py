"""Read back the nginx configuration an export writes (server/export/nginx.py): the headers it sends for a
URL.

It follows nginx's rules for what the file uses: `map $uri $var { ~regex value; default value; }`
(the first regex that matches, in order, else the default), and `add_header Name value always;` in
the location, a `$var` replaced by its map's value and an empty value sending no header. It refuses
any other directive, so the file cannot grow what this reader does not understand.
"""

import re

KNOWN = {"map", "location", "alias", "index", "gzip_static", "add_header", "return"}
TOKEN = re.compile(r'\s+|#[^\n]*|"((?:[^"\\]|\\.)*)"|([;{}])|([^\s;{}"#]+)')


def statements(conf: str) -> list[tuple[list[str], str]]:
    """Each statement's words (quoted strings unquoted) and how it ends: ";", "{" or "}"."""
    out, current, at = [], [], 0
    while at < len(conf):
        match = TOKEN.match(conf, at)
        assert match, f"cannot read nginx.conf at: {conf[at : at + 40]!r}"
        at = match.end()
        quoted, end, word = match.groups()
        if quoted is not None:
            current.append(re.sub(r"\\(.)", r"\1", quoted))
        elif word is not None:
            current.append(word)
        elif end is not None:
            out.append((current, end))
            current = []
    assert not current, f"an unfinished statement: {current}"
    return out


def read(conf: str) -> dict:
    """The maps, the location, its folder, its headers (name -> value, $var or text), exact locations."""
    maps, headers, exact = {}, {}, {}
    location = folder = None
    stack: list[str] = []
    for words, end in statements(conf):
        if end == "}":
            stack.pop()
            continue
        head = words[0]
        assert head in KNOWN or (stack and stack[-1].startswith("map")), f"not known here: {words}"
        if end == "{":
            stack.append(" ".join(words))
            if head == "map":
                assert words[1] == "$uri", words
                maps[words[2]] = []
            elif head == "location" and words[1] == "=":
                exact[words[2]] = None
            elif head == "location":
                location = words[1]
        elif stack and stack[-1].startswith("map"):
            maps[stack[-1].split()[2]].append((words[0], words[1] if len(words) > 1 else ""))
        elif stack and stack[-1].startswith("location ="):
            exact[stack[-1].split()[2]] = words
        elif head == "alias":
            folder = words[1]
        elif head == "add_header":
            assert words[-1] == "always" and len(words) == 4, words
            headers[words[1]] = words[2]
    assert not stack, stack
    return {"maps": maps, "location": location, "folder": folder, "headers": headers, "exact": exact}


def lookup(entries: list[tuple[str, str]], uri: str) -> str:
    """A map's value for uri: the first regex (~) that matches, else the default."""
    for pattern, value in entries:
        if pattern != "default" and re.search(pattern.removeprefix("~"), uri):
            return value
    return dict(entries).get("default", "")


def headers_for(conf: str, uri: str) -> dict[str, str]:
    """The headers nginx sends with this configuration for uri (a path under its location)."""
    parsed = read(conf)
    sent = {}
    for name, value in parsed["headers"].items():
        if value.startswith("$"):
            value = lookup(parsed["maps"][value], uri)
        if value:
            sent[name] = value
    return sent
