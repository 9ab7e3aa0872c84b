"""The teacher's exercise of docs/exercises.md's worked example, which
tests/browser/test_teachers_exercise.py follows: `exercises new tanh`, then the teacher's edit (a title, a
hint, one more named mistake with its code, its entry and its words). tests/test_docs.py holds the
document to these."""

import json
from pathlib import Path

NAME = "tanh"  # the exercise the teacher makes
TITLE = "Backpropagate through tanh"  # the title the teacher gives it (statement.en.md's first line)
HINT = "Which `t` does tanh's local gradient need: its input's or its output's?"  # their first hint

# The teacher's own mistake: `=` for `+=` in tanh's _backward. Its key is also one of ops's mistakes
# (exercises/ops: "= instead of +="), so a view that names it by another exercise's words is caught.
ASSIGN = "assign"
RIGHT = "self.grad += (1 - t * t) * out.grad"  # reference.py's line...
SLIP = "self.grad = (1 - t * t) * out.grad"  # ...as mistakes/assign.py has it
ENTRY = {"key": ASSIGN, "source": "my class, week 3: = where += belongs"}  # in exercise.json's mistakes
WORDS = {  # in words.en.json's mistakes
    "title": "self.grad = in tanh's _backward",
    "about": "tanh's _backward sets self.grad with =: what + gave a before it is lost.",
    "says": "Your numbers are those of a `_backward` that sets `self.grad` with `=`: in `tanh(a) + a`, "
    "what `+` gave `a` is lost.",
    "hint": "Add to `self.grad` with `+=`: `a` gets a gradient from `tanh` and one from `+`.",
}


def edited(folder: Path) -> None:
    """Make the teacher's changes to the exercise `exercises new` wrote in folder."""
    statement = folder / "statement.en.md"
    lines = statement.read_text(encoding="utf-8").splitlines(keepends=True)
    statement.write_text("".join([f"# {TITLE}\n", *lines[1:]]), encoding="utf-8")
    reference = (folder / "reference.py").read_text(encoding="utf-8")
    assert RIGHT in reference
    (folder / "mistakes" / f"{ASSIGN}.py").write_text(reference.replace(RIGHT, SLIP), encoding="utf-8")
    data = json.loads((folder / "exercise.json").read_text(encoding="utf-8"))
    data["mistakes"].append(ENTRY)
    (folder / "exercise.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    words = json.loads((folder / "words.en.json").read_text(encoding="utf-8"))
    words["hints"][0] = HINT
    words["mistakes"][ASSIGN] = WORDS
    (folder / "words.en.json").write_text(json.dumps(words, indent=2) + "\n", encoding="utf-8")
