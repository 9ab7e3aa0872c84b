"""The message catalogue: every learner-facing string is in it, and German has every message.

A new sentence written as a bare literal in a module that speaks to the learner fails here, as does a
message extracted but not translated (or fuzzy), a translation that loses or invents a placeholder,
and a messages.pot that `make messages` has not brought up to date.
"""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from engine import words
from server import create_app, i18n

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "translations" / "messages.pot"
COMPLETE = ["de"]  # the languages that must have every message

# The engine's modules that write the learner's messages (the rest compute, and say nothing).
ENGINE_SPEAKERS = [
    "diagnose.py",
    "errors.py",
    "expressions.py",
    "grade.py",
    "gradients.py",
    "learner_side.py",
    "output.py",
    "report.py",
    "scratch.py",
]
# The page's scripts, every one whose strings a learner may see: the page's own and the runtime's side of
# it (runtime/page: its status, timeout and crash reports). The runner frame and the worker say nothing to
# the learner themselves: what they report, the page says.
JS_SPEAKERS = sorted(
    p.relative_to(ROOT).as_posix()
    for folder in ("static/js/boot", "static/js/page", "static/js/picture", "runtime/page")
    for p in (ROOT / folder).glob("*.js")
)
# Not moved into the catalogue yet: each file's sentences said in English in every language. The list
# only shrinks; a file not named here fails for any sentence outside a t() call.
NOT_YET = {
    "static/js/picture/graph-text.js",
    "static/js/picture/graph-zoom.js",
    "static/js/picture/graph.js",
    "static/js/picture/picture.js",
}


def sentence(text: str) -> bool:
    """Whether a literal reads like something said to a learner: two words or more, and a capital first
    word, three words, or prose punctuation ("Show a hint", "values were lost.", "right, wrong")."""
    found = re.findall(r"[A-Za-zÀ-ÿ]{2,}", text)
    if len(found) < 2 or not re.search(r"[A-Za-zÀ-ÿ]{2,}[,;:]? +[A-Za-zÀ-ÿ]", text):
        return False
    return bool(
        re.match(r"\s*[A-Z][a-z]", text) or len(found) >= 3 or re.search(r"[,;!?…’()]|\.(\s|$)", text)
    )


def catalogue_ids() -> set[str]:
    """Every msgid (and plural msgid) of messages.pot."""
    ids = set()
    for message in read_po(POT.open("rb")):
        if message.id:
            ids.update(message.id if isinstance(message.id, tuple) else [message.id])
    return ids


def in_catalogue(text: str, ids: set[str]) -> bool:
    """Whether a literal is a message or a piece of one (a message written across concatenated strings)."""
    piece = text.strip()
    return text in ids or any(piece in i for i in ids)


# --- Python: every sentence a literal in a call of _(), ngettext() or N_() ----------------------------


MATCHING = ("compile", "search", "match", "fullmatch", "startswith", "endswith")  # re's and str's


def bare_sentences_py(path: Path) -> list[str]:
    """The sentence-like string literals of a module that are not a catalogue call's argument."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside: set[int] = set()
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("_", "ngettext", "N_"):
            for arg in node.args:
                inside.update(id(n) for n in ast.walk(arg))
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
        if isinstance(node, ast.JoinedStr):  # said as a whole, below
            inside.update(id(n) for n in node.values)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("TypeError", "ValueError"):
            inside.update(id(n) for n in ast.walk(node))  # Python's own kind of message, as Python words it
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in MATCHING:
            inside.update(id(n) for n in ast.walk(node))  # Python's own words, matched, never said
        if isinstance(node, ast.Compare):
            inside.update(id(n) for n in ast.walk(node))  # text == f"bad operand type...": matched
    found = []
    for node in ast.walk(tree):
        if id(node) in inside or id(node) in docstrings:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and sentence(node.value):
            found.append(node.value)
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
            if sentence(text):
                found.append(text)
    return found


@pytest.mark.parametrize("name", ENGINE_SPEAKERS)
def test_every_sentence_of_the_engine_is_a_catalogue_call(name):
    found = [s for s in bare_sentences_py(ROOT / "engine" / name) if not s.startswith("<") or " " in s]
    assert found == [], f"engine/{name} says these outside _()/ngettext()/N_(): {found}"


# --- JavaScript: every sentence a literal in t(), tn() or N_() ----------------------------------------

LITERAL = re.compile(r"""(?<![\w$])("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)""")
DEVELOPER = re.compile(
    r"console\.\w+\(|performance\.\w+\(|matchMedia\(|throw new Error\(|new Error\(|^\s*//|^\s*\*|import "
    r"|querySelector|\.dataset"
)


def bare_sentences_js(path: Path, ids: set[str]) -> list[str]:
    """The sentence-like string literals of a script that are not (pieces of) catalogue messages."""
    found = []
    in_console = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if re.search(r"console\.\w+\($", line) or re.search(r"console\.\w+\(\s*$", line):
            in_console = True
            continue
        if in_console:
            in_console = not line.strip().startswith(");")
            continue
        if DEVELOPER.search(line):
            continue
        for literal in LITERAL.findall(line):
            text = literal[1:-1]
            if literal.startswith("`"):
                text = re.sub(r"\$\{[^}]*\}", "{x}", text)
            if sentence(text) and not in_catalogue(text, ids):
                found.append(literal)
    return found


