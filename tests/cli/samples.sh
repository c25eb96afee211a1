#!/usr/bin/env bash
# tests/cli/samples.sh - every file in samples/ (real outputs of every
# tool bstore reads) ingests to runs: none skipped, none rejected, each
# counted under a format of the tool its name says; ingesting them all
# again stores nothing; every family ends up in the archive.
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3

files=()
for f in "$SAMPLES"/*; do
	[ -f "$f" ] && files+=("$f")
done
[ "${#files[@]}" -ge 40 ] || fail "only ${#files[@]} samples"

run "$BSTORE" ingest "${files[@]}"
expect_rc 0 "ingest every sample"
expect_eq "$(grep -v ': warning: ' "$T/err" || true)" "" "no reject, nothing but warnings"
for f in "${files[@]}"; do
	line=$(grep -F "$f: " "$T/out" || true)
	case $line in
	*": 0 runs stored"* | "") fail "$f: no run stored ($line)" ;;
	*", 0 rejected ("*) ;;
	*) fail "$f: rejects ($line)" ;;
	esac
	# The tool its name starts with is the format's.
	tool=${f##*/}
	tool=${tool%%-*}
	case $tool in
	bonnie++) want='bonnie++-' ;;
	*) want="$tool" ;;
	esac
	case $line in
	*"($want"*) ;;
	*) fail "$f: read as another tool's ($line)" ;;
	esac
done
n=$(sql 'select count(*) from runs')
[ "$n" -ge "${#files[@]}" ] || fail "$n runs from ${#files[@]} files"
expect_eq "$(sql 'select count(*) from rejects')" 0 "rejects"
expect_eq "$(sql 'select group_concat(family) from (select distinct family
	from runs order by family)')" \
	"bonnie,dd,fio,getc_putc,sysbench,zcav" "every family"

# Again: nothing new.
run "$BSTORE" ingest "${files[@]}"
expect_rc 0 "ingest again"
expect_eq "$(sql 'select count(*) from runs')" "$n" "runs after a second ingest"
expect_eq "$(grep -c ' 0 runs stored, [1-9][0-9]* duplicates\?, 0 rejected' "$T/out")" \
	"${#files[@]}" "every file: duplicates only"

# Every bonnie-family sample (CSV lines, text tables, Bonnie) converts to
# the 1.98 layout that Debian's bon_csv2html (2.00a) reads.
if have bon_csv2html; then
	"$BSTORE" export --format bonnie --csv-format 1.98 >"$T/198.csv" 2>/dev/null
	nb=$(sql "select count(*) from runs where family = 'bonnie'")
	expect_eq "$(wc -l <"$T/198.csv")" "$nb" "a 1.98 line per bonnie-family run"
	bon_csv2html <"$T/198.csv" >"$T/198.html" 2>"$T/html.err"
	expect_eq "$?:$(cat "$T/html.err")" "0:" "bon_csv2html accepts every line"
	expect_eq "$(grep -o 'class="rowheader"' "$T/198.html" | wc -l)" "$nb" \
		"bon_csv2html: a row per run"
else
	skip_part "bon_csv2html is not installed"
fi

finish
