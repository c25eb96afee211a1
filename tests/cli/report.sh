#!/usr/bin/env bash
# tests/cli/report.sh - bstore report and compare on the ingested samples:
# the three published comparisons (samples/expected/seed-comparisons.md),
# golden files for every format, hostile names, byte stability, template
# directories, usage errors.
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3
cd "$SRC" # sources are stored as samples/..., as a user would type them

ingest() {
	run "$BSTORE" ingest "$@"
	expect_rc 0 "ingest $*"
}
ingest -t array=emc -t raid=10 -t cache=off samples/bonnie++-1.03-emc-raid10-nocache.txt
ingest -t array=emc -t raid=5 -t cache=off samples/bonnie++-1.03-emc-raid5-nocache.txt
ingest -t array=emc -t raid=10 -t cache=on samples/bonnie++-1.03-emc-raid10-cache.txt
ingest -t array=emc -t raid=5 -t cache=on samples/bonnie++-1.03-emc-raid5-cache.txt
ingest -t array=t3 -t raid=5 samples/bonnie++-1.03-t3-raid5.txt
ingest samples/bonnie++-1.03-ata-raid10-cache.txt samples/bonnie++-1.03-ata-raid10-nocache.txt \
	samples/bonnie++-1.03d-pasted-blog.txt samples/bonnie++-2.00a-local-full.txt

# A table row as words: "diff [1]-[2] 1691 2643 -533 -12358".
words() { tr -s ' ' <"$1" >"$T/words"; }
# A text's sentences on one line, as wrapped paragraphs read.
flat() { tr '\n' ' ' <"$1" | tr -s ' ' >"$T/flat"; }
rates=putc,put_block,getc,get_block

# --- The published comparisons, reproduced --------------------------------
# They were printed in K/sec, bonnie++ 1.03's unit: --units kib.
rates="--units kib --metrics $rates"
# "diff (RAID10 - RAID5)" is RAID10 against the RAID5 baseline.
run "$BSTORE" report --format text $rates --baseline 2 \
	array=emc,raid=10,cache=off array=emc,raid=5,cache=off
expect_rc 0 "EMC cache off"
golden report/seed-emc-nocache.txt "$T/out"
words "$T/out"
expect_in "$T/words" "[1] raid=10 8G 12647* 13414* 33636 146503"
expect_in "$T/words" "[2] raid=5 8G 10956 10771 34169* 158861*"
expect_in "$T/words" "diff [1]-[2] 1691 2643 -533 -12358"

run "$BSTORE" report --format text $rates --baseline 2 \
	array=emc,raid=10,cache=on array=emc,raid=5,cache=on
expect_rc 0 "EMC cache on"
golden report/seed-emc-cache.txt "$T/out"
words "$T/out"
expect_in "$T/words" "diff [1]-[2] -3173 -30310 -293 -16494"

# "ratio (EMC / T3)" is EMC against the T3 baseline; compare is report
# with two groups, the first the baseline.
run "$BSTORE" compare $rates array=t3 array=emc,raid=5,cache=on
expect_rc 0 "T3 vs EMC"
golden report/seed-t3-emc.txt "$T/out"
words "$T/out"
expect_in "$T/words" "ratio [2]/[1] 3.49 3.41 3.39 3.40"
# 4G against 8G files: different tests (docs/report.md, "Test
# identity"), as the summary and the note say.
flat "$T/out"
expect_in "$T/flat" "against [1] array=t3: different tests (file size 8 GiB against 4 GiB)"
# "diff (T3 - EMC)" is T3 against the EMC baseline. The published table
# has -73,120 for the block write; 30319 - 103440 is -73121.
run "$BSTORE" compare $rates --baseline 2 array=t3 array=emc,raid=5,cache=on
expect_rc 0 "T3 vs EMC, EMC baseline"
words "$T/out"
expect_in "$T/words" "diff [1]-[2] -24705 -73121 -23901 -113638"

# --- Every format, golden ---------------------------------------------------
groups=(array=emc,cache=off array=emc,cache=on machine=server_name machine=labvm01)
title='EMC cache off / on, a blog server, a 2.00a box'
run "$BSTORE" report --title "$title" "${groups[@]}"
expect_rc 0 "text report"
golden report/groups.txt "$T/out"
flat "$T/out"
expect_in "$T/flat" "[4] against [1]: related (bonnie++ against bonnie++ 1.0x): bonnie++ 1.0x writes and reads a byte at a time through stdio"
for ext in html csv json; do
	run "$BSTORE" report --title "$title" -o "$T/groups.$ext" "${groups[@]}"
	expect_rc 0 "report -o groups.$ext"
	expect_eq "$(cat "$T/out")" "" "report -o writes nothing to stdout"
	golden report/groups.$ext "$T/groups.$ext"
