#!/usr/bin/env bash
# tests/cli/ingest.sh - bstore ingest as a user runs it: samples of every
# kind, duplicates, rejects, --strict, --dry-run, bad inputs, the round trip
# through export --format bonnie, and the bonnie view.
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3

# The captured outputs and pastes with CSV lines; the text-only tables
# (bonnie++-*-table-*.txt) are tests/cli/ingest_text.sh's.
bonnie_samples=()
for f in "$SAMPLES"/bonnie++-*.txt; do
	case $f in *-table-*) continue ;; esac
	bonnie_samples+=("$f")
done

# 1. Every bonnie++ sample: captured outputs and the pasted blog text.
run "$BSTORE" ingest "${bonnie_samples[@]}"
expect_rc 0 "ingest samples"
for f in "${bonnie_samples[@]}"; do
	n=$(grep -c '^[^ ]*,[^ ]*,.*,.*,.*,.*,.*,.*,.*,.*,.*,.*,' "$f" || true)
	expect_in "$T/out" "$f: $n run$([ "$n" = 1 ] || echo s) stored, 0 duplicates, 0 rejected"
done
expect_eq "$(sql 'select count(*) from runs')" 14 "runs stored from samples"
expect_eq "$(sql 'select count(*) from rejects')" 0 "rejects from samples"

# The CSV line of each captured output is stored exactly once, verbatim.
grep -h '^[^# ]*,.*,.*,.*,.*,.*,.*,.*,.*,.*,.*,' "${bonnie_samples[@]}" |
	tr -d '\r' >"$T/lines"
run "$BSTORE" export --format bonnie
expect_rc 0 "export bonnie"
if ! cmp -s "$T/lines" "$T/out"; then
	fail "export --format bonnie is not the input lines byte for byte"
	diff "$T/lines" "$T/out" | head >&2
fi

# 2. Duplicates: the same file again stores nothing new.
f=$SAMPLES/bonnie++-1.03-emc-raid5-cache.txt
run "$BSTORE" ingest "$f"
expect_rc 0 "ingest again"
expect_in "$T/out" "$f: 0 runs stored, 1 duplicate, 0 rejected"
expect_eq "$(sql 'select count(*) from runs')" 14 "runs after duplicate"

# 3. Statuses: +++++ is too_fast (never 0), empty is not_run.
expect_eq "$(sql "select seq_stat_status || ':' || ifnull(seq_stat, 'NULL')
	from runs where source like '%emc-raid5-cache%'")" "too_fast:NULL" \
	"+++++ stored as too_fast"
expect_eq "$(sql "select count(*) from runs where putc_status = 'not_run'
	and source like '%pasted-blog%'")" 6 "-f runs: putc not_run"
expect_eq "$(sql "select tool_version from runs
	where source like '%emc-raid5-cache%'")" "1.03" \
	"version taken from the text table of a 1.03 capture"
expect_eq "$(sql "select tool_version from runs
	where source like '%pasted-blog%' limit 1")" "1.03d" \
	"version taken from the pasted 1.03d table"

# 4. The bonnie view reads like bonnie++'s CSV header.
expect_eq "$(sql "select name, size, putc, put_block, seeks, seq_stat,
	seq_stat_status from bonnie where source like '%t3-raid5%'")" \
	"billing|4G|9915|30319|177.6||too_fast" "bonnie view"
expect_eq "$(sql "select name, put_block_latency_us from bonnie
	where version = '2.00a'")" "labvm01|8122" "latency in us"

