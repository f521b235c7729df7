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
# seconds each), with the spread (worst - best) of wall and CPU time.  The
# runs are interleaved in PYRUNS rounds, and each round's own ratio is
# given too (lowest and median): the guest's speed drifts within minutes.
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

# pair N M CMD... -- BASE...: N runs of CMD and M of BASE, interleaved in M
# rounds (about N/M runs of CMD, then one of BASE), because this guest's
# speed drifts by 10-50% within minutes and a ratio of runs taken minutes
# apart measures the drift.  Prints "best_wall worst_wall best_cpu
# worst_cpu" for CMD, the same for BASE, then the lowest and the median of
# the rounds' own ratios (BASE's wall / CMD's best wall in that round).
# In seconds; cpu = user + system of all threads, from wait4(); wall from
# a monotonic clock, to the millisecond (/usr/bin/time's 10 ms steps were
# 7% of a 0.14 s run).
pair() {
	python3 - "$@" <<'PY'
import os, statistics, sys, time
n, m = int(sys.argv[1]), max(1, int(sys.argv[2]))
rest = sys.argv[3:]
cmd, base = rest[:rest.index("--")], rest[rest.index("--") + 1:]


def one(argv):
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.execvp(argv[0], argv)
    _, status, ru = os.wait4(pid, 0)
    if status:
        sys.exit("bench: %s failed" % " ".join(argv))
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime


ms, py, ratios = [], [], []
for k in range(m):
    got = [one(cmd) for _ in range(n // m + (k < n % m))]
    ms += got
    py.append(one(base))
    if got:
        ratios.append(py[-1][0] / min(w for w, _ in got))


def four(xs):
    w = [x[0] for x in xs]
    c = [x[1] for x in xs]
    return "%.4f %.4f %.4f %.4f" % (min(w), max(w), min(c), max(c))


print(four(ms), four(py), "%.2f %.2f" % (min(ratios), statistics.median(ratios)))
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
	local mw mww mc mcw pw pww pc pcw rmin rmed
	read -r mw mww mc mcw pw pww pc pcw rmin rmed <<< "$(pair "$RUNS" \
		"$PYRUNS" "$MS" mail stats --no-cache --json "$2" -- \
		python3 tests/bench/mail_email_baseline.py "$2")"
	printf '%s (%d messages, %.1f MB unpacked)\n' "$1" "$msgs" "$mb"
	printf '  maintstat mail stats  %7.3f s wall (spread %.3f)  %6.3f s cpu (spread %.3f)  %6.1f MB/s\n' \
		"$mw" "$(echo "$mww - $mw" | bc -l)" "$mc" \
		"$(echo "$mcw - $mc" | bc -l)" "$(echo "$mb / $mw" | bc -l)"
	printf '  python email baseline %7.3f s wall (spread %.3f)  %6.3f s cpu (spread %.3f)  %6.1f MB/s\n' \
		"$pw" "$(echo "$pww - $pw" | bc -l)" "$pc" \
		"$(echo "$pcw - $pc" | bc -l)" "$(echo "$mb / $pw" | bc -l)"
	printf '  ratio: maintstat is %.1fx faster (wall), %.1fx (cpu)\n' \
		"$(echo "$pw / $mw" | bc -l)" "$(echo "$pc / $mc" | bc -l)"
	printf '  ratio within each of the %d rounds (wall): lowest %.1fx, median %.1fx\n' \
		"$PYRUNS" "$rmin" "$rmed"
}
report "$MBOX" "$MBOX"
report "unpacked" "$tmp/plain.mbox"
echo "(cores: $(nproc), load before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg))"
