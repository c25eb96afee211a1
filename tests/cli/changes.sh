#!/usr/bin/env bash
# tests/cli/changes.sh - bstore changes and check on real repeated runs
# (tests/data/repeats/, bench/repeats.sh): 20 sysbench fileio rndrw runs on
# a tmpfs then 20 on the disk, tagged with two kernels, are one series
# whose change at run 21 is explained by host.kernel; 20 fio runs of one
# configuration on the disk have no change; check exits 1 when the newest
# run falls off its level, 0 when it does not, 2 on a usage error; the
# JSON and CSV carry the same change; runs without a date are counted.
set -euo pipefail
. "$SRC/tests/lib.sh"

R=$SRC/tests/data/repeats
ingest() { "$BSTORE" --quiet ingest "$@" >/dev/null; }
# Daily runs from 2026-01-02 on, in the order ingested.
date_runs() {
	local i
	for i in $(seq "$1" "$2"); do
		"$BSTORE" set "$i" measured_at="$(date -u -d "2026-01-01 +$i days" +%F)" >/dev/null
	done
}
ingest -m vm -t host.kernel=6.1.0-18 "$R/sysbench-1.0.20-rndrw-shm-x20.txt"
ingest -m vm -t host.kernel=6.6.13 "$R/sysbench-1.0.20-rndrw-disk-x20.txt"
date_runs 1 40

run "$BSTORE" changes -f json
expect_rc 0 "changes -f json"
# Every metric of the series changes at run 21, each explained by the
# kernel, and only by it.
n21=$(grep -c '"run_id":21,' "$T/out" || true)
[ "$n21" -ge 5 ] || fail "changes at run 21: $n21, expected the rates and latencies"
grep '"run_id":21,' "$T/out" | grep -v -q '"explained_by":\[{"key":"host.kernel","from":"6.1.0-18","to":"6.6.13"}\]' &&
	fail "a change at run 21 not explained by host.kernel alone"
grep -q '"metric":"writes_per_s","run_id":21,.*"n_after":20,.*"direction":"worse"' "$T/out" ||
	fail "writes_per_s: no worse change at run 21 with 20 runs after"
# The level after: the median of the 20 disk runs' writes/s, from the
# archive itself.
want=$("$BSTORE" export --format csv --long 21-40 | awk -F, '$10 == "\"writes_per_s\"" {print $11}' | sort -n | awk '{a[NR] = $1} END {print (a[10] + a[11]) / 2}')
got=$(grep '"metric":"writes_per_s","run_id":21,' "$T/out" | sed 's/.*"after":\([0-9.e+-]*\).*/\1/')
awk -v a="$want" -v b="$got" 'BEGIN {exit !(a - b < 1e-6 && b - a < 1e-6)}' ||
	fail "writes_per_s after: $got, the median of runs 21-40 is $want"

run "$BSTORE" changes
expect_rc 0 changes
grep -q '^vm, sysbench|sysbench|mode=rndrw|.*: Writes 39.5x lower from run 21 (2026-01-22), worse$' "$T/out" ||
	fail "text: no 'Writes 39.5x lower from run 21' line"
grep -q '^    at run 21: host.kernel 6.1.0-18 -> 6.6.13$' "$T/out" ||
	fail "text: the explanation"
run "$BSTORE" changes -f csv
head -1 "$T/out" | grep -q '^machine,identity,metric,run_id,measured_at,' ||
	fail "csv: header"
grep -q '^"vm","sysbench|sysbench|mode=rndrw|[^"]*","writes_per_s",21,"2026-01-22T00:00:00Z",20,' "$T/out" ||
	fail "csv: the writes_per_s change"

# Every view marks the change: the trend's HTML chart (a marker whose
# <title> explains it, and the same words below the chart).
run "$BSTORE" trend -f html all
expect_rc 0 "trend -f html"
grep -q '<g class="cp worse"><title>\[1\] all: Written 39.5x lower from run 21 (2026-01-22), worse: host.kernel 6.1.0-18 -&gt; 6.6.13</title>' "$T/out" ||
	fail "trend: no marker with its explanation at run 21"
grep -q '<li class="worse">.*Written 39.5x lower from run 21 (2026-01-22), worse\. <span class="why">host.kernel 6.1.0-18 -&gt; 6.6.13</span>' "$T/out" ||
	fail "trend: the change in text below the chart"