# 5. A file with a malformed line: the rest is stored, the line is kept.
good1=$(grep '^1.98' "$SAMPLES/bonnie++-2.00a-local-full.txt" | sed 's/labvm01/goodbox/')
good2=$(echo "$good1" | sed 's/goodbox/goodbox2/')
bad=$(echo "$good1" | cut -d, -f1-31 | sed 's/goodbox/badbox/')
printf '%s\n%s\n%s\n' "$good1" "$bad" "$good2" >"$T/mixed.csv"
run "$BSTORE" ingest "$T/mixed.csv"
expect_rc 1 "ingest with a bad line"
expect_in "$T/err" "bstore: ingest: $T/mixed.csv:2: expected 50 fields for bonnie++ 1.98 CSV, found 31"
expect_in "$T/out" "$T/mixed.csv: 2 runs stored, 0 duplicates, 1 rejected"
expect_eq "$(sql "select line || '|' || raw from rejects
	where source = '$T/mixed.csv'")" "2|$bad" "reject kept verbatim"

run "$BSTORE" list --rejects
expect_rc 0 "list --rejects"
expect_in "$T/out" "$T/mixed.csv:2: expected 50 fields for bonnie++ 1.98 CSV, found 31"
expect_in "$T/out" "    1.98,2.00a,badbox,"

# 6. --strict stores no run from a file with a rejected line, before or
# after it, but keeps the rejected lines (nothing is lost).
strict2=$(echo "$good1" | sed 's/goodbox/strictbox2/')
printf '%s\n%s\n%s\n%s\n' "$(echo "$good1" | sed 's/goodbox/strictbox/')" \
	"$bad" "$strict2" "${bad/,/,,}" >"$T/strict.csv"
rejects_before=$(sql "select count(*) from rejects")
run "$BSTORE" ingest --strict "$T/strict.csv"
expect_rc 1 "ingest --strict"
expect_in "$T/err" "$T/strict.csv:2: "
expect_in "$T/err" "$T/strict.csv:4: "
expect_in "$T/err" "$T/strict.csv: 2 lines rejected; no run stored from this file (--strict); the rejected lines are kept (bstore list --rejects)"
expect_eq "$(sql "select count(*) from runs where machine like 'strictbox%'")" 0 \
	"--strict stored no run"
expect_eq "$(sql "select group_concat(line) from rejects where source = '$T/strict.csv'")" "2,4" \
	"--strict kept the rejected lines"
expect_eq "$(sql "select count(*) from rejects")" "$((rejects_before + 2))" \
	"--strict added only its own rejects"
cp "$T/strict.csv" "$T/strict-dry.csv"
run "$BSTORE" ingest --strict --dry-run "$T/strict-dry.csv"
expect_rc 1 "ingest --strict --dry-run"
expect_in "$T/err" "$T/strict-dry.csv: 2 lines rejected; no run stored from this file (--strict)"
expect_eq "$(grep -c 'are kept' "$T/err")" 0 "--strict --dry-run keeps nothing"
expect_eq "$(sql "select count(*) from rejects where source = '$T/strict-dry.csv'")" 0 \
	"--strict --dry-run stored no reject"

# 7. --dry-run stores nothing but reports what it would.
echo "$good1" | sed 's/goodbox/drybox/' >"$T/dry.csv"
run "$BSTORE" ingest --dry-run "$T/dry.csv"
expect_rc 0 "ingest --dry-run"
expect_in "$T/out" "$T/dry.csv: 1 run would be stored, 0 duplicates, 0 rejected"
expect_eq "$(sql "select count(*) from runs where machine = 'drybox'")" 0 \
	"--dry-run stored nothing"
# Where no archive exists yet, a dry run works in memory and makes none.
run "$BSTORE" --db "$T/none.db" ingest --dry-run "$T/dry.csv"
expect_rc 0 "ingest --dry-run without an archive"
expect_in "$T/out" "$T/dry.csv: 1 run would be stored, 0 duplicates, 0 rejected"
[ ! -e "$T/none.db" ] || fail "--dry-run made an archive"

# 8. Standard input, tags, --machine, --measured-at, CRLF line ends.
printf '%s\r\n' "$(echo "$good1" | sed 's/goodbox/crlfbox/')" |
	run "$BSTORE" ingest --tag raid=10 --tag 'array=EMC CX500' \
		--machine renamed --measured-at 2004-06-01
