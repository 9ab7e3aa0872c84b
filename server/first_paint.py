"""The editor at first paint: the learner's code in a plain <textarea>, their saved code already in it.

templates/index.html renders the starter in a <textarea> styled like the editor, so the code can be edited
as soon as the page is painted, before any bundle has run; the page's script upgrades it in place to
CodeMirror (static/js/page/plain-editor.js, editor.js) and works on with the textarea where that never
loads. Right after it, RESTORE (static/js/boot/restore-code.js), inline, puts the code this browser saved
into it while the page is parsed: the learner's first key lands on their own code. The page's policy
allows that script by its hash (server/headers.py), as it does the runner frame's.
"""

import base64
import hashlib
from functools import cache

from server import ROOT

RESTORE = (ROOT / "static/js/boot/restore-code.js").read_text(encoding="utf-8")


@cache
def restore_hash() -> str:
    """The CSP source that allows RESTORE inline."""
    digest = hashlib.sha256(RESTORE.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"
