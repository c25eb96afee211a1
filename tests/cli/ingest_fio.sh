#!/usr/bin/env bash
# tests/cli/ingest_fio.sh - bstore ingest on fio's outputs as a user runs
# it: the fio 3.33 captures of samples/ (JSON, JSON+, terse v3-v5, normal
# text, two jobs, group_reporting), the pasted forms of tests/data/, the
# values export --format json gives back (against the figures fio
# printed), a re-ingest that stores nothing, and a failed job's reject
# printed as FILE:LINE: reason.
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq

S=$SAMPLES
D=$SRC/tests/data

# 1. Every capture: the summary line names the format and counts the jobs.
declare -A want=(
	[fio-3.33-randrw.json]="1 run stored, 0 duplicates, 0 rejected (fio-json: 1)"
	[fio-3.33-randrw-jsonplus.json]="1 run stored, 0 duplicates, 0 rejected (fio-json: 1)"
	[fio-3.33-two-jobs.json]="2 runs stored, 0 duplicates, 0 rejected (fio-json: 2)"
	[fio-3.33-group-reporting.json]="1 run stored, 0 duplicates, 0 rejected (fio-json: 1)"
	[fio-3.33-randrw-terse3.txt]="1 run stored, 0 duplicates, 0 rejected (fio-terse: 1)"
	[fio-3.33-randrw-terse4.txt]="1 run stored, 0 duplicates, 0 rejected (fio-terse: 1)"
	[fio-3.33-randrw-terse5.txt]="1 run stored, 0 duplicates, 0 rejected (fio-terse: 1)"
	[fio-3.33-randrw.txt]="1 run stored, 0 duplicates, 0 rejected (fio-text: 1)"
	[fio-3.33-seqread.txt]="1 run stored, 0 duplicates, 0 rejected (fio-text: 1)"
	[fio-3.33-randwrite-libaio.txt]="1 run stored, 0 duplicates, 0 rejected (fio-text: 1)"
	[fio-3.33-two-jobs.txt]="2 runs stored, 0 duplicates, 0 rejected (fio-text: 2)"
	[fio-3.33-group-reporting.txt]="1 run stored, 0 duplicates, 0 rejected (fio-text: 1)"
	[fio-3.33-numjobs2.txt]="2 runs stored, 0 duplicates, 0 rejected (fio-text: 2)"
)
files=()
for f in "${!want[@]}"; do
	files+=("$S/$f")
done
run "$BSTORE" ingest "${files[@]}"
expect_rc 0 "ingest the fio captures"
for f in "${!want[@]}"; do
	expect_in "$T/out" "$S/$f: ${want[$f]}"
done
expect_eq "$(sql "select count(*) from runs where tool = 'fio'")" 16 \
	"runs of the fio captures"

# 2. Values as fio printed them, through export --format json.
# j FILE JOBNAME JQ-EXPR: the expression on that run's export.
j() {
	local id
	id=$(sql "select id from runs where source = '$S/$1' and id in
		(select run_id from run_params where key = 'jobname'
		 and value = '$2')" | head -1)
	[ -n "$id" ] || { fail "no run of $1 job $2"; echo; return; }
	"$BSTORE" export --format json "$id" | jq -r "$3"
}
# JSON: bw in KiB/s as fio's "bw", ns keys in us, options as parameters.
expect_eq "$(j fio-3.33-randrw.json randrw '[.tool, .tool_version, .format,
	.measured_at, .results.read_bw_kib_s.value, .results.read_iops.value,
	.results.read_clat_p99_us.value, .results.write_clat_p50_us.value,
	.results.trim_iops.status, .params.rw, .params.bs, .params.size] | @tsv')" \
	"$(printf 'fio\t3.33\tfio-json\t2026-12-01T04:59:37Z\t34344\t8586.206897\t724.992\t3.12\tnot_run\trandrw\t4k\t16M')" \
	"JSON randrw values"
expect_eq "$(j fio-3.33-two-jobs.json randread '[.results.read_bw_kib_s.value,
	.results.write_bw_kib_s.status, .params.iodepth, .params.ioengine] | @tsv')" \
	"$(printf '47080\tnot_run\t1\tpsync')" "JSON second job, global options"