expect_rc 0 "ingest from stdin"
expect_in "$T/out" "<stdin>: 1 run stored, 0 duplicates, 0 rejected"
expect_eq "$(sql "select machine || '|' || datetime(measured_at, 'unixepoch')
	|| '|' || source from runs where raw like '%crlfbox%'")" \
	"renamed|2004-06-01 00:00:00|<stdin>" "stdin run"
expect_eq "$(sql "select group_concat(key || '=' || value, ';') from
	(select key, value from tags join runs on runs.id = run_id
	 where raw like '%crlfbox%' order by key)")" "array=EMC CX500;raid=10" \
	"tags from --tag"
expect_eq "$(sql "select count(*) from runs where raw like '%'||char(13)||'%'")" 0 \
	"CR stripped from stored lines"

# 8b. Pasted text: a numbered listing, and mail quotes. The list numbers
# and quote markers are not part of the machine name; the version comes
# from the table above; the stored raw text is the line as it was.
run "$BSTORE" ingest "$SRC/tests/data/pasted-listing.txt"
expect_rc 0 "numbered listing"
# Each CSV line follows its table: read with the table, stored (and
# counted) as the CSV line alone.
expect_in "$T/out" "2 runs stored, 0 duplicates, 0 rejected (bonnie++-csv-1.0x: 2)"
expect_eq "$(sql "select machine || ' ' || tool_version || ' ' || source_line
	from runs where source like '%pasted-listing%' order by id" | tr '\n' ' ')" \
	"manu 1.03e 12 tova 1.03e 17 " "numbered and quoted lines"
expect_eq "$(sql "select substr(raw, 1, 8) from runs where machine = 'manu'")" \
	"9. manu," "raw keeps the list number"

# 8c. Other tools' output is never a broken bonnie++ line: fio 3.33's
# normal output (its "issued rwts: total=..." lines hold ten
# comma-separated fields) is one fio run each, and nothing else.
run "$BSTORE" ingest "$SAMPLES/fio-3.33-randrw.txt" "$SAMPLES/fio-3.33-seqread.txt"
expect_rc 0 "fio output"
expect_in "$T/out" "fio-3.33-randrw.txt: 1 run stored, 0 duplicates, 0 rejected (fio-text: 1)"
expect_in "$T/out" "fio-3.33-seqread.txt: 1 run stored, 0 duplicates, 0 rejected (fio-text: 1)"
expect_eq "$(sql "select group_concat(distinct family) from runs
	where source like '%fio-3.33-%'")" "fio" "fio output gives fio runs only"
expect_not_in "$T/err" "expected 27 fields"
# A file of prose: no result, and where to look.
printf 'We ran the tests last week.\nNumbers follow, maybe.\n' >"$T/prose.txt"
run "$BSTORE" ingest "$T/prose.txt"
expect_rc 0 "prose"
expect_in "$T/err" "$T/prose.txt: no results found (none of the $(grep -c '^	{ BS_FMT_' "$SRC/ingest/formats.c") formats matched; 'bstore ingest --formats' lists them)"
run "$BSTORE" ingest --format fio-json "$T/prose.txt"
expect_in "$T/err" "$T/prose.txt: no results found (tried fio-json only)"

