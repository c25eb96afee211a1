/*
 * core/validate.h - the one rule for a run record read from outside:
 * what ingest's parsers can produce, checked on a run that another
 * program wrote (a merged archive's row, bstore's JSON export read back).
 * merge (store/merge.c) and JSON restore (ingest/bstore_json.c) both call
 * it, so that neither stores a run that ingest would not.
 *
 * A run passes when:
 *   - its family is one this bstore knows;
 *   - tool and format are set; format is a name of 1 to
 *     BS_FORMAT_NAME_MAX letters a-z, digits and '.', '+', '_', '-';
 *     tool, tool version, machine, source, parser version, warning and
 *     text parameters are names bs_name_check() accepts;
 *   - its dates are unknown or between 1970 and 9999;
 *   - every result of its family has a status consistent with its value
 *     (ok has a value, too_fast and not_run none and no CPU figure), and
 *     every number within the catalogue's limits (bs_metric_fits); a
 *     metric of another family is not run;
 *   - every parameter of its family that is known fits (bs_param_fits);
 *   - its curves are of its family's metrics that have curves, with
 *     finite positions at or past 0 and rates within the limits;
 *   - its tags have a key and no control character;
 *   - it has its text and a SHA-256 of 64 lowercase hex digits.
 * Otherwise BS_EPARSE, with a message that names the first field that
 * does not ("metric 'put_block': value 1e+308 is out of range (0 to
 * 1e+09 KiB/s)"); user data in it is cut and has no control character.
 */
#ifndef BS_CORE_VALIDATE_H
#define BS_CORE_VALIDATE_H

#include "core/result.h"
#include "util/err.h"

#define BS_FORMAT_NAME_MAX 40

/* Whether s is a format name as above. */
int bs_format_name_ok(const char *s);

int bs_run_check(const struct bs_run *r, struct bs_err *err);

/*
 * The one rule for what a name may hold (a machine, tool, version,
 * source, parser version, warning or text parameter), at every door:
 * ingest's parsers and -m, bstore set, merge and JSON restore. Any bytes
 * of at most BS_NAME_MAX (a line's limit; no NUL): a name is stored as
 * the tool printed it, control characters too (a tab, an escape
 * sequence), for exports are exact and every terminal output shows them
 * as '?' (util/text.h). So a run ingest stores travels through export
 * and merge whole. 0, or BS_EPARSE naming what ("machine 'x...' is
 * longer than 65536 bytes").
 */
#define BS_NAME_MAX 65536
int bs_name_check(const char *what, const char *s, struct bs_err *err);

#endif
