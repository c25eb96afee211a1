#!/usr/bin/env bash
# tests/cli/report_browser.sh - the HTML report in headless Chromium
# (tests/browser/report.sh: installs Debian's chromium when missing, then
# checks the cells, console and requests of real reports at desktop and
# phone width).
set -euo pipefail
. "$SRC/tests/lib.sh"
TMPDIR=$T BSTORE=$BSTORE "$SRC/tests/browser/report.sh" >"$T/out" 2>"$T/err" || {
	sed 's/^/    /' "$T/err" >&2
	fail "tests/browser/report.sh failed"
}
expect_in "$T/out" "seed.html: 16 cells as expected, no console errors, no requests, fits a phone"
expect_in "$T/out" "groups.html: 8 cells as expected, no console errors, no requests, fits a phone"
finish
