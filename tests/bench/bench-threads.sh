#!/bin/bash
# bench-threads.sh - what --threads buys: wall time of the commands that
# work in parallel at --threads 1 (the baseline: one worker per stage),
# 2 and 4, and the default (0: one per core).
#
# Work measured (all --no-cache, so every run does the whole job):
#   mail stats    the linux-rdma 2023 slice (parsing is split by message)
#   activity      a git history (walk and diff are split by commit)
#   coverage      which entry claims each file of the linux-source tree
# Best of RUNS each; the ratio is baseline / this (above 1: faster).  The
# load is printed first: on a shared machine the figures move with it.
#
# Usage: tests/bench/bench-threads.sh [REPO]
#        (default REPO: the LTP mirror, else tests/bench/gen-history.py's)
# Env:   MAINTSTAT (default build/maintstat), RUNS (default 3),
#        MBOX (default ../shared/data/linux-rdma-2023.mbox.gz),
#        TREE (default ~/.cache/maintstat-dev/linux-source-6.1)
set -euo pipefail
cd "$(dirname "$0")/../.."
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
RUNS=${RUNS:-3}
MBOX=${MBOX:-../shared/data/linux-rdma-2023.mbox.gz}
TREE=${TREE:-$HOME/.cache/maintstat-dev/linux-source-6.1}
REPO=${1:-/work/.mirror/linux-test-project+ltp/repo}
[ -x "$MS" ] || { echo "bench: build maintstat first (make build)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ ! -d "$REPO" ]; then
	python3 tests/bench/gen-history.py --commits 20000 "$tmp/hist.git" >/dev/null
	REPO=$tmp/hist.git
fi

now() { date +%s.%N; }
best() { # best of RUNS, in seconds: best CMD...
	local b=999999 t0 t1 d
	for _ in $(seq "$RUNS"); do
		t0=$(now); "$@" > /dev/null 2>&1 || { echo "bench: failed: $*" >&2; exit 1; }; t1=$(now)
		d=$(echo "$t1 - $t0" | bc -l)
		b=$(echo "if ($d < $b) $d else $b" | bc -l)
	done
	echo "$b"
}

echo "cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg); runs: best of $RUNS"
printf '%-12s %8s %8s %8s %8s   %s\n' work t1 t2 t4 t0 "ratio t1/t2 t1/t4 t1/t0"
row() { # row NAME CMD... (the command takes --threads N at the end)
	local name=$1; shift
	local t1 t2 t4 t0
	t1=$(best "$@" --threads 1)
	t2=$(best "$@" --threads 2)
	t4=$(best "$@" --threads 4)
	t0=$(best "$@" --threads 0)
	printf '%-12s %7.2fs %7.2fs %7.2fs %7.2fs   %.2f %.2f %.2f\n' "$name" \
		"$t1" "$t2" "$t4" "$t0" "$(echo "$t1/$t2" | bc -l)" \
		"$(echo "$t1/$t4" | bc -l)" "$(echo "$t1/$t0" | bc -l)"
}
[ -f "$MBOX" ] && row "mail stats" "$MS" mail stats --no-cache "$MBOX"
row activity "$MS" activity --no-cache --repo "$REPO" --since 2y
[ -f "$TREE/MAINTAINERS" ] && row coverage "$MS" coverage --tree "$TREE"
