#!/usr/bin/env bash
# bench/dist.sh - what fio's distributions cost (issue 31): the bytes a
# json+ run adds to an archive, and the ingest time of a 1,000,000-line
# lat log against sqlite3's .import of the same file.
#
# 1. Eight fio 3.33 jobs on a tmpfs file (randread, randwrite, randrw,
#    psync and libaio, iodepth 1 to 16), each run twice: --output-format
#    json and json+. Each set is ingested into an archive of its own
#    (VACUUMed); per run: the archive's bytes over the json one's (the
#    raw json+ text and the bins), and the bins' own bytes: the pages
#    and row payload of table distributions (schema version 7, SQLite's
#    dbstat; the file grows by whole 8 KiB pages), against the same bins
#    as version 6's series rows, one a bin (written into series of a copy
#    without distributions, VACUUMed). Goal: <= 8 KiB a run.
# 2. A randread job of 1,000,000 I/Os with --write_lat_log: three times
#    each, alternating, bstore ingest of its JSON and lat log (the log
#    attached to the run) and sqlite3 .import --csv of the log into a
#    5-column table. Goal: bstore <= 2.0x sqlite3.
#
#   bench/dist.sh [BSTORE]     (default: build/release/cli/bstore)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_bstore "${1:-}"
bstore=$(realpath "$bstore")
command -v fio >/dev/null || scripts/deps.sh fio
command -v sqlite3 >/dev/null || scripts/deps.sh sqlite3
command -v jq >/dev/null || scripts/deps.sh jq
work=$(mktemp -d "${TMPDIR:-/tmp}/bstore-dist.XXXXXX")
f=/dev/shm/bstore-dist-bench-$$
trap 'rm -rf "$work" "$f"' EXIT

jobs=(
	"--rw=randread --ioengine=psync"
	"--rw=randread --ioengine=libaio --iodepth=4"
	"--rw=randread --ioengine=libaio --iodepth=16"
	"--rw=randwrite --ioengine=psync"
	"--rw=randwrite --ioengine=libaio --iodepth=8"
	"--rw=randrw --ioengine=psync"
	"--rw=randrw --ioengine=libaio --iodepth=4"
	"--rw=read --ioengine=psync --bs=64k"
)
i=0
for j in "${jobs[@]}"; do
	i=$((i + 1))
	for fmt in json json+; do
		# shellcheck disable=SC2086 # j is a list of options
		fio --name="j$i" --filename="$f" --size=32M --bs=4k $j \
			--runtime=1 --time_based --output-format="$fmt" \
			--output="$work/$fmt-$i.json" >/dev/null
	done
done
size() { stat -c %s "$1"; }
for fmt in json json+; do
	"$bstore" --db "$work/$fmt.db" --quiet ingest -m bench \
		"$work/$fmt"-*.json
	sqlite3 "$work/$fmt.db" 'VACUUM'
done
cp "$work/json+.db" "$work/nobins.db"
sqlite3 "$work/nobins.db" "DELETE FROM distributions; VACUUM"
bins=$(sqlite3 "$work/json+.db" "SELECT sum(nbins) FROM distributions")
blob=$(sqlite3 "$work/json+.db" "SELECT sum(length(bins)) FROM distributions")
# Version 6's layout of the same bins: a series row each (the export's
# points), in the archive without distributions.
cp "$work/nobins.db" "$work/v6.db"
"$bstore" --db "$work/json+.db" export --format json | jq -r '.id as $id |
	(.series // {}) | to_entries[] | select(.key | endswith("_hist")) |
	.key as $m | .value | to_entries[] |
	"INSERT INTO series VALUES (\($id), '\''\($m)'\'', \(.key), '\''ns'\'', \(.value.ns), \(.value.ios), NULL);"' \
	>"$work/v6.sql"
{ echo "BEGIN;"; cat "$work/v6.sql"; echo "COMMIT; VACUUM;"; } |
	sqlite3 "$work/v6.db"
n=${#jobs[@]}
echo "json+ runs: $n, bins stored: $bins ($((bins / n)) a run), packed in $blob bytes"
awk -v a="$(size "$work/json+.db")" -v b="$(size "$work/json.db")" \
	-v n="$n" 'BEGIN {
	printf "archive bytes a run over json (the raw json+ text and the bins): %.0f (%.1f KiB)\n",
		(a - b) / n, (a - b) / n / 1024 }'
# The file sizes move by whole pages (8 KiB): the tables' own bytes, by
# SQLite's dbstat (pages and the rows' payload).
stat_of() { sqlite3 "$1" "SELECT sum(pgsize) || ' ' || sum(payload) FROM dbstat WHERE name = '$2'"; }
read -r dp dl <<<"$(stat_of "$work/json+.db" distributions)"
read -r sp sl <<<"$(stat_of "$work/v6.db" series)"
awk -v dp="$dp" -v dl="$dl" -v sp="$sp" -v sl="$sl" -v n="$n" 'BEGIN {
	printf "table distributions: %.0f bytes of pages (%.1f KiB), %.0f of rows a run; goal <= 8 KiB\n",
		dp / n, dp / n / 1024, dl / n
	printf "version 6 series rows of the same bins: %.0f bytes of pages (%.1f KiB), %.0f of rows a run\n",
		sp / n, sp / n / 1024, sl / n }'

# 2. The 1,000,000-line lat log.
(cd "$work" && fio --name=big --filename="$f" --size=64M --bs=4k \
	--rw=randread --ioengine=psync --io_size=4000000k \
	--write_lat_log=big --output-format=json --output=big.json >/dev/null)
log=$work/big_lat.1.log
echo "lat log: $(wc -l <"$log") lines, $(size "$log") bytes"
: >"$work/b"
: >"$work/s"
for r in 1 2 3; do
	rm -f "$work/b.db"* "$work/s.db"*
	measure "$bstore" --db "$work/b.db" --quiet ingest -m bench \
		"$work/big.json" "$log" >>"$work/b"
	measure sqlite3 "$work/s.db" \
		"CREATE TABLE t(msec, value, ddir, bs, prio);" \
		".import --csv $log t" >>"$work/s"
done
pts=$(sqlite3 "$work/b.db" "SELECT count(*) FROM series WHERE metric = 'read_lat_log'")
echo "stored points: $pts"
b=$(secs "$work/b")
s=$(secs "$work/s")
awk -v b="$b" -v s="$s" -v m="$(peak "$work/b")" 'BEGIN {
	printf "bstore ingest %.2f s, sqlite3 .import %.2f s: %.2fx (goal <= 2.0x); bstore peak RSS %.1f MiB\n",
		b, s, b / s, m / 1024 }'
