#!/usr/bin/env bash
# tests/cli/report_factor.sh - short group labels (--label, or the
# selector terms that differ), notes on groups that mix unlike runs, and
# factor comparisons (--by KEY --within KEY2: one block per value of KEY2,
# each with its own baseline), on the EMC and ATA samples tagged array,
# raid and cache as a user would; means checked against the runs' own
# exported values (reports in the stored KiB/s: -u kib).
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq
cd "$SRC"

for f in samples/bonnie++-1.03-emc-*.txt samples/bonnie++-1.03-ata-*.txt; do
	tags=()
	case $f in
	*-emc-*) tags+=(--tag "array=EMC CX500") ;;
	*-ata-*) tags+=(--tag array=ATA) ;;
	esac
	case $f in
	*raid10*) tags+=(--tag raid=10) ;;
	*raid5*) tags+=(--tag raid=5) ;;
	esac
	case $f in
	*-nocache*) tags+=(--tag cache=off) ;;
	*-cache*) tags+=(--tag cache=on) ;;
	esac
	run "$BSTORE" ingest "${tags[@]}" "$f"
	expect_rc 0 "ingest $f"
done

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
group() { # REPORT.json GROUP FIELD
	jq -r ".groups[$(($2 - 1))].$3" "$1"
}

# --- 1. Labels ----------------------------------------------------------
# Automatic: the terms that differ between the selectors; the selector
# stays in the groups table, and the common terms head the title.
emc10='array=EMC CX500,raid=10'
emc5='array=EMC CX500,raid=5'
run "$BSTORE" report -u kib -f json "$emc10" "$emc5"
expect_rc 0 "two EMC groups"
cp "$T/out" "$T/auto.json"
expect_eq "$(group "$T/auto.json" 1 label)" "raid=10" "automatic label [1]"
expect_eq "$(group "$T/auto.json" 2 label)" "raid=5" "automatic label [2]"
expect_eq "$(group "$T/auto.json" 1 selector)" "$emc10" "selector kept [1]"
expect_eq "$(jq -r .title "$T/auto.json")" "array=EMC CX500: raid=10 vs raid=5" \
	"title: the common terms, then the labels"
got=$(cell "$T/auto.json" put_block 1 mean)
want=$(mean_of "$emc10" put_block)
near "$got" "$want" || fail "put_block [1]: got $got, want $want"
run "$BSTORE" report -u kib -f text "$emc10" "$emc5"
expect_in "$T/out" "[1] raid=10 ($emc10): 2 runs"
expect_in "$T/out" "* [2] raid=5 against [1] raid=10:"
expect_in "$T/out" "change [2] vs [1]"
run "$BSTORE" report -u kib -f csv "$emc10" "$emc5"
expect_eq "$(head -1 "$T/out" | tr ',' '\n' | grep -x -e selector -e baseline | tr '\n' ' ')" "selector baseline " "CSV selector and baseline columns"
expect_in "$T/out" '"raid=5",2,"put_block",'
expect_in "$T/out" ',"array=EMC CX500,raid=5"'
run "$BSTORE" report -u kib -f html -o "$T/auto.html" "$emc10" "$emc5"
expect_rc 0 "html"
expect_in "$T/auto.html" '<td data-label="Group" class="sel">raid=10<small title="selector">array=EMC CX500,raid=10</small></td>'
expect_in "$T/auto.html" '<span class="gl"> raid=10</span>'
# Selectors with nothing in common keep their whole text.
run "$BSTORE" report -u kib -f json raid=10 raid=5
expect_eq "$(group "$T/out" 1 label)" "raid=10" "nothing in common: the selector"
expect_eq "$(jq -r .title "$T/out")" "raid=10 vs raid=5" "title without common terms"
# One group: its selector.
run "$BSTORE" report -u kib -f json "$emc10"
expect_eq "$(group "$T/out" 1 label)" "$emc10" "one group: its selector"

