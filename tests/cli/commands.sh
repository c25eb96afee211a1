#!/usr/bin/env bash
# tests/cli/commands.sh - list, show, export, tag and rm on the ingested
# samples, with golden files, selectors and usage errors.
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3
cd "$SRC" # so sources are stored as samples/..., as a user would type them

run "$BSTORE" ingest samples/bonnie++-1.03-*.txt samples/bonnie++-1.03d-pasted-blog.txt \
	samples/bonnie++-2.00a-local-full.txt
expect_rc 0 "ingest samples"

# Tags, then list (golden).
run "$BSTORE" tag 1-2 array=ata
expect_rc 0 "tag"
expect_in "$T/out" "tagged 2 runs"
run "$BSTORE" tag machine=jump,array=ata raid=10 'note=ATA RAID10'
expect_rc 0 "tag by selector"
run "$BSTORE" list
expect_rc 0 "list"
golden commands/list.txt "$T/out"
run "$BSTORE" list raid=10 8-9
expect_rc 0 "list with selectors"
expect_eq "$(awk 'NR > 1 {print $1}' "$T/out" | tr '\n' ' ')" "1 2 8 9 " \
	"union of selectors, in id order"
run "$BSTORE" list machine=nobody
expect_rc 0 "list matching nothing"
expect_eq "$(cat "$T/out")" "" "no header when nothing matches"
# --count: how many runs the selectors select, nothing else.
run "$BSTORE" list --count raid=10 8-9
expect_rc 0 "list --count"
expect_eq "$(cat "$T/out")" 4 "list --count raid=10 8-9"
run "$BSTORE" list -c
expect_eq "$(cat "$T/out")" "$(sql 'select count(*) from runs')" "list -c: every run"
run "$BSTORE" list --count machine=nobody
expect_eq "$(cat "$T/out")" 0 "list --count matching nothing"

# show: a 1.03 run (K/sec layout) and a 2.00a run (latency rows).
run "$BSTORE" show 1
expect_rc 0 "show 1"
golden commands/show-1.txt "$T/out"
run "$BSTORE" show last
expect_rc 0 "show last"
golden commands/show-last.txt "$T/out"
expect_in "$T/out" "seq_create  too fast  (+++++: under 0.5 s"
expect_in "$T/out" "labvm01          2G  545k  94  291m  69  587m  52  480k  82  1.8g  69  6398  31"

# export json: valid JSON per line, the contract's keys, golden.
run "$BSTORE" export --format json 1 14
expect_rc 0 "export json"
golden commands/export-1-14.jsonl "$T/out"
while IFS= read -r line; do
	expect_eq "$(sqlite3 :memory: "select json_valid('$(echo "$line" | sed "s/'/''/g")')")" 1 "valid JSON"
	for k in id machine tool tool_version format measured_at source sha256 params tags results; do
		expect_eq "$(sqlite3 :memory: "select json_type('$(echo "$line" | sed "s/'/''/g")', '\$.$k') is not null")" 1 "key $k"
	done
done <"$T/out"
first=$(sed -n 1p "$T/out" | sed "s/'/''/g")
expect_eq "$(sqlite3 :memory: "select json_extract('$first', '\$.results.seq_stat.status')")" \
	too_fast "too_fast in JSON"
expect_eq "$(sqlite3 :memory: "select json_extract('$(sed -n 1p "$T/out")', '\$.results.seq_stat.value') is null")" 1 \
	"too_fast has a null value, not 0"

