"""Another build of the playground, as a deploy brings it: for the tests of the service worker's updates.

It copies static/build/ and changes the main bundle and the worker bundle (new content, so new hashed
names, as esbuild would give them); the rest (chunks, styles, Pyodide) stays as it was, as it does
when a deploy changes only some files. The main bundle marks the page it runs in: `<html data-build>`.
"""

import json
import shutil
from pathlib import Path

import pytest
from flask import Flask

from runtime.server import pyodide_version
from server import create_app
from server.page import static

CHANGED = {"main": '\ndocument.documentElement.dataset.build = "new";\n', "worker": "\n// the new build\n"}


def copy_build(target: Path) -> Path:
    """Copy static/build/ into target with the main and worker bundles changed; return target."""
    shutil.copytree(static.BUILD / "assets", target / "assets")
    version = pyodide_version()
    (target / "pyodide").mkdir()
    (target / "pyodide" / version).symlink_to(static.BUILD / "pyodide" / version)
    metas = {name: json.loads((static.BUILD / name).read_text()) for name in static.METAFILES}
    renamed = {}  # esbuild's path (relative to the repository) -> the absolute path in target
    for output in (o for meta in metas.values() for o in meta["outputs"]):
        old = target / "assets" / Path(output).name
        name, _, rest = old.name.partition("-")  # main-LNNGCH7N.js -> main, LNNGCH7N.js
        if name in CHANGED and rest.endswith(".js"):
            new = old.with_name(f"{name}-NEWBUILD.js")
            new.write_text(old.read_text() + CHANGED[name])
            for variant in (old, old.with_name(old.name + ".br"), old.with_name(old.name + ".gz")):
                variant.unlink()
            old = new
        renamed[output] = str(old)
    for name, meta in metas.items():
        outputs = {}
        for output, info in meta["outputs"].items():
            imports = [{**i, "path": renamed.get(i["path"], i["path"])} for i in info.get("imports", [])]
            outputs[renamed[output]] = {**info, "imports": imports}
        (target / name).write_text(json.dumps({**meta, "outputs": outputs}))
    return target


def new_build_app(target: Path, **config) -> Flask:
    """An app serving a new build copied into target (see copy_build)."""
    build = copy_build(target)
    with pytest.MonkeyPatch.context() as patch:  # the app reads its files when created, and keeps them
        patch.setattr(static, "BUILD", build)
        return create_app({"TESTING": True, **config})
