#!/usr/bin/env bash
# tests/cli/pg_surfaces.sh - the surfaces of a PostgreSQL archive beyond
# its writers (issue 28 item 6), on a scratch cluster (tests/pg/cluster.sh):
#
#   1. The words: a schema_version of '0', or of a version no PostgreSQL
#      archive ever had (before 4), says what it is (not "not a number",
#      not "cannot execute ALTER TABLE in a read-only transaction"); an
#      older archive opened by a reader says a writer upgrades it; a
#      server's statement_timeout is a timeout, not "interrupted".
#   2. A merge into this UTF8 database of a SQLite archive with five runs
#      of Latin-1 names skips those one by one, naming each, and merges
#      the clean runs.
set -euo pipefail
. "$SRC/tests/lib.sh"
. "$SRC/tests/pg/cluster.sh"
need sqlite3
pg_need_backend
pg_cluster surfaces
export BSTORE_DB=$PG_URL
DB=$PG_URL

run "$BSTORE" -q ingest "$SAMPLES"/bonnie++-1.03-*.txt
expect_rc 0 "ingest the samples"
runs=$(pg_sql -c "SELECT count(*) FROM runs")

# ---- 1. the words -----------------------------------------------------------
setv() { pg_sql -c "UPDATE meta SET value = '$1' WHERE key = 'schema_version'"; }
current=$(pg_sql -c "SELECT value FROM meta WHERE key = 'schema_version'")
setv 0
run "$BSTORE" list
expect_rc 1 "list with schema_version '0'"
expect_in "$T/err" "meta's schema_version '0' is no schema version (they count from 1)"
expect_not_in "$T/err" "not a number"
setv x5
run "$BSTORE" list
expect_rc 1 "list with schema_version 'x5'"
expect_in "$T/err" "meta's schema_version 'x5' is not a number"
for c in list "export --format json" "tag 1 a=b"; do
	setv 3
	# shellcheck disable=SC2086
	run "$BSTORE" $c
	expect_rc 1 "$c with schema_version 3"
	expect_in "$T/err" "meta's schema_version is 3, a version no PostgreSQL archive ever had (they begin at 4)"
	expect_not_in "$T/err" "read-only transaction"
	expect_style "$T/err"
done
# An older version (4 was PostgreSQL's first): a reader cannot upgrade
# it, and says who can.
setv 4
run "$BSTORE" list
expect_rc 1 "list of a version 4 archive"
expect_in "$T/err" "it was made by an older bstore (schema version 4) and a reader cannot upgrade it; a command that writes (ingest, tag, set, rm), run once as the archive's owner, does"
expect_not_in "$T/err" "read-only transaction"
expect_eq "$(pg_sql -c "SELECT value FROM meta WHERE key = 'schema_version'")" 4 \
	"schema_version after the reader"
setv "$current"
expect_eq "$(pg_sql -c "SELECT count(*) FROM runs")" "$runs" "runs after the words"

# The server's statement_timeout ends a statement that waits for a lock
# another session holds: the words say so.
pg_sql -c "BEGIN; LOCK TABLE runs IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(4); COMMIT" >/dev/null &
locker=$!
for _ in $(seq 1 200); do
	[ "$(pg_sql -c "SELECT count(*) FROM pg_locks WHERE mode = 'AccessExclusiveLock' AND relation = 'runs'::regclass")" = 1 ] && break
	sleep 0.02
done
run "$BSTORE" --db "$PG_URL&options=-cstatement_timeout%3D300" list
expect_rc 1 "list past the server's statement_timeout"
expect_in "$T/err" "the server cancelled the statement: its statement_timeout (300 ms) ran out; to give it longer, set statement_timeout in the URL"
expect_not_in "$T/err" "interrupted"
expect_style "$T/err"
wait "$locker" || true

# ---- 2. Latin-1 runs merged into a UTF8 database ----------------------------
L=$T/latin.db
"$SRC/bench/gen-lines" 12 11 >"$T/latin.csv"
run "$BSTORE" --db "$L" ingest "$T/latin.csv"
expect_rc 0 "ingest into the SQLite source"
for i in 1 2 3 4 5; do
	sqlite3 -batch "$L" "UPDATE runs SET machine = CAST(x'636166e9' || CAST('$i' AS BLOB) AS TEXT) WHERE id = $((i * 2))"
done
before=$(pg_sql -c "SELECT count(*) FROM runs")
run "$BSTORE" merge "$L"
expect_rc 1 "merge of Latin-1 runs into UTF8"
for i in 1 2 3 4 5; do
	expect_in "$T/err" "bstore: merge: warning: $L: run $((i * 2)): this archive refuses it: invalid byte sequence for encoding \"UTF8\""
done
expect_eq "$(grep -c 'not merged' "$T/err")" 5 "one warning per Latin-1 run"
expect_in "$T/out" "$L: 7 runs merged, 0 already here, 0 conflicts, 5 runs skipped"
expect_eq "$(pg_sql -c "SELECT count(*) FROM runs")" "$((before + 7))" "the clean runs merged"
expect_style "$T/err"

finish
