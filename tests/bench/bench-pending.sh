#!/bin/bash
# bench-pending.sh [BASELINE] - what a warm `pending` and `review` cost
# against the cold run that filled the store (issue 36: warm <= 0.05 of
# cold), on LTP's list with its repository and on the linux-rdma 2023
# slice with the linux-source-6.1 tree.
#
# For each data set and command: the cold run (`CMD ... --json --db NEW`
# on an empty store), then the warm run (the same line again on that
# store, nothing new), then `--no-cache` on the warm store (the whole
# computation from the kept messages and links: what a warm run costs
# when the finished result cannot be reused, as after a fetch brought new
# messages).  CPU time (user + sys: less disturbed by other load on a
# shared machine than wall time) is printed, with the ratios to cold.
# Each warm output must equal the cold one.  With BASELINE (another
# maintstat), the same is printed for it first.
#
# Usage: tests/bench/bench-pending.sh [BASELINE]
# Env:   MAINTSTAT (default build/maintstat), RUNS (default 1), and the
#        data as tests/bench/corpus.sh names it (LTP, LTPLIST, LINUX,
#        RDMALIST); a data set not found is skipped, and said so.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=$(pwd)
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
RUNS=${RUNS:-1}
: "${LTP:=/work/.mirror/linux-test-project+ltp/repo}"
: "${LTPLIST:=/work/.mirror/linux-mailinglist-archives+ltp.lists.linux.it.0/repo}"
: "${LINUX:=${MS_CACHE:-$HOME/.cache/maintstat-dev}/linux-source-6.1}"
: "${RDMALIST:=$here/../shared/data/linux-rdma-2023.mbox.gz}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# LTP's MAINTAINERS as the corpus run writes it
awk '/cat >"\$TMPD\/ltp-MAINTAINERS"/ { f = 1; next } f && /^EOF/ { f = 0 }
     f' tests/bench/corpus.sh > "$tmp/ltp-MAINTAINERS"

# cpu BIN OUT CMD ARGS...: one run; prints its CPU seconds
cpu() {
	local bin=$1 out=$2

	shift 2
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" "$@" > "$out" \
		2> "$out.err"
	awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/time"
}

# bench BIN NAME CMD ARGS...: cold, warm and --no-cache warm
bench() {
	local bin=$1 name=$2 cmd=$3 best_c='' best_w='' best_n='' c w n

	shift 3
	for _ in $(seq "$RUNS"); do
		rm -f "$tmp/db"*
		c=$(cpu "$bin" "$tmp/cold" "$cmd" "$@" --json --db "$tmp/db")
		w=$(cpu "$bin" "$tmp/warm" "$cmd" "$@" --json --db "$tmp/db")
		n=$(cpu "$bin" "$tmp/nocache" "$cmd" "$@" --json \
			--db "$tmp/db" --no-cache)
		cmp -s "$tmp/cold" "$tmp/warm" ||
			echo "  $name $cmd: warm output differs from cold"
		cmp -s "$tmp/cold" "$tmp/nocache" ||
			echo "  $name $cmd: --no-cache output differs from cold"
		best_c=$(printf '%s\n' "$best_c" "$c" | grep . | sort -n | head -1)
		best_w=$(printf '%s\n' "$best_w" "$w" | grep . | sort -n | head -1)
		best_n=$(printf '%s\n' "$best_n" "$n" | grep . | sort -n | head -1)
	done
	awk -v n="$name" -v m="$cmd" -v c="$best_c" -v w="$best_w" \
	    -v x="$best_n" 'BEGIN { printf "  %-5s %-8s cold %7.2fs  warm " \
		"%6.2fs (%5.1f%%)  warm --no-cache %6.2fs (%5.1f%%)\n", n, m,
		c, w, 100 * w / c, x, 100 * x / c }'
}

suite() {
	local bin=$1

	echo "$bin"
	if [ -e "$LTP" ] && [ -e "$LTPLIST" ]; then
		for cmd in pending review; do
			bench "$bin" ltp "$cmd" --repo "$LTP" --maintainers \
				"$tmp/ltp-MAINTAINERS" --archive "$LTPLIST" \
				--until 2026-11-01
		done
	else
		echo "  ltp: skipped ($LTP or $LTPLIST not found)"
	fi
	if [ -e "$LINUX" ] && [ -e "$RDMALIST" ]; then
		for cmd in pending review; do
			bench "$bin" rdma "$cmd" --tree "$LINUX" \
				--archive "$RDMALIST"
		done
	else
		echo "  rdma: skipped ($LINUX or $RDMALIST not found)"
	fi
}

[ -x "$MS" ] || { echo "bench: build maintstat first" >&2; exit 1; }
if [ $# -gt 0 ]; then
	suite "$(realpath "$1")"
fi
suite "$MS"
