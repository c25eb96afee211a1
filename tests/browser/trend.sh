#!/usr/bin/env bash
# tests/browser/trend.sh [--screenshots DIR] - opens a real bstore trend
# page in headless Chromium (Debian's chromium package) and checks it with
# trend_check.py at desktop and phone width: axes with tick labels, chart
# text of 12 px or more, nothing past a phone's screen but in scroll
# boxes, no console errors, no requests. With --screenshots, saves
# trend.png and trend-phone.png into DIR (docs/screenshots/ keeps them).
# BSTORE names the bstore to use (default build/dev/cli/bstore). Without
# chromium or python3 it says so and exits 77 (a skip, for ctest).
set -euo pipefail
. "$(dirname "$0")/setup.sh"
# One machine measured over half a year, each sample dated as if rerun.
ingest --measured-at 2004-01-05 -t array=emc -t raid=10 samples/bonnie++-1.03-emc-raid10-nocache.txt
ingest --measured-at 2004-01-20 -t array=emc -t raid=5 samples/bonnie++-1.03-emc-raid5-nocache.txt
ingest --measured-at 2004-02-10 -t array=emc -t raid=10 samples/bonnie++-1.03-emc-raid10-cache.txt
ingest --measured-at 2004-03-01 -t array=emc -t raid=5 samples/bonnie++-1.03-emc-raid5-cache.txt
ingest --measured-at 2004-03-15 -t array=ata -t raid=10 samples/bonnie++-1.03-ata-raid10-cache.txt
ingest --measured-at 2004-06-30 -t array=ata -t raid=10 samples/bonnie++-1.03-ata-raid10-nocache.txt
ingest --measured-at 2004-05-02 samples/bonnie++-1.03d-pasted-blog.txt
ingest samples/bonnie++-1.03-t3-raid5.txt

# Two lines by month: the page of the screenshots.
"$bstore" trend --every month --title 'Block rates and seeks of jump and a blog server, 2004' \
	-o "$work/trend.html" machine=jump machine=server_name 'machine=*'
# A chart per test and metric: the four main rates of jump's test and
# of each of the three tests among the blog post's runs (file sizes and
# file-test specs apart), 16.
python3 tests/browser/trend_check.py "$browser" "$work/trend.html" 16 $shots
