#!/usr/bin/env bash
# tests/cli/ingest_text.sh - bstore ingest on text tables, as a user runs
# it: bonnie++ 2.00a tables captured here without their CSV line, pasted
# 1.03 and 1.9x tables, Tim Bray's Bonnie; the values exported; re-ingest
# stores nothing new; a captured output (table, then CSV line) stores its
# CSV line alone; a broken table is a reject at its FILE:LINE.
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq

D=$SRC/tests/data
tables=("$SAMPLES"/bonnie++-2.00a-table-*.txt)

# 1. The captured 2.00a tables: one run each.
run "$BSTORE" ingest "${tables[@]}"
expect_rc 0 "ingest 2.00a tables"
for f in "${tables[@]}"; do
	expect_in "$T/out" "$f: 1 run stored, 0 duplicates, 0 rejected (bonnie++-text: 1)"
done
expect_in "$T/err" "bonnie++-2.00a-table-s0-files-labvm.txt:11: bonnie++ 2.00a text table: the file-test rates are not stored"

# Values as the tables print them: 1159k is 1159 KiB/s, +++++ too fast,
# blank cells not run, latencies in us, the size label in the params.
json() { "$BSTORE" export --format json | jq -c --arg s "$1" 'select(.source == $s)'; }
run json "$SAMPLES/bonnie++-2.00a-table-full-labvm.txt"
expect_rc 0 "export full"
expect_eq "$(jq -r '[.tool, .tool_version, .format, .machine, .source_line,
	.params.file_size_mib, .params.num_files,
	.results.putc.value, .results.putc.cpu_pct, .results.putc.latency_us,
	.results.put_block.status, .results.put_block.latency_us,
	.results.ran_stat.status, .results.ran_stat.latency_us] | join(" ")' "$T/out")" \
	"bonnie++ 2.00a bonnie++-text-1.98 labvm 17 64 1 1159 55 20019 too_fast 8120 too_fast 5" \
	"2.00a table values"
run json "$SAMPLES/bonnie++-2.00a-table-n0-f-labvm.txt"
expect_eq "$(jq -r '[.results.putc.status, .results.getc.status,
	.results.seq_create.status, .results.seeks.status,
	.results.seeks.latency_us, .params.num_files] | map(tostring) | join(" ")' "$T/out")" \
	"not_run not_run not_run too_fast 32267 null" "-n 0 -f: blank cells not run"
run json "$SAMPLES/bonnie++-2.00a-table-chunk-labvm.txt"
expect_eq "$(jq -r '[.params.file_size_mib, .params.io_chunk_bytes, .params.seeks,
	.params.concurrency, .params.seek_procs] | map(tostring) | join(" ")' "$T/out")" \
	"64 4096 1000 2 null" "size label 64M:4k:2:1000"
run json "$SAMPLES/bonnie++-2.00a-table-s0-link-labvm.txt"
expect_eq "$(jq -r '[.params.num_files, .params.max_size, .params.file_size_mib]
	| map(tostring) | join(" ")' "$T/out")" "1 link null" "files label 1:link"
# 2.00a's text gives wrong file rates: stored as not run, said why.
run json "$SAMPLES/bonnie++-2.00a-table-s0-files-labvm.txt"
expect_eq "$(jq -r '[.params.num_files, .params.max_size, .params.min_size,
	.results.seq_del.status, .results.seq_del.value, .results.seq_del.latency_us,
	.results.ran_create.status, .results.seq_create.status] | map(tostring) | join(" ")' "$T/out")" \
	"2 4096 512 not_run null 34844 not_run too_fast" "2.00a file rates dropped"
expect_in "$T/out" "the file-test rates are not stored (1.98-2.00a print a wrong number there"

# 2. Again: nothing new.
run "$BSTORE" ingest "${tables[@]}"
expect_rc 0 "ingest tables again"
for f in "${tables[@]}"; do
	expect_in "$T/out" "$f: 0 runs stored, 1 duplicate, 0 rejected"
done

# 3. k/m/g rates (a WSL blog's 2.00a table): stored in KiB/s.
run "$BSTORE" ingest "$D/bonnie++-2.00a-table-wsl.txt"
expect_rc 0 "ingest wsl table"
run json "$D/bonnie++-2.00a-table-wsl.txt"
expect_eq "$(jq -r '[.results.putc.value, .results.put_block.value,
	.results.rewrite.value, .results.getc.value, .results.get_block.value,
	.results.seeks.status, .params.file_size_mib] | map(tostring) | join(" ")' "$T/out")" \
	"540 745472 980992 2205 1153433.6 too_fast 64512" "k/m/g as KiB/s"

# 4. Pasted 1.03 tables (quoted mail, CRLF, numbered) and the 1.03d
# blog without its CSV lines; 1.9x tables with Latency rows.
run "$BSTORE" ingest "$D/bonnie++-1.03-table-quoted.txt" \
	"$D/bonnie++-1.03-table-crlf.txt" "$D/bonnie++-1.03-table-numbered.txt" \
	"$D/bonnie++-1.03d-blog-tables.txt" "$D/bonnie++-1.9x-tables.txt"
