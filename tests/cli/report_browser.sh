#!/usr/bin/env bash
# tests/cli/report_browser.sh - the HTML report in headless Chromium
# (tests/browser/report.sh checks the cells, console and requests of real
# reports at desktop and phone width). Skipped without Debian's chromium
# and python3, which scripts/test installs.
set -euo pipefail
. "$SRC/tests/lib.sh"
need chromium python3
rc=0
TMPDIR=$T BSTORE=$BSTORE "$SRC/tests/browser/report.sh" >"$T/out" 2>"$T/err" || rc=$?
if [ $rc = 77 ]; then
	cat "$T/out"
	exit 77
elif [ $rc != 0 ]; then
	sed 's/^/    /' "$T/err" >&2
	fail "tests/browser/report.sh failed"
fi
expect_in "$T/out" "seed.html: 16 cells as expected, no console errors, no requests, fits a phone"
expect_in "$T/out" "factor.html: 8 cells as expected, no console errors, no requests, fits a phone"
expect_in "$T/out" "groups.html: 8 cells as expected, no console errors, no requests, fits a phone"
for p in seed factor groups sysbench fio zcav; do
	expect_in "$T/out" "$p.html: no sideways scroll at 1400px, the mean first in a cell at 390px, no word broken across lines"
done
expect_in "$T/out" "sysbench.html: 3 cells as expected"
expect_in "$T/out" "fio.html: 2 cells as expected"
expect_in "$T/out" "zcav.html: 2 cells as expected"
finish
