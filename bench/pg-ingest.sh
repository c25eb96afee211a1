#!/usr/bin/env bash
# bench/pg-ingest.sh - bstore ingest into PostgreSQL against psql's \copy of
# the same bonnie++ 1.98 CSV lines into a plain one-text-column table,
# alternating, three times each, in one run, on one scratch cluster
# (tests/pg/cluster.sh: unix socket, fsync off for both). Prints the
# medians and their ratio (goal: bstore <= 2.0x \copy) for 100,000 lines
# (bench/gen-lines 100000 42), and bstore's peak memory.
#
#   bench/pg-ingest.sh [BSTORE [LINES]]
#       (default: build/release/cli/bstore, 100000 lines)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_bstore "${1:-}"
lines=${2:-100000}
bench_lines "$lines"
bench_pg
psql=(env PGOPTIONS="-c client_min_messages=warning" "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -U postgres)

fresh() {
	"${psql[@]}" -d postgres -c "DROP DATABASE IF EXISTS $1" \
		-c "CREATE DATABASE $1" >/dev/null
}

: >"$work/b"
: >"$work/c"
for _ in 1 2 3; do
	fresh b
	measure "$bstore" --db "postgresql:///b?host=$PG_DIR&user=postgres" \
		--quiet ingest "$file" >>"$work/b"
	fresh c
	"${psql[@]}" -d c -c 'CREATE TABLE t (line text)'
	measure "${psql[@]}" -d c -c "\\copy t FROM '$file'" >>"$work/c"
done
stored=$("${psql[@]}" -d b -At -c 'SELECT count(*) FROM runs')
copied=$("${psql[@]}" -d c -At -c 'SELECT count(*) FROM t')
bt=$(secs "$work/b")
ct=$(secs "$work/c")
bm=$(peak "$work/b")
echo "bstore: $("$bstore" --version); PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}'); $(nproc) cores"
printf '%9d lines: bstore ingest %6.2f s (%s runs stored), psql \\copy %6.2f s (%s rows), ratio %.2fx (goal <= 2.0x); peak RSS bstore %.1f MiB\n' \
	"$lines" "$bt" "$stored" "$ct" "$copied" "$(echo "$bt $ct" | awk '{print $1 / $2}')" \
	"$(echo "$bm" | awk '{print $1 / 1024}')"
echo "    bstore runs (s, KiB): $(tr '\n' ' ' <"$work/b")"
echo "    psql \\copy runs (s, KiB): $(tr '\n' ' ' <"$work/c")"
