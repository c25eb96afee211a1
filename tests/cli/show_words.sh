#!/usr/bin/env bash
# tests/cli/show_words.sh - the words `bstore show` prints for a test with
# no value (core/result.c bs_absent_word), on real captures: "not run"
# only where the output left a test's place empty (bonnie++ -f's per-char
# tests), "not stored (the table misprints it)" for the file tests of
# bonnie++ 2.00a's table (Debian's bonnie++ 2.00a -q, stderr), "not
# reported" for a metric sysbench did not print, "unreadable" for one
# it printed that is no figure, and dd's direction "unknown" for a
# summary without its command line.
set -euo pipefail
. "$SRC/tests/lib.sh"

D=$SRC/tests/data
words() { # ID METRIC: the words after the metric in show's Tests
	"$BSTORE" show "$1" | awk -v m="$2" '$1 == m { $1 = ""; sub(/^ +/, ""); print; exit }'
}

run "$BSTORE" ingest "$D/bonnie++-2.00a-q-disk-stderr.txt"
expect_rc 0 "ingest the 2.00a table"
expect_eq "$(words 1 seq_create | cut -c1-35)" "not stored (the table misprints it)" \
	"a 2.00a table's file test"
expect_eq "$(words 1 seq_stat | cut -c1-8)" "too fast" "a +++++ file test"
# The CSV line has them: the run's words are its numbers now.
run "$BSTORE" ingest "$D/bonnie++-2.00a-q-disk-stdout.csv"
expect_eq "$(words 1 seq_create | awk '{print $1, $2}')" "ok 1541" "the CSV line's file test"

# bonnie++ -f: the per-char tests were not run (the q pair has -f).
run "$BSTORE" ingest "$D/bonnie++-2.00a-q-stdout.csv"
expect_eq "$(words 2 putc | cut -c1-7)" "not run" "bonnie++ -f's putc"

# sysbench 1.0 prints no p99 when asked for p95: not reported.
run "$BSTORE" ingest "$SAMPLES/sysbench-1.0.20-flags-sync-dsync.txt"
expect_eq "$(words last latency_p99_ms)" "not reported" "a metric sysbench did not print"
expect_not_in "$T/out" "not run"

# Printed but no figure (issue 29 class 10): a published sysbench 0.4.10
# run whose reads all failed prints min 18446744073709.55ms (its initial
# value) over no events: "unreadable", neither "not run" nor "not
# reported", and tagged, never stored as a value; what 0.4 does not
# print (p50) stays "not reported". Exported and ingested back, the
# word stays.
F=$D/wild/sysbench-0.4.10-fatal-read-errors.txt
run "$BSTORE" ingest "$F"
expect_in "$T/err" "no events: the latencies are not stored"
for m in latency_min_ms latency_avg_ms latency_max_ms; do
	expect_eq "$(words last $m)" "unreadable (printed, but not a figure: see the warning)" "sysbench without events: $m"
done
expect_eq "$(words last latency_p50_ms)" "not reported" "sysbench 0.4: p50 not printed"
id=$("$BSTORE" list --json | jq -s -r 'last | .id')
expect_eq "$("$BSTORE" export --format json "$id" | jq -r '[.results.latency_min_ms.status, .tags["ingest.unread"]] | @tsv')" \
	"$(printf 'not_run\tlatency_min_ms,latency_avg_ms,latency_max_ms')" "stored: not_run, tagged unread"
"$BSTORE" export --format json "$id" >"$T/unread.jsonl"
X=$T/unread.db
run "$BSTORE" --db "$X" ingest "$T/unread.jsonl"
expect_eq "$("$BSTORE" --db "$X" show last | awk '$1 == "latency_avg_ms" { print $2; exit }')" "unreadable" "restored: still unreadable"

# dd's summary alone (GNU dd's stderr, without the command line): the
# copy rate, its direction unknown.
dd if=/dev/zero of="$T/zero" bs=1M count=8 2>"$T/dd.txt"
run "$BSTORE" ingest "$T/dd.txt"
expect_eq "$(words last write_kib_s)" "unknown (dd's summary does not say which way it copied)" \
	"dd without a command line: Write"
expect_eq "$(words last read_kib_s | cut -c1-7)" "unknown" "dd without a command line: Read"
# Its byte count in units people read, beside the exact count.
"$BSTORE" show last >"$T/dd.show"
expect_in "$T/dd.show" "bytes copied           8388608 bytes (8 MiB)"

# The original text keeps its tabs (a pasted Bonnie-64 table has three),
# not '?' for each.
run "$BSTORE" ingest "$D/bonnie64-table.txt"
"$BSTORE" show last >"$T/show.txt"
expect_eq "$(sed -n '/^Original text:/,$p' "$T/show.txt" | grep -c "$(printf '\t')")" \
	"$(grep -c "$(printf '\t')" "$D/bonnie64-table.txt")" "show keeps the original's tabs"

