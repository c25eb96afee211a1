#!/usr/bin/env bash
# tests/cli/identity.sh - one test identity (docs/report.md, "Test
# identity"), on real captures (tests/data/identity/make.sh made them):
# a comparison claims only what its runs support. The same fio job saved
# in three formats is one test, told "can't tell" where a format lacks a
# value; bonnie++ on a disk against tmpfs is tested on the metric asked
# for alone; other tools and implementations get no verdict outside what
# their family row declares alike; a mixed group gets none; no note
# contradicts a cell.
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq

I=$SRC/tests/data/identity
run "$BSTORE" ingest -m box "$I"/fio-3.33-rr4k-json.out \
	"$I"/fio-3.33-rr4k-normal.out "$I"/fio-3.33-rr4k-terse.out
expect_rc 0 "ingest the fio job"
run "$BSTORE" ingest --tag where=disk "$I"/bonnie++-2.00a-disk-x3.csv
run "$BSTORE" ingest --tag where=tmpfs "$I"/bonnie++-2.00a-tmpfs-x3.csv
run "$BSTORE" ingest --tag where=disk --tag mode=direct \
	"$I"/bonnie++-2.00a-disk-D.csv
run "$BSTORE" ingest -m box "$I"/dd-coreutils-9.1-disk.txt \
	"$I"/zcav-2.00a-file.txt "$I"/sysbench-1.0.20-rndrw.txt
run "$BSTORE" ingest "$I"/bstore-engines.jsonl
expect_rc 0 "ingest the rest"
id_of() { "$BSTORE" list --json "$@" | jq -r .id | paste -sd' ' -; }
FJ=$(id_of format=fio-json)
FN=$(id_of format=fio-text)
FT=$(id_of format=fio-terse)

# verdicts REPORT.json: every verdict of its non-baseline cells, once.
verdicts() {
	jq -r '[.metrics[].cells[1:][] | .verdict | select(. != "")] |
		unique | join(",")' "$1"
}
# no_claim WHAT REPORT.json: no cell better or worse, no summary ratio.
no_claim() {
	local v
	v=$(verdicts "$2")
	case ",$v," in
	*,better,* | *,worse,*) fail "$1: a verdict across unlike tests ($v)" ;;
	esac
	if jq -e '[.groups[].summary | select(. != null) | .categories[] |
		select(.ratio != null and .ratio != "")] | length > 0' \
		"$2" >/dev/null; then
		fail "$1: a summary ratio across unlike tests"
	fi
	return 0
}

# 1. The same fio job in json and normal text: one job, 4k and 4096B one
# size, but the text prints no O_DIRECT: can't tell, never "O_DIRECT
# off" and never "different tests (block size ...)".
"$BSTORE" report -f json "$FJ" "$FN" >"$T/fio.json"
expect_eq "$(verdicts "$T/fio.json")" "cant_tell" "fio json against text"
expect_in "$T/fio.json" "[2] against [1]: can't tell (O_DIRECT unknown for [2])"
expect_in "$T/fio.json" "bstore set $FN direct=VALUE"
jq -r '.notes[]' "$T/fio.json" >"$T/fio.notes"
expect_not_in "$T/fio.notes" "block size"
expect_not_in "$T/fio.notes" "I/O depth"
no_claim "fio json against text" "$T/fio.json"
# The terse line prints none of rw, bs, iodepth, ioengine, direct.
"$BSTORE" report -f json "$FJ" "$FT" >"$T/terse.json"
expect_eq "$(verdicts "$T/terse.json")" "cant_tell" "fio json against terse"
expect_in "$T/terse.json" "can't tell (rw unknown for [2])"
no_claim "fio json against terse" "$T/terse.json"
# show says unknown, as the report does.
run "$BSTORE" show "$FN"
expect_in "$T/out" "O_DIRECT               unknown"

# 2. bonnie++ on the disk against tmpfs, block write alone: one test of
# the page (not 17), and significant.
"$BSTORE" report -f json -m put_block where=disk,mode!=direct where=tmpfs \
	>"$T/bon.json"
expect_eq "$(jq -r '[.metrics[] | select(.key == "put_block") | .cells[1] |
	.verdict] | join(",")' "$T/bon.json")" "better" "tmpfs block write against the disk"
expect_eq "$(jq -r '[.metrics[] | select(.key == "put_block") | .cells[1] |
	(.p < 0.05)] | join(",")' "$T/bon.json")" "true" "its corrected p"
# %CPU and the latency maximum are context: no verdict, no test.
expect_eq "$(jq -r '[.metrics[] | select(.key != "put_block") |
	.cells[1].verdict | select(. != "")] | length' "$T/bon.json")" 0 \
	"context cells have no verdict"

# 3. dd against bonnie++'s block write: related, never a verdict.
"$BSTORE" report -f json tool=dd where=disk,mode!=direct >"$T/dd.json"
no_claim "dd against bonnie++" "$T/dd.json"
expect_in "$T/dd.json" "related only"

# 4. bonnie++ -D against bstore run -D: bonnie++'s CSV line does not say
# -D, so nothing compares until the user says it.
"$BSTORE" report -f json mode=direct tool=bstore,format=bstore-run \
	>"$T/D.json"
no_claim "bonnie++ -D against bstore run -D" "$T/D.json"
expect_in "$T/D.json" "O_DIRECT unknown for [1]"

# 5. zcav through the page cache against bstore zcav with O_DIRECT:
# different tests, named.
"$BSTORE" report -f json tool=zcav 'tool=bstore,format=bstore-zcav' \
	>"$T/zcav.json"
no_claim "zcav against bstore zcav" "$T/zcav.json"
expect_in "$T/zcav.json" "different tests (O_DIRECT on against off)"

# 6. sysbench against bstore fileio: sysbench 1.0 never prints its fsync
# mode, so nothing compares, and the note says which value to give.
"$BSTORE" report -f json tool=sysbench 'tool=bstore,format=bstore-fileio' \
	>"$T/sb.json"
no_claim "sysbench against bstore fileio" "$T/sb.json"
expect_in "$T/sb.json" "can't tell (fsync mode unknown for [1])"

# 7. A group that mixes bonnie++'s and bstore's runs: a mixed group, said
# by the summary line itself; notes and cells agree in every format.
"$BSTORE" report -f json 'family=bonnie,where!=tmpfs' where=tmpfs \
	>"$T/mixed.json"
no_claim "a mixed group" "$T/mixed.json"
expect_eq "$(verdicts "$T/mixed.json")" "mixed_group" "the mixed group's cells"
expect_in "$T/mixed.json" "mixed group ([1] mixes "
jq -r '.groups[1].summary.sentence' "$T/mixed.json" >"$T/sentence"
expect_in "$T/sentence" "mixed group ([1] mixes "
for f in txt csv html; do
	"$BSTORE" report -f "$f" 'family=bonnie,where!=tmpfs' where=tmpfs \
		>"$T/mixed.$f"
	expect_in "$T/mixed.$f" "mixed group"
done
grep -Eq '<td class="(better|worse)"' "$T/mixed.html" &&
	fail "a mixed group: a coloured HTML change"
grep -Eq '"(better|worse)"' "$T/mixed.csv" &&
	fail "a mixed group: a CSV verdict"
finish
