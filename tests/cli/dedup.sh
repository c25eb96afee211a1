#!/usr/bin/env bash
# tests/cli/dedup.sh - one measurement, one run (docs/ingest.md): bonnie++
# -q's CSV line on standard output and its table on standard error,
# ingested as two files in either order, are one run, and the second says
# "duplicate of run N". Runs that differ (another machine, another value)
# stay two. With bonnie++ installed, a fresh pair is made by a real run.
set -euo pipefail
. "$SRC/tests/lib.sh"

D=$SRC/tests/data
CSV=$D/bonnie++-2.00a-q-stdout.csv
TXT=$D/bonnie++-2.00a-q-stderr.txt

# pair CSV TXT NAME: the two files, in both orders, into new archives.
pair() {
	local csv=$1 txt=$2 name=$3
	rm -f "$T/a.db"*
	run "$BSTORE" --db "$T/a.db" ingest "$csv"
	expect_rc 0 "$name: ingest the CSV line"
	run "$BSTORE" --db "$T/a.db" ingest "$txt"
	expect_rc 0 "$name: ingest the table after it"
	expect_in "$T/out" "$txt:4: duplicate of run 1 (the same measurement, read from other text)"
	expect_in "$T/out" "$txt: 0 runs stored, 1 duplicate, 0 rejected"
	expect_eq "$(sqlite3 -batch "$T/a.db" "SELECT count(*) FROM runs")" 1 \
		"$name: runs after the CSV line and the table"
	"$BSTORE" --db "$T/a.db" export --format json >"$T/line-first.json"
	"$BSTORE" --db "$T/a.db" export --format bonnie >"$T/line-first.csv"
	cmp "$T/line-first.csv" "$csv" ||
		fail "$name: export --format bonnie is not the CSV line byte for byte"
	rm -f "$T/a.db"*
	run "$BSTORE" --db "$T/a.db" ingest "$txt" "$csv"
	expect_rc 0 "$name: ingest the table, then the CSV line"
	expect_in "$T/out" "$csv:1: duplicate of run 1 (the same measurement, read from other text: this CSV line's exact numbers replace its table's)"
	expect_eq "$(sqlite3 -batch "$T/a.db" "SELECT count(*) FROM runs")" 1 \
		"$name: runs after the table and the CSV line"
	# The more exact text wins whichever comes first: the same archive.
	"$BSTORE" --db "$T/a.db" export --format json >"$T/table-first.json"
	"$BSTORE" --db "$T/a.db" export --format bonnie >"$T/table-first.csv"
	cmp "$T/table-first.csv" "$csv" ||
		fail "$name: after the table, export --format bonnie is not the CSV line"
	cmp "$T/table-first.json" "$T/line-first.json" ||
		fail "$name: the table first gives another archive than the line first"
}

pair "$CSV" "$TXT" "the committed pair"
# On a disk: the table rounds (312m for 319885 KiB/s) and misprints the
# file tests (4096/s for 1541/s), which the CSV line has exact.
DCSV=$D/bonnie++-2.00a-q-disk-stdout.csv
DTXT=$D/bonnie++-2.00a-q-disk-stderr.txt
pair "$DCSV" "$DTXT" "the disk pair"
rm -f "$T/a.db"*
run "$BSTORE" --db "$T/a.db" ingest -t raid=1 "$DTXT"
run "$BSTORE" --db "$T/a.db" set 1 measured_at=2026-01-02T03:04:05
run "$BSTORE" --db "$T/a.db" ingest "$DCSV"
expect_eq "$(sqlite3 -batch "$T/a.db" "SELECT put_block, seq_create, seq_create_status, format FROM runs")" \
	"319885.0|1541.0|ok|bonnie++-csv-1.98" "the line's exact numbers replace the table's"
expect_eq "$(sqlite3 -batch "$T/a.db" "SELECT key, value FROM tags")" "raid|1" \
	"the table's tags stay with the run"
expect_eq "$(sqlite3 -batch "$T/a.db" "SELECT count(*) FROM run_history WHERE run_id = 1")" 1 \
	"the run's history stays with it"

