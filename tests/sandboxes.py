"""The processes of the server's sandboxes, seen from outside them: there should be none between requests."""

import os

SANDBOX_UIDS = range(64000 + 256, 64000 + 257 * 2**22)  # sandbox.sandbox_uid's


def sandbox_processes() -> list[int]:
    """PIDs of processes running as a sandbox uid (there should be none between requests)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid in SANDBOX_UIDS:
                    found.append(int(entry))
            except FileNotFoundError:
                pass
    return found
