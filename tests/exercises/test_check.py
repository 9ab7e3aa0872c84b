"""`exercises check`'s stages: each shipped exercise passes, and a broken copy is refused with its reason
and, where a file is to blame, its path and line."""

import json
import re

import pytest

from server.exercises.checking import check
from tests.support.exercise_folders import SHIPPED, line_of

OFFERED = ("en", "de")


def assert_passes(checked) -> None:
    assert checked.passed, checked.text()
    said = dict(checked.said)
    assert set(said) == {"files", "languages", "cases", "reference", "starter", "mistakes", "pairs"}


SHIPPED_IDS = json.loads((SHIPPED / "course.json").read_text())["exercises"]


# train's trains networks on every case (seconds): make test-fast leaves it out
SLOW = pytest.mark.slow


@pytest.mark.parametrize("name", [pytest.param(i, marks=SLOW) if i == "train" else i for i in SHIPPED_IDS])
def test_each_shipped_exercise_passes_its_check(name):
    checked = check(SHIPPED / name, own=True, offered=OFFERED)
    assert_passes(checked)
    data = json.loads((SHIPPED / name / "exercise.json").read_text())
    for key in (m["key"] for m in data["mistakes"]):
        assert f"{key}: named {key}" in dict(checked.said)["mistakes"]


# The course's steps in the order the material teaches them (issue 52): the shipped ones come in this order.
COURSE_ORDER = ("ops", "neuron", "exp", "relu", "backward", "accumulate", "mlp", "step", "train")


def test_the_course_names_every_shipped_folder_and_only_those():
    ids = json.loads((SHIPPED / "course.json").read_text())["exercises"]
    assert ids == [i for i in COURSE_ORDER if i in ids] and {"ops", "backward", "step"} <= set(ids)
    assert len(ids) == len(set(ids)), ids  # each once: its order is the course's
    assert sorted(ids) == sorted(p.name for p in SHIPPED.iterdir() if (p / "exercise.json").is_file())


def failures(folder, **options) -> str:
    checked = check(folder, offered=OFFERED, **options)
    assert not checked.passed
    return "\n".join(checked.failures)


def test_a_reference_that_does_not_give_a_cases_stated_numbers_is_refused_at_that_case(copy):
    folder = copy("ops")
    path = folder / "exercise.json"
    path.write_text(path.read_text().replace('"g": -2.5}},', '"g": -2.5}, "expected": [0.5, 0.5]},', 1))
    line = line_of(path, '"expected": [0.5, 0.5]')
    assert f"reference.py gives [4.0, -2.0] on {path}:{line}, not its expected [0.5, 0.5]" in failures(folder)


def test_a_starter_that_passes_is_refused(copy):
    folder = copy("ops")
    (folder / "starter.py").write_text((folder / "reference.py").read_text())
    assert "starter.py passes" in failures(folder)


def test_a_wrong_solution_named_as_another_mistake_is_refused(copy):
    folder = copy("ops")
    (folder / "mistakes" / "swapped.py").write_text((folder / "mistakes" / "assign.py").read_text())
    said = failures(folder)
    assert "mistakes/swapped.py is named assign, not swapped: its numbers equal assign's" in said


def test_two_solutions_the_fixed_cases_cannot_tell_apart_are_refused(copy):
    folder = copy("ops")
    path = folder / "exercise.json"
    data = json.loads(path.read_text())
    # a value used twice is what tells = from +=: without such a fixed case, only fresh draws would
    data["cases"] = [c for c in data["cases"] if c["group"] in ("a*b", "a+b")]
    path.write_text(json.dumps(data, indent=1))
    said = failures(folder)
    assert (
        "reference and assign give the same numbers on every case: a case that tells them apart is missing"
        in said
    )
    assert "swapped" not in said and "no-chain" not in said


def test_a_missing_translation_is_refused_by_its_file_and_key(copy):
    folder = copy("ops")
    path = folder / "words.de.json"
    words = json.loads(path.read_text())
    del words["mistakes"]["swapped"]
    words["hints"].pop()
    del words["comments"]["until then, 2 * v is a TypeError"]  # a comment of the starter, after its code
    path.write_text(json.dumps(words, ensure_ascii=False))
    english = len(json.loads((folder / "words.en.json").read_text())["hints"])
    said = failures(folder)
    assert f"{path}: lacks mistakes/swapped" in said
    assert f"{path}: lacks hints (English has {english}, this {english - 1})" in said
    assert f"{path}: lacks comments/'until then, 2 * v is a TypeError'" in said


