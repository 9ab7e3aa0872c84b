"""The exercise page and what it serves: the page, its config and policy, its files, offline use, embedding.

The page and its config (page.py), the headers only it gets and its Content Security Policy (policy.py),
the built files and their URLs (static.py), the engine archive (assets.py), the inline scripts of its
first paint (first_paint.py), names.json (names.py), sw.js (offline.py), embed.js and the page a frame
not allowed gets (embed.py), the learner's language and its catalogue (i18n.py, plural.py).
"""