# 8d. --formats lists the registry; --format forces one of its formats.
run "$BSTORE" ingest --formats
expect_rc 0 "--formats"
expect_in "$T/out" "bonnie++-csv-1.98"
expect_in "$T/out" "bonnie++ 1.00-1.04 CSV line (27 fields, no version)"
run "$BSTORE" ingest --format nosuch "$SRC/tests/data/pasted-listing.txt"
expect_rc 2 "unknown --format"
expect_in "$T/err" "unknown format 'nosuch' (bstore ingest --formats lists them)"
# With --format every result line is read as that format: a 1.0x line
# of a machine called "1.95" as usual, a 1.98 line as a broken 1.0x one.
{
	printf '1.95,2G,10874,85,52615,35,18392,12,12760,90,48394,9,103.9,0,16,13055,93,+++++,+++,15189,87,12872,95,+++++,+++,20590,99\n'
	grep -m1 '^1.98,' "$SRC/tests/data/formats-lines.csv"
} >"$T/forced.csv"
run "$BSTORE" ingest --format bonnie++-csv-1.0x "$T/forced.csv"
expect_rc 1 "--format bonnie++-csv-1.0x"
expect_in "$T/err" "forced.csv:2: expected 27 fields for bonnie++ 1.0x CSV, found 50"
expect_eq "$(sql "select machine || ' ' || cast(put_block as int) from runs
	where source like '%forced.csv'")" "1.95 52615" "--format reads as forced"

# 9. Inputs that are not results at all.
run "$BSTORE" ingest "$T/does-not-exist.csv"
expect_rc 1 "missing file"
expect_in "$T/err" "bstore: ingest: cannot open '$T/does-not-exist.csv': No such file or directory"

: >"$T/empty.csv"
run "$BSTORE" ingest "$T/empty.csv"
expect_rc 1 "empty file"
expect_eq "$(cat "$T/err")" "bstore: ingest: $T/empty.csv: empty input; nothing stored" "empty file"
expect_eq "$(cat "$T/out")" "" "empty file: no summary"
run "$BSTORE" ingest </dev/null
expect_rc 1 "empty standard input"
expect_eq "$(cat "$T/err")" "bstore: ingest: <stdin>: empty input; nothing stored" "empty stdin"

head -c 65536 /dev/urandom >"$T/garbage.bin"
printf '\0' >>"$T/garbage.bin"
run "$BSTORE" ingest "$T/garbage.bin"
expect_rc 1 "binary garbage"
expect_in "$T/err" "not a text file"

run "$BSTORE" ingest "$T"
expect_rc 1 "a directory"
expect_in "$T/err" "Is a directory"

# A 100 MB line: rejected with its size, cut in the rejects table; the
# good line after it is still stored.
{
	head -c 104857600 /dev/zero | tr '\0' 'x'
	echo
	echo "$good1" | sed 's/goodbox/afterlong/'
} >"$T/long.csv"
run "$BSTORE" ingest "$T/long.csv"
expect_rc 1 "100 MB line"
expect_in "$T/err" "$T/long.csv:1: line is 104857600 bytes, longer than the 1 MiB limit"
expect_eq "$(sql "select count(*) from runs where machine = 'afterlong'")" 1 \
	"line after the long one stored"
expect_eq "$(sql "select length(raw) || '|' || truncated from rejects
	where source = '$T/long.csv'")" "65536|1" "long line kept cut"

# 10. Several files: a bad one is reported, the others are kept.
run "$BSTORE" ingest "$T/does-not-exist.csv" "$SAMPLES/bonnie++-1.03-t3-raid5.txt"
expect_rc 1 "one missing among several"
expect_in "$T/out" "bonnie++-1.03-t3-raid5.txt: 0 runs stored, 1 duplicate, 0 rejected"

# 11. Usage errors exit 2 and say how to get help.
run "$BSTORE" ingest --tag novalue "$f"
expect_rc 2 "bad --tag"
expect_in "$T/err" "Try 'bstore ingest --help'."
run "$BSTORE" ingest --measured-at yesterday "$f"
expect_rc 2 "bad --measured-at"
run "$BSTORE" ingest --help
expect_rc 0 "--help"
expect_in "$T/out" "Usage: bstore ingest"

