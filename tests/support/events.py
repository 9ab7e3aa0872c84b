"""The messages the page sends to a course page that embeds it, version 1, held to their JSON Schema.

The schema is made from engine/report.py (EVENTS, KINDS) by server/contract/schema.py, and published at
<prefix>/schema/events.json; docs/page-contract.md documents it.
"""

from jsonschema import Draft202012Validator

from server.contract.schema import schemas
from server.page.names import NAMES

PREFIX = NAMES["events"]


def validator(name: str) -> Draft202012Validator:
    """A validator for one of the published schemas: report, run or events."""
    schema = schemas()[name]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def assert_valid(name: str, document: dict) -> None:
    """Fail, naming every problem, unless document follows the published schema of that name."""
    problems = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(name).iter_errors(document)
    ]
    assert not problems, f"not a {name} as published: {problems}"


def assert_message(message: dict) -> None:
    """Fail unless message is one of the documented messages, with exactly their fields."""
    assert isinstance(message, dict) and str(message.get("type", "")).startswith(PREFIX), message
    assert_valid("events", message)
