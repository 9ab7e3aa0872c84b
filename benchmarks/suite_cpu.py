"""Measure where a command's CPU time goes, by thread name: what to make cheaper in the test suite.

    python3 -m benchmarks.suite_cpu .venv/bin/pytest -n 3 --dist worksteal -m "not alone"

Runs the command, and while it runs reads every thread of every process the machine started after it
began (/proc, every 0.3 s), keeping each thread's last CPU time (user + system); then prints the CPU
seconds by thread name, largest first, and their sum. Chromium names its threads by role
(CrRendererMain, DedicatedWorker, ThreadPoolForegroundWorker, Chrome_ChildIOThread, ...), so on 2 cores,
where the browser tests' time is the machine's work, this says which part of the browser's work to cut.
A thread that starts and ends between two reads is missed; so is work of processes running before the
command, which is why the machine should be otherwise idle.
"""

import collections
import os
import subprocess
import sys
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def threads() -> dict[str, tuple[str, float]]:
    """Every thread on the machine: its id -> (its name, its CPU seconds so far)."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                stat = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
            except OSError:
                continue
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2 :].split()
            found[f"{pid}/{tid}"] = (name, (int(fields[11]) + int(fields[12])) / TICK)
    return found


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    before = threads()
    started = time.monotonic()
    command = subprocess.Popen(sys.argv[1:])
    last: dict[str, tuple[str, float]] = {}
    while command.poll() is None:
        last.update((tid, seen) for tid, seen in threads().items() if tid not in before)
        time.sleep(0.3)
    wall = time.monotonic() - started
    by_name: collections.Counter = collections.Counter()
    for name, seconds in last.values():
        by_name[name] += seconds
    print(f"\n{wall:.0f} s wall; CPU seconds by thread name:")
    for name, seconds in by_name.most_common(20):
        print(f"{seconds:8.1f}  {name}")
    print(f"{sum(by_name.values()):8.1f}  in all ({len(last)} threads)")
    return command.returncode


if __name__ == "__main__":
    sys.exit(main())
