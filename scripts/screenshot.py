"""Take docs/playground.png: the page after a wrong Check, in the Chromium a learner has (.chromium).

    .venv/bin/python -m scripts.screenshot [docs/playground.png]   (the full Chromium: make .chromium)

A real server on a free port, the learner's code with one mistake (the order not reversed), Check,
the failing expression's picture drawn; then a screenshot of the editor and the results, down to the
end of that picture.
"""

import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from server import create_app
from tests.browser.chromium import CHROMIUM_ARGS, chromium_path
from tests.support import solutions
from tests.support.served_page import SEED


def main() -> None:
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/playground.png")
    server = make_server("127.0.0.1", 0, create_app({"TESTING": True}), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(full=True), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800}, color_scheme="light")
        page.goto(f"http://127.0.0.1:{server.server_port}{SEED}")  # the seed's page: "/" lists the exercises
        page.wait_for_function("() => window.playground !== undefined")
        page.evaluate("window.playground.ready")
        page.evaluate("s => window.playground.check(s)", solutions.NOT_REVERSED)
        page.locator(
            "[data-testid=graph][open] [data-state=ready], [data-testid=graph][open][data-state=ready]"
        ).first.wait_for()
        page.evaluate("() => document.activeElement?.blur()")
        # The right column: the editor, the verdict, the first failing expression down to its picture.
        top = page.locator("#editor-title").bounding_box()
        expr = page.locator("[data-expr]").first.bounding_box()
        graph = page.locator("[data-expr] [data-testid=graph]").first.bounding_box()
        left, right = top["x"] - 12, expr["x"] + expr["width"] + 12
        bottom = graph["y"] + graph["height"] + 12
        clip = {"x": left, "y": top["y"] - 12, "width": right - left, "height": bottom - top["y"] + 12}
        page.screenshot(path=str(target), full_page=True, clip=clip)
        browser.close()
    server.shutdown()
    print(f"wrote {target} ({target.stat().st_size / 1000:.0f} kB)")


if __name__ == "__main__":
    main()
