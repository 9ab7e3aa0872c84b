"""The runner frame: where learner code runs, with no reach into the page's origin.

The page puts a `<iframe sandbox="allow-scripts" srcdoc=...>` beside itself. A sandboxed frame without
allow-same-origin has an opaque origin: its Cache Storage, IndexedDB, local storage and cookies
throw, it cannot be controlled by the page's service worker, and its requests carry `Origin: null`.
The workers it starts (from blob: URLs) share that opaque origin, so learner code, which runs in them,
can write nothing a later visit or a later Check reads. The frame's document is `srcdoc`, so it needs
no request (it works offline, in a static export, under any prefix) and inherits the page's
Content-Security-Policy and cross-origin isolation (with `allow="cross-origin-isolated *"`).

Its one script is BOOTSTRAP, below: it waits for the page's first message, which carries the runner's
code (runtime/runner/runner.js, fetched by the page: the frame's own requests are not cached), and imports
it from a blob: URL. The page's policy allows this exact script by its hash, and blob: scripts and
workers, nothing else inline.

Pyodide's files: the Makefile copies them into static/build/pyodide/<version>/ with the standard library
split (build/compile-stdlib.mjs); the app serves that folder under a URL named by its contents.
"""

import base64
import hashlib
import json
from functools import cache
from pathlib import Path

from server.page.names import NAMES

ROOT = Path(__file__).resolve().parent.parent

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


def pyodide_folder() -> Path:
    """Where the Makefile puts Pyodide's files, for the pinned version."""
    return ROOT / "static" / "build" / "pyodide" / pyodide_version()


@cache
def pyodide_version() -> str:
    """The pinned Pyodide version (package.json): its files live in pyodide_folder()."""
    return json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]


@cache
def pyodide_path() -> str:
    """The Pyodide folder's URL path under /static/: the version and a hash of the folder's files.

    A rebuild at the same version (a new stdlib split, a new lock) gets a new URL, so browsers that
    keep the old files for a year, and the service worker, never mix them with the new ones.
    """
    folder = pyodide_folder()
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.name.startswith(".") and not is_variant(path):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return f"pyodide/{pyodide_version()}-{digest.hexdigest()[:12]}/"


@cache
def lazy_stdlib() -> str:
    """The folder of the stdlib's lazy archives in Pyodide's, as runtime/build/compile-stdlib.mjs named it."""
    split = pyodide_folder() / ".stdlib-split.json"
    return json.loads(split.read_text())["lazy"]


# The Pyodide files the page fetches and hands to the runner frame, whose own requests are not cached.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")


@cache
def pyodide_fetched_bytes() -> int:
    """How many bytes the page's fetches of Pyodide's files bring, as it counts them (decoded)."""
    folder = pyodide_folder()
    return sum((folder / name).stat().st_size for name in RUNTIME_FILES)


def is_variant(path: Path) -> bool:
    """Whether a file is a precompressed copy of another (.br, .gz)."""
    return path.suffix in (".br", ".gz") and path.with_suffix("").exists()
