"""LTI Dynamic Registration in Chromium: the LMS's page opens the registration URL in its iframe, the
page says what was registered in the administrator's language (and which names it asked for, and how to
share none), and its button tells the LMS's window it is done; a refusal's page likewise. axe finds nothing
serious on either, in English and German; both use the LMS pages' stylesheet, at 200 % zoom in light mode
and on a phone in dark mode, and the German says "Sie"."""

from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from server.lti.openid import CLAIMS
from tests.browser.axe import serious_violations
from tests.browser.lms_pages import LOOKS, assert_styled
from tests.browser.pages import watched_page
from tests.support.address import says_du

SAID = {
    "en": (
        "The playground is registered with",
        "Done: back to the LMS",
        "This registration URL was already used",
    ),
    "de": (
        "Der Playground ist bei",
        "Fertig: zurück zum LMS",
        "Diese Registrierungs-URL wurde schon verwendet",
    ),
}


def lms_page(browser, dyn_lms, lang: str, look: str):
    options = LOOKS[look][0]
    # the tool's certificate is from the tests' CA
    context = browser.new_context(ignore_https_errors=True, locale=lang, **options)
    origins = {f"127.0.0.1:{dyn_lms.platform_server.port}", f"localhost:{dyn_lms.tool.port}"}
    return context, *watched_page(context, origins)


def registration_frame(page, dyn_lms, url: str):
    """The LMS's page adding the tool at url; the tool's frame in it, once loaded."""
    page.goto(dyn_lms.platform.url + "add-tool?" + urlencode({"url": url}))
    page.frame_locator("#tool").locator("main").wait_for()
    return next(f for f in page.frames if "/lti/register?" in f.url)


@pytest.mark.parametrize("look", LOOKS)
@pytest.mark.parametrize("lang", SAID)
def test_the_registration_page_says_what_was_registered_and_tells_the_lms_it_is_done(
    browser, dyn_lms, lang, look, shoot
):
    registered, done, used = SAID[lang]
    context, page, assert_clean = lms_page(browser, dyn_lms, lang, look)
    url = dyn_lms.registration_url(dyn_lms.app)
    frame = registration_frame(page, dyn_lms, url)
    expect(frame.get_by_role("heading", level=1)).to_contain_text(f"{registered} {dyn_lms.issuer}")
    assert frame.evaluate("document.documentElement.lang") == lang
    names = frame.get_by_test_id("names")
    expect(names).to_contain_text(", ".join(c for c in CLAIMS if "name" in c))  # what it asked for
    expect(frame.locator("main")).to_contain_text("Never")  # and how to share none: Moodle's setting
    expect(frame.locator("main")).to_contain_text("Anonymous")  # Canvas's
    assert serious_violations(frame) == []
    assert_styled(frame, look)
    assert says_du(frame.locator("body").inner_text()) == []
    shoot(page, f"registered-{lang}-{look}")
    frame.get_by_role("button", name=done).scroll_into_view_if_needed()
    shoot(page, f"registered-{lang}-{look}-end")  # the frame scrolled to its end: the names, the button
    frame.get_by_role("button", name=done).click()
    expect(page.locator("#messages li")).to_have_text(['{"subject":"org.imsglobal.lti.close"}'])

    frame = registration_frame(page, dyn_lms, url)  # the same URL again: refused, and nothing posted
    expect(frame.get_by_role("heading", level=1)).to_have_text(used)
    shoot(page, f"used-{lang}-{look}")
    assert serious_violations(frame) == []
    assert_styled(frame, look)
    assert says_du(frame.locator("body").inner_text()) == []
    assert frame.get_by_role("button").count() == 0
    expect(page.locator("#messages li")).to_have_count(0)
    assert_clean()
    context.close()
