#!/bin/bash
# ab-new-mail.sh - two builds of maintstat side by side on `pending --json`
# after a fetch brought N new messages to a public-inbox epoch (issue 36:
# at most 0.05 of a cold run), their runs alternating so that the load of
# the machine falls on both alike.
#
# The epoch is cloned (bare, --shared), each build fills a store of its own
# with the branch N commits back (--json, then text), and then, per round,
# each build runs on a copy of its store with the branch at its tip (after
# the new mail) and on a fresh store (cold).  Printed per build: the mean
# CPU (user + system of every thread, perf stat's task-clock) and page
# faults of each kind of run, the runs themselves, and the share of the
# cold run; every output after the new mail must equal the build's cold
# output (cmp), or the difference is printed.
#
# Usage: tests/bench/ab-new-mail.sh BIN_A BIN_B EPOCH
#        (BIN: a build's `maintstat`; EPOCH: a git directory such as lore's
#        linux-watchdog epoch 0)
# Env:   ROUNDS (default 5), COLD_ROUNDS (default 3), N (default 100),
#        LINUX (the tree, default the linux-source-6.1 cache of make check)
set -euo pipefail
[ $# -eq 3 ] || { sed -n '/^# Usage/,/^# *LINUX/p' "$0" >&2; exit 2; }
A=$(realpath "$1"); B=$(realpath "$2"); EPOCH=$3
ROUNDS=${ROUNDS:-5}; COLD_ROUNDS=${COLD_ROUNDS:-3}; N=${N:-100}
: "${LINUX:=${MS_CACHE:-$HOME/.cache/maintstat-dev}/linux-source-6.1}"
command -v perf >/dev/null || { echo "ab-new-mail: needs perf" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
git clone -q --bare --shared "$EPOCH" "$tmp/k.git"
tip=$(git -C "$tmp/k.git" rev-parse HEAD)
git -C "$tmp/k.git" update-ref refs/heads/master "$tip~$N"
run() { # BIN DB: CPU ms and faults of one pending --json, output in $tmp/out
	perf stat -x, -e task-clock,page-faults "$1" pending --tree "$LINUX" \
		--archive "$tmp/k.git" --json --db "$2" 2>&1 >"$tmp/out" |
		awk -F, '/task-clock|page-faults/ { printf "%s ", $1 }'
}
for b in a b; do
	bin=$A; [ $b = b ] && bin=$B
	"$bin" pending --tree "$LINUX" --archive "$tmp/k.git" --json \
		--db "$tmp/fill.$b" >/dev/null 2>&1
	"$bin" pending --tree "$LINUX" --archive "$tmp/k.git" \
		--db "$tmp/fill.$b" >/dev/null 2>&1
done
git -C "$tmp/k.git" update-ref refs/heads/master "$tip"
for b in a b; do
	bin=$A; [ $b = b ] && bin=$B
	"$bin" pending --tree "$LINUX" --archive "$tmp/k.git" --json \
		--no-cache > "$tmp/cold.$b" 2>/dev/null
done
{
	for i in $(seq "$ROUNDS"); do
		for b in a b; do
			bin=$A; [ $b = b ] && bin=$B
			rm -f "$tmp/db" "$tmp"/db-*; cp "$tmp/fill.$b" "$tmp/db"
			echo "$b new $(run "$bin" "$tmp/db")"
			cmp -s "$tmp/out" "$tmp/cold.$b" ||
				echo "$b: the output after the new mail differs" >&2
		done
	done
	for i in $(seq "$COLD_ROUNDS"); do
		for b in a b; do
			bin=$A; [ $b = b ] && bin=$B
			rm -f "$tmp/db" "$tmp"/db-*
			echo "$b cold $(run "$bin" "$tmp/db")"
		done
	done
} | awk -v A="$A" -v B="$B" -v N="$N" '
	{ k = $1 " " $2; s[k] += $3; f[k] += $4; n[k]++; v[k] = v[k] " " int($3) }
	END {
		for (b = 0; b < 2; b++) {
			x = b ? "b" : "a"; name = b ? B : A
			printf "%s: %s\n", x, name
			for (t = 0; t < 2; t++) {
				k = x " " (t ? "cold" : "new")
				printf "  %-5s %8.1f ms CPU, %6d faults (runs:%s)\n",
				       t ? "cold" : "new", s[k] / n[k], f[k] / n[k], v[k]
			}
			share = 100 * (s[x " new"] / n[x " new"])
			share /= s[x " cold"] / n[x " cold"]
			printf "  after %s new: %.1f%% of cold\n", N, share
		}
	}'
