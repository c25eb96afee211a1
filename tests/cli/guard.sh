#!/usr/bin/env bash
# tests/cli/guard.sh - the one rule for every file bstore writes over or
# destroys (cli/guard.h; issue 20, defects 1, 2, 3, 8 and 11): zcav -l and
# -w never touch the archive under any name, link or file: URI, nor -l the
# file being measured; a file that backs a mounted loop device is that
# device, and so is any other loop device over it (root only; skipped
# otherwise); file: names are no archive; and
# the right words for a lone '{', a zcav target too small, and a fio JSON
# date that cannot be read.
source "$SRC/tests/lib.sh"
need sqlite3

linked_archive
# intact WHAT: the archive is as it was.
intact() {
	expect_eq "$(sql "PRAGMA integrity_check" 2>&1)" ok "archive after $1"
	expect_eq "$(sql "SELECT count(*) FROM runs" 2>&1)" "$runs" \
		"runs after $1"
}
F=$T/data
head -c $((4 << 20)) /dev/urandom >"$F"
ZCAV=(zcav -b 1 --min-time 0)

# ---- 1. zcav -l LOG: never the archive, never the file measured ----
for target in "$DB" "$T/link.db" "$T/hard.db" "$DB-wal"; do
	archive_restore
	run "$BSTORE" "${ZCAV[@]}" -l "$target" "$F"
	expect_rc 1 "zcav -l $target"
	case $target in
	*-wal) what="is the archive's write-ahead log" ;;
	*) what="is the archive" ;;
	esac
	expect_eq "$(cat "$T/err")" \
		"bstore: zcav: '$target' $what; not writing over it" \
		"zcav -l $target"
	intact "zcav -l $target"
done
# The archive named by a file: URI (with --no-store bstore never opens
# it, but the name still says which file it is).
archive_restore
run "$BSTORE" --db "file:$DB?mode=rw" "${ZCAV[@]}" --no-store -l "$DB" "$F"
expect_rc 1 "--db file:DB zcav -l DB"
expect_in "$T/err" "'$DB' is the archive; not writing over it"
intact "--db file:DB zcav -l DB"
# The file being measured, under its own name and a hard link.
cp "$F" "$T/data.orig"
ln "$F" "$T/data.hard"
for log in "$F" "$T/data.hard"; do
	run "$BSTORE" "${ZCAV[@]}" --no-store -l "$log" "$F"
	expect_rc 1 "zcav -l $log $F"
	expect_eq "$(cat "$T/err")" \
		"bstore: zcav: '$log' is the file being measured; not writing over it" \
		"zcav -l $log $F"
	cmp -s "$F" "$T/data.orig" || fail "zcav -l $log changed the file measured"
done
expect_style "$T/err"
# Any other log is written.
run "$BSTORE" "${ZCAV[@]}" --no-store -l "$T/zcav.log" "$F"
expect_rc 0 "zcav -l another file"
expect_in "$T/zcav.log" "#block offset (GiB), MiB/s, time"

# ---- 2. zcav -w ARCHIVE: refused, under any name ----
for target in "$DB" "$T/link.db" "$T/hard.db"; do
	archive_restore
	# -r 2 asks for 2 MiB: the archive is not too small for it.
	run "$BSTORE" "${ZCAV[@]}" -w -r 2 --no-store "$target"
	expect_rc 1 "zcav -w $target"
	expect_eq "$(cat "$T/err")" \
		"bstore: zcav: '$target' is the archive; not writing over it" \
		"zcav -w $target"
	intact "zcav -w $target"
done

# ---- fileio's test files: never the archive ----
archive_restore
mkdir -p "$T/fio"
cp "$DB" "$T/fio/test_file.1"
run "$BSTORE" --db "$T/fio/test_file.1" fileio -d "$T/fio" --file-num=2 \
	--file-total-size=2M prepare
expect_rc 1 "fileio prepare over the archive"
expect_in "$T/err" "'$T/fio/test_file.1' is the archive; not writing over it"
run "$BSTORE" --db "$T/fio/test_file.1" fileio -d "$T/fio" --file-num=2 \
	--file-total-size=2M cleanup
