/*
 * cli/guard.c - the one rule for every path bstore writes over or
 * destroys (cli/guard.h): never the archive, the file being measured, or
 * a volume in use.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/guard.h"
#include "cli/msg.h"
#include "core/zcav.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/*
 * The archive and the files SQLite keeps beside it while it is open:
 * writing over any of them loses runs. A WAL archive has no journal, but
 * one that an older SQLite left in rollback mode would.
 */
static const struct {
	const char *suffix;
	const char *what;
} archive_files[] = {
	{"", "is the archive"},
	{"-wal", "is the archive's write-ahead log"},
	{"-shm", "is the archive's shared-memory index"},
	{"-journal", "is the archive's rollback journal"},
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The file a name opens as SQLite reads it: name itself, or for
 * "file:[//[localhost]]PATH[?query][#fragment]" PATH, percent-decoded.
 * Caller frees.
 */
static char *file_of(const char *name)
{
	struct bs_buf b = BS_BUF_INIT;
	const char *p;

	if (strncmp(name, "file:", 5) != 0)
		return xstrdup(name);
	p = name + 5;
	if (strncmp(p, "//", 2) == 0) {
		p += 2;
		if (strncmp(p, "localhost", 9) == 0)
			p += 9;
	}
	for (; *p && *p != '?' && *p != '#'; p++) {
		int hi, lo;

		if (*p == '%' && (hi = hexval(p[1])) >= 0 &&
		    (lo = hexval(p[2])) >= 0) {
			bs_buf_addc(&b, (char)(hi * 16 + lo));
			p += 2;
		} else {
			bs_buf_addc(&b, *p);
		}
	}
	return bs_buf_detach(&b, NULL);
}

/* stat() of the file a name opens (file_of()). */
static int stat_of(const char *name, struct stat *sb)
{
	char *path = file_of(name);
	int rc = stat(path, sb);

	free(path);
	return rc;
}

int bs_cli_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat_of(a, &sa) == 0 && stat_of(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * What path is of the archive's files ("is the archive"), through any
 * link, or NULL. Compares files, not names: a symbolic or hard link to
 * the archive is the archive.
 */
static const char *archive_file(const struct bs_cli *cli, const char *path)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_buf name = BS_BUF_INIT;
	const char *what = NULL;
	struct stat target, sb;
	char *db, *file;
	size_t i;

	if (stat(path, &target) != 0)
		return NULL;
	/* The path bs_cli_open_store() opens; without one, no archive. */
	db = cli->db_path ? xstrdup(cli->db_path) : bs_store_default_path(&err);
	if (db == NULL)
		return NULL;
	file = file_of(db);
	for (i = 0; i < sizeof(archive_files) / sizeof(archive_files[0]); i++) {
		bs_buf_reset(&name);
		bs_buf_addf(&name, "%s%s", file, archive_files[i].suffix);
		if (stat(bs_buf_str(&name), &sb) == 0 &&
		    sb.st_dev == target.st_dev && sb.st_ino == target.st_ino) {
			what = archive_files[i].what;
			break;
		}
	}
	bs_buf_release(&name);
	free(file);
	free(db);
	return what;
}

/* A volume in use, or with a signature: 0, or the error in err. */
static int volume_in_use(const char *path, struct bs_err *err)
{
	struct bs_zcav_volume v;
	int fd, rc;

	if (!bs_zcav_volume(path, &v))
		return 0;
	rc = bs_zcav_check_use(path, &v, err);
	if (rc < 0)
		return rc;
	/* What cannot be read here (a device of root's) is not written
	 * either; the write says why. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	rc = bs_zcav_check_signature(path, &v, fd, err);
	close(fd);
	return rc;
}

int bs_cli_guard(const struct bs_cli *cli, const char *path,
		 const char *measured)
{
	struct bs_err err = BS_ERR_INIT;
	const char *what;

	/* Opening it "w", or renaming over it, would empty the archive. */
	what = archive_file(cli, path);
	if (what) {
		bs_cli_error(cli, "'%s' %s; not writing over it", path, what);
		return BS_EXIT_FAIL;
	}
	if (measured && bs_cli_same_file(path, measured)) {
		bs_cli_error(cli,
			     "'%s' is the file being measured; not writing "
			     "over it",
			     path);
		return BS_EXIT_FAIL;
	}
	if (volume_in_use(path, &err) < 0) {
		bs_cli_perr(cli, &err);
		return BS_EXIT_FAIL;
	}
	return 0;
}
