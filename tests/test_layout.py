"""server/'s folders say its jobs, and no two of them import each other (issue 50).

Every module's imports are read (ast: at the top of a module and inside its functions alike), each
folder of server/ (and each module left in its root, server/queue.py) is one node, and an import from one
node of another is an edge: a circle among them fails, named with the imports that make it. server/
itself (create_app, which assembles every folder, and ROOT) is no node.
"""

import ast
import re
from pathlib import Path

import pytest

from server import ROOT

SERVER = ROOT / "server"


def module_name(path: Path, server: Path = SERVER) -> str:
    parts = path.relative_to(server.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, server: Path = SERVER) -> set[str]:
    """The server modules (or packages) path imports, by their dotted names."""
    name = module_name(path, server)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, *([base] if base else [])])
            found.add(base)
            for alias in node.names:  # `from server.http import bounds`: the module, not only its folder
                candidate = server.parent / base.replace(".", "/") / alias.name
                if candidate.is_dir() or candidate.with_suffix(".py").is_file():
                    found.add(f"{base}.{alias.name}")
    return {m for m in found if m == "server" or m.startswith("server.")}


def node_of(module: str, server: Path = SERVER) -> str | None:
    """The folder (or root module) a server module belongs to; None for server/ itself."""
    parts = module.split(".")
    if len(parts) < 2:
        return None
    if (server / parts[1]).is_dir() or (server / f"{parts[1]}.py").is_file():
        return parts[1]
    return None  # a name server/__init__.py defines (ROOT, create_app)


def folder_graph(server: Path = SERVER) -> dict[str, dict[str, set[str]]]:
    """Each node's edges: the nodes it imports, each with the imports that make the edge."""
    graph: dict[str, dict[str, set[str]]] = {}
    for path in sorted(server.rglob("*.py")):
        name = module_name(path, server)
        source = node_of(name, server)
        if source is None:
            continue
        graph.setdefault(source, {})
        for module in imported(path, server):
            target = node_of(module, server)
            if target is not None and target != source:
                graph[source].setdefault(target, set()).add(f"{name} -> {module}")
    return graph


def circles(graph: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """The strongly connected parts of more than one node (Tarjan's), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, {}):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def said(graph: dict[str, dict[str, set[str]]], part: list[str]) -> str:
    edges = [
        f"  {source} -> {target}: {', '.join(sorted(graph[source][target]))}"
        for source in part
        for target in sorted(graph[source])
        if target in part
    ]
    return " <-> ".join(part) + "\n" + "\n".join(edges)


def test_no_two_folders_of_the_server_import_each_other():
    graph = folder_graph()
    found = circles(graph)
    assert not found, "folders that import each other in a circle:\n" + "\n".join(
        said(graph, part) for part in found
    )


def test_a_circle_is_found_and_named_with_its_imports(tmp_path):
    root = tmp_path / "server"
    for folder, text in {
        "page": "from server.http.headers import response_headers\n",
        "http": "def f():\n    from server.page import policy\n",  # inside a function counts too
        "db": "from server import ROOT\n",
    }.items():
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text('"""A folder."""\n')
        (root / folder / "a.py").write_text(text)
    (root / "__init__.py").write_text("from server import db, http, page\nROOT = None\n")  # create_app's
    graph = folder_graph(root)
    assert circles(graph) == [["http", "page"]]
    assert "server.page.a -> server.http.headers" in said(graph, ["http", "page"])
    assert "db" not in graph["page"] and "db" not in graph["http"]


@pytest.mark.parametrize("folder", sorted(p.parent.name for p in SERVER.glob("*/__init__.py")))
def test_each_folder_says_its_job_in_the_first_line_of_its_docstring(folder):
    doc = ast.get_docstring(ast.parse((SERVER / folder / "__init__.py").read_text(encoding="utf-8")))
    assert doc, f"server/{folder}/__init__.py has no docstring"
    first = doc.splitlines()[0]
    assert len(first.split()) >= 5 and first.endswith((".", ")")), f"server/{folder}: {first!r}"


def map_order() -> list[str]:
    """server/'s folders (and root modules) in the order docs/architecture.md's map lists them."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    listed = text[text.index("\nserver/ ") : text.index("\nruntime/ ")]
    return re.findall(r"^  (\w+)(?:/|\.py) ", listed, re.M)


def test_the_map_lists_every_folder_below_those_it_imports():
    graph = folder_graph()
    order = map_order()
    assert sorted(order) == sorted(graph), "docs/architecture.md's map lists the server's folders"
    upward = [
        f"{source} -> {target}: {', '.join(sorted(imports))}"
        for source, targets in graph.items()
        for target, imports in targets.items()
        if order.index(target) > order.index(source)
    ]
    assert not upward, "imports of a folder listed later in the map:\n" + "\n".join(upward)


LONGEST = 300  # lines: a module past it is split by idea (issue 50)
SHORTER = {"runtime/page/client.js": 250}  # the runtime's client, as its contract set it (runtime/README.md)


def test_no_module_is_past_three_hundred_lines():
    """Each module one job: the server's, the engine's and the browser's code (the database's migrations,
    written once and never edited, aside)."""
    found = [
        *SERVER.rglob("*.py"),
        *(ROOT / "engine").rglob("*.py"),
        *(ROOT / "runtime").rglob("*.js"),
        *(ROOT / "static" / "js").rglob("*.js"),
    ]
    long = {}
    for path in found:
        name = path.relative_to(ROOT).as_posix()
        if "/migrations/" in name:
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > SHORTER.get(name, LONGEST):
            long[name] = lines
    assert len(found) > 150 and not long, long
