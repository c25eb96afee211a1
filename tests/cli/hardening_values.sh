#!/usr/bin/env bash
# tests/cli/hardening_values.sh - values no disk could produce are refused
# by name (1), --measured-at takes only dates it can write back (2), and
# what is stored comes out exactly where it is data, with an unambiguous
# CSV formula guard (3), and cleaned where it is shown: list, show (4).
#
# Bad lines are real sample lines with one field changed, as a broken or
# edited capture would have them; each file also holds good lines, which
# are stored while the bad ones go to the rejects table.
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3

# A real bonnie++ 2.00a line (50 fields) and a real 1.03 line (27 fields).
line198=$(grep '^1.98,' "$SAMPLES/bonnie++-2.00a-local-full.txt")
line103=$(grep '^billing,' "$SAMPLES/bonnie++-1.03-t3-raid5.txt")

# setf LINE N VALUE: LINE with its field N (from 1, as awk and the reasons
# count) set to VALUE.
setf() {
	awk -F, -v n="$2" -v v="$3" 'BEGIN { OFS = "," } { $n = v; print }' \
		<<<"$1"
}

# 1. Values beyond any disk, CPU or run: each bad line is rejected with
# the field named and the limit said; the good lines around it are kept.
# Each case: field, value, the reason's text after "field N (name): ".
cases=(
	"12|1e308|put_block): '1e308' is beyond any disk (at most 1000000000 KiB/s)"
	"12|1000000001|put_block): '1000000001' is beyond any disk (at most 1000000000 KiB/s)"
	"13|1e308|put_block_cpu): '1e308' is beyond any machine (at most 1000000 %)"
	"20|1e10|seeks): '1e10' is beyond any disk (at most 1000000000 seeks/s)"
	"27|12345678901|seq_create): '12345678901' is beyond any disk (at most 1000000000 files/s)"
	"40|99999999999s|put_block_latency): '99999999999s' is beyond any disk (at most 1000000000000 us)"
	"41|1000000001ms|rewrite_latency): '1000000001ms' is beyond any disk (at most 1000000000000 us)"
	"6|9223372036854775807M|file_size): '9223372036854775807M' is beyond any disk (at most 1099511627776 MiB)"
	"6|1048577T|file_size): '1048577T' is beyond any disk (at most 1099511627776 MiB)"
	"4|9999999|concurrency): '9999999' is beyond any machine (at most 1048576)"
	"8|9223372036854775807|seek_count): '9223372036854775807' is beyond any machine (at most 1099511627776)"
	"9|2000000|seek_proc_count): '2000000' is beyond any machine (at most 1048576)"
	"22|99999999999|num_files): '99999999999' is beyond any machine (at most 1073741824)"
	"23|9223372036854775807|max_size): '9223372036854775807' is beyond any disk (at most 1152921504606846976 bytes)"
	"24|2g|min_size): ok"
	"26|9999999999999|num_dirs): '9999999999999' is beyond any machine (at most 1099511627776)"
	"7|4g|io_chunk_size): '4g' is beyond any disk (at most 1073741824 bytes)"
	"12|-5|put_block): '-5' is negative"
	"13|-1|put_block_cpu): '-1' is negative"
	"12|nan|put_block): 'nan' is not a number"
	"12|inf|put_block): 'inf' is not a number"
	"12|1e999|put_block): '1e999' is not a number"
	"40|-3ms|put_block_latency): '-3ms' is negative"
	"40|nanus|put_block_latency): 'nanus' is not a latency"
)
{
	setf "$line198" 3 good-first
	for c in "${cases[@]}"; do
		IFS='|' read -r no val _ <<<"$c"
		setf "$(setf "$line198" 3 "bad$no")" "$no" "$val"
	done
	setf "$line198" 3 good-last
} >"$T/absurd.csv"
run "$BSTORE" ingest "$T/absurd.csv"
expect_rc 1 "ingest of absurd values"
lineno=1
nbad=0
for c in "${cases[@]}"; do
	IFS='|' read -r no _ want <<<"$c"
	lineno=$((lineno + 1))
	if [ "${want#*): }" = ok ]; then
		expect_not_in "$T/err" "absurd.csv:$lineno:"
		continue
	fi
	nbad=$((nbad + 1))
	expect_in "$T/err" "bstore: ingest: $T/absurd.csv:$lineno: field $no ($want"
