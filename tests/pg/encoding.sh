#!/usr/bin/env bash
# tests/pg/encoding.sh - one selector language on both engines (issue 28
# item 7) in a UTF8 database and in a SQL_ASCII one (docs/team.md's,
# whose regular expressions see bytes: '?' matched one byte of 'é'
# there): the client's encoding is UTF-8 whatever
# PGCLIENTENCODING says, so names go in and come out as SQLite's bytes;
# '?' (one character), classes of characters and ~ select the same runs
# of UTF-8 machine names on PostgreSQL as on SQLite. Run by ctest as pg.encoding,
# on a throwaway cluster (tests/pg/cluster.sh).
set -euo pipefail
. "$SRC/tests/lib.sh"
. "$SRC/tests/pg/cluster.sh"
pg_cluster enc

# docs/team.md's database, whose regular expressions see bytes.
pg_sql -c "CREATE DATABASE ascii ENCODING 'SQL_ASCII' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'"
ASCII="postgresql:///ascii?host=$PG_DIR&user=postgres"
# A UTF8 database of another locale than C, whose lower() folds 'É' to
# 'é' (SQLite's folds ASCII alone: ~ must too).
pg_sql -c "CREATE DATABASE folds ENCODING 'UTF8' TEMPLATE template0 LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'"
FOLDS="postgresql:///folds?host=$PG_DIR&user=postgres"
expect_eq "$(PG_DBNAME=folds pg_sql -c "SELECT lower(U&'CAF\\00C9') = U&'caf\\00E9'")" t \
	"lower('CAFÉ') in the database of locale C.UTF-8 (the test needs one that folds it)"

# The same names on both engines, a client that asks for Latin-1.
# (A run each: one file is one run.)
files=("$SAMPLES"/bonnie++-1.03-*.txt)
i=0
for m in 'caf\xc3\xa9' 'cafe' 'caf\xc3\xa9s' 'na\xc3\xafve-\xe2\x82\xac' 'x\xf0\x9f\x98\x80y' \
	'CAF\xc3\x89'; do
	name=$(printf "$m")
	f=${files[$i]}
	i=$((i + 1))
	for db in "$PG_URL" "$ASCII" "$FOLDS" "$T/s.db"; do
		PGCLIENTENCODING=LATIN1 "$BSTORE" -q --db "$db" ingest -m "$name" "$f" ||
			fail "ingest -m $m into $db"
	done
done
for sel in 'machine=caf?' 'machine=caf??' 'machine=na?ve-?' 'machine=x?y' \
	'machine=x??y' 'machine=caf[é]*' 'machine=caf[^e]*' 'machine=*[à-ÿ]*' \
	'machine~CAF?' 'machine~café' 'machine~CAFÉ' 'machine~c?f?'; do
	"$BSTORE" --db "$T/s.db" list "$sel" >"$T/sq" 2>&1 || true
	sed "s|$T/s.db||" "$T/sq" >"$T/sq.n"
	# (x??y selects nothing: the emoji is one character.)
	[ "$sel" = 'machine=x??y' ] || ! grep -q "matches no runs" "$T/sq.n" ||
		fail "'$sel' selects nothing on SQLite (the test compares runs)"
	for db in "$PG_URL" "$ASCII" "$FOLDS"; do
		PGCLIENTENCODING=LATIN1 "$BSTORE" --db "$db" list "$sel" >"$T/pg" 2>&1 || true
		# The archives' names differ; the runs (ids, machines) do not.
		sed "s|$db||" "$T/pg" >"$T/pg.n"
		if ! diff -u "$T/sq.n" "$T/pg.n" >"$T/diff"; then
			fail "'$sel' selects other runs on $db than on SQLite:"
			sed 's/^/    /' "$T/diff" >&2
		fi
	done
done
# And what they select, on PostgreSQL: 'é' is one character.
PGCLIENTENCODING=LATIN1 run "$BSTORE" --db "$PG_URL" list 'machine=caf?'
expect_in "$T/out" "$(printf 'caf\xc3\xa9')"
expect_not_in "$T/out" "$(printf 'caf\xc3\xa9s')"
run "$BSTORE" --db "$PG_URL" list 'machine=caf??'
expect_in "$T/out" "$(printf 'caf\xc3\xa9s')"
[ "$(grep -c caf "$T/out")" = 1 ] || fail "'caf??' selected other than 'cafés'"
finish
