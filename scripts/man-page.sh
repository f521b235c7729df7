#!/bin/sh
# man-page.sh MAINTSTAT COMMAND VERSION OUT
# Write the man page of `maintstat COMMAND` (or of maintstat itself when
# COMMAND is "-") with help2man, from the command's own --help, so the page
# cannot drift from the program.  help2man names the page after the
# executable it runs, so a per-command page runs a two-line wrapper called
# maintstat-COMMAND.
set -eu
exe=$1 cmd=$2 version=$3 out=$4

case $exe in /*) ;; *) exe=$PWD/$exe ;; esac
if [ "$cmd" = - ]; then
	prog=$exe
	summary="how kernel-style subsystems are really maintained"
else
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	# "mail stats" is maintstat-mail-stats
	prog=$dir/maintstat-$(echo "$cmd" | tr ' ' -)
	printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$exe" "$cmd" >"$prog"
	chmod +x "$prog"
	# the one-line summary `maintstat help` gives the command
	summary=$("$exe" help | awk -v c="${cmd%% *}" '$1 == c {
		sub(/^ *[^ ]+ +/, ""); print; exit }')
	if [ -z "$summary" ]; then
		echo "man-page.sh: 'maintstat help' does not list $cmd" >&2
		exit 1
	fi
fi
# LC_ALL=C: the same page whatever the builder's locale
LC_ALL=C help2man --no-info --no-discard-stderr --section=1 \
	--name="$summary" --version-string="$version" \
	--output="$out" "$prog"
