"""An exercise's folder read and checked as files (the check's first stage): exercise.json against its
schema and with itself, every file it needs there, every Python file compiled.

A complaint names the file and line (`path:line: what`); load() gathers every complaint of the folder
before it refuses it, so a teacher fixes them in one go.
"""

import copy
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator

from server.exercises import positions

SCHEMAS = Path(__file__).resolve().parent / "schemas"
CODE = ("engine.py", "starter.py", "reference.py")  # every exercise's, under these names
KINDS = ("syntax", "runtime", "timeout", "crash", "output")  # the error kinds (engine/report.py's KINDS)
WRONG = "wrong"  # a failing group no named mistake explains
PLUGINS = ("exercises.backward.plugin",)  # the playground's own exercises' plugins: only theirs may name one


class Refused(Exception):
    """A folder that fails its check: each complaint a line, `path:line: what` where a file is to blame."""

    def __init__(self, folder: Path, complaints: list[str]) -> None:
        super().__init__("; ".join(complaints))
        self.folder, self.complaints = folder, complaints


@cache
def schema(name: str) -> dict:
    """The JSON Schema of an exercise's data file ("exercise") or of its words in one language ("words"):
    their one home, served at <prefix>/schema/<name>.json."""
    return json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))


@dataclass
class Exercise:
    """One exercise's folder, read: its data, its code, its words (by language) and where it is."""

    folder: Path
    data: dict
    code: dict[str, str] = field(default_factory=dict)  # by file name: engine.py, mistakes/assign.py...
    words: dict[str, dict] = field(default_factory=dict)  # by language
    statements: dict[str, str] = field(default_factory=dict)  # by language, Markdown
    own: bool = False  # the playground's own (shipped): only these may have a plugin

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def keys(self) -> list[str]:
        return [m["key"] for m in self.data["mistakes"]]

    @property
    def groups(self) -> dict[str, dict]:
        return {g["name"]: g for g in self.data["groups"]}

    def verdicts(self) -> dict[str, list[str]]:
        """Each verdict's counted groups; without any: one, `all`, counting every graded group."""
        given = self.data.get("verdicts")
        if given:
            return {name: list(v["counts"]) for name, v in given.items()}
        return {"all": [g["name"] for g in self.data["groups"] if g.get("role", "graded") != "extra"]}

    def fresh_groups(self, verdict: str) -> list[str]:
        """The groups /verify draws fresh cases of under a verdict: its counted ones (those `fresh` names)."""
        fresh = self.data.get("fresh")
        if not fresh:
            return []
        counted = self.verdicts()[verdict]
        return [g for g in counted if g in fresh.get("groups", counted) and self.fresh_count(g)]

    def fresh_count(self, group: str) -> int:
        """How many fresh cases of a group /verify draws for each request (where it draws the group)."""
        fresh = self.data.get("fresh") or {}
        return fresh.get("by_group", {}).get(group, fresh.get("per_group", 0))

    def title(self, lang: str = "en") -> str:
        """The statement's first line without its `# `, in a language (else English)."""
        text = self.statements.get(lang) or self.statements.get("en", "")
        return text.splitlines()[0].removeprefix("# ").strip() if text else self.id


def where(path: Path, line: int | None = None) -> str:
    """A file named as the check names it: path[:line]."""
    return f"{path}:{line}" if line else str(path)


# Files read and found valid, by (path, inode, size, modification time, schema): every app made in one
# process (the tests make hundreds) reads the same files; a changed file is read again.
valid_files: dict[tuple[str, int, int, int, str], dict] = {}


def read_json(path: Path, name: str, complaints: list[str]) -> dict | None:
    """A JSON file read and held to its schema; None (and complaints) where it is not."""
    try:
        stat = path.stat()
        known = (str(path), stat.st_ino, stat.st_size, stat.st_mtime_ns, name)
    except OSError:
        known = None
    if known in valid_files:
        return copy.deepcopy(valid_files[known])
    data = read_valid(path, name, complaints)
    if data is not None and known:
        valid_files[known] = copy.deepcopy(data)
    return data


