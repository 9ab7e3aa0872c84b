"""The page in the learner's language: German end to end, the switch, and a pseudo-language that shows
every text the page shows that does not come from the catalogue.

The pseudo-language ("eo" here, a locale Babel knows that the playground does not ship) wraps every
message of messages.pot in ⟦ ⟧: a visible text or label without them was written outside the catalogue.
"""

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from playwright.sync_api import expect

from server import ROOT
from tests.browser.axe import serious_violations
from tests.browser.pages import (
    SEED,
    TIME_LIMIT_MS,
    answer,
    open_playground,
    tab,
    wait_for_pictures,
)
from tests.support import solutions

# Not messages: the worked examples' numbers, Python's own exception texts (as Python says them), and in a
# picture's table the Value's attribute as code names it ("data") and the labels and formulas of values.
DATA = re.compile(r"^((\w+(\.grad)? = [-\d.e]+)(, )?)+$|^[A-Z]\w*(Error|Exception): |^data$")


def pseudo_catalogue(folder: Path) -> None:
    """Compile a catalogue of every message wrapped in ⟦ ⟧ (placeholders kept) for the language eo."""
    template = read_po((ROOT / "translations" / "messages.pot").open("rb"))
    pseudo = Catalog(locale="eo")
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            pseudo.add(message.id, tuple(f"⟦{form}⟧" for form in message.id))
        else:
            pseudo.add(message.id, f"⟦{message.id}⟧")
    target = folder / "eo" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "messages.mo").open("wb") as f:
        write_mo(f, pseudo)


@pytest.fixture(scope="module")
def pseudo_url(serve, tmp_path_factory):
    folder = tmp_path_factory.mktemp("pseudo")
    pseudo_catalogue(folder)
    return serve(TIME_LIMIT_MS=TIME_LIMIT_MS, TRANSLATION_DIRECTORIES=[str(folder)]) + SEED + "?lang=eo"


# Every visible text, aria-label and title on the page that is not code, a number or the learner's own:
# each with the nearest block around it, which must hold a ⟦ (a message with <code> inside is one block).
UNWRAPPED = """() => {
  // [data-words=exercise]: the exercise's own words, from its folder (statement, hints, its mistakes')
  const skip = "pre, code, textarea, .cm-editor, .code-view, #engine-source, script, style, svg text, option,"
    + " [data-words=exercise]";
  const inline = new Set(["CODE", "STRONG", "EM", "A", "SPAN", "KBD", "B", "I", "LABEL", "SUMMARY"]);
  const seen = (el) => el.checkVisibility ? el.checkVisibility() : el.offsetParent !== null;
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const parent = node.parentElement;
    if (!text || !/[A-Za-z]{2,}/.test(text) || parent.closest(skip) || !seen(parent)) continue;
    let block = parent;
    while (inline.has(block.tagName) && block.parentElement) block = block.parentElement;
    if (!block.textContent.includes("⟦")) found.push(text);
  }
  for (const el of document.querySelectorAll("[aria-label], [title]")) {
    for (const name of ["aria-label", "title"]) {
      const value = el.getAttribute(name);
      const said = value && /[A-Za-z]{2,}/.test(value) && !value.includes("⟦");
      if (said) found.push(value);
    }
  }
  return [...new Set(found)];
}"""


def test_every_text_the_page_shows_comes_from_the_catalogue(page, pseudo_url):
    open_playground(page, pseudo_url)
    assert page.evaluate("document.documentElement.lang") == "eo"
    states = {}
    states["loaded"] = page.evaluate(UNWRAPPED)
    page.locator("#statement-more").evaluate("d => (d.open = true)")
    page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
    for graph in page.locator("[data-testid=graph]").all():
        graph.evaluate("d => (d.open = true)")
    wait_for_pictures(page)
    states["wrong"] = page.evaluate(UNWRAPPED)
    page.evaluate("window.playground.check('def backward(out):\\n    1 / 0\\n')")
    expect(page.get_by_test_id("error")).to_be_visible()
    states["error"] = page.evaluate(UNWRAPPED)
    page.get_by_test_id("run").click()
    expect(page.get_by_test_id("run-status")).not_to_be_empty()
    states["run"] = page.evaluate(UNWRAPPED)
    page.locator("#hint").click()
    page.get_by_test_id("share").click()
    expect(page.get_by_test_id("share-status")).not_to_be_empty()
    states["a hint, a share link"] = page.evaluate(UNWRAPPED)
    page.locator("#reset").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    states["a question"] = page.evaluate(UNWRAPPED)
    answer(page, yes=False)
    outside = {state: [t for t in found if not DATA.match(t)] for state, found in states.items()}
    said = [f"{state}: {text!r}" for state, found in outside.items() for text in found]
    assert said == [], "shown but not from the catalogue:\n" + "\n".join(said)


