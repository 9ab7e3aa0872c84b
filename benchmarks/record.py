"""Benchmark recording a Check (server/records/): what it adds to the request, on SQLite and PostgreSQL.

    .venv/bin/python -m benchmarks.record [--runs 300]

In one process, through Flask's test client (no network): --runs `POST /record`s of a wrong Check with a
learner token, each a different source (nobody judges here: QUEUE_WORKERS=0, the bounds raised), timed
from the request to the 202 (the token's check, the learner's row, the two counts of the bounds, the
attempt's row and the judge's task queued: all of recording); and --runs times /verify's part, the
recording of a Check it judged (records.judge.record_judged: the verdict read from the report, the
learner's row, the attempt and its results). Prints the median and p95 of each, in ms.
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import jwt

from server.learners.who import Who
from server.records.judge import record_judged
from tests.support import solutions
from tests.support.postgres import postgres_server
from tests.support.verifying import verifying_app

SECRET = "a course's secret, shared with the playground, 32+ bytes"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def said(name: str, ms: list[float]) -> str:
    return f"{name}: median {statistics.median(ms):.2f} ms, p95 {percentile(ms, 95):.2f} ms ({len(ms)} runs)"


def measure(folder: Path, url: str, runs: int) -> list[str]:
    """Time recording on the database url."""
    app = verifying_app(
        folder, LEARNER_TOKEN_SECRET=SECRET, DATABASE_URL=url, QUEUE_WORKERS=0, RECORDS_QUEUED=10**9
    )
    app.config.update(RECORDS_QUEUED_PER_LEARNER=10**9, RECORD_RATE_LIMIT=10**9)
    client = app.test_client()
    token = jwt.encode({"sub": "ada", "exp": int(time.time()) + 3600, "course": "c"}, SECRET, "HS256")
    posted = []
    for n in range(runs + 20):  # the first 20 warm up (connections, caches)
        body = {"source": solutions.NO_SEED + f"# {n}\n", "learner": token}
        start = time.perf_counter()
        answer = client.post("/record", json=body)
        posted.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 202, answer.json
    report = {"passed": True, "error": None, "rule": "seed", "expressions": []}
    who = Who("ada", "", "c", "")
    judged = []
    with app.test_request_context():
        for n in range(runs + 20):
            start = time.perf_counter()
            record_judged(who, solutions.CORRECT + f"# {n}\n", [], report, [])
            judged.append((time.perf_counter() - start) * 1000)
    return [said("POST /record", posted[20:]), said("/verify's recording", judged[20:])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as folder:
        for line in measure(Path(folder), f"sqlite:///{folder}/records.sqlite3", runs):
            print("SQLite     ", line)
    with tempfile.TemporaryDirectory() as folder, postgres_server() as url:
        for line in measure(Path(folder), url, runs):
            print("PostgreSQL ", line)


if __name__ == "__main__":
    main()
