#!/usr/bin/env bash
# tests/cli/fileio.sh - `bstore fileio` at tiny sizes: each mode in the
# one-shot form, its stored values against the printed ones (the output
# ingested into a second archive gives the same), the prepare / run /
# cleanup steps, the options sysbench has (async I/O, merged requests,
# the latency histogram, the 0.4 aliases), signals and ENOSPC leaving no
# scratch files.
source "$SRC/tests/lib.sh"
need sqlite3 jq

D=$T/d
mkdir -p "$D"
DB2=$T/ingested.db
# 400 events end a run in a fraction of a second on a quiet machine;
# --time=1 ends it on a slow one.
TINY=(--file-total-size=4M --file-num=4 --time=1 --events=400)
# The metrics sysbench prints, so ingest reads them too.
PRINTED="'reads_per_s','writes_per_s','fsyncs_per_s','read_mib_s',
'written_mib_s','latency_min_ms','latency_avg_ms','latency_max_ms',
'latency_p95_ms','events','total_time_s'"

last_values() {
	sqlite3 -batch "$1" "SELECT metric, quote(value), status FROM
		run_results WHERE run_id = (SELECT max(id) FROM runs) AND
		metric IN ($PRINTED) ORDER BY metric"
}

# The latency histogram of the last run: its points, and their sum (a
# row of distributions, schema version 7: read back through export).
last_hist() {
	BSTORE_DB=$1 "$BSTORE" export --format json | jq -s -r 'max_by(.id) |
		[.series.latency_histogram // [] | .[] |
		"\(.latency_ms):\(.events).0"] | join(" ")'
}