done
expect_style "$T/err"
expect_in "$T/out" "$T/absurd.csv: $((${#cases[@]} + 2 - nbad)) runs stored, 0 duplicates, $nbad rejected"
expect_eq "$(sql "select group_concat(machine, ' ') from (select machine
	from runs where source = '$T/absurd.csv' order by id)")" \
	"good-first bad24 good-last" "the good lines of a file with absurd values"
expect_eq "$(sql "select count(*) from rejects where source = '$T/absurd.csv'
	and reason like 'field % (%): %'")" "$nbad" "absurd lines kept as rejects"
expect_eq "$(sql "select raw from rejects where source = '$T/absurd.csv'
	and line = 2")" "$(setf "$(setf "$line198" 3 bad12)" 12 1e308)" \
	"a rejected line is kept verbatim"

# The limits themselves are values a disk could produce: stored.
{
	setf "$(setf "$(setf "$(setf "$line198" 3 at-limit)" 12 1000000000)" \
		13 1000000)" 40 1000000s
	setf "$(setf "$(setf "$line198" 3 at-limit2)" 6 1048576T)" 4 1048576
	# bonnie++'s seek test counts the process's CPU once per thread:
	# %CPU far over 100 is real output (docs/input-formats.md 8.3).
	setf "$(setf "$line198" 3 seeks-cpu)" 21 2046
} >"$T/limits.csv"
run "$BSTORE" ingest "$T/limits.csv"
expect_rc 0 "ingest of values at the limits"
expect_eq "$(sql "select put_block || ' ' || put_block_cpu || ' ' ||
	put_block_lat_us from runs where machine = 'at-limit'")" \
	"1000000000.0 1000000.0 1000000000000.0" "values at the limits stored"
expect_eq "$(sql "select file_size_mib || ' ' || concurrency from runs
	where machine = 'at-limit2'")" "1099511627776 1048576" \
	"parameters at the limits stored"

# The 1.0x layout: a rate, the size (with its chunk) and the files spec.
cases103=(
	"5|1e308|put_block): '1e308' is beyond any disk (at most 1000000000 KiB/s)"
	"6|2000000|put_block_cpu): '2000000' is beyond any machine (at most 1000000 %)"
	"13|1e10|seeks): '1e10' is beyond any disk (at most 1000000000 seeks/s)"
	"2|99999999999G|file_size): '99999999999G' is beyond any disk (at most 1099511627776 MiB)"
	"2|4G:2g|file_size): '4G:2g' is beyond any disk (at most 1073741824 bytes)"
	"15|99999999999:1000:0/99|num_files): '99999999999:1000:0/99' is beyond any machine (at most 1073741824)"
	"15|16:99999999999999999999|num_files): '16:99999999999999999999' is not a files spec (num[:max:min][/dirs])"
	"15|16:1000:0/9999999999999|num_files): '16:1000:0/9999999999999' is beyond any machine (at most 1099511627776)"
	"15|16:2000000000000000000:0|num_files): '16:2000000000000000000:0' is beyond any disk (at most 1152921504606846976 bytes)"
)
{
	setf "$line103" 1 old-good
	for c in "${cases103[@]}"; do
		IFS='|' read -r no val _ <<<"$c"
		setf "$(setf "$line103" 1 "old$no")" "$no" "$val"
	done
} >"$T/absurd103.csv"
run "$BSTORE" ingest "$T/absurd103.csv"
expect_rc 1 "ingest of absurd 1.0x values"
lineno=1
for c in "${cases103[@]}"; do
	IFS='|' read -r no _ want <<<"$c"
	lineno=$((lineno + 1))
	expect_in "$T/err" "bstore: ingest: $T/absurd103.csv:$lineno: field $no ($want"
done
expect_in "$T/out" "$T/absurd103.csv: 1 run stored, 0 duplicates, ${#cases103[@]} rejected"

# What was stored reports without overflow: no 'inf', no 60-digit number.
run "$BSTORE" report --format text
expect_rc 0 "report of the stored runs"
if grep -qwE 'inf|nan' "$T/out"; then
	fail "the report prints inf or nan"
fi
if grep -qE '[0-9]{20}' "$T/out"; then
	fail "the report prints a number of 20 digits or more"