done
expect_eq "$(ls "$T" | grep -c '\.tmp\.' || true)" 0 "no temporary file left"
# --format wins over the extension; - is standard output.
run "$BSTORE" report --title "$title" -f json -o - "${groups[@]}"
cmp -s "$T/out" "$T/groups.json" || fail "-f json -o - differs from groups.json"

# JSON parses; CSV has its columns on every row.
expect_eq "$(sqlite3 :memory: "select json_valid(readfile('$T/groups.json'))")" 1 "valid JSON"
expect_eq "$(sqlite3 :memory: "select json_extract(readfile('$T/groups.json'), '\$.groups[2].runs')")" 4 \
	"JSON group of 4 runs"
expect_eq "$(sqlite3 :memory: "select json_extract(readfile('$T/groups.json'), '\$.metrics[0].cells[2].status')")" \
	not_run "per-char did not run for the -f runs"
sqlite3 "$T/csv.db" ".import --csv $T/groups.csv t" 2>"$T/err" || fail "CSV does not import"
sed '/^$/,$d' "$T/groups.csv" >"$T/first.csv" # the table before the notes
sqlite3 "$T/csv.db" ".import --csv $T/first.csv t1" 2>"$T/err" || fail "CSV does not import"
expect_eq "$(cat "$T/err")" "" "every CSV row has the header's columns"
expect_eq "$(sqlite3 "$T/csv.db" "select count(*) from t")" "$(($(wc -l <"$T/groups.csv") - 1))" \
	"every CSV row imported"
expect_eq "$(sqlite3 "$T/csv.db" "select count(*) from t where status = 'too_fast' and value <> ''")" 0 \
	"too_fast cells have no value"
expect_eq "$(sqlite3 "$T/csv.db" "select diff from t where \"group\" = 'array=emc, cache=on' and metric = 'put_block'")" \
	74.4067 "CSV diff of the means (MiB/s: the 2.00a box reads 1.8 GiB/s)"

# Byte-stable: the same command gives the same bytes.
run "$BSTORE" report --title "$title" -o "$T/again.html" "${groups[@]}"
cmp -s "$T/again.html" "$T/groups.html" || fail "HTML report differs between two runs"

# HTML charts: each bar's width and error bar agree with its number and
# the axis, in the page's unit (MiB/s here, KiB/s below).
if have python3; then
	python3 "$SRC/tests/browser/bars_check.py" "$T/groups.html" >"$T/bars" 2>&1 ||
		fail "bar charts: $(cat "$T/bars")"
	expect_in "$T/bars" "10 charts, 34 bars match their numbers and axes"
	"$BSTORE" report -u kib -o "$T/kib.html" "${groups[@]}"
	python3 "$SRC/tests/browser/bars_check.py" "$T/kib.html" >"$T/bars" 2>&1 ||
		fail "bar charts in KiB/s: $(cat "$T/bars")"
else
	skip_part "the bar chart check needs python3"
fi

# HTML: one page, no external URL of any kind.
expect_not_in "$T/groups.html" "http:"
expect_not_in "$T/groups.html" "https:"
expect_not_in "$T/groups.html" " src="
expect_not_in "$T/groups.html" " href="
expect_in "$T/groups.html" '<td class="best" data-metric="put_block" title="">290.6</td>'
# One colour system: green and red are the verdicts'; the list of runs
# shades its cells in blue only.
expect_not_in "$T/groups.html" '.s0{background:#f8b4b4}'
expect_in "$T/groups.html" 'table.runs .s10{background:#aec3eb}'

# No selector: one group of every run.
run "$BSTORE" report --metrics seeks
expect_rc 0 "report without selectors"
expect_in "$T/out" "[1] all: 14 runs (ids 1-14)"

# --- Hostile names ----------------------------------------------------------
# The ATA runs' lines under other machine names (new lines, new runs).
grep '^jump,' samples/bonnie++-1.03-ata-raid10-cache.txt |
	sed 's/^jump,/<script>alert(1)<\/script>,/' >"$T/xss.csv"
grep '^jump,' samples/bonnie++-1.03-ata-raid10-nocache.txt |
	sed "s/^jump,/=cmd|' \/C calc'!A0,/" >"$T/formula.csv"
