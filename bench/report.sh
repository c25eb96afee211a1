#!/usr/bin/env bash
# bench/report.sh - bstore report against bon_csv2html on the same lines,
# alternating, three times each, in one run; then the everyday case.
#
#   1. Ingests the 100,000-line file of the ingest benchmark
#      (bench/gen-lines 100000 42), then renders one HTML report of all
#      100,000 runs (`bstore report -o out.html`) and, on the same lines,
#      `bon_csv2html < file > out.html` (Debian's bonnie++). Prints the
#      medians, their ratios (goal: bstore <= 1/4 of bon_csv2html's wall
#      time and <= 1/4 of its peak memory) and the output sizes.
#   2. Reports of 2 to 50 runs in each format, 20 times each with
#      hyperfine: the median and slowest wall time (goal: well under 0.1 s).
#
#   bench/report.sh [BSTORE]     (default: build/release/cli/bstore)
#   MACHINES=500 bench/report.sh   the same lines spread over 500 machines
#                                  (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_bstore "${1:-}"
command -v bon_csv2html >/dev/null || scripts/deps.sh bonnie++
machines=${MACHINES:-200}
if [ "$machines" = 200 ]; then
	bench_lines 100000
else
	bench_lines 100000 "$machines"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/bstore-bench-report.XXXXXX")
trap 'rm -rf "$work"' EXIT
export BSTORE_DB=$work/b.db

echo "bstore: $("$bstore" --version); bonnie++ $(dpkg-query -W -f '${Version}' bonnie++ 2>/dev/null || echo '?'); $(nproc) cores"
"$bstore" --quiet ingest "$file"
echo "ingested $(sqlite3 "$BSTORE_DB" 'select count(*) from runs') runs from $file"

: >"$work/b"
: >"$work/h"
for i in 1 2 3; do
	measure "$bstore" report -o "$work/report.html" >>"$work/b"
	in=$file measure bon_csv2html >>"$work/h"
	cp "$work/stdout" "$work/bon.html"
done
bt=$(secs "$work/b")
ht=$(secs "$work/h")
bm=$(peak "$work/b")
hm=$(peak "$work/h")
printf 'HTML report of 100000 runs: bstore %.2f s, bon_csv2html %.2f s, ratio %.3f (goal <= 0.25)\n' \
	"$bt" "$ht" "$(echo "$bt $ht" | awk '{print $1 / $2}')"
printf 'peak RSS: bstore %s MiB, bon_csv2html %s MiB, ratio %.3f (goal <= 0.25)\n' \
	"$(echo "$bm" | mib)" "$(echo "$hm" | mib)" "$(echo "$bm $hm" | awk '{print $1 / $2}')"
printf 'output: bstore %s bytes (%s run rows), bon_csv2html %s bytes (%s run rows)\n' \
	"$(wc -c <"$work/report.html")" "$(grep -c '^<tr><td>\[' "$work/report.html")" \
	"$(wc -c <"$work/bon.html")" "$(grep -c 'rowspan="2"' "$work/bon.html" || true)"
echo "    bstore runs (s, KiB): $(tr '\n' ' ' <"$work/b")"
echo "    bon_csv2html runs (s, KiB): $(tr '\n' ' ' <"$work/h")"

# The everyday case: 2 to 50 runs, timed by hyperfine (20 runs each).
command -v hyperfine >/dev/null || scripts/deps.sh hyperfine
everyday() {
	local label=$1
	shift
	hyperfine -N --warmup 2 --runs 20 --export-csv "$work/e.csv" \
		"$(printf '%q ' "$bstore" report "$@")" >/dev/null 2>&1
	# command,mean,stddev,median,user,system,min,max (seconds)
	awk -F, -v l="$label" 'NR == 2 {printf "%-34s median %5.1f ms, max %5.1f ms\n", l, $4 * 1000, $8 * 1000}' "$work/e.csv"
}
everyday "2 runs, 2 groups, text" 1 2
everyday "2 runs, 2 groups, HTML" -o "$work/e.html" 1 2
everyday "50 runs, 5 groups of 10, HTML" -o "$work/e.html" 1-10 11-20 21-30 31-40 41-50
everyday "50 runs, 5 groups of 10, JSON" -f json 1-10 11-20 21-30 31-40 41-50
everyday "50 runs, 1 group, CSV" -f csv 1-50
measure "$bstore" report -o "$work/e.html" 1-10 11-20 21-30 31-40 41-50 >"$work/e"
echo "peak RSS of the 50-run HTML report: $(cut -d' ' -f2 "$work/e" | mib) MiB"
