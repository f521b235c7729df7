#!/bin/sh
# deps.sh - make sure the Debian 12 packages maintstat needs are installed.
# As root it installs what is missing with apt-get (non-interactive); as
# anyone else it prints the exact apt-get line to run and fails.
set -eu

PACKAGES="build-essential meson ninja-build pkg-config ccache
  libglib2.0-dev libgmime-3.0-dev libgit2-dev libcurl4-openssl-dev
  libjansson-dev libsqlite3-dev zlib1g-dev libisal-dev
  clang libclang-rt-14-dev
  python3 perl git curl xz-utils ca-certificates bc
  help2man man-db zsh strace
  linux-source-6.1
  public-inbox libsearch-xapian-perl
  libjs-chart.js chromium nodejs"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

line="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" != 0 ]; then
	echo "maintstat needs these Debian packages:$missing" >&2
	echo "Run as root:  apt-get update && $line" >&2
	exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# public-inbox's search needs its recommended Xapian bindings, named above.
# libjs-chart.js: the plots of `maintstat report` (copied into each report);
# chromium and nodejs: its test loads the pages in a headless browser.
# strace: test-cc checks which program the launcher runs.
# man-db: the man page tests render each page with man -l.
# ccache: meson compiles through it when present (the Makefile keeps its
# objects in the cache directory, outside the repository).
apt-get install -y -q --no-install-recommends $missing
