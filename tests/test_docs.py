"""The README is a front door and docs/ says what the code does: the sketches follow engine/report.py,
every link lands, every dependency's licence is named. (The facts each page states are checked by the
tests it names; these check the documents themselves.)"""

import json
import re
import struct
import unicodedata

import pytest

from engine.report import EVENT_EXPRESSION, EVENTS, FIELDS, KINDS
from exercises.backward.plugin.kinds import FINDINGS, MISTAKES
from exercises.backward.seed import LEAVES
from server import ROOT, create_app
from server.http.bounds import BODY_LIMITS, DEFAULT_BODY
from server.records import export
from server.verify.receipt import CLAIMS

DOCS = ROOT / "docs"
READERS = [
    "hosting.md",
    "course-page.md",
    "verdict.md",
    "verification.md",
    "exercises.md",
    "lti.md",
    "class-view.md",
    "data.md",
    "page-contract.md",
    "security.md",
    "speed.md",
    "accessibility.md",
    "translating.md",
    "architecture.md",
    "troubleshooting.md",
]


def text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def sketch(document: str, start: str) -> str:
    """The fenced block that follows the first line of document starting with start."""
    at = document.index(start)
    opened = document.index("```", at)
    return document[opened : document.index("```", opened + 3)]


def named(block: str) -> set[str]:
    return set(re.findall(r'"(\w+)":', block))


def kinds_in(block: str) -> list[str]:
    """The kinds a sketch lists after its first "kind":, across lines: "a" | "b"..."""
    return re.findall(r'"([\w-]+)"', re.search(r'"kind": ("[\w-]+"(?:\s*\| "[\w-]+")*)', block)[1])


# -- the README ------------------------------------------------------------------------------------


def test_the_readme_is_a_front_door_with_the_commands_and_the_url_in_its_first_screen():
    readme = text("README.md")
    first_screen = "\n".join(readme.splitlines()[:40])
    assert "make run" in first_screen and "http://127.0.0.1:5000/" in first_screen
    assert "make test" in first_screen
    assert len(readme.splitlines()) <= 60  # a few screens at most: the rest is in docs/


def test_the_readme_links_each_reader_to_one_page_and_every_page_is_linked():
    linked = re.findall(r"\]\(docs/([\w-]+\.md)\)", text("README.md"))
    assert sorted(set(linked)) == sorted(READERS + ["licences.md"])
    assert sorted(p.name for p in DOCS.glob("*.md")) == sorted(READERS + ["licences.md"])


def test_the_readme_shows_a_small_picture_of_the_page():
    image = re.search(r"!\[[^\]]+\]\((docs/[\w-]+\.png)\)", text("README.md"))[1]
    data = (ROOT / image).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 300_000
    width, height = struct.unpack(">II", data[16:24])
    assert 400 <= width <= 1400 and height <= 1600


# -- links ------------------------------------------------------------------------------------------


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    heading = heading.strip().lower()
    kept = "".join(c for c in heading if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path) -> set[str]:
    document = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {slug(h) for h in re.findall(r"^#+ (.+)$", document, re.M)}


@pytest.mark.parametrize("name", ["README.md", *(f"docs/{n}" for n in READERS), "docs/licences.md"])
def test_every_link_between_the_documents_lands(name):
    path = ROOT / name
    for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # another site
        file, _, anchor = target.partition("#")
        landed = (path.parent / file).resolve() if file else path
        assert landed.exists(), f"{name}: {target}"
        if anchor:
            assert anchor in anchors(landed), f"{name}: {target}: no such heading"


# -- the sketches follow engine/report.py --------------------------------------------------------


