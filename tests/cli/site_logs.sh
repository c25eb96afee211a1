#!/usr/bin/env bash
# tests/cli/site_logs.sh - a fio run's page (bstore site) draws its logs
# over the run: real fio 3.33 per-I/O lat, bw and iops logs of the ext4
# disk (tests/data/dist/arrays-disk_*.1.log) and the averaged ones of
# avg_*.2.log (--log_avg_msec 20). The window table's numbers (each of
# 16 windows' IOPS, I/Os of the lat log and their nearest-rank p50, p90
# and max) are computed here with awk from the log files themselves;
# the heatmap's cells hold every I/O of the lat log; a per-I/O bw log
# draws no bandwidth (it is no throughput), an averaged one does.
set -euo pipefail
. "$SRC/tests/lib.sh"
need python3

D=$SRC/tests/data/dist
cd "$D"
run "$BSTORE" --quiet ingest -m box arrays-disk-1.json arrays-disk_lat.1.log \
	arrays-disk_bw.1.log arrays-disk_iops.1.log
expect_rc 0 "ingest the disk run and its logs"
run "$BSTORE" --quiet ingest -m box avg.json avg_lat.2.log avg_bw.2.log \
	avg_iops.2.log
expect_rc 0 "ingest the averaged logs"
run "$BSTORE" site -o "$T/site"
expect_rc 0 "site"
page() { ls "$T"/site/run/"$1"-*.html; }

# The table rows as "from|IO/s|[MiB/s|]I/Os|p50|p90|max" lines.
rows() {
	sed -n '/<section id="logs">/,/<\/section>/p' "$1" |
		grep '^<tr><td>' | sed -e 's/<\/td><td>/|/g' \
		-e 's/^<tr><td>//' -e 's/<\/td><\/tr>$//'
}
# The same from the logs: 16 windows from 0 to the last entry's time.
want_rows() { # LAT_LOG IOPS_LOG
	python3 - "$1" "$2" <<'PY'
import math, sys
W = 16
def read(path):
    return [(int(l.split(",")[0]) / 1000, int(l.split(",")[1]))
            for l in open(path) if l.strip()]
lat, io = read(sys.argv[1]), read(sys.argv[2])
end = max(t for t, _ in lat + io)
def win(t):
    return min(int(t / end * W), W - 1)
def fmt(us):
    return "%.3g ms" % (us / 1000) if us >= 1000 else "%.3g us" % us
def rank(a, p):
    return a[max(math.ceil(p / 100 * len(a)), 1) - 1]
for k in range(W):
    n = sum(1 for t, _ in io if win(t) == k)
    a = sorted(v / 1000 for t, v in lat if win(t) == k)
    cells = ["%.3f" % (end * k / W), "%.0f" % (n / (end / W)), str(len(a))]
    cells += [fmt(rank(a, 50)), fmt(rank(a, 90)), fmt(a[-1])] if a else \
        ["-", "-", "-"]
    print("|".join(cells))
PY
}
rows "$(page 1)" >"$T/got"
want_rows arrays-disk_lat.1.log arrays-disk_iops.1.log >"$T/want"
expect_eq "$(wc -l <"$T/got")" 16 "16 windows"
expect_eq "$(cat "$T/got")" "$(cat "$T/want")" \
	"each window's IOPS, I/Os and latencies are the logs'"
# Every I/O of the lat log is in one heatmap cell.
cells=$(grep -o '<title>[0-9]* I/Os</title>' "$(page 1)" |
	grep -o '[0-9]*' | awk '{ s += $1 } END { print s }')
expect_eq "$cells" "$(wc -l <arrays-disk_lat.1.log)" "heatmap cells: every I/O"
expect_in "$(page 1)" "no throughput to draw"
expect_in "$(page 1)" "Read IOPS over the run, IO/s"
if grep -q "bandwidth over the run" "$(page 1)"; then
	fail "a per-I/O bw log drawn as throughput"
fi
# Averaged logs (job 2 of avg.json, a randwrite): the bandwidth is drawn,
# window 6's MiB/s the mean of its entries / 1024.
p=$(page 3)
expect_in "$p" "Write bandwidth over the run, MiB/s"
want=$(python3 - <<'PY'
def read(path):
    return [(int(l.split(",")[0]) / 1000, int(l.split(",")[1]))
            for l in open(path) if l.strip()]
end = max(t for t, _ in read("avg_iops.2.log") + read("avg_lat.2.log"))
v = [b for t, b in read("avg_bw.2.log") if min(int(t / end * 16), 15) == 6]
print("%.2f" % (sum(v) / len(v) / 1024))
PY
)
expect_eq "$(rows "$p" | sed -n 7p | cut -d'|' -f3)" "$want" \
	"window 7's MiB/s is the bw log's mean"
finish
