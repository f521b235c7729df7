#!/bin/bash
# bench-scale.sh [COMMITS] [MESSAGES] - kernel scale: a generated history
# of COMMITS commits (default 1,000,000) with the linux-source-6.1 layout
# and its MAINTAINERS, and a generated list of MESSAGES messages (default
# 1,000,000: a patch and a reply for each of the oldest MESSAGES/2
# commits), as a public-inbox v2 epoch.
#
# Baselines: `git log --no-merges --raw` over the same history (for the
# walk and its memory) and each command's own cold run (for the warm one).
# Timed, once each (a run at this scale takes minutes):
#   activity --no-cache; activity cold (empty store) and warm (nothing new);
#   review --repo --archive cold and warm; link cold and warm.
# For each: wall and CPU seconds and peak resident memory (/usr/bin/time),
# with the ratios to the baselines, and the store's size.
#
# The generated repository and inbox are cached in $MS_CACHE/bench/
# (default ~/.cache/maintstat-dev/bench/scale-COMMITS*); never commit them.
# The packs are fast-import's (trees and messages stored as deltas of
# their previous versions); GC=1 repacks them with git gc first, which
# for 300k commits (3 million objects) takes over 12 minutes on the
# shared 2-core machine.  git log and maintstat read the same packs.
# PARTS=history times only git log and activity (the list is generated
# only for the mail part); PARTS=mail only review and link, whose cold
# runs then fill an empty store with the history too.
# Env: MAINTSTAT (default build/maintstat), MS_LINUX_TREE (default
#      ~/.cache/maintstat-dev/linux-source-6.1), GC, PARTS.
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-1000000}
MSGS=${2:-1000000}
PARTS=${PARTS:-history,mail}
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
TREE=${MS_LINUX_TREE:-$HOME/.cache/maintstat-dev/linux-source-6.1}
CACHE=${MS_CACHE:-$HOME/.cache/maintstat-dev}/bench
[ -x "$MS" ] || { echo "bench: build maintstat first" >&2; exit 1; }
[ -f "$TREE/MAINTAINERS" ] || { echo "bench: no tree at $TREE" >&2; exit 1; }
mkdir -p "$CACHE"
repo=$CACHE/scale-$N.git
inbox=$CACHE/scale-$N-inbox-$MSGS
if [ ! -f "$repo/generated" ]; then
	rm -rf "$repo"
	echo "generating $repo ..." >&2
	/usr/bin/time -f 'generated in %e s, %M KiB peak' \
		python3 tests/bench/gen-history.py --seed 1 --commits "$N" \
		--interval 450 --layout "$TREE" "$repo"
	[ -z "${GC:-}" ] ||
		/usr/bin/time -f 'gc in %e s, %M KiB peak' git --git-dir "$repo" gc -q
	touch "$repo/generated"
fi
# a run on a stub MAINTAINERS would time reports without entries
git --git-dir "$repo" cat-file blob HEAD:MAINTAINERS | cmp -s - "$TREE/MAINTAINERS" ||
	{ echo "bench: $repo: HEAD:MAINTAINERS is not $TREE's" >&2; exit 1; }
gen_inbox() {
	[ ! -f "$inbox/generated" ] || return 0
	rm -rf "$inbox"
	echo "generating $inbox ..." >&2
	/usr/bin/time -f 'generated in %e s, %M KiB peak' \
		python3 tests/bench/gen-inbox.py --max $((MSGS / 2)) "$repo" "$inbox"
	[ -z "${GC:-}" ] || /usr/bin/time -f 'gc in %e s, %M KiB peak' \
		git --git-dir "$inbox/git/0.git" gc -q
	touch "$inbox/generated"
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# timed LABEL CMD...: one run; prints "LABEL wall cpu maxrss_MiB"
timed() {
	local label=$1
	shift
	sync
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$@" > "$tmp/out" ||
		{ echo "$label: failed" >&2; exit 1; }
	awk -v l="$label" '{ printf "%s %.2f %.2f %.0f\n", l, $1, $2 + $3,
		$4 / 1024 }' "$tmp/t"
}
line() { # line LABEL WALL CPU RSS [BASE_WALL BASE_CPU BASE_NAME]
	printf '  %-28s %8.2f s wall %8.2f s cpu %7.0f MiB rss' "$1" "$2" "$3" "$4"
	if [ $# -gt 4 ]; then
		printf '   %.3f wall, %.3f cpu of %s' "$(echo "$2 / $5" | bc -l)" \
			"$(echo "$3 / $6" | bc -l)" "$7"
	fi
	echo
}

db=$tmp/store.sqlite
commits=$(git --git-dir "$repo" rev-list --count HEAD)
echo "generated history: $commits commits ($N asked), layout $TREE"
case $PARTS in *history*) ;; *) skip_history=1 ;; esac
if [ -z "${skip_history:-}" ]; then
read -r _ gw gc gr <<< "$(timed git git --git-dir "$repo" log --no-merges \
	--raw --no-renames --format='%H%n%an <%ae> %at%n%cn <%ce> %ct%n%B' HEAD)"
line "git log --raw (baseline)" "$gw" "$gc" "$gr"
read -r _ w c r <<< "$(timed a "$MS" activity --no-cache --repo "$repo" --json)"
line "activity --no-cache" "$w" "$c" "$r" "$gw" "$gc" "git log"
cp "$tmp/out" "$tmp/want.json"
read -r _ aw ac ar <<< "$(timed a "$MS" activity --db "$db" --repo "$repo" --json)"
line "activity cold" "$aw" "$ac" "$ar" "$gw" "$gc" "git log"
read -r _ w c r <<< "$(timed a "$MS" activity --db "$db" --repo "$repo" --json)"
line "activity warm" "$w" "$c" "$r" "$aw" "$ac" "cold"
cmp -s "$tmp/out" "$tmp/want.json" || { echo "MISMATCH: activity warm" >&2; exit 1; }
fi
cmds=
case $PARTS in *mail*)
	cmds="review link"
	gen_inbox
	echo "generated list: $(git --git-dir "$inbox/git/0.git" rev-list \
		--count HEAD) messages" ;;
esac
for cmd in $cmds; do
	read -r _ cw cc cr <<< "$(timed c "$MS" $cmd --db "$db" --repo "$repo" \
		--archive "$inbox" --json)"
	line "$cmd cold" "$cw" "$cc" "$cr"
	cp "$tmp/out" "$tmp/cold.json"
	read -r _ w c r <<< "$(timed c "$MS" $cmd --db "$db" --repo "$repo" \
		--archive "$inbox" --json)"
	line "$cmd warm" "$w" "$c" "$r" "$cw" "$cc" "cold"
	cmp -s "$tmp/out" "$tmp/cold.json" || { echo "MISMATCH: $cmd warm" >&2; exit 1; }
done
echo "  store: $(( $(stat -c %s "$db") / 1048576 )) MiB"
echo "(cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg))"
