#!/usr/bin/env bash
# tests/cli/merge_hostile.sh - what merge, JSON restore and opening an
# archive do with what they cannot trust (issue 20): an OTHER with a WAL
# is read and left byte for byte; an OTHER whose tables are views or that
# has triggers is refused at once; a signal stops a long merge; runs
# ingest would refuse are skipped and named, in merge and in JSON
# restore; a run of an unknown family already in the archive is skipped
# with a warning by every reader; the pre-upgrade copy is removed on a
# signal, and a stale one is cleaned.
source "$SRC/tests/lib.sh"
need sqlite3 sha256sum timeout

S1=$SAMPLES/bonnie++-1.03-ata-raid10-cache.txt
S2=$SAMPLES/bonnie++-1.03-emc-raid10-cache.txt
S3=$SAMPLES/bonnie++-1.03-emc-raid5-cache.txt
S4=$SAMPLES/bonnie++-2.00a-local-full.txt
B=$T/b.db
run "$BSTORE" --db "$B" ingest --tag raid=10 "$S1" "$S2" "$S3" "$S4"
expect_rc 0 "ingest into B"
cp "$B" "$T/b0.db"

# 1. (defect 9) An OTHER with commits only in its WAL: merge reads them and
# leaves OTHER, its -wal and -shm as they were.
cp "$T/b0.db" "$T/w.db"
sqlite3 -batch "$T/w.db" ".dbconfig no_ckpt_on_close on" \
	"PRAGMA wal_autocheckpoint = 0" \
	"INSERT INTO tags VALUES (1, 'walonly', 'yes')" >/dev/null
[ -s "$T/w.db-wal" ] || fail "the WAL of w.db holds nothing"
sums=$(sha256sum "$T/w.db" "$T/w.db-wal")
run "$BSTORE" --db "$T/a.db" merge "$T/w.db"
expect_rc 0 "merge an OTHER with a WAL"
expect_in "$T/out" "$T/w.db: 4 runs merged"
expect_eq "$(sha256sum "$T/w.db" "$T/w.db-wal")" "$sums" "OTHER and its WAL unchanged"
expect_eq "$(cd "$T" && echo w.db*)" "w.db w.db-shm w.db-wal" "files beside OTHER"
expect_eq "$("$BSTORE" --db "$T/a.db" list --json walonly=yes | wc -l)" 1 "a tag only the WAL holds is merged"

# 2. (defect 5) Views and triggers where tables should be: refused at once,
# naming the object. A recursive view would never end.
cp "$T/b0.db" "$T/view.db"
sqlite3 -batch "$T/view.db" "DROP TABLE tags;
CREATE VIEW tags AS WITH RECURSIVE c(run_id, key, value) AS
	(SELECT 1, 'k', 'v' UNION ALL SELECT run_id + 1, key, value FROM c)
	SELECT * FROM c;"
sum_a=$(sha256sum "$T/a.db")
run timeout -k 5 20 "$BSTORE" --db "$T/a.db" merge "$T/view.db"
expect_rc 1 "an OTHER whose tags is a recursive view"
expect_eq "$(cat "$T/err")" "bstore: merge: $T/view.db: its 'tags' is a view, not the table a bstore archive has; nothing merged from '$T/view.db'" "view refused"
cp "$T/b0.db" "$T/trig.db"
sqlite3 -batch "$T/trig.db" "CREATE TRIGGER evil AFTER INSERT ON tags BEGIN SELECT 1; END;"
run timeout -k 5 20 "$BSTORE" --db "$T/a.db" merge "$T/trig.db"
expect_rc 1 "an OTHER with a trigger"
expect_eq "$(cat "$T/err")" "bstore: merge: $T/trig.db: it has a trigger 'evil', which a bstore archive has not; nothing merged from '$T/trig.db'" "trigger refused"
expect_style "$T/err"
expect_eq "$(sha256sum "$T/a.db")" "$sum_a" "refused merges leave the archive"

# 3. (defect 5) A signal during a long statement of the merge (copying
# 1,000,000 rejected lines, between no two runs) ends it at once: nothing
# merged, 128 + the signal.
cp "$T/b0.db" "$T/big.db"
sqlite3 -batch "$T/big.db" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL
	SELECT i + 1 FROM n WHERE i < 1000000)
	INSERT INTO rejects (source, line, reason, raw, truncated, sha256, stored_at)
	SELECT 'big.txt', i, 'r', 'line ' || i, 0, 'x', 0 FROM n;"
