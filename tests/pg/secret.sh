#!/usr/bin/env bash
# tests/pg/secret.sh - no secret of a connection string in any output
# (issue 28 item 3; store/db_pg.c, bs_db_shown). Every command, on its
# way that works and on its failures (a wrong password, a database that
# does not exist, a URL libpq cannot read, an option it does not know, an
# archive merge refuses, merge's conflicts, merging an archive into
# itself), is run with a secret in each spelling libpq reads: in the
# user information, as password= and a percent-encoded key (%70assword=),
# holding a raw '?', as sslpassword=, and in libpq's key=value form.
# Everything it prints (standard output and error) and every file it
# writes (site, export, report, the SQLite archive merge fills, the
# server's database dumped) is searched for the secret. Run by ctest as
# pg.secret, on a throwaway cluster (tests/pg/cluster.sh).
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3
. "$SRC/tests/pg/cluster.sh"
pg_cluster secret

# Secrets no output has any other reason to hold.
S=Qx7secretZw
SQ='Qx7sec?retZw'
SSL=Jk4sslsecretPv
pg_sql -c "CREATE ROLE host_a LOGIN PASSWORD '$S'" \
	-c "CREATE ROLE host_q LOGIN PASSWORD '$SQ'" \
	-c "ALTER DATABASE secret OWNER TO host_a" \
	-c "GRANT ALL ON SCHEMA public TO host_a" \
	-c "GRANT host_a TO host_q"
H=$PG_DIR

# The spellings that reach the archive (libpq reads each to its password).
good=(
	"postgresql://host_a:$S@/secret?host=$H"
	"postgresql:///secret?host=$H&user=host_a&password=$S"
	"postgresql:///secret?host=$H&user=host_a&%70assword=$S"
	"postgres:///secret?host=$H&user=host_a&passw%6Frd=$S&sslpassword=$SSL"
	"postgresql://host_q:$SQ@/secret?host=$H"
)
# And those that fail: a wrong password in each spelling, a database that
# does not exist, an option libpq does not know, a percent-encoding it
# cannot read (libpq's own message quotes the password then), the
# key=value form (not a URL: bstore reads a path there).
bad=(
	"postgresql://host_a:${S}X@/secret?host=$H"
	"postgresql:///secret?host=$H&user=host_a&%70assword=${S}X"
	"postgresql://host_q:${SQ}X@/secret?host=$H"
	"postgresql:///secret?host=$H&user=host_a&sslpassword=$SSL&password=${S}X"
	"postgresql://host_a:$S@/nosuchdb?host=$H"
	"postgresql://host_a:$S@/secret?host=$H&bogus=1"
	"postgresql://host_a:$S%zz@/secret?host=$H"
	"postgresql:///secret?host=$H&user=host_a&password=$S%zz"
	"postgresql:///secret?host=$H&user=host_a&password=$S=x"
	"host=$H dbname=secret user=host_a password=$S"
)

OUT=$T/outputs
mkdir -p "$OUT"
n=0
# sh URL ARGS...: bstore --db URL ARGS, its output kept; any status.
sh() {
	local url=$1
	shift
	n=$((n + 1))
	(cd "$OUT" && "$BSTORE" --db "$url" "$@" >"$OUT/$n.out" 2>"$OUT/$n.err" \
		</dev/null) || true
	echo "$n: bstore --db URL $*" >>"$T/ran"
}

SAMPLE=$SAMPLES/bonnie++-1.03-t3-raid5.txt
# What every command does with the archive, each command's own failures
# among them (a run that is not there, a selector that matches nothing).
commands() {
	local url=$1 tag=$2
	sh "$url" ingest -t "host=$tag" "$SAMPLE"
	sh "$url" ingest "$OUT/no-such-file"
	sh "$url" list
	sh "$url" list 'machine=nothing*'
	sh "$url" show 1
	sh "$url" show 999999
	sh "$url" tag 1 "k$tag=v"
	sh "$url" tag 999999 k=v
	sh "$url" set 999999 machine=x
	sh "$url" export -o "$OUT/export-$n.csv"
	sh "$url" export -f json -o "$OUT/export-$n.json"
	sh "$url" report -o "$OUT/report-$n.html" 'id=1'
	sh "$url" compare 'id=1' 'id=1'
	sh "$url" trend -o "$OUT/trend-$n.html"
	sh "$url" changes
	sh "$url" check
	sh "$url" site -o "$OUT/site-$n"
	sh "$url" rm 999999
	sh "$url" run --help
	sh "$url" zcav --no-such-option
	sh "$url" fileio --no-such-option
	# Merging: the archive into itself (by every URL), into a file,
	# from a file, and an archive whose name cannot be read.
	sh "$url" merge "$url"
	sh "$url" merge "${good[0]}"
	sh "$T/merged.db" merge "$url"
	sh "$url" merge "$T/merged.db"
	sh "$T/merged.db" merge "$url" "$url"
}

