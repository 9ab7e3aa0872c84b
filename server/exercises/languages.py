"""An exercise's words, language by language (the check's second stage): each language it lists has its
statement (a `# ` title first) and complete words (every group's unless a plugin words them, as many hints
as English, every mistake's, every verdict's, every comment of the code the page hands out but where the
playground's catalogue says them); a language the server offers that it does not list falls back to
English, which the check says and does not refuse."""

from server.exercises import comments as code_comments
from server.exercises import folder as files
from server.exercises.folder import Exercise, where

# The code a learner reads in the page, whose comments are said in the page's language.
HANDED_OUT = ("starter.py", "reference.py", "scratch.py")


def commented(exercise: Exercise) -> list[str]:
    """The comments, once each, of the code the page hands out (their English: words' `comments` keys)."""
    found: list[str] = []
    for name in HANDED_OUT:
        for comment in code_comments.comments(exercise.code.get(name, "")):
            found += [comment.text] if comment.text not in found else []
    return found


def words_lack(exercise: Exercise, words: dict, english: dict | None) -> list[str]:
    """What a language's words leave out, each as the key it lacks."""
    lacking = []
    if not exercise.data.get("plugin"):  # the seed's plugin words its groups from their graphs
        lacking += [f"groups/{g}" for g in exercise.groups if g not in words.get("groups", {})]
    lacking += [f"mistakes/{k}" for k in exercise.keys if k not in words.get("mistakes", {})]
    if exercise.data.get("verdicts"):
        lacking += [f"verdicts/{v}" for v in exercise.data["verdicts"] if v not in words.get("verdicts", {})]
    if english is not None and not exercise.data.get("plugin"):  # the seed's comments are the catalogue's
        said = words.get("comments", {})
        lacking += [f"comments/{text[:60]!r}" for text in commented(exercise) if text not in said]
    if english is not None and len(words.get("hints", [])) != len(english.get("hints", [])):
        lacking.append(
            f"hints (English has {len(english.get('hints', []))}, this {len(words.get('hints', []))})"
        )
    return lacking


def check(exercise: Exercise, offered: list[str]) -> tuple[list[str], list[str]]:
    """Read every listed language's statement and words into the exercise; give (complaints, notes)."""
    complaints: list[str] = []
    english = None
    for lang in exercise.data["languages"]:
        statement = exercise.folder / f"statement.{lang}.md"
        if not statement.is_file():
            complaints.append(f"{statement}: missing (the statement in {lang})")
        else:
            text = statement.read_text(encoding="utf-8")
            if not text.startswith("# "):
                complaints.append(
                    f"{where(statement, 1)}: a statement starts with its title, `# ` and a line"
                )
            exercise.statements[lang] = text
        path = exercise.folder / f"words.{lang}.json"
        if not path.is_file():
            complaints.append(f"{path}: missing (the hints and mistakes' words in {lang})")
            continue
        words = files.read_json(path, "words", complaints)
        if words is None:
            continue
        exercise.words[lang] = words
        english = words if lang == "en" else english
        lacking = words_lack(exercise, words, None if lang == "en" else exercise.words.get("en"))
        complaints += [f"{path}: lacks {key}" for key in lacking]
    notes = [f"{lang}: falls back to English" for lang in offered if lang not in exercise.data["languages"]]
    return complaints, notes