"$BSTORE" --db "$T/sig.db" merge "$T/big.db" >"$T/out" 2>"$T/err" &
pid=$!
# Once the source is open (reading it makes its -shm): the signal lands
# in the copy, or just before it, where the copy's first step sees it. A
# fixed wait here lost the race on a quiet machine (the copy was done).
wait_for "$T/big.db-shm" || fail "merge did not open big.db"
kill -s TERM "$pid"
start=$SECONDS
set +e
wait "$pid"
status=$?
set -e
expect_eq "$status" 143 "exit status after SIGTERM during a long statement"
[ $((SECONDS - start)) -le 2 ] || fail "SIGTERM took $((SECONDS - start)) s to stop merge"
expect_in "$T/err" "bstore: merge: $T/big.db: interrupted; nothing merged from this archive"
expect_eq "$(sqlite3 -batch "$T/sig.db" "SELECT count(*) FROM runs") $(sqlite3 -batch "$T/sig.db" "SELECT count(*) FROM rejects")" "0 0" "nothing merged after a signal"

# 4. (defect 7) Runs ingest would refuse: skipped and named with the
# reason, the rest merged, exit status 1.
cp "$T/b0.db" "$T/bad.db"
# A copy of run 4 with another line (and digest), machine, format, family.
copy() { # MACHINE FORMAT FAMILY
	echo "INSERT INTO runs (tool, format, machine, stored_at, raw, sha256,
		source, parser_version, family) SELECT tool, '$2', '$1',
		stored_at, raw || '$1', randomblob(32), source, parser_version,
		'$3' FROM runs WHERE id = 4;"
}
sqlite3 -batch "$T/bad.db" "
UPDATE runs SET put_block = 1e308 WHERE id = 1;
UPDATE runs SET put_block = -5 WHERE id = 2;
UPDATE runs SET rewrite = NULL WHERE id = 3;
$(copy m '<script>' bonnie)
$(copy fam bonnie++-csv-1.98 nosuch)
$(copy tag bonnie++-csv-1.98 bonnie)
INSERT INTO tags VALUES (7, 'bad' || char(10) || 'key', 'v');
$(copy fine bonnie++-csv-1.98 bonnie)
UPDATE runs SET machine = 'a' || char(27) || '[31mb' || char(10) WHERE id = 4;"
expect_eq "$(sqlite3 -batch "$T/bad.db" "SELECT count(*) FROM runs")" 8 "runs in bad.db"
run "$BSTORE" --db "$T/v.db" merge "$T/bad.db"
expect_rc 1 "merge with runs ingest would refuse"
expect_eq "$(cat "$T/out")" "$T/bad.db: 2 runs merged, 0 already here, 0 conflicts, 6 runs skipped" "summary with skipped runs"
w="bstore: merge: warning: $T/bad.db"
expect_in "$T/err" "$w: run 1: metric 'put_block': value 1e+308 is out of range (0 to"
expect_in "$T/err" "$w: run 2: metric 'put_block': value -5 is out of range (0 to"
expect_in "$T/err" "$w: run 3: metric 'rewrite': status ok with no value; not merged"
# A machine name with an escape sequence and a newline is one ingest
# stores (the one rule for names, bs_name_check): merged, as it was.
expect_not_in "$T/err" "run 4:"
expect_in "$T/err" "$w: run 5: format '<script>' is not a format name; not merged"
expect_in "$T/err" "$w: run 6: unknown tool family 'nosuch' (a newer bstore wrote it?); not merged"
expect_in "$T/err" "$w: run 7: tag 'bad?key' has a control character; not merged"
expect_eq "$(grep -c warning "$T/err")" 6 "one warning per skipped run"
expect_style "$T/err"
expect_eq "$(sqlite3 -batch "$T/v.db" "SELECT group_concat(hex(machine)) FROM runs ORDER BY id")" \
	"$(sqlite3 -batch "$T/bad.db" "SELECT group_concat(hex(machine)) FROM runs WHERE id IN (4, 8) ORDER BY id")" \
	"only the valid runs merged, names as they were"

# Values ingest could not have stored (issue 28 item 6): an integer
# parameter holding text, a result of a metric the catalogue does not
# know, the no-date sentinel as measured_at. Each is skipped and named,
# the clean runs merged.
H=$T/hv.db
run "$BSTORE" --db "$H" ingest "$SAMPLES/sysbench-1.0.20-rndrw.txt" \
	"$SAMPLES/fio-3.33-randrw.json" "$S1" "$S2" "$S3" "$S4"