# 12. SIGINT in the middle of a file: exit 130, nothing from that file is
# stored, the archive is as it was before.
# The second line waits until the FIFO hold is opened and closed: the
# signal comes while bstore, having read the first, waits for more, and
# the second then ends that read.
before=$(sql 'select count(*) from runs')
mkfifo "$T/hold"
set +e
{
	echo "$good1" | sed 's/goodbox/sigbox1/'
	cat "$T/hold"
	echo "$good1" | sed 's/goodbox/sigbox2/'
} | env --default-signal=INT "$BSTORE" ingest >"$T/out" 2>"$T/err" &
pid=$!
wait_syscall "$pid" read 0x0
kill -INT "$pid"
: >"$T/hold"
wait "$pid"
rc=$?
set -e
expect_rc 130 "ingest interrupted by SIGINT"
expect_in "$T/err" "<stdin>: interrupted; nothing stored from this file"
expect_eq "$(sql 'select count(*) from runs')" "$before" "nothing stored after SIGINT"

# SIGTERM between files (here: while opening a FIFO nobody writes to):
# the files read are kept, and it says which were not read.
mkfifo "$T/stuck"
rm -f "$T/out" # polled below: nothing of an earlier command's
set +e
"$BSTORE" --db "$T/sig.db" ingest "$SAMPLES/bonnie++-1.03-t3-raid5.txt" "$T/stuck" \
	"$SAMPLES/bonnie++-2.00a-local-full.txt" "$SAMPLES/bonnie++-1.03-ata-raid10-cache.txt" \
	>"$T/out" 2>"$T/err" &
pid=$!
wait_syscall "$pid" poll
kill -TERM "$pid"
wait "$pid"
rc=$?
set -e
rm -f "$T/stuck"
expect_rc 143 "ingest interrupted by SIGTERM between files"
expect_in "$T/out" "bonnie++-1.03-t3-raid5.txt: 1 run stored"
expect_in "$T/err" "bstore: ingest: $T/stuck: interrupted; nothing stored from this file"
expect_in "$T/err" "bstore: ingest: interrupted; 2 more files not read, from '$SAMPLES/bonnie++-2.00a-local-full.txt' on"
expect_style "$T/err"
expect_eq "$(sqlite3 -batch "$T/sig.db" "select count(*) from runs")" 1 \
	"runs kept: those of the file read"

# A signal ignored at the start stays ignored (nohup's SIGHUP): the
# ingest goes on and stores its file.
set +e
{
	echo "$good1" | sed 's/goodbox/hupbox/'
	cat "$T/hold"
} | env --ignore-signal=HUP "$BSTORE" --db "$T/hup.db" ingest >"$T/out" 2>"$T/err" &
pid=$!
wait_syscall "$pid" read 0x0
kill -HUP "$pid"
: >"$T/hold"
wait "$pid"
rc=$?
set -e
expect_rc 0 "ingest under nohup after SIGHUP"
expect_eq "$(sqlite3 -batch "$T/hup.db" "select machine from runs")" hupbox \
	"the run of an ingest that ignored SIGHUP"

# 13. Odd inputs: a FIFO, /dev/null, a file deleted while it is read, a
# name with a newline, a directory; every message on one line, in
# bstore's form.
mkfifo "$T/fifo"
(echo "$good1" | sed 's/goodbox/fifobox/' >"$T/fifo") &
run "$BSTORE" ingest "$T/fifo"
wait
expect_rc 0 "ingest a FIFO"
expect_in "$T/out" "$T/fifo: 1 run stored, 0 duplicates, 0 rejected"

# A FIFO nobody writes to is waited on, as cat would; SIGINT ends the wait.
# (A background job of a script starts with SIGINT ignored, which bstore
# keeps, as nohup wants: env gives the job SIGINT back.)
mkfifo "$T/fifo-idle"
set +e
env --default-signal=INT "$BSTORE" ingest "$T/fifo-idle" >"$T/out" 2>"$T/err" &
pid=$!
wait_syscall "$pid" poll
kill -INT "$pid"
wait "$pid"
rc=$?
set -e
expect_rc 130 "SIGINT while waiting for a FIFO's writer"
expect_eq "$(cat "$T/err")" "bstore: ingest: $T/fifo-idle: interrupted; nothing stored from this file" \
	"SIGINT while waiting for a FIFO's writer"

