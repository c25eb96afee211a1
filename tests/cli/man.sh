#!/usr/bin/env bash
# tests/cli/man.sh - the man page is bstore's own (--man, from the option
# tables): it has a man page's sections, a section per command naming
# every option that command's --help lists, and renders without roff
# warnings.
set -euo pipefail
. "$SRC/tests/lib.sh"
page=$(dirname "$BSTORE")/../docs/bstore.1
[ -s "$page" ] || { echo "no man page at $page" >&2; exit 1; }
"$BSTORE" --man >"$T/man.1"
cmp -s "$page" "$T/man.1" || fail "the built page is not what 'bstore --man' prints"

for s in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS SELECTORS '"EXIT STATUS"' \
	ENVIRONMENT FILES EXAMPLES '"SEE ALSO"'; do
	expect_in "$page" ".SH $s"
done
# --help's "Usage:" belongs to --help, not to a man page.
expect_not_in "$page" "Usage:"
# What the code reads (getenv) and writes beside the archive.
for w in BSTORE_DB XDG_DATA_HOME SOURCE_DATE_EPOCH .bak .bstore\\-site; do
	expect_in "$page" "$w"
done

# The option rows of a --help text: "-x, --long" at the start of a line
# indented by 2 (or 6, a long option beside "-x, --long" ones); a help
# line that goes on is indented further.
help_rows() {
	grep -oE '^  (    )?(-[A-Za-z0-9](\[[A-Z]+\])?|--[a-z0-9-]+)(, --[a-z0-9-]+)?' |
		sed -e 's/^ *//' -e 's/\[[A-Z]*\]//'
}
# Their names, one a line.
help_options() {
	help_rows | sed -e 's/, /\n/'
}
# The lines of the page's section of one command (".SS NAME" up to the
# next section), or of the global OPTIONS.
section() {
	awk -v h="$1" '$0 == h {on = 1; next} on && /^\.S[SH] / {exit} on' "$page"
}
"$BSTORE" --help >"$T/help"
expect_eq "$(awk 'length($0) > 79' "$T/help")" "" "--help: lines over 79 columns"
section ".SH OPTIONS" >"$T/section"
for o in $(help_options <"$T/help"); do
	expect_in "$T/section" "\\fB$(printf '%s' "$o" | sed 's/-/\\-/g')\\fR"
done
n=$(help_rows <"$T/help" | wc -l)
[ "$n" -ge 4 ] || fail "only $n global options found in --help"
cmds=$("$BSTORE" --help | awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
[ "$(echo "$cmds" | wc -w)" -ge 15 ] || fail "commands: $cmds"
total=0
for cmd in $cmds; do
	expect_in "$page" ".SS $cmd"
	expect_in "$page" "\\fBbstore\\fR \\fB$cmd\\fR"
	section ".SS $cmd" >"$T/section"
	"$BSTORE" "$cmd" --help >"$T/help"
	# The walker wraps --help to a terminal's width, lists from bstore's
	# tables too.
	expect_eq "$(awk 'length($0) > 79' "$T/help")" "" "$cmd --help: lines over 79 columns"
	for o in $(help_options <"$T/help"); do
		expect_in "$T/section" "\\fB$(printf '%s' "$o" | sed 's/-/\\-/g')\\fR"
	done
	# --help at least, and each row once in the page's section.
	n=$(help_rows <"$T/help" | wc -l)
	[ "$n" -ge 1 ] || fail "$cmd: no options found in --help"
	expect_eq "$(grep -c '^\.TP$' "$T/section")" "$n" "$cmd: options in the page"
	total=$((total + n))
done
# fileio alone has sysbench's 25 options and 3 aliases.
[ "$total" -ge 100 ] || fail "only $total options in all"

if have groff; then
	groff -man -Tutf8 -ww "$page" >"$T/rendered" 2>"$T/warnings"
	expect_eq "$(cat "$T/warnings")" "" "groff warnings"
	expect_in "$T/rendered" "results database and report toolkit"
else
	skip_part "rendering the page: '$missing' is not installed"
fi
finish
