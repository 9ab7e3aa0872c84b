"""Key material: the instance's private keys in files, base64url, and key sets fetched from courses and LMSs.

A private key kept in a file, made once across processes, and base64url (private.py); key sets (JWKS)
fetched from their URLs rarely, briefly and one at a time (keysets.py).
"""
