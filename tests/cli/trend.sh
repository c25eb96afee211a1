#!/usr/bin/env bash
# tests/cli/trend.sh - bstore trend on real samples ingested with dates:
# its numbers (text, CSV, JSON) against medians, means and standard
# deviations computed here from the archive with sqlite3 and awk, the
# periods of --every (and auto), --since and --until, the notes on runs
# left out, its errors, and a self-contained HTML page.
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3

ingest() { "$BSTORE" --quiet ingest "$@" >/dev/null; }
S=$SAMPLES
# One machine, "jump", measured over half a year (two runs in January and
# two in March: periods of several runs).
ingest --measured-at 2004-01-05 -t array=emc -t raid=10 "$S/bonnie++-1.03-emc-raid10-nocache.txt"
ingest --measured-at 2004-01-20 -t array=emc -t raid=5 "$S/bonnie++-1.03-emc-raid5-nocache.txt"
ingest --measured-at 2004-02-10 -t array=emc -t raid=10 "$S/bonnie++-1.03-emc-raid10-cache.txt"
ingest --measured-at '2004-03-01 10:00' -t array=emc -t raid=5 "$S/bonnie++-1.03-emc-raid5-cache.txt"
ingest --measured-at 2004-03-15 -t array=ata -t raid=10 "$S/bonnie++-1.03-ata-raid10-cache.txt"
ingest --measured-at 2004-06-30 -t array=ata -t raid=10 "$S/bonnie++-1.03-ata-raid10-nocache.txt"
# Six runs of one blog post, dated by one --measured-at (they share a
# point even each run), and one run without a date.
ingest --measured-at 2005-05-02 "$S/bonnie++-1.03d-pasted-blog.txt"
ingest "$S/bonnie++-1.03-t3-raid5.txt"
# sysbench runs of one host over three months.
ingest -m sb --measured-at 2024-01-10 "$S/sysbench-1.0.20-rndrd.txt"
ingest -m sb --measured-at 2024-01-25 "$S/sysbench-1.0.20-seqrd.txt"
ingest -m sb --measured-at 2024-02-14 "$S/sysbench-1.0.20-seqwr.txt"
ingest -m sb --measured-at 2024-03-03 "$S/sysbench-1.0.20-rndrw.txt"

# stats WHERE METRIC FORM: per period (strftime FORM of measured_at, or
# an SQL expression of r.measured_at when FORM starts with '=') the
# count, median, mean, sample sd, min and max of METRIC's numbers over
# the runs WHERE (on runs r), as "period n median mean sd min max".
stats() {
	local p="strftime('$3', r.measured_at, 'unixepoch')"
	[ "${3#=}" = "$3" ] || p=${3#=}
	sql "SELECT $p, x.value
	     FROM results x JOIN runs r ON r.id = x.run_id
	     WHERE $1 AND x.metric = '$2' AND x.status = 'ok'
	       AND r.measured_at IS NOT NULL
	     ORDER BY 1, 2" |
		awk -F'|' '
		function flush(  i, med, mean, ss, sd) {
			if (n == 0) return
			med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			mean = sum / n
			for (i = 1; i <= n; i++) ss += (v[i] - mean) ^ 2
			sd = n > 1 ? sqrt(ss / (n - 1)) : "-"
			print p, n, med, mean, sd, v[1], v[n]
			n = 0; sum = 0
		}
		$1 != p { flush(); p = $1 }
		{ v[++n] = $2; sum += $2 }
		END { flush() }'
}

# csv_points FILE SELECTOR METRIC [TEST]: the CSV rows of one line (of
# the test named TEST, a prefix) as "period n median mean sd min max" (sd
# "-" when empty).
csv_points() {
	awk -F, -v sel="\"$2\"" -v key="\"$3\"" -v test="\"${4:-}" '
		$1 == sel && $4 == key && index($17, test) == 1 {
			gsub(/"/, "", $7)
			gsub(/ /, "_", $7)
			print $7, $10, $11, $12, ($13 == "" ? "-" : $13), $14, $15
		}' "$1"
}

# same A B WHAT: two "period n median mean sd min max" lists agree, the
# numbers within 6 significant digits (the CSV's precision).
same() {
	if ! awk -v a="$1" -v b="$2" 'BEGIN {
		na = split(a, la, "\n"); nb = split(b, lb, "\n")
		if (na != nb || na == 0) exit 1
		for (i = 1; i <= na; i++) {
			split(la[i], x, " "); split(lb[i], y, " ")
			if (x[1] != y[1] || x[2] != y[2]) exit 1
			for (k = 3; k <= 7; k++) {
				if (x[k] == "-" || y[k] == "-") {
					if (x[k] != y[k]) exit 1
					continue
				}
				d = x[k] - y[k]; if (d < 0) d = -d
				m = y[k] < 0 ? -y[k] : y[k]
				if (d > 1e-5 * m + 1e-9) exit 1
			}
		}
	}'; then
		fail "$3: bstore says"
		echo "$1" | sed 's/^/    /' >&2
		echo "    expected" >&2
		echo "$2" | sed 's/^/    /' >&2
	fi
}

# --- the numbers, by month, in CSV ---------------------------------------
# In the stored KiB/s (--units kib), as the archive's own numbers.
run "$BSTORE" trend -u kib -f csv --every month machine=jump machine=sb
expect_rc 0 "trend -f csv --every month"
cp "$T/out" "$T/month.csv"
expect_in "$T/month.csv" "selector,label,group,metric,unit,better,period,start,run,n,median,mean,sd,min,max,change_pct"
for m in put_block rewrite get_block seeks; do
	same "$(csv_points "$T/month.csv" machine=jump $m)" \
		"$(stats "r.machine = 'jump'" $m %Y-%m)" "jump $m by month"
done
# sysbench: its main metrics are MiB/s read and written, a line per
# test (mode): rndrd, seqrd, seqwr and rndrw are four tests, never one
# line, and seqwr (which only writes) has no read point though sysbench
# prints "read, MiB/s: 0.00".
mode() { echo "r.id IN (SELECT run_id FROM run_params WHERE key = 'mode' AND value = '$1')"; }
for t in rndrd seqrd seqwr rndrw; do
	for m in read_mib_s written_mib_s; do
		[ $t = seqwr ] && [ $m = read_mib_s ] && continue
		case $t:$m in rndrd:written_mib_s | seqrd:written_mib_s) continue ;; esac
		same "$(csv_points "$T/month.csv" machine=sb $m "sysbench $t")" \
			"$(stats "r.machine = 'sb' AND $(mode $t)" $m %Y-%m)" "sb $t $m by month"
	done
