#!/usr/bin/env bash
# tests/cli/pg_bounds.sh - every wait of a PostgreSQL archive bounded or
# ended by a signal, a stalled writer holding no lock, and no function of
# another role run by a superuser's query (issue 28):
#
#   1. A server that accepts TCP and never answers (a python3 socket
#      server): list ends within the URL's connect_timeout saying so, and
#      SIGTERM ends it at once under the default bound (143).
#   2. A connection frozen mid-ingest (a python3 proxy to the cluster
#      that stops forwarding): the ingest ends within its statement_timeout
#      (PGOPTIONS) and 5 s, saying the server did not answer; another,
#      frozen likewise, ends within a few seconds of SIGTERM (143): its
#      cancel, through the frozen proxy too, cannot block it.
#   3. A writer whose input stalls (one line, then nothing): another
#      host's ingest is not held up, on PostgreSQL and on SQLite; a writer
#      that must wait for a lock held by psql says whom it waits for, and
#      gives up after lock_timeout (PGOPTIONS) saying so.
#   4. The database's owner (the hosts' shared role, as docs/team.md once
#      had it) plants public.lower() and ALTER DATABASE SET search_path:
#      a superuser's 'bstore list machine~x*' lists what it listed before,
#      and the planted function never runs.
set -euo pipefail
. "$SRC/tests/lib.sh"
. "$SRC/tests/pg/cluster.sh"
need python3
pg_need_backend
pg_cluster bounds
export BSTORE_DB=$PG_URL
cd "$T"
S=$SAMPLES/bonnie++-1.03-ata-raid10-cache.txt
S2=$SAMPLES/bonnie++-1.03-emc-raid5-cache.txt

now() { date +%s%N; }
# ms since $1 (now's value)
since() { echo $((($(now) - $1) / 1000000)); }

# --- 1. a server that never answers ---------------------------------------
cat >silent.py <<'EOF'
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
held = []
while True:
    c, _ = s.accept()
    held.append(c)  # accepted, never answered
EOF
python3 silent.py >silent.port &
spid=$!
for _ in $(seq 50); do [ -s silent.port ] && break; sleep 0.1; done
SPORT=$(cat silent.port)
t=$(now)
st=0
"$BSTORE" --db "postgresql://u@127.0.0.1:$SPORT/x?connect_timeout=2" list \
	>out1 2>err1 || st=$?
ms=$(since "$t")
expect_eq "$st" 1 "list from a silent server: exit status"
grep -q "no answer from the server in 2 s (connect_timeout)" err1 ||
	fail "list from a silent server did not say why: $(cat err1)"
[ "$ms" -lt 4500 ] || fail "list from a silent server took $ms ms (bound 2 s)"
"$BSTORE" --db "postgresql://u@127.0.0.1:$SPORT/x" list >out1b 2>err1b &
p=$!
sleep 1
t=$(now)
kill -TERM "$p"
st=0
wait "$p" || st=$?
ms=$(since "$t")
expect_eq "$st" 143 "list from a silent server, SIGTERM: exit status"
[ "$ms" -lt 1500 ] || fail "list took $ms ms to end after SIGTERM"
kill "$spid"

# --- 2. a frozen connection ------------------------------------------------
# The proxy forwards TCP to the cluster's socket until the file 'freeze'
# exists, then forwards nothing, new connections included (a cancel).
cat >proxy.py <<'EOF'
import os, select, socket, sys, threading
sock = sys.argv[1]
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
def pump(a, b):
    while True:
        r, _, _ = select.select([a, b], [], [], 0.05)
        if os.path.exists("freeze"):
            threading.Event().wait()  # holds both ends, forwards nothing
        for x in r:
            d = x.recv(65536)
            if not d:
                return
            (b if x is a else a).sendall(d)
while True:
    c, _ = s.accept()
    u = socket.socket(socket.AF_UNIX)
    u.connect(sock)
    threading.Thread(target=pump, args=(c, u), daemon=True).start()
EOF
python3 proxy.py "$PG_DIR/.s.PGSQL.5432" >proxy.port &
ppid=$!
for _ in $(seq 50); do [ -s proxy.port ] && break; sleep 0.1; done
PURL="postgresql://postgres@127.0.0.1:$(cat proxy.port)/bounds"
"$BSTORE" --db "$PURL" ingest "$S" >/dev/null 2>err2a ||
	fail "ingest through the proxy: $(cat err2a)"
# Frozen while the ingest waits for its input: its transaction's first
# statement never gets an answer.
mkfifo in2
PGOPTIONS="-c statement_timeout=1000" "$BSTORE" --db "$PURL" ingest \
	<in2 >out2 2>err2 &
p=$!
exec {fd}>in2
sleep 1
: >freeze
t=$(now)
cat "$S2" >&"$fd"
exec {fd}>&-
st=0
wait "$p" || st=$?
ms=$(since "$t")
expect_eq "$st" 1 "ingest over a frozen connection: exit status"
grep -qF "no answer from the server in 6 s, 5 s past the statement's bound: its statement_timeout (1 s) ran out; to give it longer, set statement_timeout in the URL (?options=-c%20statement_timeout%3D30min), in PGOPTIONS, or for the role" err2 ||
	fail "ingest over a frozen connection did not say why: $(cat err2)"