ingest -t "note==cmd|' /C calc'!A0" "$T/xss.csv"
ingest "$T/formula.csv"
sel_xss='machine=<script>alert(1)</script>'
# A '|' of the value itself is '\|' ('|' alone makes alternatives).
sel_formula="machine==cmd\\|' /C calc'!A0"
run "$BSTORE" report --title '<script>alert(2)</script>' -o "$T/x.html" "$sel_xss" "$sel_formula"
expect_rc 0 "report on hostile names"
golden report/hostile.html "$T/x.html"
expect_not_in "$T/x.html" "<script"
expect_in "$T/x.html" "<title>&lt;script&gt;alert(2)&lt;/script&gt;</title>"
expect_in "$T/x.html" "<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"
expect_in "$T/x.html" "note==cmd|&#39; /C calc&#39;!A0"
run "$BSTORE" report -f csv "$sel_xss" "$sel_formula"
expect_rc 0 "CSV on hostile names"
golden report/hostile.csv "$T/out"
expect_in "$T/out" "\"'=cmd|' /C calc'!A0\""
expect_in "$T/out" "\"note==cmd|' /C calc'!A0\""
# No field starts with a formula character once unquoted.
sqlite3 "$T/x.db" ".import --csv $T/out t"
expect_eq "$(sqlite3 "$T/x.db" "select count(*) from t where substr(\"group\",1,1) in ('=','+','-','@')
	or substr(machines,1,1) in ('=','+','-','@') or substr(tags,1,1) in ('=','+','-','@')")" 0 \
	"no formula cells"

# --- Templates ----------------------------------------------------------------
mkdir -p "$T/tpl"
printf '%s\n' '{{TITLE:x-text}} ({{NGROUPS}} groups)' \
	'{{#METRIC}}{{KEY}}:{{#CELL}} {{VALUE}}{{/CELL}}' '{{/METRIC}}' >"$T/tpl/report.txt"
run "$BSTORE" report --template-dir "$T/tpl" --metrics put_block,seeks 1 2
expect_rc 0 "own text template"
expect_eq "$(cat "$T/out")" "1 vs 2 (2 groups)
put_block: 13.1 10.5
seeks: 465.7 431.1" "own template output"
run "$BSTORE" report --template-dir "$T/tpl" -f csv --metrics seeks 1 2
expect_rc 0 "built-in CSV next to an own text template"
expect_in "$T/out" '"1",1,"seeks","seeks/s",465.7,'
printf '{{#BROKEN}}\n' >"$T/tpl/report.html"
run "$BSTORE" report --template-dir "$T/tpl" -f html 1 2
expect_rc 1 "broken template"
expect_in "$T/err" "bstore: report: template '$T/tpl/report.html' does not parse"
run "$BSTORE" report --template-dir "$T/nonexistent" 1 2
expect_rc 1 "missing template directory"
expect_in "$T/err" "cannot open template directory"

# Templates that ctemplate alone cannot survive. ctemplate's own
# blank-line stripping loops forever once both marker delimiters are empty
# ({{= =}}); stripped by bstore, the rest is plain text.
mkdir -p "$T/tpl-odd"
printf '{{= =}}{{TITLE}}\n{{#METRIC}}\n' >"$T/tpl-odd/report.txt"
run timeout 20 "$BSTORE" report --template-dir "$T/tpl-odd" 1 2
expect_rc 0 "template with empty marker delimiters"
expect_eq "$(cat "$T/out")" "{{TITLE}}
{{#METRIC}}" "empty marker delimiters: the rest is text"

# ctemplate takes an x- modifier it does not know for no modifier at all:
# a misspelt x-cvs, or x-csv=1, let a formula and a terminal escape out.
printf '{{TITLE:x-cvs}}\n' >"$T/tpl-odd/report.txt"
run "$BSTORE" report -t $'=cmd\e[31m' --template-dir "$T/tpl-odd" 1 2
expect_rc 1 "unknown x- modifier"
expect_eq "$(cat "$T/err")" "bstore: report: template '$T/tpl-odd/report.txt' does not parse: unknown modifier 'x-cvs' (bstore's are x-csv, x-json and x-text)" \
	"unknown x- modifier"
printf '{{TITLE:h:x-csv=1}}\n' >"$T/tpl-odd/report.txt"
run "$BSTORE" report -t $'=cmd\e[31m' --template-dir "$T/tpl-odd" 1 2
expect_rc 1 "x-csv with a value"
expect_in "$T/err" "does not parse: unknown modifier 'x-csv=1' (bstore's are"

# A template ending in "{{=<% %>=}" made ctemplate compare "}}" one byte
# past its copy of the text (AddressSanitizer: heap-buffer-overflow).
printf '{{TITLE}}{{=<%% %%>=}' >"$T/tpl-odd/report.txt"
run "$BSTORE" report --template-dir "$T/tpl-odd" 1 2
expect_rc 1 "template ending inside a set-delimiter marker"
expect_eq "$(cat "$T/err")" "bstore: report: template '$T/tpl-odd/report.txt' does not parse: it ends inside a set-delimiter marker" \
	"template ending inside a set-delimiter marker"

# Template files that are not: each refused at once, by name. A regression
# would read /dev/zero until memory ran out (capped here, but for
# AddressSanitizer, which reserves terabytes) or wait on the FIFO forever.
# (ldd's output is taken whole: grep -q stopping early under pipefail
# would fail the pipe with SIGPIPE.)
capped() {
	case "$(ldd "$BSTORE" 2>/dev/null)" in
	*libasan*) timeout 20 "$@" ;;
	*) (ulimit -v 4000000 && exec timeout 20 "$@") ;;
	esac
}
mkdir -p "$T/tpl-files"
tf=$T/tpl-files
ln -sf /dev/zero "$tf/report.txt"
mkfifo "$tf/report.csv"
mkdir -p "$tf/report.json"
head -c 1048577 /dev/zero | tr '\0' 'x' >"$tf/report.html"
template_refused() { # EXT WHAT MESSAGE
	run capped "$BSTORE" report --template-dir "$tf" -f "$1" 1 2
	expect_rc 1 "template: $2"
	expect_eq "$(cat "$T/err")" "bstore: report: cannot read template '$tf/report.$1': $3" \
		"template: $2"
}
template_refused txt "a symlink to /dev/zero" \
	"it is a character device, not a regular file"
template_refused csv "a FIFO nobody writes to" "it is a FIFO, not a regular file"
template_refused json "a directory" "Is a directory"
template_refused html "1 MiB and a byte" "larger than 1 MiB"

# A section inside itself walks its parent's list again at every level:
# {{#METRIC}} 8 deep was 24^8 walks (hours of CPU). Stopped, and said so.
inner=$(awk 'BEGIN { for (i = 0; i < 8; i++) printf "{{#METRIC}}";
	for (i = 0; i < 8; i++) printf "{{/METRIC}}" }')
printf '%s\n' "$inner" >"$T/tpl-odd/report.txt"
run timeout 20 "$BSTORE" report --template-dir "$T/tpl-odd" 1 2
expect_rc 1 "sections nested in themselves"
expect_in "$T/err" "bstore: report: cannot expand template 'report.txt': more than "
expect_in "$T/err" " steps for this report's data (a section inside itself repeats its parent's list)"

# ctemplate's parser recurses once per nested section: 50,000 of them
# overflowed its stack (SIGSEGV) in every format. Refused, closed or not.
opens=$(awk 'BEGIN { for (i = 0; i < 50000; i++) printf "{{#A}}" }')
closes=$(awk 'BEGIN { for (i = 0; i < 50000; i++) printf "{{/A}}" }')
for ext in html txt csv json; do
	mkdir -p "$T/tpl-deep-$ext"
	if [ "$ext" = txt ]; then
		printf '%s%s\n' "$opens" "$closes" >"$T/tpl-deep-$ext/report.$ext"
	else
		printf '%s\n' "$opens" >"$T/tpl-deep-$ext/report.$ext"
	fi
	run "$BSTORE" report --template-dir "$T/tpl-deep-$ext" -f "$ext" 1 2
	expect_rc 1 "template nested 50000 deep ($ext)"
	expect_eq "$(cat "$T/err")" "bstore: report: template '$T/tpl-deep-$ext/report.$ext' nests sections 50000 deep (at most 100)" \
		"template nested 50000 deep ($ext)"
done

# --- Errors and help ------------------------------------------------------------
run "$BSTORE" report --help
expect_rc 0 "report --help"
expect_in "$T/out" "Usage: bstore report [OPTIONS] [SELECTOR...]"
run "$BSTORE" compare --help
expect_rc 0 "compare --help"
expect_in "$T/out" "Usage: bstore compare [OPTIONS] SELECTOR_A SELECTOR_B"
usage() {
	run "$BSTORE" "$@"
	expect_rc 2 "$*"
	expect_in "$T/err" "Try 'bstore $1 --help'."
}
usage report --format pdf 1
usage report --units gib 1
usage report --metrics put_blok 1
usage report --baseline 3 1 2
usage report --baseline 0 1 2
usage report 12-
usage report --bogus
usage compare 1
usage compare 1 2 3
run "$BSTORE" report raid=6
expect_rc 1 "selector matching nothing"
expect_in "$T/err" "bstore: report: selector 'raid=6' matches no runs"
run "$BSTORE" report -o "$T/no/such/dir/r.html" 1
expect_rc 1 "unwritable output"
expect_in "$T/err" "cannot write '$T/no/such/dir/r.html'"
run "$BSTORE" --db "$T/none.db" report 1
expect_rc 1 "missing archive"

finish