done
expect_eq "$(csv_points "$T/month.csv" machine=sb read_mib_s "sysbench seqwr")" "" \
	"a write-only test has no read point"
expect_eq "$(csv_points "$T/month.csv" machine=sb written_mib_s "sysbench seqrd")" "" \
	"a read-only test has no write point"
expect_in "$T/month.csv" ',"sysbench rndrd, 1 thread","sb"'
expect_in "$T/month.csv" '"machine=jump","machine=jump",1,"put_block","KiB/s","higher","2004-01","2004-01-01T00:00:00Z",,2,12092.5,12092.5,1868.88,10771,13414,'
# A period of one run names it; the change is against the first median.
expect_in "$T/month.csv" '"machine=jump","machine=jump",1,"put_block","KiB/s","higher","2004-02","2004-02-01T00:00:00Z",3,1,73130,73130,,73130,73130,504.755'
expect_in "$T/month.csv" '"title","Trend: machine=jump vs machine=sb"'
expect_in "$T/month.csv" '"every","month"'

# Quarters, weeks (Monday to Sunday), years, days.
run "$BSTORE" trend -u kib -f csv -e quarter machine=jump
same "$(csv_points "$T/out" machine=jump put_block)" \
	"$(stats "r.machine = 'jump'" put_block "=strftime('%Y', r.measured_at, 'unixepoch') || '-Q' || ((CAST(strftime('%m', r.measured_at, 'unixepoch') AS INTEGER) + 2) / 3)")" \
	"jump put_block by quarter"
run "$BSTORE" trend -u kib -f csv -e week machine=jump
expect_rc 0 "trend -e week"
# 2004-01-05 was a Monday, 2004-01-20 a Tuesday (week of the 19th),
# 2004-03-01 a Monday, 2004-03-15 a Monday.
expect_in "$T/out" '"2004-01-19","2004-01-19T00:00:00Z",2,1,10771'
expect_in "$T/out" '"2004-06-28","2004-06-28T00:00:00Z",6,1,16282'
run "$BSTORE" trend -u kib -f csv -e year machine=jump
same "$(csv_points "$T/out" machine=jump get_block)" \
	"$(stats "r.machine = 'jump'" get_block %Y)" "jump get_block by year"

# auto: each run a point (at most 60 a line); runs of one second share
# one. The blog post's six runs of 2005-05-02, all on one point.
run "$BSTORE" trend -u kib -f csv 'machine=*'
expect_in "$T/out" '"every","run"'
# A line per machine and test: the blog post's six runs (three
# machines, several file sizes) are no one point, and jump's runs are
# its own line.
same "$(grep '^"machine=\*",.*,"put_block",.*,"jump"$' "$T/out" > "$T/jump.csv"
	csv_points "$T/jump.csv" 'machine=*' put_block)" \
	"$(stats "r.machine = 'jump'" put_block '%Y-%m-%d_%H:%M:%S')" \
	"every run, put_block of jump"
