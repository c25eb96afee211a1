#!/usr/bin/env python3
"""docs/screenshots/zcav-demo.py DIR - writes the zcav outputs behind
report-curves.png: made-up read passes (zcav 2.00a's output format) of
three disks whose throughput falls zone by zone towards the inner tracks,
with a few slow blocks, two passes of two disks and one of the third; the
first blocks of one pass are "++++" (too fast to time). Seeded, so the
same files every time. To take the screenshots:

  docs/screenshots/zcav-demo.py /tmp/z && cd /tmp/z
  bstore ingest -t disk=wd2tb -m nas1 hdd-a1.txt hdd-a2.txt
  bstore ingest -t disk=seagate1tb -m backup-server-01 hdd-b1.txt hdd-b2.txt
  bstore ingest -t disk=old500 -m 'lab <box>' hdd-c1.txt
  bstore report --title 'zcav: three disks, read throughput by position' \\
      disk=wd2tb disk=seagate1tb disk=old500 -o r.html
  chromium --headless --window-size=1400,2600 --screenshot=wide.png r.html
  chromium --headless --window-size=390,2600 --screenshot=phone.png r.html

(then cropped to the section "Throughput by position").
"""
import math
import os
import random
import sys


def zcav(path, top, bottom, gib, seed, fast=(), block=512):
    rnd = random.Random(seed)
    n = int(gib * 1024 / block)
    total = 0.0
    with open(path, "w") as f:
        f.write("#block offset (GiB), MiB/s, time\n")
        for i in range(n):
            frac = i / n
            zone = math.floor(frac * 12) / 12
            y = top - (top - bottom) * (0.15 * frac + 0.85 * zone ** 1.1)
            y += rnd.gauss(0, 1.2)
            if rnd.random() < 0.01:
                y *= 0.6
            off = i * block / 1024
            if i in fast:
                f.write("#%.2f ++++ %.3f\n" % (off, 0.3))
                continue
            f.write("%.2f %.2f %.3f\n" % (off, y, block / y))
            total += block / y
        f.write("# Read %d megs in %d seconds, %d megabytes per second.\n"
                % (n * block, total, n * block / total))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    zcav(os.path.join(out, "hdd-a1.txt"), 195, 92, 2000, 1, fast=(0, 1))
    zcav(os.path.join(out, "hdd-a2.txt"), 193, 90, 2000, 2)
    zcav(os.path.join(out, "hdd-b1.txt"), 160, 75, 1000, 3)
    zcav(os.path.join(out, "hdd-b2.txt"), 158, 76, 1000, 4)
    zcav(os.path.join(out, "hdd-c1.txt"), 120, 60, 500, 5)


if __name__ == "__main__":
    main()
