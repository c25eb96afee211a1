#!/usr/bin/env bash
# tests/cli/report_dist.sh - two arrays' fio latency distributions in
# report: three real fio 3.33 json+ runs each of a tmpfs file and the
# ext4 disk with O_DIRECT (tests/data/dist/arrays-*.json, make.sh
# there). The percentile rows carry fio's printed numbers (means over
# each group's runs, text and JSON); the verdict on p99 and p99.9 keeps
# the test-identity rule (O_DIRECT differs: "apart", no verdict); the
# HTML percentile chart's band spans the group's lowest to highest run;
# --cdf adds a CDF per direction whose table (the share of each run's
# I/Os at or under each power of ten) is computed here from the json+
# bins with jq; without --cdf there is none.
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq

D=$SRC/tests/data/dist
for a in shm disk; do
	run "$BSTORE" --quiet ingest -m box -t array=$a "$D/arrays-$a-1.json" \
		"$D/arrays-$a-2.json" "$D/arrays-$a-3.json"
	expect_rc 0 "ingest $a"
done
# fio's printed clat percentile P of array A's runs, in us: their mean.
fio_mean() { # A P
	jq -s --arg p "$2" '[.[].jobs[0].read.clat_ns.percentile[$p] / 1000] |
		add / length' "$D/arrays-$1-1.json" "$D/arrays-$1-2.json" \
		"$D/arrays-$1-3.json"
}