# export csv: header + rows, golden; export to a file with -o.
run "$BSTORE" export --format csv raid=10
expect_rc 0 "export csv"
golden commands/export-raid10.csv "$T/out"
run "$BSTORE" export --format bonnie -o "$T/all.csv"
expect_rc 0 "export -o"
expect_eq "$(wc -l <"$T/all.csv")" 14 "export -o wrote every run"
# Another tool's run has no bonnie++ line: --format bonnie leaves it out
# and says so; json keeps it. (No parser stores sysbench yet: the run is
# put in a copy of the archive as one would store it, its output as raw.)
cp "$DB" "$T/mixed.db"
sqlite3 -batch "$T/mixed.db" "INSERT INTO runs (tool, tool_version, format,
	machine, stored_at, raw, sha256, source, parser_version, family)
	VALUES ('sysbench', '1.0.20', 'sysbench-text', 'db1', 0,
	CAST(readfile('$SAMPLES/sysbench-1.0.20-rndrw-local.txt') AS TEXT),
	zeroblob(32), 'sample', 2, 'sysbench')"
run "$BSTORE" --db "$T/mixed.db" export --format bonnie
expect_rc 0 "export --format bonnie of a mixed archive"
expect_eq "$(wc -l <"$T/out")" 14 "bonnie++ lines of a mixed archive"
cmp -s "$T/out" "$T/all.csv" || fail "export of a mixed archive differs"
expect_eq "$(head -n 1 "$T/err")" "bstore: export: warning: 1 run of other tools than bonnie++ left out (sysbench: 1): --format json or csv exports them" \
	"the warning for left-out runs"
# The samples mix bonnie++ 1.03's lines with 2.00a's: no bon_csv2html
# reads both, and the export says so and how to write one layout.
expect_eq "$(tail -n +2 "$T/err")" "bstore: export: warning: 13 lines are in bonnie++ 1.0x's layout and 1 in that of 1.9x and later: no bon_csv2html reads both (2.00a's says \"Can't process\" to 1.0x lines); --csv-format 1.98 writes every run in the layout 2.00a's reads" \
	"the warning for mixed eras"
run "$BSTORE" --db "$T/mixed.db" export --format bonnie --csv-format 1.98
expect_rc 0 "export --csv-format 1.98 of a mixed archive"
expect_eq "$(grep -c "era\|layout" "$T/err")" 0 "no era warning with --csv-format 1.98"
run "$BSTORE" --db "$T/mixed.db" export --format bonnie 'format=bonnie++-csv-1.0x'
expect_eq "$(grep -c "1.9x and later" "$T/err")" 0 "no era warning for one era"
run "$BSTORE" --db "$T/mixed.db" export --format json family=sysbench
expect_rc 0 "export --format json of a sysbench run"
expect_in "$T/out" '"family":"sysbench"'

# -o replaces a regular file only when complete, and writes devices and
# /dev/stdout directly (never renaming over them); no temporary file stays.
echo "old content" >"$T/keep.csv"
run "$BSTORE" export --format bonnie -o "$T/keep.csv" 1
expect_rc 0 "export -o over an existing file"
expect_eq "$(wc -l <"$T/keep.csv")" 1 "export -o replaced the file"
# A symbolic link (like /dev/stdout) is written through, not replaced;
# tested on a link of our own so that a regression cannot harm /dev.
: >"$T/target.csv"
ln -s target.csv "$T/link.csv"
run "$BSTORE" export --format bonnie -o "$T/link.csv" 1
expect_rc 0 "export -o through a symbolic link"
[ -L "$T/link.csv" ] || fail "export -o replaced a symbolic link"
expect_eq "$(wc -l <"$T/target.csv")" 1 "export -o wrote through the link"
run "$BSTORE" export --format bonnie -o /dev/null 1
expect_rc 0 "export -o /dev/null"
[ -c /dev/null ] || fail "/dev/null was replaced"
expect_eq "$(ls "$T" | grep -c '\.tmp\.' || true)" 0 "no temporary files left"

# Tag removal and rm.
run "$BSTORE" tag 1 --remove note
expect_rc 0 "tag --remove"
expect_eq "$(sql "select count(*) from tags where run_id = 1 and key = 'note'")" 0 "tag removed"
run "$BSTORE" rm --dry-run machine=server_name
expect_rc 0 "rm --dry-run"
expect_in "$T/out" "would remove 4 runs"
run "$BSTORE" rm machine=server_name
expect_rc 0 "rm"
expect_in "$T/out" "removed 4 runs"
expect_eq "$(sql 'select count(*) from runs')" 10 "runs after rm"
expect_eq "$(sql "select count(*) from tags where run_id not in (select id from runs)")" 0 \
	"tags of removed runs are gone"
