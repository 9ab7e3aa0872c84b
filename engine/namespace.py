"""A new copy of the engine for every run, so nothing one run patches reaches the next."""

from pathlib import Path

SOURCE = Path(__file__).with_name("value.py").read_text(encoding="utf-8")
CODE = compile(SOURCE, "engine/value.py", "exec")


def new_engine() -> dict:
    """Run the engine's module code in a new namespace and return that namespace."""
    namespace: dict = {"__name__": "engine.value"}
    exec(CODE, namespace)
    return namespace
