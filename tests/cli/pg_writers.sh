#!/usr/bin/env bash
# tests/cli/pg_writers.sh - a team's archive on PostgreSQL (a scratch
# cluster, tests/pg/cluster.sh), written by fifty hosts at once, read by a
# role that may only read, and a server that goes away mid-ingest.
#
#   1. Fifty writers start together on an empty database, each ingesting
#      its own bonnie++ lines (bench/gen-lines), its own sysbench and fio
#      outputs, and files every writer shares (gen-lines of one seed, the
#      bonnie++ 1.03 samples); five of them also store a tiny 'bstore run'.
#      Then: every writer succeeded, no stderr speaks of a lock, a
#      deadlock or a serialization failure, the archive holds exactly the
#      runs a SQLite archive fed the same files holds (plus the five), each
#      once, the writers' "stored" counts add up to it, and the export of
#      those runs is the SQLite archive's, ids and times aside.
#   2. A role granted SELECT only runs list, show, report, trend, export and
#      site; ingest, tag and rm say in one line of bstore's form that it
#      may not write, and change nothing.
#   3. The writers log in with a password in the URL (and in $BSTORE_DB,
#      and through PGPASSFILE): no output of any command prints it.
#   4. The server stopped (pg_ctl stop -m immediate) while a big ingest's
#      transaction is open: the ingest fails saying nothing was stored
#      from the file, in bstore's form (no libpq dump), and after a restart
#      the archive holds no run of it.
set -euo pipefail
. "$SRC/tests/lib.sh"
. "$SRC/tests/pg/cluster.sh"
need sqlite3
pg_need_backend
pg_cluster team
cd "$T"

W=50
LINES=40
pw="Tm-$RANDOM-s3cret-$$"
rpw="Rd-$RANDOM-s3cret-$$"
pg_sql -c "CREATE ROLE team LOGIN PASSWORD '$pw'" \
	-c "ALTER DATABASE team OWNER TO team" \
	-c "CREATE ROLE reader LOGIN PASSWORD '$rpw'"
URL=$(pg_url team "$pw")
RURL=$(pg_url reader "$rpw")
export BSTORE_DB=$URL
REF=$T/ref.db
# pgc SQL: one value from the archive, as the superuser sees it; the
# error's first line when there is none (no tables yet).
pgc() { pg_sql -c "$1" 2>&1 | head -1 || true; }

# --- inputs ------------------------------------------------------------------
mkdir -p in
"$SRC/bench/gen-lines" 60 7 20 >in/shared.csv
for i in $(seq 1 "$W"); do
	"$SRC/bench/gen-lines" "$LINES" $((1000 + i)) 20 |
		sed "s/,host\([0-9]*\),/,w$i-host\1,/" >"in/own$i.csv"
	sed "s/^\(    reads\/s: *\)3857.76/\1$((3000 + i)).76/" \
		"$SAMPLES/sysbench-1.0.20-rndrw.txt" >"in/sysbench$i.txt"
	sed "s/^3;fio-3.33;randrw;/3;fio-3.33;randrw$i;/" \
		"$SAMPLES/fio-3.33-randrw-terse3.txt" >"in/fio$i.txt"
done
cmp -s in/sysbench1.txt "$SAMPLES/sysbench-1.0.20-rndrw.txt" &&
	fail "the writers' sysbench outputs are not their own"
cmp -s in/fio1.txt "$SAMPLES/fio-3.33-randrw-terse3.txt" &&
	fail "the writers' fio outputs are not their own"

