#!/usr/bin/env bash
# tests/cli/run_dirs.sh - `bstore run` and the directory it is given: one
# the user may write and search but not read (as nobody), and a foreign
# file planted in the scratch directory during a run, which must be left
# alone and reported with its real path.
source "$SRC/tests/lib.sh"

NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# A write-and-search-only directory, as bonnie++ accepts: plain (733) and a
# drop directory like /tmp without read (1733). Root passes every
# permission check, so this runs as nobody.
if [ "$(id -u)" != 0 ]; then
	skip_part "the write-only -d checks: they need root, to run as nobody"
elif ! have setpriv; then
	skip_part "the write-only -d checks: '$missing' is not installed"
elif ! "${NOBODY[@]}" test -x "$T"; then
	skip_part "the write-only -d checks: nobody cannot reach '$T'"
else
	W=$T/wonly
	mkdir "$W"
	for mode in 733 1733; do
		chmod "$mode" "$W"
		run "${NOBODY[@]}" "$BSTORE" run -d "$W" -s 4 -f -n 1:0:0:4 -r 0 \
			--no-store --no-sync -q -m wonly
		expect_rc 0 "run -d in a mode $mode directory as nobody"
		expect_not_in "$T/err" "cannot use directory"
		expect_in "$T/out" "1.98,bstore-0.1.0,wonly,1,"
		expect_eq "$(wc -l <"$T/out")" 1 "mode $mode: CSV lines"
		# Root can list what nobody could not: the scratch is gone.
		expect_eq "$(ls -A "$W")" "" "mode $mode: scratch left in -d"
	done
	# Search permission stays required: without it nothing is created.
	chmod 722 "$W"
	run "${NOBODY[@]}" "$BSTORE" run -d "$W" -s 8 -n 0 -r 0 --no-store
	expect_rc 1 "run -d in a mode 722 directory as nobody"
	expect_in "$T/err" "bstore: run: cannot write in directory '$W': Permission denied"
	expect_eq "$(ls -A "$W")" "" "mode 722: nothing created"
fi

# plant DIR SUB ARGS...: runs bstore in $T with -d DIR and ARGS, and as
# soon as the directory SUB (say files/00001) exists in its scratch
# directory, stops bstore, puts a file "foreign2" there and lets it go on.
# No syncs: what matters is what bstore removes and says.
# Sets $rc and $scratch (relative to $T, as -d was given). Returns 1 when
# the directory was gone before the file got in.
plant() {
	local dir=$1 sub=$2 pid s
	shift 2
	rm -rf "${T:?}/$dir"
	mkdir "$T/$dir"
	scratch=
	(cd "$T" && exec "$BSTORE" run -d "$dir" --no-sync "$@") >"$T/out" 2>"$T/err" &
	pid=$!
	while [ -z "$scratch" ] && kill -0 "$pid" 2>/dev/null; do
		for s in "$T/$dir"/bstore-run.*/"$sub"; do
			[ -d "$s" ] && scratch=${s%/"$sub"}
		done
	done
	if [ -n "$scratch" ]; then
		# SIGSTOP cannot be caught: bstore freezes wherever it is.
		kill -STOP "$pid" 2>/dev/null || true
		echo "not bstore's" >"$scratch/$sub/foreign2" 2>/dev/null ||
			scratch=
		kill -CONT "$pid" 2>/dev/null || true
	fi
	set +e
	wait "$pid"
	rc=$?
	set -e
	scratch=${scratch#"$T/"}
	[ -n "$scratch" ]
}

# plant_seq DIR SUB ARGS...: plant until the file got in during the
# sequential tests, so that their delete is what fails (the random ones
# make the directories again); gives up after 5 tries.
plant_seq() {
	local try
	for try in 1 2 3 4 5; do
		if plant "$@" &&
			grep -qF "Delete files in sequential order" "$T/err" &&
			! grep -qF "files in random order" "$T/err"; then
			return 0
		fi
		echo "run_dirs.sh: lost the race to plant a file (try $try)" >&2
	done
	return 1
}

# What is left in DIR, one path a line, relative to $T.
left() { (cd "$T" && find "$1" | sort); }

# A foreign file in a subdirectory: the sequential delete cannot remove
# files/00001, names it as it is, and leaves the file alone. Everything
# bstore made is removed; only the directories holding the file stay.
# The quote in the directory's name must not confuse the messages.
if plant_seq "f'o" files/00001 -s 0 -n 4:0:0:4 -r 0 --no-store -q; then
	expect_rc 1 "foreign file in files/00001"
	expect_in "$T/err" "bstore: run: sequential delete: cannot remove directory '$scratch/files/00001': Directory not empty"
	expect_in "$T/err" "; and cannot remove '$scratch/files': Directory not empty"
	expect_eq "$(grep -c '^bstore:' "$T/err")" 1 "error lines"
	expect_eq "$(cat "$T/$scratch/files/00001/foreign2")" "not bstore's" \
		"the foreign file"
	expect_eq "$(left "f'o")" "f'o
$scratch
$scratch/files
$scratch/files/00001
$scratch/files/00001/foreign2" "left in -d after files/00001"
else
	fail "could not plant a file in files/00001 during the sequential tests"
fi

# The same with one directory: the files live in files itself.
if plant_seq f1 files -s 0 -n 4 -r 0 --no-store -q; then
	expect_rc 1 "foreign file in files"
	expect_eq "$(grep '^bstore:' "$T/err")" \
		"bstore: run: sequential delete: cannot remove directory '$scratch/files': Directory not empty" \
		"the error, once"
	expect_eq "$(cat "$T/$scratch/files/foreign2")" "not bstore's" \
		"the foreign file"
	expect_eq "$(left f1)" "f1
$scratch
$scratch/files
$scratch/files/foreign2" "left in -d after files"
else
	fail "could not plant a file in files during the sequential tests"
fi

finish
