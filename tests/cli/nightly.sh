#!/usr/bin/env bash
# tests/cli/nightly.sh - docs/team.md's nightly job as a newcomer runs it:
# its three commands (the exec line, the bonnie++ pipe into ingest, the
# check that mails) taken from the page as written, with only the archive's
# URL (the test's archive), /srv/test (a scratch directory on /dev/shm) and
# bonnie++'s sizes (-s 32 -r 16 -n 0, and -u root as root) put in. The
# nights are real bonnie++ 2.00a runs of one configuration,
# tests/data/repeats/ (its README): five and ten earlier nights of two
# hosts from the repeats made on a quiet machine, piped in, each dated by
# when ingest read it (measured_at.source=ingested), which check orders
# its series by; the
# same output ingested on another day is one run (a date bstore gave takes
# no part in finding duplicates), one with a real date replaces the guess;
# tonight's good run (the next quiet repeat): check exits 0 and mails
# nothing; a degraded run (a repeat of the same configuration made while
# seven other sessions shared the machine's two cores: its per-char write
# a sixth of the quiet level): exits 1, with the regression's line, and
# mails it; -f json; a usage
# error exits 2; the night's site has a well-formed Atom feed; the exec
# line stores a dated run with host facts and its exit status.
set -euo pipefail
. "$SRC/tests/lib.sh"
need bonnie++
R=$SRC/tests/data/repeats
quiet=$R/bonnie++-2.00a-shm-quiet-x20.csv
busy=$R/bonnie++-2.00a-shm-x20.csv

D=/dev/shm/bstore-nightly-$$
mkdir -p "$D" "$T/bin"
trap 'rm -rf "$D"' EXIT
ln -s "$BSTORE" "$T/bin/bstore"
# mail: keeps what it was sent.
cat >"$T/bin/mail" <<EOF
#!/bin/sh
{ echo "mail \$*"; cat; } >>"$T/mail"
EOF
chmod +x "$T/bin/mail"
export PATH=$T/bin:$PATH
small="-s 32 -r 16 -n 0"
[ "$(id -u)" -ne 0 ] || small="$small -u root"

# The page's commands, each one line of a fenced block.
page=$SRC/docs/team.md
cmd() {
	local line
	line=$(grep -m1 -F -- "$1" "$page") || { fail "docs/team.md has no line '$1'"; echo false; return; }
	printf '%s\n' "$line" |
		sed -e "s|'postgresql://[^']*'|\"\$DB\"|g" -e "s|/srv/test|$D|g" \
			-e "s|bonnie++ -q|bonnie++ -q $small|"
}
export_line=$(cmd "export BSTORE_DB='postgresql://bstore@")
exec_line=$(cmd "bstore exec --tag nightly=yes -- bonnie++")
pipe_line=$(cmd "| bstore ingest --tag nightly=yes")
check_line=$(cmd "check --since \"\$(date -u +%F)\"")
export DB
eval "$export_line"
expect_eq "$BSTORE_DB" "$DB" "the page's export line"
cd "$T"

now=$(date -u +%s)
# Two hosts, db1 and db2 ($(hostname) in the page's lines): five and ten
# earlier nights, one quiet repeat a night (bonnie++ -q's stdout: its
# header and one line), piped in on its day.
printf '#!/bin/sh\necho "$HOST"\n' >"$T/bin/hostname"
chmod +x "$T/bin/hostname"
night() { # N FILE: bonnie++ -q's stdout of FILE's N-th repeat
	head -1 "$2"
	sed -n "$(($1 + 1))p" "$2"
}
for i in $(seq 15); do
	night "$i" "$quiet" >"$T/night$i.csv"
	host=db1
	[ "$i" -le 5 ] || host=db2
	day=$((6 - i))
	[ "$i" -le 5 ] || day=$((16 - i))
	SOURCE_DATE_EPOCH=$((now - day * 86400)) \
		"$BSTORE" --quiet ingest -m "$host" --tag nightly=yes \
		<"$T/night$i.csv" >/dev/null || fail "night $i"
done
run "$BSTORE" show 1
expect_in "$T/out" "measured at            $(date -u -d "@$((now - 5 * 86400))" +%FT%TZ) (ingested: the input had no date)"
expect_in "$T/out" "measured_at.source=ingested"
# list marks such a day ('*'), in the gap after it.
run "$BSTORE" list 1
expect_in "$T/out" "    1  $(date -u -d "@$((now - 5 * 86400))" +%F)* db1"
# The same output again, on another day: one run.
run env SOURCE_DATE_EPOCH=$now "$BSTORE" ingest -m db1 <"$T/night1.csv"
expect_in "$T/out" "0 runs stored, 1 duplicate"
# and from a file named on the command line, which has no date: the same
# run.
run "$BSTORE" ingest -m db1 "$T/night2.csv"
expect_in "$T/out" "0 runs stored, 1 duplicate"
expect_eq "$(sql "SELECT count(*) FROM runs")" 15 "runs after the nights"
# The series are dated: trend orders them, none left out.
run "$BSTORE" trend --metrics putc machine=db1
expect_rc 0 "trend machine=db1"
expect_not_in "$T/out" "without a date"

