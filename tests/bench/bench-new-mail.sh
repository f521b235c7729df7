#!/bin/bash
# bench-new-mail.sh - what `pending` and `review` cost after a fetch
# brought N new messages (issue 36: at most 0.05 of a cold run), against
# the cold run and the warm run with nothing new, on the archive forms
# `fetch` keeps: LTP's list (a public-inbox git epoch) with LTP's
# repository, and the linux-rdma 2023 slice with the linux-source-6.1 tree
# as an epoch (made here with git fast-import, a commit per message), a
# plain mbox and a .gz (the new mail a gzip member of its own).
#
# The archive's old state is the archive without its last N messages (an
# epoch whose branch is N commits back; the mbox cut before
# its N-th last message).  Per data set and command, CPU time (user + sys)
# of: the cold run (--json, a fresh store, the whole archive), the warm run
# (the same again: the kept result), and the run after the new mail (a
# store filled by a --json and a text run on the old state, then the N
# messages added).  The outputs after the new mail, --json and text, must
# equal a cold run's (cmp); a difference is printed.
#
# Usage: tests/bench/bench-new-mail.sh
# Env:   MAINTSTAT (default build/maintstat), RUNS (default 1: best of),
#        N (default 100), LTP, LTPLIST, LINUX, RDMALIST as
#        tests/bench/corpus.sh names them; a data set not found is skipped.
#        KLISTS: public-inbox epochs of kernel lists (space-separated git
#        directories, e.g. lore's linux-leds epoch 0), each read with the
#        LINUX tree as fetched: the real form a kernel list takes.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=$(pwd)
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
RUNS=${RUNS:-1}
N=${N:-100}
: "${LTP:=/work/.mirror/linux-test-project+ltp/repo}"
: "${LTPLIST:=/work/.mirror/linux-mailinglist-archives+ltp.lists.linux.it.0/repo}"
: "${LINUX:=${MS_CACHE:-$HOME/.cache/maintstat-dev}/linux-source-6.1}"
: "${RDMALIST:=$here/../shared/data/linux-rdma-2023.mbox.gz}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
awk '/cat >"\$TMPD\/ltp-MAINTAINERS"/ { f = 1; next } f && /^EOF/ { f = 0 }
     f' tests/bench/corpus.sh > "$tmp/ltp-MAINTAINERS"
[ -x "$MS" ] || { echo "bench: build maintstat first" >&2; exit 1; }

# cpu OUT ARGS...: one run of maintstat; prints its CPU seconds
cpu() {
	local out=$1

	shift
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$MS" "$@" > "$out" \
		2> "$out.err"
	awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/time"
}

min() { printf '%s\n' "$@" | grep . | sort -n | head -1; }

# same A B WHAT: say so when two outputs differ
same() {
	cmp -s "$1" "$2" || echo "  $3 differs from the cold run"
}

# bench NAME OLD NEW CMD ARGS...: OLD and NEW are commands putting the
# archive in its old and new state; ARGS end with the archive's path.
bench() {
	local name=$1 old=$2 new=$3 cmd=$4 c='' w='' a='' x

	shift 4
	$new
	for _ in $(seq "$RUNS"); do
		rm -f "$tmp/db"*
		c=$(min "$c" "$(cpu "$tmp/cold" "$cmd" "$@" --json --db \
			"$tmp/db")")
		w=$(min "$w" "$(cpu "$tmp/warm" "$cmd" "$@" --json --db \
			"$tmp/db")")
		same "$tmp/cold" "$tmp/warm" "$name $cmd warm"
	done
	rm -f "$tmp/db"*
	cpu "$tmp/cold.txt" "$cmd" "$@" --db "$tmp/db" > /dev/null
	$old
	rm -f "$tmp/fill"*
	cpu "$tmp/x" "$cmd" "$@" --json --db "$tmp/fill" > /dev/null
	cpu "$tmp/x" "$cmd" "$@" --db "$tmp/fill" > /dev/null
	$new
	for _ in $(seq "$RUNS"); do
		rm -f "$tmp/after"*
		cp "$tmp/fill" "$tmp/after"
		x=$(cpu "$tmp/new" "$cmd" "$@" --json --db "$tmp/after")
		a=$(min "$a" "$x")
		same "$tmp/cold" "$tmp/new" "$name $cmd --json after new mail"
		cp "$tmp/fill" "$tmp/after"
		cpu "$tmp/new.txt" "$cmd" "$@" --db "$tmp/after" > /dev/null
		same "$tmp/cold.txt" "$tmp/new.txt" \
			"$name $cmd text after new mail"
	done
	awk -v n="$name" -v m="$cmd" -v c="$c" -v w="$w" -v a="$a" \
	    -v k="$N" 'BEGIN { printf "  %-9s %-8s cold %6.2fs  warm %5.2fs " \
		"(%5.1f%%)  after %d new %5.2fs (%5.1f%%)\n", n, m, c, w,
		100 * w / c, k, a, 100 * a / c }'
}