expect_not_in "$T/out" '"2005-05-02 00:00:00","2005-05-02T00:00:00Z",,6,'
expect_eq "$(awk -F, '$4 == "\"put_block\"" && $7 ~ /2005-05-02/ { n += $10 } END { print n }' "$T/out")" 6 \
	"the blog's six runs, each in its series"
expect_in "$T/out" '"note","[1] machine=*: 1 run without a date (measured_at) left out"'

# --- since and until: the spans selectors' dates name -----------------------
run "$BSTORE" trend -u kib -f csv -e month --since 2004-02 --until 2004-03 machine=jump
expect_rc 0 "trend --since --until"
same "$(csv_points "$T/out" machine=jump put_block)" \
	"$(stats "r.machine = 'jump' AND r.measured_at BETWEEN strftime('%s', '2004-02-01') AND strftime('%s', '2004-04-01') - 1" put_block %Y-%m)" \
	"since 2004-02 until 2004-03"
expect_in "$T/out" '"note","[1] machine=jump: 3 runs measured outside 2004-02-01T00:00:00Z to 2004-03-31T23:59:59Z left out"'
run "$BSTORE" trend -u kib -f csv -e run --until 2004-01-20 machine=jump
expect_eq "$(grep -c '"put_block"' "$T/out")" 2 "--until 2004-01-20 keeps that whole day"

# --- text and JSON ----------------------------------------------------------
run "$BSTORE" trend -e month machine=jump
expect_rc 0 "trend text"
expect_in "$T/out" "Trend: machine=jump"
expect_in "$T/out" "6 runs of 1 selector, per month."
expect_in "$T/out" "bonnie++ 1.0x: block write, MiB/s (higher is better): [1] machine=jump"
expect_in "$T/out" "  period   n  median  mean    sd   min    max   change"
expect_in "$T/out" "  2004-01  2    11.8  11.8   1.8  10.5   13.1"
expect_in "$T/out" "  2004-03  2    91.9  91.9  12.9  82.7  101.0  +678.1%"
expect_in "$T/out" "bonnie++ 1.0x: random seeks, seeks/s (higher is better): [1] machine=jump"
# -o FILE.json asks for JSON; --metrics as report takes it.
run "$BSTORE" trend -e quarter --metrics seeks,put_block_cpu -o "$T/t.json" machine=jump
expect_rc 0 "trend -o t.json"
expect_in "$T/t.json" '"every": "quarter",'
expect_in "$T/t.json" '{"test": "bonnie++ 1.0x", "title": "bonnie++ 1.0x: block write CPU", "key": "put_block_cpu", "label": "Block write CPU", "unit": "%", "better": "lower", "family": "bonnie",'
expect_in "$T/t.json" '{"selector": "machine=jump", "group": 1, "machine": "jump", "test": "bonnie++ 1.0x", "metric": "seeks", "unit": "seeks/s", "period": "2004-Q1", "start": "2004-01-01T00:00:00Z", "run": null, "n": 5, "median": 493.5,'
expect_not_in "$T/t.json" '"metric": "put_block",'
if have python3; then
	python3 - "$T/t.json" <<'PY' || fail "trend JSON does not parse or its numbers differ"
import json, statistics, sys
d = json.load(open(sys.argv[1]))
pts = [p for p in d["points"] if p["metric"] == "seeks"]
q1 = [431.1, 465.7, 493.5, 495.4, 575]
assert pts[0]["n"] == 5 and pts[0]["median"] == statistics.median(q1)
assert abs(pts[0]["mean"] - statistics.mean(q1)) < 1e-3
assert abs(pts[0]["sd"] - statistics.stdev(q1)) < 1e-3
assert pts[1]["n"] == 1 and pts[1]["sd"] is None
PY
else
	skip_part "the JSON check needs python3"
fi