# writer I: what host I sends, as it would (even hosts send the shared
# files first, odd ones last); hosts 10, 20 ... also run bstore run.
writer() {
	local i=$1 shared=(in/shared.csv "$SAMPLES"/bonnie++-1.03-*.txt)
	local files=("in/own$i.csv")
	if [ $((i % 2)) = 0 ]; then
		files=("${shared[@]}" "${files[@]}")
	else
		files+=("${shared[@]}")
	fi
	"$BSTORE" ingest "${files[@]}"
	"$BSTORE" ingest -m "w$i" --measured-at "2026-01-$(printf %02d $((i % 28 + 1)))" \
		"in/sysbench$i.txt" "in/fio$i.txt"
	if [ $((i % 10)) = 0 ]; then
		mkdir -p "run$i"
		"$BSTORE" run -d "run$i" -s 4 -n 1 -r 0 -f -q -z "$i" -m "wrun$i" \
			--no-sync >/dev/null
	fi
}

# The reference: the same files, one after another, into SQLite.
for i in $(seq 1 "$W"); do
	BSTORE_DB=$REF writer "$i" >/dev/null 2>&1 ||
		fail "writer $i's files into the SQLite reference"
done
rm -rf run*
want=$(sqlite3 -batch "$REF" "SELECT count(*) FROM runs WHERE machine NOT LIKE 'wrun%'")
runs_want=$((W / 10))

# --- 1. fifty writers at once --------------------------------------------
# Each waits for the start file, so that all begin together.
pids=()
for i in $(seq 1 "$W"); do
	(
		while [ ! -e go ]; do sleep 0.01; done
		writer "$i"
	) >"out$i" 2>"err$i" &
	pids+=($!)
done
# Three more whose input stalls: one line, then nothing for a minute (a
# benchmark piped in). They hold no lock while they wait: the fifty are
# not held up, and a stop signal ends each, nothing of its input stored.
spids=() sfds=()
for i in 1 2 3; do
	mkfifo "stall$i"
	"$BSTORE" ingest <"stall$i" >"sout$i" 2>"serr$i" &
	spids+=($!)
	exec {fd}>"stall$i"
	sfds+=("$fd")
	head -1 "in/own$i.csv" >&"$fd"
done
sleep 0.5
t0=$(date +%s)
: >go
failed=0
for i in "${!pids[@]}"; do
	if ! wait "${pids[$i]}"; then
		failed=$((failed + 1))
		[ "$failed" -gt 3 ] || {
			echo "writer $((i + 1)) failed:" >&2
			head -3 "err$((i + 1))" | sed 's/^/    /' >&2
		}
	fi
done
expect_eq "$failed" 0 "writers that failed"
t1=$(date +%s)
echo "the fifty writers took $((t1 - t0)) s beside three stalled ones"
for i in "${!spids[@]}"; do
	kill -TERM "${spids[$i]}" 2>/dev/null || fail "stalled writer $((i + 1)) ended early"
	st=0
	wait "${spids[$i]}" || st=$?
	expect_eq "$st" 143 "stalled writer $((i + 1))'s exit status after SIGTERM"
	grep -q "interrupted; nothing stored" "serr$((i + 1))" ||
		fail "stalled writer $((i + 1)) did not say it stored nothing"
	eval "exec ${sfds[$i]}>&-"
done
# (\b: bstore run's table, on stderr with -q, has "--Block--".)
# A writer that waits more than a second says for whom: another writer,
# by its application_name.
waits=$(cat err* | grep -c "waiting for the archive's write lock, held by" || true)
bad_waits=$(cat err* | grep "waiting for the archive's write lock, held by" |
	grep -vc "held by bstore@[^ ]* (local, pid [0-9]*, for [0-9]* s)$" || true)
expect_eq "$bad_waits" 0 "lock waits that do not name the holder"
[ "$bad_waits" = 0 ] || cat err* | grep "waiting for the archive's write lock, held by" |
	grep -v "held by bstore@[^ ]* (local, pid [0-9]*, for [0-9]* s)$" | sed 's/^/    /' >&2
echo "writers that said whom they waited for: $waits"
locks=$(cat err* | grep -v "waiting for the archive's write lock, held by" |
	grep -ciE '\block(s|ed)?\b|deadlock|serializ|busy|could not|duplicate key|unique' || true)
