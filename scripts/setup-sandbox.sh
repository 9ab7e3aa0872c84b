#!/bin/sh
# Find or install bubblewrap, the sandbox POST /verify runs learner code in; print its path.
# Debian's bubblewrap, installed with apt-get when root and missing (as scripts/setup-browser.sh does
# for Chromium). Without it the playground still serves everything; only PLAYGROUND_VERIFY=1 refuses.
set -eu
path=$(command -v bwrap 2>/dev/null || true)
if [ -z "$path" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup-sandbox: installing Debian's bubblewrap" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >&2
    path=$(command -v bwrap 2>/dev/null || true)
fi
if [ -z "$path" ]; then
    echo "setup-sandbox: no bwrap: install bubblewrap for PLAYGROUND_VERIFY=1 (and its tests)" >&2
fi
echo "$path"
