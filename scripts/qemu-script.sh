#!/bin/sh
# qemu-script.sh CACHE - put QEMU's scripts/get_maintainer.pl (GPL-2.0)
# at CACHE/get_maintainer-qemu.pl once, for tests/cli/test-cc-git-qemu.py
# (the oracle of QEMU's dialect), and print its path.  It is never put
# inside the repository.  The file is the one QEMU has had since its
# commit of Oct 2023 that drops the parentheses of cut entry names (git
# blob 00a0870b267912d75f079ee477b96113c71ec674, in v8.2.0 and later);
# a download whose blob differs is refused, and the test then says it
# skipped.  It is taken from gitlab.com's v8.2.0 tag, else from the qemu
# source package of Debian's archive (trixie, then bookworm-backports:
# QEMU 10.0's file is the same blob), where a machine that reaches only
# Debian's mirror finds it.  docs/get-maintainer-dialects.md says where
# it was read.
set -eu
cache=$1
want=00a0870b267912d75f079ee477b96113c71ec674
url=https://gitlab.com/qemu-project/qemu/-/raw/v8.2.0/scripts/get_maintainer.pl
out=$cache/get_maintainer-qemu.pl
if [ -f "$out" ] && [ "$(git hash-object "$out")" = "$want" ]; then
	echo "$out"
	exit 0
fi
mkdir -p "$cache"
tmp=$(mktemp -d "$cache/qemu-script.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# keep $tmp/get_maintainer.pl as $out when it is the blob wanted
keep() {
	got=$(git hash-object "$tmp/get_maintainer.pl")
	if [ "$got" != "$want" ]; then
		echo "qemu-script: $1 is blob $got, not $want" >&2
		return 1
	fi
	chmod +x "$tmp/get_maintainer.pl"
	mv "$tmp/get_maintainer.pl" "$out"
	echo "$out"
}

# the file from Debian's qemu source package of suite $1
from_debian() {
	mirror=http://deb.debian.org/debian
	orig=$(curl -fsSL --max-time 120 "$mirror/dists/$1/main/source/Sources.xz" |
	       xz -dc | awk '/^Package: /{p = ($2 == "qemu")}
			     p && !n && / qemu_[^ ]*\.orig\.tar\.xz$/{print $NF; n = 1}')
	[ -n "$orig" ] || return 1
	echo "downloading QEMU's get_maintainer.pl ($mirror, $orig) ..." >&2
	curl -fsSL --max-time 600 -o "$tmp/orig.tar.xz" \
		"$mirror/pool/main/q/qemu/$orig" || return 1
	# one pass over the tarball: the top directory's copy, not
	# roms/u-boot's (a '*' never matches a '/')
	tar -xJOf "$tmp/orig.tar.xz" --wildcards --no-wildcards-match-slash \
		'*/scripts/get_maintainer.pl' >"$tmp/get_maintainer.pl" ||
		return 1
	rm -f "$tmp/orig.tar.xz"
	keep "$orig"
}

echo "downloading QEMU's get_maintainer.pl ($url) ..." >&2
if curl -fsSL --max-time 60 -o "$tmp/get_maintainer.pl" "$url" &&
   keep "$url"; then
	exit 0
fi
for suite in trixie bookworm-backports; do
	from_debian "$suite" && exit 0
done
echo "qemu-script: no copy of QEMU's get_maintainer.pl (blob $want)" \
     "could be downloaded: test cc-git-qemu will be skipped" >&2
exit 1
