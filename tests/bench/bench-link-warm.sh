#!/bin/bash
# bench-link-warm.sh [GITDIR [ARCHIVE]] - what a warm `link` re-run costs
# against the cold run that filled the store (issue 21: warm <= 0.05 of
# cold).
#
# Baseline: the cold run, `maintstat link --repo GITDIR --archive ARCHIVE
# --json --db NEW` on an empty store (best of RUNS, a fresh store each
# time).  Then the warm run on the filled store with nothing new (best of
# RUNS).  Printed: best wall time, spread (worst - best), best CPU time
# (user + sys), peak RSS, the warm/cold ratios, and the load average
# before and after.  The warm report must equal the cold one and
# `--no-cache`'s.
#
# Usage: tests/bench/bench-link-warm.sh [GITDIR [ARCHIVE]]  (default: the
#        LTP mirror and LTP's list, public-inbox epoch 0)
# Env:   MAINTSTAT (default build/maintstat), RUNS (default 3),
#        ARGS (extra link options, e.g. "--since 2020-01-01")
set -euo pipefail
cd "$(dirname "$0")/../.."
GITDIR=$(realpath "${1:-/work/.mirror/linux-test-project+ltp/repo}")
ARCHIVE=$(realpath "${2:-/work/.mirror/linux-mailinglist-archives+ltp.lists.linux.it.0/repo}")
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
RUNS=${RUNS:-3}
ARGS=${ARGS:-}
[ -x "$MS" ] || { echo "bench: build maintstat first" >&2; exit 1; }
[ -e "$ARCHIVE" ] || { echo "bench: no $ARCHIVE" >&2; exit 1; }
[ -e "$GITDIR" ] || { echo "bench: no $GITDIR" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# run OUT DB|--no-cache: one timed run; prints "wall cpu rss_kb"
run() {
	local db=(--db "$2")
	[ "$2" = --no-cache ] && db=(--no-cache)
	# shellcheck disable=SC2086
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$MS" link \
		--repo "$GITDIR" --archive "$ARCHIVE" --json "${db[@]}" \
		$ARGS > "$1"
	awk '{ printf "%.3f %.3f %d\n", $1, $2 + $3, $4 }' "$tmp/time"
}
# stats FILE: best wall, spread, best cpu, peak rss (MB) of the lines
stats() {
	sort -n "$1" | awk 'NR == 1 { b = $1 } { w = $1 }
		END { printf "%.3f %.3f ", b, w - b }'
	sort -n -k2 "$1" | awk 'NR == 1 { printf "%.3f ", $2 }'
	sort -n -k3 "$1" | awk '{ m = $3 } END { printf "%.0f\n", m / 1024 }'
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
run "$tmp/nocache.json" --no-cache > "$tmp/nocache"
: > "$tmp/cold"
for _ in $(seq "$RUNS"); do
	rm -f "$tmp/db"*
	sync
	run "$tmp/cold.json" "$tmp/db" >> "$tmp/cold"
done
: > "$tmp/warm"
for _ in $(seq "$RUNS"); do
	run "$tmp/warm.json" "$tmp/db" >> "$tmp/warm"
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
cmp -s "$tmp/cold.json" "$tmp/warm.json" ||
	{ echo "MISMATCH: the warm report differs from the cold one" >&2; exit 1; }
cmp -s "$tmp/nocache.json" "$tmp/warm.json" ||
	{ echo "MISMATCH: the warm report differs from --no-cache's" >&2; exit 1; }
read -r cw cs cc cm < <(stats "$tmp/cold")
read -r ww ws wc wm < <(stats "$tmp/warm")
read -r nw _ nc nm < <(stats "$tmp/nocache")
printf '%-34s %9s %9s %9s %8s %s\n' "link, best of $RUNS" wall spread \
	cpu rss "/ cold (wall, cpu)"
printf '%-34s %8.3fs %8s %8.3fs %6dMB\n' "--no-cache (one run)" "$nw" - "$nc" "$nm"
printf '%-34s %8.3fs %8.3fs %8.3fs %6dMB %s\n' "cold, empty store (baseline)" \
	"$cw" "$cs" "$cc" "$cm" 1
printf '%-34s %8.3fs %8.3fs %8.3fs %6dMB %.3f, %.3f\n' "warm, nothing new" \
	"$ww" "$ws" "$wc" "$wm" "$(echo "$ww / $cw" | bc -l)" \
	"$(echo "$wc / $cc" | bc -l)"
