#!/usr/bin/env bash
# tests/cli/upgrade.sh - an archive made by the landed release (schema
# version 1, tests/data/archive-v1.db) as its owner meets it: the first
# command upgrades it, says so once, and keeps a copy of the old file as
# ARCHIVE.v1.bak; every run is still listed. A user who cannot write the
# archive gets an error that says why and what to do, and the file is left
# as it was. A version 2 archive gains the saved comparisons' tables; a
# version 3 archive run_history and runs.measure_key, filled for its runs;
# a version 4 archive the method parameters (direct, fsync) its tags knew;
# a version 6 archive's histograms (one series row a bin) become one row of
# distributions each, bin for bin.
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3 jq

V1=$SRC/tests/data/archive-v1.db
want_runs=$(sqlite3 -batch "$V1" "SELECT count(*) FROM runs")

# The owner: the first command upgrades and says so, on stderr.
cp "$V1" "$T/old.db"
run "$BSTORE" --db "$T/old.db" list
expect_rc 0 "list of a version 1 archive"
expect_in "$T/err" "bstore: upgraded archive '$T/old.db' from schema version 1 to 7; the old file is kept as '$T/old.db.v1.bak'"
expect_style "$T/err"
expect_eq "$(($(wc -l <"$T/out") - 1))" "$want_runs" "runs listed after the upgrade"
expect_eq "$(sqlite3 -batch "$T/old.db" "PRAGMA user_version")" 7 "schema version"
expect_eq "$(sqlite3 -batch "$T/old.db.v1.bak" "PRAGMA user_version")" 1 \
	"the copy's schema version"
expect_eq "$(sqlite3 -batch "$T/old.db.v1.bak" "SELECT count(*) FROM runs")" \
	"$want_runs" "runs in the copy"
# Once: the next command says nothing.
run "$BSTORE" --db "$T/old.db" show 1
expect_rc 0 "show after the upgrade"
[ ! -s "$T/err" ] || fail "a second upgrade message: $(cat "$T/err")"
# --quiet keeps it quiet.
cp "$V1" "$T/quiet.db"
run "$BSTORE" --quiet --db "$T/quiet.db" list
expect_rc 0 "list --quiet of a version 1 archive"
[ ! -s "$T/err" ] || fail "--quiet printed: $(cat "$T/err")"

# A reader who cannot write the archive: root reads through any mode, so
# the test drops to nobody when it runs as root.
mkdir -p "$T/ro"
cp "$V1" "$T/ro/old.db"
as_reader=()
if [ "$(id -u)" = 0 ]; then
	if have setpriv && setpriv --reuid=65534 --regid=65534 --clear-groups \
		test -r "$T/ro/old.db" 2>/dev/null; then
		as_reader=(setpriv --reuid=65534 --regid=65534 --clear-groups)
		# nobody may make the WAL's files here, not write the file.
		chmod 1777 "$T/ro"
		chmod 0644 "$T/ro/old.db"
	else
		skip_part "the reader without write access (runs as root" \
			"without setpriv, or nobody cannot reach $T)"
	fi
else
	chmod 0444 "$T/ro/old.db"
fi
if [ "${#as_reader[@]}" -gt 0 ] || [ "$(id -u)" != 0 ]; then
	run "${as_reader[@]}" "$BSTORE" --db "$T/ro/old.db" list
	expect_rc 1 "list of a version 1 archive nobody may write"
	expect_in "$T/err" "cannot open archive '$T/ro/old.db': it was made by an older bstore (schema version 1) and is upgraded to version 7 when first opened, which needs write access"
	expect_style "$T/err"
	cmp -s "$V1" "$T/ro/old.db" || fail "the unwritable archive changed"
	[ ! -e "$T/ro/old.db.v1.bak" ] || fail "a copy was made of an archive not upgraded"

fi

# What version 6 added: an archive without it is a version 5 archive;
# what version 5 added: without it too, a version 4 archive.
V7_OFF='DROP TABLE distributions;'
V6_OFF="$V7_OFF ALTER TABLE runs DROP COLUMN supplied;"
V5_OFF="$V6_OFF ALTER TABLE runs DROP COLUMN fsync; ALTER TABLE runs DROP COLUMN direct;"

