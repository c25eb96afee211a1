#!/usr/bin/env bash
# tests/cli/export.sh - the exports people use outside bstore: CSV whose
# column names are unique (read with Python's csv.DictReader), --wide (a
# column per tag key) and --long (a row per run and metric) pivoted back
# and held against the archive; --format bonnie --csv-format 1.98 read by
# Debian's bon_csv2html and bon_csv2txt (bonnie++ 2.00a) with the stored
# values in their cells, and --csv-format 1.03; bad combinations.
set -euo pipefail
. "$SRC/tests/lib.sh"
need python3
cd "$SRC" # so sources are stored as samples/..., as a user would type them

# The samples, tagged as a team would tag them: a value with a space, one
# with a comma, a key with dots, and a run without some keys.
ingest() {
	run "$BSTORE" ingest "$@"
	expect_rc 0 "ingest $*"
}
ingest --tag array=ATA --tag raid=10 --tag cache=on samples/bonnie++-1.03-ata-raid10-cache.txt
ingest --tag array=ATA --tag raid=10 --tag cache=off samples/bonnie++-1.03-ata-raid10-nocache.txt
for r in 10 5; do
	ingest --tag 'array=EMC CX500' --tag raid=$r --tag cache=on samples/bonnie++-1.03-emc-raid$r-cache.txt
	ingest --tag 'array=EMC CX500' --tag raid=$r --tag cache=off samples/bonnie++-1.03-emc-raid$r-nocache.txt
done
ingest --tag array=T3 --tag raid=5 samples/bonnie++-1.03-t3-raid5.txt
ingest --tag 'note=from a blog, pasted' samples/bonnie++-1.03d-pasted-blog.txt
ingest --tag host.kernel=6.1.0-18-amd64 --tag raid=0 samples/bonnie++-2.00a-local-full.txt
runs=$(sql 'select count(*) from runs')
expect_eq "$runs" 14 "runs of the samples"

run "$BSTORE" export --format csv
expect_rc 0 "export --format csv"
cp "$T/out" "$T/plain.csv"
run "$BSTORE" export --format csv --wide
expect_rc 0 "export --format csv --wide"
cp "$T/out" "$T/wide.csv"
run "$BSTORE" export --format csv --long
expect_rc 0 "export --format csv --long"
cp "$T/out" "$T/long.csv"
run "$BSTORE" export --format csv --long --wide
expect_rc 0 "export --format csv --long --wide"
cp "$T/out" "$T/longwide.csv"
run "$BSTORE" export --format json
expect_rc 0 "export --format json"
cp "$T/out" "$T/all.jsonl"

# Every column name unique; the wide and long layouts pivot back to the
# plain one, and their tags are the JSON export's; a pivot by tag gives
# what SQL on the archive gives.
python3 - "$T" "$DB" >"$T/py.out" 2>&1 <<'EOF' || fail "CSV layouts: $(cat "$T/py.out")"
import csv, json, sqlite3, sys
from collections import Counter
t, db = sys.argv[1], sys.argv[2]
bad = []
def check(cond, what):
    if not cond:
        bad.append(what)
def read(name):
    with open(f"{t}/{name}", newline="") as f:
        r = csv.reader(f)
        head = next(r)
    dups = [k for k, n in Counter(head).items() if n > 1]
    check(not dups, f"{name}: repeated column names {dups}")
    with open(f"{t}/{name}", newline="") as f:
        return head, list(csv.DictReader(f))
METRICS = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks",
           "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat",
           "ran_del"]
ph, plain = read("plain.csv")
wh, wide = read("wide.csv")
lh, long_ = read("long.csv")
lwh, longwide = read("longwide.csv")
runs = [json.loads(l) for l in open(f"{t}/all.jsonl")]
byid = {str(r["id"]): r for r in runs}

# plain: parameters and results apart; the seek count is not the seek rate
check("seek_count" in ph and "seeks" in ph and "tags" in ph, f"plain header {ph}")
lab = next(r for r in plain if r["machine"] == "labvm01")
check(lab["seek_count"] == "8192" and lab["seeks"] == "6398",
      f"labvm01 seek_count {lab['seek_count']} seeks {lab['seeks']}")

# wide: the plain columns, with tag.KEY columns (sorted) where tags was
tagcols = [c for c in wh if c.startswith("tag.")]
check(tagcols == ["tag.array", "tag.cache", "tag.host.kernel", "tag.note",
                  "tag.raid"], f"wide tag columns {tagcols}")
check([c for c in wh if c not in tagcols] == [c for c in ph if c != "tags"],
      "wide: the other columns differ from the plain export's")
