#!/bin/bash
# bench/repeats.sh - makes tests/data/repeats/: the same tiny bonnie++,
# fio and sysbench fileio run repeated on a tmpfs (/dev/shm) and on the
# disk, so that bench/changes.sh can draw its noise from how real repeated
# runs spread, and the tests have real series of one configuration.
#
#   bench/repeats.sh [N [LABEL]]   # N repeats of each (default 20)
#   OUT=DIR bench/repeats.sh ...   # into DIR (default tests/data/repeats)
#
# LABEL names the set in the files' names (NAME-WHERE-LABEL-xN): the
# files without a label were made while seven sessions shared this
# 2-core machine (load 15 to 28), those labelled "quiet" on the same
# machine with nothing else running (load under 0.1): README there.
#
# Needs Debian's bonnie++, fio and sysbench; run as root (bonnie++ -u).
# The captures are the tools' own output, byte for byte.
set -eu
cd "$(dirname "$0")/.."
n=${1:-20}
label=${2:+-$2}
mkdir -p "${OUT:-tests/data/repeats}"
out=$(cd "${OUT:-tests/data/repeats}" && pwd)
for where in shm disk; do
	case $where in
	shm) dir=/dev/shm/bstore-repeats ;;
	disk) dir=$PWD/build/repeats-disk ;;
	esac
	rm -rf "$dir"
	mkdir -p "$dir"
	# bonnie++: 64 MiB file with -r 32 (so it allows a file this small),
	# 1024 files; -x repeats it and prints one CSV line a run.
	bonnie++ -q -d "$dir" -s 64 -r 32 -n 1 -m "$where" -u root -x "$n" \
		>"$out/bonnie++-2.00a-$where$label-x$n.csv" 2>/dev/null
	# fio: one second of 4 KiB random reads and of 64 KiB sequential
	# writes on a 32 MiB file, each repeat a JSON document.
	for job in randread:4k seqwrite:64k; do
		rw=${job%%:*} bs=${job#*:}
		f=$out/fio-3.33-$rw-$where$label-x$n.json
		: >"$f"
		for _ in $(seq "$n"); do
			fio --name="$rw" --directory="$dir" --size=32M \
				--rw="${rw/seqwrite/write}" --bs="$bs" \
				--runtime=1 --time_based --ioengine=psync \
				--output-format=json >>"$f"
		done
	done
	# sysbench fileio: 4 files of 8 MiB, one second of rndrw and seqrd.
	(
		cd "$dir"
		sysbench fileio --file-num=4 --file-total-size=32M prepare \
			>/dev/null
		for mode in rndrw seqrd; do
			f=$out/sysbench-1.0.20-$mode-$where$label-x$n.txt
			: >"$f"
			for _ in $(seq "$n"); do
				sysbench fileio --file-num=4 --file-total-size=32M \
					--file-test-mode=$mode --time=1 run >>"$f"
			done
		done
		sysbench fileio --file-num=4 --file-total-size=32M cleanup \
			>/dev/null
	)
	rm -rf "$dir"
done
