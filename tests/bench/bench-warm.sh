#!/bin/bash
# bench-warm.sh [GITDIR] - what a warm `activity` re-run costs against the
# cold run that filled the store (issue 21: warm <= 0.05 of cold).
#
# Baseline: the cold run, `maintstat activity --json --db NEW` on an empty
# store.  Then, on the filled store with nothing new, the warm run.  Each
# is run RUNS times (the cold one on a fresh store each time); the best
# wall time, the spread (worst - best) and the best CPU time (user + sys,
# less disturbed by other load on a shared machine) are printed, with the
# warm/cold ratios of both.  The warm report must equal the cold one.
#
# Usage: tests/bench/bench-warm.sh [GITDIR]  (default: the U-Boot mirror)
# Env:   MAINTSTAT (default build/maintstat), RUNS (default 3),
#        ARGS (extra activity options, e.g. "--merges")
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=${1:-/work/.mirror/u-boot+u-boot/repo}
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
RUNS=${RUNS:-3}
ARGS=${ARGS:-}
[ -x "$MS" ] || { echo "bench: build maintstat first" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# run OUT DB: one timed run; prints "wall cpu"
run() {
	# shellcheck disable=SC2086
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$MS" activity \
		--repo "$REPO" --json --db "$2" $ARGS > "$1"
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
: > "$tmp/warm"
for i in $(seq "$RUNS"); do
	run "$tmp/warm.json" "$tmp/db" >> "$tmp/warm"
done
cmp -s "$tmp/cold.json" "$tmp/warm.json" ||
	{ echo "MISMATCH: the warm report differs from the cold one" >&2; exit 1; }
read -r cw cs cc <<< "$(stats "$tmp/cold")"
read -r ww ws wc <<< "$(stats "$tmp/warm")"
commits=$(git --git-dir "$REPO" rev-list --count HEAD)
echo "activity on $REPO ($commits commits), best of $RUNS"
printf '  cold (baseline, empty store)  wall %7.3f s (spread %.3f)  cpu %7.3f s\n' \
	"$cw" "$cs" "$cc"
printf '  warm (nothing new)            wall %7.3f s (spread %.3f)  cpu %7.3f s\n' \
	"$ww" "$ws" "$wc"
printf '  warm/cold: wall %.3f, cpu %.3f (target <= 0.05)\n' \
	"$(echo "$ww / $cw" | bc -l)" "$(echo "$wc / $cc" | bc -l)"
echo "  store: $(du -k "$tmp/db" | cut -f1) KB"
echo "(cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg))"