# Removed runs can be ingested again.
run "$BSTORE" ingest samples/bonnie++-1.03d-pasted-blog.txt
expect_in "$T/out" "4 runs stored, 2 duplicates"
# Ids are never reused: removing the newest run and storing another gives
# the new one a new id, so an id once printed in a report stays that run's.
top=$(sql 'select max(id) from runs')
run "$BSTORE" rm "$top"
expect_rc 0 "rm the newest run"
sed 's/labvm01/idbox/' samples/bonnie++-2.00a-local-full.txt | run "$BSTORE" ingest
expect_rc 0 "ingest after rm"
expect_eq "$(sql "select id from runs where machine = 'idbox'")" "$((top + 1))" \
	"new run after rm gets a new id"

# Usage errors: exit 2 and a pointer to --help; unknown commands.
run "$BSTORE" show
expect_rc 2 "show without selector"
expect_in "$T/err" "Try 'bstore show --help'."
run "$BSTORE" list 'bogus selector'
expect_rc 2 "bad selector"
expect_in "$T/err" "is not a selector"
run "$BSTORE" export --format xml
expect_rc 2 "bad format"
run "$BSTORE" rm
expect_rc 2 "rm without selector"
run "$BSTORE" tag 1 novalue
expect_rc 2 "tag without ="
run "$BSTORE" reprot
expect_rc 2 "unknown command"
expect_in "$T/err" "bstore: 'reprot' is not a bstore command. Did you mean 'report'?"
run "$BSTORE" show 999
expect_rc 1 "show a missing id"
expect_eq "$(cat "$T/err")" "bstore: show: selector '999' matches no runs" \
	"show a missing id"
for c in ingest list show export tag rm; do
	run "$BSTORE" "$c" --help
	expect_rc 0 "$c --help"
	expect_in "$T/out" "Usage: bstore $c"
done
run "$BSTORE" --help
expect_rc 0 "--help"
expect_in "$T/out" "Commands:"

# Odd selectors: each is a usage error in bstore's form, never a crash or
# a silent match of something else.
long=$(head -c 5000 /dev/zero | tr '\0' 9)
for s in 0 -1 1- 5-3 9999999999999999999999 1-9999999999999999999999 =x \
	last:0 last:-1 last: '' , 1, id= id=last id=all id=raid=10 \
	id=machine=jump "$long" é $'a\nb' 'x y'; do
	run "$BSTORE" list -- "$s"
	expect_rc 2 "list '$s'"
	expect_style "$T/err"
	expect_in "$T/err" "Try 'bstore list --help'."
	[ "$(head -1 "$T/err" | wc -c)" -lt 200 ] || fail "long selector not cut in the message"
done
# ... and these parse: the machine '' (none stored), a tag value with '=',
# unicode, id=N.
for s in machine= a=b=c 'é=ü' machine=jump,id=3 last:99999999999999999; do
	run "$BSTORE" list "$s"
	expect_rc 0 "list '$s'"
done
run "$BSTORE" list id=3-4
expect_eq "$(awk 'NR > 1 {print $1}' "$T/out" | tr '\n' ' ')" "3 4 " "id=3-4"

# Odd tags: an empty value and a value with '=' are fine; a newline, a
# control character, a key with ',' or '=' (no selector could find it) or
# a run field (machine=x would never select the tag) are usage errors and
# store nothing.
run "$BSTORE" tag 3 empty= 'eq=a=b'
expect_rc 0 "tag with empty value and '=' in value"
expect_eq "$(sql "select group_concat(key || ':' || value, ' ') from
	(select * from tags where run_id = 3 order by key)")" "empty: eq:a=b" "odd tag values"
