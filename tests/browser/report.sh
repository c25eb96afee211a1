#!/usr/bin/env bash
# tests/browser/report.sh [--screenshots DIR] - opens real reports in
# headless Chromium (Debian's chromium package) and checks that they load
# without console errors or requests, that their cells hold the published
# numbers, and that they fit a phone's width. With --screenshots, saves
# report.png and report-phone.png of the second page into DIR
# (docs/screenshots/ keeps them). BSTORE names the bstore to use (default
# build/dev/cli/bstore). Without chromium or python3 it says so and exits
# 77 (a skip, for ctest); scripts/deps.sh chromium python3 installs them.
set -euo pipefail
. "$(dirname "$0")/setup.sh"
ingest -t array=emc -t raid=10 -t cache=off samples/bonnie++-1.03-emc-raid10-nocache.txt
ingest -t array=emc -t raid=5 -t cache=off samples/bonnie++-1.03-emc-raid5-nocache.txt
ingest -t array=emc -t raid=10 -t cache=on samples/bonnie++-1.03-emc-raid10-cache.txt
ingest -t array=emc -t raid=5 -t cache=on samples/bonnie++-1.03-emc-raid5-cache.txt
ingest samples/bonnie++-1.03d-pasted-blog.txt samples/bonnie++-2.00a-local-full.txt

# The published comparison: RAID10 against the RAID5 baseline, in its
# K/sec (--units kib).
"$bstore" report --units kib --baseline 2 -o "$work/seed.html" \
	array=emc,raid=10,cache=off array=emc,raid=5,cache=off
cat >"$work/seed.json" <<'JSON'
{
  "[1] raid=10 | putc": "12647",
  "[1] raid=10 | put_block": "13414",
  "[1] raid=10 | getc": "33636",
  "[1] raid=10 | get_block": "146503",
  "[1] raid=10 | seq_stat": "too fast",
  "[2] raid=5 baseline | putc": "10956",
  "[2] raid=5 baseline | get_block": "158861",
  "diff [1] \u2212 [2] | putc": "1691",
  "diff [1] \u2212 [2] | put_block": "2643",
  "diff [1] \u2212 [2] | getc": "-533",
  "diff [1] \u2212 [2] | get_block": "-12358",
  "diff [1] \u2212 [2] | seq_stat": "",
  "ratio [1] \u00f7 [2] | putc": "1.15",
  "ratio [1] \u00f7 [2] | put_block": "1.25",
  "change [1] vs [2] | putc": "+15.4%",
  "change [1] vs [2] | putc_cpu": "+20.0%"
}
JSON
python3 tests/browser/cdp_check.py "$browser" "$work/seed.html" "$work/seed.json"

# A factor comparison: RAID10 against RAID5 once per cache setting, each
# block against its own baseline (the published diffs of both seeds).
"$bstore" report --units kib --by raid --within cache --baseline-value 5 -o "$work/factor.html" array=emc
cat >"$work/factor.json" <<'JSON'
{
  "[1] raid=10, cache=off | put_block": "13414",
  "[2] raid=5, cache=off baseline | put_block": "10771",
  "[3] raid=10, cache=on | put_block": "73130",
  "[4] raid=5, cache=on baseline | put_block": "103440",
  "diff [1] \u2212 [2] | put_block": "2643",
  "diff [3] \u2212 [4] | put_block": "-30310",
  "diff [3] \u2212 [4] | get_block": "-16494",
  "change [3] vs [4] | put_block": "-29.3%"
}
JSON
python3 tests/browser/cdp_check.py "$browser" "$work/factor.html" "$work/factor.json"

# Groups of several runs, a 2.00a run, notes: the page of the screenshot.
"$bstore" report --title 'EMC CX500 write cache off vs on, a blog server, a 2.00a box' \
	-o "$work/groups.html" array=emc,cache=off array=emc,cache=on \
	machine=server_name machine=labvm01
cat >"$work/groups.json" <<'JSON'
{
  "[1] array=emc, cache=off baseline | put_block": "11.8",
  "[2] array=emc, cache=on | put_block": "86.2",
  "[3] machine=server_name | put_block": "52.8",
  "[4] machine=labvm01 | put_block": "290.6",
  "[4] machine=labvm01 | put_block_latency": "8122us",
  "[3] machine=server_name | putc": "not run",
  "diff [2] \u2212 [1] | put_block": "74.4",
  "ratio [4] \u00f7 [1] | put_block": "24.61"
}
JSON
python3 tests/browser/cdp_check.py "$browser" "$work/groups.html" "$work/groups.json" $shots

# The other tools, made by the real tools (tests/data/): a configuration
# against itself and against a different test.
ingest tests/data/sysbench-1.0.20-modes.txt tests/data/fio-3.33-patterns.txt \
	samples/zcav-2.00a-read-labvm.txt samples/zcav-2.00a-c2-labvm.txt \
	tests/data/zcav-2.00a-blocks.txt
first=$("$bstore" export --format json 'source=*sysbench-1.0.20-modes.txt' |
	sed -n '1s/^{"id":\([0-9]*\).*/\1/p')
ids() { # FROM TO: the ids of those runs, counted from the first
	if [ "$1" = "$2" ]; then
		echo "$((first + $1))"
	else
		echo "$((first + $1))-$((first + $2))"
	fi
}
"$bstore" report --title 'sysbench rndrw: runs 1-2, run 3, and seqrd' \
	-o "$work/sysbench.html" "$(ids 0 1)" "$(ids 2 2)" "$(ids 3 5)"
cat >"$work/sysbench.json" <<'JSON'
{
  "[1] $(ids 0 1) baseline | reads_per_s": "2505.68",
  "[3] $(ids 3 5) | reads_per_s": "75224.81",
  "diff [2] \u2212 [1] | reads_per_s": "-66.95"
}
JSON
sed -i "s/\$(ids 0 1)/$(ids 0 1)/; s/\$(ids 3 5)/$(ids 3 5)/" "$work/sysbench.json"
python3 tests/browser/cdp_check.py "$browser" "$work/sysbench.html" "$work/sysbench.json" $shots ${shots:+report-sysbench}
"$bstore" report --title 'fio randread: runs 1-2, run 3, and read' \
	-o "$work/fio.html" "$(ids 6 7)" "$(ids 8 8)" "$(ids 9 11)"
cat >"$work/fio.json" <<'JSON'
{
  "diff [2] \u2212 [1] | read_bw_kib_s": "7.2",
  "diff [3] \u2212 [1] | read_iops": "124397"
}
JSON
python3 tests/browser/cdp_check.py "$browser" "$work/fio.html" "$work/fio.json" $shots ${shots:+report-fio}
"$bstore" report --title 'zcav -b 16, -b 16 -c 2, and -b 8' -o "$work/zcav.html" \
	"$(ids 12 12)" "$(ids 13 13)" "$(ids 14 14)"
cat >"$work/zcav.json" <<'JSON'
{
  "diff [2] \u2212 [1] | read_mib_s": "0.57",
  "diff [3] \u2212 [1] | read_mib_s": "0"
}
JSON
python3 tests/browser/cdp_check.py "$browser" "$work/zcav.html" "$work/zcav.json" $shots ${shots:+report-zcav}
