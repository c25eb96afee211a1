#!/usr/bin/env bash
# tests/cli/readers.sh - where an archive can be read, list, show, export
# and report read it; where it cannot, they say why. Readers that may not
# write the archive leave nothing beside it (the WAL's files, owned by the
# reader, would stop the archive's owner from writing). And what is not an
# archive is not made one: ':memory:', '', /dev/null, an empty file given
# to rm or tag, an archive whose creation failed on a full disk.
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3

"$BSTORE" --quiet ingest "$SAMPLES"/bonnie++-1.03-*.txt >/dev/null 2>&1 || true
want=$(sqlite3 -batch "$DB" "SELECT count(*) FROM runs")
[ "$want" -ge 7 ] || fail "the samples were not ingested ($want runs)"

# reads ARCHIVE [PREFIX...]: every reader works on ARCHIVE, run as PREFIX.
reads() {
	local db=$1 c
	shift
	for c in "list" "show 1" "export --format json" "report --format text"; do
		# shellcheck disable=SC2086
		run "$@" "$BSTORE" --db "$db" $c
		expect_rc 0 "$c of $db"
		[ -s "$T/out" ] || fail "$c of $db printed nothing"
	done
	run "$@" "$BSTORE" --db "$db" list
	expect_eq "$(($(wc -l <"$T/out") - 1))" "$want" "runs listed from $db"
}

# no_wal_files DIR NAME: nothing made beside the archive NAME in DIR.
no_wal_files() {
	local left
	left=$(cd "$1" && ls -A | grep -F "$2-" || true)
	[ -z "$left" ] || fail "a reader left files beside $1/$2: $left"
}

# --- another user's archive -------------------------------------------------
# Root reads through any mode: the readers run as nobody, the archive's
# owner is a user of its own (uid 4242).
if [ "$(id -u)" = 0 ] && have setpriv &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$DB"; then
	nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	owner=(setpriv --reuid=4242 --regid=4242 --clear-groups)
	# A directory the reader may not write.
	mkdir -p "$T/closed"
	cp "$DB" "$T/closed/a.db"
	chown -R 4242:4242 "$T/closed"
	chmod 0755 "$T/closed"
	reads "$T/closed/a.db" "${nobody[@]}"
	no_wal_files "$T/closed" a.db
	# A shared sticky directory (as /tmp): the reader could make the
	# WAL's files there; it must not, or the owner could not write.
	mkdir -p "$T/shared"
	chmod 1777 "$T/shared"
	cp "$DB" "$T/shared/a.db"
	chown 4242:4242 "$T/shared/a.db"
	chmod 0644 "$T/shared/a.db"
	reads "$T/shared/a.db" "${nobody[@]}"
	no_wal_files "$T/shared" a.db
	run "${owner[@]}" "$BSTORE" --db "$T/shared/a.db" ingest \
		"$SAMPLES/bonnie++-2.00a-local-full.txt"
	expect_rc 0 "the owner's ingest after a reader"
	run "${owner[@]}" "$BSTORE" --db "$T/shared/a.db" list
	expect_eq "$(($(wc -l <"$T/out") - 1))" "$((want + 1))" \
		"runs after the owner's ingest"
	# A writer in a directory it may not write says "writing".
	chmod 0666 "$T/closed/a.db"
	for c in "tag 1 x=y" "ingest $SAMPLES/bonnie++-2.00a-local-full.txt"; do
		# shellcheck disable=SC2086
		run "${nobody[@]}" "$BSTORE" --db "$T/closed/a.db" $c
		expect_rc 1 "${c%% *} in a directory it may not write"
		expect_in "$T/err" "bstore: ${c%% *}: cannot open archive '$T/closed/a.db': writing it needs write access to its directory"
		expect_not_in "$T/err" "reading it"
	done
	no_wal_files "$T/closed" a.db
	# A write refused on a read-only archive leaves nothing beside it
	# (SQLite would make -wal and -shm of mode 0444, and those would
	# refuse every write after the owner makes the archive writable).
	chmod 0444 "$T/closed/a.db"
	run "${owner[@]}" "$BSTORE" --db "$T/closed/a.db" tag 1 x=y
	expect_rc 1 "tag of a read-only archive"
	expect_in "$T/err" "bstore: tag: cannot open archive '$T/closed/a.db': writing it needs write access to it (its mode is 0444); ask its owner"
	no_wal_files "$T/closed" a.db
	chmod 0644 "$T/closed/a.db"
	run "${owner[@]}" "$BSTORE" --db "$T/closed/a.db" tag 1 x=y
	expect_rc 0 "tag once the owner made the archive writable"
	expect_eq "$(sqlite3 -batch "$T/closed/a.db" "SELECT value FROM tags WHERE run_id = 1 AND key = 'x'")" y \
		"the tag stored after the archive was made writable"
	# Such a file left by an older bstore is named, not "attempt to
	# write a readonly database".
	"${owner[@]}" sh -c "rm -f '$T/closed/a.db-wal' '$T/closed/a.db-shm'; : >'$T/closed/a.db-shm'; chmod 0444 '$T/closed/a.db-shm'"
	run "${owner[@]}" "$BSTORE" --db "$T/closed/a.db" tag 1 x=z
	expect_rc 1 "tag beside a read-only -shm"
	expect_in "$T/err" "'$T/closed/a.db-shm' beside it may not be written"
	expect_style "$T/err"
