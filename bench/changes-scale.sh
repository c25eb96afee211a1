#!/bin/bash
# bench/changes-scale.sh - bstore changes and check at archive scale
# (issue 30): an archive of MACHINES x RUNS dated bonnie++ runs (default
# 10,000 series of 100 points, bench/gen-series, built once and kept in
# bench/data/), then
#   - `bstore changes -f json` against `bstore export --format csv --long`
#     of the same archive (reading every value once), alternating, three
#     times each: the medians of wall and CPU (user + system) seconds and
#     their ratios (goal: changes <= 1.5x export);
#   - `bstore check` on a copy: once to fill its cache, then three times
#     from that copy with 50 new runs ingested into 50 series: with the
#     cache and with --no-cache (goal: under 1 s), and whether the two
#     agree.
#
#   bench/changes-scale.sh [MACHINES [RUNS]]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
machines=${1:-10000}
runs=${2:-100}
bench_bstore
mkdir -p bench/data
base=bench/data/series-${machines}x$runs
if [ ! -s "$base.db" ]; then
	[ -s "$base.txt" ] || bench/gen-series "$machines" "$runs" 42 >"$base.txt"
	rm -f "$base.db.tmp"
	"$bstore" --db "$base.db.tmp" --quiet ingest "$base.txt"
	mv "$base.db.tmp" "$base.db"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/bstore-cpscale.XXXXXX")
trap 'rm -rf "$work"' EXIT

# cpu COMMAND...: "wall cpu" seconds, stdout to $work/stdout.
cpu() {
	/usr/bin/time -f '%e %U %S' -o "$work/t" "$@" >"$work/stdout" 2>"$work/err" ||
		[ $? -eq 1 ] || { cat "$work/err" >&2; return 1; }
	tail -1 "$work/t" | awk '{printf "%s %.2f\n", $1, $2 + $3}'
}
med() { cut -d' ' -f"$2" "$1" | median; }

echo "bstore: $("$bstore" --version); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "archive: $base.db, $(du -h "$base.db" | cut -f1), $machines series of $runs runs"
: >"$work/e"
: >"$work/c"
for _ in 1 2 3; do
	cpu "$bstore" --db "$base.db" export --format csv --long >>"$work/e"
	cpu "$bstore" --db "$base.db" changes -f json >>"$work/c"
done
printf 'export --format csv --long: %s s wall, %s s CPU   (%s)\n' \
	"$(med "$work/e" 1)" "$(med "$work/e" 2)" "$(tr '\n' ';' <"$work/e")"
printf 'changes -f json:            %s s wall, %s s CPU   (%s)\n' \
	"$(med "$work/c" 1)" "$(med "$work/c" 2)" "$(tr '\n' ';' <"$work/c")"
printf 'ratio changes / export: %.2fx wall, %.2fx CPU (goal <= 1.5x)\n' \
	"$(echo "$(med "$work/c" 1) $(med "$work/e" 1)" | awk '{print $1 / $2}')" \
	"$(echo "$(med "$work/c" 2) $(med "$work/e" 2)" | awk '{print $1 / $2}')"

# check: 50 new runs dated after the last, one in each of the first 50
# series: a copy of the series' last run (its seed field changed, so that
# it is a run of its own), block writes halved in one of five.
cp "$base.db" "$work/a.db"
first=$(cpu "$bstore" --db "$work/a.db" check)
awk -v runs="$runs" 'BEGIN {FS = OFS = ","}
	/^Date:/ {next}
	{n++}
	n % runs == 0 && n / runs <= 50 {
		print "Date: 2031-01-01 00:00"
		$5 = $5 "9"
		if (n / runs % 5 == 0 && $12 ~ /^[0-9]+$/) $12 = int($12 / 2)
		print
	}' "$base.txt" >"$work/new.txt"
: >"$work/k"
: >"$work/n"
for _ in 1 2 3; do
	# Each time from the archive as the first check left it.
	cp "$work/a.db" "$work/b.db"
	"$bstore" --db "$work/b.db" --quiet ingest "$work/new.txt"
	cpu "$bstore" --db "$work/b.db" check -f json >>"$work/k"
	mv "$work/stdout" "$work/k.json"
	cpu "$bstore" --db "$work/b.db" check --no-cache -f json >>"$work/n"
	mv "$work/stdout" "$work/n.json"
	cmp -s "$work/k.json" "$work/n.json" || {
		echo "check with and without the cache DIFFER"
		exit 1
	}
done
printf 'check, first (fills the cache): %s s wall, %s s CPU\n' $first
printf 'check after %d new runs: %s s wall, %s s CPU   (%s) (goal < 1 s)\n' \
	"$(grep -c '^1\.98' "$work/new.txt")" "$(med "$work/k" 1)" "$(med "$work/k" 2)" "$(tr '\n' ';' <"$work/k")"
printf 'check --no-cache:         %s s wall, %s s CPU   (%s)\n' \
	"$(med "$work/n" 1)" "$(med "$work/n" 2)" "$(tr '\n' ';' <"$work/n")"
echo "check with and without the cache: the same $(wc -l <"$work/k.json") regressions, each time"
