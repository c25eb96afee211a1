#!/usr/bin/env bash
# tests/cli/report_tools.sh - reports compare the other tools' runs as
# they compare bonnie++'s: a sysbench group against another (its own
# tables, means computed from the stored runs), fio against fio, and dd
# against a bonnie++ block write in the same row (KiB/s both), with a note
# that they are different tools.
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq

S=$SAMPLES
run "$BSTORE" ingest "$S"/sysbench-*.txt "$S"/fio-3.33-*.json "$S"/dd-*.txt \
	"$S/bonnie++-2.00a-local-full.txt"
expect_rc 0 "ingest"

# The mean a group's cell must show, from the runs' own exported values.
mean_of() { # SELECTOR KEY
	"$BSTORE" export --format json "$1" |
		jq -s "[.[].results.$2.value | select(. != null)] | add / length"
}
near() { # GOT WANT: equal to six significant digits
	awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d;
		exit !(d <= 5e-6 * (w < 0 ? -w : w) + 1e-9) }'
}
cell() { # REPORT.json KEY GROUP FIELD
	jq -r ".metrics[] | select(.key == \"$2\") | .cells[$(($3 - 1))].$4" "$1"
}

# 1. sysbench 0.4 against 1.0: one family, its own table and keys.
run "$BSTORE" report --format json version=0.4.12 version=1.0.20
expect_rc 0 "sysbench report"
cp "$T/out" "$T/sb.json"
for k in reads_per_s writes_per_s latency_avg_ms; do
	for g in 1 2; do
		sel=$([ "$g" = 1 ] && echo version=0.4.12 || echo version=1.0.20)
		got=$(cell "$T/sb.json" "$k" "$g" mean)
		want=$(mean_of "$sel" "$k")
		near "$got" "$want" || fail "sysbench $k [$g]: got $got, want $want"
	done
done
expect_eq "$(jq -r '[.metrics[].key] | map(select(. == "putc")) | length' "$T/sb.json")" 0 \
	"no bonnie++ row for sysbench runs"
got=$(cell "$T/sb.json" reads_per_s 2 cv)
want=$(jq -r '.metrics[] | select(.key == "reads_per_s") | .cells[1] | .stddev / .mean' "$T/sb.json")
near "$got" "$want" || fail "CV: got $got, want $want"
# Both groups mix test modes: mixed groups, so no verdict.
expect_eq "$(cell "$T/sb.json" latency_avg_ms 2 verdict)" "mixed_group" \
	"groups of mixed modes: mixed groups"
expect_in "$T/sb.json" "[2] mixes test mode "
run "$BSTORE" report --format text version=0.4.12 version=1.0.20
expect_in "$T/out" "File operations"
expect_in "$T/out" "change [2] vs [1]"

# 2. fio against fio: per direction keys.
run "$BSTORE" report --format json format=fio-json
expect_rc 0 "fio report"
got=$(cell "$T/out" read_iops 1 mean)
want=$(mean_of format=fio-json read_iops)
near "$got" "$want" || fail "fio read_iops: got $got, want $want"

# 3. dd against bonnie++: dd's write rate in the Block write row, noted.
run "$BSTORE" report --units kib --format json tool=dd tool=bonnie++
expect_rc 0 "dd against bonnie++"
cp "$T/out" "$T/dd.json"
got=$(cell "$T/dd.json" put_block 1 mean)
want=$(mean_of tool=dd write_kib_s)
near "$got" "$want" || fail "dd's write in Block write: got $got, want $want"
expect_eq "$(cell "$T/dd.json" put_block 2 count)" 1 "bonnie++'s own block write"
expect_eq "$(cell "$T/dd.json" get_block 1 mean | cut -c1-3)" "$(mean_of tool=dd read_kib_s | cut -c1-3)" \
	"dd's read in Block read"
expect_eq "$(jq -r '.notes[]' "$T/dd.json" | grep -c 'different tools')" 2 "a note per shared row"
expect_in "$T/dd.json" "dd Write and Block write are different tools"
# A dd report alone has no bonnie++ row.
run "$BSTORE" report --format json tool=dd
expect_eq "$(jq -r '.metrics[] | select(.key == "put_block") | .key' "$T/out")" "" \
	"no bonnie++ row without bonnie++ runs"

# 4. --noise: the threshold under which no change is a win, over one
# configuration (rndrw, 1 thread, 16 KiB, sync) of 0.4 and 1.0.
A='source=*0.4.12-rndrw.txt'
B='source=*1.0.20-rndrw-local.txt'
run "$BSTORE" report --format json --noise 1000 "$A" "$B"
expect_rc 0 "--noise 1000"
expect_eq "$(jq -r '[.metrics[].cells[1] | select(.percent != null and
	.percent < 1000 and .percent > -1000 and .verdict != "") | .verdict] |
	unique | join(",")' "$T/out")" "noise" \
	"every change under 1000% is within noise (counts and times are context)"