run "$BSTORE" list eq=a=b
expect_eq "$(awk 'NR > 1 {print $1}' "$T/out")" 3 "select by a value with '='"
for t in = =v $'nl=a\nb' $'cr=a\rb' $'nl\nkey=v' 'a,b=c' machine=x name=x \
	tool=x id=x; do
	run "$BSTORE" tag 3 "$t"
	expect_rc 2 "tag 3 '$t'"
	expect_style "$T/err"
done
expect_eq "$(sql "select count(*) from tags where run_id = 3")" 2 \
	"bad tags stored nothing"
# A value with a newline stored by some other tool: list stays one line
# per run.
sql "insert into tags (run_id, key, value) values (3, 'odd', 'a' || char(10) || 'b')"
run "$BSTORE" list 3
expect_eq "$(wc -l <"$T/out")" 2 "list: one line per run"
expect_in "$T/out" "odd=a?b"
sql "delete from tags where run_id = 3"

# Options: unknown ones and missing arguments are named, in bstore's form.
for c in ingest list show export tag rm; do
	run "$BSTORE" "$c" --bogus=1
	expect_rc 2 "$c --bogus"
	expect_eq "$(cat "$T/err")" "bstore: $c: unknown option '--bogus'
Try 'bstore $c --help'." "$c --bogus message"
done
run "$BSTORE" export --format
expect_rc 2 "export --format without argument"
expect_eq "$(head -1 "$T/err")" "bstore: export: option '--format' needs an argument" \
	"missing argument"
run "$BSTORE" list -x
expect_eq "$(head -1 "$T/err")" "bstore: list: unknown option '-x'" "unknown short option"
run "$BSTORE" rm --dry-run -xn 1
expect_eq "$(head -1 "$T/err")" "bstore: rm: unknown option '-x'" \
	"unknown short option after a long one"
run "$BSTORE" list --json=yes
expect_eq "$(head -1 "$T/err")" "bstore: list: option '--json' takes no argument" \
	"argument to a flag"
run "$BSTORE" --db
expect_rc 2 "--db without argument"
expect_eq "$(cat "$T/err")" "bstore: option '--db' needs an argument
Try 'bstore --help'." "--db without argument"
run "$BSTORE" --bogus list
expect_rc 2 "unknown global option"
expect_style "$T/err"
run "$BSTORE" list --rejects 1
expect_rc 2 "list --rejects with a selector"

# Archives that cannot be used: a directory, a file that is not SQLite,
# another program's database, a missing directory, an archive made by a
# newer bstore, an empty --db (SQLite would use a temporary database).
mkdir -p "$T/dir"
echo "not a database, just text" >"$T/text.db"
sqlite3 "$T/other.db" 'create table x (a)'
sqlite3 "$DB" ".backup '$T/v99.db'"
sqlite3 "$T/v99.db" 'pragma user_version = 99'
runs=$(sql 'select count(*) from runs')
# open_fails DB REASON WHAT CMD [ARG...]: CMD on the archive DB fails with
# exit 1 and exactly "bstore: CMD: cannot open archive 'DB': REASON".
open_fails() {
	local db=$1 reason=$2 what=$3
	shift 3
	run "$BSTORE" --db "$db" "$@"
	expect_rc 1 "$1 $what"
	expect_eq "$(cat "$T/err")" "bstore: $1: cannot open archive '$db': $reason" \
		"$1 $what"
}
for c in list "ingest samples/bonnie++-1.03-t3-raid5.txt" "tag 1 a=b" "show 1"; do
	# shellcheck disable=SC2086
	open_fails "$T/dir" "Is a directory" "on a directory" $c
	# shellcheck disable=SC2086
	open_fails "$T/text.db" "file is not a database" "on a text file" $c
	# shellcheck disable=SC2086
	open_fails "$T/other.db" "not a bstore archive (it has other tables); use another --db" \
		"on another program's database" $c
	# No hint: ingest would not make the directory of a --db either.
	# shellcheck disable=SC2086
	open_fails "$T/missing/x.db" "No such file or directory" "in a missing directory" $c
	# shellcheck disable=SC2086
	open_fails "$T/v99.db" "it was made by a newer bstore (schema version 99, this one knows 7); upgrade bstore" \
		"on a newer archive" $c
	# shellcheck disable=SC2086
	run "$BSTORE" --db '' $c
	expect_rc 2 "$c with --db ''"
	expect_style "$T/err"