# --label: one per group, in order; kept by --save.
run "$BSTORE" report -u kib -f json --label RAID10 --label RAID5 "$emc10" "$emc5"
expect_rc 0 "--label"
expect_eq "$(group "$T/out" 1 label) $(group "$T/out" 2 label)" "RAID10 RAID5" "--label"
expect_eq "$(group "$T/out" 2 selector)" "$emc5" "--label keeps the selector"
expect_eq "$(jq -r .title "$T/out")" "RAID10 vs RAID5" "title of --label"
run "$BSTORE" report -u kib --label RAID10 "$emc10" "$emc5"
expect_rc 2 "one --label for two groups"
expect_in "$T/err" "bstore: report: 1 --label for 2 groups: give one per group, in order"
expect_style "$T/err"

# --- 2. Groups that mix unlike runs -------------------------------------
# [1] averages cache on and off; [2] too, and two arrays besides.
run "$BSTORE" report -u kib -f json "$emc10" raid=10
expect_rc 0 "mixed groups"
cp "$T/out" "$T/mix.json"
expect_eq "$(jq -r '.notes[]' "$T/mix.json" | grep -c mixes)" 2 "a note per mixed group"
expect_in "$T/mix.json" '"[1] mixes cache=on (1 run) and cache=off (1 run); its means average unlike runs"'
expect_in "$T/mix.json" '"[2] mixes array=EMC CX500 (2 runs) and array=ATA (2 runs); cache=on (2 runs) and cache=off (2 runs); its means average unlike runs"'
# A group of alike runs has none, whatever the others hold.
run "$BSTORE" report -u kib -f json 'array=EMC CX500,raid=10,cache=on' 'array=EMC CX500,raid=10,cache=off'
expect_not_in "$T/out" "mixes"
# Tool version, host facts (tags host.*) and a run without the tag.
run "$BSTORE" tag 6 host.kernel=6.1
expect_rc 0 "tag a host fact"
run "$BSTORE" report -u kib -f json array=ATA
expect_in "$T/out" "[1] mixes cache=on (1 run) and cache=off (1 run);"
# Host facts only some runs have: one clause, not a value each.
expect_in "$T/out" "host facts (host.kernel) for 1 of its 2 runs only"
run "$BSTORE" ingest --tag array=ATA --tag raid=10 --tag cache=on samples/bonnie++-2.00a-local-full.txt
expect_rc 0 "ingest a 2.00a run"
run "$BSTORE" report -u kib -f json 'array=ATA,cache=on'
expect_in "$T/out" "bonnie++ 1.03 and bonnie++ 2.00a"
expect_in "$T/out" "file size 8192 MiB (1 run) and 2048 MiB (1 run)"

# --- 3. Factor comparisons --------------------------------------------------
# RAID10 against RAID5, once with the cache off, once on: two blocks, each
# with its own baseline; Holm's correction over the page.
emc='array=EMC CX500'
run "$BSTORE" report -u kib -f json --by raid --within cache --baseline-value 5 "$emc"
expect_rc 0 "--by raid --within cache"
cp "$T/out" "$T/f.json"
expect_eq "$(jq -r '[.groups[].label] | join(";")' "$T/f.json")" \
	"raid=10, cache=off;raid=5, cache=off;raid=10, cache=on;raid=5, cache=on" \
	"groups: blocks by cache, raid sorted in each"
expect_eq "$(jq -r '[.groups[].baseline_group] | join(" ")' "$T/f.json")" "2 2 4 4" \
	"each block's baseline: its raid=5 group"
expect_eq "$(jq -r '[.groups[].baseline] | join(" ")' "$T/f.json")" "false true false true" \
	"baselines flagged"
expect_eq "$(jq -r .baseline "$T/f.json")" "null" "no one baseline for the page"
expect_eq "$(group "$T/f.json" 3 selector)" "$emc,raid=10,cache=on" "a factor group's selector"
expect_eq "$(jq -r .title "$T/f.json")" "$emc: raid 10 vs 5, for each cache" "factor title"
# Real means, and each diff against its own block's baseline.
for k in put_block get_block rewrite; do
	g=0
	for cache in off on; do
		for raid in 10 5; do
			g=$((g + 1))
			got=$(cell "$T/f.json" $k $g mean)
			want=$(mean_of "$emc,raid=$raid,cache=$cache" $k)
			near "$got" "$want" || fail "$k [$g] raid=$raid cache=$cache: got $got, want $want"
		done
	done
