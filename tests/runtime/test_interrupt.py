"""The interrupt buffer as the worker hands it to Pyodide (runtime/worker/interrupt.js), checked in Node."""

from pathlib import Path

import pytest

from tests.support.node import node_json

SCRIPT = Path(__file__).with_name("interrupt.mjs")


def node(*args: str) -> dict:
    return node_json(SCRIPT, *args, timeout=120)


def test_a_stop_written_while_python_clears_the_buffer_is_kept():
    # Python reads 0, the page writes a stop, Python writes 0: the stop must still be there.
    assert node("race") == {"first": 0, "next": 2, "left": 0}


def test_the_plain_buffer_loses_that_stop():
    # The reason for the view: without it the same steps wipe the stop out (python/cpython#157548).
    assert node("race", "plain") == {"first": 0, "next": 0, "left": 0}


@pytest.mark.slow  # starts Pyodide
def test_pyodide_takes_a_stop_through_the_view_and_runs_on():
    seen = node("pyodide")
    assert seen == {"stopped": "KeyboardInterrupt", "left": 0, "after": sum(range(10**6))}
