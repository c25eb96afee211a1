#!/usr/bin/env bash
# tests/cli/ingest_zcav.sh - bstore ingest on zcav, getc_putc and dd output
# as a user runs it: the real captures in samples/ and the pasted texts in
# tests/data/; the summary lines, the values export --format json holds
# (checked against the numbers in the files), idempotent re-ingest, and
# rejects printed as FILE:LINE: reason.
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq sqlite3

D=$SRC/tests/data
json() { "$BSTORE" export --format json | jq -c "$@"; }

# 1. zcav 2.00a captures: one run a file.
zcav=("$SAMPLES"/zcav-2.00a-{read,cached,skip2,c2,write}-labvm.txt)
run "$BSTORE" ingest "${zcav[@]}"
expect_rc 0 "ingest zcav samples"
for f in "${zcav[@]}"; do
	expect_in "$T/out" "$f: 1 run stored, 0 duplicates, 0 rejected (zcav: 1)"
done

# The read capture: the mean of its timed blocks, and the curve as
# printed (the data lines of the file, ++++ lines without a rate).
f=$SAMPLES/zcav-2.00a-read-labvm.txt
sel='select(.source | endswith("zcav-2.00a-read-labvm.txt"))'
want=$(awk '/^[0-9]/ { s += $2; n++ } END { printf "%.6f", s / n }' "$f")
expect_eq "$(json "$sel | .results.read_mib_s.value * 1e6 | round / 1e6" |
	xargs printf '%.6f')" "$want" "zcav mean over the timed blocks"
expect_eq "$(json "$sel | [.tool, .family, .format, .results.read_mib_s.status,
	.results.write_mib_s.status, .params.block_mib, .params.passes]")" \
	'["zcav","zcav","zcav","ok","not_run",16,1]' "zcav run"
# Offsets exactly: block number times the block size (16 MiB), which the
# file prints to 0.01 GiB.
want=$(awk '/^#?[0-9]/ { sub(/^#/, ""); y = ($2 == "++++") ? "null" : $2 + 0;
	x = n++ * 16 / 1024; if (x - $1 > 0.005 || $1 - x > 0.005) x = "off";
	printf "%s%s,%s,%s", sep, x, y, $3 + 0; sep = ";" }' "$f")
expect_eq "$(json -r "$sel | .series.read_mib_s |
	map(\"\(.offset_gib),\(.mib_s),\(.seconds)\") | join(\";\")")" "$want" \
	"zcav curve"
# 8 MiB blocks (Debian's zcav 2.00a, -b 8 on a 256 MiB file): 32 blocks
# printed on 25 positions (0.02 twice) are 32 positions, i * 8 MiB.
f8=$D/zcav-2.00a-8m-blocks.txt
run "$BSTORE" ingest "$f8"
expect_in "$T/out" "$f8: 1 run stored"
expect_eq "$(grep -c '^#[0-9]' "$f8") $(grep '^#[0-9]' "$f8" | cut -d' ' -f1 | sort -u | wc -l)" \
	"32 25" "the 8 MiB capture prints 32 blocks on 25 positions"
expect_eq "$(json -c 'select(.source | endswith("zcav-2.00a-8m-blocks.txt")) |
	[.params.block_mib, (.series.read_mib_s | length),
	 ([.series.read_mib_s[] | .offset_gib] | unique | length),
	 ([.series.read_mib_s | to_entries[] | select(.value.offset_gib != .key * 8 / 1024)] | length)]')" \
	"[8,32,32,0]" "zcav 8 MiB blocks: 32 exact offsets"

# All blocks ++++: too fast, never 0; -w: a write curve; -c 2: passes.
expect_eq "$(json -r 'select(.source | endswith("cached-labvm.txt")) |
	"\(.results.read_mib_s.status) \(.results.read_mib_s.value)"')" \
	"too_fast null" "zcav all ++++"
expect_eq "$(json -r 'select(.source | endswith("write-labvm.txt")) |
	"\(.results.write_mib_s.status) \(.results.read_mib_s.status) \(.series | keys[0])"')" \
	"ok not_run write_mib_s" "zcav -w"
expect_eq "$(json -r 'select(.source | endswith("c2-labvm.txt")) | .params.passes')" \
	2 "zcav -c 2"
expect_eq "$(json -r 'select(.source | endswith("skip2-labvm.txt")) | .params.skip')" \
	2 "zcav -s 2"

