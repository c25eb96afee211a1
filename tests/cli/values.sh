#!/usr/bin/env bash
# tests/cli/values.sh - show, list, report and export print the same value
# the same way, for every run of every sample (and one bstore run): one
# rounding rule (core/bonnie_text.h) behind all of them. For each test of
# each run:
#   - show's test list, the HTML report's cell and list's columns print
#     the same text (tests/cli/display.sh holds every family to it);
#   - the stored number show names beside it ("(stored 84734 KiB/s)";
#     else the shown text) is the number export --format json and csv,
#     the JSON report and the bonnie view hold, and the report's cell
#     with --units kib;
#   - CPU and latency likewise.
set -euo pipefail
. "$SRC/tests/lib.sh"
need python3 sqlite3

for f in "$SAMPLES"/*.txt "$SRC/tests/data/formats-lines.csv"; do
	"$BSTORE" --quiet ingest "$f" >/dev/null 2>&1 || true
done
mkdir -p "$T/scratch"
run "$BSTORE" run -d "$T/scratch" -s 16 -n 1 -r 0 -q -m values --no-sync
expect_rc 0 "a bstore run"

python3 - "$BSTORE" "$DB" <<'EOF' || fail "values differ between commands (above)"
import csv, io, json, re, sqlite3, subprocess, sys

bstore, db = sys.argv[1], sys.argv[2]
TESTS = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks",
         "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat",
         "ran_del"]
bad = []

def out(*args):
    return subprocess.run([bstore, *args], check=True, capture_output=True,
                          text=True).stdout

def lat_us(text):
    m = re.fullmatch(r"(-?\d+)(us|ms|s)", text)
    return int(m.group(1)) * {"us": 1, "ms": 1000, "s": 1000000}[m.group(2)]

def same(what, a, b):
    if a != b:
        bad.append(f"{what}: {a!r} != {b!r}")

con = sqlite3.connect(db)
con.row_factory = sqlite3.Row
ids = [r[0] for r in con.execute("select id from runs order by id")]
assert len(ids) >= 25, ids
# What export and list print of every run, asked for once: the same
# lines as one run at a time gives.
exports, text, at = {}, out("export", "--format", "json"), 0
while text[at:].strip():
    at += len(text[at:]) - len(text[at:].lstrip())
    o, at = json.JSONDecoder().raw_decode(text, at)
    exports[o["id"]] = o["results"]
csv_rows = {int(r["id"]): r for r in
            csv.DictReader(io.StringIO(out("export", "--format", "csv")))}
list_lines = {int(l[:5]): l for l in out("list").splitlines()[1:]}
assert sorted(exports) == sorted(csv_rows) == sorted(list_lines) == ids
checked = 0
for rid in ids:
    show = out("show", str(rid))
    tests, shown = {}, {}
    for line in show.split("Tests:\n", 1)[1].splitlines():
        m = re.match(r"  (\w+)\s+ok\s+(\S+) \S+(?:\s+CPU\s+(\S+)%)?"
                     r"(?:\s+max latency (\S+))?(?:.*\(stored (\S+) \S+\))?",
                     line)
        if m:
            shown[m.group(1)] = m.group(2)
            tests[m.group(1)] = (m.group(5) or m.group(2),) + m.groups()[2:4]
        m = re.match(r"  (\w+)\s+too fast.*?(?:max latency (\S+))?$", line)
        if m and m.group(1) in TESTS:
            tests[m.group(1)] = (None, None, m.group(2))
    exp = exports[rid]
    row = csv_rows[rid]
    html = out("report", "--format", "html", "--units", "kib", str(rid))
    # The page groups thousands ("34,299"): the digits must agree.
    cells = {k: v.replace(",", "") for k, v in
             re.findall(r'data-metric="(\w+)" title="[^"]*">([^<]*)<', html)}
    shown_cells = {k: v for k, v in re.findall(
        r'data-metric="(\w+)" title="[^"]*">([^<]*)<',
        out("report", "--format", "html", str(rid)))}
    rep = json.loads(out("report", "--format", "json", "--units", "kib",
                         str(rid)))
    mean = {m["key"]: m["cells"][0]["mean"] for m in rep["metrics"]}
    view = con.execute("select * from bonnie where id = ?", (rid,)).fetchone()
    if view is None:
        # Another tool's run (getc_putc's putc and getc are not
        # bonnie++'s): the bonnie view and bonnie++'s table hold none.
        continue
    for t in TESTS:
        if t not in tests:
            continue
        value, cpu, lat = tests[t]
        if value is not None:
            checked += 1
            same(f"run {rid} {t}: html against show", cells.get(t), value)
            same(f"run {rid} {t}: html as shown against show",
                 shown_cells.get(t, "").replace(",", ""), shown[t])
            same(f"run {rid} {t}: export json", exp[t]["value"], float(value))
            same(f"run {rid} {t}: export csv", float(row[t]), float(value))
            same(f"run {rid} {t}: report json", mean[t], float(value))
            same(f"run {rid} {t}: bonnie view", float(view[t]), float(value))
        if cpu is not None:
            same(f"run {rid} {t}_cpu: html", cells.get(t + "_cpu"), cpu)
            same(f"run {rid} {t}_cpu: export", exp[t]["cpu_pct"], float(cpu))
            same(f"run {rid} {t}_cpu: view", view[t + "_cpu"], int(cpu))
        if lat is not None:
            same(f"run {rid} {t}_latency: html",
                 cells.get(t + "_latency"), lat)
            same(f"run {rid} {t}_latency: export",
                 exp[t]["latency_us"], lat_us(lat))
            same(f"run {rid} {t}_latency: view",
                 view[t + "_latency_us"], lat_us(lat))
    # list's columns are fixed: "%5d  %-10s  %-16s %-18s %6s %11s %11s
    # %8s" (the date, the machine, ...): block write and read and seeks
    # as show's test list shows them.
    line = list_lines[rid]
    for t, at, w in (("put_block", 62, 11), ("get_block", 74, 11),
                     ("seeks", 86, 8)):
        cell = line[at:at + w].strip()
        if t in shown:
            same(f"run {rid} {t}: list against show's test list", cell,
                 shown[t])
            checked += 1
        elif view[t + "_status"] == "too_fast":
            same(f"run {rid} {t}: list of a test too fast", cell, "+++++")
        elif view[t + "_status"] == "not_run":
            same(f"run {rid} {t}: list of a test not run", cell, "-")
print(f"{checked} values of {len(ids)} runs agree", file=sys.stderr)
for b in bad[:40]:
    print(b, file=sys.stderr)
sys.exit(1 if bad or checked < 200 else 0)
EOF
finish
