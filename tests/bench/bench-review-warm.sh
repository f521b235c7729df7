#!/bin/bash
# bench-review-warm.sh [ARCHIVE [TREE]] - what a warm `review --tree` re-run
# costs against the cold run that filled the store (issue 21: the same warm
# ratio as activity's, <= 0.05 of cold).
#
# Baseline: the cold run, `maintstat review --tree TREE --archive ARCHIVE
# --json --db NEW` on an empty store (best of RUNS, a fresh store each
# time).  Then the warm run on the filled store with nothing new (best of
# RUNS).  Printed: best wall time, spread (worst - best), best CPU time
# (user + sys, less disturbed by other load on the shared machine), peak
# RSS, the warm/cold ratios, and the load average before and after.  The
# warm report must equal the cold one and `--no-cache`'s.
#
# Usage: tests/bench/bench-review-warm.sh [ARCHIVE [TREE]]  (default: the
#        linux-rdma 2023 slice, MS_LINUX_TREE or the linux-source-6.1 tree)
# Env:   MAINTSTAT (default build/maintstat), RUNS (default 3),
#        ARGS (extra review options, e.g. "--by month")
set -euo pipefail
cd "$(dirname "$0")/../.."
ARCHIVE=$(realpath "${1:-/work/shared/data/linux-rdma-2023.mbox.gz}")
TREE=$(realpath "${2:-${MS_LINUX_TREE:-$HOME/.cache/maintstat-dev/linux-source-6.1}}")
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
RUNS=${RUNS:-3}
ARGS=${ARGS:-}
[ -x "$MS" ] || { echo "bench: build maintstat first" >&2; exit 1; }
[ -f "$ARCHIVE" ] || { echo "bench: no $ARCHIVE" >&2; exit 1; }
[ -f "$TREE/MAINTAINERS" ] || { echo "bench: no $TREE/MAINTAINERS" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

CMD=(review --tree "$TREE" --archive "$ARCHIVE")
LABEL="review --tree"
# shellcheck source=tests/bench/warm-result.sh
. tests/bench/warm-result.sh
