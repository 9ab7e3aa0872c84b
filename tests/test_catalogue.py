"""The message catalogue: every learner-facing string is in it, and German has every message.

A new sentence written as a bare literal in a module that speaks to the learner fails here, as does a
message extracted but not translated (or fuzzy), a translation that loses or invents a placeholder,
and a messages.pot that `make messages` has not brought up to date.
"""

import ast
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from engine import words
from server import create_app
from server.exercises import presets
from server.page import i18n
from server.page.assets import engine_archive
from server.page.plural import plural_tree
from tests.support.served_page import SEED

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "translations" / "messages.pot"
COMPLETE = ["de"]  # the languages that must have every message

# The engine's modules that write the learner's messages (the rest compute, and say nothing).
# Paths from engine/: the seed's plugin (the grader's words for the seed's exercise) runs there too.
ENGINE_SPEAKERS = [
    "errors.py",
    "grade.py",
    "learner_side.py",
    "output.py",
    "outputs.py",
    "plugin.py",
    "report.py",
    "scratch.py",
    "../exercises/backward/plugin/__init__.py",
    "../exercises/backward/plugin/diagnose.py",
    "../exercises/backward/plugin/expressions.py",
]
# The server's modules that answer a learner: the LTI launch's refusals (and Deep Linking's, which a teacher
# gets from the launch) and grade line, /verify's refusals and errors, the page's config, a refused frame.
# Their logs are for whoever hosts it, in English; so are
# (HOSTING) the reasons a check of the LMS's launch gives, inside a translated sentence, what /verify says
# to a script that posts no JSON (the page always does), and why the server does not start.
SERVER_SPEAKERS = [
    "server/lti/views.py",
    "server/lti/deep_linking.py",
    "server/lti/refusals.py",
    "server/lti/oidc.py",
    "server/lti/grades.py",
    "server/verify/views.py",
    "server/learners/who.py",
    "server/page/page.py",
    "server/page/embed.py",
]
HOSTING = {
    "server/lti/views.py": {"a claim of the wrong kind: "},
    "server/lti/oidc.py": {"the LMS's keys could not be had: "},
    "server/verify/views.py": {
        'Send JSON {"source": "<your code>"}, with the code as text.',
        "PLAYGROUND_VERIFY=1, but no sandbox can start, so no learner code will run here: ",
    },
}
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
NOT_YET: set[str] = set()


def sentence(text: str) -> bool:
    """Whether a literal reads like something said to a learner: two words or more, and a capital first
    word, three words, or prose punctuation ("Show a hint", "values were lost.", "right, wrong")."""
    found = re.findall(r"[A-Za-zÀ-ÿ]{2,}", text)
    if len(found) < 2 or not re.search(r"[A-Za-zÀ-ÿ]{2,}[,;:]? +[A-Za-zÀ-ÿ]", text):
        return False
    return bool(
        re.match(r"\s*[A-Z][a-z]", text) or len(found) >= 3 or re.search(r"[,;!?…’()]|\.(\s|$)", text)
    )


# --- Python: every sentence a literal in a call of _(), ngettext() or N_() ----------------------------


PY_CALLS = ("_", "ngettext", "N_", "gettext")  # the engine's (engine/words.py) and Flask-Babel's
MATCHING = ("compile", "search", "match", "fullmatch", "startswith", "endswith")  # re's and str's
LOGGED = ("debug", "info", "warning", "error", "exception")  # a logger's


