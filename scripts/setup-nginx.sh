#!/bin/sh
# Find or install nginx for the test that serves a static export with the nginx block the export
# writes (tests/test_nginx.py); print its path. Debian's nginx-light, installed with apt-get when root
# and missing (as scripts/setup-postgres.sh does for PostgreSQL). Without it that test is skipped.
set -eu
find_nginx() { command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true; }
path=$(find_nginx)
if [ -z "$path" ]; then
    "$(dirname "$0")/apt-install.sh" setup-nginx nginx-light
    path=$(find_nginx)
fi
if [ -z "$path" ]; then
    echo "setup-nginx: no nginx: the test of the export's nginx block in nginx itself will be skipped" >&2
fi
echo "$path"
