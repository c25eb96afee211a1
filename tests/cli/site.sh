#!/usr/bin/env bash
# tests/cli/site.sh - bstore site: the pages of the samples with their
# content and escaping, saved comparisons, a rebuild that writes nothing,
# a new run that rewrites only the pages it is on, a removed run whose
# page goes, every link of every page resolving, and the whole site walked
# in headless Chromium from its index (that part skipped without chromium).
set -euo pipefail
. "$SRC/tests/lib.sh"
need sqlite3
cd "$SRC"
export SOURCE_DATE_EPOCH=1700000000

# The samples with CSV lines (the text-only tables are ingest_text's),
# tagged from their file names as a user would.
for f in samples/bonnie++-*.txt; do
	case $f in *-table-*) continue ;; esac
	tags=()
	case $f in
	*-emc-*) tags+=(--tag "array=EMC CX500") ;;
	*-ata-*) tags+=(--tag array=ATA) ;;
	*-t3-*) tags+=(--tag "array=Sun T3") ;;
	esac
	case $f in
	*raid10*) tags+=(--tag raid=10) ;;
	*raid5*) tags+=(--tag raid=5) ;;
	esac
	case $f in
	*-nocache*) tags+=(--tag cache=off) ;;
	*-cache*) tags+=(--tag cache=on) ;;
	esac
	run "$BSTORE" ingest ${tags[@]+"${tags[@]}"} "$f"
	expect_rc 0 "ingest $f"
done
# A stored string that HTML must escape, and dates for a trend.
run "$BSTORE" tag 1 'note=<b>&"x"</b>'
expect_rc 0 "tag with markup"
sql "UPDATE runs SET measured_at = 1072915200 + id * 86400 WHERE machine = 'jump'"
nruns=$(sql "SELECT count(*) FROM runs")

# Usage and errors.
run "$BSTORE" site --help
expect_rc 0 "site --help"
expect_in "$T/out" "Usage: bstore site -o DIR [SELECTOR...]"
run "$BSTORE" site
expect_rc 2 "site without -o"
expect_style "$T/err"
expect_in "$T/err" "Try 'bstore site --help'."
mkdir -p "$T/busy"
echo mine >"$T/busy/notes.txt"
run "$BSTORE" site -o "$T/busy"
expect_rc 1 "site into a directory of other files"
expect_in "$T/err" "is not empty and not a site bstore wrote"
expect_style "$T/err"
expect_eq "$(ls "$T/busy")" "notes.txt" "nothing written into a foreign directory"
run "$BSTORE" site -o "$T/none" machine=nobody
expect_rc 1 "site of a selector matching nothing"
expect_in "$T/err" "selector 'machine=nobody' matches no runs"
run "$BSTORE" site -o "$T/none" 'date>=x'
expect_rc 2 "site with a bad selector"
run "$BSTORE" report --save '../x' 1 2
expect_rc 2 "report --save with a path for a name"
expect_in "$T/err" "comparison name '../x' may hold only letters"

# A saved comparison, then the site.
run "$BSTORE" report --save emc-vs-ata -o "$T/cmp.html" 'array=EMC*' array=ATA
expect_rc 0 "report --save"
expect_eq "$(sql "SELECT group_concat(arg, ' ') FROM saved_report_args WHERE report = 'emc-vs-ata'")" \
	"-- array=EMC* array=ATA" "the saved arguments"
run "$BSTORE" report --save gone -o /dev/null raid=5
expect_rc 0 "report --save (gone)"
S=$T/site
run "$BSTORE" site -o "$S"
expect_rc 0 "site"
npages=$(find "$S" -name '*.html' -o -name '*.css' -o -name '*.xml' | wc -l)
expect_in "$T/out" "site: $npages pages, $npages written, 0 unchanged, 0 removed"
for p in index.html site.css compare/emc-vs-ata.html compare/gone.html; do
	[ -s "$S/$p" ] || fail "no $p"
done
# The saved comparison is the report's page, byte for byte.
cmp -s "$T/cmp.html" "$S/compare/emc-vs-ata.html" ||
	fail "compare/emc-vs-ata.html differs from report -o of the same"
expect_in "$S/index.html" 'href="compare/emc-vs-ata.html"'

# One page per run, named by id and digest, with what show has.
while IFS='|' read -r id sha machine; do
	page=$S/run/$id-${sha:0:8}.html
	if [ ! -s "$page" ]; then
		fail "no page $page"
		continue
	fi
	expect_in "$page" "$sha"
	expect_in "$page" "Block write"
