#!/usr/bin/env bash
# tests/cli/dedup_many.sh - duplicates and the same measurement found in
# an ingest of many runs, where PostgreSQL's write transaction answers from
# the runs it holds in memory (store/seen.c: after 64 runs stored): a line
# repeated from an earlier file or from the same file, a table after its
# CSV line and a CSV line after its table, each among hundreds of new
# lines. On SQLite, once a transaction has asked 1,024 times, a new
# run's digest is known new from a Bloom filter of the stored ones
# (store/absent.c), filled again as it grows past 4,096: old lines among
# thousands of new ones are still found. Run on SQLite (cli.dedup_many)
# and on PostgreSQL (pg.cli.dedup_many), with the same expectations.
set -euo pipefail
. "$SRC/tests/lib.sh"

D=$SRC/tests/data
CSV=$D/bonnie++-2.00a-q-stdout.csv
TXT=$D/bonnie++-2.00a-q-stderr.txt
GEN=$SRC/bench/gen-lines

"$GEN" 150 42 >"$T/a.csv"
"$GEN" 100 7 >"$T/new.csv"
# 100 new lines, then all of a.csv again, then 20 of the new ones again.
cat "$T/new.csv" "$T/a.csv" >"$T/b.csv"
head -20 "$T/new.csv" >>"$T/b.csv"

run "$BSTORE" ingest "$T/a.csv"
expect_rc 0 "ingest a.csv"
expect_in "$T/out" "a.csv: 150 runs stored, 0 duplicates, 0 rejected"
run "$BSTORE" ingest "$T/b.csv"
expect_rc 0 "ingest b.csv"
expect_in "$T/out" "b.csv: 100 runs stored, 170 duplicates, 0 rejected"

# A table after its CSV line (stored alone before), among 70 new lines.
run "$BSTORE" ingest "$CSV"
expect_rc 0 "ingest the CSV line"
"$GEN" 70 99 >"$T/c.txt"
cat "$TXT" >>"$T/c.txt"
run "$BSTORE" ingest "$T/c.txt"
expect_rc 0 "ingest 70 lines and the table"
expect_in "$T/out" "c.txt:74: duplicate of run 251 (the same measurement, read from other text)"
expect_in "$T/out" "c.txt: 70 runs stored, 1 duplicate, 0 rejected"

# A CSV line after its table (machine 'other', stored alone before).
run "$BSTORE" ingest -m other "$TXT"
expect_rc 0 "ingest the table as machine 'other'"
expect_in "$T/out" "1 run stored, 0 duplicates"
"$GEN" 70 5 >"$T/d.csv"
sed 's/,2.00a,[^,]*,/,2.00a,other,/' "$CSV" >>"$T/d.csv"
run "$BSTORE" ingest "$T/d.csv"
expect_rc 0 "ingest 70 lines and the CSV line"
expect_in "$T/out" "d.csv:71: duplicate of run 322 (the same measurement, read from other text: this CSV line's exact numbers replace its table's)"
expect_in "$T/out" "d.csv: 70 runs stored, 1 duplicate, 0 rejected"
# And all of it again: nothing new.
run "$BSTORE" ingest "$T/b.csv" "$T/c.txt" "$T/d.csv"
expect_rc 0 "ingest all again"
expect_in "$T/out" "b.csv: 0 runs stored, 270 duplicates, 0 rejected"
expect_in "$T/out" "d.csv: 0 runs stored, 71 duplicates, 0 rejected"

# In one transaction of a new archive: 70 lines (no table is stored yet),
# then a table, passed on by a line that is not its twin, then its twin:
# the twin finds the table stored in this same transaction.
"$GEN" 70 11 >"$T/e.txt"
cat "$TXT" >>"$T/e.txt"
"$GEN" 1 12 >>"$T/e.txt"
cat "$CSV" >>"$T/e.txt"
run "$BSTORE" --db "$T/one.db" ingest -m fourth "$T/e.txt"
expect_rc 0 "ingest lines, a table and its CSV line into a new archive"
expect_in "$T/out" "e.txt:$(($(wc -l <"$T/e.txt"))): duplicate of run 71 (the same measurement, read from other text: this CSV line's exact numbers replace its table's)"
expect_in "$T/out" "e.txt: 72 runs stored, 1 duplicate, 0 rejected"

# Thousands: 3,000 lines, then 3,000 new ones each followed by one of the
# first 3,000 (the filter holds them from its first fill), then 10 of the
# new ones again (added to it as they were stored, past its refill).
"$GEN" 6000 21 >"$T/g.csv"
head -3000 "$T/g.csv" >"$T/g1.csv"
tail -3000 "$T/g.csv" >"$T/g2.csv"
paste -d '\n' "$T/g2.csv" "$T/g1.csv" >"$T/h.csv"
head -10 "$T/g2.csv" >>"$T/h.csv"
run "$BSTORE" --db "$T/many.db" ingest "$T/g1.csv"
expect_rc 0 "ingest 3,000 lines"
expect_in "$T/out" "g1.csv: 3000 runs stored, 0 duplicates, 0 rejected"
run "$BSTORE" --db "$T/many.db" ingest "$T/h.csv"
expect_rc 0 "ingest 3,000 new lines among 3,010 stored ones"
expect_in "$T/out" "h.csv: 3000 runs stored, 3010 duplicates, 0 rejected"
# All 6,000 again, and one new line last: the filter holds every one.
"$GEN" 1 22 >>"$T/g.csv"
run "$BSTORE" --db "$T/many.db" ingest "$T/g.csv"
expect_rc 0 "ingest the 6,000 lines again and a new one"
expect_in "$T/out" "g.csv: 1 run stored, 6000 duplicates, 0 rejected"
finish
