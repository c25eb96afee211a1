# bench/changes-strucchange.R - the baseline of bench/changes.sh: R's
# strucchange (Zeileis et al. 2002) breakpoints() at its defaults (a level
# model y ~ 1 on the logs, h = 0.15, the number of breaks by BIC), on a
# cpbench corpus from standard input; prints cpbench's FOUND lines. As for
# bstore, a break whose neighbouring medians differ by less than the noise
# threshold (the first argument, percent) is dropped. Series longer than
# the second argument are skipped ("-"): breakpoints() is O(n^2) in R
# (1,000 points take 20 s here).
suppressMessages(library(strucchange))
args <- commandArgs(trailingOnly = TRUE)
noise <- as.numeric(args[1])
maxn <- as.numeric(args[2])
con <- file("stdin")
for (line in readLines(con)) {
	f <- strsplit(line, "\t", fixed = TRUE)[[1]]
	p <- strsplit(f[4], " ", fixed = TRUE)[[1]]
	ok <- which(p != "+" & p != "-")
	v <- suppressWarnings(as.numeric(p[ok]))
	found <- integer(0)
	if (length(p) <= maxn && length(v) >= 10 && all(v > 0)) {
		y <- log(v)
		# Under 14 numbers its default h (15%) is a segment of one:
		# breakpoints() refuses, so such a series has no break.
		bp <- tryCatch(breakpoints(y ~ 1)$breakpoints,
			       error = function(e) NA)
		if (!all(is.na(bp))) {
			cuts <- c(0, bp, length(y))
			for (i in seq_along(bp)) {
				l <- median(y[(cuts[i] + 1):cuts[i + 1]])
				r <- median(y[(cuts[i + 1] + 1):cuts[i + 2]])
				if (abs(exp(r - l) - 1) * 100 >= noise)
					found <- c(found, ok[bp[i] + 1] - 1)
			}
		}
	}
	cat(f[1], "\t", if (length(found)) paste(found, collapse = ",") else "-",
	    "\n", sep = "")
}
close(con)
