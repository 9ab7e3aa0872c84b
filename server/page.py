"""The exercise page."""

from flask import Blueprint, current_app, render_template, url_for

from server import ROOT
from server.assets import graded_cases

bp = Blueprint("page", __name__)


def read(path: str) -> str:
    """Read a file of the project as text."""
    return (ROOT / path).read_text(encoding="utf-8")


@bp.get("/")
def index() -> str:
    """Show the exercise, the engine and the editor."""
    config = {
        "starter": read("engine/starter.py"),
        "cases": graded_cases(),
        "timeLimitMs": current_app.config["TIME_LIMIT_MS"],
        "loadLimitMs": current_app.config["LOAD_LIMIT_MS"],
        "urls": {
            "worker": url_for("static", filename="js/worker.js"),
            "pyodide": url_for("static", filename="build/pyodide/"),
            "engine": url_for("assets.engine_zip"),
        },
    }
    return render_template("index.html", config=config, engine_source=read("engine/value.py"))
