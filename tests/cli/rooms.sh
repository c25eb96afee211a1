#!/usr/bin/env bash
# tests/cli/rooms.sh - the map of every room: each source folder has one
# file that lists its files and what each is for (the table below), and
# every .c, .h, .cc and .hh file of the folder is named there by its bare
# name. A name there that is no file of the folder is a stale entry.
# Names with a folder in front (store/db.h) point elsewhere and are not
# entries.
set -euo pipefail
. "$SRC/tests/lib.sh"

# folder          its map
rooms='
util            util/README.md
core            core/README.md
core/families   core/families/rows.h
ingest          ingest/format.h
store           store/internal.h
report          report/internal.h
report/tmpl     report/tmpl/tmpl.h
cli             cli/cli.h
'

# check ROOT: prints one line per missing or stale name, for each folder.
check() {
	local root=$1 dir map f name
	while read -r dir map; do
		[ -n "$dir" ] || continue
		if [ ! -f "$root/$map" ]; then
			echo "$dir: no map $map"
			continue
		fi
		for f in "$root/$dir"/*.c "$root/$dir"/*.h "$root/$dir"/*.cc \
			"$root/$dir"/*.hh; do
			[ -f "$f" ] || continue
			name=${f##*/}
			[ "$dir/$name" = "$map" ] && continue
			# The bare name, not inside a longer one (test_db.c,
			# db.cc) nor behind a folder (tests/db.c).
			grep -Eq "(^|[^A-Za-z0-9_./<-])${name//./\\.}([^A-Za-z0-9_]|$)" \
				"$root/$map" || echo "$dir: $name is not in $map"
		done
		grep -Eo "(^|[^A-Za-z0-9_./<-])[A-Za-z0-9_]+\.(c|h|cc|hh)([^A-Za-z0-9_]|$)" \
			"$root/$map" | grep -Eo "[A-Za-z0-9_]+\.(c|h|cc|hh)" | sort -u |
			while read -r name; do
				[ -f "$root/$dir/$name" ] ||
					echo "$dir: $map names $name, which is not there"
			done
	done <<<"$rooms"
}

check "$SRC" >"$T/missing"
if [ -s "$T/missing" ]; then
	fail "the maps are not the folders:"
	sed 's/^/    /' "$T/missing" >&2
fi

# One room holds every signal handler, flag and mask (util/stop.h): no
# other file of bstore's code calls sigaction(), signal(), sigprocmask()
# or pthread_sigmask(). Prints file:line of each call elsewhere.
sig_calls() {
	local root=$1
	(cd "$root" && grep -rnE --include='*.c' --include='*.h' \
		'(^|[^A-Za-z0-9_])(sigaction|signal|sigprocmask|pthread_sigmask)\(' \
		util core ingest store report cli bench 2>/dev/null) |
		grep -Ev '^util/stop\.[ch]:' || true
}
sig_calls "$SRC" >"$T/signals"
if [ -s "$T/signals" ]; then
	fail "signal handling outside util/stop.c:"
	sed 's/^/    /' "$T/signals" >&2
fi
# ... and the check sees such a call.
mkdir -p "$T/sigcopy/cli" "$T/sigcopy/util"
cp "$SRC/util/stop.c" "$T/sigcopy/util/"
printf 'static void f(void)\n{\n\tsignal(SIGPIPE, SIG_DFL);\n}\n' \
	>"$T/sigcopy/cli/main.c"
expect_eq "$(sig_calls "$T/sigcopy")" "cli/main.c:3:	signal(SIGPIPE, SIG_DFL);"

# The measuring commands plug into the one driver (cli/measure.c,
# bs_cli_measure): each main stays under 60 lines.
for f in run fileio zcav; do
	n=$(awk -v fn="cmd_$f" '$0 ~ "^int " fn "\\(" { s = NR }
		s && /^}/ { print NR - s + 1; exit }' "$SRC/cli/cmd_$f.c")
	[ -n "$n" ] && [ "$n" -lt 60 ] ||
		fail "cmd_$f in cli/cmd_$f.c is ${n:-not found} lines, not under 60"
done

# The check fails when it should: a copy of store/ with a file its map
# does not name, and a map that names a file that is gone.
mkdir -p "$T/copy/store"
cp "$SRC"/store/*.c "$SRC"/store/*.h "$T/copy/store/"
: >"$T/copy/store/orphan.c"
rm "$T/copy/store/tag.c"
rooms='
store           store/internal.h
'
check "$T/copy" >"$T/copy.out"
expect_eq "$(cat "$T/copy.out")" "store: orphan.c is not in store/internal.h
store: store/internal.h names tag.c, which is not there"
finish
