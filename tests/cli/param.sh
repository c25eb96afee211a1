#!/usr/bin/env bash
# tests/cli/param.sh - parameters the output leaves out, supplied by the
# user (docs/ingest.md, "Parameters the output leaves out"), on real
# captures (tests/data/identity/make.sh made them): the same fio job in
# json, normal and terse output. Unsupplied, normal and terse "can't
# tell"; the report's hint is the command that supplies the value, and
# once run (or given as ingest --param), the three compare as the same
# test, with verdicts. A value the output printed is never replaced; what
# was supplied is shown, exported, read back and merged as supplied.
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq

I=$SRC/tests/data/identity
run "$BSTORE" ingest -m box "$I"/fio-3.33-rr4k-json.out \
	"$I"/fio-3.33-rr4k-normal.out "$I"/fio-3.33-rr4k-terse.out
expect_rc 0 "ingest the fio job"
id_of() { "$BSTORE" list --json "$@" | jq -r .id | paste -sd' ' -; }
FJ=$(id_of format=fio-json)
FN=$(id_of format=fio-text)
FT=$(id_of format=fio-terse)

# verdicts REPORT.json: every verdict of its non-baseline cells, once.
verdicts() {
	jq -r '[.metrics[].cells[1:][] | .verdict | select(. != "")] |
		unique | join(",")' "$1"
}
# same_test WHAT REPORT.json: every cell compared as the same test, with
# a verdict (the fio job's runs differ by noise: within noise or not
# significant, untested with one run a side).
same_test() {
	local v
	v=$(verdicts "$2")
	[ -n "$v" ] || fail "$1: no verdict"
	case ",$v," in
	*,apart,* | *,cant_tell,* | *,related,* | *,mixed_group,*)
		fail "$1: not compared as the same test ($v)" ;;
	esac
	return 0
}
# hint REPORT.json: the command a can't-tell note gives, as printed.
hint() {
	{ jq -r '.notes[]' "$1" | grep -o '`bstore set [^`]*`' || true; } |
		head -n 1 | tr -d '`'
}

# 1. Unsupplied: can't tell, and the hint names the run by id.
"$BSTORE" report -f json "$FJ" "$FN" >"$T/r.json"
expect_eq "$(verdicts "$T/r.json")" "cant_tell" "json against normal, unsupplied"
expect_eq "$(hint "$T/r.json")" "bstore set $FN direct=VALUE" "the hint"
expect_in "$T/r.json" 'or `bstore ingest --param direct=VALUE`'

