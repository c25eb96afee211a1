#!/usr/bin/env bash
# tests/cli/hardening_out.sh - what commands write (issue 9): -o never
# writes over the archive or its SQLite files, however it is named; a
# signal while -o FILE is written leaves no temporary file; a signal ends
# bstore run's wait for the archive; an archive without runs is called
# that; output that cannot be written is said once.
source "$SRC/tests/lib.sh"
need sqlite3

linked_archive

# -o naming the archive, a symbolic or hard link to it, or the files SQLite
# keeps beside it (they exist while bstore has the archive open): refused
# by every command that has -o, and the archive is as it was.
for target in "$DB" "$T/link.db" "$T/hard.db" "$DB-wal" "$DB-shm"; do
	case $target in
	*-wal) what="is the archive's write-ahead log" ;;
	*-shm) what="is the archive's shared-memory index" ;;
	*) what="is the archive" ;;
	esac
	# -f: a name without an extension bstore knows is refused before
	# anything else (-o means what it says), unless -f gives the format.
	for c in "report -f text" "compare -f text 1 2" "export -f bonnie" \
		"export --format csv"; do
		archive_restore
		# shellcheck disable=SC2086
		run "$BSTORE" $c -o "$target"
		expect_rc 1 "$c -o $target"
		expect_eq "$(cat "$T/err")" \
			"bstore: ${c%% *}: '$target' $what; not writing over it" \
			"$c -o $target"
		expect_eq "$(sql "PRAGMA integrity_check")" ok \
			"archive after $c -o $target"
		expect_eq "$(sql "SELECT count(*) FROM runs")" "$runs" \
			"runs after $c -o $target"
	done
done
# The same with --db, and names relative to another directory.
archive_restore
mkdir -p "$T/sub"
run env -C "$T/sub" "$BSTORE" --db ../test.db report -f text -o ../link.db
expect_rc 1 "--db ../test.db report -o ../link.db"
expect_eq "$(cat "$T/err")" \
	"bstore: report: '../link.db' is the archive; not writing over it" \
	"--db ../test.db report -o ../link.db"
expect_eq "$(sql "SELECT count(*) FROM runs")" "$runs" "runs after --db"
expect_eq "$(readlink "$T/link.db")" "$DB" "the link is still a link"
expect_eq "$(find "$T" -name '*.tmp.*')" "" "temporary files left"
# Any other file is still written, through a link too.
archive_restore
: >"$T/other.txt"
ln -s "$T/other.txt" "$T/other-link.txt"
run "$BSTORE" report -o "$T/other-link.txt"
expect_rc 0 "report -o a link to another file"
expect_in "$T/other.txt" "Groups:"

# A signal while report or export writes -o FILE: the temporary
# FILE.tmp.PID is removed, FILE is as it was, and the exit status is 128 +
# the signal. 20,000 distinct runs make a write of some 8 MB: the
# temporary file is there for the tenth of a second or more the write
# lasts, long enough to be caught in the middle, and the command is
# stopped (SIGSTOP) as soon as it is seen.
BIG=$T/big.db
"$SRC/bench/gen-lines" 20000 9 >"$T/lines.csv"
run "$BSTORE" --db "$BIG" -q ingest "$T/lines.csv"
expect_rc 0 "ingest 20000 generated lines"
S=$T/sig
mkdir -p "$S"

# start_out OUT ARGS...: bstore --db BIG ARGS -o OUT in the background, as
# $pid, stopped (SIGSTOP) once OUT.tmp.* exists, that is in the middle of
# writing it; started through "${wrap[@]}". env: a script's background
# job starts with SIGINT ignored; a terminal's Ctrl-C reaches a command
# that does not ignore it.
wrap=(env --default-signal=INT)
start_out() {
	local out=$1
	shift
	for _ in 1 2 3; do
		"${wrap[@]}" "$BSTORE" --db "$BIG" "$@" -o "$out" \
			>"$T/out" 2>"$T/err" &
		pid=$!
		wait_for "$out.tmp.*" 30 || true
		kill -STOP "$pid" 2>/dev/null || true
		if compgen -G "$out.tmp.*" >/dev/null; then
			return 0
		fi
		# It finished between two looks: try again.
		kill -CONT "$pid" 2>/dev/null || true
		wait "$pid" || true
		echo old >"$out"
	done
	fail "$*: never caught writing $out"
	return 1
}