expect_eq "$(j fio-3.33-group-reporting.json grp '.params.numjobs')" 2 \
	"group_reporting: one run of numjobs 2"
# terse: fields 6, 7 and the 50% slot.
expect_eq "$(j fio-3.33-randrw-terse5.txt randrw '[.results.read_bw_kib_s.value,
	.results.read_iops.value, .results.read_clat_p50_us.value,
	.results.write_lat_mean_us.value] | @tsv')" \
	"$(printf '51076\t12769\t56\t3.073831')" "terse v5 values"
# text: 49.9MiB/s, 12.8k, nsec percentiles, the report's date.
expect_eq "$(j fio-3.33-randrw.txt randrw '[.measured_at,
	.results.read_bw_kib_s.value, .results.read_iops.value,
	.results.write_clat_p50_us.value, .results.write_lat_mean_us.value,
	.params.bs, .params.iodepth] | @tsv')" \
	"$(printf '2026-11-30T23:57:28Z\t51097.6\t12800\t2.288\t2.59706\t4096B\t1')" \
	"text randrw values"
expect_eq "$(j fio-3.33-randwrite-libaio.txt randwrite '[.results.write_bw_kib_s.value,
	.results.read_bw_kib_s.status, .params.ioengine, .params.iodepth] | @tsv')" \
	"$(printf '133120\tnot_run\tlibaio\t4')" "text libaio values"

# 3. The same files again store nothing new; so do the pasted CRLF copy
# of the same document and the same captures under other names.
run "$BSTORE" ingest "$S/fio-3.33-two-jobs.json" "$S/fio-3.33-two-jobs.txt" \
	"$D/fio-3.33-two-jobs-crlf.json"
expect_rc 0 "ingest again"
expect_in "$T/out" "$S/fio-3.33-two-jobs.json: 0 runs stored, 2 duplicates, 0 rejected"
expect_in "$T/out" "$S/fio-3.33-two-jobs.txt: 0 runs stored, 2 duplicates, 0 rejected"
expect_in "$T/out" "$D/fio-3.33-two-jobs-crlf.json: 0 runs stored, 2 duplicates, 0 rejected"
expect_eq "$(sql "select count(*) from runs where tool = 'fio'")" 16 \
	"runs after the re-ingest"

# 4. Pasted forms: a quoted mail, numbered terse lines, fio 2.x JSON.
run "$BSTORE" ingest "$D/fio-3.33-randrw-quoted.txt" \
	"$D/fio-3.33-terse-numbered.txt" "$D/fio-2.x-handmade.json"
expect_rc 0 "ingest the pasted forms"
expect_in "$T/out" "$D/fio-3.33-randrw-quoted.txt: 1 run stored, 0 duplicates, 0 rejected (fio-text: 1)"
expect_in "$T/out" "$D/fio-3.33-terse-numbered.txt: 2 runs stored, 0 duplicates, 0 rejected (fio-terse: 2)"
expect_in "$T/out" "$D/fio-2.x-handmade.json: 1 run stored, 0 duplicates, 0 rejected (fio-json: 1)"
id=$(sql "select id from runs where source = '$D/fio-2.x-handmade.json'")
expect_eq "$("$BSTORE" export --format json "$id" | jq -r '[.tool_version,
	.results.read_lat_mean_us.value, .results.read_clat_p99_9_us.value,
	.params.direct, .params.iodepth] | @tsv')" \
	"$(printf '2.2.10\t7321.87\t8384\ttrue\t32')" "fio 2.x microsecond keys"

# 5. A failed job (trim on a regular file): FILE:LINE: reason, exit 1.
run "$BSTORE" ingest "$SRC/tests/data/fio-3.33-trim-error.json"
expect_rc 1 "ingest a failed job"
expect_in "$T/out" "$SRC/tests/data/fio-3.33-trim-error.json: 0 runs stored, 0 duplicates, 1 rejected"
expect_in "$T/err" "bstore: ingest: $SRC/tests/data/fio-3.33-trim-error.json:9: fio job 'trim' ended with error 25 and did no I/O"
expect_style "$T/err"