run "$BSTORE" report -f json array=shm array=disk
expect_rc 0 "report json"
cp "$T/out" "$T/r.json"
for k in p99_us:99.000000 p99_9_us:99.900000 p50_us:50.000000; do
	key=read_clat_${k%%:*} p=${k#*:}
	for g in 1 2; do
		a=$([ $g = 1 ] && echo shm || echo disk)
		got=$(jq --arg k "$key" --argjson g $g '.metrics[] |
			select(.key == $k) | .cells[$g - 1].mean' "$T/r.json")
		want=$(fio_mean $a $p)
		expect_eq "$(awk -v x="$got" -v y="$want" \
			'BEGIN { d = x - y; print (d < 0.01 && d > -0.01) }')" 1 \
			"$key of [$g] is the mean of fio's ($got, $want)"
	done
	expect_eq "$(jq -r --arg k "$key" '.metrics[] | select(.key == $k) |
		.cells[1].verdict' "$T/r.json")" apart \
		"$key: different tests, no verdict"
done

run "$BSTORE" report array=shm array=disk
expect_rc 0 "report text"
want=$(printf '%.1f' "$(fio_mean shm 99.000000)")
expect_eq "$(awk '$1 == "[1]" && $2 == "array=shm" && NF > 10 { print $9 }' "$T/out")" "$want*" \
	"text: [1]'s p99 column"

# HTML: the band's corners are the group's lowest and highest run.
run "$BSTORE" report -o "$T/r.html" array=shm array=disk
expect_rc 0 "report html"
expect_in "$T/r.html" 'class="band"'
lo=$(jq -s '[.[].jobs[0].read.clat_ns.percentile["99.000000"]] | min' \
	"$D"/arrays-disk-[123].json)
expect_in "$T/r.html" "($(awk -v v="$lo" 'BEGIN { printf "%.3g", v / 1e6 }') ms&ndash;"
if grep -q "CDF" "$T/r.html"; then
	fail "a CDF without --cdf"
fi

run "$BSTORE" report --cdf -o "$T/c.html" array=shm array=disk
expect_rc 0 "report --cdf"
expect_in "$T/c.html" "Read completion latency (clat) CDF"
# The table: per run, the share of I/Os at or under 10^e us for the
# axis's powers of ten (e from the floor of the least bin's to the
# ceiling of the greatest's, over every run).
jq -s -r '
	[.[] | .jobs[0].read.clat_ns.bins | keys | map(tonumber / 1000)] |
	flatten | [((min | log10) | floor), ((max | log10) | ceil)] |
	map(tostring) | join(" ")' "$D"/arrays-*-[123].json >"$T/span"
read -r elo ehi <"$T/span"
grep -o '<tr><th scope="row">\[[12]\] array=[a-z]*</th><td>[0-9]*</td><td>[0-9]*</td><td>[0-9.]*%.*</tr>' \
	"$T/c.html" | sed -e 's/<[^>]*>/ /g' -e 's/  */ /g' -e 's/^ //' \
	-e 's/ $//' >"$T/got"
for a in shm disk; do
	for n in 1 2 3; do
		g=$([ $a = shm ] && echo 1 || echo 2)
		id=$(( (g - 1) * 3 + n ))
		jq -r --argjson lo "$elo" --argjson hi "$ehi" \
			--arg head "[$g] array=$a $id" '
			.jobs[0].read.clat_ns.bins | to_entries |
			map([(.key | tonumber / 1000), .value]) as $b |
			($b | map(.[1]) | add) as $t |
			[$head, ($t | tostring)] + [range($lo; $hi + 1) as $e |
			pow(10; $e) as $at |
			($b | map(select(.[0] <= $at) | .[1]) | add // 0) |
			(. * 10000 / $t | round / 100) |
			(tostring | if test("\\.") then . else . + ".0" end) |
			(if test("\\.[0-9]$") then . + "0" else . end) + "%"] |
			join(" ")' "$D/arrays-$a-$n.json"
	done
done >"$T/want"
expect_eq "$(wc -l <"$T/got")" 6 "a CDF row per run"
expect_eq "$(cat "$T/got")" "$(cat "$T/want")" \
	"the CDF table: each run's share under each power of ten, from its bins"
# The same table in the text report and in JSON (under_pct, at_us).
run "$BSTORE" report --cdf array=shm array=disk
expect_rc 0 "report --cdf, text"
expect_in "$T/out" "Read completion latency (clat) CDF: each run's share of I/Os at or under each latency (fio's json+ bins):"
grep '^  \[[12]\] array=' "$T/out" | sed -e 's/  */ /g' -e 's/^ //' >"$T/got"
expect_eq "$(cat "$T/got")" "$(cat "$T/want")" "the text report's CDF table"
run "$BSTORE" report --cdf -f json array=shm array=disk
expect_rc 0 "report --cdf, JSON"
jq -r '.groups as $g | .cdf[] | select(.direction == "read") | .runs[] |
	["[\(.group)] \($g[.group - 1].label)", (.run | tostring),
	 (.ios | tostring)] + (.under_pct | map(tostring |
	 (if test("\\.") then . else . + ".0" end) |
	 (if test("\\.[0-9]$") then . + "0" else . end) + "%")) |
	join(" ")' "$T/out" >"$T/got"
expect_eq "$(cat "$T/got")" "$(cat "$T/want")" "the JSON report's CDF (under_pct)"
expect_eq "$(jq -c '.cdf[0].at_us' "$T/out")" \
	"[$(awk -v lo="$elo" -v hi="$ehi" 'BEGIN { for (e = lo; e <= hi; e++) printf "%s%s", (e > lo ? "," : ""), 10 ^ e }')]" \
	"the JSON CDF's latencies: the powers of ten of the axis"
run "$BSTORE" report array=shm array=disk -f json
expect_not_in "$T/out" '"cdf"'
# --save keeps --cdf: the site's page of the saved comparison has it.
run "$BSTORE" report --cdf --save cdfs -o "$T/s.html" array=shm array=disk
expect_rc 0 "report --cdf --save"
run "$BSTORE" site -o "$T/site"
expect_rc 0 "site with the saved comparison"
expect_in "$T/site/compare/cdfs.html" "Read completion latency (clat) CDF"
# Percentiles fio did not print (randrw-plist.json: --percentile_list
# 50:99:99.5): the report's p90, p99.9 and p99.99 (text and JSON) are
# fio's rule over the bins (the first bin whose running count reaches
# p / 100 of the I/Os), recomputed here with jq.
run "$BSTORE" --quiet ingest -m box -t array=plist "$D/randrw-plist.json"
expect_rc 0 "ingest randrw-plist"
run "$BSTORE" report -f json array=plist
expect_rc 0 "report plist json"
for k in p90_us:90 p99_9_us:99.9 p99_99_us:99.99; do
	for d in read write; do
		key=${d}_clat_${k%%:*} p=${k#*:}
		want=$(jq --arg d $d --argjson p "$p" '.jobs[0][$d].clat_ns.bins |
			to_entries | map([(.key | tonumber), .value]) |
			sort_by(.[0]) as $b | ($b | map(.[1]) | add) as $t |
			[foreach $b[] as $x (0; . + $x[1]; [., $x[0]])] |
			map(select(.[0] >= $p / 100 * $t)) | .[0][1] / 1000' \
			"$D/randrw-plist.json")
		got=$(jq --arg k "$key" '.metrics[] | select(.key == $k) |
			.cells[0].mean' "$T/out")
		expect_eq "$got" "$want" "$key from the bins (fio printed none)"
	done
done
finish
