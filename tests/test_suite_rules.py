"""The suite's own rules: helpers live in helper modules and fixtures in conftest.py files, so no file
imports from a test module or a conftest (pytest finds fixtures itself; an import makes a second copy)."""

import ast

from server import ROOT

FOLDERS = ("tests", "benchmarks", "scripts", "runtime")


def imported_modules(path) -> list[str]:
    """Every module a Python file imports, by its dotted name."""
    tree = ast.parse(path.read_text(), str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return names


def test_no_file_imports_a_test_module_or_a_conftest():
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for name in imported_modules(path):
                last = name.rsplit(".", 1)[-1]
                if name.startswith("tests.") and (last.startswith("test_") or last == "conftest"):
                    found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert found == [], "\n".join(found)


def test_helpers_live_in_support_and_test_folders_hold_tests():
    # A test folder holds test modules, a conftest and its __init__; the helpers they share are in
    # tests/support, those that drive Chromium beside the browser tests (tests/browser).
    found = [
        str(path.relative_to(ROOT))
        for folder in (ROOT / "tests", ROOT / "tests" / "runtime", ROOT / "tests" / "browser" / "runtime")
        for path in sorted(folder.glob("*.py"))
        if not path.name.startswith("test_") and path.name not in ("conftest.py", "__init__.py")
    ]
    assert found == [], "helpers outside tests/support: " + ", ".join(found)


def fixtures_defined(path) -> list[str]:
    """The names of the fixtures a Python file defines (a fixture's name= where it gives one)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                if "fixture" in ast.unparse(decorator):
                    given = [k.value for k in getattr(decorator, "keywords", []) if k.arg == "name"]
                    names.append(given[0].value if given else node.name)
    return names


def test_no_fixture_is_defined_twice():
    # One fixture, one name: a module's own fixture under a conftest's name (or another module's) hides
    # it, and a reader of a test cannot tell which one it gets. Shared ones live in a conftest.py.
    where = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for name in fixtures_defined(path):
            where.setdefault(name, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}
