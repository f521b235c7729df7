#!/bin/sh
# linux-tree.sh CACHE - unpack Debian's linux-source-6.1 into
# CACHE/linux-source-6.1 once (a stamp file marks a complete unpack) and
# print its path.  The tree is never put inside the repository.
set -eu
cache=$1
tarball=/usr/src/linux-source-6.1.tar.xz
tree=$cache/linux-source-6.1
if [ ! -f "$tree/.maintstat-unpacked" ]; then
	[ -r "$tarball" ] || {
		echo "linux-tree: $tarball is missing (package linux-source-6.1)" >&2
		exit 1
	}
	mkdir -p "$cache"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	echo "unpacking $tarball into $tree ..." >&2
	tar -xJf "$tarball" -C "$tree.tmp" --strip-components=1
	touch "$tree.tmp/.maintstat-unpacked"
	mv "$tree.tmp" "$tree"
fi
echo "$tree"
