"""The runtime knows nothing of the page (runtime/README.md): none of its scripts imports the page's code,
words, names or storage (static/js/); the page hands them to the client (static/js/boot/main.js)."""

import re

from server import ROOT

# Every import of a module: `import ... from "x"`, `import "x"`, `export ... from "x"`, `import("x")`.
IMPORT = re.compile(
    r"""(?:\bimport|\bexport)\b[^;'"`]*?\bfrom\s*["']([^"']+)["']"""  # import/export ... from "x"
    r"""|\bimport\s*\(?\s*["']([^"']+)["']"""  # import "x", import("x")
)
# What `make` builds for the runtime from Pyodide's own files (a lock with no packages, runtime/build/
# minimal-lock.mjs): built output, not the page's.
BUILT = ROOT / "static/build"


def imports(text: str) -> list[str]:
    return [a or b for a, b in IMPORT.findall(text)]


def test_the_pattern_finds_imports():
    text = (
        'import { t } from "../../static/js/shared/i18n.js";\n'
        'import N from "./n.json" with { type: "json" };\n'
        'const m = import("./m.js");'
    )
    assert imports(text) == ["../../static/js/shared/i18n.js", "./n.json", "./m.js"]


def test_nothing_in_the_runtime_imports_from_the_page():
    scripts = sorted((ROOT / "runtime").rglob("*.js")) + sorted((ROOT / "runtime").rglob("*.mjs"))
    assert len(scripts) > 10
    found = []
    for script in scripts:
        for name in imports(script.read_text(encoding="utf-8")):
            target = (script.parent / name).resolve() if name.startswith(".") else None
            if target and target.is_relative_to(ROOT / "static") and not target.is_relative_to(BUILT):
                found.append(f"{script.relative_to(ROOT)} imports {name}")
    assert found == []
