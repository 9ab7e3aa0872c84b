"""Benchmark POST /verify: one verification's time, verifications per second, and a bounded load run.

    .venv/bin/python -m benchmarks.verify [--runs 60] [--clients 50] [--seconds 20] [--workers 4]

Starts gunicorn as docs/verification.md says (PLAYGROUND_VERIFY=1, the real bubblewrap sandbox, the rate limit
raised for one loopback address) and, on 127.0.0.1 only:
1. one verification of correct code at a time, --runs times: median and p99 of the time the client
   waits (and of the report's own `ms`, the sandbox's start to the verdict);
2. verifications per second: as many clients as sandbox slots, each verifying correct code one after
   the other for 10 s;
3. the load run: --clients clients for --seconds, each posting correct code (four in five) or an
   endless loop (one in five) and, when told 503, waiting its Retry-After; beside them one client
   fetching `/` all the time. Fails (exit 1) on any 500, any request lost (no answer, a 5xx other
   than 503, a 503 without Retry-After), or a process of a sandbox's uid left after the run.
"""

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.support import servers, solutions
from tests.support.sandboxes import sandbox_processes

ENDLESS = "def backward(out):\n    while True:\n        pass\n"


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100), nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def post(connection: http.client.HTTPConnection, source: str, client: int = 0) -> tuple[int, dict, dict]:
    """POST a source to /verify on a kept-alive connection, as client n (the address the proxy says,
    PROXY_FIX=1: one sandbox at a time per client); the status, headers and JSON answer."""
    body = json.dumps({"source": source})
    headers = {"Content-Type": "application/json", "X-Forwarded-For": f"198.51.100.{client % 250 + 1}"}
    connection.request("POST", "/verify", body, headers)
    response = connection.getresponse()
    data = response.read()
    return response.status, dict(response.getheaders()), json.loads(data) if data else {}


def one_at_a_time(host: str, port: int, runs: int) -> tuple[list[float], list[float]]:
    """Verify correct code runs times in a row; the client's and the report's times, in ms."""
    connection = http.client.HTTPConnection(host, port, timeout=60)
    waited, reported = [], []
    for _ in range(runs + 3):  # three to warm up, not counted
        start = time.perf_counter()
        status, _, answer = post(connection, solutions.CORRECT)
        assert status == 200 and answer["report"]["passed"], (status, answer)
        waited.append((time.perf_counter() - start) * 1000)
        reported.append(answer["report"]["ms"])
    return waited[3:], reported[3:]


def throughput(host: str, port: int, clients: int, seconds: float) -> tuple[int, int, float]:
    """Clients verifying correct code back to back for seconds: (verified, refused 503, elapsed)."""
    counts = {"ok": 0, "busy": 0}
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def client(n: int) -> None:
        connection = http.client.HTTPConnection(host, port, timeout=60)
        while time.monotonic() < deadline:
            status, _, _ = post(connection, solutions.CORRECT, n)
            with lock:
                counts["ok" if status == 200 else "busy"] += 1
            if status == 503:
                time.sleep(0.01)

    start = time.monotonic()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return counts["ok"], counts["busy"], time.monotonic() - start


def load_run(host: str, port: int, clients: int, seconds: float) -> dict:
    """The bounded load run: verifying clients (some endless loops) and one client fetching `/`."""
    results: dict = {"status": {}, "lost": 0, "no_retry_after": 0, "verify_ms": [], "page_ms": [], "loops": 0}
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def verifier(n: int) -> None:
        connection = http.client.HTTPConnection(host, port, timeout=60)
        i = 0
        while time.monotonic() < deadline:
            endless = (n + i) % 5 == 0
            i += 1
            start = time.perf_counter()
            try:
                status, headers, _ = post(connection, ENDLESS if endless else solutions.CORRECT, n)
            except (OSError, http.client.HTTPException, ValueError):
                with lock:
                    results["lost"] += 1
                connection = http.client.HTTPConnection(host, port, timeout=60)
                continue
            with lock:
                results["status"][status] = results["status"].get(status, 0) + 1
                if status == 200:
                    results["verify_ms"].append((time.perf_counter() - start) * 1000)
                    results["loops"] += endless
                if status == 503 and "Retry-After" not in headers:
                    results["no_retry_after"] += 1
            if status == 503:
                time.sleep(min(float(headers.get("Retry-After", 1)), max(0.0, deadline - time.monotonic())))

    def page() -> None:
        connection = http.client.HTTPConnection(host, port, timeout=60)
        while time.monotonic() < deadline:
            start = time.perf_counter()
            connection.request("GET", "/")
            response = connection.getresponse()
            response.read()
            with lock:
                results["page_ms"].append((time.perf_counter() - start) * 1000)
                if response.status != 200:
                    results["lost"] += 1
            time.sleep(0.05)

    threads = [threading.Thread(target=verifier, args=(n,)) for n in range(clients)]
    threads.append(threading.Thread(target=page))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def main() -> int:
    """Run the three measurements and print them; exit 1 if the load run lost or failed a request."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="verify-bench-"))
    env = {
        "PLAYGROUND_VERIFY": "1",
        "PLAYGROUND_VERIFY_RATE_LIMIT": "1000000",  # the load, not the limit, is measured here
        "PLAYGROUND_PROXY_FIX": "1",  # each client says its address (X-Forwarded-For): one sandbox each
        "PLAYGROUND_SIGNING_KEY_FILE": str(folder / "signing-key.pem"),
    }
    slots = os.cpu_count() or 1
    with servers.gunicorn(workers=args.workers, threads=4, env=env) as base:
        host, port = base.split("//")[1].rstrip("/").split(":")
        port = int(port)
        waited, reported = one_at_a_time(host, port, args.runs)
        print(
            f"POST /verify, correct code, gunicorn {args.workers} workers x 4 threads, {slots} sandbox slots"
        )
        print(
            f"one at a time ({args.runs}): client median {statistics.median(waited):.1f} ms,"
            f" p99 {percentile(waited, 99):.1f} ms;"
            f" report's ms median {statistics.median(reported):.1f}, p99 {percentile(reported, 99):.1f}"
        )
        ok, busy, elapsed = throughput(host, port, slots, 10)
        print(f"{slots} clients back to back, 10 s: {ok / elapsed:.1f} verifications/s ({busy} answered 503)")
        run = load_run(host, port, args.clients, args.seconds)
    time.sleep(0.5)
    left = sandbox_processes()
    statuses = ", ".join(f"{k}: {v}" for k, v in sorted(run["status"].items()))
    print(
        f"load: {args.clients} clients, {args.seconds:g} s, 1 in 5 an endless loop (3 s limit):"
        f" {sum(run['status'].values())} answered ({statuses}); lost {run['lost']};"
        f" 503 without Retry-After {run['no_retry_after']}; endless loops verified {run['loops']}"
    )
    if run["verify_ms"]:
        done = run["verify_ms"]
        print(f"  200s: median {statistics.median(done):.0f} ms, p99 {percentile(done, 99):.0f} ms")
    page = run["page_ms"]
    print(
        f"  GET / meanwhile: {len(page)} requests, median {statistics.median(page):.1f} ms,"
        f" p99 {percentile(page, 99):.1f} ms"
    )
    print(f"  sandbox processes left after the run: {len(left)}")
    failed = run["status"].get(500, 0) or run["lost"] or run["no_retry_after"] or left
    failed = failed or percentile(run["page_ms"], 99) >= 1000
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
