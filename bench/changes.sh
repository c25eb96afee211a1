#!/bin/bash
# bench/changes.sh - how well bstore finds change points (report/changept.c,
# docs/changes.md), against baselines in the same run, on a corpus of
# series whose noise is drawn from real repeated runs (tests/data/repeats/,
# made by bench/repeats.sh) with shifts injected at known places
# (bench/cpbench.c says how the corpus is drawn). Prints precision, recall
# and F1 (a change found within 5 points of a true one counts), false
# alarms per 1,000 points of the series with no change, and the recall by
# size of shift, for:
#   bstore     report/changept.c at its defaults (--noise 5)
#   cusum      binary segmentation with the CUSUM statistic (cpbench cusum)
#   strucchange  R's breakpoints() at its defaults, on the series of at
#              most STRUC_MAX points (Debian's r-cran-strucchange; skipped
#              when it is not installed); bstore is scored on the same
#              series beside it
#
# The noise comes from two sets of repeats (tests/data/repeats/README):
# "quiet" (the runs made with nothing else on the machine: a dedicated
# benchmark host) and "busy" (the runs made while seven sessions shared
# its 2 cores: noise 4 times larger). The corpus "quiet" (first by
# default) is the goal's: noise as a benchmark host gives it. The corpus
# "both" (second by default) draws each series' pool from the two sets' pools
# together, each pool as likely (67 quiet, 75 busy: 47% of the series
# quiet), and scores every method on the whole corpus and on the series
# of each set apart; "quiet" and "busy" are corpora of one set.
#
#   bench/changes.sh [SERIES [SEED]]     (default 600 series, seed 7)
#   SETS="quiet both" (default; or any of quiet, both, busy) chooses the
#   corpora.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
series=${1:-600}
seed=${2:-7}
struc_max=${STRUC_MAX:-500}
bench_bstore
cpbench=build/release/bench/cpbench
[ -x "$cpbench" ] || cmake --build --preset release -j2 >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# evaluate SET: the corpus of one set of repeats, every method on it.
evaluate() {
	local set=$1 files
	case $set in
	both) files=(tests/data/repeats/*-x*) ;;
	quiet) files=(tests/data/repeats/*-quiet-x*) ;;
	busy) mapfile -t files < <(ls tests/data/repeats/*-x* | grep -v -- -quiet-) ;;
	*) echo "bench/changes.sh: no set '$set' (both, quiet, busy)" >&2; return 2 ;;
	esac
	echo "=== noise from the $set repeats"
	# The pools of real noise: each repeated configuration's metric, its runs'
	# log(value / median) ("+" for too fast), from bstore's own export.
	rm -f "$work/rep.db"
	"$bstore" --db "$work/rep.db" ingest -m repeats "${files[@]}" >/dev/null
	"$bstore" --db "$work/rep.db" export --format csv --long |
		awk -F, 'NR > 1 {
			gsub(/"/, "")
			src = $7; sub(/.*\//, "", src); sub(/-x[0-9]+\..*/, "", src)
			k = src ":" $10
			if ($13 == "too_fast") fast[k] = fast[k] " +"
			else if ($13 == "ok" && $11 > 0) { n[k]++; v[k, n[k]] = $11 }
		}
		END {
			for (k in n) {
				if (n[k] < 10) continue
				m = n[k]
				for (i = 1; i <= m; i++) s[i] = v[k, i]
				for (i = 2; i <= m; i++)	# insertion sort: 20 numbers
					for (j = i; j > 1 && s[j - 1] > s[j]; j--) {
						t = s[j]; s[j] = s[j - 1]; s[j - 1] = t
					}
				med = m % 2 ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
				line = k "\t"
				for (i = 1; i <= m; i++)
					line = line sprintf("%s%.6f", i > 1 ? " " : "", log(v[k, i] / med))
				print line fast[k]
			}
		}' | sort >"$work/pools"
	npools=$(wc -l <"$work/pools")

	"$cpbench" gen "$seed" "$work/pools" "$series" >"$work/corpus"
	npoints=$(awk -F'\t' '{n += split($4, a, " ")} END {print n}' "$work/corpus")
	echo "corpus: $series series, $npoints points, noise from $npools pools of real repeats (seed $seed)"

	run() { # NAME COMMAND...: FOUND into $work/NAME, its CPU seconds kept
		local name=$1
		shift
		/usr/bin/time -f '%U %S' -o "$work/$name.time" "$@" <"$work/corpus" \
			>"$work/$name"
	}
	report() { # NAME CORPUS
		echo "== $1 ($(awk '{printf "%.2f", $1 + $2}' "$work/$1.time") s CPU)"
		"$cpbench" score "$2" "$work/$1" "$work/pools" | sed 's/^/   /'
		[ "$set" = both ] || return 0
		# The same, on the series of each set apart (a quiet pool's
		# name has "-quiet").
		local part
		for part in quiet busy; do
			awk -F'\t' -v q="$part" '($2 ~ /-quiet/) == (q == "quiet")' \
				"$2" >"$work/part"
			awk -F'\t' 'NR == FNR {keep[$1] = 1; next} $1 in keep' \
				"$work/part" "$work/$1" >"$work/part-found"
			echo "   -- $part series ($(wc -l <"$work/part")):"
			"$cpbench" score "$work/part" "$work/part-found" \
				"$work/pools" | sed 's/^/      /'
		done
	}
	run bstore "$cpbench" detect
	run cusum "$cpbench" cusum
	report bstore "$work/corpus"
	report cusum "$work/corpus"

	if [ "$set" = busy ]; then
		:
	elif Rscript -e 'suppressMessages(library(strucchange))' 2>/dev/null; then
		run strucchange Rscript bench/changes-strucchange.R 5 "$struc_max"
		# The same series for each: those strucchange ran on.
		awk -F'\t' -v max="$struc_max" 'split($4, a, " ") <= max' \
			"$work/corpus" >"$work/small"
		for m in bstore cusum strucchange; do
			awk -F'\t' 'NR == FNR {keep[$1] = 1; next} $1 in keep' \
				"$work/small" "$work/$m" >"$work/$m-small"
			cp "$work/$m.time" "$work/$m-small.time"
		done
		echo "series of at most $struc_max points ($(wc -l <"$work/small") series):"
		for m in bstore cusum strucchange; do
			report "$m-small" "$work/small"
		done
	else
		echo "strucchange: not installed (apt-get install r-cran-strucchange)"
	fi
}

for set in ${SETS:-quiet both}; do
	evaluate "$set"
done
