#!/usr/bin/env bash
# tests/cli/engine_seams.sh - the seams of the store's engine table
# (store/db.h): every operation of an engine is reached through its
# wrapper (bs_db_*), so that no file but db.h and the engines' own files
# reads a connection's ops row or names a row's member; and the write
# path has no engine-specific branch: store/write.c and store/seen.c
# speak to the transaction's writer (store/writer.c), never to an engine
# flag.
set -euo pipefail
. "$SRC/tests/lib.sh"

# seams ROOT: prints one line per site that goes around a wrapper.
seams() {
	local root=$1 f
	for f in "$root"/*/*.c "$root"/*/*.h "$root"/*/*/*.c "$root"/*/*/*.h; do
		[ -f "$f" ] || continue
		case ${f#"$root"/} in
		store/db.h | store/db_sqlite.c | store/db_pg.c | \
			store/db_pg_stub.c | store/db_schema.c | tests/*) continue ;;
		esac
		grep -Hn -- '->ops\b\|\bbs_db_\(sqlite\|pg\)\.' "$f" |
			sed "s|^$root/||" || true
	done
	# The write path: one writer a transaction, chosen at BEGIN.
	for f in write.c seen.c; do
		[ -f "$root/store/$f" ] || continue
		grep -Hn -- 'deferring\|\bremote\b\|bs_db_defer\|bs_db_writer\b' \
			"$root/store/$f" | sed "s|^$root/||" || true
	done
}

seams "$SRC" >"$T/around"
if [ -s "$T/around" ]; then
	fail "engine operations reached around their wrappers (store/db.h):"
	sed 's/^/    /' "$T/around" >&2
fi
# The writer is chosen where a transaction begins, by the engine's row.
grep -q 'bs_store_writer_choose(st)' "$SRC/store/open.c" ||
	fail "bs_store_begin does not choose the transaction's writer"

# The check fails when it should: a copy of store/ with a direct call and
# an engine branch in write.c.
mkdir -p "$T/copy/store"
cp "$SRC"/store/*.c "$SRC"/store/*.h "$T/copy/store/"
printf 'static void f(struct bs_db *db) { db->ops->bulk(db, 1); }\n' \
	>>"$T/copy/store/merge.c"
printf 'static int g(struct bs_store *st) { return st->deferring; }\n' \
	>>"$T/copy/store/write.c"
seams "$T/copy" | sed 's/:.*//' >"$T/copy.out"
expect_eq "$(cat "$T/copy.out")" "store/merge.c
store/write.c"
finish