done < <(sql "SELECT id, lower(hex(sha256)), machine FROM runs ORDER BY id")
expect_eq "$(ls "$S/run" | wc -l)" "$nruns" "one page per run"
page=$(ls "$S"/run/1-*.html)
expect_in "$page" "$(sql "SELECT raw FROM runs WHERE id = 1" | sed 's/&/\&amp;/g')"
# bonnie++'s own table is bstore show's, not on the page (the page stays
# near 3 KB): the results table has every number.
expect_not_in "$page" "Sequential Output"
expect_in "$page" "too fast"
expect_in "$page" ">ATA</a>"
# The same archive gives the same bytes (SOURCE_DATE_EPOCH pins stored_at).
golden site/index.html "$S/index.html"
golden site/run-1.html "$page"
golden site/machine-jump.html "$(grep -l '<h1>Machine jump</h1>' "$S"/machine/*.html)"
# Stored strings are escaped wherever they appear.
expect_in "$page" '&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;'
expect_not_in "$page" '<b>&"x"</b>'
expect_not_in "$S/index.html" '<b>&"x"</b>'
# The index: every machine, tag key and value, tool.
for m in $(sql "SELECT DISTINCT machine FROM runs"); do
	expect_in "$S/index.html" ">$m</a>"
done
for k in array raid cache note; do
	expect_in "$S/index.html" "<tr><th>$k<td"
done
expect_in "$S/index.html" ">EMC CX500</a>"
expect_in "$S/index.html" ">Sun T3</a>"
expect_in "$S/index.html" ">bonnie++</a>"
expect_eq "$(ls "$S/machine" | wc -l)" "$(sql "SELECT count(DISTINCT machine) FROM runs")" \
	"one page per machine"
expect_eq "$(ls "$S/tag" | wc -l)" "$(sql "SELECT count(*) FROM (SELECT DISTINCT key, value FROM tags)")" \
	"one page per tag value"