expect_rc 0 "pasted tables"
expect_in "$T/out" "bonnie++-1.03d-blog-tables.txt: 6 runs stored, 0 duplicates, 0 rejected (bonnie++-text: 6)"
expect_in "$T/out" "bonnie++-1.9x-tables.txt: 2 runs stored, 0 duplicates, 0 rejected (bonnie++-text: 2)"
for f in quoted crlf numbered; do
	run json "$D/bonnie++-1.03-table-$f.txt"
	expect_eq "$(jq -r '[.machine, .tool_version, .format, .params.file_size_mib,
		.results.putc.value, .results.seeks.value, .results.seq_stat.status,
		.results.ran_del.value, .results.ran_del.cpu_pct] | map(tostring) | join(" ")' "$T/out")" \
		"billing 1.03 bonnie++-text-1.0x 4096 9915 177.6 too_fast 1197 27" "1.03 table, $f"
done
expect_eq "$(sql "select count(*) from runs where raw like '%'||char(13)||'%'")" 0 \
	"no CR in the stored tables"
run json "$D/bonnie++-1.03d-blog-tables.txt"
expect_eq "$(jq -rs 'map([.machine, .results.putc.status, .results.put_block.value]
	| map(tostring) | join(":")) | join(" ")' "$T/out")" \
	"server_name:not_run:51181 server_name:not_run:58408 server_name:not_run:54601 server_name:not_run:51977 nfs_client:not_run:9436 iscsi_client:not_run:2896" \
	"-f tables: per-char not run"
run json "$D/bonnie++-1.9x-tables.txt"
expect_eq "$(jq -rs 'map([.machine, .tool_version, .params.concurrency,
	.results.put_block.latency_us, .results.get_block.value,
	.results.seq_stat.status] | map(tostring) | join(":")) | join(" ")' "$T/out")" \
	"AcharyaX:1.93c:1:380000:566685:ok nfs-worker1:1.97:1:801000:271440:too_fast" \
	"1.9x tables"

# 5. A captured output: the table and its CSV line are one run, the CSV
# line's, stored verbatim (the same digest as the line alone).
f=$SAMPLES/bonnie++-2.00a-local-full.txt
run "$BSTORE" ingest "$f"
expect_rc 0 "captured output"
expect_in "$T/out" "$f: 1 run stored, 0 duplicates, 0 rejected (bonnie++-csv-1.98: 1)"
tail -n 1 "$f" >"$T/line.csv"
run "$BSTORE" ingest "$T/line.csv"
expect_in "$T/out" "$T/line.csv: 0 runs stored, 1 duplicate, 0 rejected"
expect_eq "$(sql "select format || ' ' || source_line || ' ' || (raw = '$(cat "$T/line.csv")')
	from runs where source = '$f'")" "bonnie++-csv-1.98 24 1" "captured output: the CSV line's run"

# 6. Tim Bray's Bonnie, its -html row, Bonnie-64, Linux Bonnie 1.4.
run "$BSTORE" ingest "$D/bonnie-1.x-table.txt" "$D/bonnie-1.x-html.txt" \
	"$D/bonnie64-table.txt" "$D/bonnie-1.4-table.txt"
expect_rc 1 "Bonnie (one bad html row)"
expect_in "$T/out" "bonnie-1.x-table.txt: 2 runs stored, 0 duplicates, 0 rejected (bonnie-text: 2)"
expect_in "$T/out" "bonnie-1.x-html.txt: 1 run stored, 0 duplicates, 1 rejected (bonnie-html: 1)"
expect_in "$T/err" "bstore: ingest: $D/bonnie-1.x-html.txt:2: Bonnie -html row: get_block is not a number"
run json "$D/bonnie-1.x-table.txt"
expect_eq "$(jq -rs 'map([.tool, (.tool_version // "none"), .family, .format, .machine,
	.params.file_size_mib, .results.putc.value, .results.putc.cpu_pct,
	.results.seeks.value, .results.seeks.cpu_pct, .results.seq_create.status]
	| map(tostring) | join(":")) | join(" ")' "$T/out")" \
	"bonnie:none:bonnie:bonnie-text:pre9-3:400:15032:64.4:118.1:1.2:not_run bonnie:none:bonnie:bonnie-text:new:100:224399:99.9:118252.2:263.5:not_run" \
	"Bonnie table"
run json "$D/bonnie-1.x-html.txt"
expect_eq "$(jq -r '[.format, .machine, .params.file_size_mib, .results.rewrite.value,
	.results.rewrite.cpu_pct] | map(tostring) | join(" ")' "$T/out")" \
	"bonnie-html pre9-3 400 6202 7.1" "Bonnie -html row"
