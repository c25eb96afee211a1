#!/usr/bin/env bash
# tests/cli/ingest_json.sh - bstore's own JSON export ingested back
# (ingest/bstore_json.c): every bonnie++ sample with tags and
# --measured-at, a tiny `bstore run`, and a zcav and a sysbench run (with
# a curve and every kind of parameter) exported, ingested into an empty
# archive and exported again gives the same JSON, byte for byte (the
# original's source, line and parser version kept); the copy's bonnie export is
# the original lines byte for byte; ingesting the export again stores
# nothing, in either archive; a merge and an export-ingest give the same
# archive; lines that are JSON but no valid run are rejects with reasons;
# the history bstore set keeps goes with the export and comes back whole.
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3 jq sha256sum

A=$T/a.db
C=$T/c.db
D=$T/scratch
mkdir -p "$D"
# The captured outputs with CSV lines (the text-only tables,
# bonnie++-*-table-*.txt, are tests/cli/ingest_text.sh's).
bonnie_samples=()
for f in "$SAMPLES"/bonnie++-*.txt; do
	case $f in *-table-*) continue ;; esac
	bonnie_samples+=("$f")
done

# 1. Archive A: the samples with tags and dates, one `bstore run`, and
# two runs of other families as their formats store them.
run "$BSTORE" --db "$A" ingest --tag raid=10 --tag 'note=ATA, cache on' \
	--measured-at 2006-03-14T10:22:01Z "${bonnie_samples[@]:0:3}"
expect_rc 0 "ingest with tags and --measured-at"
run "$BSTORE" --db "$A" ingest --tag raid=5 "${bonnie_samples[@]:3}"
expect_rc 0 "ingest the other samples"
# -f1: the per-char tests (a write(2) a byte) on 1 MiB rather than 3.
run "$BSTORE" --db "$A" run -d "$D" -s 4 -n 1 -r 0 -f1 -q --no-sync -m tiny \
	--tag bench=yes
expect_rc 0 "bstore run"
zsha=$(printf 'zcav raw text' | sha256sum | cut -c1-64)
ssha=$(printf 'sysbench raw\ntext <&>' | sha256sum | cut -c1-64)
sqlite3 -batch "$A" "PRAGMA foreign_keys = ON;
INSERT INTO runs (tool, tool_version, format, machine, measured_at,
	stored_at, raw, sha256, source, source_line, parser_version, family)
VALUES ('zcav', '2.00a', 'zcav', 'zbox', 1700000000, 1700000000,
	'zcav raw text', x'$zsha', 'z.txt', 3, 'test', 'zcav');
INSERT INTO run_params SELECT max(id), 'block_mib', 256 FROM runs;
INSERT INTO run_results SELECT max(id), 'read_mib_s', 155.25, 'ok', NULL, NULL FROM runs;
INSERT INTO series SELECT max(id), 'read_mib_s', 0, 'offset_gib', 0, 160.3, 3.194 FROM runs;
INSERT INTO series SELECT max(id), 'read_mib_s', 1, 'offset_gib', 0.25, NULL, 0.004 FROM runs;
INSERT INTO series SELECT max(id), 'read_mib_s', 2, 'offset_gib', 0.5, 0.1, NULL FROM runs;
INSERT INTO runs (tool, tool_version, format, machine, measured_at,
	stored_at, raw, sha256, source, source_line, parser_version, family,
	warning)
