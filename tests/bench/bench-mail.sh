#!/bin/bash
# bench-mail.sh [MBOX] - how fast `maintstat mail stats` reads a real list
# archive, against Python's standard `email` package doing the same job.
#
# Baseline: tests/bench/mail_email_baseline.py, what existing
# review-statistics scripts do: split the mbox, email.message_from_bytes()
# with the default policy on every message, get_content() of every text
# part (transfer and charset decoding) and a trailer scan of the decoded
# text.  Both read the same file; the .gz figures include inflating it, the
# plain figures (the archive unpacked to a temporary file first) do not.
# Best of RUNS for maintstat, of PYRUNS for the baseline (it takes
# seconds each), with the spread (worst - best) of wall and CPU time.
#
# Usage: tests/bench/bench-mail.sh [MBOX]  (default: the shared
#        linux-rdma-2023.mbox.gz slice)
# Env:   MAINTSTAT (default build/maintstat), RUNS (default 5),
#        PYRUNS (default 1)
set -euo pipefail
cd "$(dirname "$0")/../.."
MBOX=${1:-../shared/data/linux-rdma-2023.mbox.gz}
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
RUNS=${RUNS:-5}
PYRUNS=${PYRUNS:-1}
[ -x "$MS" ] || { echo "bench: build maintstat first (make build)" >&2; exit 1; }
[ -f "$MBOX" ] || { echo "bench: no $MBOX" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# runs N CMD...: N runs; prints "best_wall worst_wall best_cpu worst_cpu"
# (cpu = user + system of all threads, from /usr/bin/time)
runs() {
	local n=$1
	shift
	for _ in $(seq "$n"); do
		/usr/bin/time -f '%e %U %S' -o "$tmp/t" "$@" > /dev/null
		awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/t"
	done | awk 'NR == 1 { bw = ww = $1; bc = wc = $2 }
		{ if ($1 < bw) bw = $1; if ($1 > ww) ww = $1
		  if ($2 < bc) bc = $2; if ($2 > wc) wc = $2 }
		END { print bw, ww, bc, wc }'
}

# the machine is shared: the load before and after says how far the wall
# times can be trusted (CPU times much less depend on it)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
case "$MBOX" in
*.gz) gzip -dc "$MBOX" > "$tmp/plain.mbox" ;;
*) cp "$MBOX" "$tmp/plain.mbox" ;;
esac
msgs=$("$MS" mail stats --no-cache --json "$tmp/plain.mbox" |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["messages"])')
mb=$(echo "$(stat -c %s "$tmp/plain.mbox") / 1000000" | bc -l)

report() { # report LABEL FILE
	local mw mww mc mcw pw pww pc pcw
	read -r mw mww mc mcw <<< "$(runs "$RUNS" "$MS" mail stats --no-cache --json \
		"$2")"
	read -r pw pww pc pcw <<< "$(runs "$PYRUNS" python3 \
		tests/bench/mail_email_baseline.py "$2")"
	printf '%s (%d messages, %.1f MB unpacked)\n' "$1" "$msgs" "$mb"
	printf '  maintstat mail stats  %7.3f s wall (spread %.3f)  %6.2f s cpu (spread %.2f)  %6.1f MB/s\n' \
		"$mw" "$(echo "$mww - $mw" | bc -l)" "$mc" \
		"$(echo "$mcw - $mc" | bc -l)" "$(echo "$mb / $mw" | bc -l)"
	printf '  python email baseline %7.3f s wall (spread %.3f)  %6.2f s cpu (spread %.2f)  %6.1f MB/s\n' \
		"$pw" "$(echo "$pww - $pw" | bc -l)" "$pc" \
		"$(echo "$pcw - $pc" | bc -l)" "$(echo "$mb / $pw" | bc -l)"
	printf '  ratio: maintstat is %.1fx faster (wall), %.1fx (cpu)\n' \
		"$(echo "$pw / $mw" | bc -l)" "$(echo "$pc / $mc" | bc -l)"
}
report "$MBOX" "$MBOX"
report "unpacked" "$tmp/plain.mbox"
echo "(cores: $(nproc), load before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg))"