fi

# 2. --measured-at takes dates from 1970-01-01 to 9999-12-31 (UTC), the
# range that export's ISO 8601 dates and the bonnie view's datetime() can
# write; others are refused before anything is stored.
runs_before=$(sql "select count(*) from runs")
for d in @9223372036854775807 @-99999999999 @-1 @253402300800 1969-12-31 \
	'0000-01-01 00:00'; do
	run "$BSTORE" ingest --measured-at "$d" "$SAMPLES/bonnie++-1.03-t3-raid5.txt"
	expect_rc 2 "--measured-at $d"
	expect_in "$T/err" "bstore: ingest: --measured-at: '$d' is out of range (1970-01-01 to 9999-12-31)"
	expect_in "$T/err" "Try 'bstore ingest --help'."
	expect_style "$T/err"
done
for d in @12x 2024-02-30 '2024-01-01 25:00' 10000-01-01; do
	run "$BSTORE" ingest --measured-at "$d" "$SAMPLES/bonnie++-1.03-t3-raid5.txt"
	expect_rc 2 "--measured-at $d"
	expect_in "$T/err" "bstore: ingest: --measured-at: '$d' is not a date (YYYY-MM-DD[ HH:MM[:SS]] or @UNIXTIME)"
done
expect_eq "$(sql "select count(*) from runs")" "$runs_before" \
	"no run stored with a bad --measured-at"
# The ends of the range are dates, and come out as ISO 8601.
i=0
for d in @0 @253402300799 '9999-12-31 23:59:59' 1970-01-01; do
	i=$((i + 1))
	setf "$line198" 3 "dated$i" >"$T/dated$i.csv"
	run "$BSTORE" ingest --measured-at "$d" "$T/dated$i.csv"
	expect_rc 0 "--measured-at $d"
done
run "$BSTORE" export --format json machine=dated1 machine=dated2 \
	machine=dated3 machine=dated4