check(wh.index("tag.array") == ph.index("tags"), "wide: tags not in tags' place")
check(len(wide) == len(plain) == len(runs), "row counts")
for p, w in zip(plain, wide):
    for c in ph:
        if c != "tags":
            check(p[c] == w[c], f"run {p['id']} {c}: {p[c]!r} vs wide {w[c]!r}")
    tags = {c[4:]: w[c] for c in tagcols if w[c] != ""}
    check(tags == byid[w["id"]]["tags"], f"run {w['id']} tags {tags}")
    packed = ";".join(f"{k}={v}" for k, v in sorted(tags.items()))
    check(p["tags"] == packed, f"run {p['id']} packed tags {p['tags']!r}")

# long: a row per run and metric, pivoted back to the plain columns
check(lh == ["id", "machine", "tool", "tool_version", "format",
             "measured_at", "source", "source_line", "sha256", "metric",
             "value", "unit", "status", "cpu_pct", "latency_us", "tags",
             "supplied", "family"], f"long header {lh}")
check(len(long_) == len(runs) * len(METRICS), f"long rows {len(long_)}")
piv = {(r["id"], r["metric"]): r for r in long_}
check(len(piv) == len(long_), "long: a run and metric twice")
units = {"seeks": "seeks/s"}
for p in plain:
    for m in METRICS:
        l = piv.get((p["id"], m))
        if l is None:
            bad.append(f"long: no row for run {p['id']} {m}")
            continue
        got = (l["value"], l["status"], l["cpu_pct"], l["latency_us"])
        want = (p[m], p[m + "_status"], p[m + "_cpu"], p[m + "_latency_us"])
        check(got == want, f"long run {p['id']} {m}: {got} vs {want}")
        for c in ("machine", "tool_version", "sha256", "tags", "supplied",
                  "family"):
            check(l[c] == p[c], f"long run {p['id']} {m} {c}")
        unit = units.get(m, "files/s" if m.startswith(("seq", "ran")) else "KiB/s")
        check(l["unit"] == unit, f"long {m} unit {l['unit']}")
check(lwh == lh[:lh.index("tags")] + tagcols + ["supplied", "family"],
      f"long --wide header {lwh}")
w = {r["id"]: r for r in wide}
for r in longwide:
    for c in tagcols:
        check(r[c] == w[r["id"]][c], f"long --wide run {r['id']} {c}")

# a pivot people make: mean block write per RAID level of the EMC array,
# from the long rows, against SQL on the archive
sums = {}
for r in longwide:
    if r["tag.array"] == "EMC CX500" and r["metric"] == "put_block":
        sums.setdefault(r["tag.raid"], []).append(float(r["value"]))
pivot = {k: sum(v) / len(v) for k, v in sums.items()}
con = sqlite3.connect(db)
sql = dict(con.execute("""select t.value, avg(b.put_block) from bonnie b
    join tags a on a.run_id = b.id and a.key = 'array' and a.value = 'EMC CX500'
    join tags t on t.run_id = b.id and t.key = 'raid' group by t.value"""))
check(pivot == sql and len(pivot) == 2, f"pivot {pivot} vs SQL {sql}")
if bad:
    print("\n".join(bad[:20]))
    sys.exit(1)
EOF

# Column names stay unique with every tool family in one export (no parser
# stores the others yet: a run of each is put in a copy of the archive).
cp "$DB" "$T/mixed.db"
for f in sysbench zcav fio dd getc_putc; do
	sqlite3 -batch "$T/mixed.db" "INSERT INTO runs (tool, tool_version, format,
		machine, stored_at, raw, sha256, source, parser_version, family)
		VALUES ('$f', '1', '$f-text', 'box', 0, 'x', randomblob(32), 'test', 2, '$f');
		INSERT INTO tags VALUES (last_insert_rowid(), 'raid', '1')"
done
for opt in "" --wide --long "--long --wide"; do
	# shellcheck disable=SC2086
	run "$BSTORE" --db "$T/mixed.db" export --format csv $opt
	expect_rc 0 "export --format csv $opt of every family"
	python3 - "$T/out" >"$T/py.out" 2>&1 <<'EOF' || fail "every family, '$opt': $(cat "$T/py.out")"
import csv, sys
from collections import Counter
head = next(csv.reader(open(sys.argv[1], newline="")))
dups = [k for k, n in Counter(head).items() if n > 1]
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
fams = sorted({r["family"] for r in rows})
if dups or fams != ["bonnie", "dd", "fio", "getc_putc", "sysbench", "zcav"]:
    sys.exit(f"repeated {dups}, families {fams}")