else
	skip_part "readers without write access (needs root and setpriv)"
fi

# --- a read-only file system, a full one -----------------------------------
# (Sizes for archives of 32 KiB pages: one with a run is some 700 KiB.)
M=$T/mnt
mkdir -p "$M"
if mount -t tmpfs -o size=2m bstore-test "$M" 2>/dev/null; then
	trap 'umount "$M" 2>/dev/null || true' EXIT
	cp "$DB" "$M/a.db"
	mount -o remount,ro "$M"
	reads "$M/a.db"
	umount "$M"
	# Full before the reader makes its -shm file.
	mount -t tmpfs -o size=1m bstore-test "$M"
	cp "$DB" "$M/a.db"
	dd if=/dev/zero of="$M/fill" bs=4k 2>/dev/null || true
	reads "$M/a.db"
	# A new archive that cannot be created leaves no file behind, and
	# an ingest that cannot commit says which file stored nothing.
	run "$BSTORE" --db "$M/new.db" ingest "$SAMPLES/bonnie++-1.03-t3-raid5.txt"
	expect_rc 1 "ingest into a new archive on a full disk"
	expect_style "$T/err"
	[ ! -e "$M/new.db" ] || fail "a failed creation left $(ls -l "$M/new.db")"
	# Room to open the archive, not to store 3000 runs.
	rm -f "$M/fill" "$M"/a.db*
	mount -o remount,size=1600k "$M"
	"$BSTORE" --quiet --db "$M/a.db" ingest "$SAMPLES/bonnie++-1.03-t3-raid5.txt"
	"$SRC/bench/gen-lines" 3000 5 >"$T/lines.csv"
	dd if=/dev/zero of="$M/fill" bs=4k count=36 2>/dev/null || true
	run "$BSTORE" --db "$M/a.db" ingest "$T/lines.csv" \
		"$SAMPLES/bonnie++-1.03-emc-raid5-cache.txt"
	expect_rc 1 "ingest on a full disk"
	expect_in "$T/err" "bstore: ingest: $T/lines.csv: cannot store its runs: $M/a.db: database or disk is full; nothing stored from this file"
	expect_eq "$(grep -c 'disk is full' "$T/err")" 1 "times the full disk is told"
	expect_in "$T/out" "bonnie++-1.03-emc-raid5-cache.txt: 1 run stored"
	expect_eq "$(sqlite3 -batch "$M/a.db" "SELECT count(*) FROM runs")" 2 \
		"runs kept after the full disk"
	expect_eq "$(sqlite3 -batch "$M/a.db" "PRAGMA integrity_check")" ok \
		"integrity after the full disk"
	umount "$M"
	trap - EXIT
else
	skip_part "read-only and full file systems (cannot mount a tmpfs here)"
fi

# --- what is not an archive ---------------------------------------------------
run "$BSTORE" --db :memory: ingest "$SAMPLES/bonnie++-1.03-t3-raid5.txt"
expect_rc 1 "ingest into --db :memory:"
expect_in "$T/err" "cannot open archive ':memory:': an archive is a file"
expect_not_in "$T/out" "stored"
run "$BSTORE" --db /dev/null ingest "$SAMPLES/bonnie++-1.03-t3-raid5.txt"
expect_rc 1 "ingest into /dev/null"
expect_in "$T/err" "cannot open archive '/dev/null': not a regular file"
[ ! -e /dev/null-journal ] || fail "/dev/null-journal was made"
: >"$T/empty.db"
for c in "tag 1 a=b" "rm 1" "list"; do
	run "$BSTORE" --db "$T/empty.db" $c
	expect_rc 1 "$c on an empty file"
	expect_in "$T/err" "cannot open archive '$T/empty.db': an empty file, not yet an archive"
	expect_style "$T/err"
done
[ ! -s "$T/empty.db" ] || fail "rm or tag wrote into an empty file"

# A reader racing the ingest that creates the archive: it is not there
# yet, or it is whole; never "not a bstore archive".
"$SRC/bench/gen-lines" 2000 9 >"$T/race.csv"
: >"$T/race.err"
for i in $(seq 1 15); do
	rm -f "$T"/race.db*
	"$BSTORE" --quiet --db "$T/race.db" ingest "$T/race.csv" &
	for k in $(seq 1 60); do
		"$BSTORE" --db "$T/race.db" list >/dev/null 2>>"$T/race.err" && break
	done
	wait
done
expect_not_in "$T/race.err" "not a bstore archive"
finish