done
expect_eq "$(cell "$T/f.json" put_block 1 diff)" 2643 "cache off: RAID10 - RAID5 block write (published 2,643)"
expect_eq "$(cell "$T/f.json" put_block 3 diff)" -30310 "cache on: RAID10 - RAID5 block write (published -30,310)"
expect_eq "$(cell "$T/f.json" get_block 1 diff)" -12358 "cache off: block read"
expect_eq "$(cell "$T/f.json" get_block 3 diff)" -16494 "cache on: block read"
expect_eq "$(cell "$T/f.json" put_block 2 diff)" null "a baseline has no diff"
expect_eq "$(cell "$T/f.json" put_block 4 verdict)" "" "nor a verdict"
expect_in "$T/f.json" '"sentence": "[3] raid=10, cache=on against [4] raid=5, cache=on:'
expect_eq "$(jq -r '.notes | map(select(test("mixes"))) | length' "$T/f.json")" 0 \
	"factor groups of alike runs: no mix note"
# Text: the rows against each block's baseline.
run "$BSTORE" report -u kib --by raid --within cache --baseline-value 5 --metrics putc,put_block "$emc"
expect_rc 0 "factor text"
words() { tr -s ' ' <"$1" >"$T/words"; }
words "$T/out"
expect_in "$T/words" "A baseline per block: diff = group - its baseline"
expect_in "$T/words" "[1] raid=10, cache=off ($emc,raid=10,cache=off): 1 run (id 2); jump; bonnie++ 1.03; file size 8G, files (x1024) 16; $emc cache=off raid=10 (against [2])"
expect_in "$T/words" "diff [1]-[2] 1691 2643"
expect_in "$T/words" "diff [3]-[4] -3173 -30310"
expect_in "$T/words" "change [3] vs [4]"
expect_not_in "$T/words" "diff [2]-"
# CSV: the baseline column per group.
run "$BSTORE" report -u kib -f csv --by raid --within cache --baseline-value 5 --metrics put_block "$emc"
expect_eq "$(python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(" ".join(r["baseline"] for r in rows[:4]))' "$T/out")" "2 2 4 4" "CSV baseline per group"
# HTML: the change rows name each block's baseline.
run "$BSTORE" report -u kib -f html -o "$T/f.html" --by raid --within cache --baseline-value 5 "$emc"
expect_rc 0 "factor html"
expect_in "$T/f.html" "change [3] vs [4]"
expect_in "$T/f.html" "change [1] vs [2]"
expect_in "$T/f.html" '<small class="vs">vs [4]</small>'
# The second block's first rows are set apart, in the groups table and in
# every section's table.
expect_in "$T/f.html" '<tr class="blk"><th scope="row">[3] <small class="vs">vs [4]</small></th>'
expect_in "$T/f.html" '<tr class="val blk"><th scope="row">[3]<span class="gl"> raid=10, cache=on</span></th>'
# Without --within: one block; without --baseline-value the first value.
run "$BSTORE" report -u kib -f json --by cache "$emc"
expect_eq "$(jq -r '[.groups[].label] | join(";")' "$T/out")" "cache=off;cache=on" "--by alone"
expect_eq "$(jq -r .baseline "$T/out")" 1 "the first value is the baseline"
got=$(cell "$T/out" put_block 2 mean)
want=$(mean_of "$emc,cache=on" put_block)
near "$got" "$want" || fail "--by cache put_block: got $got, want $want"
# Runs without the tag are left out, said once; a baseline value a block
# lacks, and options that do not go together, fail.
run "$BSTORE" report -u kib -f json --by raid --within cache
expect_rc 0 "all runs"
expect_eq "$(cat "$T/err")" "" "every run has both tags: none left out"
run "$BSTORE" report -u kib -f json --by host.kernel
expect_rc 0 "--by a tag one run has"
expect_eq "$(cat "$T/err")" "bstore: report: warning: 6 runs without the tag 'host.kernel' left out" \
	"runs without the tag, said once"
