#!/usr/bin/env bash
# tests/cli/report_compare.sh - comparisons that understand every tool
# (issue 19): groups of sysbench, fio, dd and zcav runs made by the real
# tools that differ in a parameter deciding their numbers (test mode, rw
# pattern, dd flags and block size, zcav block size) carry the note and
# no "better"/"worse" in any format; the same configuration compared
# still gets its verdicts; a report of untested groups (2 runs a side)
# claims nothing better or worse in its summary, in any format.
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq

S=$SAMPLES
D=$SRC/tests/data
# ids: sysbench 1-3 rndrw, 4-6 seqrd; fio 7-9 randread, 10-12 read; dd
# 13-18 bs=1M, 19-21 oflag=direct, 22-24 conv=fdatasync, 25-27 bs=4k
# conv=fdatasync; zcav 28 -b 8, 29 and 30 -b 16.
run "$BSTORE" ingest "$D/sysbench-1.0.20-modes.txt" "$D/fio-3.33-patterns.txt" \
	"$D/dd-coreutils-9.1-flags.txt" "$D/zcav-2.00a-blocks.txt" \
	"$S/zcav-2.00a-read-labvm.txt" "$S/zcav-2.00a-c2-labvm.txt"
expect_rc 0 "ingest"
expect_eq "$("$BSTORE" export --format json all | jq -r '.id' | wc -l)" 30 "30 runs"

# The summary of every format, as text: the sentences, the CSV summary
# rows and notes, the HTML page's summary section.
summaries() { # NAME SELECTOR...
	local n=$1
	shift
	"$BSTORE" report --format text "$@" >"$T/$n.txt"
	"$BSTORE" report --format json "$@" >"$T/$n.json"
	"$BSTORE" report --format csv "$@" >"$T/$n.csv"
	"$BSTORE" report --format html -o "$T/$n.html" "$@"
	sed -n '/^Summary/,/^$/p' "$T/$n.txt" >"$T/$n.sum"
	jq -r '.groups[].summary | select(. != null) | .sentence,
		(.categories[] | .state, .state_words, .change)' \
		"$T/$n.json" >>"$T/$n.sum"
	grep '"geomean:' "$T/$n.csv" >>"$T/$n.sum" || true
	sed -n '/<section id="summary">/,/<\/section>/p' "$T/$n.html" >>"$T/$n.sum"
}

# A comparison across a deciding parameter: the note, "different tests",
# no verdict and no ratio in any summary.
apart() { # WHAT NOTE SELECTOR...
	local what=$1 note=$2
	shift 2
	summaries apart "$@"
	expect_in "$T/apart.txt" "Not directly comparable:"
	expect_in "$T/apart.json" "$note"
	expect_in "$T/apart.sum" "different tests ("
	grep -Eiq 'better|worse|[0-9]x (higher|lower)' "$T/apart.sum" &&
		fail "$what: the summary claims a change across different tests:" &&
		grep -Ei 'better|worse|[0-9]x (higher|lower)' "$T/apart.sum" >&2
	expect_eq "$(jq -r '[.metrics[].cells[1].verdict] | map(select(. != "")) | unique | join(",")' \
		"$T/apart.json")" "apart" "$what: every compared cell is of different tests"
	expect_eq "$(jq -r '[.metrics[].cells[1].better] | map(select(. != null)) | length' \
		"$T/apart.json")" 0 "$what: no cell has a better side"
	expect_eq "$(grep -v '"geomean:' "$T/apart.csv" | grep -c '"apart"')" \
		"$(jq -r '[.metrics[].cells[1].verdict] | map(select(. == "apart")) | length' "$T/apart.json")" \
		"$what: the CSV's cells say apart as the JSON's"
	grep -Eq '<td class="(better|worse|few-up|few-down)"' "$T/apart.html" &&
		fail "$what: an HTML change is coloured across different tests"
	grep -q '!' <(grep '^change \[2\]' "$T/apart.txt") ||
		fail "$what: the text change row has no '!' mark"
	return 0
}
apart "sysbench modes" \
	'[2] against [1]: different tests (test mode seqrd against rndrw): sysbench runs one test per mode; given no verdict and no ratio in the summary' 1-3 4-6
expect_in "$T/apart.sum" "different tests (test mode seqrd against rndrw): no verdict and no ratio across them"
apart "fio patterns" \
	'[2] against [1]: different tests (rw read against randread): fio runs one test per pattern' 7-9 10-12
apart "dd flags" \
	'[2] against [1]: different tests (O_DIRECT off against on; flags conv=fdatasync against none)' 19-21 22-24
apart "dd block sizes" \
	'[2] against [1]: different tests (block size 4 KiB against 1 MiB): a rate per request depends on its size' 22-24 25-27
apart "zcav block sizes" \
	'[2] against [1]: different tests (block size 8 MiB against 16 MiB)' 29 28

# The list of runs of an HTML page shows each tool's own main rates, not
# bonnie++'s columns.
"$BSTORE" report -o "$T/fio.html" 7-9 10-12
expect_in "$T/fio.html" '<th>Version</th><th>Read bandwidth<br><small>MiB/s</small></th>'
expect_in "$T/fio.html" '<td>3.33</td><td class="s'
expect_not_in "$T/fio.html" '<th>Size</th>'

