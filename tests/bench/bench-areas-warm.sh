#!/bin/bash
# bench-areas-warm.sh [GITDIR [ENTRY...]] - what a warm `areas` run costs
# against the cold run that filled the store (issue 37: warm <= 0.05 of
# cold), nothing new and after a few new commits.
#
# The baseline is named "cold": `maintstat areas --json --db NEW [ENTRY...]`
# on an empty store (the walk, the model, the paths and the counting).
# Then, on the store it filled:
#   warm         the same command again (its kept result);
#   warm, counted  the same with --until set to the same newest date
#                (another command line, so no kept result: the model and
#                paths come from the store and the counting runs; each
#                run on a copy of the store as the cold run left it);
#   after NEW    NEW commits (default 5; one new file each and a change to
#                an old file of the first ENTRY's, or of drivers/core/)
#                added to a throwaway clone sharing GITDIR's objects
#                (GITDIR is not written), dated a second apart just after
#                the tip, so the window moves by seconds as it would; each
#                run starts from a copy of the store as the cold run left
#                it.
# Each is run RUNS times (the cold one on a fresh store each time); the
# best wall time, the spread and the best CPU time (user + sys) are
# printed, with each run's ratio to the cold baseline.  Every warm report
# must equal a --no-cache report of the same history, or the bench fails.
#
# Usage: tests/bench/bench-areas-warm.sh [GITDIR [ENTRY...]]
#        (default: the U-Boot mirror, every entry)
# Env:   MAINTSTAT (default build/maintstat), RUNS (default 3), NEW
#        (default 5; 0: no run after new commits), ARGS (more options)
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=${1:-/work/.mirror/u-boot+u-boot/repo}
[ $# -gt 0 ] && shift
ENTRIES=("$@")
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
RUNS=${RUNS:-3}
NEW=${NEW:-5}
ARGS=${ARGS:-}
[ -x "$MS" ] || { echo "bench: build maintstat first" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
git clone -q --bare --shared "$REPO" "$tmp/clone.git"
ORIG=$REPO
REPO=$tmp/clone.git

# run OUT DB [OPTION...]: one timed run; prints "wall cpu"
run() {
	local out=$1 db=$2

	shift 2
	# shellcheck disable=SC2086
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$MS" areas \
		--repo "$REPO" --json --db "$db" $ARGS "$@" "${ENTRIES[@]}" \
		> "$out"
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$tmp/time"
}
# reference OUT: the report of --no-cache (nothing kept or read)
reference() {
	# shellcheck disable=SC2086
	"$MS" areas --repo "$REPO" --json --no-cache $ARGS "${ENTRIES[@]}" \
		> "$1"
}
# stats FILE: best wall, spread, best cpu of the "wall cpu" lines
stats() {
	sort -n "$1" | awk 'NR == 1 { b = $1 } { w = $1 }
		END { printf "%.3f %.3f ", b, w - b }'
	sort -n -k2 "$1" | awk 'NR == 1 { printf "%.3f\n", $2 }'
}
same() {
	cmp -s "$1" "$2" || { echo "MISMATCH: $3" >&2; exit 1; }
}

: > "$tmp/cold"
for i in $(seq "$RUNS"); do
	rm -f "$tmp/db"*
	sync
	run "$tmp/cold.json" "$tmp/db" >> "$tmp/cold"
done
reference "$tmp/ref.json"
same "$tmp/ref.json" "$tmp/cold.json" "the cold report differs from --no-cache's"
: > "$tmp/warm"
for i in $(seq "$RUNS"); do
	run "$tmp/warm.json" "$tmp/db" >> "$tmp/warm"
done
same "$tmp/cold.json" "$tmp/warm.json" "the warm report differs from the cold one"
until=$(git --git-dir "$REPO" log -1 --format=%cI HEAD)
cp "$tmp/db" "$tmp/db-base"
: > "$tmp/count"
for i in $(seq "$RUNS"); do
	rm -f "$tmp/db-c" "$tmp/db-c-wal" "$tmp/db-c-shm"
	cp "$tmp/db-base" "$tmp/db-c"
	run "$tmp/count.json" "$tmp/db-c" --until "$until" >> "$tmp/count"
done
same "$tmp/cold.json" "$tmp/count.json" "the counted warm report differs from the cold one"

# NEW commits on top of the clone, a second apart after the tip
new_commits() {
	local tip old stream="" i msg base dir
	tip=$(git --git-dir "$REPO" rev-parse HEAD)
	base=$(git --git-dir "$REPO" log -1 --format=%ct HEAD)
	dir=drivers/core/
	old=$(git --git-dir "$REPO" ls-tree -r --name-only HEAD -- "$dir" |
	      sed -n 3p)
	for i in $(seq "$NEW"); do
		msg="bench: new commit $i"$'\n\n'"Reviewed-by: Bench Reviewer <bench-rev@example.org>"$'\n'
		stream+="commit refs/heads/bench"$'\n'
		stream+="author Bench Author <bench@example.org> $((base + i)) +0000"$'\n'
		stream+="committer Bench Author <bench@example.org> $((base + i)) +0000"$'\n'
		stream+="data ${#msg}"$'\n'"$msg"
		[ "$i" = 1 ] && stream+="from $tip"$'\n'
		stream+="M 100644 inline ${dir}bench-new-$i.c"$'\n'"data 2"$'\n'"x"$'\n'
		stream+="M 100644 inline $old"$'\n'"data 2"$'\n'"$i"$'\n\n'
	done
	printf '%s' "$stream" | git --git-dir "$REPO" fast-import --quiet
	git --git-dir "$REPO" symbolic-ref HEAD refs/heads/bench
}
commits=$(git --git-dir "$REPO" rev-list --count HEAD)
if [ "$NEW" -gt 0 ]; then
	new_commits
	: > "$tmp/new"
	for i in $(seq "$RUNS"); do
		rm -f "$tmp/db" "$tmp/db-wal" "$tmp/db-shm"
		cp "$tmp/db-base" "$tmp/db"
		run "$tmp/new.json" "$tmp/db" >> "$tmp/new"
	done
	reference "$tmp/new-ref.json"
	same "$tmp/new-ref.json" "$tmp/new.json" "the run after new commits differs from --no-cache's"
fi
read -r cw cs cc <<< "$(stats "$tmp/cold")"
echo "areas ${ENTRIES[*]:-(every entry)} on $ORIG ($commits commits), best of $RUNS"
printf '  %-30s wall %7.3f s (spread %.3f)  cpu %7.3f s\n' \
	"cold (baseline, empty store)" "$cw" "$cs" "$cc"
# line NAME FILE: one run's line and its ratios to the cold baseline
line() {
	local w s c
	read -r w s c <<< "$(stats "$2")"
	printf '  %-30s wall %7.3f s (spread %.3f)  cpu %7.3f s  /cold: wall %.3f, cpu %.3f\n' \
		"$1" "$w" "$s" "$c" "$(echo "$w / $cw" | bc -l)" \
		"$(echo "$c / $cc" | bc -l)"
}
line "warm (nothing new)" "$tmp/warm"
line "warm, counted (no kept result)" "$tmp/count"
[ "$NEW" -gt 0 ] && line "warm after $NEW new commits" "$tmp/new"
echo "  target: cpu /cold <= 0.05"
echo "  store: $(du -k "$tmp/db" | cut -f1) KB"
echo "(cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg))"
