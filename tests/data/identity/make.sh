#!/usr/bin/env bash
# tests/data/identity/make.sh - how the captures beside it were made, on
# one Debian 12 machine with Debian's bonnie++ 2.00a, fio 3.33, sysbench
# 1.0.20 and coreutils' dd, and bstore's own engines (BSTORE: the built
# bstore). DISK is a directory on a disk (ext4), SHM one on tmpfs. The
# captures are what tests/cli/identity.sh compares: the same fio job in
# three output formats, bonnie++ on a disk against tmpfs, dd against
# bonnie++, bonnie++ -D against bstore run -D, zcav against bstore zcav,
# sysbench against bstore fileio (the test runs bstore's engines itself).
# Not run by any test.
set -eu
: "${BSTORE:?}" "${DISK:?}" "${SHM:?}"
out=$(cd "$(dirname "$0")" && pwd)
job=(--name=rr4k --filename="$DISK/fio.dat" --size=64M --rw=randread
	--bs=4k --iodepth=16 --direct=1 --ioengine=libaio --runtime=2
	--time_based)
for f in json normal terse; do
	fio "${job[@]}" --output-format=$f >"$out/fio-3.33-rr4k-$f.out"
done
# (nice -n -19: the machine was shared; tmpfs is CPU-bound.)
# bonnie++: 3 runs each of 1 GiB block tests (-f: no per-char tests,
# -n 0: no file tests) on the disk and on tmpfs; -q: the CSV lines.
nice -n -19 bonnie++ -q -d "$DISK" -s 1024 -r 512 -f -n 0 -x 3 -u root -m box \
	>"$out/bonnie++-2.00a-disk-x3.csv"
nice -n -19 bonnie++ -q -d "$SHM" -s 1024 -r 512 -f -n 0 -x 3 -u root -m box \
	>"$out/bonnie++-2.00a-tmpfs-x3.csv"
# bonnie++ -D (O_DIRECT, which its CSV line does not record); the test
# runs bstore run -D itself, stored as it measures.
nice -n -19 bonnie++ -q -D -d "$DISK" -s 1024 -r 512 -f -n 0 -u root -m box \
	>"$out/bonnie++-2.00a-disk-D.csv"
# dd: 256 MiB of 1 MiB blocks, with its command line.
{
	echo "\$ dd if=/dev/zero of=$DISK/dd.dat bs=1M count=256 conv=fdatasync"
	dd if=/dev/zero of="$DISK/dd.dat" bs=1M count=256 conv=fdatasync 2>&1
} >"$out/dd-coreutils-9.1-disk.txt"
# zcav reads through the page cache; bstore zcav with O_DIRECT.
# (1.5 GiB, out of the page cache first: blocks of 512 MiB take longer
# than zcav's 0.5 s floor on this disk.)
head -c $((1536 << 20)) /dev/urandom >"$DISK/zcav.dat"
sync && echo 3 >/proc/sys/vm/drop_caches
zcav -b 512 "$DISK/zcav.dat" >"$out/zcav-2.00a-file.txt" 2>&1
# sysbench fileio against bstore fileio, one configuration.
(cd "$DISK" && sysbench fileio --file-total-size=64M --file-num=4 prepare >/dev/null &&
	sysbench fileio --file-total-size=64M --file-num=4 \
		--file-test-mode=rndrw --time=2 run) \
	>"$out/sysbench-1.0.20-rndrw.txt"
(cd "$DISK" && sysbench fileio --file-total-size=64M --file-num=4 cleanup >/dev/null)
# bstore's engines, stored as they measure (O_DIRECT and all), then
# exported: bstore run -D, bstore zcav (O_DIRECT) on the zcav file,
# bstore fileio of sysbench's configuration.
db=$(mktemp -d)/engines.db
mkdir -p "$DISK/eng"
nice -n -19 "$BSTORE" --db "$db" run -D -d "$DISK/eng" -s 1024 -r 512 -f -n 0 -m box
"$BSTORE" --db "$db" zcav -b 512 "$DISK/zcav.dat"
(cd "$DISK/eng" && "$BSTORE" --db "$db" fileio --file-total-size=64M \
	--file-num=4 --file-test-mode=rndrw --time=2)
"$BSTORE" --db "$db" export --format json >"$out/bstore-engines.jsonl"
