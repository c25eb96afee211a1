#!/usr/bin/env bash
# tests/cli/report_curves.sh - zcav's curves in bstore report: the zcav
# samples ingested, then a report in every format, each checked against
# numbers worked out here from the samples' own lines (the text summary
# rows, every CSV and JSON point, the HTML chart's lines and legend).
# Skipped when the samples (and the zcav parser that comes with them) are
# absent.
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3
cd "$SRC"

read=samples/zcav-2.00a-read-labvm.txt       # timed and ++++ blocks
write=samples/zcav-2.00a-write-labvm.txt     # -w: write_mib_s
c2=samples/zcav-2.00a-c2-labvm.txt           # -c 2: trimmed means
skip2=samples/zcav-2.00a-skip2-labvm.txt     # -s 2, every block ++++
cached=samples/zcav-2.00a-cached-labvm.txt   # every block ++++
for f in "$read" "$write" "$c2" "$skip2" "$cached"; do
	if [ ! -f "$f" ]; then
		echo "report_curves.sh: skipped: no zcav sample '$f'"
		exit 77
	fi
done

names=(read write c2 skip2 cached)
files=("$read" "$write" "$c2" "$skip2" "$cached")
for i in "${!names[@]}"; do
	run "$BSTORE" ingest -t "zcav=${names[$i]}" "${files[$i]}"
	expect_rc 0 "ingest ${files[$i]}"
	expect_in "$T/out" "1 run stored"
done
sels=(zcav=read zcav=write zcav=c2 zcav=skip2 zcav=cached)

# A sample's blocks, one line each: offset, MiB/s ("" for ++++), seconds.
blocks() {
	awk '/^[0-9]/ && NF == 3 { print $1, $2, $3 }
	     /^#[0-9.]+ \+\+\+\+/ { sub(/^#/, ""); print $1, "", $3 }' "$1"
}
# The number as the report prints it: 2 decimals (the catalogue's rule
# for zcav's MiB/s, core/metric.c).
fmt() { awk -v v="$1" 'BEGIN { printf "%.2f\n", v }'; }

run "$BSTORE" report -f json -o "$T/r.json" "${sels[@]}"
expect_rc 0 "report -f json"
j() { sqlite3 :memory: "select json_extract(readfile('$T/r.json'), '$1')"; }
expect_eq "$(sqlite3 :memory: "select json_valid(readfile('$T/r.json'))")" 1 "valid JSON"
id=()
for i in "${!names[@]}"; do
	id[$i]=$(j "\$.groups[$i].ids[0]")
done

# --- text: a summary row per curve -----------------------------------------
run "$BSTORE" report -f text "${sels[@]}"
expect_rc 0 "report -f text"
tr -s ' ' <"$T/out" >"$T/words"
expect_in "$T/words" "Read by position, MiB/s: a row per run (zcav)"
expect_in "$T/words" "Write by position, MiB/s: a row per run (zcav)"
expect_in "$T/words" "Group Run Machine First Last Min Mean Max Blocks Too fast"
for i in "${!names[@]}"; do
	blocks "${files[$i]}" >"$T/blocks"
	n=$(wc -l <"$T/blocks")
	fast=$(awk -F' ' 'NF == 2' "$T/blocks" | wc -l)
	if [ "$fast" = "$n" ]; then
		nums="+++++ +++++ +++++ +++++ +++++"
	else
		read -r first last min mean max < <(awk 'NF == 3 {
			if (!k++) { first = $2; min = $2; max = $2 }
			if ($2 < min) min = $2; if ($2 > max) max = $2
			last = $2; sum += $2 }
			END { printf "%s %s %s %.10f %s\n", first, last, min, sum / k, max }' "$T/blocks")
		nums="$(fmt "$first") $(fmt "$last") $(fmt "$min") $(fmt "$mean") $(fmt "$max")"
	fi
	# zcav prints no machine name: the Machine column says so.
	expect_in "$T/words" "[$((i + 1))] ${sels[$i]} ${id[$i]} unknown machine $nums $n $fast"
