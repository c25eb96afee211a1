#!/usr/bin/env bash
# tests/cli/display.sh - one value, one face: for every metric of the
# catalogue (core/metric.c), one stored value is printed the same way by
# show, list, report -f text, report -f html, trend and the site, in the
# unit the catalogue gives it (docs/report.md, "How a number is shown").
#
# A run of each family is ingested from samples/, exported as JSON, and
# stored again with every metric of its family set to a value of its own
# (ok, a distinct number), dated, so that each metric has one value that
# every command shows. show's test list is the reference; HTML pages
# (report, site) group thousands with ',', text does not.
set -euo pipefail
. "$SRC/tests/lib.sh"
need python3

for f in bonnie++-2.00a-local-full.txt sysbench-1.0.20-rndrw.txt \
	zcav-2.00a-read-labvm.txt fio-3.33-randrw.json \
	dd-coreutils-9.1-labvm.txt getc_putc-2.00a-300m-labvm.txt \
	fio-3.33-seqread.txt; do
	run "$BSTORE" --db "$T/src.db" ingest "$SAMPLES/$f"
	expect_rc 0 "ingest $f"
done

python3 - "$BSTORE" "$T" "$SRC" <<'EOF' || fail "values differ between commands (above)"
import glob, hashlib, html, json, re, subprocess, sys

bstore, T = sys.argv[1], sys.argv[2]
db = f"{T}/display.db"
bad = []

def out(*args, db=db):
    return subprocess.run([bstore, "--db", db, *args], check=True,
                          capture_output=True, text=True).stdout

def same(what, got, want):
    if got != want:
        bad.append(f"{what}: {got!r} != {want!r}")

def group(num):
    """The HTML pages' thousands separators."""
    sign = "-" if num.startswith("-") else ""
    num = num.lstrip("-")
    whole, dot, frac = num.partition(".")
    parts = []
    while len(whole) > 3:
        parts.insert(0, whole[-3:])
        whole = whole[:-3]
    parts.insert(0, whole)
    return sign + ",".join(parts) + dot + frac

# One run of each family, every metric given a value of its own: a
# KiB/s rate 704997.08 (dd's 722 MB/s: 688.5 MiB/s), the others numbers
# with a whole part past a thousand where the limit allows.
runs = [json.loads(l) for l in out("export", "--format", "json",
                                   db=f"{T}/src.db").splitlines()]
seen, lines, k = set(), [], 0
for r in runs:
    if r["family"] in seen:
        continue
    seen.add(r["family"])
    for key, v in sorted(r["results"].items()):
        if key == "latency_histogram":
            continue  # no value: a histogram is its series
        k += 1
        v["status"] = "ok"
        v["value"] = 704997.08 + k if v["unit"] == "KiB/s" else \
            1234.5678 + 11.1 * k
    r["raw"] += "\n# display.sh: every metric a value"
    r["sha256"] = hashlib.sha256(r["raw"].encode()).hexdigest()
    r["measured_at"] = "2024-05-0%dT10:00:00Z" % len(seen)
    r["machine"] = "disp"
    r["tags"] = {"fam": r["family"]}
    for x in ("id",):
        r.pop(x, None)
    lines.append(json.dumps(r))
open(f"{T}/runs.jsonl", "w").write("\n".join(lines) + "\n")
subprocess.run([bstore, "--db", db, "ingest", f"{T}/runs.jsonl"],
               check=True, capture_output=True)
assert len(seen) == 6, seen

ids = [int(l.split()[0]) for l in out("list").splitlines()[1:]]
checked = trended = 0
keys = set()
subprocess.run([bstore, "--db", db, "site", "-o", f"{T}/site"], check=True,
               capture_output=True)
