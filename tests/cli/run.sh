#!/usr/bin/env bash
# tests/cli/run.sh - `bstore run` end to end on tiny sizes: results,
# the stored run and its host tags, the CSV line checked by Debian's
# bon_csv2txt/bon_csv2html and by our own ingest, and the errors. What
# is checked is the output, so the runs skip the syncs (--no-sync), all
# but one that syncs for real.
source "$SRC/tests/lib.sh"
need sqlite3 findmnt

D=$T/d
mkdir -p "$D"

nfields() { awk -F, '{ print NF }' "$1"; }

# --help: bonnie++'s options, -c documented as recorded only.
run "$BSTORE" run --help
expect_rc 0 "run --help"
expect_in "$T/out" "-s SIZE[:CHUNK[:SEEKS[:PROCS]]]"
expect_in "$T/out" "-c N        concurrency: recorded only"
expect_in "$T/out" "--csv-format 1.98|1.03"
expect_in "$T/out" "--no-sync   for tests of the output only"

# One iteration, stored with host tags and a user tag.
run "$BSTORE" run -d "$D" -s 8 -n 1 -r 0 -f -z 42 -m cli-test --tag raid=10 --no-sync
expect_rc 0 "run -s 8 -n 1"
expect_in "$T/out" "bstore 0.1.0        ------Sequential Output------"
expect_in "$T/out" "cli-test         8M           "
expect_in "$T/out" "Latency "
expect_in "$T/err" "Writing intelligently...done"
expect_in "$T/err" "start 'em...done...done...done...done...done..."
expect_in "$T/err" "Delete files in random order...done."
expect_in "$T/err" "Stored as run 1"
tail -n 1 "$T/out" >"$T/one.csv"
expect_eq "$(nfields "$T/one.csv")" 50 "CSV fields"
expect_in "$T/one.csv" "1.98,bstore-0.1.0,cli-test,1,42,8M,,8192,5,,,"
expect_eq "$(ls -A "$D")" "" "scratch left in -d"

expect_eq "$(sql "SELECT count(*) FROM runs")" 1 "stored runs"
expect_eq "$(sql "SELECT tool || ' ' || tool_version || ' ' || format || ' ' || source FROM runs")" \
	"bstore 0.1.0 bstore-run bstore run" "run identity"
expect_eq "$(sql "SELECT raw FROM runs")" "$(cat "$T/one.csv")" "raw = printed CSV"
expect_eq "$(sql "SELECT file_size_mib, seek_count, seek_procs, per_char_mib, num_files, seed FROM runs")" \
	"8|8192|5|0|1|42" "params"
expect_eq "$(sql "SELECT putc_status, getc_status FROM runs")" "not_run|not_run" "-f skips per-char"
expect_eq "$(sql "SELECT value FROM tags WHERE key = 'raid'")" 10 "--tag"
expect_eq "$(sql "SELECT value FROM tags WHERE key = 'run.no_sync'")" 1 "--no-sync tag"
expect_eq "$(sql "SELECT value FROM tags WHERE key = 'host.kernel'")" "$(uname -r)" "host.kernel"
# findmnt lists every mount stacked on D's mount point (a tmpfs mounted
# twice on /dev/shm, say): the last is the one D is on.
fs=$(findmnt -n -o FSTYPE --target "$D" | tail -n 1)
opts=$(findmnt -n -o OPTIONS --target "$D" | tail -n 1)
expect_eq "$(sql "SELECT value FROM tags WHERE key = 'host.fs'")" "$fs" "host.fs"
for k in host.mount_options host.ram_mib host.cpu_model; do
	expect_eq "$(sql "SELECT count(*) FROM tags WHERE key = '$k' AND value <> ''")" 1 "$k"
done
# Mount options hold commas: a selector writes them as '\,'.
mnt=$(sql "SELECT value FROM tags WHERE key = 'host.mount_options'")
expect_eq "$opts" "$mnt" "host.mount_options"
run "$BSTORE" list --json "host.mount_options=${mnt//,/\\,},host.fs=$fs"
expect_rc 0 "list by mount options"
expect_eq "$(wc -l <"$T/out")" 1 "list by mount options"
# Every test that ran has its latency summary.
expect_eq "$(sql "SELECT count(*) FROM latency WHERE mean_us > 0 AND p50_us > 0 AND p99_us >= p50_us")" \
	10 "latency rows (10 tests ran)"

# -x 2 -q: only CSV on stdout, each iteration its own run.
run "$BSTORE" run -d "$D" -s 4 -n 1 -r 0 -f -x 2 -q -m cli-test --no-sync
expect_rc 0 "run -x 2 -q"
expect_eq "$(wc -l <"$T/out")" 2 "-q: CSV lines on stdout"
expect_eq "$(nfields "$T/out" | sort -u)" 50 "-x CSV fields"
expect_in "$T/err" "Name:Size etc"
expect_in "$T/err" "Iteration 2 of 2"
expect_eq "$(sql "SELECT count(*) FROM runs")" 3 "runs after -x 2"
expect_eq "$(sql "SELECT count(DISTINCT seed) FROM runs WHERE id > 1")" 2 "a new seed per iteration"
cp "$T/out" "$T/two.csv"

