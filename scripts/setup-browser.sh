#!/bin/sh
# Find or install a Chromium for the browser tests; print its path (empty: Playwright's own).
# Order: $CHROMIUM, Debian's chromium (installed with apt-get when root), Playwright's download.
set -eu
found() { command -v "$1" 2>/dev/null || true; }
if [ -n "${CHROMIUM:-}" ] && [ -x "$CHROMIUM" ]; then echo "$CHROMIUM"; exit 0; fi
path=$(found chromium)
if [ -z "$path" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup-browser: installing Debian's chromium" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
    path=$(found chromium)
fi
if [ -z "$path" ]; then
    echo "setup-browser: no system chromium; using Playwright's download" >&2
    "${VENV:-.venv}/bin/python" -m playwright install chromium >&2
fi
echo "$path"
