#!/bin/sh
# Find or install Redis's server, for the tests of rate limits shared by several instances; print its path.
# Debian's redis-server, installed with apt-get when root and missing (as scripts/setup-postgres.sh does
# for PostgreSQL). The tests start a throwaway server of their own from it; without it they are skipped.
set -eu
path=$(command -v redis-server 2>/dev/null || true)
if [ -z "$path" ]; then
    "$(dirname "$0")/apt-install.sh" setup-redis redis-server
    path=$(command -v redis-server 2>/dev/null || true)
fi
if [ -z "$path" ]; then
    echo "setup-redis: no redis-server: the tests of shared rate limits will be skipped" >&2
fi
echo "$path"
