#!/usr/bin/env bash
# bench/concurrency.sh - many bstore processes on one archive at once, as a
# team's cron jobs would: each round, ingest (two writers), merge, tag,
# export and site run together on the same SQLite archive. After every
# round the archive must hold every run each writer stored (nothing lost,
# nothing twice), pass SQLite's integrity check, and no command may fail
# with a lock error. Prints one line per round and the totals.
#
#   bench/concurrency.sh [BSTORE [ROUNDS [LINES]]]
#       (default: build/release/cli/bstore, 10 rounds, 300 lines a file)
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
bench_bstore "${1:-}"
rounds=${2:-10}
lines=${3:-300}
bstore=$(realpath "$bstore")
command -v sqlite3 >/dev/null || scripts/deps.sh sqlite3
work=$(mktemp -d "${TMPDIR:-/tmp}/bstore-conc.XXXXXX")
trap 'rm -rf "$work"' EXIT
db=$work/team.db
other=$work/other.db
want=0 lockerr=0 failed=0

for r in $(seq 1 "$rounds"); do
	# Each round's inputs are new runs (another seed), so every stored
	# run is one the archive did not hold.
	bench/gen-lines "$lines" $((r * 3)) 20 >"$work/a.csv"
	bench/gen-lines "$lines" $((r * 3 + 1)) 20 >"$work/b.csv"
	bench/gen-lines "$lines" $((r * 3 + 2)) 20 >"$work/c.csv"
	rm -f "$other" "$other-wal" "$other-shm"
	"$bstore" --db "$other" -q ingest "$work/c.csv" >/dev/null 2>&1
	pids=()
	"$bstore" --db "$db" -q ingest "$work/a.csv" >"$work/o1" 2>&1 & pids+=($!)
	"$bstore" --db "$db" -q ingest "$work/b.csv" >"$work/o2" 2>&1 & pids+=($!)
	"$bstore" --db "$db" -q merge "$other" >"$work/o3" 2>&1 & pids+=($!)
	( [ -s "$db" ] && "$bstore" --db "$db" tag last round="$r" ) \
		>"$work/o4" 2>&1 & pids+=($!)
	( [ -s "$db" ] && "$bstore" --db "$db" export --format json \
		>"$work/export.json" ) >"$work/o5" 2>&1 & pids+=($!)
	( [ -s "$db" ] && "$bstore" --db "$db" site -o "$work/site" ) \
		>"$work/o6" 2>&1 & pids+=($!)
	for i in "${!pids[@]}"; do
		if ! wait "${pids[$i]}"; then
			# tag/export/site before the first run is stored: no
			# archive yet is not a failure of the archive.
			if [ "$r" -gt 1 ] || [ "$i" -lt 3 ]; then
				failed=$((failed + 1))
				echo "round $r: command $((i + 1)) failed:" >&2
				head -3 "$work/o$((i + 1))" >&2
			fi
		fi
	done
	want=$((want + 3 * lines))
	lockerr=$((lockerr + $(cat "$work"/o? | grep -c -i 'locked\|busy')))
	have=$(sqlite3 "$db" 'select count(*) from runs')
	twice=$(sqlite3 "$db" 'select count(*) - count(distinct sha256) from runs')
	ok=$(sqlite3 "$db" 'pragma integrity_check')
	echo "round $r: $have runs (want $want), $twice stored twice, integrity $ok"
	[ "$have" = "$want" ] && [ "$twice" = 0 ] && [ "$ok" = ok ] ||
		failed=$((failed + 1))
done
echo "$rounds rounds, $want runs: $failed failures, $lockerr lock errors"
[ "$failed" = 0 ] && [ "$lockerr" = 0 ]