EOF
done
expect_eq "$(head -1 "$T/out" | tr , '\n' | grep -c '^"tag\.')" 5 "tag columns of every family"

# --format bonnie --csv-format 1.98: every run, 1.0x included, in the
# layout bonnie++ 2.00a reads; the 2.00a run's line is its own, byte for
# byte; the 1.0x runs' values sit in the 1.98 fields (checked field by
# field against the samples). In 1.03, the 1.0x runs are their lines, and
# written from the stored values they are too.
run "$BSTORE" export --format bonnie --csv-format 1.98
expect_rc 0 "export --csv-format 1.98"
expect_eq "$(cat "$T/err")" "" "no warning for 1.98"
cp "$T/out" "$T/198.csv"
expect_eq "$(wc -l <"$T/198.csv")" "$runs" "a 1.98 line per run"
expect_eq "$(awk -F, '$1 != "1.98" || NF != 50' "$T/198.csv")" "" "every line 1.98, 50 fields"
expect_eq "$(tail -1 "$T/198.csv")" "$(grep '^1\.98,' samples/bonnie++-2.00a-local-full.txt)" \
	"the 2.00a run as its own line"
grep -h '^[a-z_]*,[0-9]*G,' samples/bonnie++-1.03-*.txt samples/bonnie++-1.03d-pasted-blog.txt \
	>"$T/103-samples.csv"
expect_eq "$(wc -l <"$T/103-samples.csv")" 13 "1.0x lines in the samples"
python3 - "$T/103-samples.csv" "$T/198.csv" >"$T/py.out" 2>&1 <<'EOF' || fail "1.0x to 1.98: $(cat "$T/py.out")"
import sys
old = [l.rstrip("\n").split(",") for l in open(sys.argv[1])]
new = [l.rstrip("\n").split(",") for l in open(sys.argv[2])][:len(old)]
bad = []
for o, n in zip(old, new):
    # 1.03: name, size, 12 (rate, cpu) pairs of the I/O part from field 2,
    # the file count at 14, then the file tests; 1.98: name at 2, size at
    # 5, I/O pairs from 9, file count at 21, file tests from 26.
    want = {2: o[0], 5: o[1], 21: o[14]}
    want.update({9 + i: o[2 + i] for i in range(12)})
    want.update({26 + i: o[15 + i] for i in range(12)})
    for k, v in want.items():
        if n[k] != v:
            bad.append(f"{o[0]} field {k}: {n[k]!r}, sample {v!r}")
    if n[1] not in ("1.03", "1.03d") or any(n[38:]):
        bad.append(f"{o[0]}: version {n[1]!r}, latencies {n[38:]}")
if bad or len(new) != 13:
    sys.exit("\n".join(bad[:10]) or "line count")
EOF
run "$BSTORE" export --format bonnie --csv-format 1.03 1-13
expect_rc 0 "export --csv-format 1.03 of the 1.0x runs"
expect_eq "$(cat "$T/err")" "" "1.0x runs lose nothing in 1.03"
cmp -s "$T/out" "$T/103-samples.csv" || fail "1.0x runs in 1.03 differ from their lines"
# The 1.98 lines of the 1.0x runs, stored in another archive (as 1.98
# runs) and written in 1.03 from their values: the samples' lines again.
head -13 "$T/198.csv" | run "$BSTORE" --db "$T/from198.db" ingest
expect_rc 0 "ingest the 1.0x runs' 1.98 lines"
run "$BSTORE" --db "$T/from198.db" export --format bonnie --csv-format 1.03
expect_rc 0 "export --csv-format 1.03 of runs from 1.98 lines"
expect_eq "$(cat "$T/err")" "" "runs from 1.98 lines of 1.0x runs lose nothing in 1.03"
cmp -s "$T/out" "$T/103-samples.csv" || fail "1.0x -> 1.98 -> 1.03 differs from the samples"