expect_eq "$(jq -r '.groups | length' "$T/out")" 1 "one group"
run "$BSTORE" report -u kib --by raid --within array --baseline-value 5
expect_rc 1 "a block without the baseline value"
expect_eq "$(cat "$T/err")" "bstore: report: no run with array=ATA has raid=5" "which block lacks it"
run "$BSTORE" report -u kib --by nosuch
expect_rc 1 "--by a tag nobody has"
expect_in "$T/err" "bstore: report: no run has the tag (or parameter) 'nosuch'"
run "$BSTORE" report -u kib --within cache raid=10
expect_rc 2 "--within without --by"
expect_in "$T/err" "--within and --baseline-value go with --by"
run "$BSTORE" report -u kib --by raid --baseline 2
expect_rc 2 "--by with --baseline"
expect_style "$T/err"
run "$BSTORE" report -u kib --by raid --within cache --label a "$emc"
expect_rc 1 "one --label for four factor groups"
expect_in "$T/err" "1 --label for 4 groups"
run "$BSTORE" report -u kib -f json --by raid --within cache --label A --label B --label C --label D "$emc"
expect_eq "$(jq -r '[.groups[].label] | join("")' "$T/out")" "ABCD" "--label with --by"

# A tag with more values than a note names: the first four met, then the
# rest counted.
for id in 1 2 3 4 5 6; do
	run "$BSTORE" tag "$id" "slot=s$id"
	expect_rc 0 "tag slot"
done
run "$BSTORE" report -u kib -f json machine=jump
expect_in "$T/out" "slot=s1 (1 run), slot=s2 (1 run), slot=s3 (1 run), slot=s4 (1 run) and 2 more runs with other values"

# --save keeps the factor options; the site renders the page again.
run "$BSTORE" report -u kib --save factor --by raid --within cache --baseline-value 5 "$emc"
expect_rc 0 "--save a factor comparison"
export SOURCE_DATE_EPOCH=1700000000
run "$BSTORE" site -o "$T/site"
expect_rc 0 "site"
expect_in "$T/site/compare/factor.html" "change [3] vs [4]"

# --- Medians: the middle run of a group, from the runs' own values -------
run "$BSTORE" ingest samples/bonnie++-1.03d-pasted-blog.txt
expect_rc 0 "ingest the blog's runs"
median_of() { # SELECTOR KEY
	"$BSTORE" export --format json "$1" |
		jq -s "[.[].results.$2.value | select(. != null)] | sort |
			if length % 2 == 1 then .[length / 2 | floor]
			else (.[length / 2 - 1] + .[length / 2]) / 2 end"
}
n=$("$BSTORE" export --format json machine=server_name | jq -s length)
[ "$n" -ge 3 ] || fail "the blog's machine has $n runs, the check needs 3"
"$BSTORE" report -u kib -f json -o "$T/med.json" machine=server_name "$emc5"
"$BSTORE" report -u kib -f csv -o "$T/med.csv" machine=server_name "$emc5"
for key in put_block rewrite get_block seeks; do
	want=$(median_of machine=server_name $key)
	got=$(cell "$T/med.json" $key 1 median)
	near "$got" "$want" || fail "median $key [1] JSON: got $got, want $want"
	got=$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["metric"] == sys.argv[2] and r["selector"] == "machine=server_name":
        print(r["median"])' "$T/med.csv" $key)
	near "$got" "$want" || fail "median $key [1] CSV: got $got, want $want"
	# A median is not a mean: these runs scatter, so the two differ.
	mean=$(mean_of machine=server_name $key)
	near "$mean" "$want" && fail "median $key equals the mean $mean"
done
"$BSTORE" report -u kib -f text machine=server_name "$emc5" >"$T/med.txt"
expect_in "$T/med.txt" "    median"

finish