done
[ ! -e "$T/missing" ] || fail "a missing --db directory was created"
# A directory the user may not write: the system's reason (SQLite's own
# retry read-only would say "No such file or directory"). As root, try as
# nobody.
mkdir -p "$T/ro"
chmod 555 "$T/ro"
as_user=()
if [ "$(id -u)" = 0 ]; then
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	if ! have setpriv; then
		as_user=()
		skip_part "the archive in a read-only directory: as root it" \
			"runs as nobody, and '$missing' is not installed"
	fi
fi
if [ "$(id -u)" != 0 ] || [ ${#as_user[@]} -gt 0 ]; then
	run "${as_user[@]}" "$BSTORE" --db "$T/ro/x.db" ingest "$SAMPLES/bonnie++-1.03-t3-raid5.txt"
	expect_rc 1 "archive in a directory without write permission"
	expect_eq "$(cat "$T/err")" "bstore: ingest: cannot open archive '$T/ro/x.db': Permission denied" \
		"archive in a directory without write permission"
fi
# Only ingest, run and merge create an archive: a mistyped --db for the other
# commands is an error and leaves no file behind.
for c in list "show 1" "export" "tag 1 a=b" "rm 1" "report 1" "compare 1 1"; do
	# shellcheck disable=SC2086
	open_fails "$T/typo.db" "No such file or directory (there is no archive there yet: bstore ingest or bstore run creates it)" \
		"on a missing archive" $c
	[ ! -e "$T/typo.db" ] || fail "$c created the missing archive"
done
# The default archive's directory is not made by them either (ingest and
# run make it), and the hint is true there.
for c in list "tag 1 a=b" "rm 1"; do
	# shellcheck disable=SC2086
	run env -u BSTORE_DB XDG_DATA_HOME="$T/xdg" "$BSTORE" $c
	expect_rc 1 "$c on a missing default archive"
	expect_in "$T/err" "cannot open archive '$T/xdg/bstore/bstore.db': No such file or directory (there is no archive there yet: bstore ingest or bstore run creates it)"
	[ ! -e "$T/xdg" ] || fail "$c made the default archive's directory"
done
expect_eq "$(sqlite3 "$T/v99.db" 'pragma user_version; select count(*) from runs' | tr '\n' ' ')" \
	"99 $runs " "the newer archive is untouched"
expect_eq "$(cat "$T/text.db")" "not a database, just text" "the text file is untouched"

# Output that cannot be written: one message, exit 1; a closed pipe ends
# quietly (SIGPIPE); export never writes over the archive.
for c in "list" "list --json" "show 1" "export --format json 1" "export --format csv" \
	"list --rejects"; do
	set +e
	# shellcheck disable=SC2086
	"$BSTORE" $c >/dev/full 2>"$T/err"
	rc=$?
	set -e
	if [ "$c" = "list --rejects" ] && [ "$(sql 'select count(*) from rejects')" = 0 ]; then
		continue
	fi
	expect_rc 1 "$c to a full disk"
	expect_eq "$(cat "$T/err")" "bstore: ${c%% *}: cannot write output: No space left on device" \
		"$c to a full disk"
	set +e
	# shellcheck disable=SC2086
	"$BSTORE" $c >&- 2>"$T/err"
	rc=$?
	set -e
	expect_rc 1 "$c to a closed stdout"
	expect_in "$T/err" "bstore: ${c%% *}: cannot write output: "
	expect_style "$T/err"
done
set +e
{
	sleep 0.3
	"$BSTORE" export --format json 2>"$T/err"
} | true
rc=${PIPESTATUS[0]}
set -e
expect_rc 141 "export into a closed pipe"
expect_eq "$(cat "$T/err")" "" "no message on a closed pipe"
run "$BSTORE" export -f bonnie -o "$DB"
expect_rc 1 "export -o the archive"
expect_eq "$(cat "$T/err")" "bstore: export: '$DB' is the archive; not writing over it" \
	"export -o the archive"
expect_eq "$(sql 'select count(*) from runs')" "$runs" "archive intact after export -o it"
run "$BSTORE" export -o "$T/missing/x.csv"
expect_rc 1 "export -o into a missing directory"
expect_eq "$(cat "$T/err")" "bstore: export: cannot write '$T/missing/x.csv': No such file or directory" \
	"export -o into a missing directory"
run "$BSTORE" export -o /dev/full
expect_rc 1 "export -o a full disk"
expect_eq "$(cat "$T/err")" "bstore: export: cannot write '/dev/full': No space left on device" \
	"export -o a full disk"

# The default archive: $XDG_DATA_HOME, created on first use.
unset BSTORE_DB
export XDG_DATA_HOME=$T/xdg
run "$BSTORE" ingest samples/bonnie++-1.03-t3-raid5.txt
expect_rc 0 "ingest into the default archive"
[ -f "$T/xdg/bstore/bstore.db" ] || fail "default archive not created under XDG_DATA_HOME"

# --help lists come from bstore's tables: every metric of the archive's
# metrics table is in report --help, every run field in list --help.
"$BSTORE" report --help >"$T/help"
[ "$(sqlite3 "$DB" 'select count(distinct family) from metrics')" -ge 6 ] ||
	fail "the archive's metrics table is not the whole catalogue"
for k in $(sqlite3 "$DB" 'select distinct key from metrics'); do
	grep -qw -- "$k" "$T/help" || fail "report --help lacks the metric '$k'"
done
"$BSTORE" list --help >"$T/help"
for k in machine name family tool version format source id; do
	grep -qw -- "$k" "$T/help" || fail "list --help lacks the field '$k'"
done
# One entry a row of the registry (ingest/formats.c).
expect_eq "$("$BSTORE" ingest --formats | grep -c '^[a-z]')" \
	"$(grep -c '^	{ BS_FMT_' "$SRC/ingest/formats.c")" "ingest --formats"

# -q after the command as before it (bstore run's -q is bonnie++'s): every
# command takes it, and ingest and site print nothing with it.
for c in $("$BSTORE" --help | awk '/^Commands:/ {on = 1; next} /^$/ {on = 0} on {print $1}'); do
	[ "$c" = run ] && continue
	# grep without -q reads all: an early exit would kill bstore's
	# writing of the rest by SIGPIPE (pipefail).
	"$BSTORE" "$c" --help | grep -- '-q, --quiet' >/dev/null ||
		fail "$c --help lacks -q, --quiet"
done
Q=$T/quiet.db
run "$BSTORE" --db "$Q" ingest -q samples/bonnie++-1.03-ata-raid10-cache.txt
expect_rc 0 "ingest -q"
expect_eq "$(cat "$T/out")" "" "ingest -q prints no summary"
run "$BSTORE" --db "$Q" ingest samples/bonnie++-1.03-ata-raid10-cache.txt
expect_in "$T/out" "0 runs stored, 1 duplicate"
run "$BSTORE" --db "$Q" site --quiet -o "$T/quiet-site"
expect_rc 0 "site --quiet"
expect_eq "$(cat "$T/out" "$T/err")" "" "site --quiet prints nothing"
run "$BSTORE" --db "$Q" site -o "$T/loud-site"
expect_in "$T/out" "site: 7 pages, 7 written"  # with changes.html and changes.xml

finish