# 6. --format picks one of fio's formats.
run "$BSTORE" ingest --dry-run --format fio-terse "$S/fio-3.33-randrw-terse3.txt"
expect_rc 0 "--format fio-terse"
expect_in "$T/out" "1 duplicate, 0 rejected (fio-terse: 1)"


# fio behind a prefix on every line (issue 29 class 3): a published
# unit test's comment block and a README's grep output, each one run per
# job or file name; prose with a file-name-like colon is not fio's.
W=$SRC/tests/data/wild
export BSTORE_DB=$T/prefix.db
run "$BSTORE" ingest "$W/fio-2.0.15-python-comment-prefix.txt" "$W/fio-2.x-grep-prefix-sample-output.txt"
expect_rc 0 "ingest fio behind prefixes"
expect_in "$T/out" "fio-2.x-grep-prefix-sample-output.txt: 8 runs stored, 0 duplicates, 0 rejected (fio-text: 8)"
expect_eq "$("$BSTORE" export --format json | jq -r 'select(.params.jobname == "16k-1-read" or .params.jobname == "fio_read-1-2-4096k.out") | [.params.jobname, .results.read_iops.value, .results.read_bw_kib_s.value] | @tsv' | paste -sd,)" \
	"$(printf '16k-1-read\t484\t7753.7,fio_read-1-2-4096k.out\t114\t468114')" "prefixed fio read"
printf '%s\n' 'Note:  read: the manual first.' 'raw.rpt:  read : see below' >"$T/prose.txt"
export BSTORE_DB=$T/prose.db
run "$BSTORE" ingest "$T/prose.txt"
expect_in "$T/out" "0 runs stored, 0 duplicates, 0 rejected"


# Hand-shortened JSON (issue 29 class 7): a strict parse fails, the
# lenient pass drops the comma left before '}' and the "..." lines; each
# job still whole is stored with a warning naming the repairs' lines, a
# job the cut left without results is a warning, no reject. A published
# README's paste (a comma left after a cut) and a real capture
# (samples/fio-3.33-two-jobs.json) shortened as people do.
export BSTORE_DB=$T/lenient.db
E=$SRC/tests/data/fio-3.33-two-jobs-elided.json
run "$BSTORE" ingest "$E"
expect_rc 0 "ingest elided fio JSON"
expect_in "$T/out" "$E: 1 run stored, 0 duplicates, 0 rejected (fio-json: 1)"
expect_in "$T/err" "bstore: ingest: warning: $E:15: fio JSON shortened by hand, read leniently: a comma before a closing bracket at line 30 dropped; '...' at line 16 read as text the author cut"
expect_in "$T/err" "bstore: ingest: warning: $E:36: fio JSON job 'randread' cut short by hand, not stored: no results"
expect_eq "$("$BSTORE" export --format json | jq -r '[.params.jobname, .params.bs,
	.results.write_bw_kib_s.value, .results.write_iops.value,
	.results.read_bw_kib_s.status] | @tsv')" \
	"$(printf 'seqwrite\t64k\t2730666\t42666.666667\tnot_run')" "the whole job's values"
expect_style "$T/err"
R=$SRC/tests/data/wild/fio-2.10-json-trailing-comma-readme.txt
run "$BSTORE" ingest "$R"
expect_rc 0 "ingest a README's fio JSON with a trailing comma"
expect_in "$T/err" "bstore: ingest: warning: $R:18: fio JSON shortened by hand, read leniently: a comma before a closing bracket at line 43 dropped"
# A document a program printed is never repaired: broken JSON that no
# hand shortened (a missing colon) stays a reject with jansson's words.
printf '{\n  "fio version" : "fio-3.33",\n  "jobs" : [ { "jobname" "x" } ]\n}\n' >"$T/broken.json"
run "$BSTORE" ingest "$T/broken.json"
expect_rc 1 "broken fio JSON"
expect_in "$T/err" "fio JSON does not parse"

finish
