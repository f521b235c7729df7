#!/bin/bash
# bench-fetch.sh [URL] - how fast `maintstat fetch` mirrors a public-inbox
# inbox over HTTP, against git itself doing the same job.
#
# Baseline: `git clone --mirror URL/git/N.git` of every epoch, what
# grokmirror and public-inbox-clone do underneath.  Both talk to the same
# server on 127.0.0.1; the figures are best of RUNS for a first mirror
# (clone) and for an up-to-date re-run (nothing new).
#
# Usage: tests/bench/bench-fetch.sh [INBOX-URL]
#   Without a URL, starts the shared lore-lab server with the linux-rdma
#   slice (importing takes minutes) and stops it afterwards.
# Env:   MAINTSTAT (default build/maintstat), RUNS (default 3)
set -euo pipefail
cd "$(dirname "$0")/../.."
MS=$(realpath "${MAINTSTAT:-build/maintstat}")
RUNS=${RUNS:-3}
LAB=../shared/lore-lab
[ -x "$MS" ] || { echo "bench: build maintstat first (make build)" >&2; exit 1; }
tmp=$(mktemp -d)
cleanup() {
	[ -e "$tmp/lore" ] && "$LAB/stop-local-lore.sh" --purge "$tmp/lore" \
		>/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

URL=${1:-}
if [ -z "$URL" ]; then
	gzip -dc ../shared/data/linux-rdma-2023.mbox.gz > "$tmp/rdma.mbox"
	echo "bench: importing the linux-rdma slice into public-inbox..." >&2
	base=$(LORE_INBOX=linux-rdma LORE_ALL=0 "$LAB/start-local-lore.sh" \
		"$tmp/rdma.mbox" 0 "$tmp/lore" 2>/dev/null)
	URL=$base/linux-rdma/
fi
URL=${URL%/}/

now() { date +%s.%N; }
best() { # best of RUNS of "prepare; timed command": best PREP CMD...
	local b=999999 t0 t1 d prep=$1
	shift
	for _ in $(seq "$RUNS"); do
		eval "$prep"
		t0=$(now); "$@" > /dev/null 2>&1; t1=$(now)
		d=$(echo "$t1 - $t0" | bc -l)
		b=$(echo "if ($d < $b) $d else $b" | bc -l)
	done
	printf '%.3f' "$b"
}

epochs=$("$MS" fetch --json --dest "$tmp/probe" "$URL" | python3 -c '
import json, sys
print(" ".join(str(e["epoch"]) for e in json.load(sys.stdin)["inboxes"][0]["epochs"]))')
msgs=$(git --git-dir "$tmp/probe"/*/git/0.git rev-list --count HEAD)
git_clone() {
	for n in $epochs; do
		git clone -q --mirror "${URL}git/$n.git" "$tmp/g/$n.git"
	done
}
git_fetch() {
	for n in $epochs; do git --git-dir "$tmp/g/$n.git" fetch -q; done
}

ms_clone=$(best 'rm -rf "$tmp/m"' "$MS" fetch --quiet --dest "$tmp/m" "$URL")
git_clone_t=$(best 'rm -rf "$tmp/g"' git_clone)
ms_again=$(best : "$MS" fetch --quiet --dest "$tmp/m" "$URL")
git_again=$(best : git_fetch)

echo "inbox $URL: epochs $epochs, $msgs messages in epoch 0"
printf '%-34s %8s s   ratio to baseline\n' "" "best"
printf '%-34s %8s s\n' "git clone --mirror (baseline)" "$git_clone_t"
printf '%-34s %8s s   %.2fx\n' "maintstat fetch (first mirror)" "$ms_clone" \
	"$(echo "$ms_clone / $git_clone_t" | bc -l)"
printf '%-34s %8s s\n' "git fetch, up to date (baseline)" "$git_again"
printf '%-34s %8s s   %.2fx\n' "maintstat fetch, up to date" "$ms_again" \
	"$(echo "$ms_again / $git_again" | bc -l)"