VALUES ('sysbench', NULL, 'sysbench-1.0', '', NULL, 1700000000,
	'sysbench raw
text <&>', x'$ssha', 'sb.txt', NULL, 'test', 'sysbench', 'a warning');
INSERT INTO run_params SELECT max(id), 'mode', 'rndrw' FROM runs;
INSERT INTO run_params SELECT max(id), 'rw_ratio', 1.5 FROM runs;
INSERT INTO run_params SELECT max(id), 'fsync_all', 0 FROM runs;
INSERT INTO run_params SELECT max(id), 'threads', 16 FROM runs;
INSERT INTO run_results SELECT max(id), 'read_mib_s', 0.1, 'ok', NULL, NULL FROM runs;
INSERT INTO run_results SELECT max(id), 'events', NULL, 'too_fast', NULL, NULL FROM runs;
INSERT INTO tags SELECT max(id), 'tool.threads', '16' FROM runs;"
n=$(sqlite3 -batch "$A" "SELECT count(*) FROM runs")
expect_eq "$n" 17 "runs in A"
run "$BSTORE" --db "$A" export --format json
expect_rc 0 "export A"
cp "$T/out" "$T/a.jsonl"
expect_eq "$(jq -r 'select(.raw == null) | .id' "$T/a.jsonl")" "" "every run exports its raw"

# 2. Into an empty archive C, later (another SOURCE_DATE_EPOCH than A's).
SOURCE_DATE_EPOCH=1800000000 run "$BSTORE" --db "$C" ingest "$T/a.jsonl"
expect_rc 0 "ingest the export"
expect_eq "$(cat "$T/out")" "$T/a.jsonl: $n runs stored, 0 duplicates, 0 rejected (bstore-json: $n)" "summary"
# A run's warning is kept (below) but not said again against the export:
# it was said when its original was read.
expect_not_in "$T/err" "a warning"
# Every run restored whole: when it was first stored, too (A's runs at
# 1700000000, C ingesting at 1800000000).
expect_eq "$(sqlite3 -batch "$C" "SELECT group_concat(DISTINCT stored_at) FROM runs")" \
	"1700000000" "stored_at restored"
run "$BSTORE" --db "$C" export --format json
expect_rc 0 "export C"
cp "$T/out" "$T/c.jsonl"
# Identical, byte for byte: a restored run keeps where its original was
# read and by which parser; ids are equal (given in order) and so is
# stored_at (restored from the export).
if ! cmp -s "$T/a.jsonl" "$T/c.jsonl"; then
	fail "the export of the copy differs from the original's:"
	diff "$T/a.jsonl" "$T/c.jsonl" | head -c 3000 >&2
fi
expect_eq "$(jq -r 'select(.source == "'"$T/a.jsonl"'") | .id' "$T/c.jsonl")" "" \
	"no copy names the export file as its source"
# What must survive, spelled out: 1.03 stays 1.03, formats, tags, dates.
expect_eq "$(jq -r 'select(.id == 1) | "\(.tool) \(.tool_version) \(.format) \(.measured_at) \(.tags.raid) \(.tags.note)"' "$T/c.jsonl")" \
	"bonnie++ 1.03 bonnie++-csv-1.0x 2006-03-14T10:22:01Z 10 ATA, cache on" "a 1.03 run"
expect_eq "$(jq -r 'select(.format == "bstore-run") | "\(.tool) \(.results.put_block.latency_p99_us != null) \(.tags.bench) \(.tags["host.kernel"] != null)"' "$T/c.jsonl")" \
	"bstore true yes true" "the bstore run with its latencies and host tags"
expect_eq "$(jq -c 'select(.family == "zcav") | .series' "$T/c.jsonl")" \
	'{"read_mib_s":[{"offset_gib":0,"mib_s":160.3,"seconds":3.194},{"offset_gib":0.25,"mib_s":null,"seconds":0.004},{"offset_gib":0.5,"mib_s":0.1,"seconds":null}]}' "a curve"
expect_eq "$(jq -c 'select(.family == "sysbench") | [.params.mode, .params.rw_ratio, .params.fsync_all, .params.threads, .results.events.status, .warning, .raw, .tool_version]' "$T/c.jsonl")" \
	'["rndrw",1.5,false,16,"too_fast","a warning","sysbench raw\ntext <&>",null]' "a sysbench run"
# The digest is the original's.
expect_eq "$(sqlite3 -batch "$A" "SELECT group_concat(hex(sha256)) FROM runs ORDER BY id")" \
	"$(sqlite3 -batch "$C" "SELECT group_concat(hex(sha256)) FROM runs ORDER BY id")" "digests"
# The bonnie++ lines come back byte for byte.
"$BSTORE" --db "$A" export --format bonnie >"$T/a.csv" 2>/dev/null
"$BSTORE" --db "$C" export --format bonnie >"$T/c.csv" 2>/dev/null
grep -h '^[^# ]*,.*,.*,.*,.*,.*,.*,.*,.*,.*,.*,' "${bonnie_samples[@]}" | tr -d '\r' >"$T/lines"
if ! cmp -s "$T/a.csv" "$T/c.csv" || ! head -n 14 "$T/c.csv" | cmp -s - "$T/lines"; then
	fail "export --format bonnie of the copy is not the original lines"
fi

# 3. Again: nothing new, in the copy and in the original.
for db in "$C" "$A"; do
	run "$BSTORE" --db "$db" ingest "$T/a.jsonl"
	expect_rc 0 "ingest the export again"
	expect_eq "$(cat "$T/out")" "$T/a.jsonl: 0 runs stored, $n duplicates, 0 rejected (bstore-json: $n)" "duplicates"
	expect_eq "$(sqlite3 -batch "$db" "SELECT count(*) FROM runs")" "$n" "no run added"
done
# The original files into the copy: duplicates too.
run "$BSTORE" --db "$C" ingest "${bonnie_samples[@]}"
expect_rc 0 "the samples into the copy"
expect_eq "$(grep -c ' 0 runs stored' "$T/out")" "${#bonnie_samples[@]}" "samples are duplicates of the copy"

# 4. Pasted: quoted in a mail, CRLF, numbered; a 1.98 run and the zcav.
{
	echo "From: someone"
	echo ""
	echo "Here are my runs:"
	jq -c 'select(.id == 14)' "$T/a.jsonl" | sed 's/^/> /' | sed 's/$/\r/'
	jq -c 'select(.family == "zcav")' "$T/a.jsonl" | sed 's/^/  1. /'
	echo "> -- "
} >"$T/pasted.txt"
run "$BSTORE" --db "$T/p.db" ingest "$T/pasted.txt"
expect_rc 0 "pasted export lines"
expect_eq "$(cat "$T/out")" "$T/pasted.txt: 2 runs stored, 0 duplicates, 0 rejected (bstore-json: 2)" "pasted summary"
expect_eq "$("$BSTORE" --db "$T/p.db" export --format json | jq -c "del(.id)")" \
	"$(jq -c "select(.id == 14 or .family == \"zcav\") | del(.id)" "$T/a.jsonl")" "pasted runs"

# 5. Lines that are JSON but no run: rejects that say why, FILE:LINE.
line=$(jq -c 'select(.id == 14)' "$T/a.jsonl")
bad() { echo "$line" | jq -c "$1"; }
{
	bad '.family = "nosuch"'
	bad '.results.put_blok = .results.put_block'
	bad '.results.seeks.status = "fast"'
	bad '.raw = (.raw + " ")'
	bad 'del(.raw)'
	bad '.params.seeks = "many"'
	bad '.results.putc.unit = "MiB/s"'
	bad '.extra = 1'
	bad '.results.putc.value = null'
	echo '{"family": "bonnie", "sha256": "", "results": {},}'
} >"$T/bad.jsonl"
run "$BSTORE" --db "$T/bad.db" ingest "$T/bad.jsonl"
expect_rc 1 "rejects"
expect_in "$T/out" "$T/bad.jsonl: 0 runs stored, 0 duplicates, 10 rejected"
expect_in "$T/err" "bad.jsonl:1: unknown family 'nosuch'"
expect_in "$T/err" "bad.jsonl:2: unknown metric 'put_blok' of family bonnie"
expect_in "$T/err" "bad.jsonl:3: metric 'seeks': bad status 'fast'"
expect_in "$T/err" "bad.jsonl:4: bstore JSON 'sha256' is not the digest of 'raw'"
expect_in "$T/err" "bad.jsonl:5: bstore JSON without 'raw'"
expect_in "$T/err" "bad.jsonl:6: parameter 'seeks' is not an integer"
expect_in "$T/err" "bad.jsonl:7: metric 'putc': unit 'MiB/s' is not KiB/s"
expect_in "$T/err" "bad.jsonl:8: bstore JSON with unknown key 'extra'"
expect_in "$T/err" "bad.jsonl:9: metric 'putc': status ok with a null value"
expect_in "$T/err" "bad.jsonl:10: bstore JSON that does not parse:"
expect_eq "$(sqlite3 -batch "$T/bad.db" "SELECT count(*) FROM rejects")" 10 "rejects kept"

# 6. The pair with merge: A merged into an empty B, and A exported and
# ingested into C, hold the same runs.
run "$BSTORE" --db "$T/b.db" merge "$A"
expect_rc 0 "merge A into an empty B"
"$BSTORE" --db "$T/b.db" export --format json >"$T/b.jsonl"
if ! diff "$T/b.jsonl" "$T/c.jsonl" >"$T/diff"; then
	fail "merge and export-ingest give different archives:"
	head -c 3000 "$T/diff" >&2
fi
cmp -s "$T/b.jsonl" "$T/a.jsonl" || fail "merge into an empty archive changed the export"


# 7. What bstore set keeps (run_history) goes with the export: a run's
# machine and date set twice and a fio parameter supplied, exported,
# ingested into a new archive: show's History is the same, the export
# again byte for byte, and ingesting it again adds no history.
H=$T/h.db
run "$BSTORE" --db "$H" ingest "${bonnie_samples[0]}" "$SAMPLES/fio-3.33-seqread.txt"
expect_rc 0 "ingest for history"
for change in machine=db1 measured_at=2020-01-02 machine=db2 \
	measured_at=2021-03-04T05:06:07Z; do
	run "$BSTORE" --db "$H" set 1 "$change"
	expect_rc 0 "set 1 $change"
done
run "$BSTORE" --db "$H" set 2 direct=1
expect_rc 0 "set 2 direct=1"
"$BSTORE" --db "$H" show 1 2 >"$T/h.show"
expect_in "$T/h.show" "measured_at: 2020-01-02T00:00:00Z -> 2021-03-04T05:06:07Z"
expect_in "$T/h.show" "direct: unknown -> on"
"$BSTORE" --db "$H" export --format json >"$T/h.jsonl"
expect_eq "$(jq -c '[.history[] | [.field, .old, .new]]' "$T/h.jsonl" | tr -d '\n')" \
	'[["machine","'"$(sqlite3 -batch "$H" "SELECT old_value FROM run_history ORDER BY id LIMIT 1")"'","db1"],["measured_at",null,"2020-01-02T00:00:00Z"],["machine","db1","db2"],["measured_at","2020-01-02T00:00:00Z","2021-03-04T05:06:07Z"]][["direct","","on"]]' \
	"the export's history"
run "$BSTORE" --db "$T/h2.db" ingest "$T/h.jsonl"
expect_rc 0 "ingest the export with history"
"$BSTORE" --db "$T/h2.db" show 1 2 >"$T/h2.show"
sed -n '/^History/,/^Original/p' "$T/h.show" >"$T/h.hist"
sed -n '/^History/,/^Original/p' "$T/h2.show" >"$T/h2.hist"
expect_eq "$(grep -c -- ' -> ' "$T/h2.hist")" 5 "five changes restored"
if ! diff "$T/h.hist" "$T/h2.hist" >"$T/diff"; then
	fail "show's History differs after export and ingest:"
	cat "$T/diff" >&2
fi
cmp -s "$T/h.show" "$T/h2.show" || fail "show differs after export and ingest"
"$BSTORE" --db "$T/h2.db" export --format json | cmp -s - "$T/h.jsonl" ||
	fail "the export with history changed through an ingest"
run "$BSTORE" --db "$T/h2.db" ingest "$T/h.jsonl"
expect_rc 0 "ingest the export with history again"
expect_eq "$(sqlite3 -batch "$T/h2.db" "SELECT count(*) FROM run_history")" 5 \
	"no history added by a duplicate"
# A change that is no change, or a date that is none: refused.
{
	jq -c '.history[0].changed_at = null' "$T/h.jsonl" | sed -n 1p
	jq -c '.history = {}' "$T/h.jsonl" | sed -n 1p
	jq -c '.history[0].when = 1' "$T/h.jsonl" | sed -n 1p
} >"$T/badh.jsonl"
run "$BSTORE" --db "$T/badh.db" ingest "$T/badh.jsonl"
expect_rc 1 "bad history rejected"
expect_in "$T/err" "badh.jsonl:1: bstore JSON 'history' change 1 without 'changed_at'"
expect_in "$T/err" "badh.jsonl:2: bstore JSON 'history' is not a list"
expect_in "$T/err" "badh.jsonl:3: bstore JSON 'history' change 1 with unknown key 'when'"
jq -c '.history[3].new = "soon"' "$T/h.jsonl" | sed -n 1p >"$T/baddate.jsonl"
run "$BSTORE" --db "$T/baddate.db" ingest "$T/baddate.jsonl"
expect_rc 1 "a history date that is none"
expect_in "$T/err" "cannot store history: 'soon' is not a date"
expect_eq "$(sqlite3 -batch "$T/baddate.db" "SELECT count(*) FROM runs")" 0 \
	"nothing stored from it"

finish
