"""Print `make bench`'s table: ours beside the stock page from a CDN, the ratio, the target, the floor."""

import statistics
from collections import Counter

from benchmarks.sites import IMMUTABLE, STOCK, STOCK_FILES
from tests.browser.chromium import chromium_path

# (row, key in a run, scenario, target ratio ours/stock)
RATIO_ROWS = [
    ("ready, first visit, loopback (ms)", "ready", "first", 0.40),
    ("ready, returning visit (ms)", "ready", "returning", 0.25),
    ("ready, first visit, 20 Mbit/s, 40 ms (ms)", "ready", "line", 0.45),
    ("bytes, first visit", "bytes", "first", 0.80),
]
TYPING_MS, CHECK_MS, BURST_MS = 150, 50, 150  # targets: the editor takes a key, check() answers, ten in a row


def median(runs: list[dict], key: str) -> float | None:
    values = [r[key] for r in runs if r.get(key) is not None]
    return statistics.median(values) if values else None


def cell(value: float | None, fmt: str = ",.0f") -> str:
    return "n/a" if value is None else format(value, fmt)


def holds(ok: bool | None) -> str:
    return "n/a" if ok is None else "yes" if ok else "no"


def print_report(runs: dict[str, list[dict]], rounds: int, rate: float, rtt: float) -> None:
    """Print the medians over the rounds: one table, then how it was measured, then the footnote."""
    counts = ", ".join(f"{k} {len(v)}" for k, v in runs.items() if len(v) != rounds)
    browser = chromium_path(full=True) or "Playwright Chromium"
    print(f"\nMedians over {rounds} rounds, headless {browser}", end="")
    print(f" (runs that worked, where fewer: {counts}):" if counts else ":")
    header = f"{'':44}{'ours':>11}{'stock, CDN':>13}{'ratio':>13}{'target':>10}{'holds':>7}"
    print(header)
    print("-" * len(header))

    def row(label: str, ours: str, stock: str = "", ratio: str = "", target: str = "", ok: str = "") -> None:
        print(f"{label:44}{ours:>11}{stock:>13}{ratio:>13}{target:>10}{ok:>7}")

    for label, key, kind, target in RATIO_ROWS:
        ours, stock = median(runs[f"ours {kind}"], key), median(runs[f"stock {kind}"], key)
        ratio = ours / stock if ours is not None and stock else None
        ok = None if ratio is None else ratio <= target
        row(label, cell(ours), cell(stock), cell(ratio, ".2f"), f"<= {target:.2f}", holds(ok))
    typing = median(runs["ours first"], "typing")
    ok = None if typing is None else typing < TYPING_MS
    row("editor takes a key, after navigation (ms)", cell(typing), "-", "", f"< {TYPING_MS}", holds(ok))
    burst = [statistics.median(r["back to back"]) for r in runs["ours first"] if r.get("back to back")]
    back = statistics.median(burst) if burst else None
    ok = None if back is None else back < BURST_MS
    row("check() ten times back to back (ms)", cell(back, ",.1f"), "-", "", f"< {BURST_MS}", holds(ok))
    checks = [ms for r in runs["ours first"] for ms in r.get("checks", [])]
    check = statistics.median(checks) if checks else None
    ok = None if check is None else check < CHECK_MS
    row("check(), its runtime ready (ms)", cell(check, ",.1f"), "-", "", f"< {CHECK_MS}", holds(ok))
    spaced = [ms for r in runs["ours first"] for ms in r.get("spaced", [])]
    after = statistics.median(spaced) if spaced else None
    ok = None if after is None else after < CHECK_MS
    row("check(), a second after the last (ms)", cell(after, ",.1f"), "-", "", f"< {CHECK_MS}", holds(ok))
    cold, warm = median(runs["floor cold"], "compile"), median(runs["floor warm"], "compile")
    stock_first, stock_back = median(runs["stock first"], "ready"), median(runs["stock returning"], "ready")
    ratios = [a / b if a is not None and b else None for a, b in ((cold, stock_first), (warm, stock_back))]
    floor = f"{cell(cold)} / {cell(warm)}"
    row("floor: fetch + compile our wasm (ms)", floor, "", " / ".join(cell(r, ".2f") for r in ratios))
    print("  (floor: first / returning visit; its ratios are to the stock page's ready)")

    print("\nBeside the table (medians):")
    graded = [ms for r in runs["ours first"] for ms in r.get("graded", []) if ms is not None]
    fresh = [ms for r in runs["ours first"] for ms in r.get("fresh", [])]
    print(
        f"  check(): {len(checks)} calls, {len(checks) // max(len(runs['ours first']), 1)} a first visit; "
        f"the report's own ms (grading in the worker): {cell(statistics.median(graded) if graded else None)}"
    )
    if fresh:
        print(
            f"  the next Check's fresh runtime (restored from the snapshot), ready after a Check: "
            f"{statistics.median(fresh):,.0f} ms; each check() above started once it was"
        )
    else:
        print("  no data-fresh on the runtime status: each check() above included waiting for its runtime")
    for kind in ("first", "returning"):
        visits = runs[f"ours {kind}"]
        shown, typed, paint = (cell(median(visits, k)) for k in ("editor", "typed", "paint"))
        waited = [r["typed"] - r["key"] for r in visits if r.get("key") is not None and r.get("typed")]
        print(
            f"  editor, {kind} visit: first contentful paint at {paint} ms; the editor there, painted and "
            f"focused at {shown} ms; the bench's key showed at {typed} ms, "
            f"{cell(statistics.median(waited) if waited else None)} ms after the page received it"
        )
    for i, visit in enumerate(runs["ours first"]):
        if visit.get("back to back"):
            times = [round(ms) for ms in visit["back to back"]]
            print(f"  ten check() in a row, round {i + 1} (ms): {times}")
    print(
        "  timeline, ms from navigation start to each file's arrival (the page's resource timings), medians:"
    )
    for site in ("ours", "stock"):
        for kind in ("first", "returning"):
            visits = [r["timeline"] for r in runs[f"{site} {kind}"] if "timeline" in r]
            keys = sorted(
                {k for t in visits for k in t},
                key=lambda k: statistics.median(t[k] for t in visits if k in t),
            )
            steps = ", ".join(f"{k} {statistics.median(t[k] for t in visits if k in t):,.0f}" for k in keys)
            print(f"    {site}, {kind}: {steps}")
    alone = [r["typed"] - r["key"] for r in runs["typing alone"] if r.get("key") is not None]
    print(
        f"  in a page with nothing but an editable element, a key shows "
        f"{cell(statistics.median(alone) if alone else None)} ms after the page received it, and the row's "
        f"figure is "
        f"{cell(median(runs['typing alone'], 'typing'))} ms after navigation (the row's floor here)"
    )
    for kind in ("first", "returning"):
        sent = {site: median(runs[f"{site} {kind}"], "bytes") for site in ("ours", "stock")}
        requests = {site: median(runs[f"{site} {kind}"], "requests") for site in ("ours", "stock")}
        encodings = {site: encoding_mix(runs[f"{site} {kind}"]) for site in ("ours", "stock")}
        print(
            f"  {kind} visit, bytes sent (requests; encodings): ours {cell(sent['ours'])} "
            f"({cell(requests['ours'])}; {encodings['ours']}), stock {cell(sent['stock'])} "
            f"({cell(requests['stock'])}; {encodings['stock']})"
        )
    for site in ("ours", "stock"):
        caches = [r["code cache"] for r in runs[f"{site} first"]]
        if caches:
            wasm, js = (statistics.median(c[k] for c in caches) for k in ("wasm", "js"))
            print(
                f"  V8 code cache on disk after the first visit, {site}: wasm {wasm:,.0f} B, js {js:,.0f} B"
            )
    for site in ("ours", "stock"):
        sent, ready = median(runs[f"{site} first"], "bytes"), median(runs[f"{site} line"], "ready")
        if sent is not None and ready is not None:
            least = 1000 * sent / rate
            note = "" if ready >= least else "  WARNING: faster than the line allows"
            print(f"  line, {site}: ready in {ready:,.0f} ms; its bytes alone need {least:,.0f} ms{note}")
    print(
        f"\nLine: relays under the browser (benchmarks/line.py), {rate * 8 / 1e6:g} Mbit/s each way, shared "
        f"by all connections, {rtt * 1000:g} ms round trip, one more for each new connection."
    )
    print(
        f"Stock, CDN-like: a page on one origin, node_modules/pyodide's files on another: brotli-11, "
        f"'{IMMUTABLE}', CORS."
    )
    raw = sum((STOCK / name).stat().st_size for name in STOCK_FILES)
    ours_sent = median(runs["ours first"], "bytes")
    share = f"; ours sends {ours_sent / raw:.2f}x that" if ours_sent else ""
    print(f"Footnote: the five stock files uncompressed (the old comparison) are {raw:,} bytes{share}.")


def encoding_mix(runs: list[dict]) -> str:
    """How a visit's responses were encoded, per visit: br x4, identity x3."""
    counts = sum((r["encodings"] for r in runs), Counter())
    return " ".join(f"{enc} x{n / len(runs):g}" for enc, n in counts.most_common()) if runs else "-"
