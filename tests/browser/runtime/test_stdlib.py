"""The stdlib in the browser: the first visit fetches part of it; a learner can import the rest."""

from server import create_app
from tests.browser.hosts import Recorder
from tests.browser.pages import SEED, open_playground, watched_page
from tests.support import solutions

# Modules left out of the first download, used in backward, and whether this runtime was restored from the
# page's snapshot (Pyodide's own, private, record of how it was loaded: a probe for this test only).
LEARNER = """\
import decimal, fractions, statistics, unittest
import pyodide_js

print("restored", bool(getattr(pyodide_js._api.config, "_loadSnapshot", None)))


class Case(unittest.TestCase):
    def test_mean(self):
        self.assertEqual(statistics.mean([1, 2, 3]), 2)


assert unittest.TestResult().wasSuccessful()
""" + solutions.CORRECT.replace(
    "    out.grad = 1\n",
    "    out.grad = float(fractions.Fraction(1, 2) * 2) * float(decimal.Decimal(1))\n",
)


def lazy_requests(app):
    """The names of the stdlib's later archives the browser asked for, in order."""
    return [path.rsplit("/", 1)[1] for path, _ in app.requests if "/python_stdlib_lazy-" in path]


def test_learner_imports_outside_the_first_download(serve, context):
    app = Recorder(create_app({"TESTING": True, "TIME_LIMIT_MS": 30_000}))  # a busy machine fetches slowly
    url = serve.wsgi(app) + SEED
    page, assert_clean = watched_page(context, serve.origins)
    open_playground(page, url)
    first = [path.rsplit("/", 1)[1] for path, _ in app.requests if "/pyodide/" in path]
    assert "python_stdlib.zip" in first and lazy_requests(app) == []  # ready without the rest

    # Every Check runs in a runtime restored from the snapshot, the first too; each fetches what it imports.
    for _ in range(2):
        report = page.evaluate("s => window.playground.check(s)", LEARNER)
        assert report["error"] is None, report["error"]
        assert report["passed"] is True
        assert "restored True" in report["output"]["text"]
    fetched = lazy_requests(app)
    assert {"fractions.zip", "decimal.zip", "statistics.zip", "unittest.zip"} <= set(fetched)
    assert len(fetched) == len(set(fetched)) < 20  # each once (then from the cache), only what was imported
    assert_clean()


def test_a_module_that_is_not_there_is_still_an_import_error(page, base_url):
    open_playground(page, base_url)
    report = page.evaluate("s => window.playground.check(s)", "import no_such_module\n" + solutions.CORRECT)
    assert report["error"]["kind"] == "runtime"
    assert "No module named 'no_such_module'" in report["error"]["message"]
