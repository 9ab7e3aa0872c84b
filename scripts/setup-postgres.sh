#!/bin/sh
# Find or install PostgreSQL's server programs for the LTI tests of a shared database; print their folder.
# Debian's postgresql, installed with apt-get when root and missing (as scripts/setup-sandbox.sh does for
# bubblewrap). The tests start a throwaway server of their own from it; without it they are skipped.
set -eu
find_bin() {
    for initdb in $(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V -r) $(command -v initdb 2>/dev/null || true); do
        dirname "$initdb"; return 0
    done
}
bin=$(find_bin || true)
if [ -z "$bin" ]; then
    "$(dirname "$0")/apt-install.sh" setup-postgres postgresql
    bin=$(find_bin || true)
fi
if [ -z "$bin" ]; then
    echo "setup-postgres: no PostgreSQL server programs: the PostgreSQL tests will be skipped" >&2
fi
echo "$bin"
