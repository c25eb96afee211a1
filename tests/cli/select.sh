#!/usr/bin/env bash
# tests/cli/select.sh - the selector language on the samples: each
# operator (=, !=, ~, !~, <, <=, >, >=), globs, dates, the exact runs each
# selects; a selector that matches nothing on every command, with its exit
# status; list's date column, quoted tags and --long; rm --dry-run.
set -euo pipefail
. "$SRC/tests/lib.sh"
cd "$SRC"

# 1-2 EMC RAID10 in March 2004, 3-4 EMC RAID5 on the last second of
# 2004, 5-6 ATA RAID10 on 2005-01-01 (all machine jump), 7 labvm01 in
# 2024, 8 billing with no date and no tag.
ingest() {
	run "$BSTORE" -q ingest "$@"
	expect_rc 0 "ingest $*"
}
ingest --tag 'array=EMC CX500' --tag raid=10 --measured-at 2004-03-15 \
	samples/bonnie++-1.03-emc-raid10-cache.txt \
	samples/bonnie++-1.03-emc-raid10-nocache.txt
ingest --tag array=emc-cx500 --tag raid=5 \
	--measured-at '2004-12-31 23:59:59' \
	samples/bonnie++-1.03-emc-raid5-cache.txt \
	samples/bonnie++-1.03-emc-raid5-nocache.txt
ingest --tag array=ATA --tag raid=10 --measured-at 2005-01-01 \
	samples/bonnie++-1.03-ata-raid10-cache.txt \
	samples/bonnie++-1.03-ata-raid10-nocache.txt
ingest --measured-at 2024-06-01T08:00:00Z samples/bonnie++-2.00a-local-full.txt
ingest samples/bonnie++-1.03-t3-raid5.txt

# sel WANT SELECTOR...: list selects exactly the runs WANT, status 0.
sel() {
	local want=$1
	shift
	run "$BSTORE" list "$@"
	expect_rc 0 "list $*"
	expect_eq "$(awk 'NR > 1 {print $1}' "$T/out" | tr '\n' ' ')" "$want" \
		"list $*"
}
sel "1 2 3 4 5 6 7 8 " all
# Text: exact, and globs.
sel "1 2 " 'array=EMC CX500'
sel "1 2 " 'array=EMC*'
sel "5 6 " 'array=?TA'
sel "1 2 5 6 " 'array=[AE]*'
sel "1 2 3 4 5 6 " 'raid=*'
sel "7 8 " 'raid!=*'
# Case ignored with ~ and !~ (ASCII).
sel "1 2 " 'array~emc cx500'
sel "1 2 3 4 " 'array~emc*'
sel "5 6 7 8 " 'array!~emc*'
sel "7 " 'machine~LABVM*'
# != is the complement of =: runs without the tag included.
sel "3 4 7 8 " 'raid!=10'
sel "1 2 3 4 5 6 " 'machine!=labvm01,machine!=billing'
# A '*', '?' or '[' of the value itself, in brackets.
run "$BSTORE" -q tag 8 'star=a*b' 'br=[x]'
expect_rc 0 "tag 8"
sel "8 " 'star=a[*]b'
sel "8 " 'br=[[]x]'
sel "" 'br=[x]' # an unclosed '[' matches nothing
# Ids.
sel "7 8 " 'id>6'
sel "1 2 " 'id<=2'
sel "1 8 " 'id!=2-7'
sel "3 4 5 6 7 8 " 'id>=3'
sel "1 2 " 'id<3-5'
# Dates: a year, a month, a day, a minute; before, after, up to, from.
sel "1 2 3 4 " date=2004
sel "1 2 " date=2004-03
sel "1 2 " date=2004-03-15
sel "3 4 " 'date=2004-12-31 23:59'
sel "3 4 " 'date=2004-12-31T23:59:59Z'
sel "1 2 3 4 " 'date<2005'
sel "1 2 3 4 " 'date<=2004'
sel "1 2 " 'date<=2004-11'
sel "5 6 7 " 'date>2004'
sel "5 6 7 " 'date>=2005-01-01'
sel "5 6 7 8 " 'date!=2004'
sel "7 " 'date>=2024,machine~LABVM*'
sel "3 4 " 'machine=jump,raid!=10,date=2004'
sel "7 " "date=@$(date -u -d 2024-06-01T08:00:00Z +%s)"

# A selector that matches nothing says so. list and export: a warning,
# status 0 (an empty list is an answer); show, tag, rm, report and
# compare: an error, status 1, when no run at all is selected.
run "$BSTORE" list 'array=emc cx500'
expect_rc 0 "list of no match"
expect_eq "$(cat "$T/out")" "" "list of no match: no header"
expect_eq "$(cat "$T/err")" \
	"bstore: list: warning: selector 'array=emc cx500' matches no runs; did you mean 'array=emc-cx500'?" \
	"list of no match"
run "$BSTORE" list 'raid=99' 1
expect_rc 0 "list of a partial match"
expect_eq "$(awk 'NR > 1 {print $1}' "$T/out")" "1" "list of a partial match"
expect_eq "$(cat "$T/err")" \
	"bstore: list: warning: selector 'raid=99' matches no runs" \
	"list of a partial match"