expect_eq "$locks" 0 "stderr lines about locks, serialization or duplicate keys"
have=$("$BSTORE" list all 2>/dev/null | tail -n +2 | wc -l || true)
expect_eq "$have" "$((want + runs_want))" "runs listed after the fifty writers"
expect_eq "$(pgc "SELECT count(*) FROM runs WHERE machine LIKE 'wrun%'")" \
	"$runs_want" "runs of bstore run stored"
expect_eq "$(pgc 'SELECT count(*) - count(DISTINCT sha256) FROM runs')" 0 \
	"runs stored twice"
# The writers' own counts: each run claimed as stored by exactly one.
claimed=$(cat out* | sed -n 's/.*: \([0-9]*\) runs\{0,1\} stored.*/\1/p' |
	awk '{s += $1} END {print s + 0}')
expect_eq "$claimed" "$want" "runs the writers' ingests said they stored"
# Integrity: the same runs, values, tags and provenance as SQLite's.
norm() { sed -E 's/^\{"id":[0-9]+,/{/; s/"stored_at":"[^"]*",//' | sort; }
"$BSTORE" export --format json 'machine!=wrun*' 2>"$T/err" | norm >pg.json || true
BSTORE_DB=$REF "$BSTORE" export --format json 'machine!=wrun*' | norm >ref.json
if ! diff -q ref.json pg.json >/dev/null; then
	fail "the export from PostgreSQL differs from SQLite's ($(diff ref.json pg.json | grep -c '^[<>]') lines):"
	diff ref.json pg.json | head -4 | cut -c1-200 >&2
fi
for c in runs run_results tags rejects; do
	expect_eq "$(pgc "SELECT count(*) FROM $c")" \
		"$(sqlite3 -batch "$REF" "SELECT count(*) FROM $c")" \
		"rows of $c against SQLite's"
done

# --- 2. a role that may only read -----------------------------------------
pg_sql -c "GRANT USAGE ON SCHEMA public TO reader" \
	-c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader" >/dev/null 2>&1 ||
	fail "granting the reader SELECT on the archive's tables"
before=$(pgc 'SELECT count(*) FROM runs')
for c in "list" "show 1" "report --format text 1 2" "trend tool=sysbench" \
	"export --format json" "site -o $T/site"; do
	# shellcheck disable=SC2086
	run "$BSTORE" --db "$RURL" $c
	expect_rc 0 "$c as the read-only role"
	case $c in
	site*) [ -s "$T/site/index.html" ] || fail "site as the read-only role wrote no index" ;;
	*) [ -s "$T/out" ] || fail "$c as the read-only role printed nothing" ;;
	esac
	cat "$T/out" "$T/err" >>"$T/all-out"
done
# New runs, and runs the archive holds already (nothing to write, but
# the role is told at once all the same).
"$SRC/bench/gen-lines" 5 5555 | sed 's/,host\([0-9]*\),/,reader\1,/' >in/reader.csv
for c in "ingest in/reader.csv" "ingest $SAMPLES/bonnie++-2.00a-local-full.txt" \
	"ingest in/shared.csv" \
	"tag 1 reader=yes" "rm 1"; do
	# shellcheck disable=SC2086
	run "$BSTORE" --db "$RURL" $c
	expect_rc 1 "$c as the read-only role"
	expect_style "$T/err"
	expect_eq "$(wc -l <"$T/err")" 1 "lines of the message of $c as the read-only role"
	grep -qiE 'read|permission|may not|not allowed' "$T/err" ||
		fail "$c as the read-only role: no word of a right missing: $(head -c 200 "$T/err")"
	if grep -qE 'ERROR:|DETAIL:|HINT:|STATEMENT:|SQLSTATE|^	' "$T/err"; then
		fail "$c as the read-only role: libpq's text: $(head -c 200 "$T/err")"
	fi
	cat "$T/out" "$T/err" >>"$T/all-out"
done
expect_eq "$(pgc 'SELECT count(*) FROM runs')" "$before" \
	"runs after the read-only role's writes"
