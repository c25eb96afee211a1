#!/usr/bin/env bash
# tests/cli/set.sh - runs without a machine or a date (issue 21): ingest
# says how many runs it stored with no machine and how to name them;
# bstore set changes a run's machine and date, keeping every old value in
# run_history, which show lists; list and show say "unknown machine";
# re-ingesting a stored run with --measured-at or -m keeps it as it was
# and names bstore set.
set -euo pipefail
. "$SRC/tests/lib.sh"

SB=$SAMPLES/sysbench-1.0.20-rndrd.txt
FIO=$SAMPLES/fio-3.33-two-jobs.json

# No machine in the output: how many, and how to name them.
run "$BSTORE" ingest "$SB" "$FIO"
expect_rc 0 "ingest sysbench and fio"
expect_eq "$(cat "$T/err")" "bstore: ingest: warning: $SB: 1 run stored with no machine name (the output names none): 'bstore set 1 machine=NAME' names it, or ingest with -m NAME
bstore: ingest: warning: $FIO: 2 runs stored with no machine name (the output names none): 'bstore set 2-3 machine=NAME' names them, or ingest with -m NAME" \
	"the runs with no machine"
# -m names them: nothing to say.
run "$BSTORE" ingest -m db1 "$SAMPLES/sysbench-1.0.20-seqrd.txt"
expect_rc 0 "ingest -m"
expect_eq "$(cat "$T/err")" "" "ingest -m: no warning"
expect_eq "$(sql "SELECT machine FROM runs WHERE id = 4")" "db1" "-m's machine"
# A dry run says it too, without ids that would not exist.
run "$BSTORE" ingest -n "$SAMPLES/sysbench-1.0.20-seqwr.txt"
expect_eq "$(cat "$T/err")" "bstore: ingest: warning: $SAMPLES/sysbench-1.0.20-seqwr.txt: 1 run would be stored with no machine name (the output names none): ingest with -m NAME names it" \
	"dry run: the runs with no machine"

# Words a person reads as such, in list and show.
run "$BSTORE" list 1
expect_in "$T/out" "unknown machine"
run "$BSTORE" show 1
expect_in "$T/out" "Run 1: unknown machine, sysbench 1.0.20"

# set: machine and date, each change kept.
SOURCE_DATE_EPOCH=1700000000 run "$BSTORE" set 1 machine=db2 'measured_at=2024-03-15 10:00'
expect_rc 0 "set machine and measured_at"
expect_eq "$(cat "$T/out")" "changed 2 fields of 1 run" "set's summary"
SOURCE_DATE_EPOCH=1700000100 run "$BSTORE" set 1-3 machine=db3
expect_rc 0 "set on a range"
expect_eq "$(cat "$T/out")" "changed 3 fields of 3 runs" "set on a range: summary"
# The same value again: no change, no history row.
run "$BSTORE" set 1 machine=db3
expect_eq "$(cat "$T/out")" "changed 0 fields of 1 run" "set to the value it has"
expect_eq "$(sql "SELECT machine, datetime(measured_at, 'unixepoch') FROM runs WHERE id = 1")" \
	"db3|2024-03-15 10:00:00" "the run's new machine and date"
expect_eq "$(sql "SELECT run_id, field, quote(old_value), quote(new_value), changed_at FROM run_history ORDER BY id")" \
	"1|machine|''|'db2'|1700000000
1|measured_at|NULL|1710496800|1700000000
1|machine|'db2'|'db3'|1700000100
2|machine|''|'db3'|1700000100
3|machine|''|'db3'|1700000100" "run_history"
run "$BSTORE" show 1
expect_in "$T/out" "History (bstore set):
  2023-11-14T22:13:20Z  machine: unknown machine -> 'db2'
  2023-11-14T22:13:20Z  measured_at: unknown -> 2024-03-15T10:00:00Z
  2023-11-14T22:48:20Z  machine: 'db2' -> 'db3'"
