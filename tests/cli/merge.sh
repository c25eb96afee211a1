#!/usr/bin/env bash
# tests/cli/merge.sh - `bstore merge`: two archives made from different
# samples (ingested with tags, --measured-at and a rejected line, a tiny
# `bstore run`, a sysbench-family run with parameters, results and a
# curve) merged; every row of every table compared; merging again adds
# nothing; conflicts; what is refused; the other archive left untouched;
# a signal leaves the archive as it was.
source "$SRC/tests/lib.sh"
need sqlite3 sha256sum

A=$T/a.db
B=$T/b.db
D=$T/scratch
mkdir -p "$D"
S1=$SAMPLES/bonnie++-1.03-ata-raid10-cache.txt
S2=$SAMPLES/bonnie++-1.03-emc-raid10-cache.txt
S3=$SAMPLES/bonnie++-1.03-emc-raid5-cache.txt
S4=$SAMPLES/bonnie++-2.00a-local-full.txt

# A line that does not parse, to be kept in rejects.
good=$(grep '^1.98' "$S4")
bad_a=$(echo "$good" | cut -d, -f1-31 | sed 's/labvm01/bad-a/')
bad_b=$(echo "$good" | cut -d, -f1-29 | sed 's/labvm01/bad-b/')
printf '%s\n' "$bad_a" >"$T/bad-a.csv"
printf '%s\n' "$bad_b" >"$T/bad-b.csv"

# Archive A, stored "in 2025"; B "in 2026", so stored_at tells them apart.
export SOURCE_DATE_EPOCH=1735689600
run "$BSTORE" --db "$A" ingest --tag raid=10 --tag cache=on "$S1"
expect_rc 0 "ingest into A"
run "$BSTORE" --db "$A" ingest --tag raid=10 --measured-at 2020-01-02T03:04:05Z "$S2"
expect_rc 0 "ingest into A with --measured-at"
run "$BSTORE" --db "$A" ingest "$T/bad-a.csv"
expect_rc 1 "a rejected line in A"

export SOURCE_DATE_EPOCH=1767225600
# S1 again, with a tag A lacks: the one run both archives hold.
run "$BSTORE" --db "$B" ingest --tag cache=on --tag disk=ata "$S1"
expect_rc 0 "ingest into B"
run "$BSTORE" --db "$B" ingest --tag raid=5 --tag 'array=EMC CX500' \
	--measured-at 2024-03-01T12:00:00Z "$S3" "$S4"
expect_rc 0 "ingest into B with tags and --measured-at"
run "$BSTORE" --db "$B" ingest "$T/bad-b.csv"
expect_rc 1 "a rejected line in B"
# -f1: the per-char tests on 1 MiB (a write(2) a byte) rather than 3.
run "$BSTORE" --db "$B" run -d "$D" -s 4 -n 1 -r 0 -x 2 -f1 -q --no-sync \
	-m tiny --tag bench=yes
expect_rc 0 "bstore run into B"
# A run of another family, as the formats issue's ingest would store it:
# parameters, results and a curve live in their own tables.
sha=$(printf 'sysbench raw text' | sha256sum | cut -c1-64)
sqlite3 -batch "$B" "PRAGMA foreign_keys = ON;
INSERT INTO runs (tool, tool_version, format, machine, measured_at,
	stored_at, raw, sha256, source, source_line, parser_version, family)
VALUES ('sysbench', '1.0.20', 'sysbench-text', 'sb', 1700000000,
	1767225600, 'sysbench raw text', x'$sha', 'sb.txt', 7, 'test', 'sysbench');
INSERT INTO run_params VALUES (last_insert_rowid(), 'threads', 16);
INSERT INTO run_params SELECT max(id), 'mode', 'rndrw' FROM runs;
INSERT INTO run_results SELECT max(id), 'read_mib_s', 12.5, 'ok', NULL, 3.25 FROM runs;
INSERT INTO run_results SELECT max(id), 'written_mib_s', NULL, 'too_fast', NULL, NULL FROM runs;
INSERT INTO series SELECT max(id), 'read_mib_s', 0, 'time_s', 1.0, 10.5, 1.0 FROM runs;
INSERT INTO series SELECT max(id), 'read_mib_s', 1, 'time_s', 2.0, NULL, 1.0 FROM runs;
INSERT INTO tags SELECT max(id), 'tool.threads', '16' FROM runs;"
unset SOURCE_DATE_EPOCH
expect_eq "$(sqlite3 -batch "$B" "SELECT count(*) FROM runs")" 6 "runs in B"
expect_eq "$(sqlite3 -batch "$B" "SELECT count(*) FROM latency")" 24 "latency rows in B (12 tests, 2 runs)"