# zcav's own figure: its last line's megabytes per second (MiB), kept
# beside the mean of the blocks, for every sample.
for f in "${zcav[@]}"; do
	want=$(sed -n 's/^# Read [0-9]* megs in [0-9]* seconds, \([0-9]*\) megabytes per second\.$/\1/p' "$f" | tail -1)
	b=$(basename "$f")
	expect_eq "$(json -r "select(.source | endswith(\"$b\")) |
		\"\(.results.total_mib_s.status) \(.results.total_mib_s.value)\"")" \
		"ok $want" "$b: total_mib_s is zcav's last line"
done
# show: both figures named, zcav's line beside them, and the curve as a
# table on the axis of a file (the sample read /tmp/x/small).
id=$(json -r "$sel | .id")
run "$BSTORE" show "$id"
expect_rc 0 "show a zcav run"
expect_eq "$(grep -cE '^  read_mib_s +ok +11\.87 MiB/s *$' "$T/out")" 1 "show: the mean of the blocks"
expect_eq "$(grep -cE '^  total_mib_s +ok +20 MiB/s *$' "$T/out")" 1 "show: zcav's total"
expect_in "$T/out" "As zcav printed it (zcav's totals: its megs and megabytes are MiB; total_mib_s is the last one):
  # Read 96 megs in 4 seconds, 20 megabytes per second."
expect_in "$T/out" "Curve of read_mib_s, MiB/s by offset in the file (GiB):
      0.00       ++++
      0.02       ++++
      0.03       ++++
      0.05      12.13 ########################################
      0.06      11.93 #######################################
      0.08      11.56 ######################################"
# Every block ++++: show says what to change, -b or bstore zcav's
# --min-time, and still shows zcav's total.
run "$BSTORE" show "$(json -r 'select(.source | endswith("cached-labvm.txt")) | .id')"
expect_in "$T/out" "  read_mib_s   too fast  (every block ++++: timed under the limit, no rate; use a bigger -b, or bstore zcav --min-time)"
expect_eq "$(grep -cE '^  total_mib_s +ok +547 MiB/s *$' "$T/out")" 1 "show: zcav's total of a cached pass"
# A curve longer than the table: equal slices, each its mean.
awk 'BEGIN { print "$ zcav -b 16 /dev/sdq"; print "#block offset (GiB), MiB/s, time"
	for (i = 0; i < 100; i++) printf "%.2f %.2f 1.000\n", i * 16 / 1024, 200 - i }' >"$T/long.txt"
run "$BSTORE" ingest "$T/long.txt"
expect_rc 0 "ingest a long curve"
run "$BSTORE" show last
expect_in "$T/out" "Curve of read_mib_s, MiB/s by position on the disk (GiB), each row the mean of its blocks:"
expect_eq "$(grep -cE '^ +[0-9.]+ +[0-9.]+ #+$' "$T/out")" 24 "24 rows"
expect_in "$T/out" "      0.00     198.50 ########################################"
run "$BSTORE" rm last
expect_rc 0 "rm the long curve"

# 2. Idempotent: the same files again store nothing.
run "$BSTORE" ingest "${zcav[@]}"
expect_rc 0 "ingest zcav again"
for f in "${zcav[@]}"; do
	expect_in "$T/out" "$f: 0 runs stored, 1 duplicate, 0 rejected"
done

# 3. zcav's errors: no run, FILE:LINE: reason, exit status 1.
f=$SRC/tests/data/zcav-2.00a-errors-labvm.txt
run "$BSTORE" ingest "$f"
expect_rc 1 "ingest zcav errors"
expect_in "$T/err" "bstore: ingest: $f:1: zcav failed, no block lines; zcav said 'Can't open /tmp/x/missing'"
expect_in "$T/err" "bstore: ingest: $f:3: zcav header without block lines"
expect_in "$T/out" "$f: 0 runs stored, 0 duplicates, 2 rejected"

# 4. Old dialects and a quoted mail.
run "$BSTORE" ingest "$D/zcav-old-dialects.txt" "$D/zcav-pasted.txt"
expect_rc 0 "ingest old and pasted zcav"
expect_in "$T/out" "$D/zcav-old-dialects.txt: 3 runs stored, 0 duplicates, 0 rejected"
expect_in "$T/out" "$D/zcav-pasted.txt: 2 runs stored, 0 duplicates, 0 rejected"
# 1.03c prints K/s (KiB/s) by MiB offset: MiB/s and GiB.
expect_eq "$(json -r 'select(.tool_version == "1.03c") |
	"\(.series.read_mib_s[1].offset_gib) \(.series.read_mib_s[1].mib_s) \(.params.block_mib)"')" \
	"$(awk 'BEGIN { printf "%.8f %.9f 100", 100 / 1024, 30890 / 1024 }')" \
	"zcav 1.03c converted"
expect_eq "$(json -r 'select(.source | endswith("zcav-pasted.txt")) |
	"\(.measured_at) \(.params.skip) \(.results | to_entries |
	map(select(.value.status == "ok") | .key) | join(","))"' | sort)" \
	"2020-03-03T09:15:00Z 1 read_mib_s,total_mib_s
2020-03-03T09:15:00Z 4 write_mib_s,total_mib_s" "zcav mail: Date:, -s, -w"

