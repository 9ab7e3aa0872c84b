"""`POST <prefix>/verify` and the JWKS: a pass re-graded in a sandbox, decided here, with a signed receipt.

The route, its limits and holds, and the JWKS (views.py); a receipt's claims and its signing keys
(receipt.py). The sandbox and the judging are server/sandbox's; the learner asking, server/learners'.
"""