run "$BSTORE" export --format json 'raid=99'
expect_rc 0 "export of no match"
expect_eq "$(cat "$T/out")" "" "export of no match"
expect_eq "$(cat "$T/err")" \
	"bstore: export: warning: selector 'raid=99' matches no runs" \
	"export of no match"
for c in "show" "tag" "rm" "rm -n" "report" "compare 1"; do
	args=(raid=99)
	[ "$c" = tag ] && args+=(k=v)
	# shellcheck disable=SC2086
	run "$BSTORE" $c "${args[@]}"
	expect_rc 1 "$c of no match"
	expect_eq "$(cat "$T/err")" \
		"bstore: ${c%% *}: selector 'raid=99' matches no runs" \
		"$c of no match"
done
run "$BSTORE" show 'raid=99' 1
expect_rc 0 "show of a partial match"
expect_eq "$(cat "$T/err")" \
	"bstore: show: warning: selector 'raid=99' matches no runs" \
	"show of a partial match"

# Bad selectors are usage errors, named.
bad() {
	run "$BSTORE" list "$1"
	expect_rc 2 "list $1"
	expect_eq "$(head -1 "$T/err")" "bstore: list: $2" "list $1"
}
bad 'raid<5' "selector 'raid<5': a tag takes =, !=, ~ or !~, not '<'"
bad 'machine>=a' "selector 'machine>=a': machine takes =, !=, ~ or !~, not '>='"
bad 'id~1' "selector 'id~1': id takes =, !=, <, <=, > or >=, not '~'"
bad 'date=2004-13' "selector 'date=2004-13': expected a date from 1970 to 9999 (YYYY, YYYY-MM, YYYY-MM-DD[ HH:MM[:SS]] or @UNIXTIME)"
bad '!=10' "selector '!=10' has no key before '!='"
bad 'raid!10' "'raid!10' is not a selector (expected an id, a range like 12-15, 'last', 'all' or key=value)"
# Tag keys that a selector would cut are refused.
run "$BSTORE" tag 1 'a<b=c'
expect_rc 2 "tag key with '<'"
expect_in "$T/err" "tag key 'a<b' has one of , = ! ~ < >"

# list: the day measured ('-' unknown), tags in "..." when they hold a
# blank, a comma or a quote; host facts only with --long.
run "$BSTORE" -q tag 8 'm=rw,relatime' 'q=say "hi"' e=
expect_rc 0 "tag 8 with odd values"
run "$BSTORE" -q tag 7 host.kernel=6.1.0
if [ "$rc" -ne 0 ]; then
	sqlite3 "$DB" "INSERT INTO tags (run_id, key, value) VALUES (7, 'host.kernel', '6.1.0')"
fi
run "$BSTORE" list 1 7 8
expect_rc 0 "list 1 7 8"
expect_eq "$(awk '{print $1, $2, $3}' "$T/out")" "ID DATE MACHINE
1 2004-03-15 jump
7 2024-06-01 labvm01
8 - billing" "list's date column"
expect_eq "$(sed -n 2p "$T/out" | sed 's/.*  //')" 'array="EMC CX500" raid=10' \
	"list quotes a value with a blank"
expect_eq "$(sed -n 4p "$T/out" | sed 's/.*6  //')" \
	'br=[x] e="" m="rw,relatime" q="say \"hi\"" star=a*b' \
	"list quotes empty values, commas and quotes"
expect_not_in "$T/out" "host.kernel"
run "$BSTORE" list --long 7
expect_rc 0 "list --long"
expect_in "$T/out" "host.kernel=6.1.0"
run "$BSTORE" list --rejects --long
expect_rc 2 "list --rejects --long"
expect_in "$T/err" "--rejects takes no SELECTOR, no --json, --long or --count"

# rm --dry-run names the runs; nothing is removed; rm then removes them.
run "$BSTORE" rm --dry-run 'date<2005'
expect_rc 0 "rm --dry-run"
expect_eq "$(cat "$T/out")" "would remove 4 runs:
    1  2004-03-15  jump
    2  2004-03-15  jump
    3  2004-12-31  jump
    4  2004-12-31  jump" "rm --dry-run lists the runs"
sel "1 2 3 4 5 6 7 8 " all
run "$BSTORE" -q rm -n 8
expect_eq "$(cat "$T/out")" "    8  -           billing" "rm -n -q: the runs alone"
run "$BSTORE" rm 'date<2005'
expect_rc 0 "rm date<2005"
expect_eq "$(cat "$T/out")" "removed 4 runs" "rm date<2005"
sel "5 6 7 8 " all