def test_a_german_learner_does_the_exercise_in_german(page, serve, base_url, shoot):
    page.set_extra_http_headers({"Accept-Language": "de-DE,de;q=0.9"})
    open_playground(page, base_url)
    assert page.evaluate("document.documentElement.lang") == "de"
    expect(page.locator("h1")).to_have_text("Backpropagation in der richtigen Reihenfolge ausführen")
    expect(page.locator(".lede")).to_contain_text("Setze out.grad auf 1")
    expect(page.get_by_test_id("expressions")).to_contain_text("ein Neuron mit zwei Eingaben")
    expect(page.get_by_test_id("runtime-status")).to_have_text("Python-Laufzeit bereit.")
    assert serious_violations(page) == []

    page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)  # a wrong answer
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_contain_text("von 3 Ausdrücken sind richtig.")
    expect(verdict).to_contain_text("Dein backward ruft _backward() von den Blättern zu out hin auf")
    neuron = page.locator("section.expr[data-expr=neuron]")
    expect(neuron.locator("h4").first).to_have_text("Was schiefging")
    expect(neuron.locator("table.case th").first).to_have_text("Blatt")
    graph = page.locator("[data-testid=graph][data-graph-of=neuron]")
    wait_for_pictures(page)
    expect(graph.locator("summary").first).to_have_text("Graph von neuron")
    wrong = graph.locator("g.value[data-wrong=true]").first
    expect(wrong).to_have_attribute("aria-label", re.compile(r", erwartet [-−\d.]+: falsch"))
    expect(graph.locator(".graph-legend")).to_contain_text("ein Kreuz und ein dicker Rand")
    expect(graph.get_by_role("button", name="Vergrößern")).to_be_visible()
    wrong.focus()  # its note, under the picture
    expect(graph.get_by_test_id("graph-note")).to_contain_text("falsch: erwartet")
    assert serious_violations(page) == []
    shoot(page, "de-wrong-desktop")

    page.evaluate("window.playground.check('def backward(out):\\n    1 / 0\\n')")  # an error
    error = page.get_by_test_id("error")
    expect(error.locator("h3")).to_have_text("Dein Code hat einen Fehler ausgelöst")
    expect(error).to_contain_text("Traceback (nur dein Code):")
    expect(error).to_contain_text("ZeroDivisionError: division by zero")  # Python's own words stay
    expect(error).to_contain_text("Zeile 2 von deinem Code (im Editor markiert).")
    assert serious_violations(page) == []

    # The deep chain's graph is too big to draw: its count as German writes it (1.002, not 1,002).
    expect(page.locator("body")).to_contain_text(re.compile(r"Dieser Graph hat 1\.\d{3} Werte"))

    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
    wait_for_pictures(page)
    shoot(page, "de-wrong-phone")
    assert serious_violations(page) == []