done

# --- CSV: every block a row of the points table ------------------------------
run "$BSTORE" report -f csv "${sels[@]}"
expect_rc 0 "report -f csv"
cp "$T/out" "$T/r.csv"
expect_in "$T/r.csv" "group,run,machine,metric,offset_gib,mib_s,seconds"
for i in "${!names[@]}"; do
	blocks "${files[$i]}" >"$T/blocks"
	metric=read_mib_s
	[ "${names[$i]}" = write ] && metric=write_mib_s
	awk -F, -v g="\"${sels[$i]}\"" -v id="${id[$i]}" -v m="\"$metric\"" \
		'$1 == g && $2 == id && $4 == m { print $5, $6, $7 }' "$T/r.csv" >"$T/points"
	# Offsets as zcav printed them (2 decimals) or exact; rates and
	# seconds as printed; a ++++ block has an empty rate, never 0.
	if ! awk 'NR == FNR { ox[FNR] = $1; oy[FNR] = (NF == 3 ? $2 : ""); os[FNR] = $NF; n = FNR; next }
		{ k++; y = (NF == 3 ? $2 : "")
		  d = $1 - ox[k]; if (d < 0) d = -d
		  if (d > 0.005 || y != oy[k] || $NF + 0 != os[k] + 0) bad++ }
		END { exit (bad || k != n) }' "$T/blocks" "$T/points"; then
		fail "CSV points of ${files[$i]} differ from its blocks:"
		paste "$T/blocks" "$T/points" | head -10 >&2
	fi
done

# --- JSON: each run's summary and points -------------------------------------
expect_eq "$(j '$.curves[0].metric')" read_mib_s "first curve metric"
expect_eq "$(j '$.curves[1].metric')" write_mib_s "second curve metric"
expect_eq "$(j '$.curves_note')" "" "nothing left out"
expect_eq "$(j '$.curves[0].runs[0].run')" "${id[0]}" "first curve's run"
blocks "$read" >"$T/blocks"
expect_eq "$(j '$.curves[0].runs[0].blocks')" "$(wc -l <"$T/blocks")" "blocks of the read run"
expect_eq "$(sqlite3 :memory: "select json_array_length(readfile('$T/r.json'), '\$.curves[0].runs[0].points')")" \
	"$(wc -l <"$T/blocks")" "points of the read run"
expect_eq "$(j '$.curves[0].runs[0].points[0].mib_s')" "" "a ++++ block is null"
expect_eq "$(j '$.curves[0].runs[0].points[3].mib_s')" "$(awk 'NR == 4 { print $2 }' "$T/blocks")" \
	"the first timed block"
# Numbers for scripts carry six significant digits.
mean=$(awk 'NF == 3 { s += $2; k++ } END { printf "%.4f", s / k }' "$T/blocks")
expect_eq "$(sqlite3 :memory: "select printf('%.4f', json_extract(readfile('$T/r.json'), '\$.curves[0].runs[0].mean'))")" \
	"$mean" "mean of the read run"

# --- HTML: a chart per curve metric, inside its section ---------------------
run "$BSTORE" report -o "$T/r.html" "${sels[@]}"
expect_rc 0 "report -o r.html"
expect_eq "$(grep -c '<svg class="curve"' "$T/r.html")" 2 "charts (read, write)"
# A line per run with a timed block; the others are rows of the legend.
timed=0
for f in "${files[@]}"; do
	grep -q '^[0-9]' "$f" && timed=$((timed + 1))
