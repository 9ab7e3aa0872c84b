"""The pages an LMS shows (templates/lms-page.html: Dynamic Registration's, Deep Linking's, the LTI
refusals): each is looked at as a teacher at 200 % zoom in light mode, and on a phone in dark mode."""

from tests.browser.pages import watched_page

# A look's context options, and the body's background classview.css gives it (none without the sheet).
LOOKS = {
    "zoom-light": (
        {"viewport": {"width": 640, "height": 800}, "device_scale_factor": 2, "color_scheme": "light"},
        "rgb(255, 255, 255)",
    ),
    "phone-dark": (
        {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "color_scheme": "dark"},
        "rgb(22, 24, 28)",
    ),
}

STYLED = """() => ({
  sheet: [...document.styleSheets].some((s) => (s.href || '').includes('/classview')),
  background: getComputedStyle(document.body).backgroundColor,
  margin: getComputedStyle(document.body).marginTop,
  fits: document.documentElement.scrollWidth <= window.innerWidth,
  // the sheet's rules for the pages' parts, not the browser's own: a button, the facts, a choice
  parts: [...document.querySelectorAll('button')].every((e) => getComputedStyle(e).cursor === 'pointer')
    && [...document.querySelectorAll('dl')].every((e) => getComputedStyle(e).display === 'grid')
    && [...document.querySelectorAll('fieldset label')].every((e) => getComputedStyle(e).display === 'flex'),
})"""


def assert_styled(frame, look: str) -> None:
    """The page (or frame) uses the stylesheet, in the look's colour scheme, with no sideways scroll."""
    said = frame.evaluate(STYLED)
    wanted = {"sheet": True, "background": LOOKS[look][1], "margin": "0px", "fits": True, "parts": True}
    assert said == wanted, said


def lms_windows(chromium, lms):
    """A fixture's body: open(**context options) gives a watched page of the LMS and the tool in a new
    context; every context's errors are checked, and it is closed, when the test is over."""
    made = []

    def open_(**options):
        context = chromium.new_context(ignore_https_errors=True, **options)
        origins = {f"127.0.0.1:{lms.platform_server.port}", f"localhost:{lms.tool.port}"}
        page, assert_clean = watched_page(context, origins)
        made.append((context, assert_clean))
        return page

    yield open_
    for context, assert_clean in made:
        assert_clean()
        context.close()