expect_rc 0 "ingest into hv.db"
sb=$(sqlite3 -batch "$H" "SELECT id FROM runs WHERE tool = 'sysbench'")
fio=$(sqlite3 -batch "$H" "SELECT min(id) FROM runs WHERE tool = 'fio'")
s1=$(sqlite3 -batch "$H" "SELECT id FROM runs WHERE source LIKE '%ata-raid10%'")
nh=$(sqlite3 -batch "$H" "SELECT count(*) FROM runs")
sqlite3 -batch "$H" "
UPDATE run_params SET value = 'not-a-number' WHERE run_id = $sb AND key = 'threads';
INSERT INTO run_results (run_id, metric, value, status) VALUES ($fio, 'nosuch_metric', 1, 'ok');
UPDATE runs SET measured_at = -9223372036854775808 WHERE id = $s1;"
run "$BSTORE" --db "$T/hv-into.db" merge "$H"
expect_rc 1 "merge with values ingest could not have stored"
w="bstore: merge: warning: $H"
expect_in "$T/err" "$w: run $sb: parameter 'threads': 'not-a-number' is not an integer; not merged"
expect_in "$T/err" "$w: run $fio: a result of metric 'nosuch_metric', which the catalogue does not know for the fio family; not merged"
expect_in "$T/err" "$w: run $s1: measured_at -9223372036854775808 is no date; not merged"
expect_eq "$(grep -c warning "$T/err")" 3 "one warning per run of bad values"
expect_in "$T/out" "$H: $((nh - 3)) runs merged, 0 already here, 0 conflicts, 3 runs skipped"
expect_style "$T/err"
expect_eq "$(sqlite3 -batch "$T/hv-into.db" "SELECT count(*) FROM runs WHERE tool = 'sysbench' OR measured_at < -62167219200")" 0 \
	"no refused run merged"
expect_eq "$(sqlite3 -batch "$T/hv-into.db" "SELECT count(*) FROM run_results WHERE metric = 'nosuch_metric'")" 0 \
	"no result of an unknown metric merged"

# Runs that pass the rule but that this archive's constraints refuse (a
# source whose tables are not STRICT: a digest stored as text, a tag value
# as a blob, met after the run's row was copied) are rolled back alone.
cp "$T/b0.db" "$T/loose.db"
sqlite3 -batch "$T/loose.db" "PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, ') STRICT', ')') WHERE name IN ('runs', 'tags');"
sqlite3 -batch "$T/loose.db" "UPDATE runs SET sha256 = 'abcdefghijklmnopqrstuvwxyz012345' WHERE id = 2;
UPDATE tags SET value = x'41' WHERE run_id = 3;"
run "$BSTORE" --db "$T/l.db" merge "$T/loose.db"
expect_rc 1 "merge with runs this archive refuses"
w="bstore: merge: warning: $T/loose.db"
expect_eq "$(cat "$T/err")" "$w: run 2: this archive refuses it: cannot store TEXT value in BLOB column runs.sha256; not merged
$w: run 3: this archive refuses it: cannot store BLOB value in TEXT column tags.value; not merged" "refused runs named"
expect_in "$T/out" "$T/loose.db: 2 runs merged, 0 already here, 0 conflicts, 2 runs skipped"
expect_eq "$(sqlite3 -batch "$T/l.db" "SELECT count(*) FROM runs") $(sqlite3 -batch "$T/l.db" "SELECT count(*) FROM tags")" "2 2" "nothing of the refused runs kept"

# 5. (defect 6) A run of an unknown family already in the archive (an
# older merge let it in): every reader skips it with a warning.
U=$T/u.db
cp "$T/b0.db" "$U"
sqlite3 -batch "$U" "UPDATE runs SET family = 'nosuch' WHERE id = 2"
msg="warning: $U: run 2: unknown tool family 'nosuch' (a newer bstore wrote it?); skipped"
for cmd in "list" "show all" "export --format json" "export --format csv" \
	"report --format text all 1" "compare all 1" "trend --every year all" "site -o $T/site"; do
	name=${cmd%% *}
	# shellcheck disable=SC2086
	run "$BSTORE" --db "$U" $cmd
	if [ "$name" = trend ]; then
		expect_rc 1 "$cmd (the runs have no date)"
	else
		expect_rc 0 "$cmd with a run of an unknown family"
	fi
	expect_in "$T/err" "bstore: $name: $msg"
	expect_eq "$(grep -c 'unknown tool family' "$T/err")" 1 "$cmd: one warning"
done
run "$BSTORE" --db "$U" list --json
expect_eq "$(wc -l <"$T/out")" 3 "the other runs listed"

# 6. (defect 7) JSON restore refuses what merge refuses: a format that is
# no format's name; and takes what ingest takes: control characters in a
# name.
"$BSTORE" --db "$T/b0.db" export --format json 1 >"$T/run.json"
sed 's/"machine":"[^"]*"/"machine":"a\\u001b[31mb\\nc"/' "$T/run.json" >"$T/esc.json"
sed 's/"format":"[^"]*"/"format":"<script>"/' "$T/run.json" >"$T/fmt.json"
run "$BSTORE" --db "$T/j.db" ingest "$T/esc.json" "$T/fmt.json"
expect_rc 1 "JSON restore of runs merge would refuse"
expect_not_in "$T/err" "esc.json"
expect_in "$T/err" "fmt.json:1: bstore JSON run: format '<script>' is not a format name"
expect_eq "$(sqlite3 -batch "$T/j.db" "SELECT hex(machine) FROM runs")" \
	"$(printf 'a\033[31mb\nc' | od -An -tx1 | tr -d ' \n' | tr a-f A-F)" "the name restored as it was"

