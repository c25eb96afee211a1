#!/usr/bin/env bash
# tests/family/toy.sh - a made-up tool family, added as one family row and
# its parser (tests/family/toy.c, in bstore_toy), is read, compared with
# verdicts where its runs ran the same test and without where they did
# not, trended a line per test, and paged by the site, as bstore's own
# families are: nothing else in bstore names it.
set -euo pipefail
. "$SRC/tests/lib.sh"
need jq
: "${BSTORE_TOY:?}"
BSTORE=$BSTORE_TOY

# Runs of the toy on two boxes: depth 4 with O_DIRECT, three on each, a
# month apart; two at depth 16; one that does not say O_DIRECT.
cat >"$T/a.txt" <<'TOY'
toy 1.2: depth=4 direct=1 ops=1010.5 lat=0.99
toy 1.2: depth=4 direct=1 ops=1002.0 lat=1.00
toy 1.2: depth=4 direct=1 ops=995.25 lat=1.01
toy 1.2: depth=16 direct=1 ops=3900 lat=4.10
toy 1.2: depth=16 direct=1 ops=3950 lat=4.05
TOY
cat >"$T/b.txt" <<'TOY'
toy 1.2: depth=4 direct=1 ops=2020 lat=0.50
toy 1.2: depth=4 direct=1 ops=1990 lat=0.51
toy 1.2: depth=4 direct=1 ops=2005 lat=0.50
toy 1.2: depth=4 ops=2010 lat=0.50
TOY
run "$BSTORE" ingest --formats
expect_in "$T/out" "toy-text"
run "$BSTORE" ingest -m a --measured-at 2026-01-10 "$T/a.txt"
expect_rc 0 "ingest a"
expect_in "$T/out" "5 runs stored"
run "$BSTORE" ingest -m b --measured-at 2026-02-10 "$T/b.txt"
expect_rc 0 "ingest b"
run "$BSTORE" list family=toy
expect_eq "$(grep -c ' toy 1.2 ' "$T/out")" 9 "list shows the toy's runs"
run "$BSTORE" show 1
expect_in "$T/out" "depth                  4"

# The same test on two boxes: tested, and b is better.
"$BSTORE" report -f json 1-3 6-8 >"$T/same.json"
expect_eq "$(jq -r '.metrics[] | select(.key == "ops_per_s") | .cells[1].verdict' \
	"$T/same.json")" "better" "depth 4 on b against a"
expect_eq "$(jq -r '.metrics[] | select(.key == "lat_ms") | .cells[1].verdict' \
	"$T/same.json")" "better" "latency, lower is better"
# Depth 16 against 4: different tests, from the toy's own rule.
"$BSTORE" report -f json 1-3 4-5 >"$T/apart.json"
expect_in "$T/apart.json" "different tests (depth 16 against 4)"
expect_eq "$(jq -r '[.metrics[].cells[1].verdict] | unique | join(",")' \
	"$T/apart.json")" "apart" "depth 16 against 4"
# A run that does not say O_DIRECT: can't tell.
"$BSTORE" report -f json 6-8 9 >"$T/cant.json"
expect_in "$T/cant.json" "can't tell (O_DIRECT unknown for [2])"

# Trended and paged.
run "$BSTORE" trend -f json family=toy
expect_rc 0 "trend"
expect_in "$T/out" "ops_per_s"
run "$BSTORE" site -o "$T/site"
expect_rc 0 "site"
grep -rlq 'toy 1.2' "$T/site" || fail "the site has no page of the toy's runs"
[ -n "$(find "$T/site" -name '*.html' -path '*run*' | head -1)" ] ||
	fail "the site has no run page"
grep -lq 'Operations' "$(find "$T/site" -name '*.html' | xargs grep -l 'toy 1.2' | head -1)" ||
	fail "a toy page has no Operations"
finish
