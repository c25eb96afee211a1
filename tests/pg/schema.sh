#!/usr/bin/env bash
# tests/pg/schema.sh - the schema bstore makes on PostgreSQL, rewritten
# from schema.sql (store/db_schema.c), is schema.sql's: the same tables
# and views, each with the same columns in the same order, in the types
# docs/schema.md maps (INTEGER bigint, REAL double precision, TEXT text,
# BLOB bytea, ANY text), the same indexes, and schema.sql's version. Run
# by ctest as pg.schema, on a throwaway cluster (tests/pg/cluster.sh).
# A version 6 archive (histograms as series rows, one a bin) upgrades to
# version 7's distributions with every bin kept.
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3 jq
. "$SRC/tests/pg/cluster.sh"
pg_cluster schema

sqlite3 -batch "$T/s.db" <"$SRC/schema.sql"
# bstore creates the schema in the empty database as it stores a run.
BSTORE_DB=$PG_URL run "$BSTORE" -q ingest "$SAMPLES/bonnie++-1.03-t3-raid5.txt"
expect_rc 0 "ingest into an empty PostgreSQL database"

# table|column|type a line, tables and views by name, columns in order.
sqlite3 -batch -separator '|' "$T/s.db" "
	SELECT m.name, p.name, CASE m.type WHEN 'view' THEN 'view'
	       ELSE lower(CASE p.type WHEN 'INTEGER' THEN 'bigint'
	                  WHEN 'REAL' THEN 'double precision'
	                  WHEN 'BLOB' THEN 'bytea' WHEN 'ANY' THEN 'text'
	                  ELSE p.type END) END
	FROM sqlite_schema AS m, pragma_table_info(m.name) AS p
	WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite_%'
	ORDER BY m.name, p.cid" >"$T/sqlite.cols"
pg_sql -F '|' -c "
	SELECT c.table_name, c.column_name,
	       CASE t.table_type WHEN 'VIEW' THEN 'view' ELSE c.data_type END
	FROM information_schema.columns AS c
	JOIN information_schema.tables AS t USING (table_schema, table_name)
	WHERE c.table_schema = current_schema()
	ORDER BY c.table_name COLLATE \"C\", c.ordinal_position" >"$T/pg.cols"
if ! diff -u "$T/sqlite.cols" "$T/pg.cols" >"$T/cols.diff"; then
	fail "PostgreSQL's tables and columns differ from schema.sql's:"
	sed 's/^/    /' "$T/cols.diff" >&2
fi
[ "$(wc -l <"$T/pg.cols")" -gt 100 ] || fail "too few columns read: $(wc -l <"$T/pg.cols")"

# The indexes bstore names (not those of primary keys and UNIQUE).
sqlite3 -batch "$T/s.db" "SELECT name FROM sqlite_schema WHERE type = 'index'
	AND sql IS NOT NULL ORDER BY name" >"$T/sqlite.idx"
pg_sql -c "SELECT i.relname FROM pg_index AS x JOIN pg_class AS i ON
	i.oid = x.indexrelid JOIN pg_namespace AS n ON n.oid = i.relnamespace
	WHERE n.nspname = current_schema() AND NOT EXISTS (SELECT 1 FROM
	pg_constraint AS c WHERE c.conindid = x.indexrelid)
	ORDER BY i.relname COLLATE \"C\"" >"$T/pg.idx"
if ! diff -u "$T/sqlite.idx" "$T/pg.idx" >"$T/idx.diff"; then
	fail "PostgreSQL's indexes differ from schema.sql's:"
	sed 's/^/    /' "$T/idx.diff" >&2
fi

# The partial index runs_measure_key is the one the store's look-up of a
# run read from a table finds: its WHERE is the query's (store/write.c,
# the engine's glob of BS_STORE_TABLE_FORMATS).
pg_sql -c "SET enable_seqscan = off" -c "EXPLAIN SELECT id FROM runs
	WHERE measure_key = 1 AND format ~ '^bonnie\+\+\-text.*\$'" >"$T/plan"
expect_in "$T/plan" "runs_measure_key"

# A saved report's name is checked as on SQLite (saved_reports' CHECK).
for name in a1 'A.b_c-d' 1; do
	pg_sql -c "INSERT INTO saved_reports VALUES ('$name', 0)" >/dev/null ||
		fail "saved_reports refuses the name '$name'"
done
for name in .a -a 'a b' 'a/b' "a'b" ''; do
	q=${name//\'/\'\'}
	if pg_sql -c "INSERT INTO saved_reports VALUES ('$q', 0)" >/dev/null 2>&1; then
		fail "saved_reports takes the name '$name'"
	fi
done

# The version schema.sql says, recorded in meta.
v_sqlite=$(sed -n 's/^-- schema.sql - the bstore archive, schema version \([0-9]*\).*/\1/p' "$SRC/schema.sql")
[ -n "$v_sqlite" ] || fail "schema.sql does not say its version"
v_pg=$(pg_sql -c "SELECT value FROM meta WHERE key = 'schema_version'")
expect_eq "$v_pg" "$v_sqlite" "PostgreSQL's schema version"

# Version 6 to 7 on PostgreSQL: the histograms of fio json+ and sysbench
# runs written back as version 6 kept them (series rows, from the JSON
# export), distributions dropped; the upgrade moves them back, and the
# export after it is the export before.
D=$SRC/tests/data/dist
BSTORE_DB=$PG_URL run "$BSTORE" -q ingest -m box "$D/randread-jsonplus.json" "$D/randrw-plist.json" "$SAMPLES/sysbench-1.0.20-rndrd-histogram.txt"
expect_rc 0 "ingest histograms"
BSTORE_DB=$PG_URL "$BSTORE" export --format json >"$T/v7.json"
v6_hist_rows "$T/v7.json" >"$T/v6.sql"
bins=$(wc -l <"$T/v6.sql")
[ "$bins" -gt 500 ] || fail "only $bins bins to write back"
{ echo "BEGIN;"; cat "$T/v6.sql"; echo "DROP TABLE distributions; UPDATE meta SET value = '6' WHERE key = 'schema_version'; COMMIT;"; } >"$T/v6.tx"
pg_sql -f "$T/v6.tx" >/dev/null
expect_eq "$(pg_sql -c "SELECT count(*) FROM series")" "$bins" "the version 6 archive's bins"
# A reader cannot upgrade on PostgreSQL: an ingest (of a run stored
# already) does.
BSTORE_DB=$PG_URL run "$BSTORE" ingest -m box "$D/randrw-plist.json"
expect_rc 0 "ingest into a version 6 archive"
expect_in "$T/out" "0 runs stored, 1 duplicate"
expect_eq "$(pg_sql -c "SELECT value FROM meta WHERE key = 'schema_version'") $(pg_sql -c "SELECT count(*) FROM series") $(pg_sql -c "SELECT count(*) || ':' || sum(nbins) FROM distributions")" \
	"$v_sqlite 0 6:$bins" "the archive upgraded from version 6"
BSTORE_DB=$PG_URL "$BSTORE" export --format json >"$T/v6.json"
cmp -s "$T/v7.json" "$T/v6.json" || fail "the upgrade changed the export: $(diff "$T/v7.json" "$T/v6.json" | head -c 400)"
finish
