#!/usr/bin/env bash
# tests/cli/show_era.sh - `bstore show` prints every run of every sample
# (samples/ and the era samples of tests/data) in its own era's table
# style, as the dialect table (core/dialect.h) says, and as the real tool
# printed it:
#   - bonnie++ 1.0x: 1.03's K/sec columns ("Machine        Size K/sec"),
#     no Latency rows, no Concurrency line;
#   - bonnie++ 1.9x: K/sec columns, a Concurrency line, Latency rows;
#   - bonnie++ 1.98-2.00a and bstore: "Name:Size etc", k/m/g rates;
#   - Tim Bray's Bonnie and its ports: "Machine    MB K/sec %CPU";
#   - other tools: no table at all.
# Where the input holds the table the tool printed for the run, each row
# show prints (name, size and cells; Latency rows) is a line of that
# input: the I/O row and its Latency row always, the file rows too
# except 2.00a's (which prints wrong numbers there, docs/formats.md);
# of Bonnie's, Tim Bray's own (Bonnie-64 and 1.4 print other units).
set -euo pipefail
. "$SRC/tests/lib.sh"
need python3

ERA_DATA="bonnie++-1.03-table-crlf.txt bonnie++-1.03-table-numbered.txt
bonnie++-1.03-table-quoted.txt bonnie++-1.03d-blog-tables.txt
bonnie++-1.97-table-two-rows.txt bonnie++-1.9x-tables.txt
bonnie++-2.00a-appended-two-procs.txt bonnie++-2.00a-q-stderr.txt
bonnie++-2.00a-table-labvm01.txt bonnie++-2.00a-table-wsl.txt
bonnie-1.x-table.txt bonnie-1.x-html.txt bonnie64-table.txt
bonnie-1.4-table.txt"
files=("$SAMPLES"/*.txt "$SAMPLES"/*.json)
for f in $ERA_DATA; do
	files+=("$SRC/tests/data/$f")
done

python3 - "$BSTORE" "$T" "${files[@]}" <<'EOF' || fail "show prints a run out of its era's style (above)"
import json, re, subprocess, sys

bstore, tmp, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
bad, checked, rows, nruns = [], 0, 0, 0

def out(db, *args):
    return subprocess.run([bstore, "--db", db, *args], check=True,
                          capture_output=True, text=True).stdout

# Each input's lines, their words as bonnie++ printed them: a paste
# (a blog's, a mail's) may have changed the blanks between them.
def words(line):
    return " ".join(line.split())

text = {}
for f in inputs:
    lines = open(f, encoding="utf-8", errors="replace").read().splitlines()
    text[f] = {words(re.sub(r"^\s*(?:>\s?|\d+\.\s)", "", l))
               for l in lines}

def era(tool, version):
    if tool == "bstore":
        return "1.98"
    if tool == "bonnie":
        return "bonnie"
    if tool != "bonnie++":
        return None
    if version.startswith("1.0"):
        return "1.0x"
    if version.startswith("1.9") and not version.startswith("1.98"):
        return "1.9x"
    return "1.98"

# Each input in an archive of its own: a table is not then a duplicate of
# another input's CSV line (docs/ingest.md), and shows as itself.
runs = []
for n, f in enumerate(inputs):
    db = f"{tmp}/{n}.db"
    subprocess.run([bstore, "--db", db, "--quiet", "ingest", f],
                   capture_output=True)
    runs += [(db, json.loads(l)) for l in
             out(db, "export", "--format", "json").splitlines()]
for db, r in runs:
    rid, tool = r["id"], r["tool"]
    nruns += 1
    show = out(db, "show", str(rid))
    table = show.split("Parameters:\n", 1)[1].split("\nTests:\n", 1)[0]
    table = [l for l in table.splitlines()
             if l and not l.startswith("  ")]
    e = era(tool, r["tool_version"] or "")
    where = f"{r['source']}: run {rid} ({tool} {r['tool_version']}, {r['format']})"
    if r["family"] != "bonnie":
        if table:
            bad.append(f"{where}: a bonnie++ table: {table[0]!r}")
        continue
    if e is None:
        bad.append(f"{where}: a bonnie-family run of no known era")
        continue
    checked += 1
    has = lambda p: any(re.match(p, l) for l in table)
    style = {
        "1.0x": has(r"Machine +Size(:chnk)? K/sec") and not has("Latency")
                and not has("Concurrency"),
        "1.9x": has(r"Machine +Size(:chnk)? K/sec") and has("Concurrency")
                and (has("Latency") or not has(r"Machine")),
        "1.98": has("Name:Size etc") or not has("Machine"),
        "bonnie": has(r"Machine +MB K/sec %CPU") and not has("Latency")
                  and not has("Version"),
    }[e]
    if not style:
        bad.append(f"{where}: not in the {e} era's style:\n    " +
                   "\n    ".join(table))
        continue
    # The rows bonnie++ printed, where the input has its table.
    src = r["source"]
    lines = text.get(src)
    if lines is None:
        continue
    data = [l for l in table
            if not re.match(r"(Version|Concurrency|Machine|Name:Size| +-| +files| +files:)", l)
            and not re.match(r"\S+ +-Create--", l)]
    if e == "1.98":
        # 2.00a prints garbage in its file rows: its I/O rows only.
        keep, io = [], True
        for l in table:
            if "Sequential Create" in l:
                io = False
            if io and l in data:
                keep.append(l)
        data = keep
    if e == "bonnie" and r["format"] != "bonnie-text":
        continue
    if not any(l.startswith(("Version", "Machine")) for l in lines):
        continue
    for l in data:
        rows += 1
        if words(l) not in lines:
            bad.append(f"{where}: {l!r} is no line of {src}")
print(f"{nruns} runs, {checked} of bonnie++ in their era's style, {rows} "
      f"rows as printed", file=sys.stderr)
for b in bad[:40]:
    print(b, file=sys.stderr)
sys.exit(1 if bad or nruns < 75 or checked < 25 or rows < 30 else 0)
EOF
finish
