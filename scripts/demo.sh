#!/bin/sh
# demo.sh MAINTSTAT CACHE - the main job on real data: Debian's
# linux-source-6.1 tree, unpacked under CACHE.  Later stages of the
# pipeline add their steps below.
set -eu
ms=$1
cache=$2
tree=$cache/linux-source-6.1
out=${DEMO_OUT:-$cache/demo}
mkdir -p "$out"

step() { printf '\n$ %s\n' "$*"; "$@"; }
# Which data is real and which generated, said in the output itself.
banner() { printf '\n==== %s\n' "$*"; }

step "$ms" --version

banner "REAL data: Debian's linux-source-6.1 tree and MAINTAINERS, the" \
	"linux-rdma list's 2023 archive"

# MAINTAINERS: its own health, and who matches a few paths.
step "$ms" coverage "$tree"
"$ms" coverage "$tree" --json > "$out/coverage.json"
echo "(JSON written to $out/coverage.json)"
step "$ms" sections "$tree" net/tls/tls_main.c drivers/infiniband/core/cma.c \
	kernel/sched/core.c arch/arm/boot/dts/sun8i-h3.dtsi
step "$ms" sections --tree "$tree" --full drivers/dma/ioat/dma.c

# Mailing lists: the linux-rdma list's 2023 archive, parsed and counted.
step "$ms" mail stats "$(dirname "$0")/../../shared/data/linux-rdma-2023.mbox.gz"

# Git activity: a GENERATED repository (fixtures/gen/gen-repo.py, seeded)
# that carries linux-source-6.1's MAINTAINERS entries, patterns and file
# layout, 20,000 commits of invented activity over its entries.  The
# history is invented, so its people are too: every M:/R: person of the
# file is replaced by a pseudonym (name Pseudo<N>, address
# @maintainers.invalid).  No verdict below is about a real person.
actrepo=$out/activity-linux-pseudo.git
if [ ! -d "$actrepo" ]; then
	echo "(generating $actrepo ...)"
	rm -rf "$actrepo.tmp"
	python3 "$(dirname "$0")/../fixtures/gen/gen-repo.py" "$actrepo.tmp" \
		--maintainers "$tree/MAINTAINERS" --layout "$tree" \
		--commits 20000 --seed 1 >/dev/null
	mv "$actrepo.tmp" "$actrepo"
fi
banner "GENERATED data: the history of $actrepo is invented" \
	"(real entries and files, pseudonymous people)"
step "$ms" activity --repo "$actrepo" --min-commits 300
step "$ms" activity --repo "$actrepo" --inactive-after 18m "ARM PORT" \
	"NETWORKING DRIVERS"
"$ms" activity --repo "$actrepo" --json > "$out/activity.json"
echo "(JSON written to $out/activity.json)"
step "$ms" urgent --repo "$actrepo"
step "$ms" urgent --repo "$actrepo" --never --min-commits 10
"$ms" urgent --repo "$actrepo" --json > "$out/urgent.json"
echo "(JSON written to $out/urgent.json)"
banner "end of GENERATED data"

# Fetching: a real public-inbox server on 127.0.0.1 (the shared lore-lab)
# serves the same linux-rdma slice; maintstat mirrors it over HTTP as lore
# would be mirrored, fetches again (nothing new), saves a search, and the
# mail reader counts the mirror, which stays in $out/linux-rdma-mirror.
lab=$(dirname "$0")/../../shared/lore-lab
rdma=$(dirname "$0")/../../shared/data/linux-rdma-2023.mbox.gz
if ! command -v public-inbox-httpd >/dev/null ||
		[ ! -x "$lab/start-local-lore.sh" ] || [ ! -r "$rdma" ]; then
	echo "(fetch demo skipped: needs public-inbox, $lab and $rdma)"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/maintstat-demo.XXXXXX")
	stop_lore() {
		"$lab/stop-local-lore.sh" --purge "$work/lore" >/dev/null 2>&1 ||:
		rm -rf "$work"
	}
	trap stop_lore EXIT
	trap 'exit 130' INT TERM
	gzip -dc "$rdma" > "$work/rdma.mbox"
	echo
	echo "(importing the slice into a local public-inbox server;" \
	     "this takes a few minutes)"
	url=$(LORE_INBOX=linux-rdma LORE_ALL=0 "$lab/start-local-lore.sh" \
		"$work/rdma.mbox" 0 "$work/lore" 2>"$work/lore.err") || {
		cat "$work/lore.err" >&2
		exit 1
	}
	rm -f "$work/rdma.mbox"
	step "$ms" fetch --dest "$work/mirror" "$url/linux-rdma/"
	step "$ms" fetch --dest "$work/mirror" "$url/linux-rdma/"
	step "$ms" fetch --whole-threads --query 's:mlx5 d:20230101..20230201' \
		"$url/linux-rdma/" -o "$out/mlx5-2023-01.mbox"
	step "$ms" mail stats "$work/mirror/linux-rdma"
	# Kept for the review steps below.
	rm -rf "$out/linux-rdma-mirror"
	mv "$work/mirror/linux-rdma" "$out/linux-rdma-mirror"
	stop_lore
	trap - EXIT INT TERM
fi

# The incremental store: the first walk fills it, later ones read only new
# commits.  A generated 5,000-commit history; 50 commits added in between.
hist=$out/store-demo.git
db=$out/store-demo.sqlite
rm -rf "$hist" "$db" "$db-wal" "$db-shm"
python3 "$(dirname "$0")/../tests/bench/gen-history.py" --commits 5000 "$hist"
printf '\n$ %s\n' "$ms store log --repo $hist --db $db | tail -1   # cold"
"$ms" store log --repo "$hist" --db "$db" | tail -1
python3 "$(dirname "$0")/../tests/bench/gen-history.py" --commits 50 \
	--append "$hist"
printf '\n$ %s\n' "$ms store log --repo $hist --db $db | tail -1   # warm"
"$ms" store log --repo "$hist" --db "$db" | tail -1
step "$ms" store info --db "$db"

# The list review: REAL data only.  The linux-rdma archive as mirrored
# from the local public-inbox server ($out/linux-rdma-mirror, when the
# fetch step above left one; else the slice itself) against the real
# linux-source-6.1 MAINTAINERS: real people, judged on what they really
# wrote to the list.  No git history joins it (the generated one is
# invented), so merged shares and commit counts are absent.
archive=$out/linux-rdma-mirror
[ -d "$archive" ] ||
	archive=$(dirname "$0")/../../shared/data/linux-rdma-2023.mbox.gz
lore=https://lore.kernel.org/linux-rdma
banner "REAL data: the linux-rdma list, 2023, and linux-source-6.1's" \
	"MAINTAINERS"
step "$ms" review --tree "$tree" --archive "$archive" --since 2023-01-01 \
	--list-url "$lore" "HFI1 DRIVER" "SOFT-ROCE DRIVER (rxe)"
"$ms" review --tree "$tree" --archive "$archive" --since 2023-01-01 \
	--list-url "$lore" --json > "$out/review.json"
echo "(JSON written to $out/review.json)"
# Is review getting slower?  The same figures per month, from one reading.
step "$ms" review --tree "$tree" --archive "$archive" --since 2023-01-01 \
	--by month "INFINIBAND SUBSYSTEM"

# The same review as a static site: overview, a page per entry and per
# listed person, plots; open it from disk.  REAL data, as above.
step "$ms" report --tree "$tree" --archive "$archive" --since 2023-01-01 \
	--list-url "$lore" --output-dir "$out/report"
echo "(the report of the linux-rdma slice: $out/report/index.html)"
