"""Import the standard library modules left out of the first download, fetching them when first imported.

scripts/compile-stdlib.mjs puts this file in the python_stdlib.zip fetched at the first visit, as
_lazy_stdlib, with a sitecustomize that calls install(): Python's start-up imports sitecustomize, so
the finder is in place before the page snapshots the runtime. It holds no JavaScript object (a
snapshot must hold none): `js` and `pyodide_js` are looked up at each fetch.

The other modules are in one archive beside python_stdlib.zip (a name with its hash, so it can be
kept for good). The first import of one of them reads it with a synchronous request (the runtime
runs in a worker, where that is allowed), writes it to /lib and imports from it with zipimport.
A runtime restored from a snapshot has no files: it fetches the archive again when it needs it
(the browser's cache answers).
"""

import os
import sys
import zipimport

MOUNT = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}-lazy.zip"


def fetch(url: str) -> bytes:
    """Read a URL synchronously: XMLHttpRequest in a browser's worker, the file system in Node."""
    import js

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
    """A meta path finder for the modules of the second archive: fetch it, then let zipimport load them."""

    def __init__(self, archive: str, modules: frozenset[str]) -> None:
        self.archive = archive  # its file name, beside python_stdlib.zip
        self.modules = modules  # every module in it, dotted
        self.fetches = 0

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.modules:
            return None
        archive = self.mounted(fullname)
        package = fullname.rpartition(".")[0]
        where = os.path.join(archive, *package.split(".")) if package else archive
        return zipimport.zipimporter(where).find_spec(fullname)

    def mounted(self, fullname: str) -> str:
        """The archive's path, fetched first when it is not there (a new runtime, or one restored)."""
        if not os.path.exists(MOUNT):
            import pyodide_js

            url = pyodide_js._api.config.indexURL + self.archive
            try:
                data = fetch(url)
            except Exception as exc:  # noqa: BLE001 - whatever failed, the import fails, saying why
                message = f"{fullname} is in Python's standard library, but it could not be downloaded"
                raise ImportError(f"{message} ({exc})", name=fullname) from None
            with open(MOUNT, "wb") as f:
                f.write(data)
            zipimport._zip_directory_cache.pop(MOUNT, None)
            self.fetches += 1
        return MOUNT


def install(archive: str, modules: list[str]) -> None:
    """Put the finder before the path finder, so a module of the second archive never reaches it."""
    finder = LazyStdlib(archive, frozenset(modules))
    where = next((i for i, f in enumerate(sys.meta_path) if getattr(f, "__name__", "") == "PathFinder"), 0)
    sys.meta_path.insert(where, finder)
