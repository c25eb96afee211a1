#!/usr/bin/env bash
# bench/site.sh - bstore site of 10,000 runs (or N): the first build, a
# rebuild with nothing new, and a rebuild after 10 new runs.
#
#   Generates N bonnie++ 2.00a CSV lines (bench/gen-lines N 42: 200
#   machines), ingests them in 20 batches of N/20, each measured on
#   its own day and tagged raid= and array= (so machines, tags and tools
#   all have pages, and the machine pages trend charts), saves one
#   comparison, then times `bstore site -o DIR` three times: a new
#   directory, the same archive again, and after 10 more runs. Prints
#   each build's wall time, peak RSS and summary line, and the site's size:
#   files, bytes (and bytes a run), the largest page.
#
#   bench/site.sh [BSTORE [N]]   (default: build/dev/cli/bstore 10000;
#                                 the 100,000- and 1,000,000-run cases:
#                                 bench/site.sh build/release/cli/bstore 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
bstore=${1:-build/dev/cli/bstore}
n=${2:-10000}
batch=$((n / 20))
if [ ! -x "$bstore" ]; then
	echo "site.sh: no $bstore; build it first (cmake --build --preset dev)" >&2
	exit 1
fi
bench_lines "$n"
work=$(mktemp -d "${TMPDIR:-/tmp}/bstore-bench-site.XXXXXX")
trap 'rm -rf "$work"' EXIT
export BSTORE_DB=$work/b.db

echo "bstore: $("$bstore" --version); $(nproc) cores; load $(cut -d' ' -f1 /proc/loadavg)"
arrays=("EMC CX500" "Sun T3" ATA NetApp)
for i in $(seq 0 19); do
	sed -n "$((i * batch + 1)),$((i * batch + batch))p" "$file" |
		"$bstore" --quiet ingest --measured-at "$(date -u -d "2024-01-01 + $((i * 9)) days" +%F)" \
			--tag raid=$((i % 2 ? 5 : 10)) --tag "array=${arrays[i % 4]}" -
done
"$bstore" --quiet report --save raid10-vs-raid5 -o /dev/null raid=10 raid=5
echo "ingested $(sqlite3 "$BSTORE_DB" 'select count(*) from runs') runs"

# Prints the wall time, CPU time (user + system), peak RSS and summary
# line of one build. On a shared machine the wall time moves with the
# load; the CPU time much less.
build() {
	/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$bstore" site -o "$work/site" >"$work/out"
	read -r wall user sys rss <"$work/time"
	printf '%-27s %6.2f s wall, %5.2f s CPU, %5.1f MiB  %s\n' "$1" "$wall" \
		"$(echo "$user $sys" | awk '{print $1 + $2}')" \
		"$(echo "$rss" | awk '{print $1 / 1024}')" "$(cat "$work/out")"
}
build "first build:"
build "rebuild, nothing new:"
bench/gen-lines 10 4242 | "$bstore" --quiet ingest --measured-at 2024-07-01 --tag raid=10 -
build "rebuild after 10 new runs:"
runs=$(sqlite3 "$BSTORE_DB" 'select count(*) from runs')
bytes=$(find "$work/site" -type f -printf '%s\n' | awk '{s += $1} END {printf "%.0f", s}')
echo "site: $(find "$work/site" -type f | wc -l) files, $bytes bytes ($((bytes / runs)) a run;" \
	"$(du -sh "$work/site" | cut -f1) on disk)," \
	"index.html $(wc -c <"$work/site/index.html") bytes," \
	"largest page $(find "$work/site" -name '*.html' -printf '%s %p\n' | sort -n | tail -1 | sed "s|$work/site/||")"
