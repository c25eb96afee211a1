#!/usr/bin/env bash
# tests/cli/ingest_sysbench.sh - bstore ingest on sysbench fileio output as
# a user runs it: every capture in samples/ (0.4.12 and 1.0.20, the six
# modes, prepare and cleanup), the pasted forms in tests/data, the export's
# values against what sysbench printed, re-ingest stores nothing, and a
# failed run and a cut summary rejected as FILE:LINE: reason.
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq
cd "$SRC" # so sources are stored as samples/..., as a user would type them

runs=(samples/sysbench-0.4.12-*.txt samples/sysbench-1.0.20-seq*.txt
	samples/sysbench-1.0.20-rnd*.txt samples/sysbench-1.0.20-flags-*.txt)
good=()
for f in "${runs[@]}"; do
	case $f in *-fatal.txt) ;; *) good+=("$f") ;; esac
done

# 1. One run per capture; prepare and cleanup store nothing, reject nothing.
run "$BSTORE" ingest "${good[@]}" tests/data/sysbench-1.0.20-prepare.txt \
	tests/data/sysbench-1.0.20-cleanup.txt
expect_rc 0 "ingest sysbench samples"
for f in "${good[@]}"; do
	case $f in
	*-0.4.12-*) fmt=sysbench-0.4 ;;
	*) fmt=sysbench-1.0 ;;
	esac
	expect_in "$T/out" "$f: 1 run stored, 0 duplicates, 0 rejected ($fmt: 1)"
done
for f in prepare cleanup; do
	expect_in "$T/out" "tests/data/sysbench-1.0.20-$f.txt: 0 runs stored, 0 duplicates, 0 rejected"
	# Recognised: said so, not "tried every format".
	expect_in "$T/err" "tests/data/sysbench-1.0.20-$f.txt: no results in it (recognised output that measures nothing"
done
expect_eq "$(sql 'select count(*) from runs')" "${#good[@]}" "runs stored"
expect_eq "$(sql 'select count(*) from rejects')" 0 "rejects"

# 2. The export holds what sysbench printed, under the contract's keys.
run "$BSTORE" export --format json family=sysbench
expect_rc 0 "export json"
cp "$T/out" "$T/all.jsonl"
pick() { # FILE JQ: the jq filter on the run ingested from FILE
	jq -r --arg s "$1" "select(.source == \$s) | $2" "$T/all.jsonl"
}
f=samples/sysbench-1.0.20-rndrw-threads4-p99.txt
printed() { # LABEL: the last word of FILE's line that starts with LABEL
	sed -n "s|^ *$1 *||p" "$f" | head -1 | sed 's/s$//'
}
expect_eq "$(pick $f '.tool + " " + .tool_version + " " + .format')" \
	"sysbench 1.0.20 sysbench-1.0" "tool, version, format"
for pair in reads_per_s:reads/s: writes_per_s:writes/s: \
	fsyncs_per_s:fsyncs/s: "read_mib_s:read, MiB/s:" \
	"written_mib_s:written, MiB/s:" "total_time_s:total time:" \
	"events:total number of events:" latency_min_ms:min: \
	latency_avg_ms:avg: latency_max_ms:max: \
	"latency_p99_ms:99th percentile:"; do
	key=${pair%%:*}
	want=$(printed "${pair#*:}")
	got=$(pick $f ".results.$key.value")
	expect_eq "$(awk -v a="$got" -v b="$want" 'BEGIN { print (a == b) }')" 1 \
		"$key: got $got, printed $want"
done
expect_eq "$(pick $f '.results.latency_p95_ms.status')" not_run \
	"no p95 printed with --percentile=99"
expect_eq "$(pick $f '.results.requests_per_s.status')" not_run \
	"1.0 prints no requests/s"
expect_eq "$(pick $f '.params | [.mode, .threads, .block_size_bytes, .file_num,
	.file_total_bytes, .rw_ratio, .fsync_freq, .fsync_all, .fsync_end,
	.fsync_mode, .io_mode, .extra_flags] | map(tostring) | join(" ")')" \
	"rndrw 4 16384 128 67108864 1.5 100 false true null sync " "parameters"
expect_eq "$(pick samples/sysbench-1.0.20-rndwr-direct.txt .params.extra_flags)" \
	direct "--file-extra-flags=direct"

# --histogram: the rows, in order, are the series latency_histogram.
f=samples/sysbench-1.0.20-rndrd-histogram.txt
expect_eq "$(pick $f '.series.latency_histogram | map("\(.latency_ms):\(.events)")
	| join(" ")')" "$(awk '/^Latency histogram/ {h = 1; next}
	h && / \|/ {printf "%s%s:%s", sep, $1 + 0, $NF; sep = " "}
	/^File operations/ {h = 0}' $f)" "histogram rows as the series"
expect_eq "$(pick $f '[.series.latency_histogram[].events] | add')" \
	"$(pick $f .results.events.value)" "histogram counts add up to events"
expect_eq "$(pick $f '.results.latency_histogram.status')" not_run \
	"latency_histogram has no value"
expect_eq "$(pick samples/sysbench-1.0.20-rndrd.txt '.series // {} | length')" 0 \
	"no histogram printed, none stored"