# --- errors -------------------------------------------------------------------
run "$BSTORE" trend machine=nothing
expect_rc 1 "a selector that matches nothing"
expect_in "$T/err" "bstore: trend: selector 'machine=nothing' matches no runs"
run "$BSTORE" trend machine=billing
expect_rc 1 "a selector of runs without a date"
expect_in "$T/err" "bstore: trend: selector 'machine=billing' has no run with a date (1 without one; ingest --measured-at DATE dates runs whose text has none)"
run "$BSTORE" trend --since 2030 machine=jump
expect_rc 1 "no run in the range"
expect_in "$T/err" "has no run with a date in the range (6 measured before 2030-01-01T00:00:00Z, 0 without a date)"
run "$BSTORE" trend --metrics bogus machine=jump
expect_rc 2 "an unknown metric"
expect_in "$T/err" "bstore: trend: unknown metric 'bogus'"
run "$BSTORE" trend --metrics reads_per_s machine=jump
expect_rc 1 "a metric no run has"
expect_in "$T/err" "no run has a number of the metrics asked (--metrics)"
run "$BSTORE" trend --since 2004-13-01 machine=jump
expect_rc 2 "a bad date"
expect_in "$T/err" "bstore: trend: --since: '2004-13-01' is not a date"
run "$BSTORE" trend --since 2005 --until 2004 machine=jump
expect_rc 2 "--since after --until"
run "$BSTORE" trend --every fortnight machine=jump
expect_rc 2 "a bad period"
expect_in "$T/err" "unknown period 'fortnight'"
run "$BSTORE" trend
expect_rc 2 "no selector"
expect_in "$T/err" "Try 'bstore trend --help'."
expect_style "$T/err"

# --- HTML: one self-contained page -------------------------------------------
run "$BSTORE" trend -o "$T/t.html" machine=jump 'machine=server_name' machine=sb
expect_rc 0 "trend -o t.html"
expect_not_in "$T/t.html" "<script"
if grep -qiE 'https?:|src=|href=|@import|url\(' "$T/t.html"; then
	fail "the trend page refers to something outside itself"
fi
# A chart per test and metric, no two of one title: sysbench's four
# modes are four tests, the blog post's runs several.
expect_eq "$(grep -c '<svg class="trend"' "$T/t.html")" \
	"$(grep '^<h2>' "$T/t.html" | grep -vc '^<h2>Notes')" "a title a chart"
expect_eq "$(grep '^<h2>' "$T/t.html" | sort | uniq -d)" "" "no two charts of one title"
expect_in "$T/t.html" "<h2>sysbench seqwr, 1 thread: written <small>(MiB/s)</small></h2>"
expect_not_in "$T/t.html" "<h2>sysbench seqwr, 1 thread: read <small>"
expect_in "$T/t.html" "<h2>sysbench rndrw, 1 thread: read <small>(MiB/s)</small></h2>"
# jump's runs and the blog post's are both bonnie++ 1.0x: their names
# say what sets them apart.
expect_in "$T/t.html" "<h2>bonnie++ 1.0x, file size 16 GiB, files (x1024) 16: block write <small>(MiB/s)</small></h2>"
expect_in "$T/t.html" "Block write in MiB/s, the median each run (higher is better)"
expect_in "$T/t.html" '<text class="xt" x="'
expect_in "$T/t.html" '>2004-07</text>'
# The same command gives the same bytes.
"$BSTORE" trend -o "$T/t2.html" machine=jump 'machine=server_name' machine=sb
cmp -s "$T/t.html" "$T/t2.html" || fail "two runs of one trend differ"
# A point's tooltip: its line, period and numbers.
expect_in "$T/t.html" "<title>[1] machine=jump, 2004-03-01 10:00:00: median 101.0 MiB/s, n=1, run 4</title>"
# Labels are the user's: escaped, never markup.
"$BSTORE" --quiet tag 1-3 'note=<script>x</script>&' >/dev/null
run "$BSTORE" trend -o "$T/h.html" 'note=<script>*'
expect_rc 0 "trend of a hostile tag"
expect_not_in "$T/h.html" "<script"
expect_in "$T/h.html" "[1] note=&lt;script&gt;*"

"$BSTORE" trend --help >"$T/help"
expect_in "$T/help" "Usage: bstore trend [OPTIONS] SELECTOR..."
"$BSTORE" --help >"$T/help"
expect_in "$T/help" "  trend     chart metrics of runs over the time they were measured"
# A metric whose every run was too fast to time is left out with a
# note saying so (zcav runs of ++++ blocks only), and named in the error
# when nothing is left to draw.
Z=$T/zcav.db
BSTORE_DB=$Z "$BSTORE" ingest --measured-at 2024-01-01 "$S/zcav-2.00a-skip2-labvm.txt" \
	"$S/bonnie++-2.00a-local-full.txt" >/dev/null
BSTORE_DB=$Z "$BSTORE" ingest --measured-at 2024-02-01 "$S/zcav-2.00a-cached-labvm.txt" >/dev/null
BSTORE_DB=$Z run "$BSTORE" trend all
expect_rc 0 "trend of runs too fast to time"
expect_in "$T/out" "* Left out: Read of zcav: every run too fast to time (2 runs, no number)"
BSTORE_DB=$Z run "$BSTORE" trend tool=zcav
expect_rc 1 "a trend of nothing but ++++"
expect_in "$T/err" "left out: Read of zcav: every run too fast to time (2 runs, no number)"
finish