# Tonight, by the clock (ctest pins SOURCE_DATE_EPOCH in the past): the
# page's pipe line, its bonnie++ printing tonight's repeat (the exec line
# below runs the real one).
unset SOURCE_DATE_EPOCH
mkdir -p "$T/tonight"
# (as bonnie++ does, it names the machine -m gives in its CSV line)
cat >"$T/tonight/bonnie++" <<EOF
#!/bin/sh
m=
while [ \$# -gt 0 ]; do [ "\$1" = -m ] && m=\$2; shift; done
awk -F, -v OFS=, -v m="\$m" 'NR > 1 && m != "" { \$3 = m } 1' "$T/tonight.csv"
EOF
chmod +x "$T/tonight/bonnie++"
night 16 "$quiet" >"$T/tonight.csv"
# db1's good run: check exits 0, nothing mailed.
export HOST=db1
run env PATH="$T/tonight:$PATH" bash -c "$pipe_line"
expect_rc 0 "the page's pipe line"
expect_in "$T/out" "1 run stored"
run bash -c "$check_line"
expect_rc 0 "the page's check line after a good night"
grep -q '^0 regressions in ' check.txt || fail "check.txt: $(cat check.txt)"
[ ! -e "$T/mail" ] || fail "mail sent after a good night: $(cat "$T/mail")"

# db2's degraded run: the same configuration on the shared machine.
export HOST=db2
night 1 "$busy" >"$T/tonight.csv"
run env PATH="$T/tonight:$PATH" bash -c "$pipe_line"
expect_rc 0 "the degraded run"
# (the line's status is mail's: check's own is tested below)
run bash -c "$check_line"
expect_rc 0 "the page's check line after a degraded night"
grep -q "^db2, bonnie|bonnie++|.*: Per-char write [0-9.]*[%x] lower from run 17 ($(date -u +%F)), worse" check.txt ||
	fail "check.txt: no regression line for run 17: $(cat check.txt)"
grep -q '^1 regressions\? in \|^[0-9]* regressions in ' check.txt || fail "check.txt: no count"
grep -q "^mail -s bstore: regression ops" "$T/mail" || fail "no mail: $(cat "$T/mail" 2>/dev/null)"
grep -q "Per-char write .* lower from run 17" "$T/mail" || fail "the mail: $(cat "$T/mail")"
run "$BSTORE" check -f json --since "$(date -u +%F)"
expect_rc 1 "check -f json"
grep -q '"run_id":17,.*"direction":"worse"' "$T/out" || fail "check -f json: $(cat "$T/out")"
# --since tomorrow: no run to check; a date that is none: usage error.
run "$BSTORE" check --since "$(date -u -d tomorrow +%F)"
expect_rc 0 "check --since tomorrow"
run "$BSTORE" check --since 2026-13-45
expect_rc 2 "check --since 2026-13-45"
expect_in "$T/err" "is not a date"

# A real date for an output stored with a guessed one: the same run, and
# no second one.
run "$BSTORE" ingest -m db1 --measured-at "$(date -u -d "@$((now - 5 * 86400))" '+%F %T')" <"$T/night2.csv"
expect_in "$T/out" "0 runs stored, 1 duplicate"

# The site of the night: its feed well-formed (xmllint, where
# libxml2-utils is installed). One degraded night is not a change point
# (a level needs 5 runs: docs/changes.md), so the feed has no entry for
# it yet; tests/cli/changes.sh checks the feed's entries and the index's
# latest changes on real series that do change.
"$BSTORE" --quiet site -o "$T/site" >/dev/null || fail "site"
if have xmllint; then
	xmllint --noout "$T/site/changes.xml" || fail "changes.xml: not well-formed"
fi
grep -q '<feed xmlns="http://www.w3.org/2005/Atom"' "$T/site/changes.xml" ||
	fail "changes.xml: not an Atom feed: $(head -3 "$T/site/changes.xml")"

# The exec line: a dated run with host facts and its exit status.
run bash -c "$exec_line"
expect_rc 0 "the page's exec line"
n=$(sql "SELECT max(id) FROM runs")
run "$BSTORE" show "$n"
expect_in "$T/out" "exec.status=0"
expect_in "$T/out" "host.kernel=$(uname -r)"
expect_not_in "$T/out" "(ingested"
finish