# Version 2 to 3 adds the saved comparisons' two tables and nothing else:
# a version 3 archive without them is a version 2 archive; version 3 to 4
# adds run_history and runs.measure_key with its index.
run "$BSTORE" --db "$T/v2.db" ingest --tag raid=10 "$SAMPLES/bonnie++-1.03-emc-raid10-cache.txt"
expect_rc 0 "ingest into a new archive"
sqlite3 -batch "$T/v2.db" "DROP TABLE run_history; DROP INDEX runs_measure_key; ALTER TABLE runs DROP COLUMN measure_key; $V5_OFF DROP TABLE saved_report_args; DROP TABLE saved_reports; PRAGMA user_version = 2"
run "$BSTORE" --db "$T/v2.db" report --save first -o /dev/null raid=10
expect_rc 0 "report --save on a version 2 archive"
expect_in "$T/err" "bstore: upgraded archive '$T/v2.db' from schema version 2 to 7; the old file is kept as '$T/v2.db.v2.bak'"
expect_eq "$(sqlite3 -batch "$T/v2.db" "PRAGMA user_version; SELECT name FROM saved_reports; SELECT count(*) FROM tags" | tr '\n' ' ')" \
	"7 first 1 " "the upgraded archive"

# Version 3 to 4: the runs stored before get their measure_key, so that
# the table of a run whose CSV line was stored before the upgrade is
# found as the same measurement (docs/ingest.md).
run "$BSTORE" --db "$T/v3.db" ingest "$SAMPLES/bonnie++-2.00a-table-full-labvm.txt"
expect_rc 0 "ingest into a new archive"
sqlite3 -batch "$T/v3.db" "DROP TABLE run_history; DROP INDEX runs_measure_key; ALTER TABLE runs DROP COLUMN measure_key; $V5_OFF PRAGMA user_version = 3"
grep -v '^[0-9]' "$SAMPLES/bonnie++-2.00a-table-full-labvm.txt" >"$T/table.txt"
run "$BSTORE" --db "$T/v3.db" ingest "$T/table.txt"
expect_rc 0 "ingest a table after the upgrade"
expect_in "$T/err" "bstore: upgraded archive '$T/v3.db' from schema version 3 to 7; the old file is kept as '$T/v3.db.v3.bak'"
expect_in "$T/out" "0 runs stored, 1 duplicate"
expect_eq "$(sqlite3 -batch "$T/v3.db" "PRAGMA user_version; SELECT count(*) FROM runs; SELECT count(*) FROM runs WHERE measure_key IS NULL; SELECT count(*) FROM run_history" | tr '\n' ' ')" \
	"7 1 0 0 " "the archive upgraded from version 3"

# Version 4 to 5: bstore's engines recorded O_DIRECT and fsync as tags
# (run.direct, run.fsync, zcav.direct); the upgrade makes them the runs'
# direct and fsync and zcav's direct parameter, which decide a test's
# identity (core/identity.h). Their tags stay.
run "$BSTORE" --db "$T/v4.db" ingest -t run.direct=1 -t run.fsync=1 "$SAMPLES/bonnie++-2.00a-table-full-labvm.txt"
expect_rc 0 "ingest into a new archive"
run "$BSTORE" --db "$T/v4.db" ingest -t zcav.direct=1 "$SAMPLES/zcav-2.00a-read-labvm.txt"
expect_rc 0 "ingest a zcav run into a new archive"
sqlite3 -batch "$T/v4.db" "DELETE FROM run_params WHERE key = 'direct'; UPDATE runs SET direct = NULL, fsync = NULL; $V5_OFF PRAGMA user_version = 4"
run "$BSTORE" --db "$T/v4.db" list
expect_rc 0 "list of a version 4 archive"
expect_in "$T/err" "bstore: upgraded archive '$T/v4.db' from schema version 4 to 7; the old file is kept as '$T/v4.db.v4.bak'"
expect_eq "$(sqlite3 -batch "$T/v4.db" "PRAGMA user_version; SELECT direct, fsync FROM runs WHERE id = 1; SELECT value FROM run_params WHERE run_id = 2 AND key = 'direct'; SELECT count(*) FROM tags WHERE key IN ('run.direct', 'run.fsync', 'zcav.direct')" | tr '\n' ' ')" \
	"7 1|1 1 3 " "the archive upgraded from version 4"
