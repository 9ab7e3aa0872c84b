"""The runtime's one protocol (runtime/protocol.js): every message its parties send is listed
there, and a message not listed cannot be built."""

import re

import pytest

from runtime.server import runner_document
from server import ROOT
from tests.support.node import module_json

PROTOCOL = ROOT / "runtime/protocol.js"
RUNTIME = {  # who sends on which channel: the page's client, the runner in its frame, the worker
    "runtime/page/client.js": "toWorker",
    "runtime/page/workers.js": "toRunner toWorker",
    "runtime/runner/runner.js": "fromRunner toWorker",
    "runtime/worker/worker.js": "fromWorker",
}


def node(script: str) -> object:
    """Run an ES module that imports the protocol as `p`; return what it prints, as JSON."""
    return module_json(script, p=PROTOCOL)


@pytest.fixture(scope="module")
def messages() -> dict:
    return node("console.log(JSON.stringify(p.MESSAGES));")


def sent(path: str) -> list[tuple[str, str]]:
    """(channel, type) of every message a file sends: send(target, channel, type, ...), message(channel,
    type, ...), the client's workers.ask(worker, type, ...) (toWorker, in toRunner.to) and the worker's
    post(type, ...) (fromWorker)."""
    text = (ROOT / path).read_text()
    found = re.findall(r'\b(?:send\(\s*[\w.]+,|message\()\s*"(\w+)",\s*"(\w+)"', text)
    found += [("toWorker", kind) for kind in re.findall(r'\.ask\(\s*[\w.]+,\s*"(\w+)"', text)]
    found += [("fromWorker", kind) for kind in re.findall(r'\bpost\(\s*"(\w+)"', text)]
    return found


def test_every_message_the_runtime_sends_is_listed(messages):
    for path, channels in RUNTIME.items():
        found = sent(path)
        assert found, f"{path} sends nothing through the protocol"
        for channel, kind in found:
            assert channel in channels.split(), (path, channel, kind)
            assert kind in messages[channel], (
                f"{path} sends {channel}.{kind}, which the protocol does not list"
            )


def test_nothing_is_posted_around_it():
    # Only the frame's first message (the runner's code and its port, to an inline script) is not the
    # protocol's: every other postMessage goes through send() or the worker's bound post().
    for path in RUNTIME:
        text = (ROOT / path).read_text()
        assert not re.search(r"\.postMessage\(\s*\{", text), path
    frame = (ROOT / "runtime/page/frame.js").read_text()
    assert re.findall(r"\.postMessage\(\s*\{ (\w+)", frame) == ["runner"]


def test_a_message_not_listed_cannot_be_built():
    said = node(
        """
        const refused = (f) => { try { f(); return null; } catch (e) { return e.message; } };
        console.log(JSON.stringify({
          unknown: refused(() => p.message("toRunner", "format", {})),
          channel: refused(() => p.message("sideways", "grade", {})),
          field: refused(() => p.message("toWorker", "grade", { id: "1", code: "x" })),
          built: p.message("fromRunner", "state", { id: "7", taken: true }),
        }));
        """
    )
    assert said == {
        "unknown": "no toRunner message format",
        "channel": "no sideways message grade",
        "field": "toWorker.grade has no field code",
        "built": {"type": "state", "id": "7", "taken": True, "finishing": None},
    }


def test_the_frames_inline_script_speaks_the_protocol(messages):
    # runtime/server.py's one inline script posts "broken" when the runner cannot start.
    posted = re.findall(r"postMessage\(\{type:'(\w+)'", runner_document())
    assert posted and all(kind in messages["fromRunner"] for kind in posted)


CONSTANTS = {  # protocol.js's constants, each a channel's types by name
    "TO_RUNNER": "toRunner",
    "FROM_RUNNER": "fromRunner",
    "TO_WORKER": "toWorker",
    "FROM_WORKER": "fromWorker",
}


def test_receivers_switch_on_the_protocols_names(messages):
    # A message type is written once, in protocol.js: the receivers name it through its constants, each a
    # type the protocol lists (a misspelt one would match nothing).
    named = 0
    for path in [*RUNTIME, "runtime/page/frame.js"]:
        text = (ROOT / path).read_text()
        assert not re.search(r'\bcase\s+"', text), f"{path} switches on a string literal"
        assert not re.search(r'\.type\s*[!=]==?\s*"', text), f"{path} compares a type with a string literal"
        for constant, kind in re.findall(r"\b(TO_RUNNER|FROM_RUNNER|TO_WORKER|FROM_WORKER)\.(\w+)", text):
            assert kind in messages[CONSTANTS[constant]], (path, constant, kind)
            named += 1
    assert named >= 18


def test_the_read_channels_layout_is_the_protocols_alone():
    # The buffer a worker reads a file through: its words and offsets, waited on and written, in
    # protocol.js only; the runner and the worker call its readThrough and answerRead.
    for path in ["runtime/runner/runner.js", "runtime/worker/worker.js"]:
        text = (ROOT / path).read_text()
        assert not re.search(r"Atomics\.(wait|notify)|\bwait\(|\.grow\(|maxByteLength", text), path
    assert "readThrough" in (ROOT / "runtime/worker/worker.js").read_text()
    assert "answerRead" in (ROOT / "runtime/runner/runner.js").read_text()