@pytest.mark.parametrize("name", [n for n in JS_SPEAKERS if n not in NOT_YET])
def test_every_sentence_of_the_page_is_a_catalogue_call(name):
    found = bare_sentences_js(ROOT / name, catalogue_ids())
    assert found == [], f"{name} says these outside t()/tn()/N_() (or messages.pot is stale): {found}"


def test_the_not_yet_list_names_only_files_that_still_have_sentences_of_their_own():
    ids = catalogue_ids()
    done = [name for name in NOT_YET if not bare_sentences_js(ROOT / name, ids)]
    assert done == [], f"these files are in the catalogue now: take them off NOT_YET: {done}"


def test_a_new_bare_sentence_is_found(tmp_path):
    """The finders find what they are for: a sentence added as a bare literal, in JS and in Python."""
    js = tmp_path / "new.js"
    js.write_text(
        'import { t } from "./i18n.js";\nel.textContent = t("Check");\nel.title = "Your code is lost.";\n'
    )
    assert bare_sentences_js(js, catalogue_ids()) == ['"Your code is lost."']
    py = tmp_path / "new.py"
    py.write_text(
        'from engine.words import _\n\ndef f(n):\n    return _("ok {n}", n=n) + f"{n} values were lost."\n'
    )
    assert bare_sentences_py(py) == [" values were lost."]  # an f-string's text, without its values


# --- The catalogue: up to date, and German complete --------------------------------------------------


def test_messages_pot_holds_every_message_the_code_marks(tmp_path):
    out = tmp_path / "messages.pot"
    subprocess.run(
        [str(Path(sys.executable).parent / "pybabel"), "-q", "extract", "-F", "babel.cfg"]
        + ["-k", "N_", "-k", "t", "-k", "tn:1,2", "-o", str(out), "."],
        cwd=ROOT,
        check=True,
    )
    fresh = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(out.open("rb")) if m.id}
    kept = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(POT.open("rb")) if m.id}
    assert fresh - kept == set(), "messages.pot lacks these: run `make messages` and translate them"
    assert kept - fresh == set(), "messages.pot has messages no code says any more: run `make messages`"


PLACEHOLDER = re.compile(r"\{(\w+)\}|%\((\w+)\)s")


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


@pytest.mark.parametrize("lang", COMPLETE)
def test_a_complete_language_translates_every_message_with_its_placeholders(lang):
    po = read_po((ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb"))
    template = [m for m in read_po(POT.open("rb")) if m.id]
    problems = []
    for message in template:
        translated = po.get(message.id)
        forms = translated and (
            translated.string if isinstance(translated.string, tuple) else (translated.string,)
        )
        if not translated or not all(forms) or translated.fuzzy:
            problems.append(f"untranslated or fuzzy: {message.id!r}")
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set().union(*map(placeholders, ids))
        for form in forms:
            said = placeholders(form)
            # a plural form may leave the count out ("Der Ausdruck" for one); nothing else may go or come
            if said - wanted or (wanted - {"n"}) - said or (len(ids) == 1 and said != wanted):
                problems.append(f"placeholders {sorted(said)} != {sorted(wanted)}: {form!r}")
    assert problems == []


def test_plural_rules_are_parsed_not_evaluated():
    slavic = "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) "
    slavic += "? 1 : 2);"
    rule = words.plural_rule(slavic)
    assert [rule(n) for n in (1, 2, 5, 11, 21, 22, 25, 111)] == [0, 1, 2, 2, 0, 1, 2, 2]
    assert words.plural_rule("nplurals=2; plural=(n != 1);")(1) == 0
    with pytest.raises(ValueError):
        words.plural_rule("plural=__import__('os').system('true');")


def test_the_engine_speaks_the_catalogue_it_is_given_and_english_without_one():
    app = create_app({"TESTING": True})
    with app.test_request_context("/?lang=de"):
        german = i18n.catalogue()
    try:
        words.use(german)
        assert (
            words._("Your code defines no function backward(out).")
            == "Dein Code definiert keine Funktion backward(out)."
        )
        assert words.number(1234567) == "1.234.567"
        assert words.ngettext("once", "{n} times", 3) == "3-mal"
        assert words._("a message nobody translated") == "a message nobody translated"
    finally:
        words.use(None)
    assert (
        words._("Your code defines no function backward(out).")
        == "Your code defines no function backward(out)."
    )
    assert words.number(1234567) == "1,234,567"


def test_the_page_speaks_the_learners_choice_then_the_launch_then_the_course_then_the_browser():
    app = create_app({"TESTING": True, "LANGUAGE": "de"})
    client = app.test_client()
    german = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="de"' in german and "Prüfen" in german  # the course's language
    english = client.get("/?lang=en").get_data(as_text=True)
    assert '<html lang="en"' in english and ">Check</button>" in english  # the learner's own choice
    browser = create_app({"TESTING": True}).test_client()
    page = browser.get("/", headers={"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="de"' in page and "Zum Editor springen" in page
    assert '<html lang="en"' in browser.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