[ "$ms" -lt 9000 ] || fail "ingest over a frozen connection took $ms ms (bound 6 s)"
rm -f freeze
mkfifo in3
"$BSTORE" --db "$PURL" ingest <in3 >out3 2>err3 &
p=$!
exec {fd}>in3
sleep 1
: >freeze
cat "$S2" >&"$fd"
exec {fd}>&-
sleep 1
t=$(now)
kill -TERM "$p"
st=0
wait "$p" || st=$?
ms=$(since "$t")
expect_eq "$st" 143 "frozen ingest, SIGTERM: exit status"
[ "$ms" -lt 5000 ] || fail "frozen ingest took $ms ms to end after SIGTERM"
grep -q "interrupted; nothing stored" err3 ||
	fail "frozen ingest did not say it stored nothing: $(cat err3)"
kill "$ppid"

# --- 3. a stalled writer holds no lock ------------------------------------
stalled() { # DB: another ingest while one waits for its input
	local db=$1 p fd t st=0 ms
	rm -f in4
	mkfifo in4
	"$BSTORE" --db "$db" ingest <in4 >out4 2>err4 &
	p=$!
	exec {fd}>in4
	head -3 "$S" >&"$fd"
	sleep 0.5
	t=$(now)
	"$BSTORE" --db "$db" ingest "$S2" >out5 2>err5 || st=$?
	ms=$(since "$t")
	expect_eq "$st" 0 "ingest beside a stalled writer ($db)"
	[ "$ms" -lt 3000 ] || fail "ingest beside a stalled writer took $ms ms ($db)"
	kill -TERM "$p"
	st=0
	wait "$p" || st=$?
	exec {fd}>&-
	expect_eq "$st" 143 "the stalled writer after SIGTERM ($db)"
}
stalled "$PG_URL"
stalled "$T/stall.db"
# A writer that waits more than a second says for whom, and gives up
# after lock_timeout.
PGAPPNAME=holder "$PG_BIN/psql" -X -q -h "$PG_DIR" -U postgres -d bounds \
	-c "BEGIN" -c "SELECT pg_advisory_xact_lock(108248014221925)" \
	-c "SELECT pg_sleep(4)" -c "COMMIT" >/dev/null &
hp=$!
sleep 0.5
st=0
PGOPTIONS="-c lock_timeout=2000" "$BSTORE" ingest "$S" >out6 2>err6 || st=$?
expect_eq "$st" 1 "ingest while psql holds the lock past lock_timeout"
grep -q "waiting for the archive's write lock, held by holder (local, pid [0-9]*, for [0-9]* s)" err6 ||
	fail "the waiting writer did not name the holder: $(cat err6)"
grep -q "the archive's write lock was not granted within lock_timeout (held by holder" err6 ||
	fail "the writer that gave up did not say why: $(cat err6)"
wait "$hp"

# --- 4. no borrowed privileges --------------------------------------------
"$BSTORE" ingest -m xhost "$SAMPLES/bonnie++-1.03-emc-raid10-nocache.txt" >/dev/null
"$BSTORE" list 'machine~x*' >before
[ "$(wc -l <before)" -gt 1 ] || fail "list machine~x* found nothing to compare"
pw="Ow-$RANDOM"
pg_sql -c "CREATE ROLE owner LOGIN PASSWORD '$pw'" \
	-c "ALTER DATABASE bounds OWNER TO owner" \
	-c "ALTER SCHEMA public OWNER TO owner" \
	-c "CREATE TABLE public.ran (n int)" \
	-c "GRANT INSERT ON public.ran TO PUBLIC"
PGPASSWORD=$pw "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" \
	-U owner -d bounds \
	-c "CREATE FUNCTION public.lower(text) RETURNS text LANGUAGE sql
	    AS \$\$ INSERT INTO public.ran VALUES (1); SELECT 'x' \$\$" \
	-c "ALTER DATABASE bounds SET search_path = public, pg_catalog" >/dev/null
# (psql as the superuser now runs it: the plant works.)
expect_eq "$(pg_sql -c "SELECT lower('ABC')")" x "the planted lower() as psql sees it"
pg_sql -c "DELETE FROM public.ran"
"$BSTORE" list 'machine~x*' >after 2>err7 || fail "list after the plant: $(cat err7)"
expect_eq "$(cmp -s before after && echo same)" same "list machine~x* after the plant"
"$BSTORE" list 'machine~X*' >/dev/null 2>&1 || true
"$BSTORE" ingest -m xother "$S2" >/dev/null 2>&1 || true
expect_eq "$(pg_sql -c 'SELECT count(*) FROM public.ran')" 0 \
	"calls of the planted function by bstore"

finish
