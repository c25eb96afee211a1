#!/usr/bin/env bash
# tests/cli/formats.sh - one real line of every bonnie++ CSV family (the
# examples of docs/input-formats.md section 1, in tests/data/formats-lines.csv):
# every one is stored, maps to the right columns (golden query of the
# bonnie view), and comes back byte for byte from export --format bonnie.
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3
lines=$SRC/tests/data/formats-lines.csv

run "$BSTORE" ingest "$lines"
expect_rc 0 "ingest every family"
expect_in "$T/out" "16 runs stored, 0 duplicates, 0 rejected ("

grep -v '^#' "$lines" >"$T/expected"
run "$BSTORE" export --format bonnie
if ! cmp -s "$T/expected" "$T/out"; then
	fail "export --format bonnie differs from the input lines"
	diff "$T/expected" "$T/out" | head >&2
fi

sqlite3 -header -batch "$DB" "select id, name, version, size, concurrency,
	seed, seek_count, seek_proc_count, num_files, max_size, min_size,
	num_dirs, putc, putc_cpu, put_block, put_block_status, rewrite, getc,
	get_block, get_block_status, seeks, seeks_cpu, seeks_status, seq_create,
	seq_stat, seq_stat_status, seq_del, ran_create, ran_stat, ran_del,
	putc_latency_us, seeks_latency_us, seq_create_latency_us,
	ran_del_latency_us from bonnie order by id" >"$T/view"
golden formats/bonnie-view.txt "$T/view"
sqlite3 -batch "$DB" "select id, format, ifnull(warning, '') from runs order by id" >"$T/fmt"
golden formats/formats.txt "$T/fmt"

# The 47-field 1.96 line (-s 0 bug): the file section is shifted left.
expect_eq "$(sql "select num_files || ' ' || seq_create || ' ' || ran_del_latency_us
	from bonnie where name = 'fslab3'")" "60 1702 9627000" "1.96 -s 0 line"
# 1.98: num_dirs from field 25 (never the 'chunk size' it is labelled).
expect_eq "$(sql "select num_dirs || ' ' || max_size || ' ' || min_size
	from bonnie where seed = '1796023681'")" "4 100 10" "1.98 num_dirs"

# The view's rates are numbers only (the status is its own column), so
# SQL aggregates and ORDER BY are right; "+++++" is never 0 or text.
expect_eq "$(sql "select typeof(avg(get_block)) || ' ' || typeof(max(put_block))
	from bonnie")" "real integer" "bonnie view numbers"
expect_eq "$(sql "select count(*) from bonnie where typeof(put_block) = 'text'
	or typeof(seeks) = 'text' or typeof(seq_stat) = 'text'")" "0" \
	"no text in rate columns"
expect_eq "$(sql "select max(put_block) from bonnie")" "813061" "max(put_block)"
expect_eq "$(sql "select name from bonnie where put_block is not null
	order by put_block desc limit 1")" "raid0" "ORDER BY put_block DESC"
expect_eq "$(sql "select count(*) from bonnie where seq_stat is null and
	seq_stat_status = 'too_fast'")" "10" "too_fast is NULL with its status"

# Ingesting the export stores nothing new.
"$BSTORE" export --format bonnie >"$T/again.csv"
run "$BSTORE" ingest "$T/again.csv"
expect_in "$T/out" "0 runs stored, 16 duplicates, 0 rejected"
finish
