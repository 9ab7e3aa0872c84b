"""What this playground names in a learner's browser: storage keys, caches, events, the runner's hello.

One file holds them, static/js/shared/names.json: the page's scripts import it, and the server hands it
to what it renders (sw.js, sw-off.js, embed.js, the runner frame's script). A JSON file rather than
Python, because the scripts that read it (events.js, in Node too) have no config to read it from.
"""

import json

from server import ROOT

NAMES: dict = json.loads((ROOT / "static/js/shared/names.json").read_text(encoding="utf-8"))