expect_eq "$(pgc "SELECT count(*) FROM tags WHERE key = 'reader'")" 0 \
	"tags of the read-only role"

# --- 3. the password, never printed ------------------------------------------
# Commands that succeed and fail, with the password in --db, in
# $BSTORE_DB, and in the URL's query.
qurl="postgresql:///team?host=$PG_DIR&user=team&password=$pw"
for u in "$URL" "$qurl"; do
	for c in "list" "show 99999" "list machine=nobody" "report 99998 99999" \
		"ingest /nonexistent.csv" "tag 99999 a=b" "frobnicate"; do
		# shellcheck disable=SC2086
		run "$BSTORE" --db "$u" $c
		cat "$T/out" "$T/err" >>"$T/all-out"
		# shellcheck disable=SC2086
		BSTORE_DB=$u run "$BSTORE" $c
		cat "$T/out" "$T/err" >>"$T/all-out"
	done
done
# Wrong passwords, a database that is not there, a socket that is not.
for u in "$(pg_url team "$pw-wrong")" "$(pg_url team "$pw" nosuchdb)" \
	"postgresql://team:$pw@/team?host=$T/nowhere"; do
	run "$BSTORE" --db "$u" list
	expect_rc 1 "list of an archive it cannot open"
	expect_style "$T/err"
	cat "$T/out" "$T/err" >>"$T/all-out"
done
# libpq's own settings: a password file, no password in the URL.
printf '*:*:*:team:%s\n' "$pw" >pgpass
chmod 0600 pgpass
PGPASSFILE=$T/pgpass run "$BSTORE" --db "postgresql:///team?host=$PG_DIR&user=team" list
expect_rc 0 "list with the password from PGPASSFILE"
cat "$T/out" "$T/err" >>"$T/all-out"
cat out* err* >>"$T/all-out"
for p in "$pw" "$rpw"; do
	n=$(grep -cF -- "$p" "$T/all-out" || true)
	expect_eq "$n" 0 "output lines that print a password"
done

# --- 4. the server goes away mid-ingest ---------------------------------
"$SRC/bench/gen-lines" 50000 99 20 | sed 's/,host\([0-9]*\),/,gone\1,/' >big.csv
before=$(pgc 'SELECT count(*) FROM runs')
"$BSTORE" ingest big.csv >"$T/out" 2>"$T/err" &
pid=$!
# The event: the ingest's transaction has written (it has an xid).
open=
for _ in $(seq 1 1500); do
	open=$(pg_sql -c "SELECT count(*) FROM pg_stat_activity
		WHERE usename = 'team' AND backend_xid IS NOT NULL" 2>/dev/null || true)
	[ "${open:-0}" = 0 ] || break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.02
done
[ "${open:-0}" != 0 ] || fail "the big ingest's transaction was never seen open"
pg_ctl_as stop -m immediate >/dev/null
set +e
wait "$pid"
rc=$?
set -e
expect_rc 1 "an ingest whose server went away"
expect_style "$T/err"
expect_in "$T/err" "big.csv"
grep -qi 'nothing stored' "$T/err" ||
	fail "the ingest whose server went away does not say nothing was stored: $(head -c 300 "$T/err")"
if grep -qE 'This probably means|^	|ERROR:|FATAL:' "$T/err"; then
	fail "libpq's text in the message of a server gone: $(head -c 300 "$T/err")"
fi
cat "$T/out" "$T/err" >>"$T/all-out"
pg_ctl_as start -w -t 60 -l "$PG_LOG" >/dev/null
expect_eq "$(pgc 'SELECT count(*) FROM runs')" "$before" "runs after the server came back"
expect_eq "$(pgc "SELECT count(*) FROM runs WHERE machine LIKE 'gone%'")" 0 \
	"runs of the interrupted ingest"
run "$BSTORE" list all
expect_rc 0 "list after the server came back"
for p in "$pw" "$rpw"; do
	expect_eq "$(grep -cF -- "$p" "$T/all-out" || true)" 0 "output lines that print a password"
done

finish
