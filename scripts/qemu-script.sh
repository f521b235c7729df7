#!/bin/sh
# qemu-script.sh CACHE - put QEMU's scripts/get_maintainer.pl (GPL-2.0)
# at CACHE/get_maintainer-qemu.pl once, for tests/cli/test-cc-git-qemu.py
# (the oracle of QEMU's dialect), and print its path.  It is never put
# inside the repository.  The file is the one QEMU has had since its
# commit of Oct 2023 that drops the parentheses of cut entry names (git
# blob 00a0870b267912d75f079ee477b96113c71ec674, in v8.2.0 and later);
# a download whose blob differs is refused, and the test then says it
# skipped.  docs/get-maintainer-dialects.md says where it was read.
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
rm -f "$out.tmp"
echo "downloading QEMU's get_maintainer.pl ($url) ..." >&2
if ! curl -fsSL --max-time 60 -o "$out.tmp" "$url"; then
	rm -f "$out.tmp"
	echo "qemu-script: could not download $url:" \
	     "test cc-git-qemu will be skipped" >&2
	exit 1
fi
got=$(git hash-object "$out.tmp")
if [ "$got" != "$want" ]; then
	rm -f "$out.tmp"
	echo "qemu-script: $url is blob $got, not $want:" \
	     "test cc-git-qemu will be skipped" >&2
	exit 1
fi
chmod +x "$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