expect_eq "$(grep -c "History" "$T/out")" 1 "one History section"
run "$BSTORE" show 4
expect_not_in "$T/out" "History"
# The selectors see the new values; a date back to unknown.
run "$BSTORE" export -f json machine=db3
expect_eq "$(wc -l <"$T/out")" 3 "machine=db3 selects the renamed runs"
run "$BSTORE" set 1 measured_at=
expect_eq "$(sql "SELECT quote(measured_at) FROM runs WHERE id = 1")" "NULL" "measured_at= is unknown"
expect_eq "$(sql "SELECT quote(new_value) FROM run_history ORDER BY id DESC LIMIT 1")" "NULL" \
	"the history of measured_at="
# rm takes the history with the run.
run "$BSTORE" rm 3
expect_eq "$(sql "SELECT count(*) FROM run_history WHERE run_id = 3")" 0 "history of a removed run"

# Bad uses: usage errors, the archive untouched.
before=$(sql "SELECT count(*) FROM run_history")
for args in "1" "1 date=2024" "1 raid=5" "1 machine" "1 measured_at=2024x"; do
	# shellcheck disable=SC2086
	run "$BSTORE" set $args
	expect_rc 2 "set $args"
done
run "$BSTORE" set 1 date=2024
expect_eq "$(head -n 1 "$T/err")" "bstore: set: 'date=2024' is not FIELD=VALUE with FIELD one of machine=, measured_at=, or a parameter (bstore show lists a run's); tags are set with bstore tag" \
	"set date="
run "$BSTORE" set 1 measured_at=2024x
expect_in "$T/err" "bstore: set: measured_at: '2024x' is not a date"
run "$BSTORE" set 99 machine=x
expect_rc 1 "set of no run"
expect_eq "$(sql "SELECT count(*) FROM run_history")" "$before" "history after bad uses"

# merge carries a run's history with it (run_history refers to runs).
run "$BSTORE" --db "$T/merged.db" merge "$DB"
expect_rc 0 "merge an archive with history"
expect_eq "$(sqlite3 -batch "$T/merged.db" "SELECT count(*) FROM run_history")" \
	"$(sql "SELECT count(*) FROM run_history")" "history rows merged"
run "$BSTORE" --db "$T/merged.db" show 1
expect_in "$T/out" "machine: unknown machine -> 'db2'"

# A tag cannot be a run field: for machine and date, the message names
# bstore set.
run "$BSTORE" tag 1 date=2024-01-01
expect_rc 2 "tag date="
expect_eq "$(head -n 1 "$T/err")" "bstore: tag: 'date' is a run field, not a tag key (selectors read it from the run); bstore set changes a run's machine= and measured_at=" \
	"tag date= names bstore set"

# Re-ingesting a stored run with --measured-at or -m: kept as it was,
# and the warning names bstore set (it used to say "1 duplicate" alone).
run "$BSTORE" ingest --measured-at 2024-01-10 -m sb "$SB"
expect_rc 0 "re-ingest with --measured-at"
expect_in "$T/out" "$SB: 0 runs stored, 1 duplicate"
expect_eq "$(cat "$T/err")" "bstore: ingest: warning: $SB:2: run 1 is stored already and kept as it was (measured at an unknown date, on db3); 'bstore set 1 measured_at=2024-01-10T00:00:00Z machine=sb' changes it" \
	"re-ingest with --measured-at and -m"
run "$BSTORE" set 1 measured_at=2024-01-10T00:00:00Z machine=sb
expect_rc 0 "the set the warning names"
run "$BSTORE" ingest --measured-at 2024-01-10 -m sb "$SB"
expect_eq "$(cat "$T/err")" "" "re-ingest with the values it has: no warning"
# A history that cannot be read fails show in one line, and leaks
# nothing (the asan preset runs this too).
sql "ALTER TABLE run_history RENAME TO run_history_gone"
run "$BSTORE" show 1
expect_rc 1 "show without its history"
expect_in "$T/err" "bstore: show: "
expect_eq "$(wc -l <"$T/err")" 1 "lines of show's failure"
sql "ALTER TABLE run_history_gone RENAME TO run_history"
finish