# interrupt_out SIGNAL STATUS OUT ARGS...: a SIGNAL in the middle of the
# write; then the exit status, the message and what is left.
interrupt_out() {
	local sig=$1 want=$2 out=$3 status
	shift 3
	echo old >"$out"
	start_out "$out" "$@" || return 0
	kill -s "$sig" "$pid"
	kill -CONT "$pid"
	set +e
	wait "$pid"
	status=$?
	set -e
	expect_eq "$status" "$want" "$1 -o $out: exit status after $sig"
	expect_eq "$(cat "$T/err")" \
		"bstore: $1: stopped by $sig; '$out' not written" \
		"$1 -o $out: message after $sig"
	expect_style "$T/err"
	expect_eq "$(find "$S" -name '*.tmp.*')" "" \
		"temporary files left after $1 and $sig"
	expect_eq "$(cat "$out")" old "$out after $1 and $sig"
	rm -f "$S"/*.tmp.* # not to be taken for the next command's
}

interrupt_out SIGINT 130 "$S/r.html" report
interrupt_out SIGTERM 143 "$S/r.html" report
interrupt_out SIGINT 130 "$S/x.json" export --format json
interrupt_out SIGTERM 143 "$S/x.json" export --format json
interrupt_out SIGHUP 129 "$S/c.html" compare 1-10000 10001-20000

# A signal the command was started with ignored (nohup's SIGHUP) stays
# ignored: the file is written.
echo old >"$S/n.html"
wrap=(nohup)
start_out "$S/n.html" report || true
wrap=(env --default-signal=INT)
kill -s SIGHUP "$pid" 2>/dev/null || true
kill -CONT "$pid" 2>/dev/null || true
set +e
wait "$pid"
status=$?
set -e
expect_eq "$status" 0 "report under nohup after SIGHUP"
expect_in "$S/n.html" "</html>"
expect_eq "$(find "$S" -name '*.tmp.*')" "" "temporary files left under nohup"

# bstore run waiting for the archive, which another process holds in a
# write transaction: a signal ends the wait at once, with status 128 + the
# signal, and the run is not stored.
R=$T/run.db
RD=$T/rundir
mkdir -p "$RD"
run "$BSTORE" --db "$R" -q ingest "$SAMPLES/bonnie++-1.03-t3-raid5.txt"
expect_rc 0 "ingest into run.db"
rruns=$(sqlite3 -batch "$R" "SELECT count(*) FROM runs")
mkfifo "$T/lock.fifo"

# lock: an sqlite3 shell holds a write transaction on run.db until unlock.
lock() {
	sqlite3 -batch "$R" <"$T/lock.fifo" >/dev/null 2>&1 &
	lockpid=$!
	exec 9>"$T/lock.fifo"
	# The holder waits for the lock itself: a process that has just
	# ended (a signalled run under ASan exits slowly) may still hold it,
	# and sqlite3's shell does not wait by default.
	echo ".timeout 30000" >&9
	echo "BEGIN IMMEDIATE;" >&9
	for _ in $(seq 1 1500); do
		# sqlite3 does not wait: "database is locked" once it is held.
		if ! sqlite3 -batch "$R" "BEGIN IMMEDIATE; ROLLBACK;" \
			>/dev/null 2>&1; then
			return 0
		fi
		sleep 0.02
	done
	fail "sqlite3 never took the lock"
}
unlock() {
	exec 9>&-
	wait "$lockpid" || true
}

# running PID: PID has not ended (a zombie, not waited for yet, has).
running() {
	kill -0 "$1" 2>/dev/null &&
		! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null
}

# stop_waiting_run SIGNAL STATUS: a run that waits for the archive, then
# SIGNAL; it must end within 5 s, before the lock is released.
stop_waiting_run() {
	local sig=$1 want=$2 status
	lock
	# The shell truncates out in the child, maybe after the loop below
	# has looked: what an earlier command left there must be gone first.
	rm -f "$T/out"
	# 9>&-: sqlite3 must see the end of its input when unlock closes it.
	# A run of the block tests alone (-n 0 -f) is enough: the wait
	# comes after it.
	env --default-signal=INT "$BSTORE" -q --db "$R" run -d "$RD" -m waiter -s 4 -n 0 -f -r 0 --no-sync \
		>"$T/out" 2>"$T/err" 9>&- &
	pid=$!
	# The table and CSV line are printed before the run is stored.
	for _ in $(seq 1 1200); do
		if [ -s "$T/out" ] || ! kill -0 "$pid" 2>/dev/null; then
			break
		fi
		sleep 0.05
	done
	expect_in "$T/out" ",waiter,"
	# Then it stores the run: it waits for the archive, in short sleeps.
	wait_syscall "$pid" sleep || true
	kill -s "$sig" "$pid"
	for _ in $(seq 1 100); do
		if ! running "$pid"; then
			break
		fi
		sleep 0.05
	done
	if running "$pid"; then
		fail "run still waiting for the archive 5 s after $sig"
	fi
	unlock
	set +e
	wait "$pid"
	status=$?
	set -e
	expect_eq "$status" "$want" "run waiting for the archive: exit status after $sig"
	expect_eq "$(cat "$T/err")" \
		"bstore: run: stopped by $sig while waiting for the archive; iteration 1 not stored" \
		"run waiting for the archive: message after $sig"
	expect_eq "$(sqlite3 -batch "$R" "SELECT count(*) FROM runs")" "$rruns" \
		"runs stored after $sig"
	expect_eq "$(ls -A "$RD")" "" "scratch left after $sig"
}
stop_waiting_run SIGINT 130
stop_waiting_run SIGTERM 143

# An archive without runs: every command that needs runs says so in the
# same words, whatever its selector; list and export of nothing are no
# error (as for a selector that matches nothing).
E=$T/empty.db
echo "no results here" >"$T/none.txt"
run "$BSTORE" -q --db "$E" ingest "$T/none.txt"
expect_rc 0 "ingest a file with no results"
for c in "report" "report all" "report last" "report -o $T/e.html" \
	"compare 1 2" "show 1" "show last" "tag all k=v" "rm all"; do
	# shellcheck disable=SC2086
	run "$BSTORE" --db "$E" $c
	expect_rc 1 "$c on an empty archive"
	expect_eq "$(cat "$T/err")" \
		"bstore: ${c%% *}: the archive '$E' has no runs yet (bstore ingest or bstore run adds them)" \
		"$c on an empty archive"
done
expect_eq "$(ls "$T"/e.html* 2>/dev/null)" "" "report -o of an empty archive"
for c in "list" "list all" "export" "export --format json"; do
	# shellcheck disable=SC2086
	run "$BSTORE" --db "$E" $c
	expect_rc 0 "$c on an empty archive"
	expect_eq "$(cat "$T/out")$(cat "$T/err")" "" "$c on an empty archive"
done
# With runs, a selector that matches none is still named.
run "$BSTORE" report machine=nobody
expect_rc 1 "report machine=nobody"
expect_eq "$(cat "$T/err")" \
	"bstore: report: selector 'machine=nobody' matches no runs" \
	"report machine=nobody"
run "$BSTORE" show machine=nobody
expect_rc 1 "show machine=nobody"
expect_eq "$(cat "$T/err")" \
	"bstore: show: selector 'machine=nobody' matches no runs" \
	"show machine=nobody"

# Standard output on a full disk, or closed: one line saying so, status 1,
# for every command and format, --help and --version included.
for c in "list" "list --json" "export" "export --format json" \
	"export --format csv" "report" "report -f html" "report -f csv" \
	"report -f json" "compare 1 2" "compare -f html 1 2" "show 1" \
	"tag 1 k=v" "rm -n 1" "ingest --formats" "--help" "--version" \
	"list --help" "export --help" "report --help" "compare --help" \
	"show --help" "tag --help" "rm --help" "run --help" "ingest --help"; do
	case $c in
	-*) who="bstore:" ;;
	*) who="bstore: ${c%% *}:" ;;
	esac
	set +e
	# shellcheck disable=SC2086
	"$BSTORE" $c >/dev/full 2>"$T/err"
	rc=$?
	set -e
	expect_rc 1 "$c >/dev/full"
	expect_eq "$(cat "$T/err")" \
		"$who cannot write output: No space left on device" \
		"$c >/dev/full"
	set +e
	# shellcheck disable=SC2086
	"$BSTORE" $c >&- 2>"$T/err"
	rc=$?
	set -e
	expect_rc 1 "$c >&-"
	expect_eq "$(cat "$T/err")" "$who cannot write output: Bad file descriptor" \
		"$c >&-"
done
# -o a device that is full: the same, naming it.
for c in "report" "report -f html" "report -f json" "compare 1 2" "export"; do
	# shellcheck disable=SC2086
	run "$BSTORE" $c -o /dev/full
	expect_rc 1 "$c -o /dev/full"
	expect_eq "$(cat "$T/err")" \
		"bstore: ${c%% *}: cannot write '/dev/full': No space left on device" \
		"$c -o /dev/full"
done

finish
