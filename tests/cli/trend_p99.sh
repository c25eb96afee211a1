#!/usr/bin/env bash
# tests/cli/trend_p99.sh - bstore trend draws fio's tail latency (clat
# p99) by default beside the bandwidth: three real fio 3.33 json+ runs
# of one job on the ext4 disk (tests/data/dist/arrays-disk-*.json, made
# by make.sh there), dated a day apart as nightly runs; each point's
# number is fio's printed p99 (clat_ns percentile 99.000000 / 1000),
# the change against the first night's, in text and JSON; an explicit
# --metrics still draws only what it names.
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq

D=$SRC/tests/data/dist
for n in 1 2 3; do
	run "$BSTORE" --quiet ingest -m box --measured-at "2026-11-0$n" \
		"$D/arrays-disk-$n.json"
	expect_rc 0 "ingest night $n"
done

p99() { jq '.jobs[0].read.clat_ns.percentile["99.000000"] / 1000 |
	round' "$D/arrays-disk-$1.json"; }

run "$BSTORE" trend -f json all
expect_rc 0 "trend json"
expect_eq "$(jq -r '[.metrics[].key] | join(",")' "$T/out")" \
	"read_bw_kib_s,read_clat_p99_us" "the default lines: bw and p99"
expect_eq "$(jq -c '[.points[] | select(.metric == "read_clat_p99_us") |
	.median | round]' "$T/out")" \
	"[$(p99 1),$(p99 2),$(p99 3)]" "p99 of each night is fio's"
expect_eq "$(jq -r '.metrics[] | select(.key == "read_clat_p99_us") |
	.better' "$T/out")" "lower" "p99 is better lower"

run "$BSTORE" trend all
expect_rc 0 "trend text"
expect_in "$T/out" "read clat p99, us (lower is better): [1] all"
# 3424 against 4014: -14.7%.
want=$(awk -v a="$(p99 1)" -v b="$(p99 3)" \
	'BEGIN { printf "%.1f%%", (b / a - 1) * 100 }')
expect_in "$T/out" "2026-11-03 00:00:00  1    $(p99 3)  $(p99 3)      $(p99 3)  $(p99 3)  $want"

run "$BSTORE" trend -f json -m read_bw_kib_s all
expect_rc 0 "trend --metrics"
expect_eq "$(jq -r '[.metrics[].key] | join(",")' "$T/out")" \
	"read_bw_kib_s" "--metrics names the lines"
# The site's trend charts: the machine page has a p99 chart beside the
# bandwidth, its top the greatest night's p99 as the page writes it
# (4,014 us), and the list of runs no p99 column.
run "$BSTORE" site -o "$T/site"
expect_rc 0 "site"
m=$(ls "$T"/site/machine/box-*.html)
expect_in "$m" "O_DIRECT: read clat p99 (us)"
expect_in "$m" "O_DIRECT: read bandwidth (MiB/s)"
top=$(jq -s '[.[].jobs[0].read.clat_ns.percentile["99.000000"]] | max / 1000 |
	round | tostring | if length > 3 then .[:-3] + "," + .[-3:] else . end' \
	-r "$D"/arrays-disk-[123].json)
expect_eq "$(grep -c ">$top<" "$m")" 1 "the p99 chart's top is $top"
expect_not_in "$m" "<th>Read clat p99"
finish