# text and JSON name the two levels for bstore report.
run "$BSTORE" changes
grep -q "^    the two levels: bstore report 'id=[0-9]*-20,machine=vm,tool=sysbench' 'id=21-40,machine=vm,tool=sysbench'$" "$T/out" ||
	fail "text: the two levels' report command"
# The site: the charts' markers, changes.html, changes.xml, the index.
S=$T/site
"$BSTORE" --quiet site -o "$S" >/dev/null || fail "site"
grep -l '<g class="cp worse"><title>Written 39.5x lower from run 21 (2026-01-22), worse: host.kernel 6.1.0-18 -&gt; 6.6.13</title>' "$S"/machine/*.html >/dev/null ||
	fail "site: no marker on the machine's chart"
grep -q 'Written 39.5x lower from run 21 (2026-01-22), worse\. <span class="mute">host.kernel' "$S"/machine/*.html ||
	fail "site: the change in text below the chart"
nchanges=$("$BSTORE" changes -f json | wc -l)
[ "$(grep -c '<article class="change' "$S/changes.html")" -eq "$nchanges" ] ||
	fail "changes.html: not one article a change ($nchanges)"
grep -q '<tr><th>What changed<td>host.kernel 6.1.0-18 -&gt; 6.6.13' "$S/changes.html" ||
	fail "changes.html: what changed"
grep -q 'href="changes.html"' "$S/index.html" || fail "index: no link to changes.html"
grep -q '<h2>Latest changes</h2>' "$S/index.html" || fail "index: no latest changes"
# Every link of the Changes page and of the index is a file of the site,
# and each change's comparison is the report of its two levels.
for page in changes.html index.html; do
	for href in $(grep -o 'href="[^"]*"' "$S/$page" | sed 's/href="\(.*\)"/\1/'); do
		[ -f "$S/$href" ] || fail "$page: '$href' is no file of the site"
	done
done
grep -q '<a href="run/20-[0-9a-f]*.html">run 20</a> (the last before) &rarr; <a href="run/21-[0-9a-f]*.html">run 21</a>' "$S/changes.html" ||
	fail "changes.html: the runs before and after"
grep -q '21-40' "$S/change/21-writes_per_s.html" ||
	fail "change/21-writes_per_s.html: not the comparison of the levels"
"$BSTORE" report 'id=21-40,machine=vm,tool=sysbench' 'id=1-20,machine=vm,tool=sysbench' >/dev/null ||
	fail "the levels' selectors"
python3 - "$S/changes.xml" "$nchanges" <<'PY' || fail "changes.xml: not the Atom feed of the changes"
import sys, xml.etree.ElementTree as E
a = '{http://www.w3.org/2005/Atom}'
f = E.parse(sys.argv[1]).getroot()
assert f.tag == a + 'feed'
for k in ('id', 'title', 'updated'):
    assert f.find(a + k) is not None and f.find(a + k).text, k
es = f.findall(a + 'entry')
assert len(es) == int(sys.argv[2]), len(es)
for e in es:
    for k in ('id', 'title', 'updated', 'summary'):
        assert e.find(a + k) is not None and e.find(a + k).text, k
    assert e.find(a + 'link').get('href').startswith('change/')
assert any('Writes 39.5x lower from run 21' in e.find(a + 'title').text and
           'host.kernel 6.1.0-18 -> 6.6.13' in e.find(a + 'summary').text for e in es)
PY

# Repeats of one configuration (fio on the disk): no change.
ingest -m box "$R/fio-3.33-randread-disk-x20.json"
date_runs 41 60
run "$BSTORE" changes machine=box
expect_rc 0 "changes machine=box"
grep -q '^0 change points (1 series of 20 runs' "$T/out" ||
	fail "fio repeats: $(tail -1 "$T/out")"

# check: the newest run of each series against its level.
run "$BSTORE" check machine=vm
expect_rc 0 "check of steady series"
grep -q '^0 regressions' "$T/out" || fail "check: $(tail -1 "$T/out")"
# Tonight's run on box is a tmpfs run of the same test, on a day after the
# others: far off the disk's level, the better way (not a regression);
# one of vm's disk runs becomes box's newest: worse than box's level?
# No: vm's shm runs were 40x better, so make box's newest a bad one.
ingest -m vm -t host.kernel=6.1.0-18 "$R/sysbench-1.0.20-rndrw-shm-x20.txt" # duplicates: nothing stored
"$BSTORE" set 21-40 machine=vm2 >/dev/null
"$BSTORE" set 1 machine=vm2 measured_at=2026-03-01 >/dev/null
run "$BSTORE" check machine=vm2
expect_rc 0 "check: the newest run is better, not a regression"
"$BSTORE" set 1 measured_at=2025-12-01 >/dev/null
"$BSTORE" set 40 machine=vm measured_at=2026-03-01 >/dev/null
run "$BSTORE" check machine=vm
expect_rc 1 "check: a disk run after the tmpfs level"
grep -q 'Writes .* lower from run 40 (2026-03-01), worse' "$T/out" ||
	fail "check: the regression's line"
grep -q 'host.kernel 6.1.0-18 -> 6.6.13' "$T/out" || fail "check: its explanation"
run "$BSTORE" check -f json machine=vm
expect_rc 1 "check -f json"
grep -q '"run_id":40,.*"direction":"worse"' "$T/out" || fail "check -f json"
# --since: the runs since a date after the newest: none to check.
run "$BSTORE" check --since 2027-01-01 machine=vm
expect_rc 0 "check --since after every run"
run "$BSTORE" check --since yesterday
expect_rc 2 "check --since yesterday"
grep -q "is not a date" "$T/err" || fail "check --since: the usage error"

# Runs without a date take no part and are counted.
ingest -m nodate "$R/bonnie++-2.00a-shm-x20.csv"
run "$BSTORE" changes machine=nodate
expect_rc 0 "changes of undated runs"
grep -q '20 runs without a date left out' "$T/out" || fail "undated: $(tail -1 "$T/out")"
# check's cache (report/changes.c): what check finds with it must be what
# it finds reading every run again (--no-cache), after runs are added
# (the cache read incrementally), re-dated, re-tagged, removed and a
# parameter set (the cache dropped by the store).
cached_same() { # WHAT
	run "$BSTORE" check -f json
	cp "$T/out" "$T/cached.json"
	[ ! -s "$T/err" ] || fail "$1: check with the cache said: $(cat "$T/err")"
	local rc1=$rc
	run "$BSTORE" check --no-cache -f json
	cmp -s "$T/out" "$T/cached.json" ||
		fail "$1: check with the cache: $(cat "$T/cached.json"); without: $(cat "$T/out")"
	expect_eq "$rc1" "$rc" "$1: check's exit status with and without the cache"
	run "$BSTORE" check
	cp "$T/out" "$T/cached.txt"
	run "$BSTORE" check --no-cache
	cmp -s "$T/out" "$T/cached.txt" || fail "$1: check's text with and without the cache"
}
state() { sql "SELECT value FROM meta WHERE key = 'cache.check.state'"; }
cached_same "the first check"
state | grep -q '^check-1 bstore [^ ]* 5 80 80 20$' || fail "the cache's state after the first check: $(state)"
[ "$(grep -c '"run_id":40,' "$T/cached.json")" -ge 5 ] || fail "the regressions of run 40, with the cache"
cached_same "the check from the cache"
# New runs: the bonnie++ disk repeats, dated, into the series of the
# undated shm repeats (which take no part) and a series of their own.
ingest -m nodate --measured-at 2026-05-01 "$R/bonnie++-2.00a-disk-x20.csv"
ingest -m box --measured-at 2026-05-02 "$R/fio-3.33-randread-shm-x20.json"
cached_same "runs added"
state | grep -q ' 5 120 120 20$' || fail "the cache's state after 40 runs added: $(state)"
"$BSTORE" set 61-70 measured_at=2026-04-01 >/dev/null
[ -z "$(state)" ] || fail "bstore set did not drop the cache"
cached_same "runs re-dated"
"$BSTORE" tag 40 disk=nvme >/dev/null
cached_same "a run re-tagged"
grep -q 'disk (none) -> nvme' "$T/cached.txt" || fail "the cached check's explanation is the runs' tags of now"
"$BSTORE" set 91-100 direct=1 >/dev/null
cached_same "a parameter set"
"$BSTORE" rm 40 >/dev/null
[ -z "$(state)" ] || fail "bstore rm did not drop the cache"
cached_same "a run removed"
grep -q '"run_id":40,' "$T/cached.json" && fail "a regression of run 40 once it is gone"
# A cache that is not what check wrote is made again.
sql "UPDATE meta SET value = 'x' WHERE key LIKE 'cache.check.s.%'"
cached_same "a damaged cache"
state | grep -q '^check-1 bstore [^ ]* 5 ' || fail "the cache was not made again: $(state)"
run "$BSTORE" check --noise 1
cached_same "check --noise 1 (a cache of another noise made again)"
finish
