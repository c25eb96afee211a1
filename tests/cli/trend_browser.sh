#!/usr/bin/env bash
# tests/cli/trend_browser.sh - the trend page in headless Chromium
# (tests/browser/trend.sh: axes, font sizes at desktop and phone width,
# overflow, console and requests). Skipped without Debian's chromium and
# python3, which scripts/test installs.
set -euo pipefail
. "$SRC/tests/lib.sh"
need chromium python3
rc=0
TMPDIR=$T BSTORE=$BSTORE "$SRC/tests/browser/trend.sh" >"$T/out" 2>"$T/err" || rc=$?
if [ $rc = 77 ]; then
	cat "$T/out"
	exit 77
elif [ $rc != 0 ]; then
	sed 's/^/    /' "$T/err" >&2
	fail "tests/browser/trend.sh failed"
fi
expect_in "$T/out" "trend.html: 16 charts with both axes labelled"
expect_in "$T/out" "no console errors, no requests, fits a phone"
finish
