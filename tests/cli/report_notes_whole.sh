#!/usr/bin/env bash
# tests/cli/report_notes_whole.sh - a note's list of values keeps every
# clause however long (report/notes.c param_note once cut its values at
# 63 bytes: "... 4096k (1 run) and; rates depend ..."), alike in text,
# HTML and JSON. The runs: one fio 3.33 job file of six reads whose
# size differs (tests/data/fio-3.33-six-sizes.json, written by fio).
set -euo pipefail
. "$SRC/tests/lib.sh"

D=$SRC/tests/data
run "$BSTORE" ingest -m box "$D/fio-3.33-six-sizes.json"
expect_rc 0 "ingest six fio jobs"

whole="Size differs: [1] 1024k (2 runs), 2048k (1 run), 3072k (1 run), 4096k (1 run) and 1 more with other values; rates depend on how much of the file the page cache holds"
run "$BSTORE" report --format json 1-6
expect_rc 0 "JSON report"
expect_eq "$(jq -r '.notes[] | select(startswith("Size differs"))' "$T/out")" "$whole" "JSON: the note whole"
expect_eq "$(jq -r '.notes[] | select(contains("mixes size"))' "$T/out")" \
	"[1] mixes size 1024k (2 runs), 2048k (1 run), 3072k (1 run), 4096k (1 run) and 1 more with other values; its means average unlike runs" \
	"JSON: the mix note whole"

run "$BSTORE" report --format text 1-6
expect_rc 0 "text report"
# Text wraps its notes: join the note's lines again.
expect_eq "$(awk '/^\* Size differs/ { p = 1; s = substr($0, 3); next }
	p && /^  / { sub(/^  /, " "); s = s $0; next } p { print s; exit }' "$T/out")" \
	"$whole" "text: the note whole"
expect_not_in "$T/out" "and;"

# Against a second group of one size: the note names both.
run "$BSTORE" report --format html 1-6 4
expect_rc 0 "HTML report"
tr -s ' \n' ' ' <"$T/out" >"$T/flat.html"
expect_in "$T/flat.html" "4096k (1 run) and 1 more with other values, [2] 1024k; rates depend"
expect_not_in "$T/flat.html" "and;"

finish
