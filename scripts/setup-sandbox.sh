#!/bin/sh
# Find or install bubblewrap, the sandbox POST /verify runs learner code in; print its path.
# Debian's bubblewrap, installed with apt-get when root and missing (as scripts/setup-browser.sh does
# for Chromium). Without it the playground still serves everything; only PLAYGROUND_VERIFY=1 refuses.
set -eu
# Its seccomp filter is built by libseccomp (libseccomp2, through the pyseccomp package): installed too.
path=$(command -v bwrap 2>/dev/null || true)
if [ -z "$path" ] || ! ldconfig -p 2>/dev/null | grep -q 'libseccomp\.so\.2 '; then
    "$(dirname "$0")/apt-install.sh" setup-sandbox bubblewrap
    "$(dirname "$0")/apt-install.sh" setup-sandbox libseccomp2
    path=$(command -v bwrap 2>/dev/null || true)
fi
if [ -z "$path" ]; then
    echo "setup-sandbox: no bwrap: install bubblewrap for PLAYGROUND_VERIFY=1 (and its tests)" >&2
fi
echo "$path"
