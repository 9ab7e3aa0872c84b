"""The page's Content Security Policy (which names the page's own inline scripts by their hashes), and
the headers only the page gets. Every response sends the policy (server/http/headers.py); a static
export's page carries it in a <meta> tag and its nginx block (server/export/).
"""

from collections.abc import Mapping

from runtime.server import bootstrap_hash
from server.page.first_paint import first_paint_hashes

# What the page needs, found by running it in Chromium with the policy on (tests/browser/test_hosting.py):
# - script-src 'wasm-unsafe-eval': Pyodide compiles its WebAssembly (WebAssembly.instantiateStreaming).
# - style-src 'unsafe-inline': CodeMirror mounts its styles as <style> elements in the document.
#   A nonce (EditorView.cspNonce) would make every page different, so no ETag, no 304 and no
#   static export; with scripts locked to this origin, inline styles cannot run code.
# - script-src <hash> blob:, worker-src 'self' (sw.js) blob: the runner frame (runtime/server.py): its
#   one inline script, allowed by its hash, imports the runner from a blob: URL, and its workers start
#   from blob: URLs: an opaque origin can load neither from this server's cache nor its service worker.
# - script-src <hash> <hash>: the page's two inline scripts, which put the saved code in the editor's
#   textarea before the first paint and start reading the kept snapshot (server/page/first_paint.py).
# Everything else (bundles, Pyodide, the engine archive, the favicon) comes from 'self'.
POLICY = (
    "default-src 'self'",
    f"script-src 'self' 'wasm-unsafe-eval' {bootstrap_hash()} {first_paint_hashes()} blob:",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
)


def content_security_policy(frame_ancestors: str | None) -> str:
    """The page's policy; frame_ancestors None for a <meta> tag, where the directive is ignored."""
    directives = [*POLICY, f"frame-ancestors {frame_ancestors}"] if frame_ancestors else list(POLICY)
    return "; ".join(directives)


def embeddable(config: Mapping) -> bool:
    """Whether pages of other origins may frame the page (PLAYGROUND_FRAME_ANCESTORS)."""
    return config["FRAME_ANCESTORS"].strip() not in ("'self'", "'none'")


def page_headers(config: Mapping) -> dict[str, str]:
    """Extra headers for the page: a course page that requires CORP may embed it when allowed to."""
    if config["CROSS_ORIGIN_ISOLATION"] and embeddable(config):
        return {"Cross-Origin-Resource-Policy": "cross-origin"}
    return {}