def test_the_learner_switches_language_and_the_choice_is_kept(page, base_url):
    open_playground(page, base_url)
    assert page.evaluate("document.documentElement.lang") == "en"
    switch = page.get_by_label("Language")
    switch.focus()
    expect(switch).to_be_focused()  # reached as any control is: a labelled select
    switch.select_option("de")
    page.wait_for_url(re.compile(r"lang=de"))
    page.wait_for_function("() => window.playground !== undefined")
    expect(page.locator("h1")).to_have_text("Backpropagation in der richtigen Reihenfolge ausführen")
    page.goto(base_url)  # the next visit, with no ?lang: the kept choice wins over the browser's English
    page.wait_for_url(re.compile(r"lang=de"))
    page.wait_for_function("() => window.playground !== undefined")
    assert page.evaluate("document.documentElement.lang") == "de"
    page.get_by_label("Sprache").select_option("en")
    page.wait_for_url(re.compile(r"lang=en"))
    page.wait_for_function("() => window.playground !== undefined")
    expect(page.locator("h1")).to_have_text("Run backpropagation in the right order")


CUT_OFF = """() => {
  const width = document.documentElement.clientWidth;
  const seen = (el) => el.checkVisibility() && !el.closest(".visually-hidden") && el.getClientRects().length;
  const said = "button, select, label, summary, h1, h2, .site, [data-testid=verdict]";
  const controls = document.querySelectorAll(said);
  const cut = [...controls].filter(seen).filter((el) => {
    const box = el.getBoundingClientRect();
    return box.left < 0 || box.right > width + 0.5 || el.scrollWidth > el.clientWidth + 1;
  });
  const sideways = document.documentElement.scrollWidth > width;
  return { sideways, cut: cut.map((el) => el.outerHTML.slice(0, 80)) };
}"""


@pytest.mark.parametrize("screen", [(390, 844, 3), (683, 450, 2)], ids=["phone", "200 % zoom"])
def test_the_german_page_fits_a_phone_and_200_percent_zoom(learner_page, base_url, screen, shoot):
    """German words are longer: nothing is cut off or squeezed, the masthead's tools go below its line."""
    width, height, scale = screen
    page = learner_page(viewport={"width": width, "height": height}, device_scale_factor=scale)
    open_playground(page, base_url + "?lang=de")
    site, tools = page.locator(".site").bounding_box(), page.locator(".masthead .tools").bounding_box()
    assert site["width"] >= 0.45 * width  # the site's line is not squeezed into a column beside the tools
    assert tools["x"] >= 0 and tools["x"] + tools["width"] <= width
    assert page.evaluate(CUT_OFF) == {"sideways": False, "cut": []}
    page.locator("#statement-more").evaluate("d => (d.open = true)")
    page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
    page.locator("details").evaluate_all("ds => ds.forEach(d => (d.open = true))")
    wait_for_pictures(page)
    assert page.evaluate(CUT_OFF) == {"sideways": False, "cut": []}
    shoot(page, f"de-{width}-wrong")


def test_the_keyboard_walks_the_german_page_in_german(page, base_url):
    open_playground(page, base_url + "?lang=de")
    assert tab(page) == "a# Zum Editor springen"
    assert tab(page) == "a# Zu den Ergebnissen springen"
    assert tab(page).startswith("a# Backpropagation Schritt für Schritt")  # the course's map, in German
    assert tab(page).startswith("a# Zurück: ")
    assert tab(page).startswith("a# Weiter: ")
    assert tab(page).startswith("select#language ")
    assert tab(page) == "button#theme Dunkles Design"
    assert tab(page).startswith("summary# Die ganze Übung")
    assert tab(page) == "input#wrap "
    expect(page.get_by_role("checkbox", name="Lange Zeilen umbrechen")).to_be_focused()
    assert tab(page) == "div# Deine Funktion backward(out)"
    page.keyboard.press("Escape")  # Esc, then Tab leaves the editor, as the German note under it says
    expect(page.locator("#editor-keys")).to_contain_text("drücke Esc, dann Tab")
    assert [tab(page) for _ in range(3)] == [
        "button#check Prüfen",
        "button#reset Zurücksetzen",
        "button#share Link kopieren",
    ]
    assert tab(page, "Shift+Tab") == "button#reset Zurücksetzen"
    page.keyboard.press("Enter")  # Zurücksetzen: the in-page question, in German, its safe answer focused
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Deinen Code durch den Startcode ersetzen?")
    expect(dialog.get_by_role("button", name="Meinen Code behalten")).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.get_by_role("button", name="Zurücksetzen")).to_be_focused()
