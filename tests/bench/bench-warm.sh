#!/bin/bash
# bench-warm.sh [GITDIR] - what a warm `activity` re-run costs against the
# cold run that filled the store (issue 21: warm <= 0.05 of cold).
#
# Baseline: the cold run, `maintstat activity --json --db NEW` on an empty
# store.  Then, on the filled store with nothing new, the warm run.  Then
# NEW commits (one new file each, and a change to an old one) are added
# to a throwaway clone sharing GITDIR's objects (GITDIR is not written),
# and the warm run after them starts each time from a copy of the store
# as the cold run left it.  Each is run RUNS times (the cold one on a
# fresh store each time); the best wall time, the spread (worst - best)
# and the best CPU time (user + sys, less disturbed by other load on a
# shared machine) are printed, with the warm/cold ratios of both.  Every
# warm report must equal a cold one of the same history.
#
# Usage: tests/bench/bench-warm.sh [GITDIR]  (default: the U-Boot mirror)
# Env:   MAINTSTAT (default build/maintstat), RUNS (default 3),
#        ARGS (extra activity options, e.g. "--merges"), NEW (default 5;
#        0: no run after new commits), BY (e.g. "month": also the warm
#        `--by BY` run, nothing new, and after the NEW commits, against
#        the same cold baseline; each compared with a --no-cache `--by`
#        report of the same history.  The NEW commits are then dated
#        just after the tip, not in 2033, so that they fall in the last
#        interval instead of after the window)
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=${1:-/work/.mirror/u-boot+u-boot/repo}
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
RUNS=${RUNS:-3}
ARGS=${ARGS:-}
NEW=${NEW:-5}
BY=${BY:-}
[ -x "$MS" ] || { echo "bench: build maintstat first" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# the clone every run reads, so that the runs after new commits use the
# same repository (and store) as the others
git clone -q --bare --shared "$REPO" "$tmp/clone.git"
ORIG=$REPO
REPO=$tmp/clone.git

# run OUT DB [OPTION...]: one timed run; prints "wall cpu"
run() {
	local out=$1 db=$2

	shift 2
	# shellcheck disable=SC2086
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$MS" activity \
		--repo "$REPO" --json --db "$db" $ARGS "$@" > "$out"
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$tmp/time"
}
# stats FILE: best wall, spread, best cpu of the "wall cpu" lines
stats() {
	sort -n "$1" | awk 'NR == 1 { b = $1 } { w = $1 }
		END { printf "%.3f %.3f ", b, w - b }'
	sort -n -k2 "$1" | awk 'NR == 1 { printf "%.3f\n", $2 }'
}

: > "$tmp/cold"
for i in $(seq "$RUNS"); do
	rm -f "$tmp/db"*
	sync
	run "$tmp/cold.json" "$tmp/db" >> "$tmp/cold"
done
# by_ref OUT: the `--by BY` report of --no-cache (nothing kept or read)
by_ref() {
	# shellcheck disable=SC2086
	"$MS" activity --repo "$REPO" --json --no-cache $ARGS --by "$BY" > "$1"
}
: > "$tmp/warm"
for i in $(seq "$RUNS"); do
	run "$tmp/warm.json" "$tmp/db" >> "$tmp/warm"
done
cmp -s "$tmp/cold.json" "$tmp/warm.json" ||
	{ echo "MISMATCH: the warm report differs from the cold one" >&2; exit 1; }
if [ -n "$BY" ]; then
	# the store as a --by run left it (untimed), as for a re-run
	run "$tmp/by.json" "$tmp/db" --by "$BY" > /dev/null
	: > "$tmp/by"
	for i in $(seq "$RUNS"); do
		run "$tmp/by.json" "$tmp/db" --by "$BY" >> "$tmp/by"
	done
	by_ref "$tmp/by-ref.json"
	cmp -s "$tmp/by-ref.json" "$tmp/by.json" ||
		{ echo "MISMATCH: the warm --by report differs from --no-cache's" >&2; exit 1; }
fi
# NEW commits on top of the clone: each adds a file and changes an old one
new_commits() {
	local tip old stream="" i msg base
	tip=$(git --git-dir "$REPO" rev-parse HEAD)
	# in 2033 (after the window) unless BY is set: then in the last
	# interval, a second apart after the tip's commit date
	base=2000000000
	[ -n "$BY" ] && base=$(git --git-dir "$REPO" log -1 --format=%ct HEAD)
	old=$(git --git-dir "$REPO" ls-tree -r --name-only HEAD | sed -n 100p)
	for i in $(seq "$NEW"); do
		msg="bench: new commit $i"$'\n\n'"Reviewed-by: Bench Reviewer <bench-rev@example.org>"$'\n'
		stream+="commit refs/heads/bench"$'\n'
		stream+="author Bench Author <bench@example.org> $((base + i)) +0000"$'\n'
		stream+="committer Bench Author <bench@example.org> $((base + i)) +0000"$'\n'
		stream+="data ${#msg}"$'\n'"$msg"
		[ "$i" = 1 ] && stream+="from $tip"$'\n'
		stream+="M 100644 inline bench/new-$i.c"$'\n'"data 2"$'\n'"x"$'\n'
		stream+="M 100644 inline $old"$'\n'"data 2"$'\n'"$i"$'\n\n'
	done
	printf '%s' "$stream" | git --git-dir "$REPO" fast-import --quiet
	git --git-dir "$REPO" symbolic-ref HEAD refs/heads/bench
}
commits=$(git --git-dir "$REPO" rev-list --count HEAD)
if [ "$NEW" -gt 0 ]; then
	cp "$tmp/db" "$tmp/db-base"
	new_commits
	: > "$tmp/new"
	for i in $(seq "$RUNS"); do
		rm -f "$tmp/db" "$tmp/db-wal" "$tmp/db-shm"
		cp "$tmp/db-base" "$tmp/db"
		run "$tmp/new.json" "$tmp/db" >> "$tmp/new"
	done
	if [ -n "$BY" ]; then
		: > "$tmp/new-by"
		for i in $(seq "$RUNS"); do
			rm -f "$tmp/db" "$tmp/db-wal" "$tmp/db-shm"
			cp "$tmp/db-base" "$tmp/db"
			run "$tmp/new-by.json" "$tmp/db" --by "$BY" >> "$tmp/new-by"
		done
		by_ref "$tmp/new-by-ref.json"
		cmp -s "$tmp/new-by-ref.json" "$tmp/new-by.json" ||
			{ echo "MISMATCH: the --by run after new commits differs from --no-cache's" >&2; exit 1; }
	fi
	rm -f "$tmp/db"*
	run "$tmp/new-cold.json" "$tmp/db" > /dev/null
	cmp -s "$tmp/new-cold.json" "$tmp/new.json" ||
		{ echo "MISMATCH: the run after new commits differs from a cold one" >&2; exit 1; }
fi
read -r cw cs cc <<< "$(stats "$tmp/cold")"
read -r ww ws wc <<< "$(stats "$tmp/warm")"
echo "activity on $ORIG ($commits commits), best of $RUNS"
printf '  cold (baseline, empty store)  wall %7.3f s (spread %.3f)  cpu %7.3f s\n' \
	"$cw" "$cs" "$cc"
printf '  warm (nothing new)            wall %7.3f s (spread %.3f)  cpu %7.3f s\n' \
	"$ww" "$ws" "$wc"
printf '  warm/cold: wall %.3f, cpu %.3f (target <= 0.05)\n' \
	"$(echo "$ww / $cw" | bc -l)" "$(echo "$wc / $cc" | bc -l)"
if [ -n "$BY" ]; then
	read -r bw bs bc <<< "$(stats "$tmp/by")"
	printf '  warm --by %-6s (nothing new) wall %7.3f s (spread %.3f)  cpu %7.3f s\n' \
		"$BY" "$bw" "$bs" "$bc"
	printf '  by/cold: wall %.3f, cpu %.3f\n' \
		"$(echo "$bw / $cw" | bc -l)" "$(echo "$bc / $cc" | bc -l)"
fi
if [ "$NEW" -gt 0 ]; then
	read -r nw ns nc <<< "$(stats "$tmp/new")"
	printf '  warm after %d new commits      wall %7.3f s (spread %.3f)  cpu %7.3f s\n' \
		"$NEW" "$nw" "$ns" "$nc"
	printf '  new/cold: wall %.3f, cpu %.3f\n' \
		"$(echo "$nw / $cw" | bc -l)" "$(echo "$nc / $cc" | bc -l)"
	if [ -n "$BY" ]; then
		read -r mw ms mc <<< "$(stats "$tmp/new-by")"
		printf '  warm --by %-6s after %d new  wall %7.3f s (spread %.3f)  cpu %7.3f s\n' \
			"$BY" "$NEW" "$mw" "$ms" "$mc"
		printf '  new-by/cold: wall %.3f, cpu %.3f\n' \
			"$(echo "$mw / $cw" | bc -l)" "$(echo "$mc / $cc" | bc -l)"
	fi
fi
echo "  store: $(du -k "$tmp/db" | cut -f1) KB"
echo "(cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg))"