for rid in ids:
    show = out("show", str(rid))
    fam = re.search(r"^Run \d+: .*", show, re.M).group(0)
    tests = {}
    for line in show.split("Tests:\n", 1)[1].splitlines():
        m = re.match(r"  (\w+)\s+ok\s+(\S+) (\S+)", line)
        if m:
            tests[m.group(1)] = (m.group(2), m.group(3))
    assert tests, show
    # report -f html: each cell names its metric.
    page = out("report", "-f", "html", str(rid))
    cells = dict(re.findall(r'data-metric="(\w+)" title="[^"]*">([^<]*)<',
                            page))
    # report -f text: the value is a word of the group's row.
    text = out("report", "-f", "text", str(rid))
    words = set()
    for line in text.splitlines():
        if line.startswith("[1] "):
            words |= {w.rstrip("*") for w in line.split()}
    # The site's run page: a row per metric, its key in data-metric.
    runpage = open(glob.glob(f"{T}/site/run/{rid}-*.html")[0]).read()
    rows = re.findall(r'<tr data-metric="(\w+)"[^>]*><th>([^<]*)<td>'
                      r'([^<]*)<td>([^<\n]*)', runpage)
    site = {k: (html.unescape(v), html.unescape(u)) for k, _, v, u in rows}
    # trend: a table per metric, "Label, unit (...)" then its rows; the
    # one run is the median of its one period.
    trend = out("trend", "-e", "run", f"id={rid}")
    tblocks = {}
    for b in trend.split("\n\n"):
        m = re.match(r"(.+?), (\S*) \(.*\n.*\n\s+period.*\n\s+\S+ \S+\s+1\s+(\S+)", b)
        if m:
            # Titled "TEST: metric" (trend's lines per test): the
            # metric's label after the test's name.
            title = m.group(1).rsplit(": ", 1)[-1]
            tblocks[title.lower()] = (m.group(3), m.group(2))
    labels = {k: html.unescape(lab) for k, lab, _, _ in rows}
    for key, (value, unit) in tests.items():
        keys.add(key)
        checked += 1
        same(f"run {rid} {key}: report html", cells.get(key), group(value))
        if value not in words:
            bad.append(f"run {rid} {key}: report text has no {value!r}")
        same(f"run {rid} {key}: site run page", site.get(key),
             (group(value), unit))
        label = labels.get(key)
        if label and label.lower() in tblocks:
            same(f"run {rid} {key}: trend", tblocks[label.lower()],
                 (value, unit))
            trended += 1
    # list: the WRITE and READ columns, then seeks.
    row = out("list", str(rid)).splitlines()[1]
    cols = row[62:73].strip(), row[74:85].strip(), row[86:94].strip()
    for c in cols:
        if c not in ("", "-", "+++++"):
            if c not in {v for v, _ in tests.values()}:
                bad.append(f"run {rid}: list shows {c!r}, not a value "
                           f"of show's")
            checked += 1
# Every metric but the histogram was checked once, and the trend showed
# each family's main metrics (BS_MF_MAIN: 14 of them).
assert checked >= 66, checked
# docs/report.md's table names every metric shown.
doc = open(f"{sys.argv[3]}/docs/report.md").read()
doc = doc.split("### How a number is shown", 1)[1].split("\n### ", 1)[0]
for key in sorted(keys):
    if f"`{key}`" not in doc:
        bad.append(f"docs/report.md, How a number is shown: no {key}")
assert trended >= 14, trended
print(f"{checked} values agree, {trended} in trends", file=sys.stderr)
for b in bad[:40]:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

# Where the tool printed another unit, show prints its line beside the
# stored value, and what its units are.
run "$BSTORE" --db "$T/src.db" show tool=dd
expect_rc 0 "show a dd run"
expect_eq "$(grep -cE '^  write_kib_s +ok +577\.7 MiB/s +\(stored 591567\.7 KiB/s\)$' "$T/out")" 1 "dd: shown and stored"
expect_in "$T/out" "As dd printed it (dd's line: kB, MB, GB are 10^3, 10^6, 10^9 bytes; MiB/s = MB/s / 1.048576):
  16777216 bytes (17 MB, 16 MiB) copied, 0.0276959 s, 606 MB/s"
run "$BSTORE" --db "$T/src.db" show 'source=*seqread*'
expect_rc 0 "show a fio run"
expect_in "$T/out" "As fio printed it (fio's lines: KiB, MiB are 2^10, 2^20 bytes, kB, MB 10^3, 10^6 (fio 2.x's KB/s and MB/s are KiB/s and MiB/s)):
    read: IOPS=50.3k, BW=196MiB/s (206MB/s)(32.0MiB/163msec)"
expect_eq "$(grep -cE '^  read_bw_kib_s +ok +196 MiB/s( |$)' "$T/out")" 1 "fio: MiB/s as fio printed"
finish
