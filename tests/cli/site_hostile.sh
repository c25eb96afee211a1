#!/usr/bin/env bash
# tests/cli/site_hostile.sh - nothing read from an archive is trusted as a
# path (issue 28 item 5): saved comparisons whose names an archive's owner
# wrote past the CHECK ('../../x', '/abs', 'a/b', '.hidden', a name of 65
# bytes) are skipped by 'bstore site' with a warning naming each, the
# good one is rendered, and nothing is written outside the site's
# directory; a machine named '../../m' becomes a slug inside machine/.
# On SQLite (the CHECK ignored) and, through tests/pg/run.sh, PostgreSQL
# (the CHECK dropped by the owner).
set -euo pipefail
. "$SRC/tests/lib.sh"

run "$BSTORE" -q ingest -m ../../evil-m "$SAMPLES/bonnie++-1.03-ata-raid10-cache.txt"
expect_rc 0 "ingest"
run "$BSTORE" -q report -o "$T/r.html" --save good all
expect_rc 0 "report --save good"

hostile=("../../x" "../x" "/tmp/bstore-hostile-abs" "a/b" ".hidden" \
	"$(printf 'a%.0s' $(seq 65))")
case $DB in
postgres://* | postgresql://*)
	c=$(sql "SELECT conname FROM pg_constraint WHERE conrelid =
		'saved_reports'::regclass AND contype = 'c'")
	for n in $c; do sql "ALTER TABLE saved_reports DROP CONSTRAINT $n" >/dev/null; done
	ins() { sql "INSERT INTO saved_reports (name, saved_at) VALUES ('$1', 0);
		INSERT INTO saved_report_args SELECT '$1', position, arg
		FROM saved_report_args WHERE report = 'good'" >/dev/null; }
	;;
*)
	need sqlite3
	ins() { sqlite3 -batch "$DB" "PRAGMA ignore_check_constraints = ON;
		INSERT INTO saved_reports (name, saved_at) VALUES ('$1', 0);
		INSERT INTO saved_report_args SELECT '$1', position, arg
		FROM saved_report_args WHERE report = 'good'"; }
	;;
esac
for h in "${hostile[@]}"; do ins "$h"; done
[ "$(sql "SELECT count(*) FROM saved_reports")" = 7 ] ||
	fail "the hostile names were not stored (the test needs them)"

mkdir -p "$T/www/a/b/site"
touch "$T/before"
run "$BSTORE" site -o "$T/www/a/b/site"
for h in "${hostile[@]}"; do
	expect_in "$T/err" "saved comparison name '${h:0:40}"
done
expect_in "$T/err" "skipped (never a file name)"
[ -f "$T/www/a/b/site/compare/good.html" ] || fail "the good comparison was not rendered"
# Nothing outside the site's directory, nothing at the absolute path.
outside=$(find "$T" /tmp/bstore-hostile-abs* -newer "$T/before" -type f 2>/dev/null |
	grep -v "^$T/www/a/b/site/" | grep -v "^$T/\(out\|err\)$" |
	grep -v "^$DB" || true)
if [ -n "$outside" ]; then
	fail "bstore site wrote outside its directory:"
	echo "$outside" | sed 's/^/    /' >&2
fi
# Inside it, only the site's own directories.
find "$T/www/a/b/site" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' |
	sort | tr '\n' ' ' >"$T/dirs"
expect_eq "$(cat "$T/dirs")" "change compare machine run tag tool "
ls "$T/www/a/b/site/compare" >"$T/compare"
expect_eq "$(cat "$T/compare")" "good.html" "compare/ holds"
# The machine '../../evil-m' is a slug of [a-z0-9-] in machine/.
ls "$T/www/a/b/site/machine" | grep -c '^evil-m-[0-9a-f]\{8\}\.html$' >"$T/m" || true
expect_eq "$(cat "$T/m")" 1 "machine/ pages of '../../evil-m'"
finish
