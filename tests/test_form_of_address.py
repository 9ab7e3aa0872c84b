"""German's one form of address on the pages for teachers and administrators: "Sie", never "du".

The exercise page speaks to the learner as "du"; the class view, the Deep Linking pages, Dynamic
Registration's page and its refusals speak to a teacher or an administrator, as "Sie". A "du" word, or a
"du" imperative ("Erstelle", "Starte"), in the German of a message those pages say fails here.
"""

from pathlib import Path

from babel.messages.pofile import read_po

from tests.support.address import says_du

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "translations" / "de" / "LC_MESSAGES" / "messages.po"
# Where the teacher's and the administrator's messages are written, whole files or folders.
TEACHERS = (
    "templates/classview/",
    "server/classview/",
    "templates/lti-deep-link.html",
    "server/lti/deep_linking.py",  # the Deep Linking pages' refusals
    "templates/lti-registered.html",
    "server/lti/registration",  # registration.py, registration_token.py
    "server/lti/reach.py",
    "server/lti/openid.py",
    "server/lti/tool_registration.py",
    "server/lti/activity.py",
)


def teachers_messages() -> list[tuple[str, str]]:
    """(msgid, German) of every message a teacher's or administrator's page says."""
    catalogue = read_po(PO.open("rb"))
    said = []
    for message in catalogue:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        if any(path.startswith(TEACHERS) for path, _ in message.locations):
            said += [(ids[0], string) for string in strings]
    return said


def test_the_teachers_messages_are_found():
    """The test below reads enough to fail: the pages' known messages are among those it reads."""
    ids = {msgid for msgid, _ in teachers_messages()}
    assert "Add the exercise to your course" in ids  # the Deep Linking page
    assert "Its offer is altered or over an hour old. Add the exercise from the course again." in ids
    assert "Too many registrations from your network" in ids  # the registration's refusal
    assert "Class view" in ids
    assert len(ids) > 100


def test_a_teachers_page_says_sie_in_german():
    du = [german for _, german in teachers_messages() if says_du(german)]
    assert du == []
