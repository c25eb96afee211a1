#!/usr/bin/env bash
# tests/cli/exec.sh - bstore exec runs the real tools (Debian's fio, dd,
# bonnie++ and sysbench, tiny sizes in the scratch directory) and stores a
# dated run with host facts, the command line and the parameters its
# arguments give where the output omits them (fio's normal text prints no
# direct; bonnie++'s output never says -D); a tool that fails, a program
# that cannot be run and a stop signal store nothing; an unknown tool is a
# usage error.
set -euo pipefail
. "$SRC/tests/lib.sh"
need fio

D=$T/d
mkdir -p "$D"
count() { sql "SELECT count(*) FROM runs"; }

# fio, normal text: rw, bs, ioengine and iodepth are in its header line,
# direct only in the arguments.
before=$(date -u +%s)
run "$BSTORE" exec -t rig=a -- fio --name=r --rw=randread --bs=4k --direct=1 \
	--iodepth=2 --ioengine=psync --size=4m --filename="$D/f" \
	--output-format=normal
expect_rc 0 "exec fio"
expect_in "$T/out" "fio (bstore exec): 1 run stored"
# Its output is shown as it comes.
expect_in "$T/out" "read: IOPS="
run "$BSTORE" show 1
expect_in "$T/out" "O_DIRECT               on"
expect_in "$T/out" "I/O depth              2"
expect_in "$T/out" "exec.command=fio --name=r --rw=randread --bs=4k --direct=1"
expect_in "$T/out" "host.kernel=$(uname -r)"
expect_in "$T/out" "host.fs="
expect_in "$T/out" "rig=a"
# Its exit status: a stored run's tool exited with 0.
expect_in "$T/out" "exec.status=0"
expect_not_in "$T/out" "measured_at.tz"
# The disk's scheduler and read-ahead, as /sys has them.
dev=$(sed -n 's/^  host.device=//p' "$T/out")
q=/sys/block/$dev/queue
if [ -n "$dev" ] && [ -r "$q/scheduler" ]; then
	sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")
	[ -z "$sched" ] || expect_in "$T/out" "host.scheduler=$sched"
	expect_in "$T/out" "host.read_ahead_kb=$(cat "$q/read_ahead_kb")"
elif [ -n "$dev" ]; then
	fail "host.device=$dev, but /sys/block/$dev/queue has no scheduler"
fi
# (A scratch directory on a tmpfs has no disk: no host.device to check.)
expect_eq "$(sql "SELECT machine FROM runs WHERE id = 1")" "$(uname -n)" \
	"the machine is this host"
at=$(sql "SELECT measured_at FROM runs WHERE id = 1")
[ "$at" -ge "$before" ] && [ "$at" -le "$(date -u +%s)" ] ||
	fail "measured_at $at is not the start of the run (after $before)"
# The same job through ingest, without exec, does not know O_DIRECT.
fio --name=r --rw=randread --bs=4k --direct=1 --iodepth=2 --ioengine=psync \
	--size=4m --filename="$D/f" --output-format=normal >"$T/fio.txt"
run "$BSTORE" ingest "$T/fio.txt"
expect_rc 0 "ingest fio's normal text"
run "$BSTORE" show 2
expect_in "$T/out" "O_DIRECT               unknown"

# dd: its summary names no operand; exec's command line does.
run "$BSTORE" exec -m box -- dd if=/dev/zero of="$D/dd.bin" bs=1M count=8 \
	oflag=direct
expect_rc 0 "exec dd"
run "$BSTORE" show 3
expect_in "$T/out" "O_DIRECT               on"
expect_in "$T/out" "block size             1048576 bytes"
expect_eq "$(sql "SELECT machine FROM runs WHERE id = 3")" box "-m names the machine"
expect_not_in "$T/out" "direction, block size and flags unknown"

# A tool that fails stores nothing and says so.
n=$(count)
run "$BSTORE" exec -- fio --name=x --rw=nonsense --filename="$D/f" --size=1m
expect_rc 1 "exec of a failing fio"
expect_in "$T/err" "fio exited with status 1; nothing stored"
run "$BSTORE" exec -- "$D/no/such/fio" --version
expect_rc 1 "exec of a program that is not there"
expect_in "$T/err" "cannot run '$D/no/such/fio': No such file or directory"
expect_style "$T/err"
expect_eq "$(count)" "$n" "runs after the failures"
# A real bonnie++ that fails (its directory is not there): its status is
# exec's message, nothing of it is stored, and check has no run of it.
if have bonnie++; then
	run "$BSTORE" exec -- bonnie++ -q -d "$D/no/such/dir" -s 8m -r 4m \
		-n 0 -x 1
	expect_rc 1 "exec of a failing bonnie++"
	expect_in "$T/err" "bonnie++ exited with status 1; nothing stored"
	expect_eq "$(count)" "$n" "runs after bonnie++ failed"
fi

# Not a tool bstore knows, or no tool at all: a usage error.
run "$BSTORE" exec -- ls -l
expect_rc 2 "exec ls"
expect_in "$T/err" "'ls' is not a tool bstore exec runs"
run "$BSTORE" exec
expect_rc 2 "exec with no tool"

# A stop signal stops the tool and stores nothing.
env --default-signal=INT "$BSTORE" exec -- fio --name=long --rw=read --bs=4k \
	--size=4m --filename="$D/f" --time_based --runtime=60 \
	--output-format=json >"$T/long.out" 2>"$T/long.err" &
pid=$!
sleep 1.5
kill -INT "$pid"
status=0
wait "$pid" || status=$?
expect_eq "$status" 130 "exec stopped by SIGINT"
expect_in "$T/long.err" "stopped by SIGINT; fio stopped, nothing stored"
expect_eq "$(count)" "$n" "runs after the signal"
# fio's job processes end just after its main one, which exec waited for.
for _ in $(seq 50); do
	pgrep -f -- "--name=long" >/dev/null || break
	sleep 0.1
done
pgrep -f -- "--name=long" >/dev/null && fail "fio still runs 5 s after the signal"

# bonnie++: without -D and -b it ran buffered and without fsync, which
# its output never says.
if have bonnie++; then
	run "$BSTORE" exec -- bonnie++ -q -d "$D" -s 8m -r 4m -n 0 -x 1 \
		-u "$(id -un)" -f
	expect_rc 0 "exec bonnie++"
	id=$(sql "SELECT max(id) FROM runs")
	expect_eq "$(sql "SELECT direct || ',' || fsync FROM runs WHERE id = $id")" \
		"0,0" "bonnie++'s O_DIRECT and fsync from its arguments"
else
	skip_part "bonnie++ (not installed)"
fi

# sysbench fileio: the mode and threads are printed; exec dates the run.
if have sysbench; then
	(cd "$D" && sysbench fileio --file-total-size=4M --file-num=2 prepare >/dev/null)
	(cd "$D" && "$BSTORE" exec -- sysbench fileio --file-total-size=4M \
		--file-num=2 --file-test-mode=rndrd --threads=2 --time=1 run) \
		>"$T/out" 2>"$T/err" || fail "exec sysbench: $(cat "$T/err")"
	id=$(sql "SELECT max(id) FROM runs")
	expect_eq "$(sql "SELECT family FROM runs WHERE id = $id")" sysbench "sysbench's run"
	[ -n "$(sql "SELECT measured_at FROM runs WHERE id = $id")" ] ||
		fail "sysbench's run has no date"
else
	skip_part "sysbench (not installed)"
fi
finish