run "$BSTORE" ingest /dev/null
expect_rc 1 "ingest /dev/null"
expect_eq "$(cat "$T/err")" "bstore: ingest: /dev/null: empty input; nothing stored" \
	"/dev/null"

echo "$good1" | awk -F, -v OFS=, '{for (i = 1; i <= 20000; i++) {$3 = "del" i; print}}' \
	>"$T/deleted.csv"
"$BSTORE" ingest "$T/deleted.csv" >"$T/out" 2>"$T/err" &
pid=$!
# Deleted once bstore has it open (or, at worst, after it is done).
for i in $(seq 1 200); do
	case "$(ls -l "/proc/$pid/fd" 2>/dev/null)" in *deleted.csv*) break ;; esac
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.01
done
rm "$T/deleted.csv"
set +e
wait "$pid"
rc=$?
set -e
expect_rc 0 "ingest a file deleted while read"
expect_eq "$(sql "select count(*) from runs where machine like 'del%'")" 20000 \
	"runs of a file deleted while read"

run "$BSTORE" ingest "$T/"$'no\nsuch.csv'
expect_rc 1 "missing file with a newline in its name"
expect_eq "$(cat "$T/err")" "bstore: ingest: cannot open '$T/no?such.csv': No such file or directory" \
	"control characters in a file name"

run "$BSTORE" ingest "$T"
expect_eq "$(cat "$T/err")" "bstore: ingest: cannot read '$T': Is a directory" \
	"directory: one clear message"

for f in "$T/mixed.csv" "$T/garbage.bin" "$T/does-not-exist.csv"; do
	run "$BSTORE" ingest "$f"
	expect_style "$T/err"
done

# 14. Odd options: tags that no selector could find or that break a line,
# impossible dates; usage errors that store nothing.
before=$(sql 'select count(*) from runs')
echo "$good1" | sed 's/goodbox/optbox/' >"$T/opt.csv"
for o in "--tag=k=a"$'\n'"b" "--tag=machine=x" "--tag=a,b=c" "--tag==v" \
	"--machine=$(head -c 65537 /dev/zero | tr '\0' a)" "--measured-at=2023-02-31" \
	"--measured-at=2023-13-01" "--measured-at=2023-01-01 24:00" \
	"--measured-at=@" "--tag"; do
	run "$BSTORE" ingest "$o" "$T/opt.csv"
	expect_rc 2 "ingest $o"
	expect_style "$T/err"
	expect_in "$T/err" "Try 'bstore ingest --help'."
done
expect_eq "$(sql 'select count(*) from runs')" "$before" "bad options stored nothing"
run "$BSTORE" ingest --tag empty= --measured-at 2024-02-29 "$T/opt.csv"
expect_rc 0 "empty tag value, leap day"
expect_eq "$(sql "select key || '=' || value || '|' || date(measured_at, 'unixepoch')
	from tags join runs on runs.id = run_id where machine = 'optbox'")" \
	"empty=|2024-02-29" "empty tag value, leap day"

# 15. Concurrent ingests into one archive, also when it does not exist
# yet: the second process waits for the first one's lock, both succeed.
for i in 1 2 3; do
	rm -f "$T/conc.db"*
	pids=()
	for f in 1.03-t3-raid5 2.00a-local-full 1.03-emc-raid5-cache; do
		"$BSTORE" --db "$T/conc.db" ingest "$SAMPLES/bonnie++-$f.txt" \
			>"$T/conc-$f.out" 2>"$T/conc-$f.err" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || fail "concurrent ingest into a new archive: $(cat "$T"/conc-*.err)"
	done
	expect_eq "$(sqlite3 "$T/conc.db" 'select count(*) from runs')" 3 \
		"runs from concurrent ingests"
