#!/usr/bin/env bash
# tests/pg/run.sh TEST [ARGS...] - runs a test (a script, tests/cli/*.sh,
# or a unit test's executable that takes BSTORE_TEST_DB) against an archive in a throwaway PostgreSQL cluster
# (tests/pg/cluster.sh): BSTORE_TEST_DB is the cluster's URL, which
# tests/lib.sh makes the test's archive ($DB, $BSTORE_DB) instead of a
# file. ctest's pg.cli.* run the command-line tests so. Exits 77
# (skipped) where the cluster cannot be started: postgresql not installed
# (Debian package postgresql), or a bstore built without libpq.
set -euo pipefail
: "${SRC:?}" "${BSTORE:?}"
bin=$BSTORE
case $1 in *.sh) ;; *) bin=$1 ;; esac
# (ldd's output is read whole: grep -q would end it early, and
# pipefail would take its SIGPIPE for a failure.)
if ! ldd "$bin" 2>/dev/null | grep 'libpq\.' >/dev/null; then
	echo "$(basename "$1" .sh): skipped: this bstore has no PostgreSQL backend (built without libpq: Debian package libpq-dev)"
	exit 77
fi
# Its own scratch directory: cli.X and pg.cli.X run at once under ctest -j,
# and tests/lib.sh clears $SCRATCH/X before a test.
if [ -n "${SCRATCH:-}" ]; then
	export SCRATCH=$SCRATCH/pg
	mkdir -p "$SCRATCH"
fi
. "$SRC/tests/pg/cluster.sh"
pg_cluster bstore
export PG_BIN
set +e
case $1 in
*.sh) BSTORE_TEST_DB=$PG_URL bash "$@" ;;
*) BSTORE_TEST_DB=$PG_URL "$@" ;;
esac
rc=$?
set -e
exit "$rc"
