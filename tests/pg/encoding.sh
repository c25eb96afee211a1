#!/usr/bin/env bash
# tests/pg/encoding.sh - one selector language on both engines (issue 28
# item 7): text is UTF-8 and compared by character. A database of another
# encoding (SQL_ASCII, whose regular expressions see bytes: '?' matched
# one byte of 'é') is refused with words that say why and how; the
# client's encoding is UTF-8 whatever PGCLIENTENCODING says, so names go
# in and come out as SQLite's bytes; '?' and a class of characters select
# the same runs on PostgreSQL as on SQLite. Run by ctest as pg.encoding,
# on a throwaway cluster (tests/pg/cluster.sh).
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3
. "$SRC/tests/pg/cluster.sh"
pg_cluster enc

SAMPLE=$SAMPLES/bonnie++-1.03-t3-raid5.txt
pg_sql -c "CREATE DATABASE ascii ENCODING 'SQL_ASCII' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'"
ASCII="postgresql:///ascii?host=$PG_DIR&user=postgres"
run "$BSTORE" --db "$ASCII" ingest "$SAMPLE"
expect_rc 1 "ingest into a SQL_ASCII database"
expect_in "$T/err" "its database's encoding is SQL_ASCII, not UTF8: bstore stores UTF-8 text and compares it by character (create the database with ENCODING 'UTF8', docs/team.md)"
run "$BSTORE" --db "$ASCII" list
expect_rc 1 "list of a SQL_ASCII database"
[ "$(pg_sql -d ascii -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" = 0 ] ||
	fail "bstore created tables in the SQL_ASCII database"

# The same names on both engines, a client that asks for Latin-1.
# (A run each: one file is one run.)
files=("$SAMPLES"/bonnie++-1.03-*.txt)
i=0
for m in 'caf\xc3\xa9' 'cafe' 'caf\xc3\xa9s' 'na\xc3\xafve-\xe2\x82\xac' 'x\xf0\x9f\x98\x80y'; do
	name=$(printf "$m")
	f=${files[$i]}
	i=$((i + 1))
	for db in "$PG_URL" "$T/s.db"; do
		PGCLIENTENCODING=LATIN1 "$BSTORE" -q --db "$db" ingest -m "$name" "$f" ||
			fail "ingest -m $m into $db"
	done
done
for sel in 'machine=caf?' 'machine=caf??' 'machine=na?ve-?' 'machine=x?y' \
	'machine=x??y' 'machine=caf[é]*' 'machine=caf[^e]*' 'machine=*[à-ÿ]*' \
	'machine~CAF?'; do
	PGCLIENTENCODING=LATIN1 "$BSTORE" --db "$PG_URL" list "$sel" >"$T/pg" 2>&1 || true
	"$BSTORE" --db "$T/s.db" list "$sel" >"$T/sq" 2>&1 || true
	# The archives' names differ; the runs (ids, machines) do not.
	sed "s|$PG_URL||" "$T/pg" >"$T/pg.n"
	sed "s|$T/s.db||" "$T/sq" >"$T/sq.n"
	if ! diff -u "$T/sq.n" "$T/pg.n" >"$T/diff"; then
		fail "'$sel' selects other runs on PostgreSQL than on SQLite:"
		sed 's/^/    /' "$T/diff" >&2
	fi
done
# And what they select, on PostgreSQL: 'é' is one character.
PGCLIENTENCODING=LATIN1 run "$BSTORE" --db "$PG_URL" list 'machine=caf?'
expect_in "$T/out" "$(printf 'caf\xc3\xa9')"
expect_not_in "$T/out" "$(printf 'caf\xc3\xa9s')"
run "$BSTORE" --db "$PG_URL" list 'machine=caf??'
expect_in "$T/out" "$(printf 'caf\xc3\xa9s')"
[ "$(grep -c caf "$T/out")" = 1 ] || fail "'caf??' selected other than 'cafés'"
finish
