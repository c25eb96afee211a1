#!/usr/bin/env bash
# tests/cli/zcav.sh - `bstore zcav` at tiny sizes on a scratch file: zcav
# 2.00a's printout, the stored run against what `bstore ingest` reads
# from that printout, -c/-s/-r/-l, write mode on a file, --no-store, a
# signal that stores nothing, and the refusal to write to a mounted or
# formatted loop device (root only; skipped otherwise).
source "$SRC/tests/lib.sh"
need sqlite3

F=$T/data
head -c $((24 << 20)) /dev/urandom >"$F"
# isql DB QUERY: sqlite3 on another archive.
isql() { sqlite3 -batch "$1" "$2"; }
last_id() { sql "SELECT max(id) FROM runs"; }

# Values of run ID in archive DB: results, params, then the curve.
values() {
	isql "$1" "SELECT metric, status, quote(value) FROM run_results
		WHERE run_id = $2 ORDER BY metric;
		SELECT key, quote(value) FROM run_params WHERE run_id = $2
		ORDER BY key;
		SELECT metric, seq, axis, x, quote(y), quote(seconds) FROM series
		WHERE run_id = $2 ORDER BY metric, seq"
}

# roundtrip NAME: the run just stored has the values `bstore ingest`
# reads from its printout ($T/out) in an archive of its own; ingesting
# the printout into the same archive finds the run already there.
roundtrip() {
	local id i2=$T/$1.db
	id=$(last_id)
	rm -f "$i2"
	cp "$T/out" "$T/$1.out"
	run "$BSTORE" --db "$i2" ingest "$T/$1.out"
	expect_rc 0 "$1: ingest of the printout"
	expect_in "$T/out" "1 run stored"
	values "$DB" "$id" >"$T/$1.stored"
	values "$i2" 1 >"$T/$1.ingested"
	if ! diff -u "$T/$1.stored" "$T/$1.ingested" >"$T/diff"; then
		fail "$1: stored and ingested values differ:"
		head -20 "$T/diff" >&2
	fi
	# bstore zcav's printout, read back: its run, O_DIRECT and all.
	expect_eq "$(isql "$i2" "SELECT tool || ' ' || format FROM runs")" \
		"bstore bstore-zcav" "$1: ingested tool"
	run "$BSTORE" ingest "$T/$1.out"
	expect_in "$T/out" "1 duplicate"
}

# Read, every block timed (--min-time 0): 6 rows of 4 MiB.
run "$BSTORE" zcav -b 4 --min-time 0 --tag disk=scratch "$F"
expect_rc 0 "read"
expect_eq "$(sed -n 2p "$T/out")" "#block offset (GiB), MiB/s, time" "header"
expect_eq "$(grep -cE '^[0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2} [0-9]+\.[0-9]{3}$' "$T/out")" 6 "timed rows"
expect_in "$T/out" "# Read 24 megs in "
expect_not_in "$T/err" "warning" # every block timed: no hint
expect_in "$T/err" "# Finished loop 1, on device $F at "
expect_in "$T/err" "Stored as run 1"
expect_eq "$(sed -n 1p "$T/out" | grep -cE "^# bstore .* zcav: reading '$F' in 1 MiB accesses, (O_DIRECT|through the page cache)")" 1 "info line"
expect_eq "$(sql "SELECT family, tool, format, source FROM runs")" \
	"zcav|bstore|bstore-zcav|bstore zcav" "stored run"
expect_eq "$(sql "SELECT value FROM tags WHERE run_id = 1 AND key = 'disk'")" scratch "--tag"
expect_eq "$(sql "SELECT machine FROM runs WHERE id = 1")" "$(uname -n)" \
	"machine: the host name"
expect_eq "$(sql "SELECT count(*) FROM tags WHERE run_id = 1 AND key IN ('host.kernel', 'host.ram_mib', 'zcav.direct', 'zcav.target', 'zcav.min_time_s')")" 5 "host and zcav tags"
expect_eq "$(sql "SELECT status FROM run_results WHERE run_id = 1 AND metric = 'read_mib_s'")" ok "read_mib_s status"
expect_eq "$(sql "SELECT count(*) FROM series WHERE run_id = 1 AND metric = 'read_mib_s' AND axis = 'offset_gib' AND y > 0")" 6 "curve points"
# The value is the mean of the printed rates.
mean=$(awk '/^[0-9]/ { s += $2; n++ } END { printf "%.4f", s / n }' "$T/out")
expect_eq "$(sql "SELECT printf('%.4f', value) FROM run_results WHERE run_id = 1 AND metric = 'read_mib_s'")" "$mean" "read_mib_s value"
roundtrip read

