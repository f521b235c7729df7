#!/bin/sh
# bench-store.sh - the incremental store's promise: a warm re-run after 1%
# new commits and 1% new messages costs at most 10% of the cold run that
# filled the store.
#
#   tests/bench/bench-store.sh BUILD_DIR [COMMITS] [WORKDIR]
#
# Generates (once, cached in WORKDIR) a seeded kernel-like repository of
# COMMITS commits (default 100000) with tests/bench/gen-history.py, and
# its mailing list (a patch and a reviewed reply per commit, as a
# public-inbox v2 archive) with tests/bench/gen-inbox.py.  Then:
#
# 1. the walk alone, timed by build/tests/bench-store (one activity-style
#    walk: no merges, trailers and touched paths):
#      baseline  straight from git (--no-cache), for reference;
#      cold      filling an empty store;
#      warm      after COMMITS/100 new commits were added on top.
# 2. the issue's full figure: `maintstat link` (history, archive and the
#    links), timed as a process:
#      baseline  --no-cache;
#      cold      filling an empty store (commits, messages, links);
#      warm      after 1% new commits and their 1% new messages.
#    The warm report must equal a --no-cache run's.
# Prints the times, the warm/cold ratios (target <= 0.10) and the
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

# Each timed run starts with no dirty pages: the kernel writing back what
# the generators (or the run before) wrote would be timed with the tool.
secs() { sync; "$bench" "$@" | awk '{ print $1 }'; }
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

# ---- 2. link: history, archive and links ----
ms="$build/maintstat"
inbox_base="$work/base-$n.inbox"
if [ ! -d "$inbox_base" ]; then
	python3 "$here/gen-inbox.py" "$base" "$inbox_base"
	git --git-dir "$inbox_base/git/0.git" gc -q
fi
repo="$work/link-repo.git"
inbox="$work/link-inbox"
db="$work/link.sqlite"
rm -rf "$repo" "$inbox" "$db" "$db-wal" "$db-shm"
git clone -q --bare --no-local "$base" "$repo"
cp -r "$inbox_base" "$inbox"
# wall and CPU seconds of one run, its report in $work/link.out
run() {
	sync
	/usr/bin/time -f "%e %U %S" -o "$work/time" "$ms" link --repo "$repo" \
		--archive "$inbox" --json "$@" >"$work/link.out"
	awk '{ printf "%s %.2f", $1, $2 + $3 }' "$work/time"
}
lbase=$(run --no-cache)
lcold=$(run --db "$db")
python3 "$here/gen-history.py" --seed 1 --commits $((n / 100)) --append \
	"$repo"
msgs0=$(git --git-dir "$inbox/git/0.git" rev-list --count master)
python3 "$here/gen-inbox.py" "$repo" "$inbox"
msgs=$(git --git-dir "$inbox/git/0.git" rev-list --count master)
lwarm=$(run --db "$db")
cp "$work/link.out" "$work/link.warm"
run --no-cache >/dev/null
cmp -s "$work/link.out" "$work/link.warm" ||
	{ echo "MISMATCH: warm link report differs from --no-cache"; exit 1; }
size=$(($(stat -c %s "$db") + $(stat -c %s "$db-wal" 2>/dev/null || echo 0)))
commits=$(git --git-dir "$repo" rev-list --count HEAD)
w() { echo "$1" | cut -d' ' -f1; }
c() { echo "$1" | cut -d' ' -f2; }
echo
echo "link: $commits commits, $msgs messages ($((msgs - msgs0)) new)"
echo "baseline (--no-cache):    $(w "$lbase") s (CPU $(c "$lbase") s)"
echo "cold (filling the store): $(w "$lcold") s (CPU $(c "$lcold") s)"
echo "warm (1% new of both):    $(w "$lwarm") s (CPU $(c "$lwarm") s)"
echo "ratio warm/cold:          $(echo "scale=3; $(w "$lwarm") / $(w "$lcold")" \
	| bc) wall, $(echo "scale=3; $(c "$lwarm") / $(c "$lcold")" | bc) CPU" \
	"(target <= 0.10)"
echo "store size:               $size bytes," \
	"$(echo "scale=1; $size * 100000 / $commits / 1048576" | bc)" \
	"MiB per 100,000 commits (commits, messages, links)"
