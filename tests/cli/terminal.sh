#!/usr/bin/env bash
# tests/cli/terminal.sh - what reaches a terminal (issue 28 item 6): the
# C1 controls (U+0080-U+009F; U+009B is CSI) and the bidirectional
# controls (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069) in a
# machine name, a tag or a file name are shown as '?', as C0 controls
# are, by list, show, report, compare and the error messages; and list
# cuts a machine name between characters and aligns its columns by what
# they show (a wide character takes two columns), not by bytes.
set -euo pipefail
. "$SRC/tests/lib.sh"
need python3

# Distinct bonnie++ CSV lines, one a run.
"$SRC/bench/gen-lines" 40 7 >"$T/lines.csv"
line() { sed -n "${1}p" "$T/lines.csv"; }
# One run a character, its name "aCHARb", a tag of it, a file of it.
python3 - "$T" <<'PY'
import sys
T = sys.argv[1]
chars = [0x80, 0x85, 0x9b, 0x9f, 0x61c, 0x200e, 0x200f, 0x202a, 0x202b,
         0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]
with open(f"{T}/chars", "w") as f:
    for c in chars:
        f.write("%x\n" % c)
PY
i=0
while read -r hex; do
	i=$((i + 1))
	c=$(python3 -c "import sys; sys.stdout.write(chr(0x$hex))")
	line "$i" >"$T/in$i${c}x.txt"
	run "$BSTORE" ingest -m "a${c}b$i" -t "t=v${c}w" "$T/in$i${c}x.txt"
	expect_rc 0 "ingest a name with U+$hex"
done <"$T/chars"
n=$i
# A byte 0x9b of no UTF-8 character (a Latin-1 name): an 8-bit CSI.
# (The tests' PostgreSQL cluster is UTF8, which refuses such bytes.)
pg=0
case $DB in postgres://* | postgresql://*) pg=1 ;; esac
printf -v latin 'l\x9bm'
line 30 >"$T/latin.csv"
if [ "$pg" = 0 ]; then
	run "$BSTORE" ingest -m "$latin" "$T/latin.csv"
	expect_rc 0 "ingest a name with the byte 0x9b"
else
	run "$BSTORE" ingest -m lxm "$T/latin.csv"
fi

ids=$(seq -s ' ' 1 $((n + 1)))
# shellcheck disable=SC2086
{
	"$BSTORE" list >"$T/list" 2>&1
	"$BSTORE" list --long >>"$T/list" 2>&1
	"$BSTORE" show $ids >"$T/show" 2>&1
	"$BSTORE" report -f text 1 2 3 >"$T/report" 2>&1
	"$BSTORE" compare 1 2 >"$T/compare" 2>&1 || true
	"$BSTORE" list "machine=zz$(printf '\xe2\x80\xae')yy" >"$T/nomatch" 2>&1 || true
	"$BSTORE" ingest "$T/none$(printf '\xc2\x9b')31m.txt" >"$T/noent" 2>&1 || true
}
python3 - "$T" <<'PY' || fail "a control character reached the terminal (above)"
import sys
T = sys.argv[1]
chars = [chr(int(h, 16)) for h in open(f"{T}/chars").read().split()]
bad = 0
for name in ("list", "show", "report", "compare", "nomatch", "noent"):
    data = open(f"{T}/{name}", "rb").read()
    text = data.decode("utf-8", "replace")
    for c in chars:
        if c in text:
            print(f"{name}: U+{ord(c):04X} shown raw", file=sys.stderr)
            bad += 1
    if b"l\x9bm" in data:
        print(f"{name}: the byte 0x9b shown raw", file=sys.stderr)
        bad += 1
    if len(data) < 40:
        print(f"{name}: too little output: {data!r}", file=sys.stderr)
        bad += 1
show = open(f"{T}/show", encoding="utf-8", errors="replace").read()
for i in range(1, len(chars) + 1):
    if f"Run {i}: a?b{i}," not in show:
        print(f"show: run {i} is not 'a?b{i}'", file=sys.stderr)
        bad += 1
if "t=v?w" not in open(f"{T}/list", encoding="utf-8").read():
    print("list: the tag is not t=v?w", file=sys.stderr)
    bad += 1
for name, want in (("nomatch", "zz?yy"), ("noent", "none?31m.txt")):
    if want not in open(f"{T}/{name}", encoding="utf-8", errors="replace").read():
        print(f"{name}: '{want}' not in the message", file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
PY

# ---- list's columns: cut between characters, aligned by width ----
rm -f "$DB"
[ "${DB#postgres}" = "$DB" ] || sql "DELETE FROM runs" >/dev/null
i=30
for m in "$(python3 -c 'print("é" * 20)')" "$(python3 -c 'print("日本" * 6)')" \
	"$(python3 -c 'print("e\u0301" * 20)')" "short" \
	"$([ "$pg" = 1 ] || printf 'a\xe9b')"; do
	[ -n "$m" ] || continue
	i=$((i + 1))
	line "$i" >"$T/col$i.csv"
	run "$BSTORE" ingest -m "$m" "$T/col$i.csv"
	expect_rc 0 "ingest -m $m"
done
"$BSTORE" list >"$T/cols"
python3 - "$T/cols" <<'PY' || fail "list's columns (above)"
import sys, unicodedata
def width(s):
    w = 0
    for ch in s:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return w
raw = open(sys.argv[1], "rb").read()
bad = 0
lines = raw.split(b"\n")[:-1]
head = lines[0].decode()
tool_at = head.index("TOOL")
for b in lines[1:]:
    try:
        s = b.decode("utf-8")
    except UnicodeDecodeError:
        # the Latin-1 name: its byte is one column
        s = b.decode("latin-1")
    # everything before TOOL takes tool_at columns
    pre = s[: s.index("bonnie++")]
    if width(pre) != tool_at:
        print(f"TOOL at column {width(pre)}, not {tool_at}: {s!r}", file=sys.stderr)
        bad += 1
    if "\ufffd" in s:
        print(f"a character cut: {s!r}", file=sys.stderr)
        bad += 1
text = raw.decode("utf-8", "replace")
for want in ("é" * 16 + " bonnie++", "日本" * 4 + " bonnie++", "e\u0301" * 16 + " bonnie++"):
    if want not in text:
        print(f"not cut as {want!r}:\n{text}", file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
PY
finish