# zcav's own threshold: 4 MiB from a scratch file is under a second, so
# every row is ++++ and the run is too_fast, never 0.
run "$BSTORE" zcav -b 4 "$F"
expect_rc 0 "read ++++"
expect_eq "$(grep -cE '^#[0-9]+\.[0-9]{2} \+\+\+\+ [0-9]+\.[0-9]{3}$' "$T/out")" 6 "++++ rows"
expect_eq "$(sql "SELECT status, quote(value) FROM run_results WHERE run_id = $(last_id) AND metric = 'read_mib_s'")" "too_fast|NULL" "too_fast"
# ... and says what to pass: a --min-time under the blocks' time, a
# bigger -b and that this 24 MiB file is too small for it.
expect_eq "$(grep -c "^bstore: zcav: warning: 6 of 6 blocks took under 1 s ('++++', no rate): pass " "$T/err")" 1 "the too-fast hint"
expect_in "$T/err" "(this one holds 24 MiB)"
if grep -q "took up to" "$T/err"; then
	expect_in "$T/err" "--min-time 0."
fi
expect_eq "$(grep -cE -- "-b [0-9]+ \(about [0-9.e+-]+ s a block at this speed\)" "$T/err")" 1 "the hint names -b"
roundtrip fast

# -c 3 -s 2: three passes, every other block, the rows averaged.
run "$BSTORE" zcav -b 1 -c 3 -s 2 --min-time 0 "$F"
expect_rc 0 "-c 3 -s 2"
expect_eq "$(grep -c '^# Read 12 megs in ' "$T/out")" 3 "a total a pass"
expect_in "$T/out" "#loops: 3"
expect_eq "$(grep -cE '^[0-9]' "$T/out")" 12 "rows of every other block"
expect_eq "$(grep -E '^[0-9]' "$T/out" | tail -1 | cut -d' ' -f1)" 0.02 "last offset (22 MiB)"
expect_eq "$(sql "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT key, value FROM run_params WHERE run_id = $(last_id) ORDER BY key)")" \
	"block_mib=1 direct=1 passes=3 skip=2" "params"
roundtrip passes

# -r FIRST:LAST in MiB, rounded down to blocks; -l writes the table to a log.
run "$BSTORE" zcav -b 4 -r 9:21 --min-time 0 -l "$T/log" --no-store "$F"
expect_rc 0 "-r -l"
expect_eq "$(cat "$T/out")" "" "stdout with -l"
expect_eq "$(grep -E '^[0-9]' "$T/log" | cut -d' ' -f1 | tr '\n' ' ')" "0.01 0.01 0.02 " "offsets of blocks 2 to 4"
expect_in "$T/log" "# Read 20 megs in "

# --no-store stores nothing.
n=$(sql "SELECT count(*) FROM runs")
run "$BSTORE" zcav -b 8 --no-store "$F"
expect_rc 0 "--no-store"
expect_eq "$(sql "SELECT count(*) FROM runs")" "$n" "runs after --no-store"
expect_not_in "$T/err" "Stored as"

# Write mode on a regular file: zeros over its data, never longer.
W=$T/wfile
head -c $((16 << 20)) /dev/urandom >"$W"
run "$BSTORE" zcav -w -b 4 --min-time 0 "$W"
expect_rc 0 "-w on a file"
expect_in "$T/out" "Warning, writing to $W."
expect_eq "$(stat -c %s "$W")" $((16 << 20)) "file size after -w"
if ! cmp -s "$W" <(head -c $((16 << 20)) /dev/zero); then
	fail "-w did not write zeros over the file"
fi
expect_eq "$(sql "SELECT metric, status FROM run_results WHERE run_id = $(last_id) AND status <> 'not_run' ORDER BY metric")" "total_mib_s|ok
write_mib_s|ok" "write_mib_s, and zcav's total"
roundtrip write
run "$BSTORE" zcav -w -b 4 -r 24 --no-store "$W"
expect_rc 0 "-w -r past the end"
expect_eq "$(stat -c %s "$W")" $((24 << 20)) "file size after -w -r 24"

# Errors: clear, with the right status.
run "$BSTORE" zcav -b 4 "$T/missing"
expect_rc 1 "missing file"
expect_in "$T/err" "bstore: zcav: cannot open '$T/missing': No such file or directory"
run "$BSTORE" zcav -b 4 "$T"
expect_rc 1 "a directory"
expect_in "$T/err" "is neither a regular file nor a block device"
run "$BSTORE" zcav -b 64 "$F"
expect_rc 1 "too small"
expect_in "$T/err" "is too small: not one block of 64 MiB"
run "$BSTORE" zcav -s 1 "$F"
expect_rc 2 "-s 1"
expect_in "$T/err" "Try 'bstore zcav --help'."
run "$BSTORE" zcav -b 4:8 "$F"
expect_rc 2 "chunk over block"
run "$BSTORE" zcav
expect_rc 2 "no file"
run "$BSTORE" zcav --yes-destroy-data "$F"
expect_rc 2 "--yes-destroy-data without -w"
expect_style "$T/err"