expect_eq "$(jq -r '[.metrics[].cells[1] | select(.percent != null and
	(.percent >= 1000 or .percent <= -1000)) | .verdict] | unique | join(",")' "$T/out")" "few" \
	"larger changes are changes (untested: a run a side)"
expect_eq "$(jq -r '.noise_pct' "$T/out")" 1000 "the threshold in the JSON"
run "$BSTORE" report --format json --noise 0 "$A" "$B"
expect_eq "$(cell "$T/out" latency_avg_ms 2 verdict)" "few" "--noise 0: every change counts"
run "$BSTORE" report --noise 5x version=0.4.12 version=1.0.20
expect_rc 2 "--noise 5x"
expect_in "$T/err" "bstore: report: --noise: expected a number from 0 to 1000, got '5x'"

# 5. Host facts (host.* tags, as bstore run records them): a table of
# their own in the HTML page, a group's differing values with their runs.
H=$T/hosts.db
"$BSTORE" --db "$H" ingest --tag host.kernel=6.1.0 --tag host.fs=ext4 \
	--tag cache=on "$S/bonnie++-1.03-emc-raid10-cache.txt" >/dev/null
"$BSTORE" --db "$H" ingest --tag host.kernel=6.1.0 --tag host.fs=xfs \
	--tag cache=on "$S/bonnie++-1.03-emc-raid5-cache.txt" >/dev/null
"$BSTORE" --db "$H" ingest --tag host.kernel=6.1.0 --tag host.fs=ext4 \
	--tag cache=off "$S/bonnie++-1.03-emc-raid10-nocache.txt" >/dev/null
run "$BSTORE" --db "$H" report --format html cache=on cache=off
expect_rc 0 "report with host facts"
expect_in "$T/out" "<h2>Host facts</h2>"
expect_in "$T/out" "<th>Kernel</th><th>File system</th>"
expect_in "$T/out" "<th scope=\"row\">[1] cache=on</th><td>6.1.0</td><td>ext4 (1), xfs (1)</td>"
expect_in "$T/out" "<th scope=\"row\">[2] cache=off</th><td>6.1.0</td><td>ext4</td>"
expect_not_in "$T/out" '<td data-label="Tags">cache=off host.'
# No table without host facts.
run "$BSTORE" report --format html tool=dd
expect_rc 0 "report without host facts"
expect_not_in "$T/out" "Host facts"

# 6. Charts: captions say which way is better; the mean's 95% interval
# is an error bar for a group of 3 runs or more, never for fewer.
run "$BSTORE" report --format html version=0.4.12 version=1.0.20
expect_in "$T/out" "Reads, ops/s (higher is better)"
expect_in "$T/out" "Latency avg, ms (lower is better)"
[ "$(grep -o '<i style="left:' "$T/out" | wc -l)" -ge 5 ] ||
	fail "error bars for the 13-run group"
run "$BSTORE" report --format html 1 2 3-4
expect_rc 0 "groups of 1 and 2 runs"
expect_in "$T/out" "(higher is better)"
expect_not_in "$T/out" '<path class="err"' "no error bar under 3 runs"


# --units mb: decimal MB/s, as fio prints it beside MiB/s: the text
# report of fio's group-reporting capture shows fio's own "(83.9MB/s)";
# the default stays MiB/s ("80.0MiB/s").
M=$T/mb.db
f=$S/fio-3.33-group-reporting.txt
"$BSTORE" --db "$M" -q ingest "$f" 2>/dev/null
fio_mb=$(sed -n 's/^ *read: IOPS=[^,]*, BW=[0-9.]*MiB\/s (\([0-9.]*\)MB\/s).*/\1/p' "$f")
expect_eq "$fio_mb" "83.9" "fio prints 83.9MB/s"
run "$BSTORE" --db "$M" report --units mb format=fio-text
expect_rc 0 "report --units mb"
expect_in "$T/out" "MB/s"
expect_eq "$(awk '/^\[1\] format=fio-text  / {print $3; exit}' "$T/out")" "$fio_mb" "fio's bw in MB/s, as fio prints it"
run "$BSTORE" --db "$M" report format=fio-text
expect_eq "$(awk '/^\[1\] format=fio-text  / {print $3; exit}' "$T/out")" "80.0" "MiB/s by default"
run "$BSTORE" --db "$M" compare --units mb format=fio-text format=fio-text
expect_rc 0 "compare --units mb"
run "$BSTORE" --db "$M" report --units gb format=fio-text
expect_rc 2 "report --units gb"
finish
