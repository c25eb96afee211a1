#!/usr/bin/env bash
# bench/pg-ingest.sh - bstore ingest into PostgreSQL against two floors,
# alternating, three times each, in one run, on one scratch cluster
# (tests/pg/cluster.sh: unix socket, fsync off for all):
#   - psql's \copy of the same bonnie++ 1.98 CSV lines into a plain
#     one-text-column table;
#   - psql's \copy of the same runs, as bstore stored them (every row of
#     every table the ingest filled, read back as CSV once, untimed), into
#     tables shaped like bstore's: the archive's schema as bstore made it
#     from schema.sql's PostgreSQL form (pg_dump of that archive without
#     the rows of runs and of the tables that refer to it: the same
#     columns, indexes, constraints and catalogue rows), those tables
#     loaded in one transaction (psql -1), as bstore's ingest is.
# Prints the medians and both ratios (goal: bstore <= 2.0x the \copy into
# bstore's tables) for 100,000 lines (bench/gen-lines 100000 42), and
# bstore's peak memory.
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

url() { echo "postgresql:///$1?host=$PG_DIR&user=postgres"; }

# The runs as bstore stores them: one ingest, untimed, runs and each
# table that refers to it (after it) read back as CSV; the schema is that
# archive's without those rows (its catalogue rows kept).
fresh b
"$bstore" --db "$(url b)" --quiet ingest "$file"
tables=$("${psql[@]}" -d b -At -c "SELECT c.relname FROM pg_catalog.pg_class c
	WHERE c.oid = 'runs'::regclass OR c.oid IN (SELECT conrelid
	FROM pg_catalog.pg_constraint WHERE contype = 'f' AND
	confrelid = 'runs'::regclass) ORDER BY c.relname <> 'runs', c.relname")
: >"$work/load.sql"
rows=0
for t in $tables; do
	n=$("${psql[@]}" -d b -At -c "SELECT count(*) FROM \"$t\"")
	[ "$n" -gt 0 ] || continue
	"${psql[@]}" -d b -c "\\copy \"$t\" TO '$work/t-$t.csv' WITH (FORMAT csv)"
	echo "\\copy \"$t\" FROM '$work/t-$t.csv' WITH (FORMAT csv)" >>"$work/load.sql"
	rows=$((rows + n))
done
# shellcheck disable=SC2046 # one option a table
"$PG_BIN/pg_dump" -h "$PG_DIR" -U postgres -d b \
	$(printf -- '--exclude-table-data=%s ' $tables) >"$work/schema.sql"

: >"$work/b"
: >"$work/c"
: >"$work/s"
for _ in 1 2 3; do
	fresh s
	"${psql[@]}" -d s -f "$work/schema.sql" >/dev/null
	measure "${psql[@]}" -1 -d s -f "$work/load.sql" >>"$work/s"
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
sst=$(secs "$work/s")
shaped=$("${psql[@]}" -d s -At -c 'SELECT count(*) FROM runs')
bm=$(peak "$work/b")
echo "bstore: $("$bstore" --version); PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}'); $(nproc) cores"
printf '%9d lines: bstore ingest %6.2f s (%s runs stored); peak RSS bstore %.1f MiB\n' \
	"$lines" "$bt" "$stored" "$(echo "$bm" | awk '{print $1 / 1024}')"
printf '    psql \\copy into bstore'"'"'s tables %6.2f s (%s runs, %s rows in %s tables): ratio %.2fx (goal <= 2.0x)\n' \
	"$sst" "$shaped" "$rows" "$(wc -l <"$work/load.sql")" "$(echo "$bt $sst" | awk '{print $1 / $2}')"
printf '    psql \\copy into one text column %6.2f s (%s rows): ratio %.2fx\n' \
	"$ct" "$copied" "$(echo "$bt $ct" | awk '{print $1 / $2}')"
echo "    bstore runs (s, KiB): $(tr '\n' ' ' <"$work/b")"
echo "    psql \\copy into bstore's tables (s, KiB): $(tr '\n' ' ' <"$work/s")"
echo "    psql \\copy into one column (s, KiB): $(tr '\n' ' ' <"$work/c")"