def test_the_report_sketch_names_every_field_and_kind_and_no_other():
    block = sketch(text("docs/page-contract.md"), "- The report (JSON):")
    nodes = sketch(text("docs/page-contract.md"), "picture (null above 200 values)")
    report = {kind: fields for kind, fields in FIELDS.items() if kind not in ("run", "drawing")}
    assert named(block) | named(nodes) == {field for fields in report.values() for field in fields}
    assert kinds_in(block.split('"error": null |')[1]) == list(KINDS)
    assert kinds_in(block.split('"mistake": null |')[1]) == list(MISTAKES)
    assert kinds_in(block.split('"diagnosis": [')[1]) == list(FINDINGS)
    names = re.search(r'"name": ("\w+"(?:\s*\| "\w+")*)', block)[1]
    assert re.findall(r'"(\w+)"', names) == list(LEAVES)


def test_the_run_sketch_names_every_field_of_a_run_and_no_other():
    block = sketch(text("docs/page-contract.md"), "- `window.playground.run(source?)`")
    assert named(block) == {*FIELDS["run"], *FIELDS["drawing"], *FIELDS["output"], *FIELDS["error"], "file"}


def test_the_events_sketch_names_every_message_field_and_error_kind():
    block = sketch(text("docs/course-page.md"), "message as `detail`")
    fields = {"type", "version", *EVENT_EXPRESSION, *(f for fs in EVENTS.values() for f in fs)}
    assert named(block) == fields
    types = set(re.findall(r'"backprop-playground:(\w+)"', block))
    assert types == set(EVENTS)
    error = re.search(r'"error": null((?: \| "\w+")+)', block)[1]
    assert re.findall(r'"(\w+)"', error) == list(KINDS)


def test_the_receipts_claims_are_listed_as_server_receipt_py_says_them():
    document = text("docs/verification.md")
    after = document[document.index("Its claims (`server/verify/receipt.py`'s `CLAIMS`") :]
    listed = re.findall(r"^- `(\w+)`: (.+)$", after.split("\n\n")[0], re.M)
    assert dict(listed) == CLAIMS and [name for name, _ in listed] == list(CLAIMS)


def table_after(document: str, heading: str) -> list[tuple[str, str]]:
    """The rows (first cell's `name`, second cell) of the first table after a heading."""
    after = document[document.index(heading) :]
    return re.findall(r"^\| `(\w+)` \| (.+?) \|$", after[after.index("\n| ") :].split("\n\n")[0], re.M)


def test_the_exports_fields_and_columns_are_listed_as_server_records_export_py_says_them():
    document = text("docs/data.md")
    fields = {name: schema["description"] for name, schema in export.FIELDS.items()}
    assert table_after(document, "### A Check's line") == list(fields.items())
    assert named(sketch(document, "### A Check's line")) >= set(fields)
    assert table_after(document, "### The learners' CSV") == list(export.COLUMNS.items())


def test_the_days_records_are_kept_are_said_as_create_app_sets_them():
    days = create_app({"TESTING": True}).config["ATTEMPTS_KEEP_DAYS"]
    assert f"`PLAYGROUND_ATTEMPTS_KEEP_DAYS` days (default {days})" in text("docs/data.md")
    assert f"| `ATTEMPTS_KEEP_DAYS` | {days} |" in text("docs/hosting.md")


def test_what_one_learner_keeps_is_said_as_the_records_defaults_set_it():
    """docs/data.md's table of the bounds, and hosting.md's settings, give the defaults DEFAULTS sets."""
    from server.records import DEFAULTS

    document = text("docs/data.md")
    table = document[document.index("## How much of one learner") :].split("\n\n")[1]
    rows = re.findall(r"^\| `PLAYGROUND_(\w+)`[^|]*\| ([\d,]+)", table, re.M)
    bounds = ("RECORD_RATE_LIMIT", "RECORD_RATE_BYTES", "RECORD_BYTES_KEPT", "RECORDS_KEPT")
    assert {name: int(value.replace(",", "")) for name, value in rows} == {k: DEFAULTS[k] for k in bounds}
    assert f"| {DEFAULTS['RECORD_RATE_LIMIT']} in {DEFAULTS['RECORD_RATE_WINDOW_S']} |" in table
    listed = {}
    for names, values in re.findall(r"^\| (`RECORD[^|]+) \| ([\d, ]+) \|", text("docs/hosting.md"), re.M):
        listed |= zip(re.findall(r"`(\w+)`", names), (int(v) for v in values.split(", ")), strict=True)
    assert listed == DEFAULTS


