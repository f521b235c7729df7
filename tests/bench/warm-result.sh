# warm-result.sh - sourced by bench-review-warm.sh and bench-link-warm.sh:
# the --no-cache run, RUNS cold runs (a fresh store each) and RUNS warm
# runs of `maintstat CMD... --json`, the three reports compared, and the
# table of best wall, spread, best CPU, peak RSS and warm/cold ratios.
# Needs: MS, RUNS, ARGS, tmp, CMD (array: the command and its inputs),
# LABEL (the table's title).
# run OUT DB|--no-cache: one timed run; prints "wall cpu rss_kb"
run() {
	local db=(--db "$2")
	[ "$2" = --no-cache ] && db=(--no-cache)
	# shellcheck disable=SC2086
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$MS" "${CMD[@]}" \
		--json "${db[@]}" $ARGS > "$1"
	awk '{ printf "%.3f %.3f %d\n", $1, $2 + $3, $4 }' "$tmp/time"
}
# stats FILE: best wall, spread, best cpu, peak rss (MB) of the lines
stats() {
	sort -n "$1" | awk 'NR == 1 { b = $1 } { w = $1 }
		END { printf "%.3f %.3f ", b, w - b }'
	sort -n -k2 "$1" | awk 'NR == 1 { printf "%.3f ", $2 }'
	sort -n -k3 "$1" | awk '{ m = $3 } END { printf "%.0f\n", m / 1024 }'
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
run "$tmp/nocache.json" --no-cache > "$tmp/nocache"
: > "$tmp/cold"
for _ in $(seq "$RUNS"); do
	rm -f "$tmp/db"*
	sync
	run "$tmp/cold.json" "$tmp/db" >> "$tmp/cold"
done
: > "$tmp/warm"
for _ in $(seq "$RUNS"); do
	run "$tmp/warm.json" "$tmp/db" >> "$tmp/warm"
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
cmp -s "$tmp/cold.json" "$tmp/warm.json" ||
	{ echo "MISMATCH: the warm report differs from the cold one" >&2; exit 1; }
cmp -s "$tmp/nocache.json" "$tmp/warm.json" ||
	{ echo "MISMATCH: the warm report differs from --no-cache's" >&2; exit 1; }
read -r cw cs cc cm < <(stats "$tmp/cold")
read -r ww ws wc wm < <(stats "$tmp/warm")
read -r nw _ nc nm < <(stats "$tmp/nocache")
printf '%-34s %9s %9s %9s %8s %s\n' "$LABEL, best of $RUNS" wall spread \
	cpu rss "/ cold (wall, cpu)"
printf '%-34s %8.3fs %8s %8.3fs %6dMB\n' "--no-cache (one run)" "$nw" - "$nc" "$nm"
printf '%-34s %8.3fs %8.3fs %8.3fs %6dMB %s\n' "cold, empty store (baseline)" \
	"$cw" "$cs" "$cc" "$cm" 1
printf '%-34s %8.3fs %8.3fs %8.3fs %6dMB %.3f, %.3f\n' "warm, nothing new" \
	"$ww" "$ws" "$wc" "$wm" "$(echo "$ww / $cw" | bc -l)" \
	"$(echo "$wc / $cc" | bc -l)"
