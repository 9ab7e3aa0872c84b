"""The least time `make test` can take on this machine: the CPU time of each test, run one at a time.

    .venv/bin/python -m benchmarks.suite_floor [--out FILE] [PATH ...]

Runs make test's two selections (`-m "not alone"`, then `-m alone`) in one pytest process each, with no
xdist, and this file as a pytest plugin (`-p benchmarks.suite_floor`): around each test (its fixtures'
setting up included, so a module's shared page counts in its first test) it reads the machine's busy time from
/proc/stat, every core's, so the browser's processes and threads count, and the servers' and sandboxes'
too. Prints the CPU seconds of each test module, largest first, each selection's sum, and that sum
divided by the machine's cores: the least time the selection can take with every core busy from its
first second to its last, whatever runs in parallel. Add the set-up's CPU time (`time make setup` in a
fresh clone: user + sys) for the whole of `make test`. The machine should be otherwise idle; a serial run
of the suite takes about 20 minutes.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count() or 1
OUT = "SUITE_FLOOR_OUT"  # the environment variable that tells the plugin where to write


def busy_seconds() -> float:
    """CPU seconds the machine's cores have spent on its work since boot: user, nice, system, irq, softirq
    (not idle, not waiting on I/O, not stolen by the host)."""
    user, nice, system, _idle, _iowait, irq, softirq = map(int, Path("/proc/stat").read_text().split()[1:8])
    return (user + nice + system + irq + softirq) / TICK


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Note a test's CPU seconds (its setting up, call and tearing down) and wall seconds."""
    busy, started = busy_seconds(), time.monotonic()
    yield
    line = {"test": item.nodeid, "cpu": busy_seconds() - busy, "wall": time.monotonic() - started}
    with open(os.environ[OUT], "a") as out:
        out.write(json.dumps(line) + "\n")


def run(selection: str, out: Path, paths: list[str]) -> int:
    """Run one selection of make test's in one pytest process, this plugin noting each test."""
    env = {**os.environ, OUT: str(out)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "benchmarks.suite_floor", "-m", selection, *paths]
    return subprocess.run(command, cwd=ROOT, env=env, check=False).returncode


def report(name: str, lines: list[dict]) -> float:
    """Print a selection's CPU seconds by test module and its floor on this machine; return its sum."""
    cpu: collections.Counter = collections.Counter()
    count: collections.Counter = collections.Counter()
    for line in lines:
        module = line["test"].split("::")[0]
        cpu[module] += line["cpu"]
        count[module] += 1
    total = sum(cpu.values())
    print(f"\n{name}: {len(lines)} tests, {total:.0f} CPU s, at least {total / CORES:.0f} s on {CORES} cores")
    for module, seconds in cpu.most_common(15):
        print(f"{seconds:8.1f}  {count[module]:4d}  {module}")
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "test-results" / "suite_floor.jsonl")
    parser.add_argument("paths", nargs="*", help="test files or folders (default: every test)")
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    failed = 0
    totals = 0.0
    for name, selection in (("first phase", "not alone"), ("alone phase", "alone")):
        out = args.out.with_suffix(f".{selection.replace(' ', '-')}.jsonl")
        out.unlink(missing_ok=True)
        code = run(selection, out, args.paths)
        failed |= 0 if code == pytest.ExitCode.NO_TESTS_COLLECTED else code
        if not out.exists():  # nothing of this selection in those paths
            continue
        totals += report(name, [json.loads(line) for line in out.read_text().splitlines()])
    print(
        f"\nboth phases: {totals:.0f} CPU s, at least {totals / CORES:.0f} s on {CORES} cores (set-up aside)"
    )
    return failed


if __name__ == "__main__":
    sys.exit(main())