expect_rc 0 "export of dated runs"
expect_eq "$(grep -o '"measured_at":"[^"]*"' "$T/out" | tr '\n' ' ')" \
	'"measured_at":"1970-01-01T00:00:00Z" "measured_at":"9999-12-31T23:59:59Z" "measured_at":"9999-12-31T23:59:59Z" "measured_at":"1970-01-01T00:00:00Z" ' \
	"measured_at at the ends of the range"
expect_eq "$(sql "select group_concat(measured_at, ' ') from (select
	measured_at from bonnie where name like 'dated%' order by name)")" \
	"1970-01-01 00:00:00 9999-12-31 23:59:59 9999-12-31 23:59:59 1970-01-01 00:00:00" \
	"the bonnie view's measured_at at the ends of the range"

# 3. The CSV export's formula guard is unambiguous: a text cell that
# starts with '=', '+', '-', '@', a tab or a CR, or with the guard's own
# "'", gets one "'" more, so that dropping one leading "'" gives back the
# text. The machines '=1+1' and "'=1+1" come out as two cells.
names=("=1+1" "'=1+1" "''=1+1" "'plain" "@SUM(A1)" "-2" "+x" "plain'")
for n in "${names[@]}"; do
	setf "$line198" 3 "$n"
done >"$T/formula.csv"
run "$BSTORE" ingest "$T/formula.csv"
expect_rc 0 "ingest of formula-like machine names"
sel=()
for n in "${names[@]}"; do
	sel+=("machine=$n")
done
run "$BSTORE" export --format csv "${sel[@]}"
expect_rc 0 "export --format csv of formula-like names"
cp "$T/out" "$T/formula-export.csv"
expect_eq "$(awk -F, 'NR > 1 { print $2 }' "$T/formula-export.csv" | tr '\n' ' ')" \
	"\"'=1+1\" \"''=1+1\" \"'''=1+1\" \"''plain\" \"'@SUM(A1)\" \"'-2\" \"'+x\" \"plain'\" " \
	"machine cells with the formula guard"
if have python3; then
	# Both round trips: a CSV cell, unguarded, is the JSON export's name.
	run "$BSTORE" export --format json "${sel[@]}"
	expect_rc 0 "export --format json of formula-like names"
	python3 - "$T/formula-export.csv" "$T/out" <<'EOF' ||
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
names = [json.loads(l)["machine"] for l in open(sys.argv[2])]
cells = [r["machine"] for r in rows]
unguarded = [c[1:] if c.startswith("'") else c for c in cells]
assert unguarded == names, (unguarded, names)
assert len(set(cells)) == len(cells), cells
EOF
		fail "the CSV export's machine cells, unguarded, are not the names"
else
	skip_part "the CSV round trip needs python3"
fi

# 4. Control characters: exports are data and exact (raw, or escaped as
# the format says); list and show are for terminals and print every
# control character, tabs included, as '?'. A real line's machine name
# with a tab and an escape sequence, from a file whose name holds a tab
# and a newline:
ctl=$(printf 'tab\there\033[1mbold')
ctlfile=$T/$(printf 'ctl\tname\nx.csv')
setf "$line198" 3 "$ctl" >"$ctlfile"
run "$BSTORE" ingest "$ctlfile"
expect_rc 0 "ingest of a machine name with control characters"
expect_in "$T/out" "$T/ctl?name?x.csv: 1 run stored"
expect_eq "$(sql "select count(*) from runs where machine = '$ctl'
	and source = '$ctlfile'")" 1 "the name and source stored as they were"
id=$(sql "select id from runs where machine = '$ctl'")
# export --format bonnie: the line byte for byte.
run "$BSTORE" export --format bonnie "$id"
expect_rc 0 "export --format bonnie"
expect_eq "$(cat "$T/out")" "$(cat "$ctlfile")" "export --format bonnie is exact"
# export --format json: JSON's escapes, which read back as the name.
run "$BSTORE" export --format json "$id"
expect_rc 0 "export --format json"
expect_in "$T/out" '"machine":"tab\there\u001b[1mbold"'
expect_in "$T/out" '"source":"'"$T"'/ctl\tname\nx.csv"'
run "$BSTORE" list --json "$id"
expect_in "$T/out" '"machine":"tab\there\u001b[1mbold"'
# export --format csv: the bytes, in a quoted cell.
run "$BSTORE" export --format csv "$id"
expect_rc 0 "export --format csv"
expect_eq "$(awk 'NR == 2' "$T/out" | cut -d, -f2)" "\"$ctl\"" \
	"export --format csv writes the name raw, quoted"
expect_in "$T/out" "\"$ctlfile\""
if have python3; then
	python3 - "$T/out" "$ctl" "$ctlfile" <<'EOF' ||
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert rows[0]["machine"] == sys.argv[2], rows[0]["machine"]
assert rows[0]["source"] == sys.argv[3], rows[0]["source"]
EOF
		fail "export --format csv does not read back as the stored text"
fi
# list and show: cleaned, no control character but show's own newlines.
run "$BSTORE" list "$id"
expect_rc 0 "list"
expect_in "$T/out" " tab?here?[1mbold "
run "$BSTORE" show "$id"
expect_rc 0 "show"
expect_in "$T/out" "Run $id: tab?here?[1mbold, bonnie++ 2.00a"
expect_in "$T/out" "source                 $T/ctl?name?x.csv:1"
expect_in "$T/out" "tab?here?[1mbold 2G  545k"
expect_in "$T/out" "tab?here?[1mbold    -Create--"
# The original text keeps its tabs, as pasted (issue 29); the escape
# is still '?'.
expect_in "$T/out" "  1.98,2.00a,tab$(printf '\t')here?[1mbold,1,"
for out in list show; do
	run "$BSTORE" $out "$id"
	if LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n\t' <"$T/out"); then
		fail "$out prints a control character"
	fi
done
# A rejected line with control characters: list --rejects cleans it too.
printf '%s\n' "$(setf "$(setf "$line198" 3 "$ctl")" 12 1e308)" >"$ctlfile.bad"
run "$BSTORE" ingest "$ctlfile.bad"
expect_rc 1 "ingest of a bad line with control characters"
run "$BSTORE" list --rejects
expect_rc 0 "list --rejects"
expect_in "$T/out" "$T/ctl?name?x.csv.bad:1: field 12 (put_block)"
expect_in "$T/out" "    1.98,2.00a,tab?here?[1mbold,1,"
if LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$T/out"); then
	fail "list --rejects prints a control character"
fi

finish