i=0
for url in "${good[@]}"; do
	i=$((i + 1))
	commands "$url" "g$i"
done
# The archive holds runs: each good URL reached it.
[ "$(pg_sql -c "SELECT count(*) FROM runs")" -ge 1 ] ||
	fail "no URL reached the archive"
# Merging into itself is refused on PostgreSQL as on SQLite, by any URL.
grep -l "this is the archive itself" "$OUT"/*.err >"$T/self" || true
[ "$(wc -l <"$T/self")" -ge 10 ] ||
	fail "merging the archive into itself was not refused by every URL ($(wc -l <"$T/self") times)"
pg_sql -c "SELECT count(*) FROM runs" >"$T/count"

# Conflicts: the file's run has another value of a tag than the server's.
sqlite3 "$T/merged.db" "UPDATE tags SET value = 'other' WHERE key = 'host'"
for url in "${good[@]}"; do
	sh "$T/merged.db" merge "$url"
done
grep -h "here .*tag 'host'" "$OUT"/*.err >"$T/conflicts" || true
[ -s "$T/conflicts" ] || fail "merge named no conflict (the test checks their words)"
# A summary line names each URL.
grep -h "runs* merged" "$OUT"/*.out >"$T/summaries" || true
[ "$(wc -l <"$T/summaries")" -ge 5 ] || fail "merge printed too few summaries"

# An archive merge refuses (a trigger on a table it reads): "nothing
# merged from URL".
pg_sql -c "CREATE FUNCTION nop() RETURNS trigger LANGUAGE plpgsql AS
	'BEGIN RETURN NEW; END'" \
	-c "CREATE TRIGGER t BEFORE INSERT ON runs FOR EACH ROW EXECUTE FUNCTION nop()"
for url in "${good[@]}"; do
	sh "$T/merged.db" merge "$url"
done
grep -h "nothing merged from" "$OUT"/*.err >"$T/nothing" || true
[ "$(wc -l <"$T/nothing")" -ge 5 ] ||
	fail "a refused merge said 'nothing merged from' too few times"
pg_sql -c "DROP TRIGGER t ON runs"

for url in "${bad[@]}"; do
	i=$((i + 1))
	commands "$url" "b$i"
done
# Each failure said something (no silent exit).
for url in "${bad[@]}"; do
	sh "$url" list
	[ -s "$OUT/$n.err" ] || fail "bstore list said nothing for a bad URL ($n)"
done
# The environment's URL, and the stopped merge's "from 'URL' on".
BSTORE_DB=${bad[0]} run "$BSTORE" list
cp "$T/out" "$OUT/env.out"
cp "$T/err" "$OUT/env.err"

# Everything written: the outputs, the files, the archives.
sqlite3 "$T/merged.db" .dump >"$OUT/merged.dump"
"$PG_BIN/pg_dump" -h "$PG_DIR" -U postgres secret >"$OUT/pg.dump"
nfiles=$(find "$OUT" -type f | wc -l)
[ "$nfiles" -gt 300 ] || fail "too few outputs to search ($nfiles)"
for secret in "$S" "$SQ" "$SSL" Qx7sec; do
	if grep -rlF -- "$secret" "$OUT" >"$T/leaks"; then
		while read -r f; do
			b=$(basename "$f" | sed 's/\..*//')
			fail "the secret '$secret' is in $f ($(grep -m1 "^$b:" "$T/ran" || echo a file)):"
			grep -aF -- "$secret" "$f" | head -3 | sed 's/^/    /' >&2
		done <"$T/leaks"
	fi
done
# The words still name the archive: user, socket and database.
expect_in "$OUT/env.err" "postgresql://host_a@/secret?host=$H"
grep -h "cannot read" "$OUT"/*.err >"$T/unread" || true
[ -s "$T/unread" ] || fail "a URL libpq cannot read was not named as such"
expect_in "$T/unread" "cannot open archive 'postgresql://(a URL libpq cannot read)': invalid percent-encoded token: \"...\""
# The key=value form names its options but the secret one.
cat "$OUT"/*.err >"$T/all.err"
expect_in "$T/all.err" "cannot open archive 'user='host_a' dbname='secret' host='$H''"
finish
