#!/usr/bin/env bash
# tests/cli/commands.sh - list, show, export, tag and rm on the ingested
# samples, with golden files, selectors and usage errors.
set -euo pipefail
. "$SRC/tests/lib.sh"
cd "$SRC" # so sources are stored as samples/..., as a user would type them

run "$BSTORE" ingest samples/bonnie++-1.03-*.txt samples/bonnie++-1.03d-pasted-blog.txt \
	samples/bonnie++-2.00a-local-full.txt
expect_rc 0 "ingest samples"

# Tags, then list (golden).
run "$BSTORE" tag 1-2 array=ata
expect_rc 0 "tag"
expect_in "$T/out" "tagged 2 runs"
run "$BSTORE" tag machine=jump,array=ata raid=10 'note=ATA RAID10'
expect_rc 0 "tag by selector"
run "$BSTORE" list
expect_rc 0 "list"
golden commands/list.txt "$T/out"
run "$BSTORE" list raid=10 8-9
expect_rc 0 "list with selectors"
expect_eq "$(awk 'NR > 1 {print $1}' "$T/out" | tr '\n' ' ')" "1 2 8 9 " \
	"union of selectors, in id order"
run "$BSTORE" list machine=nobody
expect_rc 0 "list matching nothing"
expect_eq "$(cat "$T/out")" "" "no header when nothing matches"

# show: a 1.03 run (K/sec layout) and a 2.00a run (latency rows).
run "$BSTORE" show 1
expect_rc 0 "show 1"
golden commands/show-1.txt "$T/out"
run "$BSTORE" show last
expect_rc 0 "show last"
golden commands/show-last.txt "$T/out"
expect_in "$T/out" "seq_create  too fast  (+++++: under 0.5 s"
expect_in "$T/out" "ceo-box          2G  545k  94  291m  69  587m  52  480k  82  1.8g  69  6398  31"

# export json: valid JSON per line, the contract's keys, golden.
run "$BSTORE" export --format json 1 14
expect_rc 0 "export json"
golden commands/export-1-14.jsonl "$T/out"
while IFS= read -r line; do
	expect_eq "$(sqlite3 :memory: "select json_valid('$(echo "$line" | sed "s/'/''/g")')")" 1 "valid JSON"
	for k in id machine tool tool_version format measured_at source sha256 params tags results; do
		expect_eq "$(sqlite3 :memory: "select json_type('$(echo "$line" | sed "s/'/''/g")', '\$.$k') is not null")" 1 "key $k"
	done
done <"$T/out"
first=$(sed -n 1p "$T/out" | sed "s/'/''/g")
expect_eq "$(sqlite3 :memory: "select json_extract('$first', '\$.results.seq_stat.status')")" \
	too_fast "too_fast in JSON"
expect_eq "$(sqlite3 :memory: "select json_extract('$(sed -n 1p "$T/out")', '\$.results.seq_stat.value') is null")" 1 \
	"too_fast has a null value, not 0"

# export csv: header + rows, golden; export to a file with -o.
run "$BSTORE" export --format csv raid=10
expect_rc 0 "export csv"
golden commands/export-raid10.csv "$T/out"
run "$BSTORE" export --format bonnie -o "$T/all.csv"
expect_rc 0 "export -o"
expect_eq "$(wc -l <"$T/all.csv")" 14 "export -o wrote every run"

# Tag removal and rm.
run "$BSTORE" tag 1 --remove note
expect_rc 0 "tag --remove"
expect_eq "$(sql "select count(*) from tags where run_id = 1 and key = 'note'")" 0 "tag removed"
run "$BSTORE" rm --dry-run machine=server_name
expect_rc 0 "rm --dry-run"
expect_in "$T/out" "would remove 4 runs"
run "$BSTORE" rm machine=server_name
expect_rc 0 "rm"
expect_in "$T/out" "removed 4 runs"
expect_eq "$(sql 'select count(*) from runs')" 10 "runs after rm"
expect_eq "$(sql "select count(*) from tags where run_id not in (select id from runs)")" 0 \
	"tags of removed runs are gone"
# Removed runs can be ingested again.
run "$BSTORE" ingest samples/bonnie++-1.03d-pasted-blog.txt
expect_in "$T/out" "4 runs stored, 2 duplicates"

# Usage errors: exit 2 and a pointer to --help; unknown commands.
run "$BSTORE" show
expect_rc 2 "show without selector"
expect_in "$T/err" "Try 'bstore show --help'."
run "$BSTORE" list 'bogus selector'
expect_rc 2 "bad selector"
expect_in "$T/err" "is not a selector"
run "$BSTORE" export --format xml
expect_rc 2 "bad format"
run "$BSTORE" rm
expect_rc 2 "rm without selector"
run "$BSTORE" tag 1 novalue
expect_rc 2 "tag without ="
run "$BSTORE" reprot
expect_rc 2 "unknown command"
expect_in "$T/err" "bstore: 'reprot' is not a bstore command. Did you mean 'report'?"
run "$BSTORE" show 999
expect_rc 1 "show a missing id"
expect_in "$T/err" "no run matches"
for c in ingest list show export tag rm; do
	run "$BSTORE" "$c" --help
	expect_rc 0 "$c --help"
	expect_in "$T/out" "Usage: bstore $c"
done
run "$BSTORE" --help
expect_rc 0 "--help"
expect_in "$T/out" "Commands:"

# The default archive: $XDG_DATA_HOME, created on first use.
unset BSTORE_DB
export XDG_DATA_HOME=$T/xdg
run "$BSTORE" ingest samples/bonnie++-1.03-t3-raid5.txt
expect_rc 0 "ingest into the default archive"
[ -f "$T/xdg/bstore/bstore.db" ] || fail "default archive not created under XDG_DATA_HOME"

finish