run "$BSTORE" --db "$T/v4.db" show 1
expect_in "$T/out" "O_DIRECT"

# Version 5 to 6: runs.supplied, the parameters the user supplied (ingest
# --param, bstore set); every value stored before is the tool's, and the
# upgraded archive takes supplied ones.
run "$BSTORE" --db "$T/v5.db" ingest -m box "$SRC/tests/data/identity/fio-3.33-rr4k-normal.out"
expect_rc 0 "ingest into a new archive"
sqlite3 -batch "$T/v5.db" "$V6_OFF PRAGMA user_version = 5"
run "$BSTORE" --db "$T/v5.db" show 1
expect_rc 0 "show of a version 5 archive"
expect_in "$T/err" "bstore: upgraded archive '$T/v5.db' from schema version 5 to 7; the old file is kept as '$T/v5.db.v5.bak'"
expect_in "$T/out" "O_DIRECT               unknown"
expect_in "$T/out" "I/O depth              16"
expect_not_in "$T/out" "(supplied)"
run "$BSTORE" --db "$T/v5.db" set 1 direct=1
expect_rc 0 "set a parameter in the upgraded archive"
expect_eq "$(sqlite3 -batch "$T/v5.db" "PRAGMA user_version; SELECT supplied FROM runs WHERE id = 1; SELECT value FROM run_params WHERE run_id = 1 AND key = 'direct'" | tr '\n' ' ')" \
	"7 direct 1 " "the archive upgraded from version 5"

# Version 6 to 7: version 6 kept a histogram as series rows, one a bin
# (x the bin's value, y its count). The version 6 archive is made from a
# version 7 one: its distributions written back as those rows (from the
# JSON export), the table dropped. The upgrade packs them again: the
# export after it is the export before, byte for byte, and no histogram
# is left in series.
D=$SRC/tests/data/dist
run "$BSTORE" --db "$T/v6.db" ingest -m box "$D/randread-jsonplus.json" "$D/randrw-plist.json" "$SAMPLES/sysbench-1.0.20-rndrd-histogram.txt"
expect_rc 0 "ingest histograms into a new archive"
"$BSTORE" --db "$T/v6.db" export --format json >"$T/v7.json"
v6_hist_rows "$T/v7.json" >"$T/v6.sql"
bins=$(wc -l <"$T/v6.sql")
[ "$bins" -gt 500 ] || fail "only $bins bins to write back"
sqlite3 -batch "$T/v6.db" "BEGIN; $(cat "$T/v6.sql") $V7_OFF PRAGMA user_version = 6; COMMIT;"
expect_eq "$(sqlite3 -batch "$T/v6.db" "SELECT count(*) FROM series")" "$bins" "the version 6 archive's bins"
run "$BSTORE" --db "$T/v6.db" list
expect_rc 0 "list of a version 6 archive"
expect_in "$T/err" "bstore: upgraded archive '$T/v6.db' from schema version 6 to 7; the old file is kept as '$T/v6.db.v6.bak'"
expect_eq "$(sqlite3 -batch "$T/v6.db" "PRAGMA user_version; SELECT count(*) FROM series; SELECT group_concat(metric || ':' || scheme || ':' || nbins, ',') FROM (SELECT * FROM distributions ORDER BY run_id, metric)" | tr '\n' ' ')" \
	"7 0 read_clat_hist:fio:80,read_lat_hist:fio:90,read_slat_hist:fio:100,read_clat_hist:fio:74,write_clat_hist:fio:75,latency_histogram:milli:306 " \
	"the archive upgraded from version 6"
"$BSTORE" --db "$T/v6.db" export --format json >"$T/v6.json"
cmp -s "$T/v7.json" "$T/v6.json" || fail "the upgrade changed the export: $(diff "$T/v7.json" "$T/v6.json" | head -c 400)"
finish
