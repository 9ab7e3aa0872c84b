"""The runner frame: where learner code runs, with no reach into the page's origin.

The page puts a `<iframe sandbox="allow-scripts" srcdoc=...>` beside itself. A sandboxed frame without
allow-same-origin has an opaque origin: its Cache Storage, IndexedDB, local storage and cookies
throw, it cannot be controlled by the page's service worker, and its requests carry `Origin: null`.
The workers it starts (from blob: URLs) share that opaque origin, so learner code, which runs in them,
can write nothing a later visit or a later Check reads. The frame's document is `srcdoc`, so it needs
no request (it works offline, in a static export, under any prefix) and inherits the page's
Content-Security-Policy and cross-origin isolation (with `allow="cross-origin-isolated *"`).

Its one script is BOOTSTRAP, below: it waits for the page's first message, which carries the runner's
code (static/js/runner/runner.js, fetched by the page: the frame's own requests are not cached), and imports
it from a blob: URL. The page's policy allows this exact script by its hash, and blob: scripts and
workers, nothing else inline.
"""

import base64
import hashlib
import json
from functools import cache

from server.names import NAMES

# Only the page (the frame's parent) may start the runner, and only once.
BOOTSTRAP = (
    "onmessage=(e)=>{"
    "if(e.source!==parent||typeof e.data?.runner!=='string'||!e.ports[0])return;"
    "onmessage=null;"
    "import(URL.createObjectURL(new Blob([e.data.runner],{type:'text/javascript'})))"
    ".then((m)=>m.start(e.ports[0]),(err)=>e.ports[0].postMessage({type:'broken',message:String(err)}));"
    "};"
    f"parent.postMessage({json.dumps(NAMES['runnerHello'])},'*');"
)


@cache
def bootstrap_hash() -> str:
    """The CSP source that allows BOOTSTRAP and no other inline script."""
    digest = hashlib.sha256(BOOTSTRAP.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def runner_document() -> str:
    """The frame's whole document, for its srcdoc attribute."""
    return f"<!doctype html><meta charset=utf-8><title>Python runner</title><script>{BOOTSTRAP}</script>"
