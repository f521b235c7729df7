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

CMD=(link --repo "$GITDIR" --archive "$ARCHIVE")
LABEL=link
# shellcheck source=tests/bench/warm-result.sh
. tests/bench/warm-result.sh
