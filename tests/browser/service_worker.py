"""What the page's service worker keeps: the names of its caches, and the wait until it keeps this build."""

from playwright.sync_api import expect

from server.page.names import NAMES

FILES_CACHE = NAMES["caches"]["files"]
SNAPSHOT_CACHE = NAMES["caches"]["snapshot"]  # the lead's cache: the worker must leave it alone


SETTLED_MS = 30_000  # a worker's install fetches the whole build: seconds on a loaded, shared machine


def offline_state(page, state: str) -> None:
    """Wait until the page says how keeping it offline went (<html data-offline>: kept, off, removed,
    unavailable)."""
    expect(page.locator("html")).to_have_attribute("data-offline", state, timeout=SETTLED_MS)


def kept_offline(page):
    """Wait until the service worker has cached this build and controls the page."""
    offline_state(page, "kept")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
