#!/usr/bin/env bash
# tests/cli/run_signal.sh - a signal in the middle of `bstore run`: exit
# 128 + signal, the scratch directory removed, nothing stored.
source "$SRC/tests/lib.sh"
need sqlite3

D=$T/d
mkdir -p "$D"

# interrupt SIGNAL STATUS GLOB ARGS...: starts bstore run with ARGS (and
# --no-sync: no test here needs the disk), waits until GLOB exists inside
# -d and the first test has said it began ("Writing a byte at a
# time...", "Create files in sequential order..."), sends SIGNAL, checks
# the exit status.
interrupt() {
	local sig=$1 want=$2 glob=$3 pid status
	shift 3
	# A script's background job starts with SIGINT and SIGQUIT ignored,
	# which bstore keeps (util/stop.h): give it the default back.
	env --default-signal=INT,QUIT "$BSTORE" run -d "$D" --no-sync "$@" \
		>"$T/out" 2>"$T/err" &
	pid=$!
	if ! wait_for "$D/$glob" || ! wait_in "$T/err" "..."; then
		fail "$sig: '$glob' never appeared in -d, or no test began"
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		return
	fi
	kill -s "$sig" "$pid"
	set +e
	wait "$pid"
	status=$?
	set -e
	expect_eq "$status" "$want" "exit status after $sig"
	expect_in "$T/err" "bstore: run: stopped by $sig; scratch files removed, iteration 1 not stored"
	expect_eq "$(ls -A "$D")" "" "scratch left after $sig"
	expect_eq "$(sql "SELECT count(*) FROM runs")" 0 "runs stored after $sig"
}

# The per-char write of 64 MiB, one byte per write(2), runs for a minute:
# stop it early.
interrupt SIGINT 130 'bstore-run.*/bstore.data' -s 64 -f64 -n 0 -r 0 -z 1
expect_in "$T/err" "Writing a byte at a time..."
expect_not_in "$T/err" "done"
interrupt SIGTERM 143 'bstore-run.*/bstore.data' -s 64 -f64 -n 0 -r 0 -z 1
interrupt SIGHUP 129 'bstore-run.*/bstore.data' -s 64 -f64 -n 0 -r 0 -z 1
interrupt SIGQUIT 131 'bstore-run.*/bstore.data' -s 64 -f64 -n 0 -r 0 -z 1
# In the middle of the file tests: 64 x 1024 files in 8 directories, all
# of them removed again.
interrupt SIGINT 130 'bstore-run.*/files/00007' -s 0 -n 64:0:0:8 -r 0 -z 1
expect_in "$T/err" "Create files in sequential order..."

# Output piped into a reader that quits (| head): the next progress write
# raises SIGPIPE, which stops the run like the others and cleans up.
set +e
{
	"$BSTORE" run -d "$D" -s 8 -f4 -n 0 -r 0 -z 1 --no-sync 2>&1 >/dev/null
	echo $? >"$T/pipe.rc"
} | head -c 10 >"$T/pipe.head"
set -e
expect_eq "$(cat "$T/pipe.head")" "Writing a " "what head read"
expect_eq "$(cat "$T/pipe.rc")" 141 "exit status after SIGPIPE"
expect_eq "$(ls -A "$D")" "" "scratch left after SIGPIPE"
expect_eq "$(sql "SELECT count(*) FROM runs")" 0 "runs stored after SIGPIPE"

finish