# 0.4.12: rates are the printed counts over the printed total time.
f=samples/sysbench-0.4.12-rndrw.txt
expect_eq "$(pick $f '.tool_version + " " + .format')" "0.4.12 sysbench-0.4" \
	"0.4 version and format"
t=$(sed -n 's/^total time: \(.*\)s$/\1/p' $f)
reads=$(sed -n 's/^Operations performed: \([0-9]*\) Read.*/\1/p' $f)
expect_eq "$(awk -v a="$(pick $f .results.reads_per_s.value)" -v n="$reads" \
	-v t="$t" 'BEGIN { d = a - n / t; print (d < 1e-9 && d > -1e-9) }')" 1 \
	"0.4 reads_per_s is $reads / $t"
expect_eq "$(pick $f .results.requests_per_s.value)" \
	"$(sed -n 's/^\([0-9.]*\) Requests\/sec executed$/\1/p' $f)" \
	"0.4 requests_per_s as printed"
expect_eq "$(pick $f .results.latency_p95_ms.value)" \
	"$(sed -n 's/^approx\. *95 percentile: \(.*\)ms$/\1/p' $f)" \
	"0.4 p95 in ms"

# 3. Re-ingesting stores nothing new.
run "$BSTORE" ingest "${good[@]}"
expect_rc 0 "ingest again"
expect_in "$T/out" "samples/sysbench-0.4.12-rndrw.txt: 0 runs stored, 1 duplicate, 0 rejected"
expect_eq "$(sql 'select count(*) from runs')" "${#good[@]}" "runs after re-ingest"

# 4. Pasted: a quoted CRLF mail (dated by its Date:), a numbered listing,
# a session of prepare, two runs and cleanup.
run "$BSTORE" ingest tests/data/sysbench-1.0.20-mail-quoted.txt \
	tests/data/sysbench-0.4.12-numbered.txt tests/data/sysbench-1.0.20-session.txt
expect_rc 0 "ingest pasted"
expect_in "$T/out" "tests/data/sysbench-1.0.20-mail-quoted.txt: 1 run stored, 0 duplicates, 0 rejected (sysbench-1.0: 1)"
expect_in "$T/out" "tests/data/sysbench-0.4.12-numbered.txt: 1 run stored, 0 duplicates, 0 rejected (sysbench-0.4: 1)"
# The session's two runs are the seqrd and direct captures again, with the
# same text: duplicates.
expect_in "$T/out" "tests/data/sysbench-1.0.20-session.txt: 0 runs stored, 2 duplicates, 0 rejected"
run "$BSTORE" export --format json source=tests/data/sysbench-1.0.20-mail-quoted.txt
expect_eq "$(jq -r '.measured_at + " " + (.results.latency_p99_ms.value | tostring)' "$T/out")" \
	"2026-12-01T04:10:00Z 0.92" "mail: Date: and values"

# 5. A failed run and a cut summary: FILE:LINE: reason, the rest kept.
run "$BSTORE" ingest tests/data/sysbench-1.0.20-rndrw-fatal.txt tests/data/sysbench-1.0.20-cut.txt
expect_rc 1 "ingest rejects"
expect_in "$T/err" "tests/data/sysbench-1.0.20-rndrw-fatal.txt:19: sysbench fileio run failed: 'FATAL: Size of file"
expect_in "$T/err" "tests/data/sysbench-1.0.20-cut.txt:24: sysbench 1.0 summary without 'total time'"
expect_eq "$(sql 'select count(*) from rejects')" 2 "rejects kept"


# Notes a person wrote after values (issue 29 class 3): a real capture
# with a shell comment and a full-width parenthesis added after two
# values, and the published page that has the latter. The values are
# read, the notes left out; sysbench's own "(1.8869Mb/sec)" still reads.
export BSTORE_DB=$T/notes.db
sed -e 's|^\(    reads/s: *3857.76\)$|\1 # the old disk|' \
	-e 's|^\(    read, MiB/s: *60.28\)$|\1（顺序读写 1027.76）|' \
	samples/sysbench-1.0.20-rndrw.txt >"$T/noted.txt"
expect_eq "$(grep -c '# the old disk\|（' "$T/noted.txt")" 2 "notes added"
run "$BSTORE" ingest "$T/noted.txt" tests/data/wild/sysbench-1.0-annotated-fullwidth-paren.txt
expect_rc 0 "ingest values with notes"
expect_eq "$("$BSTORE" export --format json | jq -r '[.results.reads_per_s.value, .results.read_mib_s.value] | @tsv' | paste -sd,)" \
	"$(printf '3857.76\t60.28,2061.79\t32.22')" "values before notes"


# A section title pasted twice on its line (issue 29 class 2), as a
# published tutorial has it: read as the title once.
export BSTORE_DB=$T/twice.db
run "$BSTORE" ingest tests/data/wild/sysbench-1.0.20-doubled-section-title.txt
expect_rc 0 "ingest a doubled section title"
expect_eq "$("$BSTORE" export --format json | jq -r '[.results.reads_per_s.value, .results.written_mib_s.value] | @tsv')" \
	"$(printf '1004.89\t10.47')" "values under a doubled title"

finish
