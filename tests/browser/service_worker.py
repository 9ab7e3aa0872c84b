"""What the page's service worker keeps: the names of its caches, and the wait until it keeps this build."""

from playwright.sync_api import expect

from server.page.names import NAMES

FILES_CACHE = NAMES["caches"]["files"]
SNAPSHOT_CACHE = NAMES["caches"]["snapshot"]  # the lead's cache: the worker must leave it alone


def kept_offline(page):
    """Wait until the service worker has cached this build and controls the page."""
    expect(page.locator("html")).to_have_attribute("data-offline", "kept")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
