# shellcheck shell=bash
# bench/lib.sh - what the benchmark scripts share, sourced by each from
# the top of the tree (". bench/lib.sh" after its cd): the bstore to time,
# the generated lines, and the timing helpers (which write into $work, the
# script's scratch directory).

# bench_bstore [BSTORE]: sets bstore to BSTORE (default: the release
# build), building the release preset when there is no such program.
bench_bstore() {
	bstore=${1:-build/release/cli/bstore}
	if [ ! -x "$bstore" ]; then
		cmake --preset release >/dev/null
		cmake --build --preset release -j2 >/dev/null
	fi
}

# bench_lines N [MACHINES]: sets file to bench/data's N bonnie++ 1.98 CSV
# lines (bench/gen-lines N 42 [MACHINES]; MACHINES default 200), made when
# missing: lines-N.csv, or lines-N-mMACHINES.csv.
bench_lines() {
	mkdir -p bench/data
	file=$(realpath bench/data)/lines-$1${2:+-m$2}.csv
	[ -s "$file" ] || bench/gen-lines "$1" 42 ${2:+"$2"} >"$file"
}

# measure COMMAND...: prints "seconds maxrss_kib" for a command, its stdin
# from $in when set (else /dev/null), its stdout kept in $work/stdout; on
# failure shows its errors and returns 1.
# shellcheck disable=SC2154 # work is the sourcing script's
measure() {
	/usr/bin/time -f '%e %M' -o "$work/time" "$@" <"${in:-/dev/null}" \
		>"$work/stdout" 2>"$work/err" || {
		cat "$work/err" >&2
		return 1
	}
	cat "$work/time"
}

# The median, and a size in KiB as MiB, of the numbers on stdin.
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
mib() { awk '{printf "%.1f", $1 / 1024}'; }

# Of a file of measure's lines: the median seconds, the greatest KiB.
secs() { cut -d' ' -f1 "$1" | median; }
peak() { cut -d' ' -f2 "$1" | sort -n | tail -1; }

# bench_pg: starts a scratch PostgreSQL cluster (tests/pg/cluster.sh:
# PG_DIR, PG_BIN, stopped on exit) and sets work to a directory in it.
bench_pg() {
	. tests/pg/cluster.sh
	pg_cluster bench
	work=$PG_DIR/work
	mkdir -p "$work"
}