done
expect_eq "$(grep -c '<path d="M' "$T/r.html")" "$timed" "lines, one per run with a timed block"
expect_eq "$(grep -c '<path ' "$T/r.html")" "$timed" "no empty lines"
expect_eq "$(grep -c '<td class="key">' "$T/r.html")" "${#files[@]}" "legend rows, one per run"
expect_in "$T/r.html" "<figcaption>Read, MiB/s by position"
# The samples read files (/tmp/x/...): the axis says so.
expect_in "$T/r.html" "offset in the file, GiB"
expect_not_in "$T/r.html" "log scale"
expect_in "$T/r.html" "<th scope=\"row\">[1] zcav=read</th><td>${id[0]}</td>"
expect_not_in "$T/r.html" "<script"
expect_not_in "$T/r.html" "http:"
expect_not_in "$T/r.html" "https:"
# Every coordinate of every line lies inside the plot's frame.
frame=$(sed -n 's/.*<rect class="frame" x="\([0-9.]*\)" y="\([0-9.]*\)" width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1 \2 \3 \4/p' "$T/r.html" | head -1)
grep -o '<path d="[^"]*"' "$T/r.html" | sed 's/<path d="//; s/"$//; s/[ML]/\n/g' |
	awk -v f="$frame" 'BEGIN { split(f, a, " ") }
		NF == 2 && ($1 < a[1] || $1 > a[1] + a[3] || $2 < a[2] || $2 > a[2] + a[4]) { bad++ }
		END { exit bad > 0 }' || fail "a line leaves the plot"

# In Chromium (tests/browser/cdp_check.py): no console error, no request,
# the table's means as computed above, and no wider than a phone.
if have chromium python3; then
	blocks "$read" >"$T/blocks"
	mean=$(fmt "$(awk 'NF == 3 { s += $2; k++ } END { printf "%.10f", s / k }' "$T/blocks")")
	printf '{"[1] zcav=read baseline | read_mib_s": "%s"}\n' "$mean" >"$T/expect.json"
	if python3 tests/browser/cdp_check.py "$(command -v chromium)" "$T/r.html" \
		"$T/expect.json" >"$T/cdp.out" 2>"$T/cdp.err"; then
		expect_in "$T/cdp.out" "no console errors, no requests, fits a phone"
	else
		fail "the HTML report in Chromium:"
		sed 's/^/    /' "$T/cdp.err" >&2
	fi
else
	skip_part "the page in Chromium needs chromium and python3"
fi

# --- the same bytes again ----------------------------------------------------
run "$BSTORE" report -o "$T/again.html" "${sels[@]}"
cmp -s "$T/r.html" "$T/again.html" || fail "HTML report differs between two runs"

# --- curves a hundredfold apart: a log axis; a disk beside a file -----------
# The read sample as a disk 100 times faster would print it (/dev/sdz).
sed -e 's|/tmp/x/small|/dev/sdz|' \
	-e '/^[0-9]/ { s/^\([0-9.]*\) \([0-9.]*\) /\1 \2@ /; }' "$read" |
	awk '{ if ($2 ~ /@$/) { sub(/@$/, "", $2); $2 = sprintf("%.2f", $2 * 100) } print }' >"$T/fast.txt"
run "$BSTORE" ingest -t zcav=fast "$T/fast.txt"
expect_rc 0 "ingest a fast disk"
run "$BSTORE" report -o "$T/log.html" zcav=read zcav=fast
expect_rc 0 "report of curves 100x apart"
expect_in "$T/log.html" "one line per run; a log scale, as the curves differ tenfold or more"
expect_in "$T/log.html" "MiB/s (log scale)</text>"
expect_in "$T/log.html" ">1,000</text>"
expect_in "$T/log.html" "position (offset in the file or on the disk), GiB"
run "$BSTORE" report -o "$T/disk.html" zcav=fast
expect_in "$T/disk.html" "position on the disk, GiB"
expect_not_in "$T/disk.html" "log scale"
# Every coordinate of the log chart lies inside its frame too.
grep -o '<path d="[^"]*"' "$T/log.html" | sed 's/<path d="//; s/"$//; s/[ML]/\n/g' |
	awk -v f="$frame" 'BEGIN { split(f, a, " ") }
		NF == 2 && ($1 < a[1] || $1 > a[1] + a[3] || $2 < a[2] || $2 > a[2] + a[4]) { bad++ }
		END { exit bad > 0 }' || fail "a line leaves the log plot"
finish
