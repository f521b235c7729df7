#!/bin/sh
# linux-tree.sh CACHE - unpack Debian's linux-source-6.1 into
# CACHE/linux-source-6.1 once (CACHE/linux-source-6.1.unpacked marks a
# complete unpack; it stays outside the tree so that the tree is exactly
# the package's 78,579 files) and print its path.  The tree is never put
# inside the repository.
set -eu
cache=$1
tarball=/usr/src/linux-source-6.1.tar.xz
tree=$cache/linux-source-6.1
stamp=$tree.unpacked
if [ ! -f "$stamp" ] || [ ! -d "$tree" ]; then
	rm -f "$stamp"
	[ -r "$tarball" ] || {
		echo "linux-tree: $tarball is missing (package linux-source-6.1)" >&2
		exit 1
	}
	mkdir -p "$cache"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	echo "unpacking $tarball into $tree ..." >&2
	tar -xJf "$tarball" -C "$tree.tmp" --strip-components=1
	mv "$tree.tmp" "$tree"
	touch "$stamp"
fi
echo "$tree"
