"""A catalogue's Plural-Forms rule, parsed on the server into the tree the page and the engine evaluate.

A C plural expression ("(n != 1)", "(n==1 ? 0 : n%10>=2 && ... ? 1 : 2)") is parsed, never evaluated
as code. The tree is JSON, in the catalogue the page and the engine get (server/page/i18n.py): each evaluates
it (engine/words.py's plural_index, static/js/shared/i18n.js's pluralIndex), and this is the one parser,
which neither the browser nor the sandbox needs.
"""

import re

TOKEN = re.compile(r"\s*(\d+|n|\|\||&&|==|!=|<=|>=|[<>%?:()!+\-*/])")
BINARY = (("||",), ("&&",), ("==", "!="), ("<", ">", "<=", ">="), ("+", "-"), ("*", "/", "%"))


def plural_tree(expression: str) -> list:
    """Parse a C plural expression ("nplurals=2; plural=(n != 1);" or just the expression) into a tree:
    ["n"], [number], ["!", x], [operator, left, right] or ["?", condition, then, otherwise]."""
    if "plural=" in expression:
        expression = expression.split("plural=", 1)[1].split(";", 1)[0]
    tokens, at = [], 0
    while at < len(expression.rstrip()):
        m = TOKEN.match(expression, at)
        if not m:
            raise ValueError(f"not a plural expression: {expression!r}")
        tokens.append(m[1])
        at = m.end()
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take(want: str | None = None) -> str:
        nonlocal pos
        tok = peek()
        if tok is None or (want is not None and tok != want):
            raise ValueError(f"not a plural expression: {expression!r}")
        pos += 1
        return tok

    def ternary() -> list:
        cond = binary(0)
        if peek() == "?":
            take("?")
            yes = ternary()
            take(":")
            return ["?", cond, yes, ternary()]
        return cond

    def binary(level: int) -> list:
        if level == len(BINARY):
            return unary()
        left = binary(level + 1)
        while peek() in BINARY[level]:
            op = take()
            left = [op, left, binary(level + 1)]
        return left

    def unary() -> list:
        tok = take()
        if tok == "!":
            return ["!", unary()]
        if tok == "(":
            inner = ternary()
            take(")")
            return inner
        if tok == "n":
            return ["n"]
        if tok.isdigit():
            return [int(tok)]
        raise ValueError(f"not a plural expression: {expression!r}")

    tree = ternary()
    if pos != len(tokens):
        raise ValueError(f"not a plural expression: {expression!r}")
    return tree