done

# Another process holds the write lock until the FIFO hold is opened and
# closed, 5.5 s after ingest started waiting for it (longer than SQLite's
# usual 5 s busy timeout): ingest waits and stores; a SIGINT ends the wait
# of another one at once, storing nothing.
(
	echo 'BEGIN IMMEDIATE;'
	cat "$T/hold"
	echo 'COMMIT;'
) | sqlite3 "$DB" &
holder=$!
# sqlite3 does not wait: "database is locked" once the holder has it.
for i in $(seq 1 1500); do
	sqlite3 -batch "$DB" "BEGIN IMMEDIATE; ROLLBACK;" >/dev/null 2>&1 || break
	sleep 0.02
done
echo "$good1" | sed 's/goodbox/waitbox/' >"$T/wait.csv"
echo "$good1" | sed 's/goodbox/intbox/' >"$T/int.csv"
"$BSTORE" ingest "$T/wait.csv" >"$T/wait.out" 2>"$T/wait.err" &
waiter=$!
env --default-signal=INT "$BSTORE" ingest "$T/int.csv" >"$T/out" 2>"$T/err" &
intr=$!
# Both wait for the lock in short sleeps (store/open.c, bs_store_on_busy).
wait_syscall "$waiter" sleep
wait_syscall "$intr" sleep
kill -INT "$intr"
set +e
wait "$intr"
rc=$?
set -e
expect_rc 130 "SIGINT while waiting for the lock"
expect_eq "$(cat "$T/err")" "bstore: ingest: $T/int.csv: interrupted; nothing stored from this file" \
	"SIGINT while waiting for the lock"
kill -0 "$holder" 2>/dev/null || fail "SIGINT did not end the wait before the lock was released"
sleep 5.5
: >"$T/hold"
set +e
wait "$waiter"
rc=$?
set -e
expect_rc 0 "ingest waiting for another process's lock"
expect_in "$T/wait.out" "$T/wait.csv: 1 run stored, 0 duplicates, 0 rejected"
wait "$holder"
expect_eq "$(sql "select count(*) from runs where machine = 'intbox'")" 0 \
	"nothing stored by the interrupted ingest"


# A regular file cannot stall: it is read while it is stored, never held
# whole in memory; a pipe can, and is read whole before the lock is taken
# (docs/ingest.md). 24 MiB of prose after one CSV line: the pipe's peak
# memory holds it, the file's (named, or as standard input) does not.
if have /usr/bin/time; then
	{
		echo "$good1" | sed 's/goodbox/bigbox/'
		awk 'BEGIN { for (i = 0; i < 360000; i++)
			print "a line of prose that no format reads, there to make the input large" }'
	} >"$T/big.txt"
	peak_of() { # ARCHIVE [FILE]: ingest's peak RSS in KiB, stdin as given
		/usr/bin/time -f '%M' -o "$T/rss" "$BSTORE" --db "$1" --quiet \
			ingest ${2:+"$2"} >/dev/null 2>&1 || fail "ingest of big.txt into $1"
		cat "$T/rss"
	}
	named=$(peak_of "$T/big1.db" "$T/big.txt")
	redirected=$(peak_of "$T/big2.db" <"$T/big.txt")
	piped=$(cat "$T/big.txt" | peak_of "$T/big3.db")
	for db in big1 big2 big3; do
		expect_eq "$(sqlite3 "$T/$db.db" "select count(*) from runs where machine = 'bigbox'")" 1 \
			"the run of big.txt in $db"
	done
	[ $((piped - named)) -ge 16384 ] ||
		fail "a named regular file was buffered whole: peak $named KiB, piped $piped KiB"
	[ $((piped - redirected)) -ge 16384 ] ||
		fail "a regular file as stdin was buffered whole: peak $redirected KiB, piped $piped KiB"
else
	skip_part "no /usr/bin/time: the memory of a regular file's ingest is not checked"
fi

finish
