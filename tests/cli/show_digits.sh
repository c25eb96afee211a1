#!/usr/bin/env bash
# tests/cli/show_digits.sh - `bstore show` prints a value no finer than
# the step its source printed it in (core/dialect.c bs_dialect_step,
# core/metric.c bs_metric_fmt_step): bonnie++ 2.00a's table cells 291m
# and 1.8g are whole MiB/s (1.8g quoted, as its step is 102.4 MiB/s),
# while the CSV line of the same bonnie++ keeps its digits.
set -euo pipefail
. "$SRC/tests/lib.sh"

D=$SRC/tests/data
line() { # ID METRIC: show's line of the metric
	"$BSTORE" show "$1" | awk -v m="$2" '$1 == m && $2 != "unknown" { print; exit }'
}

run "$BSTORE" ingest "$D/bonnie++-2.00a-table-labvm01.txt"
expect_rc 0 "ingest labvm01's 2.00a table"
expect_eq "$(line 1 get_block | sed 's/  */ /g')" \
	" get_block ok 1843 MiB/s CPU 69% max latency 22633us (stored 1887436.8 KiB/s, printed 1.8g)" \
	"1.8g: whole MiB/s, the cell quoted"
expect_eq "$(line 1 put_block | sed 's/  */ /g')" \
	" put_block ok 291 MiB/s CPU 69% max latency 8122us (stored 297984 KiB/s)" \
	"291m: whole MiB/s, no note"
expect_eq "$(line 1 putc | awk '{print $3, $4}')" "0.53 MiB/s" "545k: as before"
expect_eq "$(line 1 seeks | awk '{print $3, $4}')" "6398 seeks/s" "6398: no .0"
expect_not_in "$T/out" "1843.2 MiB"

# WSL's table: 1.1g, 728m, 958m.
run "$BSTORE" ingest "$D/bonnie++-2.00a-table-wsl.txt"
expect_eq "$(line 2 get_block | grep -o 'ok .*MiB/s\|printed [^)]*' | tr -s ' ' | tr '\n' '|')" \
	"ok 1126 MiB/s|printed 1.1g|" "1.1g"
expect_eq "$(line 2 rewrite | awk '{print $3, $4}')" "958 MiB/s" "958m"

# A k cell is whole KiB/s, finer than show's MiB/s: its digits stay.
run "$BSTORE" ingest "$SAMPLES/bonnie++-2.00a-table-full-labvm.txt"
expect_eq "$(line last putc | awk '{print $3, $4}')" "1.1 MiB/s" "1159k: as before"

# The CSV line of a 2.00a run is exact: its digits stay.
run "$BSTORE" ingest "$D/bonnie++-2.00a-q-disk-stdout.csv"
expect_rc 0 "ingest a 2.00a CSV line"
expect_eq "$(line last put_block | awk '{print $3}' | grep -c '\.')" 1 "a CSV rate keeps its decimal"

finish
