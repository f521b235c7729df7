#!/bin/bash
# corpus.sh - the outputs of a fixed set of runs on real data, one file
# per run, for comparing a restructuring step against the build before it.
#
#   tests/bench/corpus.sh MAINTSTAT OUTDIR
#   diff -r OUTDIR-before OUTDIR-after
#
# Each run writes OUTDIR/<name>.out (stdout), <name>.err (stderr) and
# <name>.rc.  Runs whose data is not found are skipped, and the skip is
# written to OUTDIR/SKIPPED, so that a missing repository never reads as
# "no difference".  Data (override with the environment):
#   UBOOT     a U-Boot git repository (bare is fine)
#   RDMACORE  rdma-core's git repository
#   LTP       LTP's git repository;   LTPLIST  its list (public-inbox epoch)
#   XEN       Xen's git repository
#   LINUX     the linux-source-6.1 tree (make linux-tree)
#   RDMALIST  the linux-rdma 2023 slice (../shared/data)
# All runs share one store in OUTDIR/store (a cold first run, warm after),
# pinned with --until so that the wall clock does not move the window.
set -u
M=$(realpath "$1")
OUT=$2
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
here=$(cd "$(dirname "$0")/../.." && pwd)
: "${UBOOT:=/work/.mirror/u-boot+u-boot/repo}"
: "${RDMACORE:=/work/.mirror/linux-rdma+rdma-core/repo}"
: "${LTP:=/work/.mirror/linux-test-project+ltp/repo}"
: "${LTPLIST:=/work/.mirror/linux-mailinglist-archives+ltp.lists.linux.it.0/repo}"
: "${XEN:=/work/.mirror/xen-project+xen/repo}"
: "${LINUX:=${MS_CACHE:-$HOME/.cache/maintstat-dev}/linux-source-6.1}"
: "${RDMALIST:=$here/../shared/data/linux-rdma-2023.mbox.gz}"
DB="$OUT/store"
mkdir -p "$DB"
: >"$OUT/SKIPPED"
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT

have() { [ -e "$1" ] || { echo "$2: $1 not found" >>"$OUT/SKIPPED"; return 1; }; }

# run NAME ARGS...: one run, its three files.
run() {
	local name=$1; shift
	(cd "$TMPD" && "$M" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err")
	echo $? >"$OUT/$name.rc"
}

# both NAME ARGS...: the run in text and in JSON.
both() {
	local name=$1; shift
	run "$name" "$@"
	run "$name.json" "$@" --json
}

if have "$UBOOT" uboot; then
	U="--repo $UBOOT --db $DB/uboot.sqlite --until 2026-11-01"
	UM="--repo $UBOOT --db $DB/uboot.sqlite"
	both ub-activity activity $U
	both ub-activity-clk activity $U CLOCK 'ARM SNAPDRAGON'
	both ub-urgent urgent $U
	both ub-identities identities $U
	run ub-retire retire $U --no-credits --output-dir "$OUT/ub-retire.d"
	run ub-retire.json retire $U --no-credits --json \
		--output-dir "$OUT/ub-retire.json.d"
	both ub-maint maintainers --repo "$UBOOT" -f drivers/clk/clk-uclass.c \
		--find-maintainer-files
	both ub-maint-act maintainers $UM --activity -f drivers/clk/clk-uclass.c
	both ub-areas areas $U
	SOURCE_DATE_EPOCH=1767225600 run ub-recruit recruit $U \
		--output-dir "$OUT/ub-recruit.d"
fi
if have "$RDMACORE" rdma-core; then
	R="--repo $RDMACORE --db $DB/rdma-core.sqlite --until 2026-11-01"
	both rc-activity activity $R
	both rc-urgent urgent $R
	run rc-retire retire $R --no-credits --output-dir "$OUT/rc-retire.d"
	both rc-areas areas $R
	SOURCE_DATE_EPOCH=1767225600 run rc-recruit recruit $R \
		--output-dir "$OUT/rc-recruit.d"
	if have "$RDMALIST" rdma-list; then
		both rc-review review $R --archive "$RDMALIST"
		both rc-link link $R --archive "$RDMALIST"
	fi
fi
if have "$LTP" ltp; then
	# LTP keeps no MAINTAINERS file: a small one naming its maintainers
	# (README.rst, .b4-config) and the areas some of them look after.
	cat >"$TMPD/ltp-MAINTAINERS" <<'EOF'
LTP
M:	Cyril Hrubis <chrubis@suse.cz>
M:	Petr Vorel <pvorel@suse.cz>
M:	Li Wang <liwang@redhat.com>
M:	Jan Stancek <jstancek@redhat.com>
M:	Andrea Cervesato <andrea.cervesato@suse.com>
L:	ltp@lists.linux.it
S:	Maintained
F:	*
F:	*/

LTP LIBRARY
M:	Cyril Hrubis <chrubis@suse.cz>
L:	ltp@lists.linux.it
S:	Maintained
F:	lib/
F:	include/

NETWORK TESTS
M:	Petr Vorel <pvorel@suse.cz>
M:	Alexey Kodanev <alexey.kodanev@oracle.com>
L:	ltp@lists.linux.it
S:	Maintained
F:	testcases/network/

OPEN POSIX TESTSUITE
M:	Garrett Cooper <yanegomi@gmail.com>
R:	Cyril Hrubis <chrubis@suse.cz>
S:	Maintained
F:	testcases/open_posix_testsuite/
EOF
	L="--repo $LTP --maintainers $TMPD/ltp-MAINTAINERS --db $DB/ltp.sqlite --until 2026-11-01"
	both ltp-activity activity $L
	both ltp-identities identities $L
	if have "$LTPLIST" ltp-list; then
		both ltp-review review $L --archive "$LTPLIST"
		both ltp-link link --repo "$LTP" --db "$DB/ltp.sqlite" \
			--until 2026-11-01 --archive "$LTPLIST"
		run ltp-report report $L --archive "$LTPLIST" \
			--output-dir "$OUT/ltp-report.d"
	fi
fi
if have "$XEN" xen; then
	X="--repo $XEN --db $DB/xen.sqlite --until 2026-11-01"
	both xen-activity activity $X
	both xen-urgent urgent $X
	both xen-identities identities $X
	run xen-retire retire $X --output-dir "$OUT/xen-retire.d"
	both xen-maint-act maintainers --repo "$XEN" --db "$DB/xen.sqlite" \
		--activity -f CHANGELOG.md
fi
if have "$LINUX" linux && have "$RDMALIST" rdma-list; then
	K="--tree $LINUX --db $DB/rdma-list.sqlite"
	both rdma-review review $K --archive "$RDMALIST"
	both rdma-identities identities $K --archive "$RDMALIST"
	both rdma-mail mail stats "$RDMALIST"
	both rdma-people people $K --archive "$RDMALIST" --by quarter
	run rdma-report report $K --archive "$RDMALIST" \
		--output-dir "$OUT/rdma-report.d"
fi
# The store's own bytes differ from run to run; the outputs must not.
rm -rf "$DB"
echo "corpus: $(ls "$OUT"/*.rc | wc -l) runs in $OUT" \
	"($(wc -l <"$OUT/SKIPPED") data sets skipped)"
