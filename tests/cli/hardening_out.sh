#!/usr/bin/env bash
# tests/cli/hardening_out.sh - what commands write (issue 9): -o never
# writes over the archive or its SQLite files, however it is named.
source "$SRC/tests/lib.sh"
need sqlite3

run "$BSTORE" -q ingest "$SAMPLES"/bonnie++-1.03-*.txt
expect_rc 0 "ingest samples"
runs=$(sql "SELECT count(*) FROM runs")
cp "$DB" "$T/pristine.db"
# restore: the archive as ingested, without SQLite's -wal and -shm files,
# and a symbolic and a hard link to it.
restore() {
	cp "$T/pristine.db" "$DB"
	rm -f "$DB-wal" "$DB-shm" "$T/link.db" "$T/hard.db"
	ln -s "$DB" "$T/link.db"
	ln "$DB" "$T/hard.db"
}

# -o naming the archive, a symbolic or hard link to it, or the files SQLite
# keeps beside it (they exist while bstore has the archive open): refused
# by every command that has -o, and the archive is as it was.
for target in "$DB" "$T/link.db" "$T/hard.db" "$DB-wal" "$DB-shm"; do
	case $target in
	*-wal) what="is the archive's write-ahead log" ;;
	*-shm) what="is the archive's shared-memory index" ;;
	*) what="is the archive" ;;
	esac
	for c in "report" "compare 1 2" "export" "export --format csv"; do
		restore
		# shellcheck disable=SC2086
		run "$BSTORE" $c -o "$target"
		expect_rc 1 "$c -o $target"
		expect_eq "$(cat "$T/err")" \
			"bstore: ${c%% *}: '$target' $what; not writing over it" \
			"$c -o $target"
		expect_eq "$(sql "PRAGMA integrity_check")" ok \
			"archive after $c -o $target"
		expect_eq "$(sql "SELECT count(*) FROM runs")" "$runs" \
			"runs after $c -o $target"
	done
done
# The same with --db, and names relative to another directory.
restore
mkdir -p "$T/sub"
run env -C "$T/sub" "$BSTORE" --db ../test.db report -o ../link.db
expect_rc 1 "--db ../test.db report -o ../link.db"
expect_eq "$(cat "$T/err")" \
	"bstore: report: '../link.db' is the archive; not writing over it" \
	"--db ../test.db report -o ../link.db"
expect_eq "$(sql "SELECT count(*) FROM runs")" "$runs" "runs after --db"
expect_eq "$(readlink "$T/link.db")" "$DB" "the link is still a link"
expect_eq "$(find "$T" -name '*.tmp.*')" "" "temporary files left"
# Any other file is still written, through a link too.
restore
: >"$T/other.txt"
ln -s "$T/other.txt" "$T/other-link.txt"
run "$BSTORE" report -o "$T/other-link.txt"
expect_rc 0 "report -o a link to another file"
expect_in "$T/other.txt" "Groups:"

finish
