#!/bin/sh
# Find or install a Chromium; print its path (empty: Playwright's own).
#   setup-browser.sh          the browser tests': Debian's chromium-headless-shell (the same Chromium
#                             without the desktop browser around it, which is Playwright's own choice
#                             for headless runs: the browser tests cost the machine about a third less)
#   setup-browser.sh full     the benchmarks' and screenshots': Debian's chromium, as a learner has it
# Order: $CHROMIUM, the Debian package (installed with apt-get when root), Playwright's download.
set -eu
found() { command -v "$1" 2>/dev/null || true; }
if [ -n "${CHROMIUM:-}" ] && [ -x "$CHROMIUM" ]; then echo "$CHROMIUM"; exit 0; fi
package=chromium-headless-shell
if [ "${1:-}" = full ]; then package=chromium; fi
path=$(found "$package")
if [ -z "$path" ]; then
    "$(dirname "$0")/apt-install.sh" setup-browser "$package"
    path=$(found "$package")
fi
if [ -z "$path" ]; then
    echo "setup-browser: no $package from Debian; using Playwright's download" >&2
    "${VENV:-.venv}/bin/python" -m playwright install chromium >&2
fi
echo "$path"
