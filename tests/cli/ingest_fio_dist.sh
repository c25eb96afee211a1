#!/usr/bin/env bash
# tests/cli/ingest_fio_dist.sh - fio's distributions as a user ingests
# them: the json+ histograms of real fio 3.33 captures (tests/data/dist,
# make.sh there says how they were made) exported bin for bin and kept
# by merge; the --write_*_log files attached to the run of their job
# (given before or after the JSON, job N of a two-job document, with and
# without --log_avg_msec and the offset column), their points checked
# against the files' lines, a long log kept at BS_FIO_LOG_POINTS with its
# summary exact; and the errors: a log with no run, a bad line, --run of
# a run that is not fio's, each naming the file and storing nothing.
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq

D=$SRC/tests/data/dist
cd "$D"
json() { "$BSTORE" export --format json | jq -c "$@"; }

# 1. json+: every bin of every latency object, as fio printed it.
run "$BSTORE" ingest -m box randread-jsonplus.json randrw-plist.json
expect_rc 0 "ingest json+"
for f in randread-jsonplus.json randrw-plist.json; do
	want=$(jq -c '[.jobs[0] | ("read", "write", "trim") as $d | .[$d] |
		("clat", "slat", "lat") as $l | .["\($l)_ns"].bins // empty |
		to_entries | map([(.key | tonumber), .value])]' "$f")
	got=$(json "select(.source == \"$f\") | [.series |
		(\"read\", \"write\", \"trim\") as \$d |
		(\"clat\", \"slat\", \"lat\") as \$l | .[\"\(\$d)_\(\$l)_hist\"] //
		empty | map([.ns, .ios])]")
	expect_eq "$got" "$want" "$f: the stored bins are fio's"
done
# fio printed no p99.9 for randrw-plist: it is fio's rule over the bins.
expect_eq "$(json 'select(.source == "randrw-plist.json") |
	[.results.read_clat_p50_us.value, .results.read_clat_p99_us.value]')" \
	"$(jq -c '.jobs[0].read.clat_ns.percentile |
	[.["50.000000"] / 1000, .["99.000000"] / 1000]' randrw-plist.json)" \
	"printed percentiles kept"
expect_eq "$(json 'select(.source == "randrw-plist.json") |
	.results.read_clat_p99_9_us.status')" '"ok"' "p99.9 from the bins"
# The histograms are series only: not in results.
expect_eq "$(json '[.results | keys[] | select(endswith("_hist"))] | length' |
	sort -u)" "0" "no histogram in results"

# Stored compactly (schema version 7): one row of distributions a
# histogram, its bins packed by fio's bin index, a pair of varints a bin
# (docs/schema.md): 2 to 3 bytes a bin for these counts, no series row.
want=$(jq '[.jobs[0] | ("read", "write", "trim") as $d | .[$d] |
	("clat", "slat", "lat") as $l | .["\($l)_ns"].bins // empty |
	length] | "\(length) \(add)"' -r randread-jsonplus.json randrw-plist.json |
	awk '{h += $1; b += $2} END {print h, b}')
expect_eq "$(sql "SELECT count(*) || ' ' || sum(nbins) FROM distributions WHERE scheme = 'fio'")" \
	"$want" "one row a histogram, every bin"
expect_eq "$(sql "SELECT count(*) FROM series WHERE metric LIKE '%_hist'")" 0 "no histogram in series"
expect_eq "$(sql "SELECT CASE WHEN sum(length(bins)) BETWEEN 2 * sum(nbins) AND 3 * sum(nbins) THEN 1 ELSE 0 END FROM distributions")" 1 \
	"2 to 3 bytes a bin"

# Merge keeps them.
M=$T/merged.db
run "$BSTORE" --db "$M" merge "$DB"
expect_rc 0 "merge"
expect_eq "$("$BSTORE" --db "$M" export --format json | jq -c .series | md5sum)" \
	"$(json .series | md5sum)" "merge keeps the bins"