# Not the same: another machine's table (-m), or a value that differs at
# the table's precision (341m against the line's 348351 KiB/s: 340m).
rm -f "$T/a.db"*
run "$BSTORE" --db "$T/a.db" ingest "$CSV"
run "$BSTORE" --db "$T/a.db" ingest -m other "$TXT"
expect_in "$T/out" "$TXT: 1 run stored, 0 duplicates"
sed 's/ 340m  23 / 341m  23 /' "$TXT" >"$T/other-value.txt"
run "$BSTORE" --db "$T/a.db" ingest "$T/other-value.txt"
expect_in "$T/out" "other-value.txt: 1 run stored, 0 duplicates"
# Another CPU % is another run too.
sed 's/ 340m  23 / 340m  24 /' "$TXT" >"$T/other-cpu.txt"
run "$BSTORE" --db "$T/a.db" ingest "$T/other-cpu.txt"
expect_in "$T/out" "other-cpu.txt: 1 run stored, 0 duplicates"
# Two CSV lines of the same values are two runs (only a table and a line
# are one measurement): a copy with another seed field.
sed 's/,1796134295,/,1796134296,/' "$CSV" >"$T/other-seed.csv"
run "$BSTORE" --db "$T/a.db" ingest "$T/other-seed.csv"
expect_in "$T/out" "other-seed.csv: 1 run stored, 0 duplicates"
expect_eq "$(sqlite3 -batch "$T/a.db" "SELECT count(*) FROM runs")" 5 "runs that differ"

# bstore set machine= moves the run's key: the table of a renamed run,
# ingested with the same -m, is still the same measurement.
rm -f "$T/a.db"*
run "$BSTORE" --db "$T/a.db" ingest "$CSV"
run "$BSTORE" --db "$T/a.db" set 1 machine=box
run "$BSTORE" --db "$T/a.db" ingest -m box "$TXT"
expect_in "$T/out" "duplicate of run 1"

# Two measurements, one text: two nightly mails whose bonnie++ 1.03 CSV
# lines are the same bytes, under two Date: headers, are two runs; the
# same mailbox again is stored once. So are one file's bytes under two
# --measured-at; a run of unknown date matches any.
MB=$D/bonnie++-1.03-nightly-mbox.txt
rm -f "$T/a.db"*
run "$BSTORE" --db "$T/a.db" ingest "$MB"
expect_rc 0 "ingest the two mails"
expect_in "$T/out" "$MB: 2 runs stored, 0 duplicates, 0 rejected"
run "$BSTORE" --db "$T/a.db" ingest "$MB"
expect_in "$T/out" "$MB: 0 runs stored, 2 duplicates, 0 rejected"
expect_eq "$(sqlite3 -batch "$T/a.db" "SELECT group_concat(datetime(measured_at, 'unixepoch'), ' ') FROM runs")" \
	"2026-12-01 02:00:00 2026-12-02 02:00:00" "one run a Date:"
rm -f "$T/a.db"*
run "$BSTORE" --db "$T/a.db" ingest --measured-at 2026-01-01 "$CSV"
run "$BSTORE" --db "$T/a.db" ingest --measured-at 2026-01-02 "$CSV"
expect_in "$T/out" "$CSV: 1 run stored, 0 duplicates"
run "$BSTORE" --db "$T/a.db" ingest --measured-at 2026-01-01 "$CSV"
expect_in "$T/out" "$CSV: 0 runs stored, 1 duplicate"
run "$BSTORE" --db "$T/a.db" ingest "$CSV"
expect_in "$T/out" "$CSV: 0 runs stored, 1 duplicate"
expect_eq "$(sqlite3 -batch "$T/a.db" "SELECT count(*) FROM runs")" 2 \
	"one text under two --measured-at: two runs"

# A real bonnie++ -q run, tiny, in a scratch directory.
if have bonnie++; then
	mkdir -p "$T/bonnie"
	set +e
	bonnie++ -q -d "$T/bonnie" -s 64:4k -r 8 -n 1 -u root -f -m dedup \
		>"$T/run.csv" 2>"$T/run.txt"
	brc=$?
	set -e
	expect_eq "$brc" 0 "bonnie++ -q"
	pair "$T/run.csv" "$T/run.txt" "a fresh bonnie++ -q run"
else
	skip_part "a fresh bonnie++ -q run: bonnie++ is not installed"
fi
finish
