"""The runtime client (runtime/page/client.js) in Node, in milliseconds: its states and the moves between
them, one task at a time, Stop and the time limit, a runtime that cannot load. The runtime's own code
throughout (the client, its pool, the protocol, the runner) with a fake Web Worker in place of Python
(tests/runtime/client.mjs)."""

import json
from pathlib import Path

import pytest

from engine.report import shape
from tests.support.node import node_json

SCRIPT = Path(__file__).with_name("client.mjs")
MODES = ["isolated", "plain"]  # Stop interrupts Python, or ends its worker (no cross-origin isolation)
STOPPED_PLAIN = (
    "You stopped your code. This page cannot interrupt Python (it is not cross-origin isolated), so its "
    "runtime was ended and the line it was running is not known."
)


def node(check: str, mode: str = "plain") -> dict:
    return node_json(SCRIPT, check, mode, stdin=json.dumps(shape()))


@pytest.mark.parametrize("mode", MODES)
def test_a_check_goes_busy_then_ready_with_its_report(mode):
    seen = node("check", mode)
    assert seen["states"] == ["loading", "ready", "busy", "ready"]
    assert seen["report"] == {"passed": True, "kind": None, "message": None}


@pytest.mark.parametrize("mode", MODES)
def test_a_second_task_while_one_runs_is_refused_and_never_runs(mode):
    seen = node("second", mode)
    refused = {"name": "BusyError", "message": "the runtime runs one task at a time: a check is under way"}
    assert seen["again"] == refused  # a second Check
    assert seen["run"] == refused  # a Run
    assert seen["grades"] == 2  # the first Check and the one after it: the refused never reached a worker
    assert seen["after"]["passed"] is True
    assert seen["states"] == ["loading", "ready", "busy", "stopping", "ready", "busy", "ready"]


def test_stop_interrupts_python_and_names_the_line_where_the_frame_is_isolated():
    seen = node("stop", "isolated")
    assert seen["mode"] == "interrupt"
    stopped = "You stopped your code at line 2."
    assert seen["report"] == {"passed": False, "kind": "timeout", "message": stopped}
    assert seen["states"] == ["loading", "ready", "busy", "stopping", "ready"]


def test_stop_ends_the_worker_elsewhere_and_says_why_no_line():
    seen = node("stop", "plain")
    assert seen["mode"] == "restart"
    assert seen["report"] == {"passed": False, "kind": "timeout", "message": STOPPED_PLAIN}
    assert seen["states"] == ["loading", "ready", "busy", "stopping", "ready"]


@pytest.mark.parametrize("mode", MODES)
def test_the_time_limit_stops_the_code_and_says_so(mode):
    seen = node("timeout", mode)
    assert seen["report"]["kind"] == "timeout"
    assert seen["report"]["message"].startswith("Your code ran for more than 0.3 s and was stopped")
    assert (" at line 2." in seen["report"]["message"]) == (mode == "isolated")
    assert seen["states"] == ["loading", "ready", "busy", "stopping", "ready"]


def test_a_runtime_that_cannot_load_is_dead_and_a_check_fails_until_retry():
    seen = node("dead")
    why = "The Python runtime could not load: runner.js could not be fetched (Failed to fetch)."
    assert seen["why"] == why
    assert seen["report"]["kind"] == "crash"
    assert seen["report"]["message"].startswith(seen["why"])
    assert seen["after"]["passed"] is True
    assert seen["states"] == ["loading", "dead", "busy", "dead", "loading", "ready", "busy", "ready"]


def test_the_moves_are_a_table_the_client_holds_to():
    seen = node("moves")
    assert set(seen["moves"]) == {"loading", "ready", "busy", "stopping", "dead"}
    assert "busy" not in seen["moves"]["busy"] + seen["moves"]["stopping"]  # one task at a time
    assert seen["refused"] == "the runtime cannot go from ready to stopping"
    assert seen["state"] == "ready"


def test_it_takes_milliseconds():
    assert node("check")["ms"] < 1000
