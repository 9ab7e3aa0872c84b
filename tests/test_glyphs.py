"""No character the page shows needs an emoji or symbol font the learner's system may lack."""

import re

from server import ROOT

# where the page's words come from
SHOWN = ["static/js", "static/css", "templates", "engine", "server", "runtime", "translations"]
PICTOGRAPH = re.compile("[\u2300-\U0010ffff]")  # from Misc Technical (⌘ ⏳) up: symbols, dingbats, emoji


def test_the_page_draws_its_marks_instead_of_using_pictographs():
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for folder in SHOWN
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in {".js", ".css", ".html", ".py", ".json", ".svg", ".po", ".pot"}
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PICTOGRAPH.search(line)
    ]
    assert found == []  # a cross is an SVG path or a CSS shape; Cmd is a word