run json "$D/bonnie64-table.txt"
expect_eq "$(jq -r '[.format, .params.file_size_mib, .results.put_block.value,
	.results.seeks.value] | map(tostring) | join(" ")' "$T/out")" \
	"bonnie64-text null 420352 9000" "Bonnie-64: M/sec as KiB/s"
run json "$D/bonnie-1.4-table.txt"
expect_eq "$(jq -rs 'map([.machine, .params.file_size_mib] | map(tostring) | join(":")) | join(" ")' "$T/out")" \
	":1024 M1135-:3072" "Bonnie 1.4: volumes*MB"

# 7. A table that does not parse: a reject at its row, FILE:LINE: reason.
{
	echo "Version 1.03e       ------Sequential Output------ --Sequential Input- --Random-"
	echo "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--"
	echo "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP"
	echo "box              2G 83720  95    813061  95  97 2828489  97  1187   0"
} >"$T/bad.txt"
run "$BSTORE" ingest "$T/bad.txt"
expect_rc 1 "a broken table"
expect_in "$T/err" "bstore: ingest: $T/bad.txt:4: bonnie++ 1.03e text table: the cells of this row do not line up with the columns"
head -n 3 "$T/bad.txt" >"$T/norow.txt"
run "$BSTORE" ingest "$T/norow.txt"
expect_rc 1 "a table without a row"
expect_in "$T/err" "bstore: ingest: $T/norow.txt:1: bonnie++ 1.03e text table without a row of results"
expect_style "$T/err"

# export --format bonnie: a run read from a table has no CSV line of its
# own, so one is written in 1.98's layout from its values (never the
# table's text); a table's own CSV line is exported as it was.
rm -f "$BSTORE_DB"
run "$BSTORE" ingest "$SAMPLES/bonnie++-2.00a-table-full-labvm.txt" \
	"$SAMPLES/bonnie++-2.00a-local-full.txt"
expect_rc 0 "a table alone and a table with its line"
run "$BSTORE" export --format bonnie
expect_rc 0 "export bonnie"
expect_eq "$(wc -l <"$T/out")" 2 "one line per run"
expect_eq "$(grep -c '^1\.98,2\.00a,' "$T/out")" 2 "both in 1.98's layout"
expect_not_in "$T/out" "Sequential Output"
expect_eq "$(sed -n 2p "$T/out")" "$(tail -n 1 "$SAMPLES/bonnie++-2.00a-local-full.txt" | tr -d '\r')" \
	"the captured line, as it was"


# A quoted-printable mail part (issue 29 class 5): its header turns on
# the decoding, soft breaks ("=" at the end) join the rows a mailer cut
# at 76 columns, "=20" is a blank. The published mail reads whole; the
# same text without its Content-Transfer-Encoding header is not decoded.
W=$SRC/tests/data/wild
export BSTORE_DB=$T/qp.db
run "$BSTORE" ingest "$W/bonnie++-1.03-qp-mail-three-cables.txt"
expect_rc 0 "ingest a quoted-printable mail"
expect_in "$T/out" "3 runs stored, 0 duplicates, 0 rejected"
expect_eq "$("$BSTORE" export --format json | jq -r '[.machine, .results.putc.value, .results.seeks.value] | @tsv' | paste -sd,)" \
	"$(printf 'calc\t18668\t186.5,calc\t9689\t189.8,calc\t27586\t185.2')" "quoted-printable rows"
grep -v '^Content-Transfer-Encoding' "$W/bonnie++-1.03-qp-mail-three-cables.txt" >"$T/noqp.txt"
export BSTORE_DB=$T/noqp.db
run "$BSTORE" ingest "$T/noqp.txt"
expect_rc 1 "soft breaks left as they are without the header"


# A table a mailer cut, with its CSV line below (issue 29 class 6): the
# table is the same measurement, printed twice, not a reject; ingest
# exits 0. Without the CSV lines the cut tables stay rejects.
export BSTORE_DB=$T/cut.db
run "$BSTORE" ingest "$W/bonnie++-1.03-outlook-wrapped-two-kernels.txt"
expect_rc 0 "a cut table and its CSV line"
expect_in "$T/out" "2 runs stored, 0 duplicates, 0 rejected (bonnie++-csv-1.0x: 2)"
expect_in "$T/err" "bonnie++-1.03-outlook-wrapped-two-kernels.txt:28: the same measurement as line 44 (bonnie++-csv-1.0x): stored once"
grep -v '^access1,\|^,+++++\|^+++++' "$W/bonnie++-1.03-outlook-wrapped-two-kernels.txt" >"$T/nocsv.txt"
export BSTORE_DB=$T/nocsv.db
run "$BSTORE" ingest "$T/nocsv.txt"
expect_rc 1 "cut tables alone"
expect_in "$T/out" "0 runs stored, 0 duplicates, 2 rejected"

finish