expect_rc 1 "fileio cleanup of the archive"
expect_eq "$(sqlite3 -batch "$T/fio/test_file.1" "SELECT count(*) FROM runs")" \
	"$runs" "runs in the archive named test_file.1"

# ---- 8. file: names are no archive; merge sees through them ----
for name in "file::memory:" "file:$T/mem.db?mode=memory" "file:$DB"; do
	run "$BSTORE" --db "$name" ingest "$SAMPLES/bonnie++-1.03-ata-raid10-cache.txt"
	expect_rc 1 "--db $name ingest"
	expect_in "$T/err" "bstore: ingest: cannot open archive '$name': name the file, not a SQLite 'file:' URI"
	expect_not_in "$T/out" "stored"
done
expect_style "$T/err"
# A file whose name starts with "file:" is named './file:...'.
(cd "$T" && "$BSTORE" --db ./file:x.db -q ingest \
	"$SAMPLES/bonnie++-1.03-ata-raid10-cache.txt") || fail "--db ./file:x.db"
expect_eq "$(sqlite3 -batch "$T/file:x.db" "SELECT count(*) FROM runs")" 1 \
	"runs in ./file:x.db"
archive_restore
for other in "file:$DB" "file://$DB" "file:$T/link.db?mode=ro"; do
	run "$BSTORE" merge "$other"
	expect_rc 1 "merge $other"
	expect_in "$T/err" "bstore: merge: $other: this is the archive itself; nothing to merge"
	intact "merge $other"
done

# ---- 11. the right words ----
# A line that is just '{' is no output of any tool.
printf '{\n' >"$T/brace.txt"
run "$BSTORE" ingest "$T/brace.txt"
expect_rc 0 "ingest '{'"
expect_not_in "$T/err" "recognised output that measures nothing"
expect_in "$T/err" "brace.txt: no results found (none of the"
# zcav refuses a target too small before it says it writes to it.
run "$BSTORE" zcav -w -b 8 --no-store "$F"
expect_rc 1 "zcav -w on a file too small"
expect_in "$T/err" "is too small: not one block of 8 MiB"
expect_not_in "$T/out" "Warning, writing to"
expect_eq "$(cat "$T/out")" "" "output before the refusal"
cmp -s "$F" "$T/data.orig" || fail "zcav -w too small changed the file"
# An empty file too: -w never makes a file longer unless -r asks.
: >"$T/empty"
run "$BSTORE" zcav -w -b 1 --no-store "$T/empty"
expect_rc 1 "zcav -w on an empty file"
expect_in "$T/err" "is too small: not one block of 1 MiB"
expect_eq "$(stat -c %s "$T/empty")" 0 "size of the empty file after -w"
# fio JSON whose date cannot be read: stored, with a warning naming the
# file and line.
for ts in '"yesterday"' '-5' '1e300'; do
	sed "s/\"timestamp\" : [0-9]*/\"timestamp\" : $ts/" \
		"$SAMPLES/fio-3.33-randrw.json" >"$T/bad.json"
	rm -f "$T/fio.db"
	run "$BSTORE" --db "$T/fio.db" ingest "$T/bad.json"
	expect_rc 0 "fio JSON with timestamp $ts"
	expect_in "$T/out" "1 run stored"
	expect_in "$T/err" "bstore: ingest: warning: $T/bad.json:8: the date could not be read"
	expect_eq "$(sqlite3 -batch "$T/fio.db" "SELECT quote(measured_at), warning IS NOT NULL FROM runs")" \
		"NULL|1" "fio run with timestamp $ts"
done
# A readable one gives no warning.
run "$BSTORE" --db "$T/fio.db" ingest "$SAMPLES/fio-3.33-randrw.json"
expect_not_in "$T/err" "the date could not be read"