# The one rule for names at every door (issue 28 item 6): runs ingest
# stores with TAB, ESC, BEL, BS, CR or DEL in their machine names (from
# the files, and from -m), exported as JSON, are every one restored, and
# merged.
N=$T/names.db
"$SRC/bench/gen-lines" 12 5 >"$T/names.csv"
python3 - "$T/names.csv" <<'PY'
import sys
p = sys.argv[1]
names = ["a\tb", "a\x1b[31mb", "a\x07b", "a\x08b", "a\rb", "a\x7fb",
         "tab\tesc\x1b\x7f", "plain"]
lines = open(p).read().splitlines()
out = []
for l, n in zip(lines, names):
    f = l.split(",")
    f[2] = n
    out.append(",".join(f))
open(p, "w").write("\n".join(out) + "\n")
PY
run "$BSTORE" --db "$N" ingest "$T/names.csv"
expect_rc 0 "ingest names with control characters"
"$SRC/bench/gen-lines" 20 9 >"$T/more.csv"
i=0
for m in $'m\tx' $'m\ey' $'m\az' $'m\bw' $'m\rv' $'m\x7fu'; do
	i=$((i + 1))
	sed -n "${i}p" "$T/more.csv" >"$T/m.csv"
	run "$BSTORE" --db "$N" ingest -m "$m" "$T/m.csv"
	expect_rc 0 "ingest -m with a control character"
done
nn=$(sqlite3 -batch "$N" "SELECT count(*) FROM runs")
[ "$nn" -eq 14 ] || fail "only $nn runs of control-character names stored"
"$BSTORE" --db "$N" export --format json >"$T/names.json"
run "$BSTORE" --db "$T/names-back.db" ingest "$T/names.json"
expect_rc 0 "restore of the names' JSON"
expect_in "$T/out" "$nn runs stored"
expect_eq "$(sqlite3 -batch "$T/names-back.db" "SELECT group_concat(hex(machine), ' ') FROM (SELECT machine FROM runs ORDER BY machine)")" \
	"$(sqlite3 -batch "$N" "SELECT group_concat(hex(machine), ' ') FROM (SELECT machine FROM runs ORDER BY machine)")" \
	"every name restored as it was"
run "$BSTORE" --db "$T/names-merged.db" merge "$N"
expect_rc 0 "merge of the names"
expect_in "$T/out" "$nn runs merged, 0 already here, 0 conflicts"
# bstore set takes what ingest takes.
run "$BSTORE" --db "$N" set 1 machine=$'s\te\et'
expect_rc 0 "set a machine name with a control character"
expect_eq "$(sqlite3 -batch "$N" "SELECT hex(machine) FROM runs WHERE id = 1")" 7309651B74 "the name set"

# 7. (defect 10) The copy kept before an upgrade: a signal while it is
# written removes it and its journal; one a killed process left is
# removed by the next upgrade (a live process's is not).
O=$T/old.db
cp "$SRC/tests/data/archive-v1.db" "$O"
# Big enough that the copy takes a moment.
sqlite3 -batch "$O" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL
	SELECT i + 1 FROM n WHERE i < 150000)
	INSERT INTO rejects (source, line, reason, raw, truncated, sha256, stored_at)
	SELECT 'pad.txt', i, 'r', hex(randomblob(256)), 0, 'x', 0 FROM n;"
sum_o=$(sha256sum "$O")
"$BSTORE" --db "$O" list >"$T/out" 2>"$T/err" &
pid=$!
if wait_for "$O.v1.bak.tmp*"; then
	kill -s TERM "$pid"
else
	fail "no copy was started"
fi
set +e
wait "$pid"
status=$?
set -e
expect_eq "$status" 143 "exit status after SIGTERM during the copy"
expect_eq "$(cd "$T" && echo old.db*)" "old.db" "nothing left beside the archive"
expect_eq "$(sha256sum "$O")" "$sum_o" "the archive unchanged"
expect_in "$T/err" "bstore: list: cannot open archive '$O': interrupted"
# Stale copies of a process that is gone, and one of this live shell.
sh -c 'exit 0' &
dead=$!
wait "$dead"
for f in "$O.v1.bak.tmp$dead" "$O.v1.bak.tmp$dead-journal" "$O.v1.bak.tmp$$"; do
	echo partial >"$f"
done
run "$BSTORE" --db "$O" list
expect_rc 0 "upgrade after a kill"
expect_eq "$(cd "$T" && echo old.db*)" "old.db old.db.v1.bak old.db.v1.bak.tmp$$" "stale copies removed, a live one kept"
rm -f "$O.v1.bak.tmp$$"

finish
