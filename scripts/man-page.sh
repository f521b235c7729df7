#!/bin/sh
# man-page.sh MAINTSTAT COMMAND VERSION OUT DOCDIR
# Write the man page of `maintstat COMMAND` (or of maintstat itself when
# COMMAND is "-") with help2man, from the command's own --help, so the page
# cannot drift from the program.  help2man names the page after the
# executable it runs, so the page runs a wrapper called maintstat-COMMAND
# (or maintstat) that passes the help on with each usage line whole (the
# help wraps them at 79 columns; help2man would cut the SYNOPSIS there)
# and without its examples, which help2man would fill into one
# hyphenated paragraph: the page gets them one a line as written.  Also:
# no hyphenation anywhere (an option copied from the page must work),
# SEE ALSO the related commands and the documentation, and docs/NAME.md
# named where it is installed, DOCDIR/NAME.md.
set -eu
exe=$1 cmd=$2 version=$3 out=$4 docdir=$5

case $exe in /*) ;; *) exe=$PWD/$exe ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ "$cmd" = - ]; then
	prog=$dir/maintstat
	args=
	summary="how kernel-style subsystems are really maintained"
else
	# "mail stats" is maintstat-mail-stats
	prog=$dir/maintstat-$(echo "$cmd" | tr ' ' -)
	args=$cmd
	# the one-line summary `maintstat help` gives the command
	summary=$("$exe" help | awk -v c="${cmd%% *}" '$1 == c {
		sub(/^ *[^ ]+ +/, ""); print; exit }')
	if [ -z "$summary" ]; then
		echo "man-page.sh: 'maintstat help' does not list $cmd" >&2
		exit 1
	fi
fi
cat >"$prog" <<WRAPPER
#!/bin/sh
if [ "\$1" = --help ]; then
	"$exe" $args --help | awk '
		/^Examples:\$/ { exit }
		/^Usage:/ { usage = 1 }
		/^\$/ { usage = 0 }
		usage && /^      *[^ ]/ { sub(/^ +/, " "); line = line \$0; next }
		NR > 1 { print line }
		{ line = \$0 }
		END { print line }'
	exit 0
fi
exec "$exe" $args "\$@"
WRAPPER
chmod +x "$prog"

# SEE ALSO: the commands whose answers go with this one's
case $cmd in
-) see=$("$exe" help | awk '/^  [a-z]+  / { print $1 }') ;;
sections) see="maintainers entries coverage" ;;
maintainers) see="sections entries activity" ;;
entries) see="sections coverage" ;;
coverage) see="entries sections" ;;
activity) see="urgent retire identities areas review" ;;
areas) see="activity recruit entries review" ;;
recruit) see="areas retire activity" ;;
urgent) see="activity retire review" ;;
retire) see="activity urgent identities recruit" ;;
identities) see="activity retire review" ;;
store) see="activity link review" ;;
fetch) see="mail review" ;;
mail) see="mail-stats mail-show fetch" ;;
"mail stats") see="mail-show fetch review" ;;
"mail show") see="mail-stats link" ;;
link) see="review mail-show" ;;
review) see="report pending link activity" ;;
report) see="review urgent" ;;
pending) see="review report" ;;
people) see="review identities" ;;
*) see= ;;
esac
{
	# the examples as written, one a line (help2man would fill them
	# into one paragraph); the wrapper leaves them out of its --help
	"$exe" $args --help | awk '
		/^Examples:$/ { ex = 1; print "[EXAMPLES]"; print ".nf"; next }
		ex && /^$/ { next }
		ex {
			gsub(/\\/, "\\e"); gsub(/-/, "\\-")
			sub(/^  /, ""); sub(/^[.\047]/, "\\&&"); print }
		END { if (ex) print ".fi" }'
	echo "[SEE ALSO]"
	if [ "$cmd" != - ]; then
		printf '.BR maintstat (1)'
		[ -n "$see" ] && printf ','
		echo
	fi
	last=$(echo $see | awk '{ print $NF }')
	for s in $see; do
		printf '.BR maintstat-%s (1)' "$s"
		[ "$s" != "$last" ] && printf ','
		echo
	done
	echo ".PP"
	echo "The documentation is installed in"
	echo ".IR $docdir :"
	echo "README.md, cli.md (the options every command shares), json.md"
	echo "(the JSON documents), review.md (the review's metrics),"
	echo "identities.md (who is who), store.md (the incremental store),"
	echo "get-maintainer-dialects.md and architecture.md."
} >"$dir/include"

# LC_ALL=C: the same page whatever the builder's locale
LC_ALL=C help2man --no-info --no-discard-stderr --section=1 \
	--name="$summary" --version-string="$version" \
	--include="$dir/include" --output="$dir/page" "$prog"
awk -v docdir="$docdir" '
	# no hyphenation: what is copied from the page must be typed so
	/^\.TH / { print; print ".nh"; next }
	{ gsub(/docs\//, docdir "/"); print }' "$dir/page" >"$out"
