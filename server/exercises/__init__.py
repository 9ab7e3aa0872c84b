"""The exercise's content: the reference, the starter, the presets, and the value sets a Check is judged on.

The reference backward and the expected gradients (reference.py), the starter code (starter.py), the
scratch pad's examples (presets.py), the messages in the code handed out (comments.py), the value sets
(value_sets.py: the page's, and fresh ones per request) and the random graphs drawn under strict
(graphs.py). It imports nothing else of the server's.
"""
