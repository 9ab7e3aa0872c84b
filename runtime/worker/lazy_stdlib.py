"""Import the standard library modules left out of the first download, fetching them when first imported.

runtime/build/compile-stdlib.mjs puts this file in the python_stdlib.zip fetched at the first visit, as
_lazy_stdlib, with a sitecustomize that calls install(): Python's start-up imports sitecustomize, so
the finder is in place before the page snapshots the runtime. It holds no JavaScript object (a
snapshot must hold none): `js` and `pyodide_js` are looked up at each fetch.

The other modules are in a folder beside python_stdlib.zip (named with a hash of its contents, so it
can be kept for good), one archive per top-level module or package: fractions.zip, email.zip... The
first import of a module reads its archive with a synchronous request (the runtime runs in a worker,
where that is allowed), writes it to /lib and imports from it with zipimport. A runtime restored
from a snapshot has no files: it fetches an archive again when it needs it (the browser's cache
answers).
"""

import os
import sys
import zipimport

MOUNT = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}-lazy"  # where the archives are written


def fetch(url: str) -> bytes:
    """Read a URL synchronously: through the page or by XMLHttpRequest in a browser; the file in Node."""
    import js

    read = getattr(js, "backpropPlaygroundRead", None)  # runtime/worker/worker.js: the page fetches it
    if read is not None and (data := read(url)) is not None:
        return data.to_bytes()
    if hasattr(js, "XMLHttpRequest"):
        request = js.XMLHttpRequest.new()
        request.open("GET", url, False)
        request.responseType = "arraybuffer"
        request.send()
        if request.status != 200:
            raise OSError(f"{url}: HTTP {request.status}")
        return request.response.to_bytes()
    import json

    from pyodide.code import run_js  # Node, in the tests: read the file (Pyodide cannot take a Buffer)

    read = f"new Uint8Array(process.getBuiltinModule('fs').readFileSync({json.dumps(url)}))"
    return run_js(read).to_bytes()


class LazyStdlib:
    """A meta path finder for the modules not in the first archive: fetch theirs, let zipimport load them."""

    def __init__(self, folder: str, modules: frozenset[str]) -> None:
        self.folder = folder  # its name, beside python_stdlib.zip
        self.modules = modules  # every module in its archives, dotted
        self.fetches = 0

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.modules:
            return None
        archive = self.mounted(fullname)
        package = fullname.rpartition(".")[0]
        where = os.path.join(archive, *package.split(".")) if package else archive
        return zipimport.zipimporter(where).find_spec(fullname)

    def mounted(self, fullname: str) -> str:
        """The path of the archive holding a module, fetched first when it is not there."""
        top = fullname.partition(".")[0]
        archive = f"{MOUNT}/{top}.zip"
        if os.path.exists(archive):
            return archive
        try:
            import pyodide_js
        except ImportError:  # Pyodide is starting: its own modules must all be in the first archive
            raise ImportError(f"{fullname} is needed before Pyodide has started", name=fullname) from None
        url = f"{pyodide_js._api.config.indexURL}{self.folder}/{top}.zip"
        try:
            data = fetch(url)
        except Exception as exc:  # noqa: BLE001 - whatever failed, the import fails, saying why
            message = f"{fullname} is in Python's standard library, but it could not be downloaded"
            raise ImportError(f"{message} ({exc})", name=fullname) from None
        os.makedirs(MOUNT, exist_ok=True)
        with open(archive, "wb") as f:
            f.write(data)
        zipimport._zip_directory_cache.pop(archive, None)
        self.fetches += 1
        return archive


def install(folder: str, modules: list[str]) -> None:
    """Put the finder before the path finder, so a module left out of the first archive never reaches it."""
    finder = LazyStdlib(folder, frozenset(modules))
    where = next((i for i, f in enumerate(sys.meta_path) if getattr(f, "__name__", "") == "PathFinder"), 0)
    sys.meta_path.insert(where, finder)
