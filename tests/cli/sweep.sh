#!/usr/bin/env bash
# tests/cli/sweep.sh - a sweep reads as a sweep (docs/report.md,
# "Sweeps"): --by a number people sweep (fio's iodepth, sysbench's
# threads) makes its levels the groups, in numeric order, each against
# the first as scaling (never better or worse), with a chart of each main
# rate and p99 latency against the level; real captures of both tools
# (tests/data/sweep/make.sh made them).
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq

W=$SRC/tests/data/sweep
run "$BSTORE" ingest -m box "$W"/fio-3.33-iodepth-sweep.json \
	"$W"/sysbench-1.0.20-threads-sweep.txt
expect_rc 0 "ingest"
"$BSTORE" report -f json --by iodepth family=fio >"$T/fio.json"
expect_eq "$(jq -r '[.groups[].label] | join(" ")' "$T/fio.json")" \
	"iodepth=1 iodepth=4 iodepth=16 iodepth=32" "levels in numeric order"
expect_eq "$(jq -r '[.metrics[].cells[1:][] | .verdict | select(. != "")] |
	unique | join(",")' "$T/fio.json")" "scaling" "every level is scaling"
expect_eq "$(jq -r '.groups[3].summary.categories.io.state' "$T/fio.json")" \
	"scaling" "the summary says scaling"
# Depth 32 reads faster than depth 1 (the captures: about 5x).
expect_eq "$(jq -r '.metrics[] | select(.key == "read_bw_kib_s") |
	(.cells[3].ratio > 2)' "$T/fio.json")" "true" "bandwidth scales"

"$BSTORE" report -o "$T/fio.html" --by iodepth family=fio
expect_in "$T/fio.html" '<h2>Scaling by iodepth</h2>'
expect_in "$T/fio.html" 'Read bandwidth, MiB/s, by iodepth'
expect_in "$T/fio.html" 'Read clat p99, us, by iodepth'
expect_eq "$(grep -o '<circle ' "$T/fio.html" | wc -l)" 8 "a point per level and chart"
grep -Eq '<td class="(better|worse)"' "$T/fio.html" &&
	fail "a sweep's change is coloured better or worse"
expect_not_in "$T/fio.html" '"cat better"'

# sysbench by threads: its read rate and p95-less latency; the written
# rate of a read test (0 at every level) is no chart.
"$BSTORE" report -o "$T/sb.html" --by threads family=sysbench
expect_in "$T/sb.html" 'Read, MiB/s, by threads'
expect_not_in "$T/sb.html" 'Written, MiB/s, by threads'
"$BSTORE" report -f json --by threads family=sysbench >"$T/sb.json"
expect_eq "$(jq -r '[.groups[].label] | join(" ")' "$T/sb.json")" \
	"threads=1 threads=2 threads=4" "sysbench's levels"

# A tag is no sweep: --by a tag compares with verdicts as before.
"$BSTORE" tag 1 run=a >/dev/null
"$BSTORE" tag 2 run=b >/dev/null
"$BSTORE" report -f json --by run family=fio >"$T/tag.json" 2>/dev/null
expect_eq "$(jq -r '[.metrics[].cells[1:][] | .verdict | select(. != "")] |
	unique | join(",")' "$T/tag.json")" "apart" \
	"a tag's levels of two depths: different tests, not scaling"
finish
