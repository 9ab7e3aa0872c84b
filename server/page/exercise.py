"""One exercise as its page shows it: its words in the page's language (statement, hints, groups,
mistakes), its code (starter, engine, solution, scratch pad), its cases under a verdict, its archive's URL,
and where this browser keeps the learner's code for it.

Every served exercise comes from the registry (server/exercises/registry.py), its folder read once. The
seed's (LEGACY) still takes its cases, groups' words and archive through its bridge
(exercises/backward/seed.py, server/exercises/value_sets.py): the same as before exercises were folders.
"""

from dataclasses import dataclass

from flask import abort, current_app
from flask_babel import gettext

from server.exercises import comments, markdown, presets
from server.exercises.folder import Exercise
from server.exercises.registry import LEGACY
from server.page import i18n

# The scratch pad's first code for an exercise whose folder has no scratch.py (its comment a message of the
# catalogue: babel.cfg).
SCRATCH = """\
# Try the engine with your own code: Run prints, and draw(v) draws the graph that ends at v.
a = Value(2.0)
b = Value(-3.0)
c = a * b + a
print(c.data)
draw(c)
"""


@dataclass
class Shown:
    """A served exercise, read for one page: the registry's Exercise and the page's language."""

    exercise: Exercise
    lang: str

    @property
    def id(self) -> str:
        return self.exercise.id

    @property
    def seed(self) -> bool:
        """The seed's exercise: its cases, groups' words and archive come through its bridge."""
        return self.id == LEGACY

    def words(self) -> dict:
        """Its words in the page's language, else English's (a language it is not written in)."""
        words = self.exercise.words
        return words.get(self.lang) or words["en"]

    def statement(self) -> dict:
        """Its statement as HTML: title, lede (shown unfolded), more (folded on a narrow screen)."""
        statements = self.exercise.statements
        text = statements.get(self.lang) or statements["en"]
        lede = text.partition("\n")[2].strip().split("\n\n", 1)[0]
        return {**markdown.statement(text), "lede": markdown.inline(lede)}  # the lede: one <p> of the page's

    def title(self) -> str:
        """Its title as plain text (the <title>, the front page's list)."""
        return self.exercise.title(self.lang).replace("`", "")

    def hints(self) -> list[str]:
        return [markdown.inline(hint) for hint in self.words().get("hints", [])]

    def mistakes(self) -> dict:
        """Each named mistake's title, says and hint as HTML, by key (the page renders a named mistake
        with them). The seed's diagnosis words its own: none here."""
        if self.seed:
            return {}
        said = self.words().get("mistakes", {})
        english = self.exercise.words["en"].get("mistakes", {})
        keys = [*self.exercise.keys, "wrong"]
        return {
            key: {
                "title": markdown.inline((said.get(key) or english[key])["title"]),
                "says": markdown.inline((said.get(key) or english[key])["says"]),
                "hint": markdown.inline((said.get(key) or english[key])["hint"]),
            }
            for key in keys
            if key in said or key in english
        }

    def verdict(self, verdict: str | None) -> str:
        """The verdict its page grades by: the one asked for where it has it, else its first."""
        verdicts = self.exercise.verdicts()
        return verdict if verdict in verdicts else next(iter(verdicts))

    def cases(self, verdict: str) -> list[dict]:
        """The page's cases under a verdict, with their expected numbers and each mistake's (the seed's come
        through its bridge: server/exercises/value_sets.py's graded_cases, which page.py calls)."""
        return current_app.extensions["exercises"].cases(self.id, verdict)

    def groups(self, cases: list[dict]) -> list[dict]:
        """Each group the cases grade, in order, with its formula and about, role and whether it is extra."""
        names = dict.fromkeys(case["group"] for case in cases)
        extra = {case["group"]: case["extra"] for case in cases}
        if self.seed:
            from exercises.backward.seed import exercise

            served = exercise()
            with i18n.speaking():
                return [
                    {"name": n, **served.words(n), "extra": extra[n], "role": served.role(n)} for n in names
                ]
        said = self.words().get("groups", {})
        english = self.exercise.words["en"].get("groups", {})
        groups = self.exercise.groups
        return [
            {
                "name": n,
                "formula": (said.get(n) or english.get(n) or {}).get("formula", n),
                "about": (said.get(n) or english.get(n) or {}).get("about", ""),
                "extra": extra[n],
                "role": groups[n].get("role", "graded"),
            }
            for n in names
        ]

    def said(self, code: str) -> str:
        """code with its comments in the page's language: the exercise's words' `comments`, else the
        playground's catalogue (the seed's code, the default scratch pad), else as written."""
        own = self.words().get("comments", {})
        return comments.said(code, lambda text: own.get(text) or gettext(text))

    def starter(self) -> str:
        return self.said(self.exercise.code["starter.py"])

    def solution(self) -> str:
        return self.said(self.exercise.code["reference.py"])

    def engine_source(self) -> str:
        return self.exercise.code["engine.py"]

    def scratch(self) -> dict:
        """The scratch pad's starting code and examples (the seed's), comments in the page's language."""
        if self.seed:
            examples = [{**p, "code": comments.said(p["code"], gettext)} for p in presets.PRESETS]
            return {"starter": comments.said(presets.STARTER, gettext), "presets": examples}
        return {"starter": self.said(self.exercise.code.get("scratch.py", SCRATCH)), "presets": []}

    def storage(self) -> str:
        """What this browser's keys of the learner's code, scratch pad, hints and progress for it end in:
        the seed's keep the bare keys (code saved before there were exercises stays), others `/<id>`."""
        return "" if self.seed else f"/{self.id}"

    def grade(self) -> dict:
        """What the page says of how it is graded: the names the learner writes, each number's label, what
        its groups are (the headline counts them in that word: static/js/page/report.js)."""
        data = self.exercise.data
        return {
            "learnerWrites": list(data["learner_writes"]),
            "outputLabel": data["grade"].get("output_label", "{leaf}"),
            "groupsAre": data["grade"].get("groups_are", "expressions"),
        }


def shown(exercise_id: str | None = None) -> Shown:
    """A served exercise (default: LEGACY) in the page's language; 404 where it is not served."""
    registry = current_app.extensions.get("exercises")
    found = registry.exercise(exercise_id or LEGACY) if registry is not None else None
    if found is None:
        abort(404)
    return Shown(found, i18n.select_locale())


def served() -> list[Shown]:
    """Every served exercise, in the course's order, in the page's language."""
    lang = i18n.select_locale()
    return [Shown(exercise, lang) for exercise in current_app.extensions["exercises"].exercises()]