def read_valid(path: Path, name: str, complaints: list[str]) -> dict | None:
    """read_json's reading and checking, every time."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        complaints.append(f"{path}: cannot be read: {exc}")
        return None
    try:
        data, lines = positions.read(text)
    except json.JSONDecodeError as exc:
        complaints.append(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}")
        return None
    errors = sorted(Draft202012Validator(schema(name)).iter_errors(data), key=lambda e: list(e.absolute_path))
    for error in errors:
        line, at = positions.line_of(lines, error.absolute_path), positions.pointer(error.absolute_path)
        complaints.append(f"{where(path, line)}: {at or '/'}: {error.message}")
    return None if errors else data


def compiled(path: Path, complaints: list[str]) -> str | None:
    """A Python file's text, compiled once to find a syntax error (named with its line)."""
    if not path.is_file():
        complaints.append(f"{path}: missing")
        return None
    text = path.read_text(encoding="utf-8")
    try:
        compile(text, str(path), "exec")
    except SyntaxError as exc:
        complaints.append(f"{where(path, exc.lineno)}: SyntaxError: {exc.msg}")
        return None
    return text


def consistent(path: Path, data: dict, lines: dict[str, int], complaints: list[str]) -> None:
    """What the schema cannot say: names unique and known, one value per leaf, keys free."""

    def say(where_: list, what: str) -> None:
        complaints.append(f"{where(path, positions.line_of(lines, where_))}: {what}")

    groups = {}
    for i, group in enumerate(data["groups"]):
        if group["name"] in groups:
            say(["groups", i, "name"], f"a second group named {group['name']}")
        groups[group["name"]] = group
    for i, case in enumerate(data["cases"]):
        group = groups.get(case["group"])
        if group is None:
            say(["cases", i, "group"], f"no group is named {case['group']}")
        elif len(case["inputs"]["values"]) != len(group["leaves"]):
            say(
                ["cases", i, "inputs", "values"],
                f"its group has {len(group['leaves'])} leaves: one value each",
            )
        elif "expected" in case and len(case["expected"]) != len(group["leaves"]):
            say(["cases", i, "expected"], f"its group has {len(group['leaves'])} leaves: one number each")
    for name, verdict in (data.get("verdicts") or {}).items():
        for k, counted in enumerate(verdict["counts"]):
            if counted not in groups:
                say(["verdicts", name, "counts", k], f"no group is named {counted}")
    for k, drawn in enumerate((data.get("fresh") or {}).get("groups", [])):
        if drawn not in groups:
            say(["fresh", "groups", k], f"no group is named {drawn}")
    for drawn in (data.get("fresh") or {}).get("by_group", {}):
        if drawn not in groups:
            say(["fresh", "by_group", drawn], f"no group is named {drawn}")
    seen: set[str] = set()
    for i, mistake in enumerate(data["mistakes"]):
        key = mistake["key"]
        if key in seen or key in KINDS or key == WRONG:
            why = "named twice" if key in seen else "an error's kind" if key in KINDS else "no mistake's"
            say(["mistakes", i, "key"], f"the key {key} is {why}")
        seen.add(key)


def load(folder: Path, own: bool = False) -> Exercise:
    """Read an exercise's folder and check its files (stage 1); Refused with every complaint."""
    folder = Path(folder)
    complaints: list[str] = []
    path = folder / "exercise.json"
    data = read_json(path, "exercise", complaints) if path.is_file() else None
    if not path.is_file():
        complaints.append(f"{path}: missing (an exercise's folder holds its data file, exercise.json)")
    if data is None:
        raise Refused(folder, complaints)
    lines = positions.lines(path.read_text(encoding="utf-8"))
    if data["id"] != folder.name:
        said = f"the id is {data['id']}, not the folder's name {folder.name}"
        complaints.append(f"{where(path, lines['/id'])}: {said}")
    if data.get("plugin") and (not own or data["plugin"] not in PLUGINS):
        complaints.append(f"{where(path, lines['/plugin'])}: only the playground's own have a plugin")
    consistent(path, data, lines, complaints)
    exercise = Exercise(folder, data, own=own)
    names = [*CODE, *(f"mistakes/{key}.py" for key in exercise.keys)]
    fresh = data.get("fresh") or {}
    drawn = fresh.get("per_group") or any(fresh.get("by_group", {}).values())
    names += ["cases.py"] if drawn or (folder / "cases.py").exists() else []
    names += [name for name in ("scratch.py",) if (folder / name).exists()]
    for name in names:
        text = compiled(folder / name, complaints)
        if text is not None:
            exercise.code[name] = text
    named = {f"{key}.py" for key in exercise.keys}
    for extra in sorted((folder / "mistakes").glob("*.py")) if (folder / "mistakes").is_dir() else ():
        if extra.name not in named:
            complaints.append(f"{extra}: no mistake in exercise.json has the key {extra.stem}")
    if complaints:
        raise Refused(folder, complaints)
    return exercise