# Every row of a table, its run named by digest and measured_at instead
# of an id (which differs between archives), one line each, sorted.
dump() { # DB TABLE
	local cols
	cols=$(sqlite3 -batch "$1" "SELECT group_concat('quote(c.\"' || name || '\")', ' || ''|'' || ')
		FROM pragma_table_info('$2') WHERE name NOT IN ('id', 'run_id')")
	if [ "$2" = runs ]; then
		sqlite3 -batch "$1" "SELECT $cols FROM runs AS c" | sort
	elif [ "$2" = rejects ]; then
		sqlite3 -batch "$1" "SELECT $cols FROM rejects AS c" | sort
	else
		sqlite3 -batch "$1" "SELECT hex(r.sha256) || '|' || quote(r.measured_at) || '|' || $cols
			FROM $2 AS c JOIN runs AS r ON r.id = c.run_id" | sort
	fi
}
TABLES="runs tags latency run_results run_params series rejects"
for t in $TABLES; do
	dump "$A" "$t" >"$T/a0.$t"
	dump "$B" "$t" >"$T/b.$t"
done
json() { "$BSTORE" --db "$1" export --format json | sed 's/^{"id":[0-9]*,/{/' | sort; }
json "$A" >"$T/a0.json"
json "$B" >"$T/b.json"
shared=$(sqlite3 -batch "$A" "SELECT hex(sha256) FROM runs WHERE source = '$S1'")
expect_eq "$(sqlite3 -batch "$B" "SELECT count(*) FROM runs WHERE hex(sha256) = '$shared'")" 1 "the shared run"

(cd "$T" && echo b.db*) >"$T/b.files"
sum_b=$(sha256sum "$B")

# 1. Merge B into A.
run "$BSTORE" --db "$A" merge "$B"
expect_rc 0 "merge B into A"
expect_eq "$(cat "$T/out")" "$B: 5 runs merged, 1 already here, 0 conflicts, 1 tag added, 1 rejected line" "summary"
expect_eq "$(cat "$T/err")" "" "no warning without conflicts"
expect_eq "$(sha256sum "$B")" "$sum_b" "B unchanged"
expect_eq "$(cd "$T" && echo b.db*)" "$(cat "$T/b.files")" "no file left beside B"
expect_eq "$(sqlite3 -batch "$A" "SELECT count(*) FROM runs")" 7 "runs in A"

# Every row of A is still there; every row of B is there too, but B's
# copy of the shared run's row (stored later) and its tags (united).
for t in $TABLES; do
	dump "$A" "$t" >"$T/a1.$t"
	if [ "$t" = runs ]; then
		grep -v "X'$shared'" "$T/b.$t" >"$T/want.$t" || true
	else
		cp "$T/b.$t" "$T/want.$t"
	fi
	sort -u "$T/a0.$t" "$T/want.$t" >"$T/union.$t"
	if ! diff -u "$T/union.$t" "$T/a1.$t" >"$T/diff"; then
		fail "table $t of A after the merge is not the union:"
		head -20 "$T/diff" >&2
	fi
done
expect_eq "$(wc -l <"$T/a1.latency")" 24 "latency rows copied"
expect_eq "$(wc -l <"$T/a1.series")" 2 "series rows copied"
expect_eq "$(wc -l <"$T/a1.run_params")" 2 "run_params rows copied"
expect_eq "$(wc -l <"$T/a1.run_results")" 2 "run_results rows copied"
expect_eq "$(wc -l <"$T/a1.rejects")" 2 "rejects"
expect_eq "$(sqlite3 -batch "$A" "SELECT group_concat(key || '=' || value, ',') FROM
	(SELECT key, value FROM tags JOIN runs ON runs.id = run_id
	 WHERE hex(sha256) = '$shared' ORDER BY key)")" "cache=on,disk=ata,raid=10" "tags united"

# The same through export: B's runs as B exports them, A's as before, the
# shared run with its tags united.
json "$A" >"$T/a1.json"
expect_eq "$(wc -l <"$T/a1.json")" 7 "runs exported from A"
grep -v '"disk":"ata"' "$T/b.json" >"$T/want.json"
comm -23 "$T/want.json" "$T/a1.json" >"$T/missing.json"
expect_eq "$(cat "$T/missing.json")" "" "B's runs exported from A"
grep -v '"cache":"on","raid":"10"' "$T/a0.json" >"$T/want.json"
comm -23 "$T/want.json" "$T/a1.json" >"$T/missing.json"
expect_eq "$(cat "$T/missing.json")" "" "A's runs exported from A"
expect_eq "$(grep -c '"tags":{"cache":"on","disk":"ata","raid":"10"}' "$T/a1.json")" 1 "shared run exported"
# A's selectors see the merged runs.
run "$BSTORE" --db "$A" list --json 'array=EMC*'
expect_eq "$(wc -l <"$T/out")" 2 "merged tags select"

# 2. Again: nothing added, nothing changed.
run "$BSTORE" --db "$A" merge "$B"
expect_rc 0 "merge again"
expect_eq "$(cat "$T/out")" "$B: 0 runs merged, 6 already here, 0 conflicts" "summary again"
for t in $TABLES; do
	dump "$A" "$t" >"$T/a2.$t"
	cmp -s "$T/a1.$t" "$T/a2.$t" || fail "table $t changed by merging again"
done
json "$A" >"$T/a2.json"
cmp -s "$T/a1.json" "$T/a2.json" || fail "export changed by merging again"
expect_eq "$(sha256sum "$B")" "$sum_b" "B unchanged again"

# An OTHER in another journal mode stays in it, byte for byte.
cp "$B" "$T/delete.db"
expect_eq "$(sqlite3 -batch "$T/delete.db" "PRAGMA journal_mode = DELETE")" delete "journal mode"
sum_d=$(sha256sum "$T/delete.db")
run "$BSTORE" --db "$T/j.db" merge "$T/delete.db"
expect_rc 0 "merge an archive in rollback journal mode"
expect_in "$T/out" ": 6 runs merged"
expect_eq "$(sha256sum "$T/delete.db")" "$sum_d" "rollback-journal OTHER unchanged"

# Into a new archive: created as by ingest, every run copied.
run "$BSTORE" --db "$T/new.db" merge "$B"
expect_rc 0 "merge into a new archive"
expect_eq "$(json "$T/new.db")" "$(cat "$T/b.json")" "a new archive holds B"

# 3. Runs of bstore run whose lines repeat (the 1.03 layout has no seed):
# each is a run of its own; merging keeps as many as there are.
# No file tests (-n 0): creating files may take long enough to be timed,
# and then the lines would not repeat.
run "$BSTORE" --db "$T/x.db" run -d "$D" -s 4 -n 0 -r 0 -f -x 3 -q --no-sync \
	--csv-format 1.03 -m same
expect_rc 0 "run -x 3 --csv-format 1.03"
run "$BSTORE" --db "$T/y.db" merge "$T/x.db"
expect_rc 0 "merge runs of bstore run"
expect_in "$T/out" ": 3 runs merged, 0 already here"
run "$BSTORE" --db "$T/y.db" merge "$T/x.db"
expect_in "$T/out" ": 0 runs merged, 3 already here"
expect_eq "$(sqlite3 -batch "$T/y.db" "SELECT count(*) FROM runs")" 3 "bstore runs kept apart"

# 4. A conflict: the same line with other tags and another date. Ours is
# kept, theirs named in a warning, tags only they have are added.
run "$BSTORE" --db "$T/c.db" ingest --tag raid=6 --tag cache=off \
	--measured-at 2023-01-01T00:00:00Z "$S3"
expect_rc 0 "ingest the conflicting run"
run "$BSTORE" --db "$T/c.db" merge "$B"
expect_rc 0 "merge with a conflict"
expect_in "$T/out" "$B: 5 runs merged, 1 already here, 1 conflict, 1 tag added, 1 rejected line"
expect_in "$T/err" "bstore: merge: warning: $B: run 2 (here 1): measured_at is 2024-03-01 12:00:00 there, 2023-01-01 00:00:00 here; kept 2023-01-01 00:00:00"
expect_in "$T/err" "bstore: merge: warning: $B: run 2 (here 1): tag 'raid' is '5' there, '6' here; kept '6'"
expect_eq "$(grep -c warning "$T/err")" 2 "one warning per difference"
expect_style "$T/err"
expect_eq "$(sqlite3 -batch "$T/c.db" "SELECT group_concat(key || '=' || value, ',') FROM
	(SELECT key, value FROM tags WHERE run_id = 1 ORDER BY key)")" \
	"array=EMC CX500,cache=off,raid=6" "conflict: ours kept, theirs added"
expect_eq "$(sqlite3 -batch "$T/c.db" "SELECT measured_at FROM runs WHERE id = 1")" 1672531200 "our date kept"
run "$BSTORE" --db "$T/c.db" merge "$B"
expect_in "$T/out" "$B: 0 runs merged, 6 already here, 1 conflict"

# 5. Refused: the archive itself (by name, link or hard link), what is not
# an archive, a missing file, an archive of an older schema (not upgraded).
sum_a=$(sha256sum "$A")
ln -s "$A" "$T/link.db"
ln "$A" "$T/hard.db"
for self in "$A" "$T/link.db" "$T/hard.db" "$T/../$(basename "$T")/a.db"; do
	run "$BSTORE" --db "$A" merge "$self"
	expect_rc 1 "merging $self into itself"
	expect_eq "$(cat "$T/err")" "bstore: merge: $self: this is the archive itself; nothing to merge" "self-merge"
done
head -c 4096 "$S4" >"$T/text.db"
run "$BSTORE" --db "$A" merge "$T/text.db"
expect_rc 1 "a text file"
expect_eq "$(cat "$T/err")" "bstore: merge: cannot open archive '$T/text.db': file is not a database" "a text file"
sqlite3 -batch "$T/other.db" "CREATE TABLE t (x)"
run "$BSTORE" --db "$A" merge "$T/other.db"
expect_rc 1 "another database"
expect_eq "$(cat "$T/err")" "bstore: merge: cannot open archive '$T/other.db': not a bstore archive (it has other tables)" "another database"
run "$BSTORE" --db "$A" merge "$T/missing.db"
expect_rc 1 "a missing file"
expect_eq "$(cat "$T/err")" "bstore: merge: cannot open archive '$T/missing.db': No such file or directory" "a missing file"
expect_eq "$(ls "$T"/missing.db* 2>/dev/null || true)" "" "nothing made for a missing file"
cp "$SRC/tests/data/archive-v1.db" "$T/v1.db"
sum_v1=$(sha256sum "$T/v1.db")
run "$BSTORE" --db "$A" merge "$T/v1.db"
expect_rc 1 "an archive of schema version 1"
expect_in "$T/err" "bstore: merge: cannot read archive '$T/v1.db': it was made by an older bstore (schema version 1, this one writes 7)"
expect_eq "$(sha256sum "$T/v1.db")" "$sum_v1" "the old archive untouched"
expect_eq "$(ls "$T"/v1.db*)" "$T/v1.db" "no copy or WAL beside the old archive"
expect_style "$T/err"
# The others are merged all the same; the status says one failed.
run "$BSTORE" --db "$T/d.db" merge "$T/missing.db" "$B"
expect_rc 1 "one bad archive among good ones"
expect_in "$T/out" "$B: 6 runs merged, 0 already here"
expect_eq "$(sha256sum "$A")" "$sum_a" "A untouched by refused merges"

# Usage.
run "$BSTORE" --db "$A" merge
expect_rc 2 "merge without OTHER"
expect_in "$T/err" "Try 'bstore merge --help'."
run "$BSTORE" merge --help
expect_rc 0 "merge --help"
expect_in "$T/out" "Usage: bstore merge OTHER.db..."
expect_in "$T/out" "OTHER: N runs merged, M already here, K conflicts"

# 6. A signal while waiting for the archive's lock: nothing merged, the
# archive as it was, 128 + the signal. The lock is held until merge has
# ended (or 10 s after the signal): a merge that ignored the signal would
# go on waiting, and be seen still running.
for t in $TABLES; do dump "$T/c.db" "$t"; done >"$T/e0"
mkfifo "$T/hold"
(echo "BEGIN IMMEDIATE;"; cat "$T/hold"; echo "COMMIT;") |
	sqlite3 -batch "$T/c.db" &
lock=$!
# Until the lock is held (sqlite3 waits for no lock by default).
for _ in $(seq 1500); do
	sqlite3 -batch "$T/c.db" "BEGIN IMMEDIATE; ROLLBACK" 2>/dev/null || break
	sleep 0.02
done
"$BSTORE" --db "$T/c.db" merge "$T/x.db" >"$T/out" 2>"$T/err" &
pid=$!
# It waits for the lock in short sleeps (store/open.c, bs_store_on_busy).
wait_syscall "$pid" sleep || fail "merge never waited for the lock"
kill -s TERM "$pid"
for _ in $(seq 500); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.02
done
kill -0 "$pid" 2>/dev/null && fail "merge still waiting for the lock 10 s after SIGTERM"
: >"$T/hold"
set +e
wait "$pid"
status=$?
set -e
wait "$lock"
expect_eq "$status" 143 "exit status after SIGTERM"
expect_in "$T/err" "bstore: merge: $T/x.db: interrupted; nothing merged from this archive"
for t in $TABLES; do dump "$T/c.db" "$t"; done >"$T/e1"
cmp -s "$T/e0" "$T/e1" || fail "the archive changed after a signal"

finish
