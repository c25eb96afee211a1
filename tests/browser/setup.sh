# tests/browser/setup.sh - sourced by the scripts of tests/browser/ that
# check bstore's pages in headless Chromium, with their arguments
# ([--screenshots DIR]). Sets src (the source tree, now the working
# directory), bstore ($BSTORE, default build/dev/cli/bstore), shots (DIR,
# or empty), browser (Debian's chromium), work (a scratch directory,
# removed on exit, that holds the archive BSTORE_DB) and ingest(), a
# quiet bstore ingest. Without chromium or python3 (the DevTools client
# is standard library only) it says so and exits 77, a skip for ctest:
# installing them is scripts/test's job (scripts/deps.sh chromium
# python3), never a test's.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
bstore=${BSTORE:-$src/build/dev/cli/bstore}
shots=
if [ "${1:-}" = --screenshots ]; then
	shots=$(mkdir -p "$2" && cd "$2" && pwd)
fi
for tool in chromium python3; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "$(basename "$0"): skipped: '$tool' is not installed"
		exit 77
	fi
done
browser=$(command -v chromium)
work=$(mktemp -d "${TMPDIR:-/tmp}/bstore-browser.XXXXXX")
trap 'rm -rf "$work"' EXIT
export BSTORE_DB=$work/b.db
cd "$src"
ingest() { "$bstore" --quiet ingest "$@" >/dev/null; }
