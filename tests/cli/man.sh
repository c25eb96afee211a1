#!/usr/bin/env bash
# tests/cli/man.sh - the generated man page documents every command and
# renders without roff warnings.
set -euo pipefail
. "$SRC/tests/lib.sh"
page=$(dirname "$BSTORE")/../docs/bstore.1
[ -s "$page" ] || { echo "no man page at $page" >&2; exit 1; }
for cmd in $("$BSTORE" --help | awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
	expect_in "$page" ".SS $cmd"
	expect_in "$page" "Usage: bstore $cmd"
done
if have groff; then
	groff -man -Tutf8 -ww "$page" >"$T/rendered" 2>"$T/warnings"
	expect_eq "$(cat "$T/warnings")" "" "groff warnings"
	expect_in "$T/rendered" "results database and report toolkit"
else
	skip_part "rendering the page: '$missing' is not installed"
fi
finish