# 2. The hint's command, VALUE filled in, is what makes them one test.
cmd=$(hint "$T/r.json")
# shellcheck disable=SC2086
run ${cmd/#bstore/$BSTORE} # VALUE as printed
expect_rc 1 "the hint with VALUE as typed"
expect_in "$T/err" "bstore: set: run $FN: direct: 'VALUE' is not on or off"
cmd=${cmd/VALUE/1}
# shellcheck disable=SC2086
run ${cmd/#bstore/$BSTORE}
expect_rc 0 "$cmd"
expect_eq "$(head -n 1 "$T/out")" "changed 1 field of 1 run" "$cmd"
"$BSTORE" report -f json "$FJ" "$FN" >"$T/r.json"
same_test "json against normal, direct supplied by set" "$T/r.json"
run "$BSTORE" compare "$FJ" "$FN"
expect_rc 0 "compare after set"
expect_not_in "$T/out" "can't tell"
run "$BSTORE" show "$FN"
expect_in "$T/out" "O_DIRECT               on (supplied)"
expect_in "$T/out" "I/O depth              16"
expect_not_in "$T/out" "I/O depth              16 (supplied)"
expect_in "$T/out" "direct: unknown -> on"

# The terse line: each hint in turn, until none is left (rw, bs, ...).
declare -A want=([rw]=randread [bs]=4k [iodepth]=16 [ioengine]=libaio
	[numjobs]=1 [direct]=1)
asked=""
for _ in 1 2 3 4 5 6 7; do
	"$BSTORE" report -f json "$FJ" "$FT" >"$T/t.json"
	cmd=$(hint "$T/t.json")
	[ -n "$cmd" ] || break
	key=${cmd#bstore set "$FT" }
	key=${key%%=*}
	[ -n "${want[$key]:-}" ] || fail "a hint for '$key': $cmd"
	asked="$asked $key"
	cmd=${cmd/VALUE/${want[$key]}}
	# shellcheck disable=SC2086
	run ${cmd/#bstore/$BSTORE}
	expect_rc 0 "$cmd"
done
expect_eq "$asked" " rw bs iodepth numjobs ioengine direct" "the terse line's hints"
same_test "json against terse, supplied by set" "$T/t.json"
run "$BSTORE" show "$FT"
expect_in "$T/out" "rw                     randread (supplied)"
expect_in "$T/out" "block size             4k (supplied)"

# 3. The same with ingest --param, into another archive: all three one
# test, with verdicts.
B=$T/b.db
run "$BSTORE" --db "$B" ingest -m box "$I"/fio-3.33-rr4k-json.out
run "$BSTORE" --db "$B" ingest -m box --param direct=1 "$I"/fio-3.33-rr4k-normal.out
expect_rc 0 "ingest --param direct=1"
run "$BSTORE" --db "$B" ingest -m box -p rw=randread -p bs=4k -p iodepth=16 \
	-p ioengine=libaio -p numjobs=1 -p direct=true "$I"/fio-3.33-rr4k-terse.out
expect_rc 0 "ingest the terse line with its parameters"
"$BSTORE" --db "$B" report -f json 1 2 3 >"$T/b.json"
same_test "json, normal and terse with --param" "$T/b.json"
expect_eq "$(sqlite3 -batch "$B" "SELECT id, coalesce(supplied, '-') FROM runs ORDER BY id" | tr '\n' ' ')" \
	"1|- 2|direct 3|rw,bs,ioengine,iodepth,numjobs,direct " "runs.supplied"
# The same value the output printed is no change and stays the tool's.
run "$BSTORE" --db "$T/c.db" ingest --param direct=1 --param iodepth=16 "$I"/fio-3.33-rr4k-json.out
expect_rc 0 "--param as the output printed it"
run "$BSTORE" --db "$T/c.db" show 1
expect_in "$T/out" "O_DIRECT               on"
expect_not_in "$T/out" "(supplied)"

# 4. A value the output printed is not replaced: the file is not stored.
run "$BSTORE" --db "$T/d.db" ingest --param direct=0 "$I"/fio-3.33-rr4k-json.out
expect_rc 1 "--param against the output"
expect_in "$T/err" "bstore: ingest: $I/fio-3.33-rr4k-json.out: line 8: --param direct: the run's output says on; a value the output printed is not replaced; nothing stored from this file"
expect_eq "$(sqlite3 -batch "$T/d.db" "SELECT count(*) FROM runs")" 0 "runs after the refusal"
run "$BSTORE" set "$FJ" direct=0
expect_rc 1 "set against the output"
expect_in "$T/err" "bstore: set: run $FJ: direct: the run's output says on; a value the output printed is not replaced"
run "$BSTORE" set "$FJ" direct=
expect_rc 1 "set a printed value unknown"
# Unknown keys and bad values.
run "$BSTORE" --db "$T/d.db" ingest --param drect=1 "$I"/fio-3.33-rr4k-normal.out
expect_rc 2 "--param drect"
expect_in "$T/err" "bstore: ingest: --param: 'drect' is not a parameter; did you mean 'direct'?"
run "$BSTORE" --db "$T/d.db" ingest --param direct "$I"/fio-3.33-rr4k-normal.out
expect_rc 2 "--param without a value"
run "$BSTORE" --db "$T/d.db" ingest --param rw=randread "$I"/bonnie++-2.00a-disk-D.csv
expect_rc 1 "--param of another family"
expect_in "$T/err" "line 1: --param 'rw' is not a parameter of bonnie runs"
run "$BSTORE" --db "$T/d.db" ingest --param direct=1 --param fsync=0 "$I"/bonnie++-2.00a-disk-D.csv
expect_rc 0 "--param of bonnie++'s -D and -b"
run "$BSTORE" --db "$T/d.db" show 1
expect_in "$T/out" "O_DIRECT               on (supplied)"
run "$BSTORE" set "$FT" iodepth=deep
expect_rc 1 "set iodepth=deep"
expect_in "$T/err" "bstore: set: run $FT: iodepth: 'deep' is not a whole number"
run "$BSTORE" set "$FN" bs=4q
expect_in "$T/err" "bstore: set: run $FN: bs: '4q' is not a size such as 4k or 4096B"
run "$BSTORE" set "$FN" iodpth=16
expect_rc 2 "set iodpth"
expect_in "$T/err" "did you mean 'iodepth'?"
# What the implementation fixes is the tool's too: zcav never opens
# O_DIRECT. sysbench 1.0 prints no fsync mode when it is the default.
run "$BSTORE" --db "$T/z.db" ingest -m box "$I"/zcav-2.00a-file.txt "$I"/sysbench-1.0.20-rndrw.txt
expect_rc 0 "ingest zcav and sysbench"
run "$BSTORE" --db "$T/z.db" set 1 direct=1
expect_rc 1 "set zcav's direct=1"
expect_in "$T/err" "bstore: set: run 1: direct: the run's implementation says off; a value the tool gave is not replaced"
run "$BSTORE" --db "$T/z.db" set 1 direct=0
expect_rc 0 "set zcav's direct=0, as it is"
expect_eq "$(head -n 1 "$T/out")" "changed 0 fields of 1 run" "zcav's direct=0"
run "$BSTORE" --db "$T/z.db" set 2 fsync_mode=fsync
expect_rc 0 "set sysbench's fsync mode"
run "$BSTORE" --db "$T/z.db" show 2
expect_in "$T/out" "fsync mode             fsync (supplied)"
expect_in "$T/out" "threads                1"
expect_not_in "$T/out" "threads                1 (supplied)"
# A stored run is kept as it was: the warning says how to supply it.
run "$BSTORE" --db "$B" ingest --param direct=1 "$I"/fio-3.33-rr4k-normal.out
expect_rc 0 "ingest a stored run again"
run "$BSTORE" --db "$T/e.db" ingest "$I"/fio-3.33-rr4k-normal.out
run "$BSTORE" --db "$T/e.db" ingest --param direct=1 "$I"/fio-3.33-rr4k-normal.out
expect_in "$T/err" "run 1 is stored already and kept as it was (direct unknown); 'bstore set 1 direct=1' changes it"

# 5. Export carries it (JSON and CSV), the JSON reads back as supplied,
# merge keeps it.
"$BSTORE" --db "$B" export --format json >"$T/b.jsonl"
expect_eq "$(jq -c .supplied "$T/b.jsonl" | paste -sd' ' -)" \
	'[] ["direct"] ["rw","bs","ioengine","iodepth","numjobs","direct"]' "export JSON"
"$BSTORE" --db "$B" export --format csv >"$T/b.csv"
expect_eq "$(python3 -c 'import csv,sys; print(" ".join(r["supplied"] or "-" for r in csv.DictReader(open(sys.argv[1]))))' "$T/b.csv")" \
	"- direct rw,bs,ioengine,iodepth,numjobs,direct" "export CSV"
run "$BSTORE" --db "$T/f.db" ingest "$T/b.jsonl"
expect_rc 0 "ingest the export"
run "$BSTORE" --db "$T/f.db" show 3
expect_in "$T/out" "I/O depth              16 (supplied)"
"$BSTORE" --db "$T/f.db" report -f json 1 2 3 >"$T/f.json"
same_test "the export read back" "$T/f.json"
sed -n 2p "$T/b.jsonl" | jq -c '.supplied = ["size"]' >"$T/bad.jsonl"
run "$BSTORE" --db "$T/g.db" ingest "$T/bad.jsonl"
expect_rc 1 "supplied naming an unknown value"
expect_in "$T/err" "bstore JSON 'supplied' names 'size', no known parameter of the run"
run "$BSTORE" --db "$T/m.db" merge "$B"
expect_rc 0 "merge"
run "$BSTORE" --db "$T/m.db" show 2
expect_in "$T/out" "O_DIRECT               on (supplied)"

# The site's run page marks it as show does.
run "$BSTORE" --db "$B" site -o "$T/site"
expect_rc 0 "site"
expect_in "$(echo "$T"/site/run/2-*.html)" "on (supplied)"
expect_not_in "$(echo "$T"/site/run/1-*.html)" "(supplied)"

# 6. set makes a supplied value unknown again, with its history.
run "$BSTORE" set "$FN" direct=
expect_rc 0 "set direct="
run "$BSTORE" show "$FN"
expect_in "$T/out" "O_DIRECT               unknown"
expect_in "$T/out" "direct: on -> unknown"
"$BSTORE" report -f json "$FJ" "$FN" >"$T/r.json"
expect_eq "$(verdicts "$T/r.json")" "cant_tell" "after direct="

# 7. trend has no --by: its notes do not offer one.
run "$BSTORE" --db "$T/t.db" ingest --measured-at 2024-01-01 -t where=disk "$I"/bonnie++-2.00a-disk-x3.csv
run "$BSTORE" --db "$T/t.db" ingest --measured-at 2024-01-02 -t where=disk -p direct=1 "$I"/bonnie++-2.00a-disk-D.csv
run "$BSTORE" --db "$T/t.db" set 1-3 direct=0
expect_rc 0 "set direct=0"
run "$BSTORE" --db "$T/t.db" trend 1 where=disk
expect_rc 0 "trend of a mixed group"
expect_in "$T/out" "mixes O_DIRECT off (3 runs) and on (1"
expect_not_in "$T/out" "--by"
expect_in "$T/out" "a group for each value splits it"
run "$BSTORE" --db "$T/t.db" report 1 where=disk
expect_in "$T/out" "--by direct splits it"
finish
