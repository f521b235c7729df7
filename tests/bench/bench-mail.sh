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
# Best of RUNS for maintstat, one run of the baseline (it takes seconds).
#
# Usage: tests/bench/bench-mail.sh [MBOX]  (default: the shared
#        linux-rdma-2023.mbox.gz slice)
# Env:   MAINTSTAT (default build/maintstat), RUNS (default 5)
set -euo pipefail
cd "$(dirname "$0")/../.."
MBOX=${1:-../shared/data/linux-rdma-2023.mbox.gz}
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
RUNS=${RUNS:-5}
[ -x "$MS" ] || { echo "bench: build maintstat first (make build)" >&2; exit 1; }
[ -f "$MBOX" ] || { echo "bench: no $MBOX" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
best() { # best of RUNS, in seconds: best CMD...
	local b=999999 t0 t1 d
	for _ in $(seq "$RUNS"); do
		t0=$(now); "$@" > /dev/null; t1=$(now)
		d=$(echo "$t1 - $t0" | bc -l)
		b=$(echo "if ($d < $b) $d else $b" | bc -l)
	done
	echo "$b"
}
once() { local t0 t1; t0=$(now); "$@" > /dev/null; t1=$(now); echo "$t1 - $t0" | bc -l; }

case "$MBOX" in
*.gz) gzip -dc "$MBOX" > "$tmp/plain.mbox" ;;
*) cp "$MBOX" "$tmp/plain.mbox" ;;
esac
msgs=$("$MS" mail stats --json "$tmp/plain.mbox" |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["messages"])')
mb=$(echo "$(stat -c %s "$tmp/plain.mbox") / 1000000" | bc -l)

report() { # report LABEL FILE
	local ms py
	ms=$(best "$MS" mail stats --json "$2")
	py=$(once python3 tests/bench/mail_email_baseline.py "$2")
	printf '%s (%d messages, %.1f MB unpacked)\n' "$1" "$msgs" "$mb"
	printf '  maintstat mail stats  %7.3f s  %8.0f msgs/s  %6.1f MB/s\n' \
		"$ms" "$(echo "$msgs / $ms" | bc -l)" "$(echo "$mb / $ms" | bc -l)"
	printf '  python email baseline %7.3f s  %8.0f msgs/s  %6.1f MB/s\n' \
		"$py" "$(echo "$msgs / $py" | bc -l)" "$(echo "$mb / $py" | bc -l)"
	printf '  ratio: maintstat is %.1fx faster\n' "$(echo "$py / $ms" | bc -l)"
}
report "$MBOX" "$MBOX"
report "unpacked" "$tmp/plain.mbox"
echo "(cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg))"
