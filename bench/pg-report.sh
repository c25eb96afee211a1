#!/usr/bin/env bash
# bench/pg-report.sh - one HTML report of 100,000 runs (bench/gen-lines
# 100000 42, the ingest benchmark's lines) read from PostgreSQL against the
# same report read from SQLite, alternating, five times each, in one run.
# The PostgreSQL archive is a scratch cluster (tests/pg/cluster.sh, unix
# socket). Prints the medians, their ratio (goal: PostgreSQL <= 1.5x
# SQLite), peak memory, and whether the two reports are the same bytes.
#
#   bench/pg-report.sh [BSTORE [LINES]]
#       (default: build/release/cli/bstore, 100000 lines)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_bstore "${1:-}"
lines=${2:-100000}
bench_lines "$lines"
bench_pg
pg="postgresql:///bench?host=$PG_DIR&user=postgres"
lite=$work/b.db

echo "bstore: $("$bstore" --version); PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}'); $(nproc) cores"
"$bstore" --db "$lite" --quiet ingest "$file"
"$bstore" --db "$pg" --quiet ingest "$file"
# The server's statistics, as a team's autovacuum would have them.
"$PG_BIN/psql" -X -q -h "$PG_DIR" -U postgres -d bench -c 'VACUUM ANALYZE'
echo "ingested $("$bstore" --db "$lite" list all | tail -n +2 | wc -l) runs into SQLite, $("$bstore" --db "$pg" list all | tail -n +2 | wc -l) into PostgreSQL, from $file"

: >"$work/p"
: >"$work/s"
for _ in 1 2 3 4 5; do
	measure "$bstore" --db "$pg" report -o "$work/pg.html" >>"$work/p"
	measure "$bstore" --db "$lite" report -o "$work/lite.html" >>"$work/s"
done
pt=$(secs "$work/p")
st=$(secs "$work/s")
pm=$(peak "$work/p")
sm=$(peak "$work/s")
printf 'HTML report of %d runs: from PostgreSQL %.2f s, from SQLite %.2f s, ratio %.2fx (goal <= 1.5x)\n' \
	"$lines" "$pt" "$st" "$(echo "$pt $st" | awk '{print $1 / $2}')"
printf 'peak RSS: from PostgreSQL %s MiB, from SQLite %s MiB\n' \
	"$(echo "$pm" | mib)" "$(echo "$sm" | mib)"
if cmp -s "$work/pg.html" "$work/lite.html"; then
	echo "the two reports are the same $(wc -c <"$work/pg.html") bytes"
else
	echo "the two reports differ: $(wc -c <"$work/pg.html") and $(wc -c <"$work/lite.html") bytes"
fi
echo "    PostgreSQL runs (s, KiB): $(tr '\n' ' ' <"$work/p")"
echo "    SQLite runs (s, KiB): $(tr '\n' ' ' <"$work/s")"
