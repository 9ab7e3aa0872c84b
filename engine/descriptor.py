"""An exercise as the grader reads it: its descriptor (JSON), its engine's code and its plugin.

The descriptor is what the grader knows of an exercise (docs/architecture.md, "The general grader and an
exercise"): the names the learner's code defines, the call that gives one number per leaf, the tolerance,
the groups (their leaves, role and words), the verdicts, the named mistakes, the plugin. The engine
archive holds the served exercise's as exercise.json, beside engine/ (archived()); the server and the
tests read one from its data (read()).
"""

import importlib
from json import loads
from pathlib import Path

from engine.compare import tolerance_of
from engine.errors import ENGINE_FILE
from engine.integrity import Seal
from engine.plugin import NONE, Plugin
from engine.words import language

ROOT = (
    Path(__file__).resolve().parent.parent
)  # the folder that holds engine/: the repository, or the archive's
ARCHIVED = "exercise.json"  # the served exercise's descriptor, at the archive's root


class Descriptor:
    """One exercise, read: its data, its engine compiled, its plugin imported, the grader sealed."""

    def __init__(self, data: dict, engine_source: str | None = None) -> None:
        if data.get("format") != 1:
            raise ValueError(f"not a descriptor of format 1: {data.get('format')!r}")
        self.data = data
        self.id: str = data["id"]
        self.learner_writes: tuple[str, ...] = tuple(data["learner_writes"])
        self.call: str = data["call"]
        self.call_code = compile(self.call, "<grade.call>", "eval")
        self.tolerance = tolerance_of(data.get("tolerance"))
        self.engine_hints = bool(data.get("engine_hints"))
        self.groups: dict[str, dict] = {g["name"]: g for g in data["groups"]}
        self.verdicts: dict[str, tuple[str, ...]] = {
            name: tuple(v["counts"]) for name, v in (data.get("verdicts") or {}).items()
        } or {"all": tuple(name for name, g in self.groups.items() if g.get("role", "graded") != "extra")}
        self.mistakes: list[dict] = list(data.get("mistakes") or [])
        self.keys = [m["key"] for m in self.mistakes]
        if engine_source is None:
            engine_source = (ROOT / data["engine"]).read_text(encoding="utf-8")
        self.engine_source = engine_source
        self.engine_code = compile(engine_source, ENGINE_FILE, "exec")
        self.plugin: Plugin = NONE
        if data.get("plugin"):
            self.plugin = importlib.import_module(data["plugin"]).PLUGIN
        prefixes = ("engine", data["plugin"]) if data.get("plugin") else ("engine",)
        self.seal = Seal(prefixes)  # every module the grader uses is loaded by now, before any learner code

    def role(self, group: str) -> str:
        """What a group is for: "graded" (the default), "extra", or a plugin's role."""
        return self.groups[group].get("role", "graded")

    def words(self, group: str) -> dict:
        """A group's {"formula", "about"} in the learner's language: the plugin's, else the descriptor's
        in that language, else in English, else its name."""
        said = self.plugin.words(self.groups[group])
        if said is not None:
            return said
        words = self.groups[group].get("words") or {}
        found = words.get(language()) or words.get("en") or {}
        return {"formula": found.get("formula", group), "about": found.get("about", "")}

    def mistake_words(self, key: str) -> dict:
        """A named mistake's {"title", "says", "hint"} in the learner's language (else English)."""
        words = next((m.get("words") or {} for m in self.mistakes if m["key"] == key), {})
        found = words.get(language()) or words.get("en") or {}
        return {
            "title": found.get("title", key),
            "says": found.get("says", ""),
            "hint": found.get("hint", ""),
        }

    def rule_of(self, cases: list[dict]) -> str:
        """The verdict the cases follow: the first whose counted groups hold every group they count."""
        counted = {c["group"] for c in cases if not c.get("extra")}
        return next((name for name, groups in self.verdicts.items() if counted <= set(groups)), "")


def read(descriptor: dict | str, engine_source: str | None = None) -> Descriptor:
    """Read a descriptor (a dict, or its JSON) and the exercise's engine (its source, or read from the
    descriptor's engine path, from the folder that holds engine/)."""
    return Descriptor(loads(descriptor) if isinstance(descriptor, str) else descriptor, engine_source)


def archived() -> str:
    """The served exercise's descriptor in the engine archive, as JSON text."""
    return (ROOT / ARCHIVED).read_text(encoding="utf-8")