# jump's runs have several dates: its page has a trend chart; billing's not.
jump=$(grep -l '<h1>Machine jump</h1>' "$S"/machine/*.html)
expect_in "$jump" '<svg class="trend"'
expect_in "$jump" '<figcaption>bonnie++ 1.0x: block write</figcaption>'
billing=$(grep -l '<h1>Machine billing</h1>' "$S"/machine/*.html)
expect_not_in "$billing" '<svg'
# No script, no request elsewhere.
if grep -l -i -E '<script|(src|href)="(https?:)?//' -r "$S" >"$T/ext"; then
	fail "scripts or external links in: $(cat "$T/ext")"
fi

# Every href and src of every page names a file of the site: check_links
# DIR sets nlinks to the links seen and lists those that resolve to no
# file in $T/badlinks.
# One grep reads every page (-Z: each page's name ends in a NUL, its link
# in a newline), and the shell looks each link up without a process of
# its own: a site of thousands of pages is checked in seconds.
check_links() {
	local f link target
	nlinks=0
	: >"$T/badlinks"
	while IFS= read -r -d '' f && IFS= read -r link; do
		link=${link#*=\"}
		link=${link%\"}
		link=${link%%#*}
		[ -n "$link" ] || continue
		target=${f%/*}/$link
		nlinks=$((nlinks + 1))
		[ -f "$target" ] || echo "${f#"$1"/}: $link" >>"$T/badlinks"
	done < <(grep -r -Z -o -E --include='*.html' '(href|src)="[^"]*"' "$1" ||
		true)
}
expect_links() {
	check_links "$1"
	if [ -s "$T/badlinks" ]; then
		fail "links that resolve to nothing in $1:"
		head -5 "$T/badlinks" | sed 's/^/    /' >&2
	fi
}
expect_links "$S"
[ "$nlinks" -gt "$((nruns * 4))" ] || fail "only $nlinks links checked"
# The checker itself sees a broken link.
mkdir -p "$T/neg/run"
echo '<a href="../index.html">x</a><a href="../machine/none.html">y</a>' >"$T/neg/run/x.html"
touch "$T/neg/index.html"
check_links "$T/neg"
expect_eq "$(cat "$T/badlinks")" "run/x.html: ../machine/none.html" "the link checker"

# Rebuilding writes nothing, and keeps every file as it was.
ls -i -R "$S" >"$T/inodes.before"
run "$BSTORE" site -o "$S"
expect_rc 0 "rebuild"
expect_in "$T/out" "site: $npages pages, 0 written, $npages unchanged, 0 removed"
ls -i -R "$S" >"$T/inodes.after"
cmp -s "$T/inodes.before" "$T/inodes.after" || fail "a rebuild replaced files"

# A new run of jump: its page, the index, and the pages of its machine,
# tool and tags are written; nothing else.
sed -n 's/^\(jump,8G,.*\)$/\1/p' samples/bonnie++-1.03-ata-raid10-cache.txt |
	head -1 | sed 's/^jump,8G,[0-9]*/jump,8G,12345/' >"$T/new.csv"
run "$BSTORE" ingest --measured-at 2004-02-01 --tag array=ATA "$T/new.csv"
expect_rc 0 "ingest a new run"
new=$(sql "SELECT id || '-' || lower(substr(hex(sha256), 1, 8)) FROM runs ORDER BY id DESC LIMIT 1")
run "$BSTORE" site -o "$S"
expect_rc 0 "site after a new run"
# index, run, machine/jump, tool/bonnie++, tag/array=ATA, and the saved
# comparison whose group array=ATA gained the run.
# changes.html too: its first line counts the runs.
expect_in "$T/out" "site: $((npages + 1)) pages, 7 written, $((npages - 6)) unchanged, 0 removed"
[ -s "$S/run/$new.html" ] || fail "no page of the new run"
ls -i -R "$S" >"$T/inodes.new"
changed=$( (diff "$T/inodes.after" "$T/inodes.new" || true) | grep '^>' | awk '{print $3}' | sort | tr '\n' ' ')
expect_eq "$changed" "$(printf '%s\n' "$new.html" "$(basename "$jump")" \
	"$(basename "$(grep -l '<h1>Tag array=ATA</h1>' "$S"/tag/*.html)")" \
	"$(ls "$S/tool")" changes.html emc-vs-ata.html index.html | sort | tr '\n' ' ')" \
	"the files written"

# A run removed: its page goes.
gone=$(ls "$S"/run/2-*.html)
run "$BSTORE" rm 2
expect_rc 0 "rm 2"
run "$BSTORE" site -o "$S"
expect_rc 0 "site after rm"
expect_in "$T/out" "1 removed"
[ ! -e "$gone" ] || fail "the page of a removed run is still there"
# The saved comparison raid=5 matches nothing once its runs are gone.
run "$BSTORE" rm raid=5
run "$BSTORE" site -o "$S"
expect_rc 1 "site with a saved comparison that matches nothing"
expect_in "$T/err" "saved comparison 'gone' left out of the site"
[ ! -e "$S/compare/gone.html" ] || fail "compare/gone.html kept"
expect_not_in "$S/index.html" "compare/gone.html"
run "$BSTORE" report --forget gone
expect_rc 0 "report --forget"
run "$BSTORE" report --forget gone
expect_rc 1 "report --forget of a name not saved"
expect_in "$T/err" "there is no saved comparison 'gone'"
expect_links "$S"

# A site of some runs only.
run "$BSTORE" site -o "$T/jump" machine=jump
expect_rc 0 "site of a selector"
expect_eq "$(ls "$T/jump/run" | wc -l)" "$(sql "SELECT count(*) FROM runs WHERE machine = 'jump'")" \
	"pages of the selected runs only"
expect_links "$T/jump"

# The site stays inside its directory. A subdirectory replaced by a link
# to another directory is refused: no page written there, no file of it
# removed.
J=$T/jump
mkdir -p "$T/other"
for i in 1 2 3; do echo "doc $i" >"$T/other/doc$i.html"; done
mv "$J/machine" "$T/machine.real"
ln -s "$T/other" "$J/machine"
run "$BSTORE" site -o "$J" machine=jump
expect_rc 1 "site with a subdirectory that is a link"
expect_in "$T/err" "machine' is a symbolic link; bstore site writes only inside the site's directory"
expect_style "$T/err"
expect_eq "$(ls "$T/other" | tr '\n' ' ')" "doc1.html doc2.html doc3.html " \
	"nothing written or removed through the link"
rm "$J/machine"
mv "$T/machine.real" "$J/machine"
# A page that is a link is not written through.
echo "victim" >"$T/victim.html"
mv "$J/index.html" "$T/index.real"
ln -s "$T/victim.html" "$J/index.html"
run "$BSTORE" site -o "$J" machine=jump
expect_rc 1 "site with a page that is a link"
expect_in "$T/err" "index.html' is a symbolic link"
expect_eq "$(cat "$T/victim.html")" "victim" "nothing written through a linked page"
rm "$J/index.html"
mv "$T/index.real" "$J/index.html"
# Files the site did not write stay, even in its own directories, and
# the temporary files of a killed build (PAGE.tmp.PID of a process that
# is gone) are removed by the next.
echo mine >"$J/run/notes.html"
echo mine >"$J/machine/README.html"
echo mine >"$J/notes.html"
sleep 0 &
deadpid=$!
wait "$deadpid"
tpage=$(cd "$J" && ls run/*.html | grep -v notes | head -1)
echo half >"$J/$tpage.tmp.$deadpid"
echo half >"$J/index.html.tmp.$deadpid"
echo mine >"$J/run/keep.tmp.$deadpid"
run "$BSTORE" site -o "$J" machine=jump
expect_rc 0 "rebuild beside files of others and leftovers"
expect_in "$T/out" "0 written"
expect_in "$T/out" "2 removed"
for f in run/notes.html machine/README.html notes.html "run/keep.tmp.$deadpid"; do
	[ -e "$J/$f" ] || fail "the rebuild removed $f, which it did not write"
done
for f in "$tpage.tmp.$deadpid" "index.html.tmp.$deadpid"; do
	[ ! -e "$J/$f" ] || fail "the leftover $f of a killed build is kept"
done
rm "$J/run/notes.html" "$J/machine/README.html" "$J/notes.html" "$J/run/keep.tmp.$deadpid"
# DIR itself may be a link (the user named it): the site is built there,
# and a page of its own name that the build did not make is removed.
ln -s "$J" "$T/jumplink"
touch "$J/index-p9.html"
run "$BSTORE" site -o "$T/jumplink" machine=jump
expect_rc 0 "site into a DIR that is a link"
expect_in "$T/out" "0 written"
[ ! -e "$J/index-p9.html" ] || fail "a stale index-p9.html kept"

# 250 machines: the index lists 100 and goes on in index-p2.html and
# index-p3.html; when machines go, so do the pages that held them.
M=$T/many.db
"$SRC/bench/gen-lines" 250 3 250 | "$BSTORE" --db "$M" --quiet ingest -
run "$BSTORE" --db "$M" site -o "$T/many"
expect_rc 0 "site of 250 machines"
expect_eq "$(awk '/<h2>Machines, each/,/<\/section>/' "$T/many/index.html" | grep -c '^<tr><th><a href="run/')" 100 \
	"the index: 100 machines' latest runs"
expect_eq "$(awk '/<h2>Newest runs/,/<\/section>/' "$T/many/index.html" | grep -c '^<tr><th><a href="run/')" 25 \
	"the index: the 25 newest runs"
# gen-lines gives most runs a file size of their own: 181 tests, of
# which the 20 of most machines lead the index, 12 machines each at most.
expect_eq "$(grep -c '<h2>Latest results: ' "$T/many/index.html")" 20 "the index: 20 tests"
expect_in "$T/many/index.html" "161 more tests are on the pages of their tools and machines."
for sec in $(seq 1 20); do
	rows=$(awk -v k=$sec '/<h2>/{if (/<h2>Latest results: /) n = ++c; else n = 99} n == k && /^<tr><th><a href="run/' "$T/many/index.html" | wc -l)
	[ "$rows" -ge 1 ] && [ "$rows" -le 12 ] || fail "test section $sec: $rows rows"
done
expect_in "$T/many/index.html" 'Machines 1 to 100 of 250. <a rel="next" href="index-p2.html">'
expect_in "$T/many/index-p2.html" 'Machines 101 to 200 of 250. <a rel="prev" href="index.html">&larr;&nbsp;previous</a> <a rel="next" href="index-p3.html">'
expect_in "$T/many/index-p3.html" 'Machines 201 to 250 of 250.'
expect_links "$T/many"
run "$BSTORE" --db "$M" rm 'machine=host1*'
run "$BSTORE" --db "$M" site -o "$T/many"
expect_rc 0 "site after removing 111 machines"
[ -e "$T/many/index-p2.html" ] || fail "index-p2.html removed with 139 machines left"
[ ! -e "$T/many/index-p3.html" ] || fail "index-p3.html kept with 139 machines left"
expect_links "$T/many"

# A zcav run's page draws its curve (report/render_curves.c's chart):
# the axis says what the run read, a file here ("on device /tmp/x/c2" in
# the printout), a disk where the printout names a device (the same
# printout as zcav prints it for /dev/sdb).
Z=$T/zcav.db
run "$BSTORE" --db "$Z" ingest samples/zcav-2.00a-c2-labvm.txt samples/zcav-2.00a-read-labvm.txt
expect_rc 0 "ingest zcav printouts"
run "$BSTORE" --db "$Z" site -o "$T/zsite"
expect_rc 0 "site of zcav runs"
zpage=$(ls "$T"/zsite/run/1-*.html)
expect_in "$zpage" '<svg class="curve"'
expect_in "$zpage" 'offset in the file, GiB'
expect_not_in "$zpage" 'position on the disk'
[ "$(grep -c '<path d="M' "$zpage")" = 1 ] || fail "the zcav run's page has no line"
sed 's|on device /tmp/x/c2|on device /dev/sdb|' samples/zcav-2.00a-c2-labvm.txt >"$T/zdev.txt"
run "$BSTORE" --db "$Z" ingest "$T/zdev.txt"
expect_rc 0 "ingest a printout of a device"
run "$BSTORE" --db "$Z" site -o "$T/zsite"
expect_rc 0 "site with a device's run"
# A dd run's page gives dd's own line beside the stored rate, with how
# its units relate (core/result.c's table, as bstore show).
run "$BSTORE" --db "$Z" ingest samples/dd-coreutils-9.1-labvm.txt
expect_rc 0 "ingest dd"
run "$BSTORE" --db "$Z" site -o "$T/zsite"
did=$(sqlite3 "$Z" "SELECT min(id) FROM runs WHERE tool = 'dd'")
dpage=$(ls "$T"/zsite/run/"$did"-*.html)
expect_in "$dpage" "As dd printed it (dd&#39;s line: kB, MB, GB are 10^3"
expect_in "$dpage" "copied, 0.0653526 s, 1.0 GB/s"
expect_in "$dpage" '<tr data-metric="write_kib_s"><th>Write<td>979.3<td>MiB/s'
zid=$(sqlite3 "$Z" "SELECT id FROM runs WHERE source LIKE '%zdev.txt'")
expect_in "$(ls "$T"/zsite/run/"$zid"-*.html)" 'position on the disk, GiB'
# Host facts (host.* tags, as bstore run records them) are on the
# machine's page, not tables of one value on the index.
run "$BSTORE" --db "$Z" tag 1 host.kernel=6.1.0-18-amd64 host.fs=ext4 raid=0
run "$BSTORE" --db "$Z" site -o "$T/zsite"
expect_rc 0 "site with host facts"
expect_not_in "$T/zsite/index.html" "host.kernel"
expect_in "$T/zsite/index.html" "The host facts bstore run records (2 host.* keys) are on each machine&#39;s page."
expect_in "$T/zsite/index.html" "<tr><th>raid<td"
zm=$(ls "$T"/zsite/machine/*.html)
expect_in "$zm" '<section id="host">'
expect_in "$zm" '<tr><th>kernel<td><a href="../tag/host-kernel-6-1-0-18-amd64-'
expect_in "$zm" '<tr><th>fs<td><a href="../tag/host-fs-ext4-'
# An archive whose runs are all gone: the index says so, and the pages
# of the runs go.
cp "$Z" "$T/empty.db"
run "$BSTORE" --db "$T/empty.db" rm all
cp -r "$T/zsite" "$T/esite"
run "$BSTORE" --db "$T/empty.db" site -o "$T/esite"
expect_rc 0 "site of an archive without runs"
expect_in "$T/esite/index.html" '<p class="mute">No runs.</p>'
expect_not_in "$T/esite/index.html" "Newest runs"
expect_eq "$(ls "$T/esite/run" "$T/esite/machine" | grep -c html)" 0 "no run or machine page left"
# A bonnie++ run has no curve.
expect_not_in "$(ls "$S"/run/1-*.html)" '<svg'

# A bigger archive: lists in pages of 500 runs (the newest on the list's
# own page, then every run oldest first), the index leading with each
# machine's latest results, a tag key of many values on a page of its
# own, no page over 1 MiB, and progress on a terminal.
B=$T/big.db
"$SRC/bench/gen-lines" 2100 7 2 >"$T/big.csv"
for i in $(seq 0 14); do
	sed -n "$((i * 140 + 1)),$((i * 140 + 140))p" "$T/big.csv" |
		"$BSTORE" --db "$B" --quiet ingest --tag serial=s$i \
			--measured-at "$(date -u -d "2024-01-01 + $i days" +%F)" -
done
expect_eq "$(sqlite3 "$B" 'select count(*) from runs')" 2100 "2,100 runs"
run "$BSTORE" --db "$B" report --save hosts -o "$T/hosts.html" machine=host0 machine=host1
expect_rc 0 "report --save over 2,100 runs"
BS=$T/bigsite
if have script; then
	script -qec "'$BSTORE' --db '$B' site -o '$BS'" /dev/null >"$T/tty"
	expect_in "$T/tty" "site: 2000 pages"
else
	skip_part "no script(1) for a terminal (the progress line is not checked)"
	run "$BSTORE" --db "$B" site -o "$BS"
fi
run "$BSTORE" --db "$B" site -o "$BS"
expect_rc 0 "site of 2,100 runs"
expect_eq "$(wc -c <"$T/err")" 0 "no progress when stderr is not a terminal"
host0=$(grep -l '<h1>Machine host0</h1>' "$BS"/machine/*.html)
base=${host0%.html}
for k in 1 2 3; do
	[ -s "$base-p$k.html" ] || fail "no page $k of host0's runs"
done
[ ! -e "$base-p4.html" ] || fail "a page 4 of host0's 1,050 runs"
expect_eq "$(grep -c '<tr><th><a href="../run/' "$host0")" 500 "host0's page: its newest 500 runs"
expect_in "$host0" "The newest 500 of 1050 runs. Every run, oldest first, 500 a page:"
expect_in "$base-p2.html" "Runs 501 to 1000, oldest first (500 on this page)."
expect_in "$base-p2.html" "rel=\"prev\" href=\"$(basename "$base")-p1.html\""
expect_in "$base-p2.html" "rel=\"next\" href=\"$(basename "$base")-p3.html\""
expect_eq "$(grep -c '<tr><th><a href="../run/' "$base-p3.html")" 50 "the last page: 50 runs"
tool=$(ls "$BS"/tool/*.html | grep -v -- '-p[0-9]*\.html$')
expect_eq "$(ls "${tool%.html}"-p*.html | wc -l)" 5 "the tool's 2,100 runs in 5 pages"
# The index leads with the latest changes (these runs have some: bstore
# changes finds them), then the latest results of each test, one row per
# machine, then the machines.
expect_eq "$(sed -n 's/.*<h2>\(.*\)<\/h2>.*/\1/p' "$BS/index.html" | head -1)" \
	"$("$BSTORE" --db "$B" changes | grep -q '^0 change points' && sed -n 's/.*<h2>\(.*\)<\/h2>.*/\1/p' "$BS/index.html" | head -1 || echo 'Latest changes')" \
	"the index leads with the latest changes"
expect_eq "$(sed -n 's/.*<h2>\(.*\)<\/h2>.*/\1/p' "$BS/index.html" | grep -v '^Latest changes$' | head -1 | cut -c1-25)" \
	"Latest results: bonnie++," "the index's first section"
expect_in "$BS/index.html" '<tr><th>serial<td class="n">2100<td'
expect_in "$BS/index.html" '>and 3 more</a>'
expect_eq "$(grep -o 'href="tag/serial-s' "$BS/index.html" | wc -l)" 12 "12 values of serial on the index"
keypage=$(grep -o 'href="tag/serial-[0-9a-f]*\.html">and 3 more' "$BS/index.html" | sed 's/href="//;s/">.*//')
expect_eq "$(grep -c '<tr><th><a href="../tag/serial-s' "$BS/$keypage")" 15 "the key's page lists its 15 values"
# The saved comparison's page lists 250 runs a group, then how many more;
# bstore report itself lists them all.
expect_in "$BS/compare/hosts.html" "and 800 more runs of [1] machine=host0, not listed here: bstore report lists every run"
expect_in "$BS/compare/hosts.html" "and 800 more runs of [2] machine=host1, not listed here"
expect_not_in "$T/hosts.html" "more runs of"
expect_eq "$(grep -c '^<tr><td>\[1\]' "$BS/compare/hosts.html")" 250 "250 runs of group 1 listed"
expect_eq "$(grep -c '^<tr><td>\[1\]' "$T/hosts.html")" 1050 "report -o lists all 1,050"
big=$(find "$BS" -type f -size +1024k)
expect_eq "$big" "" "no page over 1 MiB"
expect_links "$BS"
# 10 new runs of host0 rewrite their pages, the index, the lists' own
# pages and their last pages: not the earlier pages.
ls -i "$BS/machine" "$BS/tool" >"$T/big.before"
"$SRC/bench/gen-lines" 20 99 2 | sed -n '2~2p' |
	"$BSTORE" --db "$B" --quiet ingest --tag serial=s14 -
run "$BSTORE" --db "$B" site -o "$BS"
expect_rc 0 "site after 10 new runs"
ls -i "$BS/machine" "$BS/tool" >"$T/big.after"
changed=$( (diff "$T/big.before" "$T/big.after" || true) | grep '^>' | awk '{print $3}' | sort | tr '\n' ' ')
expect_eq "$changed" "$(printf '%s\n' "$(basename "$host0")" "$(basename "$base")-p3.html" \
	"$(basename "$tool")" "$(basename "${tool%.html}")-p5.html" | sort | tr '\n' ' ')" \
	"the list pages the new runs rewrote"

# Chromium loads the index from file:// and every page reachable from
# it, following every link (tests/browser/site_crawl.py); every page of
# the site is reached, none asks for anything outside it.
if have chromium; then
	timeout 300 python3 "$SRC/tests/browser/site_crawl.py" chromium "$S" \
		--page "run=$(cd "$S" && ls run/1-*.html)" \
		--page "machine=machine/$(basename "$jump")" \
		>"$T/crawl" 2>&1 || { cat "$T/crawl" >&2; fail "the Chromium crawl of the site"; }
	expect_in "$T/crawl" "pages loaded in Chromium from the index"
	# At 1400 and 390 px no page scrolls sideways, and the index opens
	# with each machine's latest results.
	expect_in "$T/crawl" "3 pages checked at 1400 and 390 px, none scrolls sideways"
	expect_in "$T/crawl" "index at 390 px: first 'Latest results: "
	# The check sees a page wider than the window.
	rm -rf "$T/wide" && cp -r "$S" "$T/wide"
	sed -i 's|</footer>|<pre>'"$(printf 'x%.0s' $(seq 1 300))"'</pre></footer>|' "$T/wide/index.html"
	if timeout 300 python3 "$SRC/tests/browser/site_crawl.py" chromium \
		"$T/wide" >"$T/crawl.wide" 2>&1; then
		fail "the crawl did not see a page that scrolls sideways"
	fi
	expect_in "$T/crawl.wide" "index.html at 390 px scrolls sideways"
	# The zcav run's page too.
	timeout 300 python3 "$SRC/tests/browser/site_crawl.py" chromium "$T/zsite" \
		--page "zcav=$(cd "$T/zsite" && ls run/1-*.html)" >"$T/crawl.z" 2>&1 ||
		{ cat "$T/crawl.z" >&2; fail "the Chromium crawl of the zcav site"; }
	expect_in "$T/crawl.z" "2 pages checked at 1400 and 390 px, none scrolls sideways"
	expect_eq "$(sed -n 's/^\([0-9]*\) pages loaded.*/\1/p' "$T/crawl")" \
		"$(find "$S" -name '*.html' | wc -l)" "every page reached in Chromium"
	# The crawl fails on a link that does not resolve.
	rm -rf "$T/broken" && cp -r "$S" "$T/broken"
	rm "$T/broken/$(cd "$T/broken" && ls run/*.html | head -n 1)"
	if timeout 300 python3 "$SRC/tests/browser/site_crawl.py" chromium \
		"$T/broken" >"$T/crawl" 2>&1; then
		fail "the crawl did not see a missing run page"
	fi
	expect_in "$T/crawl" "links to a missing page"
else
	skip_part "chromium is not installed (the link check ran without it)"
fi

# ---- a run's tags bound what it adds (issue 28 item 6) ----
# One run with 5,000 tags of 2 KB (and two short ones): the site stays
# small. Its first 64 short tags have pages; the run's page lists the
# first 1000, values cut, and counts the rest; its row says how many more.
G=$T/tags.db
run "$BSTORE" --db "$G" ingest --tag a=1 --tag b=2 "$SAMPLES/bonnie++-1.03-t3-raid5.txt"
expect_rc 0 "ingest the run of many tags"
sqlite3 -batch "$G" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL
	SELECT i + 1 FROM n WHERE i < 5000)
	INSERT INTO tags SELECT 1, printf('k%05d', i), printf('%d', i) || hex(zeroblob(1020)) FROM n"
rm -rf "$T/tsite"
run "$BSTORE" --db "$G" site -o "$T/tsite"
expect_rc 0 "site of a run with 5000 long tags"
bytes=$(du -sb "$T/tsite" | cut -f1)
[ "$bytes" -lt $((4 << 20)) ] || fail "the site of one run with 5000 long tags takes $bytes bytes"
expect_eq "$(find "$T/tsite/tag" -name '*.html' | wc -l | awk '$1 <= 4 {print "few"}')" few \
	"tag pages of one run's long tags"
rp=$(ls "$T"/tsite/run/1-*.html)
expect_in "$rp" "and 4002 more tags (bstore show 1 lists them all)"
grep -q '<a href="../tag/[^"]*">1</a>' "$rp" ||
	fail "the short tag a=1 is not linked from the run page"
# A long value is listed, cut at 256 bytes, with no link.
expect_in "$rp" "<th>k00001<td>1$(printf '0%.0s' $(seq 1 255))..."
[ "$(wc -c <"$rp")" -lt $((1 << 20)) ] || fail "the run page takes $(wc -c <"$rp") bytes"
expect_in "$T/tsite/index.html" "and 5000 more on its page"

# --- charts per test, bookkeeping tags (an archive of its own) ---------------
# One machine, "box", with sysbench rndrw, seqwr and rndrw again, zcav
# runs through the page cache, bonnie++ 2.00a runs and bstore's own
# engines (whose zcav run has the bookkeeping tag zcav.target).
L=(--db "$T/lines.db")
lingest() { "$BSTORE" "${L[@]}" --quiet ingest -m box "$@" >/dev/null; }
lingest --measured-at 2024-01-10 samples/sysbench-1.0.20-rndrw.txt
lingest --measured-at 2024-01-12 samples/sysbench-1.0.20-seqwr.txt
lingest --measured-at 2024-01-13 samples/sysbench-0.4.12-seqwr.txt
lingest --measured-at 2024-01-15 samples/sysbench-1.0.20-rndrw-local.txt
lingest --measured-at 2024-01-11 samples/zcav-2.00a-read-labvm.txt
lingest --measured-at 2024-01-14 samples/zcav-2.00a-c2-labvm.txt
lingest tests/data/identity/bonnie++-2.00a-disk-x3.csv
lingest tests/data/identity/bstore-engines.jsonl
run "$BSTORE" "${L[@]}" site -o "$T/lsite"
expect_rc 0 "site of box"
box=$(ls "$T"/lsite/machine/box-*.html)
grep -o '<figcaption>[^<]*' "$box" | sed 's/<figcaption>//' >"$T/titles"
# A chart per test and result, each titled with the tool and the test.
expect_in "$T/titles" "sysbench rndrw, 1 thread: read"
expect_in "$T/titles" "sysbench rndrw, 1 thread: written"
expect_in "$T/titles" "zcav"
# seqwr only writes: its 0.00 read is no point, so no read chart; its
# written chart is its own, never joined with rndrw's.
expect_not_in "$T/titles" "seqwr, 1 thread: read"
expect_eq "$(grep -c 'seqwr.*: written' "$T/titles")" 1 "seqwr's written chart"
expect_eq "$(sort "$T/titles" | uniq -d)" "" "no two charts of one title"
expect_eq "$(grep -c ': read$' "$T/titles")" "$(grep ': read$' "$T/titles" | sort -u | wc -l)" \
	"sysbench's read and zcav's read are charts of their own titles"
# No chart of more tests than one: the rndrw chart's points are the two
# rndrw runs, not the seqwr runs between them.
rndrw=$(awk '/<figcaption>sysbench rndrw, 1 thread: read</,/<\/figure>/' "$box")
expect_eq "$(echo "$rndrw" | grep -c '<circle')" 2 "rndrw's read: its two runs"
# The index leads per test: a section per test with its machine's
# newest run of it, sysbench's modes apart; seqwr's read is not measured.
sed -n 's/.*<h2>\(.*\)<\/h2>.*/\1/p' "$T/lsite/index.html" >"$T/heads"
expect_eq "$(head -1 "$T/heads")" "Latest results: bonnie++" "box's index: the first test"
expect_in "$T/heads" "Latest results: sysbench rndrw, 1 thread"
expect_in "$T/heads" "Latest results: sysbench seqwr, 1 thread"
expect_in "$T/heads" "Latest results: bstore run -D"
expect_in "$T/heads" "Machines, each by its newest run"
seqwr=$(awk '/<h2>Latest results: sysbench seqwr/,/<\/section>/' "$T/lsite/index.html")
expect_eq "$(echo "$seqwr" | grep -o '<td class="nr">not measured' | wc -l)" 1 "seqwr's read: not measured"
# Bookkeeping tags: on their run's page, unlinked; in no tag index or page.
expect_not_in "$T/lsite/index.html" "zcav.target"
if ls "$T/lsite/tag" | grep -q '^zcav-target'; then
	fail "a tag page of the bookkeeping tag zcav.target"
fi
zrun=$(grep -l '<tr><th>zcav.target<td>' "$T"/lsite/run/*.html)
expect_in "$zrun" "<tr><th>zcav.target<td>/tmp/disk/zcav.dat"

finish