# Debian's tools read every line and print the stored values.
if have bon_csv2html bon_csv2txt; then
	bon_csv2html <"$T/198.csv" >"$T/198.html" 2>"$T/html.err"
	expect_eq "$?:$(cat "$T/html.err")" "0:" "bon_csv2html accepts every line"
	expect_eq "$(grep -o 'class="rowheader"' "$T/198.html" | wc -l)" "$runs" "bon_csv2html: a row per run"
	# billing's row (the t3 sample): name, size, then the rates and CPU
	# (block rates in MiB/s, as 2.00a's page shows them)
	sed 's/<tr>/\n<tr>/g' "$T/198.html" | grep '>billing<' | head -1 |
		sed -e 's/<[^>]*>/ /g' -e 's/  */ /g' -e 's/^ //' -e 's/ $//' >"$T/billing"
	expect_eq "$(cat "$T/billing")" \
		"billing 4G 9915 87 30 56 11 38 9999 99 46 66 177.6 3 16 639 19 +++++ +++ 1258 22 679 16 +++++ +++ 1197 27" \
		"bon_csv2html: billing's cells"
	bon_csv2txt <"$T/198.csv" >"$T/198.txt" 2>"$T/txt.err"
	expect_eq "$?:$(cat "$T/txt.err")" "0:" "bon_csv2txt accepts every line"
	expect_eq "$(grep -c '^[a-z_0-9]* *[0-9]*G[: ]' "$T/198.txt")" "$runs" "bon_csv2txt: an I/O row per run"
	expect_in "$T/198.txt" "billing          4G 9915k  87 29.6m  56 11.4m  38 9999k  99 46.2m  66 177.6   3"
	expect_in "$T/198.txt" "server_name     16G           50.0m  55 22.5m  47           54.9m  46 294.1   4"
	expect_in "$T/198.txt" "labvm01  2G::8192:5  545k  94  291m  69  587m  52  480k  82  1.8g  69  6398  31"
	expect_in "$T/198.txt" "Latency             61372us    8122us   16325us   50917us   22633us   16072us"
	expect_in "$T/198.txt" "billing          16   639  19 +++++ +++  1258  22   679  16 +++++ +++  1197  27"
	# The original 1.0x lines are what 2.00a's tools refuse.
	run "$BSTORE" export --format bonnie 1
	bon_csv2html <"$T/out" >/dev/null 2>"$T/html.err" || true
	expect_in "$T/html.err" "Can't process"
else
	skip_part "bon_csv2html and bon_csv2txt: '$missing' is not installed (Debian's bonnie++)"
fi

# The 1.98 export stored in another archive has the same results.
run "$BSTORE" --db "$T/again.db" ingest "$T/198.csv"
expect_rc 0 "ingest the 1.98 export"
cols=$(sql "select group_concat(name) from pragma_table_info('bonnie')
	where name glob 'put*' or name glob 'get*' or name glob 're*'
	or name glob 'seeks*' or name glob 'seq_*' or name glob 'ran_*'")
expect_eq "$(sqlite3 -batch "$T/again.db" "select name, version, $cols from bonnie order by id")" \
	"$(sql "select name, version, $cols from bonnie order by id")" "results after the round trip"

# --csv-format 1.03 of a 2.00a run: written, and a warning names what the
# 1.0x layout has no field for.
run "$BSTORE" export --format bonnie --csv-format 1.03 last
expect_rc 0 "export --csv-format 1.03 of a 2.00a run"
expect_eq "$(cat "$T/out")" \
	"labvm01,2G,545,94,297601,69,601561,52,480,82,1911048,69,6398.0,31,16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++" \
	"the 2.00a run in 1.03"
expect_eq "$(cat "$T/err")" \
	"bstore: export: warning: 1 run (14) lost what the 1.03 layout has no field for (latencies, seed, seek count, seek processes): --csv-format 1.98 keeps it" \
	"what 1.03 loses"

# Bad combinations are usage errors that say what goes with what.
bad() {
	local want=$1
	shift
	run "$BSTORE" export "$@"
	expect_rc 2 "export $*"
	expect_eq "$(head -1 "$T/err")" "bstore: export: $want" "export $*"
	expect_eq "$(sed -n 2p "$T/err")" "Try 'bstore export --help'." "export $*"
	expect_eq "$(cat "$T/out")" "" "export $*: no output"
}
bad "--wide goes with --format csv, not json" --format json --wide
bad "--long goes with --format csv, not bonnie (the default)" --long
bad "--long goes with --format csv, not bonnie" --format bonnie --long
bad "--csv-format goes with --format bonnie, not csv" --format csv --csv-format 1.98
bad "--csv-format goes with --format bonnie, not json" --csv-format 1.98 --format json
bad "--csv-format: expected 1.98 or 1.03, got '1.97'" --format bonnie --csv-format 1.97
bad "option '--csv-format' needs an argument" --csv-format
bad "option '--wide' takes no argument" --format csv --wide=yes

run "$BSTORE" export --help
expect_rc 0 "export --help"
for w in --csv-format --wide --long tag.KEY seek_count; do
	expect_in "$T/out" "$w"
done
finish