# bonnie++'s 0.5 s rule explains +++++ on pages of bonnie++ runs only:
# not on a zcav or fio page (Debian's zcav 2.00a, every block ++++).
Z=$T/z.db
"$BSTORE" --db "$Z" -q ingest "$D/zcav-2.00a-8m-blocks.txt" "$SAMPLES/fio-3.33-group-reporting.txt" 2>/dev/null
run "$BSTORE" --db "$Z" report all
# No cell without a number: the legend explains no '-'.
expect_in "$T/out" "* best of the column."
expect_not_in "$T/out" "0.5 s"
expect_not_in "$T/out" "not run"
run "$BSTORE" --db "$Z" site -o "$T/zsite"
expect_eq "$(grep -rl '0.5&nbsp;s' "$T/zsite" | wc -l)" 0 "no 0.5 s rule on a zcav and fio site"
run "$BSTORE" report tool=bonnie++
expect_in "$T/out" "+++++ too fast to measure (under 0.5 s)"
run "$BSTORE" site -o "$T/bsite"
expect_in "$T/bsite/index.html" "under 0.5&nbsp;s, no number (bonnie++&rsquo;s +++++)"
# The report says the same word in its cells: sysbench 1.0's p95 run
# against its p99 run, each metric the other did not print.
run "$BSTORE" --db "$T/rw.db" ingest "$SAMPLES/sysbench-1.0.20-rndrw.txt" \
	"$SAMPLES/sysbench-1.0.20-rndrw-threads4-p99.txt"
run "$BSTORE" --db "$T/rw.db" report --format html 1 2
expect_rc 0 "HTML report of p95 against p99"
expect_in "$T/out" 'data-metric="latency_p99_ms" title="not reported">not reported'
expect_in "$T/out" 'data-metric="latency_p95_ms" title="not reported">not reported'
expect_in "$T/out" 'title="[1] 1: not reported"'
expect_not_in "$T/out" '>not run<'
# The legend under the list of runs names the word, as show does.
expect_in "$T/out" '&ldquo;not reported&rdquo;: no number, as bstore show says it of the run.'
expect_not_in "$T/out" '&ldquo;not run&rdquo;'
# The text report: '-' where the other run has its percentile, and the
# legend says what '-' is for these runs.
run "$BSTORE" --db "$T/rw.db" report 1 2
expect_rc 0 "text report of p95 against p99"
expect_eq "$(awk '$1 == "[1]" && $2 == 1 && $3 ~ /^[0-9]/ { print $(NF - 2) }
	$1 == "[2]" && $2 == 2 && $3 ~ /^[0-9]/ { print $(NF - 3) }' "$T/out" | tr '\n' ' ')" \
	"- - " "the percentile each run did not print"
expect_in "$T/out" "* best of the column; - not reported."
expect_not_in "$T/out" "not run"
# The site: each run's page names what it did not report, by the same
# word, and no page says "not run" of these sysbench runs.
run "$BSTORE" --db "$T/rw.db" site -o "$T/rwsite"
expect_rc 0 "site of p95 and p99"
expect_in "$T/rwsite/run/1-"*.html '<p class="mute">Not reported: Requests, Latency p50, Latency p90, Latency p99, Latency histogram.</p>'
expect_in "$T/rwsite/run/2-"*.html '<p class="mute">Not reported: Requests, Latency p50, Latency p90, Latency p95, Latency histogram.</p>'
expect_eq "$(grep -rl 'not run\|Not run\|Not measured' "$T/rwsite" | wc -l)" 0 \
	"no page of the site says not run of them"
# A site row without a number: dd's Write and Read without its command
# line say its direction is unknown in the runs table, and the footer says
# once what the word means.
run "$BSTORE" site -o "$T/fsite"
expect_in "$T/fsite/index.html" "<td class=\"nr\">unknown (dd&#39;s summary does not say which way it copied)<"
expect_eq "$(grep -o '&ldquo;unknown (dd&#39;s summary does not say which way it copied)&rdquo;: no number, as bstore show says it of the run' "$T/fsite/index.html" | wc -l)" 1 \
	"the footer says the word once"
# The HTML report's list of runs: each row its run's own word (dd's
# summary alone, beside runs with their command lines), kept with the
# row's status.
run "$BSTORE" ingest "$SAMPLES/dd-coreutils-9.1-labvm.txt"
expect_rc 0 "ingest dd runs with their command lines"
run "$BSTORE" report --format html tool=dd
expect_rc 0 "HTML report of the dd run"
expect_eq "$(grep -c '^<tr><td>\[1\]</td>.*<td class="nr">unknown (dd&#39;s summary does not say which way it copied)</td><td class="nr">unknown (dd&#39;s summary does not say which way it copied)</td>' "$T/out")" 1 \
	"the run's row says dd's word"
expect_not_in "$T/out" '>not run<'
finish