# Parameters, implementations and alternatives, on real captures
# (tests/data/identity, tests/data/sweep): ids 9-15 bonnie++ 2.00a
# (9 with -D), 16 dd, 17 sysbench rndrw, 18 zcav, 19-21 one fio job as
# json, normal and terse text, 22 bstore run -D, 23 bstore zcav, 24
# bstore fileio rndrw, 25-32 fio's iodepth sweep (rw randread/randwrite
# at 1-16), 33-38 sysbench rndrd at 1, 2 and 4 threads.
run "$BSTORE" -q rm all
expect_rc 0 "rm all"
D=tests/data/identity
for f in $D/bonnie++-2.00a-disk-D.csv $D/bonnie++-2.00a-disk-x3.csv \
	$D/bonnie++-2.00a-tmpfs-x3.csv $D/dd-coreutils-9.1-disk.txt \
	$D/sysbench-1.0.20-rndrw.txt $D/zcav-2.00a-file.txt \
	$D/fio-3.33-rr4k-json.out $D/fio-3.33-rr4k-normal.out \
	$D/fio-3.33-rr4k-terse.out $D/bstore-engines.jsonl \
	tests/data/sweep/fio-3.33-iodepth-sweep.json \
	tests/data/sweep/sysbench-1.0.20-threads-sweep.txt; do
	ingest "$f"
done
sel "9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 " all
# Values normalised as identity reads them: 4k is 4096 bytes; the terse
# job (21) prints no bs, rw or direct: unknown, selected by none.
sel "19 20 25 26 27 28 29 30 31 32 " rw=randread
sel "19 20 25 26 27 28 29 30 31 32 " bs=4k
sel "19 20 25 26 27 28 29 30 31 32 " bs=4096B
sel "19 20 25 26 27 28 29 30 31 32 " 'bs=4KiB'
sel "19 20 25 26 27 28 29 30 31 32 " 'rw~RANDREAD'
sel "17 24 " mode=rndrw
sel "17 24 33 34 35 36 37 38 " 'mode=rnd*'
sel "35 38 " threads=4
sel "33 34 35 36 37 38 " 'threads<=4,mode=rndrd'
sel "36 37 " 'threads=1|2,id>35'
sel "19 20 27 28 31 32 " 'iodepth>=16'
sel "25 29 " 'iodepth<4'
# direct: fio's --direct=1, bstore run -D, bstore zcav; dd, sysbench
# and zcav say (zcav's row fixes the page cache); bonnie++'s CSV does
# not, so its runs are in neither.
sel "19 22 23 25 26 27 28 29 30 31 32 " direct=1
sel "16 17 18 24 33 34 35 36 37 38 " direct=0
sel "9 10 11 12 13 14 15 16 17 18 20 21 24 33 34 35 36 37 38 " 'direct!=1'
# The implementation, as the family rows name them.
sel "9 10 11 12 13 14 15 " impl=bonnie++
sel "22 " 'impl=bstore run'
sel "17 33 34 35 36 37 38 " impl=sysbench
sel "24 " 'impl=bstore fileio'
sel "18 " impl=zcav
sel "23 " 'impl=bstore zcav'
sel "19 20 21 25 26 27 28 29 30 31 32 " impl=fio
sel "16 " impl=dd
sel "22 23 24 " 'impl=bstore*'
sel "9 10 11 12 13 14 15 22 " 'impl~BONNIE++|bstore run'
sel "16 17 18 23 24 33 34 35 36 37 38 " 'impl!=fio|bonnie++|bstore run'
# One group of listed ids; alternatives for any key.
sel "21 25 26 " 'id=21|25|26'
sel "21 25 26 " '21|25-26'
sel "9 10 11 12 13 14 15 16 17 18 19 20 21 22 25 26 27 28 29 30 31 32 33 34 35 36 37 38 " 'id!=23|24'
sel "22 23 24 " 'machine=box|vm,id>=22,id<=24'
# A tag of a parameter's key decides for the runs that have it.
run "$BSTORE" -q tag 9 mode=rndrw
expect_rc 0 "tag 9 mode=rndrw"
sel "9 17 24 " mode=rndrw
sel "" 'iodepth>=16,mode=rndrw'
run "$BSTORE" -q tag --remove mode 9
expect_rc 0 "tag --remove mode"
# Bad values of ordered parameters, and keys no run can have.
run "$BSTORE" list 'iodepth>=deep'
expect_rc 2 "iodepth>=deep"
expect_in "$T/err" "selector 'iodepth>=deep': iodepth takes a number or a size after '>='"
run "$BSTORE" tag 9 ' lead=x'
expect_rc 2 "a tag key with a leading blank"

# Every group label a report prints selects exactly that group's runs
# when typed back into list.
relabel() {
	run "$BSTORE" report -f json "$@"
	expect_rc 0 "report $*"
	python3 -c '
import json, sys
for g in json.load(open(sys.argv[1]))["groups"]:
    print(g["label"] + "\t" + " ".join(str(i) for i in g["ids"]) + " ")
' "$T/out" >"$T/labels"
	[ -s "$T/labels" ] || fail "report $*: no groups"
	while IFS=$'\t' read -r label ids; do
		sel "$ids" "$label"
	done <"$T/labels"
}
relabel --by mode
relabel --by threads
relabel --by iodepth
relabel --by rw
relabel --by bs
relabel --by direct
relabel --by threads --within mode
relabel --by iodepth --within rw
relabel 'impl=bonnie++' 'impl=bstore run'
relabel 'mode=rndrw' 'mode=rndrd,threads=4'
relabel 'id=21|25|26' '30|31-32'

finish
