#!/usr/bin/env bash
# tests/cli/pg_roles.sh - docs/team.md's three roles, made with exactly
# the commands it gives (issue 28 item 4): bstore_owner makes the schema
# (the first bstore command), the hosts' role bstore ingests, tags, sets
# and removes runs, bstore_read lists, reports and makes the site; bstore
# can neither create a function in public (to shadow a built-in) nor
# alter the archive's tables, and bstore_read writes nothing.
set -euo pipefail
. "$SRC/tests/lib.sh"
. "$SRC/tests/pg/cluster.sh"
pg_need_backend
pg_cluster roles
cd "$T"
S=$SAMPLES/bonnie++-1.03-ata-raid10-cache.txt
S2=$SAMPLES/bonnie++-1.03-emc-raid5-cache.txt

# docs/team.md, step 2 (createuser and createdb as SQL; the same psql).
po="Po-$RANDOM" pw="Pw-$RANDOM" pr="Pr-$RANDOM"
PG_DBNAME=postgres pg_sql \
	-c "CREATE ROLE bstore_owner LOGIN PASSWORD '$po'" \
	-c "CREATE ROLE bstore LOGIN PASSWORD '$pw'" \
	-c "CREATE ROLE bstore_read LOGIN PASSWORD '$pr'" \
	-c "CREATE DATABASE bstore OWNER bstore_owner TEMPLATE template0
	    ENCODING 'SQL_ASCII' LOCALE 'C'"
PG_DBNAME=bstore
# The lines of docs/team.md's psql command, as it gives them.
sed -n "/^psql -d bstore -c 'REVOKE ALL/,/^\`\`\`/p" "$SRC/docs/team.md" |
	grep -o "\-c '[^']*'" | sed "s/^-c '//; s/'\$//" >grants.sql
[ "$(wc -l <grants.sql)" -ge 8 ] || fail "docs/team.md's grants not found: $(cat grants.sql)"
while IFS= read -r g; do
	pg_sql -c "$g"
done <grants.sql

OWNER=$(pg_url bstore_owner "$po" bstore)
HOST=$(pg_url bstore "$pw" bstore)
READ=$(pg_url bstore_read "$pr" bstore)

# The hosts' role cannot make the schema (docs/team.md: the owner's first
# command does).
run "$BSTORE" --db "$HOST" ingest "$S"
expect_rc 1 "ingest as bstore into an empty database"
expect_in "$T/err" "cannot make the tables of archive 'postgresql://bstore@/bstore?host=$PG_DIR': permission denied for schema public; the archive's owner does, with its first command that writes (docs/team.md)"
expect_eq "$(pg_sql -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" 0 \
	"tables the hosts' role made"
# The owner makes the schema with its first command.
run "$BSTORE" --db "$OWNER" ingest "$S"
expect_rc 0 "ingest as bstore_owner (makes the schema)"
expect_eq "$(pg_sql -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tableowner <> 'bstore_owner'")" 0 \
	"tables of public not owned by bstore_owner"

# The hosts' role writes rows.
run "$BSTORE" --db "$HOST" ingest "$S2"
expect_rc 0 "ingest as bstore"
run "$BSTORE" --db "$HOST" tag 2 array=raid5
expect_rc 0 "tag as bstore"
run "$BSTORE" --db "$HOST" set 2 machine=second
expect_rc 0 "set as bstore"
run "$BSTORE" --db "$HOST" ingest -m gone "$SAMPLES/bonnie++-1.03-emc-raid10-nocache.txt"
expect_rc 0 "ingest as bstore (a run to remove)"
run "$BSTORE" --db "$HOST" rm 3
expect_rc 0 "rm as bstore"
# ... and nothing else.
hsql() {
	PGPASSWORD=$pw "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 \
		-h "$PG_DIR" -U bstore -d bstore "$@"
}
hsql -c "CREATE FUNCTION public.lower(text) RETURNS text LANGUAGE sql
	 AS \$\$ SELECT 'x' \$\$" >/dev/null 2>herr1 &&
	fail "bstore created a function in public"
grep -q "permission denied for schema public" herr1 ||
	fail "CREATE FUNCTION as bstore: $(cat herr1)"
hsql -c "ALTER TABLE runs ADD COLUMN x int" >/dev/null 2>herr2 &&
	fail "bstore altered the table runs"
grep -q "must be owner of table runs" herr2 ||
	fail "ALTER TABLE as bstore: $(cat herr2)"
hsql -c "ALTER TABLE tags DROP CONSTRAINT IF EXISTS tags_pkey" >/dev/null 2>herr3 &&
	fail "bstore altered the table tags"
hsql -c "ALTER DATABASE bstore SET search_path = public, pg_catalog" >/dev/null 2>herr4 &&
	fail "bstore set the database's search_path"

# The reading role reads.
run "$BSTORE" --db "$READ" list
expect_rc 0 "list as bstore_read"
expect_eq "$(tail -n +2 "$T/out" | wc -l)" 2 "runs bstore_read lists"
expect_in "$T/out" second
run "$BSTORE" --db "$READ" show 2
expect_rc 0 "show as bstore_read"
expect_in "$T/out" "array=raid5"
run "$BSTORE" --db "$READ" report
expect_rc 0 "report as bstore_read"
run "$BSTORE" --db "$READ" site -o "$T/site"
expect_rc 0 "site as bstore_read"
[ -s "$T/site/index.html" ] || fail "site as bstore_read wrote no index.html"
# ... and writes nothing.
before=$(pg_sql -c "SELECT count(*) FROM runs")
for c in "ingest $S" "tag 1 k=x" "set 1 machine=y" "rm 1"; do
	# shellcheck disable=SC2086
	run "$BSTORE" --db "$READ" $c
	expect_rc 1 "$c as bstore_read"
	expect_in "$T/err" "may read this archive, not write to it"
done
expect_eq "$(pg_sql -c "SELECT count(*) FROM runs")" "$before" "runs after bstore_read's writes"
expect_eq "$(pg_sql -c "SELECT count(*) FROM runs WHERE machine = 'y'")" 0 "bstore_read's tag"
PGPASSWORD=$pr "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" \
	-U bstore_read -d bstore -c "DELETE FROM runs" >/dev/null 2>rerr &&
	fail "bstore_read deleted runs"
grep -q "permission denied for table runs" rerr || fail "DELETE as bstore_read: $(cat rerr)"

finish
