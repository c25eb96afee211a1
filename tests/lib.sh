# tests/lib.sh - shared by the CLI tests in tests/cli/ (source "$SRC/tests/lib.sh").
# Gives each test a private scratch directory and archive, and small
# assertion helpers that say what differed.
#
# A test never installs anything (scripts/test does, before the suite
# runs). One whose tool is missing exits 77, which ctest reports as
# Skipped: at once with need(), or, when only a part of it needs the tool,
# at finish() after the other checks ran (skip_part()).
set -euo pipefail
: "${BSTORE:?BSTORE must point at the built bstore}"
: "${SAMPLES:?}" "${GOLDEN:?}" "${SCRATCH:?}"
T=$SCRATCH/$(basename "$0" .sh)
rm -rf "$T"
mkdir -p "$T"
# The archive: a file, or the PostgreSQL archive BSTORE_TEST_DB names
# (tests/pg/run.sh runs a test so, as ctest's pg.cli.* do).
DB=${BSTORE_TEST_DB:-$T/test.db}
export BSTORE_DB=$DB
unset XDG_DATA_HOME
fails=0
skipped=

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# run CMD...: runs it, keeping stdout in $T/out, stderr in $T/err, status in $rc.
run() {
	set +e
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
}

expect_rc() {
	if [ "$rc" -ne "$1" ]; then
		fail "${2:-command}: exit status $rc, expected $1"
		sed 's/^/    stderr: /' "$T/err" | head -5 >&2
	fi
}

# expect_in FILE TEXT: TEXT (fixed string) appears in FILE.
expect_in() {
	if ! grep -qF -- "$2" "$1"; then
		fail "'$2' not found in $(basename "$1"):"
		sed 's/^/    /' "$1" | head -10 >&2
	fi
}

expect_not_in() {
	if grep -qF -- "$2" "$1"; then
		fail "'$2' unexpectedly found in $(basename "$1")"
	fi
}

expect_eq() {
	if [ "$1" != "$2" ]; then
		fail "${3:-value}: got '$1', expected '$2'"
	fi
}

# golden NAME FILE: FILE must equal tests/golden/NAME. With
# BSTORE_UPDATE_GOLDEN=1 the golden file is rewritten instead.
golden() {
	if [ "${BSTORE_UPDATE_GOLDEN:-0}" = 1 ]; then
		mkdir -p "$(dirname "$GOLDEN/$1")"
		cp "$2" "$GOLDEN/$1"
		return
	fi
	if ! diff -u "$GOLDEN/$1" "$2" >"$T/diff"; then
		fail "output differs from golden $1:"
		head -40 "$T/diff" >&2
	fi
}

# expect_style FILE: FILE (a captured stderr) is not empty and every line is
# in STYLE.md's form: "bstore: [CMD: ][warning: ]message" starting lowercase
# and without a final period, or "Try 'bstore [CMD ]--help'.".
expect_style() {
	local bad
	if [ ! -s "$1" ]; then
		fail "no message in $(basename "$1")"
		return
	fi
	bad=$(grep -vE "^Try 'bstore ([a-z]+ )?--help'\.\$" "$1" |
		grep -vE '^bstore: ((compare|export|fileio|ingest|list|merge|report|rm|run|show|site|tag|trend): )?(warning: )?[^A-Z].*[^.]$' || true)
	if [ -n "$bad" ]; then
		fail "not in STYLE.md's message form:"
		echo "$bad" | sed 's/^/    /' | head -5 >&2
	fi
}

# have TOOL...: whether every TOOL is installed; the first missing one is
# left in $missing.
have() {
	local t
	for t in "$@"; do
		if ! command -v "$t" >/dev/null 2>&1; then
			missing=$t
			return 1
		fi
	done
}

# need TOOL...: the test cannot run without them. When one is missing, says
# which in one line and exits 77 (ctest: Skipped).
need() {
	if ! have "$@"; then
		echo "$(basename "$0"): skipped: '$missing' is not installed"
		exit 77
	fi
}

# skip_part WHAT: WHAT, a part of the test, cannot run here (say why in
# it). The rest runs; finish() then exits 77 instead of 0, so that ctest
# reports the test as Skipped rather than Passed.
skip_part() {
	skipped=${skipped:+$skipped; }$*
}

# wait_for GLOB [SECONDS]: until a path matching GLOB exists (at most
# SECONDS, 10 by default); false when none came.
wait_for() {
	local _
	for _ in $(seq 1 $((${2:-10} * 50))); do
		if compgen -G "$1" >/dev/null; then
			return 0
		fi
		sleep 0.02
	done
	return 1
}

