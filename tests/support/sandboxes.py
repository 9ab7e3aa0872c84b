"""The processes of the server's sandboxes, seen from outside them: there should be none between requests."""

import os
import re

from server.sandbox import bwrap

SANDBOX_UIDS = range(64000 + 256, 64000 + 257 * 2**22)  # bwrap.sandbox_uid's


def sandbox_processes(uids: range | set = SANDBOX_UIDS) -> list[int]:
    """PIDs of processes running as one of uids (there should be none between requests).

    By default any sandbox's uid on the machine; a test gives its own server's (server_uids), so the
    sandboxes of other tests or runs on the machine are not counted.
    """
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid in uids:
                    found.append(int(entry))
            except FileNotFoundError:
                pass
    return found


def server_uids(log: list[str]) -> set[int]:
    """The uids the sandboxes of a gunicorn's workers run as (bwrap.sandbox_uid), from its log."""
    pids = [int(pid) for line in log for pid in re.findall(r"Booting worker with pid: (\d+)", line)]
    return {uid for pid in pids for uid in range(*sandbox_uid_range(pid))}


def sandbox_uid_range(pid: int) -> tuple[int, int]:
    """The uids one server process's sandboxes may run as: [first, last + 1)."""
    first = bwrap.BASE_UID + (pid % 2**22 + 1) * bwrap.UIDS_PER_PROCESS
    return first, first + bwrap.UIDS_PER_PROCESS