# 5. getc_putc: table and CSV line are one run; -q's CSV alone too.
gp=("$SAMPLES"/getc_putc-2.00a-*.txt)
run "$BSTORE" ingest "${gp[@]}"
expect_rc 0 "ingest getc_putc"
for f in "${gp[@]}"; do
	expect_in "$T/out" "$f: 1 run stored, 0 duplicates, 0 rejected (getc_putc: 1)"
done
f=$SAMPLES/getc_putc-2.00a-300m-labvm.txt
want=$(grep '^labvm01,' "$f" | cut -d, -f2-)
expect_eq "$(json -r 'select(.source | endswith("300m-labvm.txt")) |
	[.results | (.write, .read, .putc_nt, .getc_nt, .putc, .getc,
	.putc_unlocked, .getc_unlocked) | .value] | map(tostring) | join(",")')" \
	"$want" "getc_putc values"
expect_eq "$(json -r 'select(.source | endswith("300m-labvm.txt")) |
	"\(.tool) \(.tool_version) \(.machine)"')" "getc_putc 2.00a labvm01" \
	"getc_putc run"
expect_eq "$(json -r 'select(.source | endswith("quiet-csv-labvm.txt")) |
	"\(.tool_version) \(.results.write.value) \(.results.read.status)"')" \
	"null 581 too_fast" "getc_putc -q CSV"

# 6. dd: four GNU summaries, direction from the command line.
f=$SAMPLES/dd-coreutils-9.1-labvm.txt
run "$BSTORE" ingest "$f"
expect_rc 0 "ingest dd"
expect_in "$T/out" "$f: 4 runs stored, 0 duplicates, 0 rejected (dd: 4)"
# bytes / 1024 / seconds, from the summary lines themselves.
want=$(awk '/ copied, / { for (i = 1; i <= NF; i++) if ($i == "s,") t = $(i - 1);
	printf "%s%.3f", sep, $1 / 1024 / t; sep = " " }' "$f")
expect_eq "$(json -r 'select(.family == "dd") | .results |
	to_entries[] | select(.value.status == "ok") | .value.value' |
	xargs printf '%.3f\n' | paste -sd' ')" "$want" "dd rates"
expect_eq "$(json -r 'select(.family == "dd") | .results |
	to_entries[] | select(.value.status == "ok") | .key' | paste -sd' ')" \
	"write_kib_s read_kib_s write_kib_s write_kib_s" "dd directions"
expect_eq "$(json -c 'select(.family == "dd") | .params' | head -1)" \
	'{"bytes":67108864,"seconds":0.0653526,"bs_bytes":1048576,"count":64,"flags":"oflag=direct","direct":true}' \
	"dd params"
run "$BSTORE" ingest "$f"
expect_in "$T/out" "$f: 0 runs stored, 4 duplicates, 0 rejected"

# GNU 6.x, BSD, progress lines; a summary without its command line says
# no direction: a copy, with a warning that says what is unknown.
run "$BSTORE" ingest "$D/dd-variants.txt"
expect_rc 0 "ingest dd variants"
expect_in "$T/out" "$D/dd-variants.txt: 5 runs stored, 0 duplicates, 0 rejected"
expect_in "$T/err" "bstore: ingest: warning: $D/dd-variants.txt:14: dd summary with no dd command line above it: direction, block size and flags unknown (stored as copy_kib_s)"
expect_eq "$(json -r 'select(.source | endswith("dd-variants.txt")) |
	"\(.source_line) \(.results | to_entries[] | select(.value.status == "ok") | .key)"' |
	paste -sd,)" "2 write_kib_s,8 read_kib_s,14 copy_kib_s,17 write_kib_s,25 read_kib_s" \
	"dd variants: lines and directions"
# The blog post in samples/ pastes dd's summaries under a shell loop of
# two dd commands: which is which is not stored, and a warning says so.
run "$BSTORE" ingest "$SAMPLES/bonnie++-1.03d-pasted-blog.txt"
expect_in "$T/out" "bonnie++-1.03d-pasted-blog.txt: 6 runs stored, 0 duplicates, 0 rejected (bonnie++-csv-1.0x: 6)"
expect_in "$T/err" "bonnie++-1.03d-pasted-blog.txt:50: dd summary under several different dd command lines: not stored (which one is its own is unknown)"

# A dd summary of no time.
printf '%s\n' '$ dd if=/dev/zero of=/tmp/f bs=512 count=1' '1+0 records in' \
	'1+0 records out' '512 bytes copied, 0 s, Infinity B/s' >"$T/dd0.txt"
run "$BSTORE" ingest "$T/dd0.txt"
expect_rc 1 "ingest a dd of no time"
expect_in "$T/err" "bstore: ingest: $T/dd0.txt:4: dd summary of no time or no bytes: no rate"

expect_eq "$(sql "select count(*) from runs where family in ('zcav', 'getc_putc', 'dd')")" \
	$((5 + 1 + 5 + 3 + 4 + 5)) "runs stored"
finish
