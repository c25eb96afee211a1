#!/usr/bin/env bash
# tests/cli/suggest.sh - typos get help, and -o means what it says (issue
# 21). A selector key or value, or a --by/--within key, that matches
# nothing names the closest known ones ("did you mean"); a word that is
# close to nothing gets no guess. report, compare, trend and export take
# the format from -o's extension, refuse one they do not write, and let
# -f win with a warning.
set -euo pipefail
. "$SRC/tests/lib.sh"

for f in "$SAMPLES"/bonnie++-1.03-emc-raid*.txt; do
	r=${f##*raid}
	r=${r%%-*}
	c=${f##*-}
	c=${c%.txt}
	run "$BSTORE" -q ingest --tag raid="$r" --tag cache="$c" --tag array=emc "$f"
	expect_rc 0 "ingest $f"
done

# Selector keys and values.
run "$BSTORE" report riad=10 raid=5
expect_rc 1 "report riad=10 raid=5"
expect_eq "$(cat "$T/err")" "bstore: report: selector 'riad=10' matches no runs; did you mean 'raid=10'?" \
	"a mistyped tag key"
run "$BSTORE" report raid=10 raid=55
expect_eq "$(cat "$T/err")" "bstore: report: selector 'raid=55' matches no runs; did you mean 'raid=5'?" \
	"a mistyped tag value"
run "$BSTORE" list machin=jump
expect_rc 0 "list of a mistyped field"
expect_eq "$(cat "$T/err")" "bstore: list: warning: selector 'machin=jump' matches no runs; did you mean 'machine=jump'?" \
	"a mistyped run field"
run "$BSTORE" show machine=jumb
expect_eq "$(cat "$T/err")" "bstore: show: selector 'machine=jumb' matches no runs; did you mean 'machine=jump'?" \
	"a mistyped machine"
run "$BSTORE" list 'cache=on,raid=100'
expect_eq "$(cat "$T/err")" "bstore: list: warning: selector 'cache=on,raid=100' matches no runs; did you mean 'cache=on,raid=10'?" \
	"one term of several"
# Far from everything, a pattern, or a key that exists: no guess.
for sel in "colour=red" "raid=7*" "raid=zzzz" "machine=db1"; do
	run "$BSTORE" report "$sel"
	expect_eq "$(cat "$T/err")" "bstore: report: selector '$sel' matches no runs" "no guess for $sel"
done

# --by and --within.
run "$BSTORE" report --by riad
expect_rc 1 "report --by riad"
expect_eq "$(cat "$T/err")" "bstore: report: no run has the tag (or parameter) 'riad'; did you mean 'raid'?" \
	"a mistyped --by"
run "$BSTORE" report --by raid --within cahce
expect_eq "$(cat "$T/err")" "bstore: report: no run has both tags (or parameters) 'raid' and 'cahce'; did you mean 'cache'?" \
	"a mistyped --within"
run "$BSTORE" report --by colour
expect_eq "$(cat "$T/err")" "bstore: report: no run has the tag (or parameter) 'colour'" "no guess for --by colour"
# A command, as before, through the same edit distance.
run "$BSTORE" reprot
expect_eq "$(cat "$T/err")" "bstore: 'reprot' is not a bstore command. Did you mean 'report'?" \
	"a mistyped command"

# -o means what it says.
run "$BSTORE" export -o "$T/all.json"
expect_rc 0 "export -o all.json"
expect_eq "$(head -c 7 "$T/all.json")" '{"id":1' "export -o all.json writes JSON"
expect_eq "$(wc -l <"$T/all.json")" 4 "export -o all.json: a line a run"
run "$BSTORE" export -o "$T/all.jsonl" 1
expect_eq "$(head -c 7 "$T/all.jsonl")" '{"id":1' "export -o all.jsonl writes JSON"
run "$BSTORE" export -o "$T/runs.csv"
expect_eq "$(head -c 11 "$T/runs.csv")" "id,machine," "export -o runs.csv writes the CSV layout"
run "$BSTORE" export -o "$T/lines"
expect_eq "$(head -c 5 "$T/lines")" "jump," "export -o without an extension: bonnie++ lines"
for c in "report" "compare 1 2" "trend" "export"; do
	# shellcheck disable=SC2086
	run "$BSTORE" $c -o "$T/cmp.pdf" ${c%%report*}
	expect_rc 2 "$c -o cmp.pdf"
	[ -e "$T/cmp.pdf" ] && fail "$c -o cmp.pdf wrote the file"
done
run "$BSTORE" report -o "$T/cmp.pdf" raid=10 raid=5
expect_eq "$(cat "$T/err")" "bstore: report: -o '$T/cmp.pdf': '.pdf' names no format report writes (.txt, .text, .html, .htm, .csv, .json, .jsonl, .ndjson; or give -f text|html|csv|json)
Try 'bstore report --help'." "report -o cmp.pdf"
run "$BSTORE" export -o "$T/x.txt"
expect_rc 2 "export -o x.txt"
expect_eq "$(head -n 1 "$T/err")" "bstore: export: -o '$T/x.txt': '.txt' names no format export writes (.csv, .json, .jsonl, .ndjson; or give -f bonnie|json|csv)" \
	"export -o x.txt"
run "$BSTORE" report -o "$T/cmp.htm" raid=10 raid=5
expect_rc 0 "report -o cmp.htm"
expect_in "$T/cmp.htm" "<!DOCTYPE html>"
run "$BSTORE" compare -o "$T/c.json" 1 2
expect_rc 0 "compare -o c.json"
expect_eq "$(head -c 1 "$T/c.json")" "{" "compare -o c.json writes JSON"
# -f wins: over an unknown extension silently, over a known one with a
# warning.
run "$BSTORE" report -f text -o "$T/cmp.out" raid=10 raid=5
expect_rc 0 "report -f text -o cmp.out"
expect_eq "$(cat "$T/err")" "" "-f over an unknown extension"
run "$BSTORE" report -f csv -o "$T/cmp.html" raid=10 raid=5
expect_rc 0 "report -f csv -o cmp.html"
expect_eq "$(cat "$T/err")" "bstore: report: warning: writing csv to '$T/cmp.html' as -f says (its name asks for html)" \
	"-f against the extension"
expect_not_in "$T/cmp.html" "<html"
run "$BSTORE" export -f bonnie -o "$T/b.json" 1
expect_in "$T/err" "writing bonnie to '$T/b.json' as -f says (its name asks for json)"
expect_eq "$(head -c 5 "$T/b.json")" "jump," "export -f bonnie -o b.json"
# Parameter keys are offered too, and the corrected selector selects.
run "$BSTORE" -q ingest "$SRC/tests/data/identity/sysbench-1.0.20-rndrw.txt"
expect_rc 0 "ingest sysbench"
run "$BSTORE" list mdoe=rndrw
expect_rc 0 "list mdoe=rndrw"
expect_eq "$(cat "$T/err")" "bstore: list: warning: selector 'mdoe=rndrw' matches no runs; did you mean 'mode=rndrw'?" "a parameter key's typo"
run "$BSTORE" list 'thraeds=1,machine=*'
expect_in "$T/err" "did you mean 'threads=1,machine=*'?"
run "$BSTORE" list mode=rndrw
expect_rc 0 "list mode=rndrw"
expect_eq "$(awk 'NR > 1' "$T/out" | grep -c 'sysbench 1.0.20')" "1" "mode=rndrw selects the sysbench run"
expect_eq "$(wc -l <"$T/out")" "2" "mode=rndrw selects it alone"

finish