# ---- 3. a file that backs a mounted loop device is that device ----
loop_part() {
	local img=$T/fs.img mnt loop
	if [ "$(id -u)" -ne 0 ] ||
		! have losetup mkfs.ext4 mount umount e2fsck; then
		skip_part "the loop device part needs root, losetup, mkfs.ext4 and e2fsck"
		return
	fi
	truncate -s 64M "$img"
	if ! loop=$(losetup -f --show "$img" 2>/dev/null); then
		skip_part "no free loop device"
		return
	fi
	mnt=$(mktemp -d /tmp/bstore-guard-test.XXXXXX)
	# shellcheck disable=SC2064
	trap "umount '$mnt' 2>/dev/null || true; losetup -d '$loop' || true; rmdir '$mnt' || true" EXIT
	mkfs.ext4 -q "$loop"
	if ! mount "$loop" "$mnt" 2>/dev/null; then
		skip_part "cannot mount a loop device here"
		return
	fi
	echo kept >"$mnt/keep"
	sync
	run "$BSTORE" zcav -w -b 8 --no-store "$img"
	expect_rc 1 "zcav -w on the image of a mounted loop device"
	expect_in "$T/err" "refusing to write to '$img': it backs the block device '$loop'; -w destroys its data; give --yes-destroy-data to do it"
	run "$BSTORE" zcav -w --yes-destroy-data -b 8 --no-store "$img"
	expect_rc 1 "zcav -w --yes-destroy-data on the image"
	expect_in "$T/err" "refusing to write to '$img': it backs '$loop', and that device (or a partition of it) is mounted on '$mnt'"
	expect_style "$T/err"
	# As an output or a log it is refused too.
	run "$BSTORE" report -f text -o "$img" 1 2
	expect_rc 1 "report -o the image"
	expect_in "$T/err" "refusing to write to '$img': it backs '$loop', and that device (or a partition of it) is mounted on '$mnt'"
	run "$BSTORE" "${ZCAV[@]}" --no-store -l "$img" "$F"
	expect_rc 1 "zcav -l the image"
	# A second loop device over the same image writes the mounted file
	# system's bytes: refused through it, through a partition of it
	# (none here) and through the image, whichever device it finds first.
	if loop2=$(losetup -f --show "$img" 2>/dev/null); then
		# shellcheck disable=SC2064
		trap "umount '$mnt' 2>/dev/null || true; losetup -d '$loop' '$loop2' || true; rmdir '$mnt' || true" EXIT
		run "$BSTORE" zcav -w --yes-destroy-data -b 8 --no-store "$loop2"
		expect_rc 1 "zcav -w --yes-destroy-data on a second loop device"
		expect_in "$T/err" "refusing to write to '$loop2': '$loop' is a loop device over the same file, and that device (or a partition of it) is mounted on '$mnt'"
		run "$BSTORE" zcav -w --yes-destroy-data -b 8 --no-store "$img"
		expect_rc 1 "zcav -w --yes-destroy-data on the image of two loop devices"
		expect_in "$T/err" "(or a partition of it) is mounted on '$mnt'"
		expect_style "$T/err"
		losetup -d "$loop2"
		# shellcheck disable=SC2064
		trap "umount '$mnt' 2>/dev/null || true; losetup -d '$loop' || true; rmdir '$mnt' || true" EXIT
	else
		skip_part "no second free loop device"
	fi
	# Reading it is fine.
	run "$BSTORE" zcav -b 8 -r 16 --no-store "$img"
	expect_rc 0 "zcav reading the image"
	umount "$mnt"
	# Not mounted, still attached: its ext4 signature keeps it.
	run "$BSTORE" zcav -w --yes-destroy-data -b 8 --no-store "$img"
	expect_rc 1 "zcav -w on the image of an ext4 loop device"
	expect_in "$T/err" "refusing to write to '$img': it backs '$loop', and that device holds a ext2/3/4 signature"
	# The file system is whole.
	if ! e2fsck -fn "$loop" >"$T/fsck" 2>&1; then
		fail "e2fsck after the refusals:"
		sed 's/^/    /' "$T/fsck" | head -5 >&2
	fi
	if mount "$loop" "$mnt" 2>"$T/mount"; then
		expect_eq "$(cat "$mnt/keep")" kept "a file on the loop device"
		umount "$mnt"
	else
		fail "the loop device no longer mounts: $(cat "$T/mount")"
	fi
}
loop_part

finish
