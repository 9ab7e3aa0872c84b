#!/bin/sh
# Install one Debian package for a setup script (setup-*.sh): apt-install.sh WHO PACKAGE. Only as root
# where apt-get is there; elsewhere it does nothing, and the caller says what it does without the
# package. An install that fails fails the caller. The package lists are updated at most once an hour,
# however many setup scripts install something in one `make`. `make` runs setup scripts side by side:
# one install runs at a time (a lock on this script), and apt waits for another apt on the machine.
set -eu
who=$1 package=$2
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then exit 0; fi
exec 9<"$0"
flock 9
echo "$who: installing Debian's $package" >&2
stamp=/var/lib/apt/periodic/update-success-stamp  # where APT's own periodic updates note their last
if [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
    apt-get update -qq -o DPkg::Lock::Timeout=600 >&2
    mkdir -p "$(dirname "$stamp")" && touch "$stamp"
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 "$package" >&2
