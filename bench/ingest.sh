#!/usr/bin/env bash
# bench/ingest.sh - bstore ingest against sqlite3's .import on the same
# bonnie++ 1.98 CSV lines, alternating, three times each, in one run.
# Prints the medians, their ratio (goal: bstore <= 1.6x sqlite3, issue 32) and
# bstore's peak memory (goal: <= 32 MiB) for 100,000 and 1,000,000 lines.
#
#   bench/ingest.sh [BSTORE]     (default: build/release/cli/bstore)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_bstore "${1:-}"
command -v sqlite3 >/dev/null || scripts/deps.sh sqlite3
work=$(mktemp -d "${TMPDIR:-/tmp}/bstore-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

cols=$(seq -s, -f 'c%g' 1 50)

run_size() {
	local lines=$1 reps=$2 file
	bench_lines "$lines"
	: >"$work/b"
	: >"$work/s"
	for i in $(seq 1 "$reps"); do
		rm -f "$work/b.db"* "$work/s.db"*
		measure "$bstore" --db "$work/b.db" --quiet ingest "$file" >>"$work/b"
		measure sqlite3 "$work/s.db" "CREATE TABLE t($cols);" \
			".import --csv $file t" >>"$work/s"
	done
	local stored
	stored=$(sqlite3 "$work/b.db" 'select count(*) from runs')
	local bt st bm sm
	bt=$(secs "$work/b")
	st=$(secs "$work/s")
	bm=$(peak "$work/b")
	sm=$(peak "$work/s")
	printf '%9d lines: bstore %6.2f s (%s runs stored), sqlite3 .import %6.2f s, ratio %.2fx (goal <= 1.6x); peak RSS bstore %.1f MiB (goal <= 32), sqlite3 %.1f MiB\n' \
		"$lines" "$bt" "$stored" "$st" "$(echo "$bt $st" | awk '{print $1 / $2}')" \
		"$(echo "$bm" | awk '{print $1 / 1024}')" "$(echo "$sm" | awk '{print $1 / 1024}')"
	echo "    bstore runs (s, KiB): $(tr '\n' ' ' <"$work/b")"
	echo "    sqlite3 runs (s, KiB): $(tr '\n' ' ' <"$work/s")"
}

echo "bstore: $("$bstore" --version); sqlite3 $(sqlite3 --version | cut -d' ' -f1); $(nproc) cores"
run_size 100000 3
run_size 1000000 3