def test_a_new_comment_in_the_code_a_learner_reads_lacks_its_translation(copy):
    folder = copy("ops")
    starter = folder / "starter.py"
    starter.write_text("# Start with __add__, then __mul__.\n" + starter.read_text())
    assert f"{folder / 'words.de.json'}: lacks comments/'Start with __add__, then __mul__.'" in failures(
        folder
    )


def test_a_language_not_written_falls_back_to_english_and_is_said(copy):
    checked = check(copy("ops"), offered=("en", "de", "fr"))
    assert checked.passed and "fr: falls back to English" in checked.notes


def test_a_syntax_error_in_exercise_json_is_named_by_its_line_and_column(copy):
    folder = copy("ops")
    path = folder / "exercise.json"
    path.write_text(
        path.read_text().replace('"learner_writes": ["Value"],', '"learner_writes": ["Value"]', 1)
    )
    line = line_of(path, '"learner_writes"') + 1
    assert re.search(
        rf"^{re.escape(str(path))}:{line}:\d+: not JSON: Expecting ',' delimiter$", failures(folder), re.M
    )


def test_a_field_the_schema_refuses_is_named_by_its_line_and_pointer(copy):
    folder = copy("ops")
    path = folder / "exercise.json"
    path.write_text(
        path.read_text().replace(
            '{"group": "a+b", "inputs": {"values": [0.5', '{"group": 5, "inputs": {"values": [0.5', 1
        )
    )
    line = line_of(path, '"group": 5')
    assert f"{path}:{line}: /cases/7/group: 5 is not of type 'string'" in failures(folder)


def test_a_case_with_a_value_too_few_is_named_by_its_line(copy):
    folder = copy("ops")
    path = folder / "exercise.json"
    path.write_text(path.read_text().replace('"values": [0.8, -1.6]', '"values": [0.8]', 1))
    line = line_of(path, '"values": [0.8]')
    assert f"{path}:{line}: its group has 2 leaves: one value each" in failures(folder)


def test_a_syntax_error_in_a_python_file_is_named_by_its_line(copy):
    folder = copy("ops")
    path = folder / "mistakes" / "assign.py"
    path.write_text(path.read_text().replace("self.grad = out.grad", "self.grad = = out.grad", 1))
    line = line_of(path, "= = out.grad")
    assert f"{path}:{line}: SyntaxError: invalid syntax" in failures(folder)


def test_a_missing_file_and_a_stray_mistake_are_named(copy):
    folder = copy("ops")
    (folder / "mistakes" / "no-chain.py").rename(folder / "mistakes" / "no-chains.py")
    said = failures(folder)
    assert f"{folder / 'mistakes' / 'no-chain.py'}: missing" in said
    assert (
        f"{folder / 'mistakes' / 'no-chains.py'}: no mistake in exercise.json has the key no-chains" in said
    )


def test_a_teachers_folder_may_not_name_a_plugin(copy):
    folder = copy("ops")
    path = folder / "exercise.json"
    path.write_text(
        path.read_text().replace('"format": 1,', '"format": 1, "plugin": "exercises.backward.plugin",', 1)
    )
    assert f"{path}:2: only the playground's own have a plugin" in failures(folder)


def test_a_file_changed_in_place_after_it_passed_is_read_again(copy):
    """The files read once per process (server/exercises/folder.py valid_files) are read again once changed:
    a teacher's fix or break, in the same folder, is what the next check and the next start see."""
    folder = copy("ops")
    assert check(folder, own=True, offered=OFFERED).passed
    path = folder / "exercise.json"
    text = path.read_text()
    path.write_text(text.replace('"group": "a+b"', '"group": 12345', 1))  # the same size, just after
    assert len(path.read_text()) == len(text)
    assert "/group: 12345 is not of type 'string'" in failures(folder)
