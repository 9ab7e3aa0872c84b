"""docs/exercises.md says what an exercise's files hold and what a teacher's exercise does: every field of
the schemas is explained, and the worked example is what `exercises new` writes and the teacher's edit
tests/browser/test_teachers_exercise.py makes."""

import json
import re

import pytest

from server import ROOT


def text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def schema_fields(schema: dict, prefix: str = "") -> list[str]:
    """Every field a JSON Schema names, as docs/exercises.md writes them (`grade.call`, `cases[].group`,
    `mistakes.<name>.title`)."""
    found = []
    for name, field in schema.get("properties", {}).items():
        path = prefix + name
        found.append(path)
        items = field.get("items")
        if isinstance(items, dict) and "properties" in items:
            found += schema_fields(items, path + "[].")
        elif "properties" in field:
            found += schema_fields(field, path + ".")
        elif isinstance(field.get("additionalProperties"), dict):
            found += schema_fields(field["additionalProperties"], path + ".<name>.")
    return found


@pytest.mark.parametrize("name, heading", [("exercise", "## exercise.json"), ("words", "## The words")])
def test_every_field_of_an_exercises_files_is_explained_for_teachers(name, heading):
    from server.exercises.folder import schema

    document = text("docs/exercises.md")
    section = document[document.index(heading) :]
    table = section[: section.index("\n## ", 3)] if "\n## " in section[3:] else section
    explained = re.findall(r"^\| `([^`]+)` \| \S", table, re.M)
    assert explained == schema_fields(schema(name)), (
        f"docs/exercises.md's {heading} table: {name}.json's fields"
    )


def test_the_worked_example_is_the_teachers_exercise_its_browser_test_makes():
    """docs/exercises.md's worked example: what `exercises new` writes (its template), the teacher's edit
    as tests/browser/test_teachers_exercise.py makes it, and what the LMS and the class view say of it."""
    from server.exercises.cli import TEMPLATE
    from server.lti.activity import ALL_GROUPS
    from server.lti.deep_linking import ACTIVITY_TITLE
    from tests.support import teachers_exercise as teachers

    document = text("docs/exercises.md")
    example = document[document.index("## A worked example") : document.index("## The folder")]
    template = json.loads((TEMPLATE / "exercise.json").read_text(encoding="utf-8"))
    words = json.loads((TEMPLATE / "words.en.json").read_text(encoding="utf-8"))
    made = (TEMPLATE / "statement.en.md").read_text(encoding="utf-8").splitlines()[0].removeprefix("# ")
    assert f"tanh  ({made})" in example and f"{teachers.NAME}  ({teachers.TITLE})" in example
    named = [g["name"] for g in template["groups"]] + [m["key"] for m in template["mistakes"]]
    assert all(f"`{name}`" in example for name in named)
    assert f"`{words['groups']['tanh(a)+a']['about']}`" in example  # its class view's row
    assert f"`# {teachers.TITLE}`" in example and f"``{json.dumps(teachers.HINT)}``" in example
    assert f"`{teachers.RIGHT}` to `{teachers.SLIP}`" in example
    entry, said = re.findall(r"```json\n(.*?)```", example, re.S)
    assert json.loads(entry) == teachers.ENTRY
    assert json.loads("{" + said + "}") == {teachers.ASSIGN: teachers.WORDS}
    ops = json.loads(text("exercises/ops/exercise.json"))
    assert teachers.ASSIGN in [m["key"] for m in ops["mistakes"]]  # "`ops` has an `assign` too"
    assert f"**{ALL_GROUPS}** (`all`)" in example and f"**{teachers.WORDS['title']}**" in example
    assert '"' + ACTIVITY_TITLE % {"title": teachers.TITLE} + '"' in " ".join(example.split())
