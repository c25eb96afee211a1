#!/usr/bin/env bash
# tests/cli/pg_stop.sh - a reader of a PostgreSQL archive stopped by a
# signal cancels its statement on the server before it exits (issue 28):
# the archive's owner makes reading runs slow (a row-level security
# policy that sleeps, which binds a role that is neither the table's
# owner nor a superuser); list, report, export and site, run as a
# reading role, are stopped mid-statement by SIGTERM, SIGINT or SIGHUP:
# each ends within a few seconds with the signal's status (143, 130,
# 129), and within a second or two the server runs no statement of
# that role's any more (without the cancel, its backend would sleep on
# until client_connection_check_interval found the client gone). A
# reader stopped while no statement runs ends at once all the same; one
# whose statement the server ends at statement_timeout says which bound
# ran out and how to change it.
set -euo pipefail
. "$SRC/tests/lib.sh"
. "$SRC/tests/pg/cluster.sh"
need python3
pg_need_backend
pg_cluster stop
export BSTORE_DB=$PG_URL
cd "$T"
"$BSTORE" ingest "$SAMPLES/bonnie++-1.03-ata-raid10-cache.txt" \
	"$SAMPLES/bonnie++-1.03-emc-raid5-cache.txt" >/dev/null
pw="Rd-$RANDOM"
pg_sql -c "CREATE ROLE reader LOGIN PASSWORD '$pw'" \
	-c "GRANT USAGE ON SCHEMA public TO reader" \
	-c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader" \
	-c "ALTER TABLE runs ENABLE ROW LEVEL SECURITY" \
	-c "CREATE POLICY slow ON runs FOR SELECT TO reader
	    USING ((SELECT true FROM pg_catalog.pg_sleep(30)))"
RURL=$(pg_url reader "$pw" stop)

now() { date +%s%N; }
since() { echo $((($(now) - $1) / 1000000)); }
# The statements the reading role runs now.
active() {
	pg_sql -c "SELECT count(*) FROM pg_stat_activity
		   WHERE usename = 'reader' AND state = 'active'"
}

# stopped SIG STATUS CMD...: CMD, as the reader, is stopped by SIG once
# its statement runs on the server; it ends with STATUS within 5 s, and
# the server runs none of its statements 2 s later. The command starts
# with the signals' default actions (a script's background job would
# have SIGINT ignored, which bstore keeps ignored).
stopped() {
	local sig=$1 want=$2 p t st=0 ms n i
	shift 2
	# None of the case before may still run, whatever it left.
	pg_sql -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		   WHERE usename = 'reader'" >/dev/null
	for i in $(seq 50); do
		[ "$(active)" = 0 ] && break
		sleep 0.1
	done
	python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$BSTORE" --db "$RURL" "$@" \
		>"out.$sig" 2>"err.$sig" &
	p=$!
	for i in $(seq 100); do
		[ "$(active)" = 1 ] && break
		sleep 0.1
	done
	expect_eq "$(active)" 1 "$* as the reader: its statement running"
	t=$(now)
	kill "-$sig" "$p"
	{ wait "$p"; } 2>/dev/null || st=$? # (no "Hangup" from bash)
	ms=$(since "$t")
	expect_eq "$st" "$want" "$* stopped by SIG$sig: exit status"
	[ "$ms" -lt 5000 ] || fail "$* took $ms ms to end after SIG$sig"
	for i in $(seq 20); do
		n=$(active)
		[ "$n" = 0 ] && break
		sleep 0.1
	done
	expect_eq "$n" 0 "statements of '$*' still running 2 s after SIG$sig"
}
stopped TERM 143 list
stopped INT 130 report
stopped HUP 129 export
stopped TERM 143 site -o "$T/site"
[ ! -e "$T/site/index.html" ] || fail "site stopped by SIGTERM wrote its index"

# The same slow statement ended by the server's statement_timeout (the
# URL's) is said to be that, with how to change it, not an interruption.
st=0
"$BSTORE" --db "$RURL&options=-cstatement_timeout%3D500" list >out.to 2>err.to || st=$?
expect_eq "$st" 1 "list past its statement_timeout: exit status"
expect_in err.to "cannot select runs: the server cancelled the statement: its statement_timeout (500 ms) ran out; to give it longer, set statement_timeout in the URL (?options=-c%20statement_timeout%3D30min), in PGOPTIONS, or for the role (ALTER ROLE ... SET statement_timeout = '30min'; docs/team.md)"
expect_not_in err.to interrupted

# Stopped while no statement runs (its output waits for a reader, in a
# pipe of one page that nobody reads): it ends at once, as it would
# without bstore.
pg_sql -c "ALTER TABLE runs DISABLE ROW LEVEL SECURITY"
st=$(python3 - "$BSTORE" --db "$RURL" show 1 2 <<'EOF'
import fcntl, os, signal, subprocess, sys, time
r, w = os.pipe()
fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ
p = subprocess.Popen(sys.argv[1:], stdout=w, stderr=open("err.idle", "w"),
                     restore_signals=True)
os.close(w)
deadline = time.time() + 20
while time.time() < deadline:  # until it waits to write
    try:
        with open("/proc/%d/syscall" % p.pid) as f:
            if f.read().split()[0] == "1":
                break
    except (OSError, IndexError):
        pass
    time.sleep(0.05)
t = time.time()
p.send_signal(signal.SIGTERM)
rc = p.wait()
print(-rc if rc < 0 else rc, int((time.time() - t) * 1000))
EOF
)
expect_eq "${st% *}" 15 "show stopped while no statement runs: killed by SIGTERM ($(cat err.idle))"
[ "${st#* }" -lt 1500 ] || fail "show took ${st#* } ms to end after SIGTERM"

finish
