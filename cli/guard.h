/*
 * cli/guard.h - the one rule for every path bstore writes over or
 * destroys: -o FILE (report, compare, export, trend, site's pages through
 * bs_cli_out_open()), zcav's -l LOG and -w TARGET, fileio's test files.
 * A command asks here before it opens the path for writing.
 *
 * Refused, whatever the path is called (files are compared by device and
 * inode, so a symbolic or hard link is the file it names):
 *   - the archive (--db, $BSTORE_DB or the default; a SQLite "file:" URI
 *     names the file in its path) and its -wal, -shm and -journal files;
 *   - the file being measured (measured, when not NULL);
 *   - a volume (core/zcav.h: a block device, or a regular file that
 *     backs a loop device) that is mounted, swap, held by another device
 *     or holds a file-system or partition-table signature.
 * zcav -w's further rule for a volume (--yes-destroy-data) is
 * bs_zcav_open()'s.
 */
#ifndef BS_CLI_GUARD_H
#define BS_CLI_GUARD_H

#include "cli/cli.h"

/*
 * 0 when bstore may write over path; else prints why ("'a.db' is the
 * archive; not writing over it") and returns BS_EXIT_FAIL. A path that
 * does not exist yet is never refused.
 */
int bs_cli_guard(const struct bs_cli *cli, const char *path,
		 const char *measured);

/*
 * Whether a and b name the same existing file (device and inode, through
 * any link). A name starting with "file:" is read as SQLite reads it: the
 * file of the URI's path.
 */
int bs_cli_same_file(const char *a, const char *b);

#endif