# -- licences ------------------------------------------------------------------------------------------


def test_every_dependency_and_its_licence_is_named():
    licences = text("docs/licences.md")
    listed = dict(re.findall(r"^\| `([\w.@/-]+)` \| [^|]+ \| ([^|]+?) \|", licences, re.M))
    python = set(re.findall(r"^([\w.-]+)==", text("requirements-test.lock"), re.M))
    package = json.loads(text("package.json"))
    node = {*package["dependencies"], *package["devDependencies"]}
    assert set(listed) >= python | node, sorted((python | node) - set(listed))
    assert all(licence.strip() for licence in listed.values())
    assert "MIT License" in text("LICENSE")


def test_the_body_limits_are_listed_as_server_bounds_py_sets_them():
    document = text("docs/security.md")
    rows = dict(re.findall(r"^\| `?([^|`]+?)`? \| ([\d,]+) bytes", document, re.M))
    routes = {"verify.verify": "POST /verify", "lti.login": "/lti/login", "lti.launch": "POST /lti/launch"}
    routes["lti_grades.retry"] = "POST /lti/grade"
    routes["lti.deep_link_chosen"] = "POST /lti/deep-link"
    routes["records.record"] = "POST /record"
    assert {routes[k]: f"{v:,}" for k, v in BODY_LIMITS.items()} | {"any other": f"{DEFAULT_BODY:,}"} == rows


def test_the_rosters_times_are_said_as_server_classview_kept_py_sets_them():
    from server.classview import kept

    lti, data, view = text("docs/lti.md"), text("docs/data.md"), text("docs/class-view.md")
    minutes = f"over {kept.ROSTER_S // 60} minutes old"
    assert f"{minutes} (a failed read: after {kept.RETRY_S} s)" in lti
    assert minutes in view and "read again when over\n5 minutes old" in data and kept.ROSTER_S == 300
    assert "deleted a day after it was last read" in data and kept.KEEP_S == 86400


def test_the_queue_is_described_as_server_queue_py_and_the_passbacks_set_it(app):
    from server import queue
    from server.lti import passback

    hosting, lti = text("docs/hosting.md"), text("docs/lti.md")
    (workers,) = re.findall(r"^\| `QUEUE_WORKERS` \| (\d+) \|", hosting, re.M)
    assert int(workers) == app.config["QUEUE_WORKERS"]
    assert f"with `QUEUE_WORKERS` threads (default {workers})" in hosting
    assert f"a task under way has {queue.STOP_S:.0f} s to end" in hosting
    huey = re.search(r"^huey==(\d+\.\d+)\.", text("requirements.lock"), re.M)[1]
    assert f"[Huey](https://huey.readthedocs.io/) {huey} (`server/queue.py`)" in hosting
    assert f"asks again {passback.BUSY_S:.0f} s later" in lti
    assert f"every {passback.SWEEP_MINUTES} minutes each looks for passes whose try was lost" in lti


def test_the_claims_the_registration_asks_for_are_listed_as_server_lti_openid_py_has_them():
    """docs/lti.md says which claims (the names among them) the one-URL registration asks the LMS for."""
    from server.lti.openid import CLAIMS as ASKED

    lti = " ".join(text("docs/lti.md").split())
    assert "the claims " + ", ".join(f"`{claim}`" for claim in ASKED) + ")" in lti
    names = [f"`{claim}`" for claim in ASKED if claim not in ("iss", "sub")]
    assert "asks the LMS for the claims " + ", ".join(names[:-1]) + " and " + names[-1] in lti
