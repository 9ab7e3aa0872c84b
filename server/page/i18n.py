"""The learner's language: which one a page speaks, its messages for the templates, the page and the engine.

One catalogue per language, gettext's: translations/<lang>/LC_MESSAGES/messages.po (from messages.pot,
which `pybabel extract` makes from the Python, the templates and the JavaScript: babel.cfg), compiled
to messages.mo by the Makefile. Flask-Babel translates the templates and the server's Python with it;
the page's scripts and the engine in the worker get the same messages as JSON through the page's config
(catalogue()). docs/translating.md says how a teacher adds a language.

Which language, first that applies (docs/hosting.md): the learner's own choice on the page (?lang=,
kept in local storage), the LTI launch's locale, the course's PLAYGROUND_LANGUAGE, the browser's
Accept-Language, English.
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.mofile import read_mo
from flask import Flask, current_app, g, request
from flask_babel import Babel, format_number

from engine import words
from server import ROOT
from server.page.plural import plural_tree

TRANSLATIONS = ROOT / "translations"
SOURCE = "en"  # the language the msgids are written in


def directories(app: Flask) -> list:
    """The folders the catalogues are read from: translations/, and any a test or a host adds before it."""
    extra = app.config.get("TRANSLATION_DIRECTORIES") or []
    return [*map(str, extra), str(TRANSLATIONS)]


def languages(app: Flask | None = None) -> list[str]:
    """The languages this server speaks: English and each with a compiled catalogue, in order."""
    return list(_languages(tuple(directories(app or current_app))))


@cache
def _languages(folders: tuple[str, ...]) -> tuple[str, ...]:
    """The folders' languages, looked for once (each request asks up to four times; the catalogues
    themselves are read once too, _catalogue)."""
    compiled = (mo for folder in folders for mo in Path(folder).glob("*/LC_MESSAGES/messages.mo"))
    found = {mo.parent.parent.name for mo in compiled}
    return (SOURCE, *sorted(found - {SOURCE}))


def known(code: object, app: Flask | None = None) -> str | None:
    """The language this server speaks for a code ("de", "de-DE", "de_AT"), or None."""
    if not isinstance(code, str) or not code or len(code) > 35:
        return None
    spoken = languages(app)
    tag = code.replace("-", "_")
    for candidate in (tag, tag.split("_")[0]):
        for lang in spoken:
            if lang.lower() == candidate.lower():
                return lang
    return None


def chosen() -> tuple[str, str]:
    """The page's language and what chose it: "learner", "launch", "course", "browser" or "default"."""
    if lang := known(request.args.get("lang")):
        return lang, "learner"
    if lang := known(g.get("launch_locale")):
        return lang, "launch"
    if lang := known(current_app.config.get("LANGUAGE")):
        return lang, "course"
    if lang := request.accept_languages.best_match(languages()):
        return lang, "browser"
    return SOURCE, "default"


def select_locale() -> str:
    """Flask-Babel's locale selector: the page's language."""
    return chosen()[0]


@cache
def _catalogue(lang: str, folders: tuple[str, ...]) -> dict:
    locale = Locale.parse(lang)
    symbols = {
        "decimal": locale.number_symbols["latn"]["decimal"],
        "group": locale.number_symbols["latn"]["group"],
    }
    result = {"language": lang, "messages": {}, "plural": words.ENGLISH_PLURAL, "numbers": symbols}
    if lang == SOURCE:
        return result
    for folder in folders:
        path = Path(folder) / lang / "LC_MESSAGES" / "messages.mo"
        if path.exists():
            with path.open("rb") as f:
                catalog = read_mo(f)
            break
    else:
        return result
    result["plural"] = plural_tree(catalog.plural_forms)
    for message in catalog:
        if not message.id or not message.string:
            continue
        if isinstance(message.id, (list, tuple)):
            forms = list(message.string)
            if all(forms):
                result["messages"][message.id[0]] = forms
        else:
            result["messages"][message.id] = message.string
    return result


def catalogue(lang: str | None = None) -> dict:
    """The messages of a language as the page and the engine read them: {"language", "messages" (msgid ->
    msgstr, or a list of plural forms), "plural" (the Plural-Forms rule, as server/page/plural.py's
    plural_tree parses it), "numbers" (decimal, group)}."""
    lang = lang or select_locale()
    return _catalogue(lang, tuple(directories(current_app)))


_speaking = threading.Lock()  # the engine's words are one module-wide catalogue: one language at a time


@contextmanager
def speaking(lang: str | None = None) -> Iterator[None]:
    """Let the engine's Python (engine/words.py) speak the page's language for a moment, in this process."""
    with _speaking:
        words.use(catalogue(lang))
        try:
            yield
        finally:
            words.use(None)


def choice() -> dict:
    """The language part of the page's config: the language, what chose it, the languages to switch to."""
    lang, by = chosen()
    return {
        "current": lang,
        "by": by,
        # a static export is one language, rendered once: nothing to switch to there
        "available": [
            {"code": code, "name": name_of(code)}
            for code in ([lang] if g.get("relative_urls") else languages())
        ],
    }


def name_of(code: str) -> str:
    """A language's name in itself ("Deutsch"), as the switch lists it."""
    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (UnknownLocaleError, ValueError):
        return code
    return name[:1].upper() + name[1:]


def init_app(app: Flask) -> None:
    """Translate the templates and the server's messages into the page's language."""
    Babel(app, locale_selector=select_locale, default_translation_directories=";".join(directories(app)))
    app.jinja_env.globals["format_number"] = format_number  # 1,000 in English, 1.000 in German
    app.jinja_env.globals["page_language"] = select_locale  # <html lang> of the pages besides the exercise
