#!/usr/bin/env bash
# tests/pg/batch.sh - an ingest of many runs of every family in one file
# (one transaction), where PostgreSQL stores runs without waiting (the
# runs known in memory, store/seen.c; their rows piped or sent by COPY,
# store/db_pg.c): the runs, results, parameters, series and tags stored
# are the same as SQLite's, and export gives the same bytes. The file is
# bstore's JSON export of 80 bonnie++ lines followed by every sample,
# tagged, so that the rows of tables COPY takes alternate with piped
# ones. Run by ctest as pg.batch.
set -euo pipefail
. "$SRC/tests/lib.sh"
if ! ldd "$BSTORE" 2>/dev/null | grep 'libpq\.' >/dev/null; then
	echo "batch.sh: skipped: this bstore has no PostgreSQL backend (built without libpq: Debian package libpq-dev)"
	exit 77
fi
. "$SRC/tests/pg/cluster.sh"
pg_cluster batch
cd "$T"

"$SRC/bench/gen-lines" 80 42 >lines.csv
"$BSTORE" --db src.db ingest lines.csv >/dev/null
for f in "$SAMPLES"/*.txt "$SAMPLES"/*.json; do
	"$BSTORE" --db src.db ingest "$f" >/dev/null 2>&1 || true
done
"$BSTORE" --db src.db tag 1-5 raid=10 >/dev/null
"$BSTORE" --db src.db tag 90-140 box=x >/dev/null
"$BSTORE" --db src.db export --format json >all.json

run "$BSTORE" --db file.db ingest all.json
expect_rc 0 "ingest into SQLite"
cp out file.out
run "$BSTORE" --db "$PG_URL" ingest all.json
expect_rc 0 "ingest into PostgreSQL"
expect_eq "$(cat out)" "$(cat file.out)" "ingest's report"
n=$(sqlite3 -batch file.db 'select count(*) from runs')
[ "$n" -gt 130 ] || fail "too few runs: $n"
counts='select (select count(*) from runs), (select count(*) from run_results), (select count(*) from series), (select count(*) from tags), (select count(*) from run_params), (select count(*) from latency)'
expect_eq "$(pg_sql -c "$counts")" "$(sqlite3 -batch file.db "$counts")" "rows in each table"
for fmt in json csv bonnie; do
	"$BSTORE" --db file.db export --format "$fmt" >"file.$fmt"
	"$BSTORE" --db "$PG_URL" export --format "$fmt" >"pg.$fmt"
	cmp -s "file.$fmt" "pg.$fmt" || fail "export --format $fmt differs"
done
# Again: every run is a duplicate, found in memory.
run "$BSTORE" --db "$PG_URL" ingest all.json
expect_rc 0 "ingest again into PostgreSQL"
expect_in out "all.json: 0 runs stored, $n duplicates, 0 rejected"
finish