# -s 0: no I/O tests, and no size in the bonnie view (bonnie++ prints
# none), not "0M".
run "$BSTORE" --db "$T/s0.db" run -d "$D" -s 0 -n 1 -r 0 -q --no-sync
expect_rc 0 "run -s 0"
expect_eq "$(sqlite3 -batch "$T/s0.db" "SELECT file_size_mib || ' ' || ifnull(size, 'NULL') || ' ' || put_block_status FROM bonnie")" \
	"0 NULL not_run" "-s 0 in the bonnie view"

# --no-store and the 1.03 layout (27 fields).
run "$BSTORE" run -d "$D" -s 4:4k -n 1:300:10:2 -r 0 -f -q --no-store --no-sync --csv-format 1.03 -m old
expect_rc 0 "run --csv-format 1.03"
expect_eq "$(nfields "$T/out")" 27 "1.03 CSV fields"
expect_in "$T/out" "old,4M:4k,,,"
expect_in "$T/out" ",1:300:10/2,"
expect_eq "$(sql "SELECT count(*) FROM runs")" 3 "--no-store stores nothing"

# Each iteration is a run of its own even when the lines are the same (the
# 1.03 layout has no seed; at this size most rates are +++++, so the lines
# often are; test_store checks identical lines for certain); ingesting a
# line later finds the first run that printed it.
run "$BSTORE" --db "$T/x103.db" run -d "$D" -s 4 -n 1 -r 0 -f -x 3 -q --no-sync --csv-format 1.03 -m same
expect_rc 0 "run -x 3 --csv-format 1.03"
expect_eq "$(wc -l <"$T/out")" 3 "three 1.03 lines"
expect_eq "$(sqlite3 -batch "$T/x103.db" "SELECT count(*) FROM runs")" 3 "three runs stored"
expect_eq "$(grep -c '^Stored as run' "$T/err")" 3 "each iteration says it is stored"
head -n 1 "$T/out" >"$T/same.csv"
run "$BSTORE" --db "$T/x103.db" ingest "$T/same.csv"
expect_rc 0 "ingest of a stored run's line"
expect_in "$T/out" "0 runs stored, 1 duplicate, 0 rejected"

# A full stdout loses the printout, not the run: the real reason, exit 1.
# This run syncs for real, and is not tagged run.no_sync.
run_full() { "$BSTORE" --db "$T/full.db" run -d "$D" -s 4 -n 1 -r 0 -f -q -m full >/dev/full 2>"$T/err"; }
rc=0
run_full || rc=$?
expect_eq "$rc" 1 "run > /dev/full"
expect_in "$T/err" "bstore: run: cannot write output: No space left on device (the results are stored)"
expect_eq "$(sqlite3 -batch "$T/full.db" "SELECT count(*) FROM runs")" 1 "run > /dev/full is stored"
expect_eq "$(sqlite3 -batch "$T/full.db" "SELECT count(*) FROM tags WHERE key LIKE 'run.%'")" 0 \
	"a run with syncs has no run.* tag"

# Debian's tools (from its bonnie++ package) accept the 1.98 lines.
if ! have bon_csv2txt bon_csv2html; then
	skip_part "the bon_csv2txt/bon_csv2html checks: '$missing' is not installed (Debian's bonnie++)"
else
	cat "$T/one.csv" "$T/two.csv" >"$T/all.csv"
	bon_csv2txt <"$T/all.csv" >"$T/txt" 2>"$T/txt.err" || fail "bon_csv2txt failed"
	expect_eq "$(cat "$T/txt.err")" "" "bon_csv2txt complaints"
	expect_in "$T/txt" "8M::8192:5"
	expect_eq "$(grep -c '^cli-test' "$T/txt")" 6 "bon_csv2txt rows (3 I/O, 3 file)"
	bon_csv2html <"$T/all.csv" >"$T/html" 2>"$T/html.err" || fail "bon_csv2html failed"
	expect_eq "$(cat "$T/html.err")" "" "bon_csv2html complaints"
	expect_eq "$(grep -o 'rowheader"><font size=+1>cli-test' "$T/html" | wc -l)" 3 "bon_csv2html rows"
fi

# Our own ingest reads the line back as a bstore run.
run "$BSTORE" --db "$T/ingest.db" ingest "$T/one.csv"
expect_rc 0 "ingest of bstore's CSV"
expect_eq "$(sqlite3 -batch "$T/ingest.db" "SELECT tool || ' ' || tool_version || ' ' || machine FROM runs")" \
	"bstore 0.1.0 cli-test" "ingested identity"

