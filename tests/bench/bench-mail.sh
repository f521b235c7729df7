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
# in seconds (cpu = user + system of all threads, from wait4(); wall from
# a monotonic clock, to the millisecond: /usr/bin/time's 10 ms steps
# were 7% of a 0.14 s run)
runs() {
	python3 - "$@" <<'PY'
import os, sys, time
n, cmd = int(sys.argv[1]), sys.argv[2:]
walls, cpus = [], []
for _ in range(n):
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.execvp(cmd[0], cmd)
    _, status, ru = os.wait4(pid, 0)
    walls.append(time.perf_counter() - t0)
    cpus.append(ru.ru_utime + ru.ru_stime)
    if status:
        sys.exit("bench: %s failed" % " ".join(cmd))
print("%.4f %.4f %.4f %.4f" % (min(walls), max(walls), min(cpus), max(cpus)))
PY
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
	printf '  maintstat mail stats  %7.3f s wall (spread %.3f)  %6.3f s cpu (spread %.3f)  %6.1f MB/s\n' \
		"$mw" "$(echo "$mww - $mw" | bc -l)" "$mc" \
		"$(echo "$mcw - $mc" | bc -l)" "$(echo "$mb / $mw" | bc -l)"
	printf '  python email baseline %7.3f s wall (spread %.3f)  %6.3f s cpu (spread %.3f)  %6.1f MB/s\n' \
		"$pw" "$(echo "$pww - $pw" | bc -l)" "$pc" \
		"$(echo "$pcw - $pc" | bc -l)" "$(echo "$mb / $pw" | bc -l)"
	printf '  ratio: maintstat is %.1fx faster (wall), %.1fx (cpu)\n' \
		"$(echo "$pw / $mw" | bc -l)" "$(echo "$pc / $mc" | bc -l)"
}
report "$MBOX" "$MBOX"
report "unpacked" "$tmp/plain.mbox"
echo "(cores: $(nproc), load before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg))"
