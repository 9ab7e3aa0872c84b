"""The editor at first paint: the learner's code in a plain <textarea>, their saved code already in it.

templates/index.html renders the starter in a <textarea> styled like the editor, so the code can be edited
as soon as the page is painted, before any bundle has run; the page's script upgrades it in place to
CodeMirror (static/js/page/plain-editor.js, editor.js) and works on with the textarea where that never
loads. Right after it, RESTORE (static/js/boot/restore-code.js), inline, puts the code this browser saved
into it while the page is parsed (in a launched page where it saved none, the learner's last Check that
the server kept: config lti.lastCheck): the learner's first key lands on their own code. READ_SNAPSHOT, in the
<head>, starts reading the kept snapshot meanwhile. The page's policy allows both scripts by their hashes
(server/http/headers.py), as it does the runner frame's.
"""

import base64
import hashlib
from functools import cache

from server import ROOT

RESTORE = (ROOT / "static/js/boot/restore-code.js").read_text(encoding="utf-8")
# In the <head>: start reading the snapshot this browser kept while the page is parsed (main.js runs
# only once it is); runtime/stored-snapshot.js checks the bytes against their digest.
READ_SNAPSHOT = (ROOT / "runtime/page/read-snapshot.js").read_text(encoding="utf-8")
# The front page's one script: an old share link to the seed's page, the learner's theme.
FRONT = (ROOT / "static/js/boot/front.js").read_text(encoding="utf-8")


def script_hash(script: str) -> str:
    """The CSP source that allows this inline script."""
    digest = hashlib.sha256(script.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


@cache
def first_paint_hashes() -> str:
    """The CSP sources that allow RESTORE, READ_SNAPSHOT and FRONT inline."""
    return f"{script_hash(RESTORE)} {script_hash(READ_SNAPSHOT)} {script_hash(FRONT)}"
