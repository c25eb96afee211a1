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
npages=$(find "$S" -name '*.html' -o -name '*.css' | wc -l)
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
expect_in "$page" "Sequential Output"
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
	expect_in "$S/index.html" "<tr><th>$k</th>"
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
expect_in "$jump" 'Block write (KiB/s)'
billing=$(grep -l '<h1>Machine billing</h1>' "$S"/machine/*.html)
expect_not_in "$billing" '<svg'
# No script, no request elsewhere.
if grep -l -i -E '<script|(src|href)="(https?:)?//' -r "$S" >"$T/ext"; then
	fail "scripts or external links in: $(cat "$T/ext")"
fi

# Every href and src of every page names a file of the site: check_links
# DIR sets nlinks to the links seen and lists those that resolve to no
# file in $T/badlinks.
check_links() {
	local f link target
	nlinks=0
	: >"$T/badlinks"
	while IFS= read -r f; do
		while IFS= read -r link; do
			link=${link#*=\"}
			link=${link%\"}
			link=${link%%#*}
			[ -n "$link" ] || continue
			target=$(dirname "$f")/$link
			nlinks=$((nlinks + 1))
			[ -f "$target" ] || echo "${f#"$1"/}: $link" >>"$T/badlinks"
		done < <(grep -o -E '(href|src)="[^"]*"' "$f" || true)
	done < <(find "$1" -name '*.html')
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
expect_in "$T/out" "site: $((npages + 1)) pages, 6 written, $((npages - 5)) unchanged, 0 removed"
[ -s "$S/run/$new.html" ] || fail "no page of the new run"
ls -i -R "$S" >"$T/inodes.new"
changed=$( (diff "$T/inodes.after" "$T/inodes.new" || true) | grep '^>' | awk '{print $3}' | sort | tr '\n' ' ')
expect_eq "$changed" "$(printf '%s\n' "$new.html" "$(basename "$jump")" \
	"$(basename "$(grep -l '<h1>Tag array=ATA</h1>' "$S"/tag/*.html)")" \
	"$(ls "$S/tool")" emc-vs-ata.html index.html | sort | tr '\n' ' ')" \
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
page=$(cd "$J" && ls run/*.html | grep -v notes | head -1)
echo half >"$J/$page.tmp.$deadpid"
echo half >"$J/index.html.tmp.$deadpid"
echo mine >"$J/run/keep.tmp.$deadpid"
run "$BSTORE" site -o "$J" machine=jump
expect_rc 0 "rebuild beside files of others and leftovers"
expect_in "$T/out" "0 written"
expect_in "$T/out" "2 removed"
for f in run/notes.html machine/README.html notes.html "run/keep.tmp.$deadpid"; do
	[ -e "$J/$f" ] || fail "the rebuild removed $f, which it did not write"
done
for f in "$page.tmp.$deadpid" "index.html.tmp.$deadpid"; do
	[ ! -e "$J/$f" ] || fail "the leftover $f of a killed build is kept"
done
rm "$J/run/notes.html" "$J/machine/README.html" "$J/notes.html" "$J/run/keep.tmp.$deadpid"

# Chromium loads the index from file:// and every page reachable from
# it, following every link (tests/browser/site_crawl.py); every page of
# the site is reached, none asks for anything outside it.
if have chromium; then
	timeout 300 python3 "$SRC/tests/browser/site_crawl.py" chromium "$S" \
		>"$T/crawl" 2>&1 || { cat "$T/crawl" >&2; fail "the Chromium crawl of the site"; }
	expect_in "$T/crawl" "pages loaded in Chromium from the index"
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
finish