echo "$MS, N=$N, RUNS=$RUNS"
# epoch NAME GITDIR ARGS...: pending and review on a bare clone of a
# public-inbox epoch, its HEAD N commits back, then at its tip
epoch() {
	local name=$1 src=$2

	shift 2
	rm -rf "$tmp/e.git"
	git clone -q --bare --shared "$src" "$tmp/e.git"
	etip=$(git -C "$tmp/e.git" rev-parse HEAD)
	eback=$(git -C "$tmp/e.git" rev-parse "HEAD~$N")
	e_old() { git -C "$tmp/e.git" update-ref HEAD "$eback"; }
	e_new() { git -C "$tmp/e.git" update-ref HEAD "$etip"; }
	for cmd in pending review; do
		bench "$name" e_old e_new "$cmd" "$@" --archive "$tmp/e.git"
	done
}

if [ -e "$LTP" ] && [ -e "$LTPLIST" ]; then
	epoch ltp-epoch "$LTPLIST" --repo "$LTP" --maintainers \
		"$tmp/ltp-MAINTAINERS" --until 2026-11-01
else
	echo "  ltp: skipped ($LTP or $LTPLIST not found)"
fi
for k in ${KLISTS:-}; do
	[ -e "$LINUX" ] || break
	epoch "$(basename "$(dirname "$k")" | sed 's/.*+//; s/\..*//')" \
		"$k" --tree "$LINUX"
done
if [ -e "$LINUX" ] && [ -e "$RDMALIST" ]; then
	# the slice cut before its N-th last message (a From_ line after a
	# blank line), plain and as .gz
	zcat -f "$RDMALIST" > "$tmp/all.mbox"
	cut=$(python3 -c 'import re, sys
b = open(sys.argv[1], "rb").read()
o = [0] + [m.start() + 2 for m in re.finditer(rb"\n\nFrom ", b)]
print(o[-int(sys.argv[2])])' "$tmp/all.mbox" "$N")
	# the slice as a public-inbox epoch, as `fetch` keeps a list: a
	# commit per message adding it as blob 'm' (public-inbox's layout)
	git init -q --bare "$tmp/rdma.git"
	python3 - "$tmp/all.mbox" <<'EOF' |
import re, sys
b = open(sys.argv[1], "rb").read()
o = [0] + [m.start() + 2 for m in re.finditer(rb"\n\nFrom ", b)] + [len(b)]
w = sys.stdout.buffer.write
for i in range(len(o) - 1):
    m = b[o[i]:o[i + 1]].split(b"\n", 1)[1]
    m = re.sub(rb"(?m)^>(>*From )", rb"\1", m)
    w(b"commit refs/heads/master\ncommitter a <a@b> %d +0000\ndata 1\nm\n"
      % (1672531200 + i))
    w(b"M 100644 inline m\ndata %d\n%s\n" % (len(m), m))
EOF
		git -C "$tmp/rdma.git" fast-import --quiet
	rtip=$(git -C "$tmp/rdma.git" rev-parse HEAD)
	rback=$(git -C "$tmp/rdma.git" rev-parse "HEAD~$N")
	epoch_old() { git -C "$tmp/rdma.git" update-ref HEAD "$rback"; }
	epoch_new() { git -C "$tmp/rdma.git" update-ref HEAD "$rtip"; }
	head -c "$cut" "$tmp/all.mbox" > "$tmp/old.mbox"
	tail -c +"$((cut + 1))" "$tmp/all.mbox" > "$tmp/new.mbox"
	gzip -c "$tmp/old.mbox" > "$tmp/old.mbox.gz"
	gzip -c "$tmp/new.mbox" > "$tmp/new.mbox.gz"
	rm "$tmp/all.mbox"
	mbox_old() { cp "$tmp/old.mbox" "$tmp/list.mbox"; }
	mbox_new() { cat "$tmp/old.mbox" "$tmp/new.mbox" > "$tmp/list.mbox"; }
	gz_old() { cp "$tmp/old.mbox.gz" "$tmp/list.mbox.gz"; }
	gz_new() {
		cat "$tmp/old.mbox.gz" "$tmp/new.mbox.gz" > "$tmp/list.mbox.gz"
	}
	for cmd in pending review; do
		bench rdma-epoch epoch_old epoch_new "$cmd" --tree "$LINUX" \
			--archive "$tmp/rdma.git"
		bench rdma-mbox mbox_old mbox_new "$cmd" --tree "$LINUX" \
			--archive "$tmp/list.mbox"
		bench rdma-gz gz_old gz_new "$cmd" --tree "$LINUX" \
			--archive "$tmp/list.mbox.gz"
	done
else
	echo "  rdma: skipped ($LINUX or $RDMALIST not found)"
fi