hist_sum_is_events() {
	BSTORE_DB=$1 "$BSTORE" export --format json | jq -s -r 'max_by(.id) |
		if ([.series.latency_histogram // [] | .[].events] | add) ==
		.results.events.value then 1 else 0 end'
}

last_params() {
	sqlite3 -batch "$1" "SELECT key, quote(value) FROM run_params WHERE run_id =
		(SELECT max(id) FROM runs) AND key <> 'fsync_mode' ORDER BY
		key"
}

# ---- every mode, one-shot, stored and read back ----
n=0
for mode in seqwr seqrewr seqrd rndrd rndwr rndrw; do
	run "$BSTORE" -q fileio -d "$D" "${TINY[@]}" --file-test-mode=$mode
	expect_rc 0 "fileio $mode"
	n=$((n + 1))
	expect_eq "$(ls -A "$D")" "" "scratch left after $mode"
	expect_eq "$(sql "SELECT count(*) FROM runs")" $n "runs after $mode"
	expect_in "$T/out" "File operations:"
	expect_in "$T/out" "execution time (avg/stddev):"
	cp "$T/out" "$T/out.$mode"
	BSTORE_DB=$DB2 "$BSTORE" -q ingest <"$T/out.$mode" >/dev/null 2>&1 ||
		fail "$mode: ingest of the output failed"
	expect_eq "$(last_values "$DB2")" "$(last_values "$DB")" \
		"$mode: stored values against the ingested output"
	expect_eq "$(last_params "$DB2")" "$(last_params "$DB")" \
		"$mode: stored parameters against the ingested output"
	expect_eq "$(sql "SELECT tool || ' ' || format || ' ' || family FROM runs
		WHERE id = $n")" "bstore bstore-fileio sysbench" "$mode: run"
	expect_eq "$(sqlite3 -batch "$DB2" "SELECT tool FROM runs ORDER BY id
		DESC LIMIT 1")" "bstore" "$mode: ingested tool"
	# The printed reads/s and the stored one, directly.
	printed=$(awk '/reads\/s:/ {print $2}' "$T/out.$mode")
	stored=$(sql "SELECT printf('%.2f', value) FROM run_results WHERE
		run_id = $n AND metric = 'reads_per_s'")
	expect_eq "$stored" "$printed" "$mode: reads/s"
	# The histogram is stored without --histogram too, and adds up.
	expect_not_in "$T/out.$mode" "Latency histogram"
	expect_eq "$(hist_sum_is_events "$DB")" 1 "$mode: histogram sum"
done

# ---- async, with the histogram printed: stored as printed ----
for mode in seqwr seqrewr seqrd rndrd rndwr rndrw; do
	run "$BSTORE" -q fileio -d "$D" "${TINY[@]}" --file-test-mode=$mode \
		--file-io-mode=async --file-async-backlog=8 --histogram
	expect_rc 0 "async $mode"
	n=$((n + 1))
	expect_in "$T/out" "Using asynchronous I/O mode"
	expect_in "$T/out" "Latency histogram (values are in milliseconds)"
	expect_eq "$(ls -A "$D")" "" "scratch left after async $mode"
	cp "$T/out" "$T/out.async.$mode"
	BSTORE_DB=$DB2 "$BSTORE" -q ingest <"$T/out.async.$mode" >/dev/null \
		2>&1 || fail "async $mode: ingest of the output failed"
	expect_eq "$(last_values "$DB2")" "$(last_values "$DB")" \
		"async $mode: stored values against the ingested output"
	expect_eq "$(last_params "$DB2")" "$(last_params "$DB")" \
		"async $mode: stored parameters against the ingested output"
	expect_eq "$(last_hist "$DB2")" "$(last_hist "$DB")" \
		"async $mode: stored histogram against the ingested output"
	expect_eq "$(hist_sum_is_events "$DB")" 1 "async $mode: histogram sum"
	# The printed rows, read here, are the stored points (all their
	# digits: awk's own "%.6g" cut 155.8012 to 155.801).
	rows=$(awk 'BEGIN {CONVFMT = "%.10g"}
		/^Latency histogram/ {h = 1; next} h && / \|/ {
		printf "%s%s:%s", sep, $1 + 0, $NF ".0"; sep = " " }
		/^File operations/ {h = 0}' "$T/out")
	expect_eq "$rows" "$(last_hist "$DB")" "async $mode: printed rows"
done
expect_eq "$(sql "SELECT value FROM run_params WHERE run_id = $n AND
	key = 'io_mode'")" async "async io_mode param"
expect_eq "$(sql "SELECT value FROM run_params WHERE run_id = 6 AND
	key = 'mode'")" rndrw "mode param"
expect_eq "$(sql "SELECT count(*) FROM tags WHERE run_id = 1 AND
	key = 'host.kernel'")" 1 "host tags"
expect_eq "$(sql "SELECT count(*) FROM run_results WHERE run_id = 6 AND
	metric = 'latency_p99_ms' AND status = 'ok'")" 1 "p99 stored"
# Ingesting the same output into the archive that stored it finds it.
run "$BSTORE" ingest <"$T/out.rndrw"
cat "$T/out" "$T/err" >"$T/both"
expect_in "$T/both" "1 duplicate"

# ---- options ----
run "$BSTORE" fileio -d "$D" "${TINY[@]}" --file-test-mode=rndrd \
	--threads=2 --events=500 --time=0 --percentile=99 --no-store
expect_rc 0 "--events"
expect_in "$T/out" "Number of threads: 2"
expect_in "$T/out" "total number of events:              500"
expect_in "$T/out" "99th percentile:"
run "$BSTORE" -q fileio -d "$D" "${TINY[@]}" --file-test-mode=rndrw \
	--time=2 --events=0 --report-interval=1 --validate --tag disk=test
expect_rc 0 "--report-interval --validate"
expect_in "$T/out" "[ 1s ] reads: "
expect_in "$T/out" "Using checksums validation."
id=$(sql "SELECT max(id) FROM runs")
expect_eq "$(sql "SELECT count(*) > 0 FROM series WHERE run_id = $id AND
	metric = 'read_mib_s' AND axis = 'time_s'")" 1 "interval series"
expect_eq "$(sql "SELECT value FROM tags WHERE run_id = $id AND
	key = 'disk'")" test "--tag"
run "$BSTORE" fileio -d "$D" "${TINY[@]}" --file-test-mode=rndrw \
	--file-io-mode=mmap --file-fsync-all --file-fsync-mode=fdatasync \
	--no-store
expect_rc 0 "mmap"
expect_in "$T/out" "Using fast mmaped I/O mode"
expect_in "$T/out" "Calling fsync() after each write operation."
# As sysbench 1.0.20: fsync-all turns the periodic and final fsyncs off.
expect_not_in "$T/out" "Periodic FSYNC enabled"
expect_not_in "$T/out" "Calling fsync() at the end of test"
run "$BSTORE" fileio -d "$D" "${TINY[@]}" --file-test-mode=seqrd \
	--file-extra-flags=direct --no-store
if [ "$rc" -eq 0 ]; then
	expect_in "$T/out" "Extra file open flags: directio"
else
	expect_in "$T/err" "O_DIRECT"
fi
run "$BSTORE" fileio -d "$D" "${TINY[@]}" --file-test-mode=rndrd \
	--rand-type=special --no-store
expect_rc 0 "special"
# Merged requests: sequential modes read N blocks a request, random
# ones one (sysbench 1.0.20, by strace), and both say so.
for m in seqrd:65536 seqrewr:65536 rndrd:16384; do
	run "$BSTORE" fileio -d "$D" --file-total-size=4M --file-num=4 \
		--file-test-mode=${m%:*} --file-merged-requests=4 --events=400 \
		--time=0 --file-fsync-freq=0 --no-store
	expect_rc 0 "merged ${m%:*}"
	expect_in "$T/out" "Merging requests up to 64KiB for sequential IO."
	per=$(awk '/reads\/s:|writes\/s:/ {ops += $2}
		/read, MiB\/s:|written, MiB\/s:/ {mib += $3}
		END {printf "%.0f", mib * 1048576 / ops / 1024}' "$T/out")
	expect_eq "$per" $((${m#*:} / 1024)) "merged ${m%:*}: KiB a request"
done
run "$BSTORE" fileio -d "$D" "${TINY[@]}" --file-test-mode=seqrd \
	--file-merged-requests=3 --validate --no-store
expect_rc 0 "merged requests with --validate"
# sysbench 0.4's spellings, with sysbench's warnings.
run "$BSTORE" fileio -d "$D" "${TINY[@]}" --file-test-mode=rndrd \
	--num-threads=2 --max-time=0 --max-requests=300 --no-store
expect_rc 0 "aliases"
expect_in "$T/out" "Number of threads: 2"
expect_in "$T/out" "total number of events:              300"
expect_in "$T/err" "--num-threads is deprecated, use --threads instead"
expect_in "$T/err" "--max-time is deprecated, use --time instead"
expect_in "$T/err" "--max-requests is deprecated, use --events instead"
expect_eq "$(ls -A "$D")" "" "scratch left after the option runs"

# ---- refusals ----
run "$BSTORE" fileio -d "$D" "${TINY[@]}" --file-test-mode=rndrd \
	--file-io-mode=async --validate
expect_rc 2 "async with --validate"
expect_in "$T/err" "--validate cannot be used with --file-io-mode=async"
expect_style "$T/err"
# More requests in flight than the kernel allows: io_setup refuses.
max=$(cat /proc/sys/fs/aio-max-nr 2>/dev/null || echo 65536)
if [ "$max" -lt 16000000 ]; then
	run "$BSTORE" -q fileio -d "$D" "${TINY[@]}" --file-test-mode=rndrd \
		--file-io-mode=async --file-async-backlog=$((max + 1)) --no-store
	expect_rc 1 "async refused by the kernel"
	expect_in "$T/err" "cannot set up Linux native AIO for $((max + 1)) requests a thread (io_setup): "
	expect_in "$T/err" "fs.aio-max-nr"
	expect_style "$T/err"
	expect_eq "$(ls -A "$D")" "" "scratch left after io_setup failed"
else
	skip_part "fs.aio-max-nr is too large to make io_setup refuse"
fi
run "$BSTORE" fileio -d "$D" "${TINY[@]}"
expect_rc 2 "no mode"
expect_in "$T/err" "missing --file-test-mode"
run "$BSTORE" fileio -d "$D" "${TINY[@]}" --file-test-mode=rndrx
expect_rc 2 "bad mode"
expect_in "$T/err" "'rndrx' is not one of seqwr"
run "$BSTORE" fileio -d "$D" "${TINY[@]}" --file-test-mode=rndrd warmup
expect_rc 2 "bad step"
expect_in "$T/err" "'warmup' is not a step"
run "$BSTORE" fileio --file-num=x prepare
expect_rc 2 "bad number"
expect_style "$T/err"

# ---- prepare, run, cleanup in a directory ----
W=$T/w
mkdir -p "$W"
run "$BSTORE" fileio -d "$W" "${TINY[@]}" --file-test-mode=rndrd run
expect_rc 1 "run before prepare"
expect_in "$T/err" "run 'bstore fileio prepare' first"
run "$BSTORE" fileio -d "$W" "${TINY[@]}" prepare
expect_rc 0 "prepare"
expect_in "$T/out" "4 files, 1024Kb each, 4Mb total"
expect_in "$T/out" "Creating file test_file.3"
expect_eq "$(stat -c %s "$W/test_file.0")" 1048576 "prepared size"
run "$BSTORE" fileio -d "$W" "${TINY[@]}" prepare
expect_in "$T/out" "Reusing existing file test_file.0"
(cd "$W" && "$BSTORE" fileio "${TINY[@]}" --file-test-mode=rndrw \
	--no-store run >"$T/out" 2>"$T/err") || fail "run in the current directory"
expect_in "$T/out" "Doing random r/w test"
run "$BSTORE" fileio -d "$W" --file-total-size=8M --file-num=4 \
	--file-test-mode=seqrd --no-store run
expect_rc 1 "run with files too small"
expect_in "$T/err" "has 1048576 bytes, but at least 2097152 are expected"
run "$BSTORE" fileio -d "$W" "${TINY[@]}" cleanup
expect_rc 0 "cleanup"
expect_in "$T/out" "Removing test files..."
expect_eq "$(ls -A "$W")" "" "files left after cleanup"

# ---- a signal: no scratch files, nothing stored ----
before=$(sql "SELECT count(*) FROM runs")
for sig in SIGINT SIGTERM; do
	env --default-signal=INT,QUIT "$BSTORE" fileio -d "$D" \
		--file-total-size=4M --file-num=4 --time=60 \
		--file-test-mode=rndrw >"$T/out" 2>"$T/err" &
	pid=$!
	# In the middle of the run: its files are there, and it has said
	# that its threads started (the files are written before).
	if wait_for "$D/bstore-run.*/test_file.3" &&
		wait_in "$T/out" "Threads started!"; then
		kill -s $sig "$pid"
	else
		fail "$sig: the files never appeared, or the run never began"
		kill -KILL "$pid" || true
	fi
	set +e
	wait "$pid"
	status=$?
	set -e
	want=$([ $sig = SIGINT ] && echo 130 || echo 143)
	expect_eq "$status" "$want" "exit status after $sig"
	expect_in "$T/err" "stopped by $sig; scratch files removed, nothing stored"
	expect_eq "$(ls -A "$D")" "" "scratch left after $sig"
	expect_eq "$(sql "SELECT count(*) FROM runs")" "$before" "runs after $sig"
done

# ---- ENOSPC on a small tmpfs ----
S=$T/small
mkdir -p "$S"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=2m bstore-test "$S" 2>/dev/null; then
	# seqwr writes its files in the run: the write that fails is named.
	run "$BSTORE" fileio -d "$S" "${TINY[@]}" --file-test-mode=seqwr \
		--no-store
	expect_rc 1 "ENOSPC in the run"
	expect_in "$T/err" "No space left on device"
	expect_in "$T/err" "/test_file."
	expect_in "$T/err" "in all)"
	expect_eq "$(ls -A "$S")" "" "scratch left after ENOSPC"
	# The other modes prepare first, and say so before writing.
	run "$BSTORE" fileio -d "$S" "${TINY[@]}" --file-test-mode=seqrd \
		--no-store
	expect_rc 1 "no room to prepare"
	expect_in "$T/err" "not enough free space in"
	expect_eq "$(ls -A "$S")" "" "scratch left after the space check"
	umount "$S"
else
	skip_part "ENOSPC needs root to mount a small tmpfs"
fi

finish