# The report's percentile curves: per group, fio's numbers at the nines
# (randread-jsonplus printed p99.9 = 20608 ns), and the table beside the
# chart.
run "$BSTORE" tag source=randread-jsonplus.json arr=a
run "$BSTORE" tag source=randrw-plist.json arr=b
run "$BSTORE" report --format html arr=a arr=b
expect_rc 0 "report html"
expect_in "$T/out" '<section id="percentiles">'
expect_in "$T/out" "Read completion latency (clat) by percentile"
expect_in "$T/out" "Write completion latency (clat) by percentile"
p999=$(jq -r '.jobs[0].read.clat_ns.percentile["99.900000"] / 1000 |
	tostring' randread-jsonplus.json)
expect_eq "$p999" "20.608" "fio's p99.9"
expect_in "$T/out" "<title>[1] p99.9: 20.6 us</title>"
expect_in "$T/out" '<tr><th scope="row">[1] arr=a</th><td>1</td><td>5.15 us</td>'
run "$BSTORE" report --format html arr=b
expect_rc 0 "report of a run without write bins"
expect_not_in "$T/out" "Trim completion latency"

# A run's page on the site: its histograms, with fio's percentiles.
run "$BSTORE" site -o "$T/site"
expect_rc 0 "site"
page=$(grep -l 'randread-jsonplus.json' "$T"/site/run/*.html | head -1)
expect_in "$page" '<section id="histogram">'
expect_in "$page" "Read clat latency histogram: 500 I/Os in 80 of fio&rsquo;s bins; p50 5.15 us, p90 11.1 us, p99 17.5 us, p99.9 20.6 us, p99.99 20.6 us."
expect_in "$page" "Read slat latency histogram"
expect_not_in "$page" "Read clat histogram"

# 2. Logs, given before the JSON: attached to the run of their job.
run "$BSTORE" ingest -m box logs_*.log logs.json avg_*.2.log avg.json
expect_rc 0 "ingest logs with their JSON"
expect_in "$T/out" "logs_lat.1.log: 587 entries attached to run 3: read_lat_log (587 points)"
expect_in "$T/out" "avg_bw.2.log: 11 entries attached to run 5: write_bw_log (11 points)"
expect_in "$T/err" "avg_slat.2.log: no entries; nothing stored"
expect_eq "$(json -r 'select(.id == 4) | .series | length')" "0" \
	"job 1 of avg.json has no logs"
# Every line of the per-I/O lat log: msec / 1000, ns / 1000.
want=$(awk -F', ' '{ printf "%s%.6f,%.6f", s, $1 / 1000, $2 / 1000; s = ";" }' \
	logs_lat.1.log)
got=$(json -r 'select(.id == 3) | .series.read_lat_log |
	map("\(.time_s * 1e6 | round / 1e6),\(.us * 1e6 | round / 1e6)") |
	join(";")' | tr ';' '\n' |
	awk -F, '{ printf "%s%.6f,%.6f", s, $1, $2; s = ";" }')
expect_eq "$got" "$want" "read_lat_log points are the log's lines"
# The averaged log with the offset column: bandwidth in KiB/s as is.
want=$(awk -F', ' '{ printf "%s%s", s, $2; s = "," }' avg_bw.2.log)
expect_eq "$(json -r 'select(.id == 5) | .series.write_bw_log |
	map(.kib_s | tostring) | join(",")')" "$want" "write_bw_log values"
expect_eq "$(json -r 'select(.id == 3) | .tags["fio.log.prefix"]')" "logs" \
	"the job's log prefix"

# Again: the runs are duplicates, the logs kept as they were.
run "$BSTORE" ingest logs.json logs_lat.1.log
expect_rc 0 "re-ingest"
expect_in "$T/out" "1 kept as it was (the run has it already)"

# 3. A long log: at most 1000 points, the summary exact.
awk 'BEGIN { for (i = 0; i < 2500; i++)
	printf "%d, %d, 0, 4096, %d, 0\n", i, 1000 + (i * 7919) % 5000, i * 4096 }' \
	>"$T/long_lat.1.log"
run "$BSTORE" ingest --run 3 "$T/long_lat.1.log"
expect_rc 0 "--run"
expect_in "$T/out" "2500 entries attached to run 3: read_lat_log (834 points)"
expect_in "$T/out" "1 kept as it was"
cp "$T/long_lat.1.log" "$T/long_clat.1.log"
run "$BSTORE" ingest --run 1 "$T/long_clat.1.log"
expect_rc 0 "--run clat"
want=$(awk -F', ' 'NR == 1 { mn = mx = $2 } { s += $2; if ($2 < mn) mn = $2;
	if ($2 > mx) mx = $2 } END { printf "2500 entries of long_clat.1.log: min %g, mean %.10g, max %g us",
	mn / 1000, s / NR / 1000, mx / 1000 }' "$T/long_clat.1.log")
expect_eq "$(json -r 'select(.id == 1) | .tags["fio.log.read_clat_log"]' |
	sed 's/;.*//')" "$want" "exact summary"
expect_eq "$(json -r 'select(.id == 1) | .series.read_clat_log[0] |
	"\(.time_s) \(.us) \(.seconds)"' | awk '{ printf "%s %.10g %s", $1, $2, $3 }')" \
	"$(awk -F', ' 'NR <= 3 { s += $2 } END { printf "0 %.10g 0.002", s / 3 / 1000 }' \
	"$T/long_clat.1.log")" "a window is the mean of its entries"

# A dry run reads and checks the log, and stores nothing.
run "$BSTORE" --db "$T/dry.db" ingest -n -m box logs.json logs_lat.1.log
expect_rc 0 "dry run"
expect_in "$T/out" "logs_lat.1.log: 587 entries would be attached to the run of job 'logs'"
[ ! -e "$T/dry.db" ] || fail "a dry run made an archive"

# 4. Errors name the file and store nothing of it.
run "$BSTORE" --db "$T/empty.db" ingest logs_lat.1.log
expect_rc 1 "a log with no run"
expect_in "$T/err" "logs_lat.1.log: no fio run to attach this log to: no job 'logs' among the fio runs of this command"
expect_style "$T/err"
printf '0, 10, 0, 4096, 0\n1, 11, 0, 4096, 0\n2, fast, 0, 4096, 0\n' >"$T/bad_lat.1.log"
run "$BSTORE" ingest --run 3 "$T/bad_lat.1.log" logs.json
expect_rc 1 "a bad line"
expect_in "$T/err" "bad_lat.1.log:3: not a line of a fio log (msec, value, direction, size[, offset][, priority]); nothing stored from this file"
printf '0, 10, 7, 4096, 0\n' >"$T/dir_clat.1.log"
run "$BSTORE" ingest --run 3 "$T/dir_clat.1.log"
expect_rc 1 "a bad direction"
expect_in "$T/err" "dir_clat.1.log:1: fio log direction 7 is none of 0 (read), 1 (write), 2 (trim)"
run "$BSTORE" ingest -m box "$SAMPLES/sysbench-1.0.20-rndrd.txt"
sb=$(json -r 'select(.tool == "sysbench") | .id')
run "$BSTORE" ingest --run "$sb" logs_bw.1.log
expect_rc 1 "--run of a sysbench run"
expect_in "$T/err" "logs_bw.1.log: run $sb is a sysbench run, not fio's; nothing stored from this file"
run "$BSTORE" ingest --run 999 logs_bw.1.log
expect_rc 1 "--run of no run"
expect_eq "$(json -r 'select(.id == 3) | .series | keys | join(" ")')" \
	"read_bw_log read_clat_log read_iops_log read_lat_log read_slat_log" \
	"nothing stored from the bad logs"

finish
