#!/usr/bin/env bash
# tests/pg/same.sh - the same runs give the same output from either
# engine. Every sample (and tests/data's wild corpus) is ingested into a
# SQLite archive and into a PostgreSQL one (a throwaway cluster,
# tests/pg/cluster.sh), tagged, renamed and dated alike; then export
# (json, csv, bonnie), list, show, report (text, html, csv, json),
# compare, trend and site must be byte for byte the same from both, the
# json export with ids aside. bstore merge copies each into an empty
# archive of the other engine, twice (the second adds nothing), and the
# copies export the same runs again. Run by ctest as pg.same.
set -euo pipefail
. "$SRC/tests/lib.sh"
if ! ldd "$BSTORE" 2>/dev/null | grep 'libpq\.' >/dev/null; then
	echo "same.sh: skipped: this bstore has no PostgreSQL backend (built without libpq: Debian package libpq-dev)"
	exit 77
fi
. "$SRC/tests/pg/cluster.sh"
pg_cluster same
PGDB=$PG_URL
FILE=$T/same.db
cd "$T"

# A file with a line ingest rejects (kept in rejects) between two runs.
good=$(grep '^1.98' "$SAMPLES/bonnie++-2.00a-local-full.txt" | sed 's/labvm01/goodbox/')
printf '%s\n%s\n' "$(echo "$good" | cut -d, -f1-31)" "${good/goodbox/good2}" \
	>"$T/mixed.csv"

# Both archives, fed alike. Files are ingested one by one, so that each
# is one transaction on either engine.
feed() {
	local db=$1 f
	for f in "$SAMPLES"/*.txt "$SAMPLES"/*.json "$T/mixed.csv"; do
		"$BSTORE" --db "$db" ingest "$f" >/dev/null 2>&1 || true
	done
	"$BSTORE" --db "$db" tag 1-3 raid=10 'array=EMC CX500' >/dev/null
	"$BSTORE" --db "$db" tag 4-7 raid=5 >/dev/null
	"$BSTORE" --db "$db" set 20-23 machine=db1 measured_at=2024-03-15 \
		>/dev/null
	"$BSTORE" --db "$db" set 24 measured_at=2024-04-01T10:00:00Z >/dev/null
	"$BSTORE" --db "$db" rm 30 >/dev/null
}
feed "$FILE"
feed "$PGDB"
n=$(sqlite3 -batch "$FILE" 'select count(*) from runs')
[ "$n" -gt 50 ] || fail "too few runs stored: $n"
expect_eq "$(pg_sql -c 'select count(*) from runs')" "$n" "runs in PostgreSQL"

# same NAME ARGS...: the command's output and status from both archives.
same() {
	local name=$1 a b
	shift
	set +e
	"$BSTORE" --db "$FILE" "$@" >"$T/$name.sqlite" 2>"$T/$name.sqlite.err"
	a=$?
	"$BSTORE" --db "$PGDB" "$@" >"$T/$name.pg" 2>"$T/$name.pg.err"
	b=$?
	set -e
	expect_eq "$b" "$a" "exit status of '$*' from PostgreSQL"
	if ! cmp -s "$T/$name.sqlite" "$T/$name.pg"; then
		fail "'$*': PostgreSQL's output differs from SQLite's:"
		diff "$T/$name.sqlite" "$T/$name.pg" | cut -c1-160 |
			head -6 | sed 's/^/    /' >&2
	fi
	[ -s "$T/$name.sqlite" ] || [ "$a" -ne 0 ] ||
		fail "'$*' printed nothing"
}

# ids aside: the same runs in the same order with the same contents.
sed -E 's/^\{"id":[0-9]+,/{/' <<<'{"id":12,"a":1}' | grep -qx '{"a":1}' ||
	fail "the id filter does not work"
set +e
"$BSTORE" --db "$FILE" export --format json | sed -E 's/^\{"id":[0-9]+,/{/' >"$T/json.sqlite"
"$BSTORE" --db "$PGDB" export --format json | sed -E 's/^\{"id":[0-9]+,/{/' >"$T/json.pg"
set -e
expect_eq "$(wc -l <"$T/json.pg")" "$n" "runs in the json export"
cmp -s "$T/json.sqlite" "$T/json.pg" ||
	fail "export --format json differs between SQLite and PostgreSQL (ids aside)"

same json_raw export --format json
same csv export --format csv
same csv_wide export --format csv --wide
same csv_long export --format csv --long
same bonnie export --format bonnie --csv-format 1.98
same list list
same list_sel list 'machine=jump*' raid=10
same list_tool list tool=sysbench
same list_date list date=2024
same rejects list --rejects
for id in 1 9 14 15 21 24 40 50 56; do
	same "show$id" show "$id"
done
same report_text report --format text raid=10 raid=5
same report_html report --format html raid=10 raid=5
same report_csv report --format csv raid=10 raid=5
same report_json report --format json raid=10 raid=5
same report_by report --format text --by machine family=bonnie
same report_sysbench report --format json tool=sysbench
same compare compare 3 7
same trend trend --format text all
same trend_json trend --format json tool=zcav

# The site: every page alike.
"$BSTORE" --db "$FILE" site -o "$T/site.sqlite" >/dev/null 2>&1 ||
	fail "site from SQLite"
"$BSTORE" --db "$PGDB" site -o "$T/site.pg" >/dev/null 2>&1 ||
	fail "site from PostgreSQL"
diff -r "$T/site.sqlite" "$T/site.pg" >"$T/site.diff" ||
	fail "site: PostgreSQL's pages differ from SQLite's: $(head -3 "$T/site.diff")"
[ "$(find "$T/site.pg" -name '*.html' | wc -l)" -gt "$n" ] ||
	fail "site from PostgreSQL: too few pages"

# merge, both ways, twice: a file into an empty PostgreSQL archive and
# the PostgreSQL archive into a new file.
pg_sql -c "CREATE DATABASE copy" >/dev/null
COPY=${PGDB/\/same\?//copy?}
run "$BSTORE" --db "$COPY" merge "$FILE"
expect_rc 0 "merge a file into PostgreSQL"
expect_in "$T/out" "$n runs merged, 0 already here"
run "$BSTORE" --db "$COPY" merge "$FILE"
expect_rc 0 "merge the file again"
expect_in "$T/out" "0 runs merged, $n already here"
run "$BSTORE" --db "$T/copy.db" merge "$PGDB"
expect_rc 0 "merge PostgreSQL into a file"
expect_in "$T/out" "$n runs merged, 0 already here"
run "$BSTORE" --db "$T/copy.db" merge "$PGDB"
expect_rc 0 "merge PostgreSQL into the file again"
expect_in "$T/out" "0 runs merged, $n already here"
for db in "$COPY" "$T/copy.db"; do
	"$BSTORE" --db "$db" export --format json |
		sed -E 's/^\{"id":[0-9]+,/{/' >"$T/json.copy"
	cmp -s "$T/json.sqlite" "$T/json.copy" ||
		fail "the runs merged into '$db' export otherwise (ids aside)"
done
finish