def bare_sentences_py(path: Path) -> list[str]:
    """The sentence-like string literals of a module that are not a catalogue call's argument."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside: set[int] = set()
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in PY_CALLS:
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
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in LOGGED:
            inside.update(id(n) for n in ast.walk(node))  # the server's log: for whoever hosts it, in English
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


@pytest.mark.parametrize("name", SERVER_SPEAKERS)
def test_every_sentence_the_server_says_to_a_learner_is_a_catalogue_call(name):
    found = [s for s in bare_sentences_py(ROOT / name) if s not in HOSTING.get(name, set())]
    assert found == [], f"{name} says these outside gettext()/N_(): {found}"


def test_every_example_of_the_scratch_pad_is_titled_by_a_message():
    ids = {m.id for m in read_po(POT.open("rb")) if isinstance(m.id, str)}
    assert [p["title"] for p in presets.PRESETS if p["title"] not in ids] == []


# --- JavaScript: every sentence a literal in t(), tn() or N_() ----------------------------------------
# A small lexer (strings, template literals and their ${...}, comments, regular expressions, brackets):
# a literal counts as in the catalogue only inside a call of t(), tn() or N_(), not for being a msgid
# somewhere else. Calls that speak to developers only (the console, performance marks, selectors) are
# left out, as are the few Errors listed in DEVELOPER that no learner sees.

CATALOGUE_CALLS = {"t", "tn", "N_"}
QUIET_CALLS = {"log", "info", "warn", "error", "debug", "mark", "measure", "matchMedia", "querySelector"}
QUIET_CALLS |= {"querySelectorAll", "closest", "getElementById", "import"}
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {"", "return", "typeof", "case", "else", "in", "of", "await"}
IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
# Errors a learner never reads, each with why: a programming mistake of the page's, a refusal to learner
# code that asked the runtime for a file it may not read (Python reports it as its own OSError), and the
# console's note on a snapshot that could not be kept.
DEVELOPER = {
    "runtime/page/reports.js": {"not an error kind: {x}"},
    "runtime/page/client.js": {  # the client's own mistakes; the page never asks a second task at once
        "the runtime cannot go from {x} to {x}",
        "the runtime runs one task at a time: a {x} is under way",
        "the runtime is not ready",  # switchTo refused: the page loads the other exercise in full
    },
    "static/js/page/course-nav.js": {  # why the page loads the next exercise in full: on the console
        "a Check, a Run or a verification is under way",
        "another build or a launch",
        "a Check was asked meanwhile",
        "another language",
    },
    "runtime/page/files.js": {"only the standard library's archives can be read"},
    "runtime/page/stored-snapshot.js": {"local storage is blocked"},
}


def js_literals(src: str) -> list[tuple[str, str, bool]]:
    """Every string literal of a script: (its text, ${...} written {x}; as written; whether it is inside a
    catalogue call or a developer's call)."""
    found: list[tuple[str, str, bool]] = []
    stack: list[bool] = []  # per open bracket: whether it opens a catalogue or developer call
    n = len(src)
    last = ""  # the last token: a / after it starts a regular expression, or divides

    def string(i: int) -> int:
        j = i + 1
        while j < n and src[j] != src[i]:
            j += 2 if src[j] == "\\" else 1
        found.append((src[i + 1 : j], src[i : j + 1], any(stack)))
        return j + 1

    def template(i: int) -> int:
        j, text = i + 1, []
        at = len(found)
        while j < n and src[j] != "`":
            if src[j] == "\\":
                text.append(src[j : j + 2])
                j += 2
            elif src.startswith("${", j):
                text.append("{x}")
                j = code(j + 2, "}")
            else:
                text.append(src[j])
                j += 1
        found.insert(at, ("".join(text), src[i : j + 1], any(stack)))
        return j + 1

    def regex(i: int) -> int:
        j, in_class = i + 1, False
        while j < n and (src[j] != "/" or in_class):
            if src[j] == "\\":
                j += 1
            elif src[j] in "[]":
                in_class = src[j] == "["
            j += 1
        j += 1
        while j < n and src[j].isalpha():
            j += 1
        return j

    def code(i: int, closing: str = "") -> int:
        nonlocal last
        depth = len(stack)
        while i < n:
            c = src[i]
            if c.isspace():
                i += 1
            elif src.startswith("//", i):
                end = src.find("\n", i)
                i = n if end < 0 else end
            elif src.startswith("/*", i):
                end = src.find("*/", i + 2)
                i = n if end < 0 else end + 2
            elif c in "\"'":
                i, last = string(i), "string"
            elif c == "`":
                i, last = template(i), "string"
            elif c == "/" and last in REGEX_AFTER:
                i, last = regex(i), "regex"
            elif m := IDENTIFIER.match(src, i):
                word, j = m[0], m.end()
                while j < n and src[j].isspace():
                    j += 1
                if j < n and src[j] == "(":
                    called = word in CATALOGUE_CALLS and src[:i].rstrip()[-1:] != "."
                    stack.append(called or word in QUIET_CALLS)
                    i, last = j + 1, "("
                else:
                    i, last = m.end(), word if word in REGEX_AFTER else "name"
            elif c in "([{":
                stack.append(False)
                i, last = i + 1, c
            elif c in ")]}":
                if closing == c and len(stack) == depth:
                    return i + 1
                if stack:
                    stack.pop()
                i, last = i + 1, c
            else:
                i, last = i + 1, c
        return i

    code(0)
    return found


def bare_sentences_js(path: Path) -> list[str]:
    """The sentence-like string literals of a script outside every catalogue (and developer) call."""
    name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    developer = DEVELOPER.get(name, set())
    return [
        written
        for text, written, called in js_literals(path.read_text(encoding="utf-8"))
        if not called and sentence(text) and text not in developer
    ]


@pytest.mark.parametrize("name", [n for n in JS_SPEAKERS if n not in NOT_YET])
def test_every_sentence_of_the_page_is_a_catalogue_call(name):
    found = bare_sentences_js(ROOT / name)
    assert found == [], f"{name} says these outside t()/tn()/N_(): {found}"


def test_the_not_yet_list_names_only_files_that_still_have_sentences_of_their_own():
    done = [name for name in NOT_YET if not bare_sentences_js(ROOT / name)]
    assert done == [], f"these files are in the catalogue now: take them off NOT_YET: {done}"


def test_a_new_bare_sentence_is_found(tmp_path):
    """The finders find what they are for: a sentence added as a bare literal, in JS and in Python."""
    js = tmp_path / "new.js"
    js.write_text(
        'import { t } from "./i18n.js";\n'
        'el.textContent = t("Check") + `${t("Checking…")}`; // "Your code is gone", says a comment\n'
        'el.title = "Your code is lost.";\n'
        'button.textContent = shown ? "Show a hint" : t("Show a hint");\n'  # a msgid, but not looked up
        'status.textContent = `${n} lines for the editor, ${t("and {n} more", { n })}`;\n'
        'x = a / 2 + "it was not drawn, twice" / 3; y = /it "is" a regex/g.test(s);\n'
    )
    assert bare_sentences_js(js) == [
        '"Your code is lost."',
        '"Show a hint"',
        '`${n} lines for the editor, ${t("and {n} more", { n })}`',
        '"it was not drawn, twice"',
    ]
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
        env={**os.environ, "PYTHONPATH": str(ROOT)},  # babel.cfg's server.exercises.comments.extract
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


# The page's buttons, which its sentences name ("Check also grades..."): a translation names them as its
# buttons say them. Once a German sentence said "Check bewertet..." beside a button that says „Prüfen“.
BUTTONS = ["Check", "Run", "Reset", "Stop", "Retry", "Copy link", "Show a hint"]


@pytest.mark.parametrize("lang", COMPLETE)
def test_a_translation_names_the_buttons_by_their_names_in_it(lang):
    po = read_po((ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb"))
    said = {m.id: m.string for m in po if m.id}
    problems = []
    for button in BUTTONS:
        if said.get(button) in (None, "", button):
            continue  # not a message, or the same word in this language
        english = re.compile(rf"\b{re.escape(button)}\b")
        for message in po:
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.id and message.id != button and any(english.search(form or "") for form in forms):
                problems.append(f"{button!r} (here {said[button]!r}) in {forms[0]!r}")
    assert problems == []


def test_plural_rules_are_parsed_not_evaluated():
    slavic = "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) "
    slavic += "? 1 : 2);"
    tree = plural_tree(slavic)
    assert [words.plural_index(tree, n) for n in (1, 2, 5, 11, 21, 22, 25, 111)] == [0, 1, 2, 2, 0, 1, 2, 2]
    assert plural_tree("nplurals=2; plural=(n != 1);") == words.ENGLISH_PLURAL
    assert [words.plural_index(words.ENGLISH_PLURAL, n) for n in (0, 1, 2)] == [1, 0, 1]
    assert json.loads(json.dumps(tree)) == tree  # handed to the page and the engine as JSON
    with pytest.raises(ValueError):
        plural_tree("plural=__import__('os').system('true');")


def test_the_parser_of_plural_rules_is_not_in_the_engine_the_browser_gets():
    with zipfile.ZipFile(io.BytesIO(engine_archive())) as archive:
        engine = b"".join(archive.read(name) for name in archive.namelist())
    assert b"def plural_index" in engine and b"def plural_tree" not in engine  # evaluated there, parsed here


@pytest.mark.slow  # grades in many processes
def test_the_engine_speaks_the_catalogue_it_is_given_and_english_without_one():
    app = create_app({"TESTING": True})
    with app.test_request_context("/?lang=de"):
        german = i18n.catalogue()
    try:
        words.use(german)
        said = words._("Your code defines no function {name}.", name="backward(out)")
        assert said == "Dein Code definiert keine Funktion backward(out)."
        assert words.number(1234567) == "1.234.567"
        assert words.ngettext("once", "{n} times", 3) == "3-mal"
        assert words._("a message nobody translated") == "a message nobody translated"
    finally:
        words.use(None)
    said = words._("Your code defines no function {name}.", name="backward(out)")
    assert said == "Your code defines no function backward(out)."
    assert words.number(1234567) == "1,234,567"


def test_the_page_speaks_the_learners_choice_then_the_launch_then_the_course_then_the_browser():
    app = create_app({"TESTING": True, "LANGUAGE": "de"})
    client = app.test_client()
    german = client.get(SEED, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="de"' in german and "Prüfen" in german  # the course's language
    english = client.get(SEED + "?lang=en").get_data(as_text=True)
    assert '<html lang="en"' in english and ">Check</button>" in english  # the learner's own choice
    browser = create_app({"TESTING": True}).test_client()
    page = browser.get(SEED, headers={"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="de"' in page and "Zum Editor springen" in page
    assert '<html lang="en"' in browser.get(SEED, headers={"Accept-Language": "fr"}).get_data(as_text=True)