# A group that mixes modes: the note names the values and their counts,
# and its comparison is across different tests.
run "$BSTORE" report --format json 2-5 1
expect_in "$T/out" '[2] against [1]: mixed group ([1] mixes test mode rndrw (2 runs) and seqrd (2 runs); --by mode splits it)'
expect_eq "$(jq -r '[.metrics[].cells[1].verdict] | map(select(. != "")) | unique | join(",")' "$T/out")" \
	"mixed_group" "a mixed baseline: no verdict"

# --by on a parameter: one group per test mode.
run "$BSTORE" report --format json --by mode 1-6
expect_rc 0 "--by mode"
expect_eq "$(jq -r '[.groups[].label] | join(" ")' "$T/out")" "mode=rndrw mode=seqrd" "--by mode groups"
expect_eq "$(jq -r '.groups[].ids | length' "$T/out" | tr '\n' ' ')" "3 3 " "--by mode: 3 runs each"

# The deciding parameters in the group table, in every format.
summaries same 13-15 16-18
expect_in "$T/same.txt" "; bytes copied 67108864 bytes, block size 1048576 bytes, blocks 64, flags none"
expect_in "$T/same.csv" '"params","[1] bytes copied 67108864 bytes, block size 1048576 bytes, blocks 64'
expect_eq "$(jq -r '.groups[0].deciding | join(",")' "$T/same.json")" "bytes,bs_bytes,count,flags,direct" \
	"the JSON names dd's deciding parameters"
expect_in "$T/same.html" '<td data-label="Parameters" class="params">bytes copied 67108864 bytes'
expect_not_in "$T/same.html" '<th>Size</th><th>Files</th>'

# The same configuration compared: verdicts as before (tested, 3 runs a
# side), no note, no "different tests".
expect_not_in "$T/same.txt" "Not directly comparable"
expect_not_in "$T/same.sum" "different tests"
v=$(jq -r '.metrics[] | select(.key == "write_kib_s") | .cells[1].verdict' "$T/same.json")
case $v in better | worse | noise | not_significant) ;; *) fail "dd, one configuration: verdict '$v'" ;; esac
for pair in "1-2 3" "7-8 9" "29 30"; do
	# shellcheck disable=SC2086
	run "$BSTORE" report --format json $pair
	expect_eq "$(jq -r '[.metrics[].cells[1].verdict] | map(select(. == "apart")) | length' "$T/out")" \
		0 "$pair: one configuration, no cell of different tests"
	expect_eq "$(jq -r '.notes | length' "$T/out")" 0 "$pair: no note"
	expect_eq "$(jq -r '[.groups[1].summary.categories[] | .change] | map(test("^[0-9.]+x (higher|lower)$|^unchanged")) | all' \
		"$T/out")" true "$pair: the summary gives its ratios"
done

# A report of untested groups (2 runs a side): nothing "better" or
# "worse" in its summary, in words or colours, in any format; the ratio
# with its state instead.
U=$T/untested.db
BSTORE_DB=$U "$BSTORE" ingest "$S"/bonnie++-1.03-emc-raid*.txt >/dev/null
BSTORE_DB=$U summaries untested 'source=*raid10*' 'source=*raid5*'
grep -Eiq 'better|worse' "$T/untested.sum" &&
	fail "untested groups: the summary says better or worse:" &&
	grep -Ei 'better|worse' "$T/untested.sum" >&2
expect_in "$T/untested.sum" "sequential 1.10x higher, untested (Block write: 2 timed runs in [2])"
expect_in "$T/untested.sum" "no significant change:"
expect_eq "$(jq -r '[.groups[1].summary.categories[].state] | unique | join(",")' "$T/untested.json")" \
	"few,noise" "untested groups: every category untested or within noise"
expect_in "$T/untested.html" '<span class="cat few"'
expect_in "$T/untested.html" '<span class="cat noise"'
# The one ratio form: the chip's ratio is the sentence's.
chip=$(grep -o '<span class="cat few"[^>]*>sequential <b>[^<]*</b>' "$T/untested.html" | sed 's/.*<b>//; s/<\/b>//')
expect_in "$T/untested.sum" "sequential $chip, untested"

# sysbench's total file size against the host's RAM (host.ram_mib, as
# bstore run and bstore fileio record it): under twice the RAM, a note.
R=$T/ram.db
BSTORE_DB=$R "$BSTORE" ingest --tag host.ram_mib=1024 --tag box=a "$S/sysbench-1.0.20-rndrw.txt" >/dev/null
BSTORE_DB=$R "$BSTORE" ingest --tag host.ram_mib=16 --tag box=b "$S/sysbench-1.0.20-rndrw-threads4-p99.txt" >/dev/null
BSTORE_DB=$R run "$BSTORE" report --format json box=a box=b
expect_in "$T/out" "[1] total file size 67108864 bytes (64 MiB) is under twice the host's RAM (host.ram_mib=1024): the page cache may hold the files, so its rates may be the memory's"
expect_not_in "$T/out" '[2] total file size'
# Threads differ (1 against 4): different tests as well.
expect_in "$T/out" '[2] against [1]: different tests (threads 4 against 1)'

finish
