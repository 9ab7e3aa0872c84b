"""The kept snapshot without its zero pages (runtime/worker/snapshot-pages.js), checked in Node."""

from pathlib import Path

from tests.support.node import node_json

SCRIPT = Path(__file__).with_name("snapshot_pages.mjs")


def node(check: str) -> dict:
    return node_json(SCRIPT, check)


def test_a_packed_snapshot_unpacks_to_the_same_bytes_keeping_only_pages_with_something_in_them():
    # 41 pages, of which 6 hold a byte: pages 0, 3, 16, 20, 39 and the short last one.
    assert node("roundTrip") == {"same": True, "length": 40 * 65536 + 144, "packedPages": 5}


def test_the_memorys_8_byte_values_stay_aligned_in_the_packed_bytes():
    assert node("aligned") == {"found": [0]}


def test_anything_but_a_whole_packed_snapshot_is_refused():
    assert node("refused") == {
        "not packed": "not a packed snapshot",
        "cut short": "a packed snapshot cut short",
        "bytes left over": "a packed snapshot with bytes left over",
        "empty": "not a packed snapshot",
    }
