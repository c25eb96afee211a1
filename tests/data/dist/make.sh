#!/usr/bin/env bash
# tests/data/dist/make.sh - how the fio captures of this directory were
# made: Debian's fio 3.33 (scripts/deps.sh fio), tiny jobs on a tmpfs
# file, run from this directory. Their numbers are of that one machine;
# the tests read them, they do not re-run fio.
#
#   randread-jsonplus.json  json+, libaio at iodepth 4, slat, clat and lat
#                           percentiles on: bins for all three
#   randrw-plist.json       json+, randrw, --percentile_list=50:99:99.5:
#                           fio printed no p90, p99.9 or p99.99
#   logs.json, logs_*.1.log per-I/O lat, clat, slat, bw and iops logs of
#                           a rate-limited randread job (no offset column)
#   avg.json, avg_*.2.log   the second job of a document: logs averaged
#                           over 20 ms windows (--log_avg_msec) with the
#                           offset column (--log_offset)
set -euo pipefail
f=/dev/shm/bstore-dist-$$
trap 'rm -f "$f"' EXIT
fio --name=rr --filename="$f" --size=4M --rw=randread --bs=4k \
	--ioengine=libaio --iodepth=4 --number_ios=500 \
	--lat_percentiles=1 --slat_percentiles=1 \
	--output-format=json+ --output=randread-jsonplus.json
fio --name=mix --filename="$f" --size=4M --rw=randrw --bs=4k \
	--ioengine=psync --number_ios=600 --percentile_list=50:99:99.5 \
	--output-format=json+ --output=randrw-plist.json
fio --name=logs --filename="$f" --size=4M --rw=randread --bs=4k \
	--ioengine=libaio --iodepth=2 --rate_iops=1500 --runtime=400ms \
	--time_based --write_lat_log=logs --write_bw_log=logs \
	--write_iops_log=logs --output-format=json --output=logs.json
# Two jobs: the second one's logs are numbered 2.
fio --filename="$f" --size=4M --bs=4k --ioengine=psync \
	--output-format=json --output=avg.json \
	--name=first --rw=read --number_ios=50 \
	--name=avg --rw=randwrite --rate_iops=2000 --runtime=400ms \
	--time_based --write_lat_log=avg --write_bw_log=avg \
	--write_iops_log=avg --log_avg_msec=20 --log_offset=1

# sysbench 1.0.20 (Debian's, scripts/deps.sh sysbench) fileio runs with
# --histogram=on, on the ext4 disk of the machine (not tmpfs: latencies
# there print as 0.00 ms), each with the percentile it was asked for.
# Prepared once with --file-total-size=32M --file-num=2 in a scratch
# directory, then (each --time=2):
#   sysbench-1.0.20-fileio-rndrd-direct-histogram.txt
#       --file-test-mode=rndrd --file-extra-flags=direct
#   sysbench-1.0.20-fileio-rndrw-direct-p99-histogram.txt
#       --file-test-mode=rndrw --file-extra-flags=direct --percentile=99
#   sysbench-1.0.20-fileio-seqwr-fsync-p50-histogram.txt
#       --file-test-mode=seqwr --file-fsync-all=on --percentile=50
#   sysbench-1.0.20-fileio-rndwr-p90-histogram.txt
#       --file-test-mode=rndwr --file-fsync-freq=1 --percentile=90

# "Two arrays": the same rate-limited 4k randread job (libaio, iodepth 4,
# 1000 IOPS for 700 ms, json+) three times on a tmpfs file (/dev/shm,
# buffered: tmpfs has no O_DIRECT) and three times on the ext4 disk with
# O_DIRECT; the first run of each also wrote per-I/O lat, bw and iops
# logs (arrays-shm_*.1.log, arrays-disk_*.1.log; the clat and slat logs
# were not kept). tests/cli/trend_p99.sh, report_dist.sh and site_logs.sh
# read them.
arrays() { # CFG FILE DIRECT
	local n logs
	for n in 1 2 3; do
		logs=()
		if [ "$n" = 1 ]; then
			logs=(--write_lat_log="arrays-$1" --write_bw_log="arrays-$1"
				--write_iops_log="arrays-$1")
		fi
		fio --name="arrays-$1" --filename="$2" --size=8M --rw=randread \
			--bs=4k --ioengine=libaio --iodepth=4 --direct="$3" \
			--rate_iops=1000 --runtime=700ms --time_based "${logs[@]}" \
			--output-format=json+ --output="arrays-$1-$n.json"
		rm -f "$2"
	done
	rm -f "arrays-$1"_clat.1.log "arrays-$1"_slat.1.log
}
arrays shm "$f" 0
arrays disk "./bstore-dist-$$" 1
