#!/usr/bin/env bash
# tests/data/sweep/make.sh - how the sweeps beside it were made (Debian
# 12, fio 3.33, sysbench 1.0.20; DISK a directory on ext4): fio randread
# of 4 KiB blocks at I/O depths 1, 4, 16 and 32, twice each, and sysbench
# rndrd with 1, 2 and 4 threads, twice each. tests/cli/sweep.sh reads
# them. Not run by any test.
set -eu
: "${DISK:?}"
out=$(cd "$(dirname "$0")" && pwd)
for rep in 1 2; do
	for d in 1 4 16 32; do
		fio --name=rr-qd$d --filename="$DISK/fio.dat" --size=64M \
			--rw=randread --bs=4k --direct=1 --ioengine=libaio \
			--iodepth=$d --runtime=2 --time_based \
			--output-format=json
	done
done >"$out/fio-3.33-iodepth-sweep.json"
cd "$DISK"
sysbench fileio --file-total-size=64M --file-num=4 prepare >/dev/null
for rep in 1 2; do
	for t in 1 2 4; do
		sysbench fileio --file-total-size=64M --file-num=4 \
			--file-test-mode=rndrd --threads=$t --time=2 run
	done
done >"$out/sysbench-1.0.20-threads-sweep.txt"
sysbench fileio --file-total-size=64M --file-num=4 cleanup >/dev/null