# Errors, each with a clear message and nothing left behind.
run "$BSTORE" run -d "$T/missing" -s 8 -n 1 -r 0 --no-store
expect_rc 1 "missing -d"
expect_in "$T/err" "bstore: run: cannot use directory '$T/missing': No such file or directory"

RO=$T/ro
mkdir -p "$RO"
ro_ok=0
if mount -t tmpfs -o ro,size=1m bstore-test "$RO" 2>/dev/null; then
	ro_ok=1
	trap 'umount "$RO" 2>/dev/null || true' EXIT
elif [ "$(id -u)" != 0 ]; then
	chmod 555 "$RO" && ro_ok=1
fi
if [ $ro_ok = 1 ]; then
	run "$BSTORE" run -d "$RO" -s 8 -n 1 -r 0 --no-store
	expect_rc 1 "read-only -d"
	expect_in "$T/err" "bstore: run: cannot write in directory '$RO': "
	if mountpoint -q "$RO"; then
		expect_in "$T/err" "Read-only file system"
		umount "$RO"
	fi
	chmod 755 "$RO"
else
	skip_part "the read-only -d check: cannot mount a read-only file system" \
		"here, and chmod does not stop root"
fi

# bonnie++'s rule: the file must be twice the RAM, unless -r 0.
run "$BSTORE" run -d "$D" -s 8 -n 1 -r 1024 --no-store
expect_rc 2 "file size under twice the RAM"
expect_in "$T/err" "file size 8M is less than twice the RAM (1024M)"
expect_in "$T/err" "-r 0"
expect_in "$T/err" "Try 'bstore run --help'."

run "$BSTORE" run -d "$D" -s 8:3000 -r 0 --no-store
expect_rc 2 "bad chunk"
expect_in "$T/err" "chunk size 3000 is not a power of 2"
run "$BSTORE" run -d "$D" -s 8 -r 0 -f 1 --no-store
expect_rc 2 "-f 1 (detached value, as bonnie++)"
expect_in "$T/err" "unexpected argument '1'"
# What the user typed is cut after 40 bytes and cleaned, in every message.
long=$(printf 'x%.0s' $(seq 1 100))
x40=$(printf 'x%.0s' $(seq 1 40))
for args in "-x $long" "-z $long" "--csv-format $long" "$long" "--$long"; do
	# shellcheck disable=SC2086 # one word or two, on purpose
	run "$BSTORE" run -d "$D" $args --no-store
	expect_rc 2 "run ${args:0:8}... (cut)"
	expect_in "$T/err" "xxxxxxxxxx...'"
	expect_not_in "$T/err" "${x40}x"
done
run "$BSTORE" run --csv-format "$(printf '1.9\033[2J')" --no-store
expect_in "$T/err" "got '1.9?[2J'"
run "$BSTORE" run -d "$D" -s
expect_rc 2 "-s without its value"
expect_eq "$(head -n 1 "$T/err")" "bstore: run: option '-s' needs an argument" \
	"-s without its value: the words of every command"
run "$BSTORE" run -d "$D" -m "a,b" -r 0 --no-store
expect_rc 2 "comma in -m"
run "$BSTORE" run -d "$D" --tag novalue -r 0 --no-store
expect_rc 2 "bad --tag"
run "$BSTORE" run -d "$D" -s 0 -n 0 -r 0
expect_rc 2 "-s 0 -n 0"
expect_in "$T/err" "bstore: run: nothing to run: -s 0 skips the I/O tests and -n 0 the file tests"
# --tag follows bstore tag's rules, and cannot fake what bstore records.
bad_tags=(run.direct=1 host.fs=zfs 'a,b=c' machine=x $'nl=a\nb')
for t in "${bad_tags[@]}"; do
	run "$BSTORE" run -d "$D" -s 4 -n 0 -r 0 --tag "$t"
	expect_rc 2 "--tag $t"
	expect_style "$T/err"
done
expect_in "$T/err" "--tag: tag 'nl' has a control character"
run "$BSTORE" run -d "$D" -s 8 -n 0 -r 0 -b --no-sync --no-store
expect_rc 2 "-b --no-sync"
expect_in "$T/err" "bstore: run: -b (fsync after every write) and --no-sync (no syncs at all) exclude each other"
run "$BSTORE" run -d "$D" --csv-format 2.0 -r 0 --no-store
expect_rc 2 "bad --csv-format"
run "$BSTORE" run -d "$D" -n 1:x -r 0 --no-store
expect_rc 2 "bad -n"
expect_in "$T/err" "-n: bad file test spec '1:x'"
expect_eq "$(ls -A "$D")" "" "scratch left after errors"
expect_eq "$(sql "SELECT count(*) FROM runs")" 3 "errors store nothing"

finish
