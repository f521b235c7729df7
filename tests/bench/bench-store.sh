#!/bin/sh
# bench-store.sh - the incremental store's promise: a warm re-run after 1%
# new commits costs at most 10% of the cold run that filled the store.
#
#   tests/bench/bench-store.sh BUILD_DIR [COMMITS] [WORKDIR]
#
# Generates (once, cached in WORKDIR) a seeded kernel-like repository of
# COMMITS commits (default 100000) with tests/bench/gen-history.py, then
# times with build/tests/bench-store (one activity-style walk: no merges,
# trailers and touched paths):
#   baseline  the walk straight from git (--no-cache), for reference;
#   cold      the walk filling an empty store;
#   warm      the walk after COMMITS/100 new commits were added on top.
# Prints the three times, the warm/cold ratio (target <= 0.10) and the
# store's size per 100,000 commits.
set -eu
build=${1:?usage: bench-store.sh BUILD_DIR [COMMITS] [WORKDIR]}
n=${2:-100000}
work=${3:-${MS_CACHE:-/tmp}/bench-store}
here=$(cd "$(dirname "$0")" && pwd)
bench="$build/tests/bench-store"
mkdir -p "$work"
base="$work/base-$n.git"
if [ ! -d "$base" ]; then
	python3 "$here/gen-history.py" --seed 1 --commits "$n" "$base"
	git --git-dir "$base" gc -q
fi
repo="$work/repo.git"
db="$work/store.sqlite"
rm -rf "$repo" "$db" "$db-wal" "$db-shm"
git clone -q --bare --no-local "$base" "$repo"
git --git-dir "$repo" gc -q

secs() { "$bench" "$@" | awk '{ print $1 }'; }
baseline=$(secs "$repo" -)
cold=$(secs "$repo" "$db")
python3 "$here/gen-history.py" --seed 1 --commits $((n / 100)) --append \
	"$repo"
warm=$(secs "$repo" "$db")
check=$("$bench" "$repo" - | cut -d' ' -f3-)
again=$("$bench" "$repo" "$db" | cut -d' ' -f3-)
[ "$check" = "$again" ] || { echo "MISMATCH: $check / $again"; exit 1; }
size=$(($(stat -c %s "$db") + $(stat -c %s "$db-wal" 2>/dev/null || echo 0)))
commits=$(git --git-dir "$repo" rev-list --count HEAD)
echo "repository: $commits commits ($n generated, then $((n / 100)) more)"
echo "baseline (no store):      $baseline s"
echo "cold (filling the store): $cold s"
echo "warm (after 1% new):      $warm s"
echo "ratio warm/cold:          $(echo "scale=3; $warm / $cold" | bc)" \
	"(target <= 0.10)"
echo "store size:               $size bytes," \
	"$(echo "scale=1; $size * 100000 / $commits / 1048576" | bc)" \
	"MiB per 100,000 commits"
