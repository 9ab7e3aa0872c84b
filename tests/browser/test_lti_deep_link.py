"""The Deep Linking pages in Chromium, as a teacher adding an exercise sees them, in English and German: the
served exercises by their titles, then the chosen one's verdicts and the languages, each in a plain form
(no script), the choice said again, and the click that adds the activity to the LMS with it (each form
allowed by the page's CSP). axe finds nothing serious on any of the pages; each uses the LMS pages'
stylesheet, at 200 % zoom in light mode and on a phone in dark mode, and the German says "Sie"."""

from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.browser.axe import serious_violations
from tests.browser.lms_pages import LOOKS, assert_styled
from tests.browser.pages import watched_page
from tests.support.address import says_du

SAID = {
    "en": (
        "Run backpropagation in the right order",
        "What a pass means in this activity",
        "The right order on every graph",
        "Continue",
        "Add to the course",
    ),
    "de": (
        "Backpropagation in der richtigen Reihenfolge ausführen",
        "Was Bestehen in dieser Aktivität bedeutet",
        "Die richtige Reihenfolge auf jedem Graphen",
        "Weiter",
        "Zum Kurs hinzufügen",
    ),
}


@pytest.mark.parametrize("look", LOOKS)
@pytest.mark.parametrize("lang", SAID)
def test_a_teacher_chooses_strict_and_german_and_adds_the_activity(browser, lms, lang, look, shoot):
    seed, legend, strict, go_on, add = SAID[lang]
    options = LOOKS[look][0]
    # the tool's certificate is from the tests' CA
    context = browser.new_context(ignore_https_errors=True, locale=lang, **options)
    origins = {f"127.0.0.1:{lms.platform_server.port}", f"localhost:{lms.tool.port}"}
    page, assert_clean = watched_page(context, origins)
    before = len(lms.platform.content_items)
    lms.platform.people[f"teacher-{lang}"] = {"locale": lang}  # the teacher's LMS language
    page.goto(lms.platform.url + "start?" + urlencode({"user": f"teacher-{lang}", "link": "deep-link"}))
    expect(page.get_by_test_id("lti-deep-link")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == lang
    assert serious_violations(page) == []  # the served exercises, each by its title in the teacher's language
    assert_styled(page, look)
    assert says_du(page.locator("body").inner_text()) == []
    shoot(page, f"exercise-{lang}-{look}")
    page.get_by_role("radio", name=seed).check()
    page.get_by_role("button", name=go_on).click()
    expect(page.get_by_role("group", name=legend)).to_be_visible()
    assert serious_violations(page) == []
    assert_styled(page, look)
    assert says_du(page.locator("body").inner_text()) == []
    wide = "els => els.map((e) => e.getBoundingClientRect()).every((box) => box.width > box.height)"
    assert page.locator("fieldset code").evaluate_all(wide)  # each verdict's name on a line, not squeezed
    shoot(page, f"choose-{lang}-{look}")

    page.get_by_role("radio", name=strict).check()
    page.get_by_role("radio", name="Deutsch").check()
    page.get_by_role("button", name=go_on).click()
    expect(page.get_by_role("button", name=add)).to_be_visible()
    expect(page.get_by_test_id("lti-deep-link")).to_contain_text("strict")
    assert serious_violations(page) == []
    assert_styled(page, look)
    assert says_du(page.locator("body").inner_text()) == []
    shoot(page, f"add-{lang}-{look}")
    page.get_by_role("button", name=add).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Added 1 activity")
    custom = {"exercise": "backward", "verdict": "strict", "language": "de"}
    assert lms.platform.content_items[before]["custom"] == custom
    assert_clean()
    context.close()
