#!/bin/bash
# bench-match.sh [TREE] - how fast maintstat matches a whole tree against
# MAINTAINERS, against the kernel's own scripts/get_maintainer.pl.
#
# Baseline: get_maintainer.pl --no-git --no-keywords --subsystem -f FILE,
# which answers one file per run; we time it on SAMPLE sampled files and
# extrapolate to the whole tree.  maintstat answers every file of the tree
# in one run of `maintstat sections -` (paths on stdin); the full
# `maintstat coverage` report is timed too.  Best of RUNS for maintstat.
#
# Usage: tests/bench/bench-match.sh [TREE]   (default: the cached
#        linux-source-6.1 tree that `make check` unpacks)
# Env:   MAINTSTAT (default build/maintstat), SAMPLE (default 40), RUNS (3)
set -euo pipefail
cd "$(dirname "$0")/../.."
TREE=${1:-${MS_LINUX_TREE:-${XDG_CACHE_HOME:-$HOME/.cache}/maintstat-dev/linux-source-6.1}}
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
SAMPLE=${SAMPLE:-40}
RUNS=${RUNS:-3}
[ -x "$MS" ] || { echo "bench: build maintstat first (make build)" >&2; exit 1; }
[ -f "$TREE/MAINTAINERS" ] || { echo "bench: no MAINTAINERS in $TREE" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

(cd "$TREE" && find . -type f | sed 's|^\./||' |
	LC_ALL=C sort) > "$tmp/files"
nfiles=$(wc -l < "$tmp/files")

now() { date +%s.%N; }
best() { # best of RUNS, in seconds: best STDIN-FILE CMD...
	local b=999999 t0 t1 d in=$1
	shift
	for _ in $(seq "$RUNS"); do
		t0=$(now); "$@" < "$in" > /dev/null; t1=$(now)
		d=$(echo "$t1 - $t0" | bc -l)
		b=$(echo "if ($d < $b) $d else $b" | bc -l)
	done
	printf '%.3f' "$b"
}

cd "$TREE"
t_sections=$(best "$tmp/files" "$MS" sections -)
t_coverage=$(best /dev/null "$MS" coverage)
awk -v n="$SAMPLE" -v total="$nfiles" 'NR % int(total / n) == 0' \
	"$tmp/files" | head -n "$SAMPLE" > "$tmp/sample"
t0=$(now)
while read -r f; do
	perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-keywords \
		--noemail --nol --subsystem -f "$f" > /dev/null
done < "$tmp/sample"
t1=$(now)
per_file=$(echo "($t1 - $t0) / $SAMPLE" | bc -l)
gm_total=$(echo "$per_file * $nfiles" | bc -l)

printf 'tree: %s (%d files)\n' "$TREE" "$nfiles"
printf 'maintstat sections, every file, one run:   %8.3f s\n' "$t_sections"
printf 'maintstat coverage, the full report:       %8.3f s\n' "$t_coverage"
printf 'get_maintainer.pl, per file (%d sampled):  %8.3f s\n' "$SAMPLE" "$per_file"
printf 'get_maintainer.pl, every file (extrapolated): %6.0f s\n' "$gm_total"
printf 'ratio, get_maintainer.pl / maintstat sections: %.0fx\n' \
	"$(echo "$gm_total / $t_sections" | bc -l)"