# wait_in FILE TEXT [SECONDS]: until FILE holds TEXT (a fixed string; at
# most SECONDS, 30 by default); false when it never came.
wait_in() {
	local _
	for _ in $(seq 1 $((${3:-30} * 50))); do
		if grep -qF -- "$2" "$1" 2>/dev/null; then
			return 0
		fi
		sleep 0.02
	done
	return 1
}

# wait_syscall PID CALL [ARG]: until process PID is blocked in the system
# call CALL (read; poll: poll or ppoll, as bstore waits for a FIFO's
# writer; sleep: nanosleep or clock_nanosleep), with ARG its first
# argument if given (read's file descriptor, in hex: 0x0), as
# /proc/PID/syscall shows it; that is, until PID waits for what the test
# holds back: an event rather than a guess of how long it takes to get
# there. False when PID ended or after 30 s. Where the kernel does not
# show it (no /proc/PID/syscall, an architecture not listed here), it
# waits 1 s, as the tests once did.
wait_syscall() {
	local nums call arg _
	case $(uname -m):$2 in
	x86_64:read) nums=" 0 " ;;
	x86_64:poll) nums=" 7 271 " ;;
	x86_64:sleep) nums=" 35 230 " ;;
	aarch64:read) nums=" 63 " ;;
	aarch64:poll) nums=" 73 " ;;
	aarch64:sleep) nums=" 101 115 " ;;
	*) nums= ;;
	esac
	if [ -z "$nums" ] || ! [ -r "/proc/$1/syscall" ]; then
		sleep 1
		kill -0 "$1" 2>/dev/null
		return
	fi
	for _ in $(seq 1 1500); do
		read -r call arg _ <"/proc/$1/syscall" 2>/dev/null || return 1
		case $nums in
		*" $call "*)
			if [ -z "${3:-}" ] || [ "$arg" = "$3" ]; then
				return 0
			fi
			;;
		esac
		sleep 0.02
	done
	return 1
}

# sql QUERY: the archive's rows, '|' between columns: sqlite3, or psql
# for a PostgreSQL archive (where SQLite's own functions do not exist).
sql() {
	case $DB in
	postgres://* | postgresql://*)
		"${PG_BIN:+$PG_BIN/}psql" -X -q -A -t -F '|' -v ON_ERROR_STOP=1 \
			-d "$DB" -c "$1"
		;;
	*) sqlite3 -batch "$DB" "$1" ;;
	esac
}

# finish: the test's status. A failed test keeps its files in $T to be
# looked at; one that passed (or was skipped) removes them, for $SCRATCH
# is usually a tmpfs, that is memory (tests/CMakeLists.txt).
finish() {
	if [ "$fails" -ne 0 ]; then
		[ -z "$skipped" ] || echo "$(basename "$0"): skipped: $skipped" >&2
		echo "$(basename "$0"): $fails check(s) failed" >&2
		exit 1
	fi
	rm -rf "$T" 2>/dev/null || true
	if [ -n "$skipped" ]; then
		echo "$(basename "$0"): skipped: $skipped"
		exit 77
	fi
	echo "$(basename "$0"): all checks passed"
}

# v6_hist_rows EXPORT: the histograms of a JSON export (EXPORT, one run a
# line) as schema version 6 kept them: INSERT statements of series rows,
# one a bin (x the value, y the count), for the upgrade tests of version
# 7's distributions.
v6_hist_rows() {
	jq -r '.id as $id | (.series // {}) | to_entries[] |
		select(.key | test("_hist$|^latency_histogram$")) | .key as $m |
		.value | to_entries[] | (.value | keys_unsorted) as $k |
		"INSERT INTO series VALUES (\($id), '\''\($m)'\'', \(.key), '\''\($k[0])'\'', \(.value[$k[0]]), \(.value[$k[1]]), NULL);"' \
		"$1"
}

# linked_archive: the archive ($DB) holds bonnie++ 1.03's samples, $runs
# of them; archive_restore puts it back as ingested, without SQLite's -wal
# and -shm files, with $T/link.db (a symbolic link) and $T/hard.db (a hard
# link) naming it. For the tests of what may never be written over.
linked_archive() {
	run "$BSTORE" -q ingest "$SAMPLES"/bonnie++-1.03-*.txt
	expect_rc 0 "ingest samples"
	runs=$(sql "SELECT count(*) FROM runs")
	cp "$DB" "$T/pristine.db"
}
archive_restore() {
	cp "$T/pristine.db" "$DB"
	rm -f "$DB-wal" "$DB-shm" "$T/link.db" "$T/hard.db"
	ln -s "$DB" "$T/link.db"
	ln "$DB" "$T/hard.db"
}
