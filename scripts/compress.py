"""Write a .br and a .gz copy beside each file of a folder, once, saying what it does as it goes.

WhiteNoise's own compressor (the same settings `python -m whitenoise.compress` uses: brotli at its
best, gzip -9, a copy kept only where it is at least 5 % smaller), over the files that are not copies
already, one process per core (brotli holds Python's lock while it works). Brotli at its best takes
about half a minute for Pyodide's wasm: a line says so when a big file starts and when it is done, so a
first `make run` is never silent.

    python scripts/compress.py FOLDER [--quiet]
"""

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

from whitenoise.compress import Compressor


def loud(text: str) -> None:
    print(text, flush=True)


def quiet(text: str) -> None:
    pass


BIG = 1_000_000  # bytes: a file this large gets a line when it starts and when it is done


def compress(path: Path, say) -> None:
    """Write path's .br and .gz copies (where they are smaller), with a line at each end for a big file."""
    size = path.stat().st_size
    if size >= BIG:
        say(f"    {path.name} ({size / 1e6:.1f} MB)...")
    began = time.monotonic()
    Compressor(extensions=("br", "gz"), quiet=True).compress(os.fspath(path))
    if size >= BIG:
        say(f"    {path.name} done in {time.monotonic() - began:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args()
    say = quiet if args.quiet else loud
    compressor = Compressor(extensions=("br", "gz"), quiet=True)
    files = sorted(
        (
            p
            for p in args.folder.rglob("*")
            if p.is_file() and not p.name.startswith(".") and compressor.should_compress(p.name)
        ),
        key=lambda p: -p.stat().st_size,  # the longest first, so two cores finish together
    )
    total = sum(p.stat().st_size for p in files)
    say(f"  compressing {len(files)} files ({total / 1e6:.1f} MB) in {args.folder}/: brotli and gzip, once")
    started = time.monotonic()

    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for future in [pool.submit(partial(compress, say=say), path) for path in files]:
            future.result()
    say(f"  compressed in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