# A signal stops the measurement and stores nothing.
interrupt() {
	local sig=$1 want=$2 pid status n
	n=$(sql "SELECT count(*) FROM runs")
	env --default-signal=INT,QUIT "$BSTORE" zcav -b 1 -c 100000 "$F" \
		>"$T/sig.out" 2>"$T/sig.err" &
	pid=$!
	if ! wait_for "$T/sig.err"; then
		fail "$sig: bstore zcav did not start"
	fi
	for _ in $(seq 1 250); do
		grep -q "Finished loop 2," "$T/sig.err" && break
		sleep 0.02
	done
	kill -s "$sig" "$pid"
	set +e
	wait "$pid"
	status=$?
	set -e
	expect_eq "$status" "$want" "exit status after $sig"
	expect_in "$T/sig.err" "bstore: zcav: stopped by $sig; nothing stored"
	expect_eq "$(sql "SELECT count(*) FROM runs")" "$n" "runs stored after $sig"
}
interrupt SIGINT 130
interrupt SIGTERM 143

# Output piped into a reader that quits: SIGPIPE stops it the same way.
n=$(sql "SELECT count(*) FROM runs")
set +e
{
	"$BSTORE" zcav -b 1 -c 100000 "$F" 2>"$T/pipe.err"
	echo $? >"$T/pipe.rc"
} | head -c 9 >"$T/pipe.head"
set -e
expect_eq "$(cat "$T/pipe.head")" "# bstore " "what head read"
expect_eq "$(cat "$T/pipe.rc")" 141 "exit status after SIGPIPE"
expect_in "$T/pipe.err" "bstore: zcav: stopped by SIGPIPE; nothing stored"
expect_eq "$(sql "SELECT count(*) FROM runs")" "$n" "runs stored after SIGPIPE"

# A loop device: write mode refuses it mounted, or holding ext4, or
# without --yes-destroy-data; a blank one is written.
loop_part() {
	local img=$T/loop.img mnt loop
	if [ "$(id -u)" -ne 0 ] || ! have losetup mkfs.ext4 mount umount; then
		skip_part "the loop device part needs root, losetup and mkfs.ext4"
		return
	fi
	truncate -s 64M "$img"
	mkfs.ext4 -q -F "$img"
	if ! loop=$(losetup -f --show "$img" 2>/dev/null); then
		skip_part "no free loop device"
		return
	fi
	mnt=$(mktemp -d /tmp/bstore-zcav-test.XXXXXX)
	# shellcheck disable=SC2064
	trap "umount '$mnt' 2>/dev/null || true; losetup -d '$loop' || true; rmdir '$mnt' || true" EXIT
	if ! mount "$loop" "$mnt" 2>/dev/null; then
		skip_part "cannot mount a loop device here"
		return
	fi
	run "$BSTORE" zcav -w -b 4 "$loop"
	expect_rc 1 "-w on a device without --yes-destroy-data"
	expect_in "$T/err" "refusing to write to block device '$loop': -w destroys its data; give --yes-destroy-data to do it"
	run "$BSTORE" zcav -w --yes-destroy-data -b 4 "$loop"
	expect_rc 1 "-w on a mounted device"
	expect_in "$T/err" "refusing to write to '$loop': it (or a partition of it) is mounted on '$mnt'"
	expect_style "$T/err"
	# Reading a mounted device is fine.
	run "$BSTORE" zcav -b 4 -r 16 --no-store "$loop"
	expect_rc 0 "read of a mounted device"
	umount "$mnt"
	run "$BSTORE" zcav -w --yes-destroy-data -b 4 "$loop"
	expect_rc 1 "-w on a device holding ext4"
	expect_in "$T/err" "refusing to write to '$loop': it holds a ext2/3/4 signature"
	# Blank (the file system's first blocks zeroed): written.
	dd if=/dev/zero of="$loop" bs=1M count=2 conv=fsync status=none
	run "$BSTORE" zcav -w --yes-destroy-data -b 4 -r 16 "$loop"
	expect_rc 0 "-w on a blank device"
	expect_eq "$(sql "SELECT value FROM tags WHERE run_id = $(last_id) AND key = 'zcav.target'")" "$loop" "device run's target"
}
loop_part

# -m names the machine, as bstore run's and bstore fileio's.
run "$BSTORE" zcav -b 8 -m scratchbox "$F"
expect_rc 0 "zcav -m"
expect_eq "$(sql "SELECT machine FROM runs WHERE id = (SELECT max(id) FROM runs)")" \
	scratchbox "zcav -m NAME"
finish
