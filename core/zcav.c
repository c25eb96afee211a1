/*
 * core/zcav.c - throughput by position, as bonnie++ 2.00a's zcav measures
 * it (core/zcav.h): opening the target with its safety checks, timing
 * each block, and the printout and run record.
 */
/* O_DIRECT, pread/pwrite on 64-bit offsets. */
#define _GNU_SOURCE
#include "core/zcav.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include "core/scratch.h"
#include "core/timer.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

#define MIB (1024ull * 1024ull)
#define ALIGN 4096
/* Enough of a volume's start to see every signature below (btrfs). */
#define SIG_BYTES (68 * 1024)

void bs_zcav_defaults(struct bs_zcav_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->block_mib = 512;
	o->chunk_mib = 1;
	o->passes = 1;
	o->skip = 1;
	o->min_time_s = BS_ZCAV_MIN_TIME_S;
}

static int parse_mib(const char *s, size_t n, int64_t *v)
{
	uint64_t u;

	if (bs_parse_u64(s, n, &u) < 0 || u > (uint64_t)INT32_MAX)
		return -1;
	*v = (int64_t)u;
	return 0;
}

int bs_zcav_parse_b(struct bs_zcav_opts *o, const char *arg, struct bs_err *err)
{
	const char *colon = strchr(arg, ':');
	int64_t block, chunk = 1;

	if (parse_mib(arg, colon ? (size_t)(colon - arg) : strlen(arg),
		      &block) < 0 ||
	    block < 1 ||
	    (colon && (parse_mib(colon + 1, strlen(colon + 1), &chunk) < 0 ||
		       chunk < 1)))
		return bs_error(err, BS_EINVAL,
				"-b: expected BLOCK[:CHUNK] in MiB, "
				"got '%.40s'",
				arg);
	/* The chunk is one buffer in memory. */
	if (chunk > BS_ZCAV_CHUNK_MAX_MIB)
		return bs_error(err, BS_EINVAL,
				"-b: a chunk of %lld MiB is over the limit of "
				"%d MiB",
				(long long)chunk, BS_ZCAV_CHUNK_MAX_MIB);
	if (chunk > block)
		return bs_error(err, BS_EINVAL,
				"-b: the chunk (%lld MiB) must not be larger "
				"than the block (%lld MiB)",
				(long long)chunk, (long long)block);
	o->block_mib = block;
	o->chunk_mib = chunk;
	return 0;
}

int bs_zcav_parse_r(const char *arg, int64_t *first_mib, int64_t *last_mib,
		    struct bs_err *err)
{
	const char *colon = strchr(arg, ':');

	*first_mib = 0;
	if ((colon && parse_mib(arg, (size_t)(colon - arg), first_mib) < 0) ||
	    parse_mib(colon ? colon + 1 : arg, strlen(colon ? colon + 1 : arg),
		      last_mib) < 0)
		return bs_error(err, BS_EINVAL,
				"-r: expected [FIRST:]LAST in MiB, got '%.40s'",
				arg);
	if (*last_mib <= *first_mib)
		return bs_error(err, BS_EINVAL,
				"-r: the end (%lld MiB) must be past the start "
				"(%lld MiB)",
				(long long)*last_mib, (long long)*first_mib);
	return 0;
}

/* ---- safety checks for -w on a device ---- */

static int le16_at(const unsigned char *b, size_t len, size_t at, unsigned v)
{
	return at + 2 <= len && (unsigned)(b[at] | b[at + 1] << 8) == v;
}

static int bytes_at(const unsigned char *b, size_t len, size_t at,
		    const char *s, size_t n)
{
	return at + n <= len && memcmp(b + at, s, n) == 0;
}

const char *bs_zcav_signature(const unsigned char *b, size_t len)
{
	/* clang-format off */
	static const struct {
		size_t at;
		const char *magic;
		size_t n;
		const char *name;
	} sigs[] = {
		{ 0,     "XFSB",                 4, "xfs" },
		{ 0,     "LUKS\xba\xbe",         6, "LUKS" },
		{ 65600, "_BHRfS_M",             8, "btrfs" },
		{ 4086,  "SWAPSPACE2",          10, "swap" },
		{ 4086,  "SWAP-SPACE",          10, "swap" },
		{ 65526, "SWAPSPACE2",          10, "swap" }, /* 64 KiB pages */
		{ 512,   "EFI PART",             8, "GPT" },
		{ 3,     "NTFS    ",             8, "NTFS" },
		{ 54,    "FAT",                  3, "FAT" },
		{ 82,    "FAT32",                5, "FAT" },
		{ 32769, "CD001",                5, "iso9660" },
		{ 65536 + 8, "ReIsEr",           6, "reiserfs" },
		{ 1024,  "\x10\x20\xf5\xf2",     4, "f2fs" },
	};
	/* clang-format on */
	size_t i;

	/* ext2/3/4: the superblock's s_magic, 1024 + 56. */
	if (le16_at(b, len, 1080, 0xef53))
		return "ext2/3/4";
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (bytes_at(b, len, sigs[i].at, sigs[i].magic, sigs[i].n))
			return sigs[i].name;
	/* An MBR (or a FAT or NTFS boot sector): 0x55 0xaa ends sector 0. */
	if (len >= 512 && b[510] == 0x55 && b[511] == 0xaa)
		return "MBR";
	return NULL;
}

/* The disk a partition belongs to (its own dev_t for a whole disk). */
static dev_t whole_disk(dev_t d)
{
	char path[128], real[PATH_MAX], buf[64];
	unsigned maj, min;
	char *slash;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(d),
		 minor(d));
	if (realpath(path, real) == NULL)
		return d;
	{
		char part[PATH_MAX + 16];

		snprintf(part, sizeof(part), "%s/partition", real);
		if (access(part, F_OK) != 0)
			return d;
	}
	slash = strrchr(real, '/');
	if (slash == NULL)
		return d;
	*slash = '\0';
	{
		char devf[PATH_MAX + 8];

		snprintf(devf, sizeof(devf), "%s/dev", real);
		f = fopen(devf, "r");
	}
	if (f == NULL)
		return d;
	if (fgets(buf, sizeof(buf), f) == NULL ||
	    sscanf(buf, "%u:%u", &maj, &min) != 2) {
		fclose(f);
		return d;
	}
	fclose(f);
	return makedev(maj, min);
}

/*
 * Where the device (or a partition of it) is mounted, from
 * /proc/self/mountinfo; 1 and the mount point in mnt when it is.
 */
static int mounted(dev_t dev, char *mnt, size_t size)
{
	char line[4096];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int found = 0;

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char point[1024];
		dev_t d;

		/* "36 35 98:0 /mnt1 /mnt2 rw,noatime ..." */
		if (sscanf(line, "%*d %*d %u:%u %*s %1023s", &maj, &min,
			   point) != 3)
			continue;
		d = makedev(maj, min);
		if (d == dev || (major(d) != 0 && whole_disk(d) == dev)) {
			snprintf(mnt, size, "%s", point);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* Whether the device is an active swap area (/proc/swaps). */
static int swap_on(dev_t dev)
{
	char line[1024], name[1024];
	FILE *f = fopen("/proc/swaps", "r");
	struct stat st;
	int found = 0;

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%1023s", name) == 1 && stat(name, &st) == 0 &&
		    S_ISBLK(st.st_mode) &&
		    (st.st_rdev == dev || whole_disk(st.st_rdev) == dev))
			found = 1;
	fclose(f);
	return found;
}

/* The first device in dir's holders/ (sysfs) into name; 1 when any. */
static int first_holder(const char *dir, char *name, size_t size)
{
	struct bs_buf p = BS_BUF_INIT;
	struct dirent *e;
	int found = 0;
	DIR *d;

	bs_buf_addf(&p, "%s/holders", dir);
	d = opendir(bs_buf_str(&p));
	bs_buf_release(&p);
	if (d == NULL)
		return 0;
	while (!found && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.') {
			snprintf(name, size, "%s", e->d_name);
			found = 1;
		}
	closedir(d);
	return found;
}

/*
 * A device built on dev or on a partition of it (device-mapper, md, a
 * bcache): 1 and its name when there is one. O_EXCL says "busy" for
 * those too, but only to whoever may open the device.
 */
static int held(dev_t dev, char *name, size_t size)
{
	struct bs_buf dir = BS_BUF_INIT, part = BS_BUF_INIT;
	struct dirent *e;
	int found;
	DIR *d;

	bs_buf_addf(&dir, "/sys/dev/block/%u:%u", major(dev), minor(dev));
	found = first_holder(bs_buf_str(&dir), name, size);
	d = found ? NULL : opendir(bs_buf_str(&dir));
	while (d && !found && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		bs_buf_reset(&part);
		bs_buf_addf(&part, "%s/%s/partition", bs_buf_str(&dir),
			    e->d_name);
		if (access(bs_buf_str(&part), F_OK) != 0)
			continue;
		bs_buf_reset(&part);
		bs_buf_addf(&part, "%s/%s", bs_buf_str(&dir), e->d_name);
		found = first_holder(bs_buf_str(&part), name, size);
	}
	if (d)
		closedir(d);
	bs_buf_release(&part);
	bs_buf_release(&dir);
	return found;
}

/* "it", or "it backs '/dev/loop3', and that device": what a message
 * says is mounted, swap, held or signed. */
static const char *subject(const struct bs_zcav_volume *v, char *buf,
			   size_t size)
{
	if (v == NULL || v->via[0] == '\0')
		return "it";
	snprintf(buf, size, "it backs '%s', and that device", v->via);
	return buf;
}

/* Whether dev (or a partition of it) is mounted, swap or held: 0, or
 * the error in err, naming path and who says what is in use. */
static int check_one(const char *path, dev_t dev, const char *who,
		     struct bs_err *err)
{
	char mnt[1024], holder[256];

	if (mounted(dev, mnt, sizeof(mnt)))
		return bs_error(err, BS_EINVAL,
				"refusing to write to '%s': %s (or a partition "
				"of it) is mounted on '%s'",
				path, who, mnt);
	if (swap_on(dev))
		return bs_error(err, BS_EINVAL,
				"refusing to write to '%s': %s is in use as "
				"swap",
				path, who);
	if (held(dev, holder, sizeof(holder)))
		return bs_error(err, BS_EINVAL,
				"refusing to write to '%s': %s (or a partition "
				"of it) is held by '%s'",
				path, who, holder);
	return 0;
}

/*
 * The file a loop device reads and writes, from sysfs
 * (/sys/dev/block/M:m/loop/backing_file): 1 and its stat() when dev is
 * a loop device with a file attached.
 */
static int loop_file(const char *sysdir, struct stat *sb)
{
	char line[PATH_MAX + 16];
	struct bs_buf p = BS_BUF_INIT;
	size_t n;
	FILE *f;

	bs_buf_addf(&p, "%s/loop/backing_file", sysdir);
	f = fopen(bs_buf_str(&p), "r");
	bs_buf_release(&p);
	if (f == NULL)
		return 0;
	n = fgets(line, sizeof(line), f) ? strcspn(line, "\n") : 0;
	fclose(f);
	line[n] = '\0';
	return n > 0 && stat(line, sb) == 0;
}

/*
 * Every other loop device over the same file as dev (a loop device, or
 * a partition of one) writes the same bytes: refused when any of them
 * is in use, as dev itself would be.
 */
static int check_siblings(const char *path, dev_t dev, struct bs_err *err)
{
	struct bs_buf p = BS_BUF_INIT;
	struct stat file;
	struct dirent *e;
	dev_t disk = whole_disk(dev);
	int rc = 0;
	DIR *d;

	bs_buf_addf(&p, "/sys/dev/block/%u:%u", major(disk), minor(disk));
	if (!loop_file(bs_buf_str(&p), &file)) {
		bs_buf_release(&p);
		return 0;
	}
	d = opendir("/sys/block");
	while (d && rc == 0 && (e = readdir(d)) != NULL) {
		char line[64], who[160];
		unsigned maj, min;
		struct stat sb;
		FILE *f;

		if (strncmp(e->d_name, "loop", 4) != 0)
			continue;
		bs_buf_reset(&p);
		bs_buf_addf(&p, "/sys/block/%s", e->d_name);
		if (!loop_file(bs_buf_str(&p), &sb) ||
		    sb.st_dev != file.st_dev || sb.st_ino != file.st_ino)
			continue;
		bs_buf_adds(&p, "/dev");
		f = fopen(bs_buf_str(&p), "r");
		if (f == NULL)
			continue;
		if (fgets(line, sizeof(line), f) &&
		    sscanf(line, "%u:%u", &maj, &min) == 2 &&
		    makedev(maj, min) != disk) {
			snprintf(who, sizeof(who),
				 "'/dev/%.32s' is a loop device over the same "
				 "file, and that device",
				 e->d_name);
			rc = check_one(path, makedev(maj, min), who, err);
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	bs_buf_release(&p);
	return rc;
}

int bs_zcav_check_use(const char *path, const struct bs_zcav_volume *v,
		      struct bs_err *err)
{
	char who[128];
	int rc;

	rc = check_one(path, v->dev, subject(v, who, sizeof(who)), err);
	if (rc < 0)
		return rc;
	return check_siblings(path, v->dev, err);
}

int bs_zcav_check_signature(const char *path, const struct bs_zcav_volume *v,
			    int fd, struct bs_err *err)
{
	unsigned char *buf = NULL;
	const char *sig;
	char who[128];
	ssize_t n;

	if (posix_memalign((void **)&buf, ALIGN, SIG_BYTES) != 0)
		abort();
	memset(buf, 0, SIG_BYTES);
	n = pread(fd, buf, SIG_BYTES, 0);
	if (n < 0) {
		int e = errno;

		free(buf);
		return bs_error(err, BS_EIO, "cannot read '%s': %s", path,
				strerror(e));
	}
	sig = bs_zcav_signature(buf, (size_t)n);
	free(buf);
	if (sig)
		return bs_error(err, BS_EINVAL,
				"refusing to write to '%s': %s holds a %s "
				"signature (wipe it first if its data is "
				"really to be destroyed)",
				path, subject(v, who, sizeof(who)), sig);
	return 0;
}

/* The loop device whose backing file is the file of sb, into v. */
static int loop_backed(const struct stat *sb, struct bs_zcav_volume *v)
{
	struct bs_buf p = BS_BUF_INIT;
	struct dirent *e;
	int found = 0;
	DIR *d = opendir("/sys/block");

	while (d && !found && (e = readdir(d)) != NULL) {
		char line[PATH_MAX + 16];
		unsigned maj, min;
		struct stat bs;
		size_t n;
		FILE *f;

		if (strncmp(e->d_name, "loop", 4) != 0)
			continue;
		bs_buf_reset(&p);
		bs_buf_addf(&p, "/sys/block/%s/loop/backing_file", e->d_name);
		f = fopen(bs_buf_str(&p), "r");
		if (f == NULL)
			continue; /* no file attached */
		n = fgets(line, sizeof(line), f) ? strcspn(line, "\n") : 0;
		fclose(f);
		line[n] = '\0';
		if (n == 0 || stat(line, &bs) != 0 || bs.st_dev != sb->st_dev ||
		    bs.st_ino != sb->st_ino)
			continue;
		bs_buf_reset(&p);
		bs_buf_addf(&p, "/sys/block/%s/dev", e->d_name);
		f = fopen(bs_buf_str(&p), "r");
		if (f == NULL)
			continue;
		if (fgets(line, sizeof(line), f) &&
		    sscanf(line, "%u:%u", &maj, &min) == 2) {
			v->dev = makedev(maj, min);
			/* "loop" and digits: always fits. */
			if (strlen(e->d_name) < sizeof(v->via) - 5) {
				memcpy(v->via, "/dev/", 5);
				memcpy(v->via + 5, e->d_name,
				       strlen(e->d_name) + 1);
				found = 1;
			}
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	bs_buf_release(&p);
	return found;
}

int bs_zcav_volume(const char *path, struct bs_zcav_volume *v)
{
	struct stat sb;

	memset(v, 0, sizeof(*v));
	if (stat(path, &sb) != 0)
		return 0;
	if (S_ISBLK(sb.st_mode)) {
		v->dev = sb.st_rdev;
		return 1;
	}
	return S_ISREG(sb.st_mode) && loop_backed(&sb, v);
}

/* ---- opening ---- */

static int too_small(const struct bs_zcav_opts *o, int64_t pos,
		     struct bs_err *err);

static int open_target(const char *path, int write, int direct, int excl)
{
	int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC;

	if (direct)
		flags |= O_DIRECT;
	if (excl)
		flags |= O_EXCL;
	return open(path, flags);
}

int bs_zcav_open(const struct bs_zcav_opts *o, struct bs_zcav_target *t,
		 struct bs_err *err)
{
	struct bs_zcav_volume vol;
	uint64_t bound, block;
	struct stat st;
	int64_t pos;
	int excl, is_vol, known, rc;

	t->fd = -1;
	if (stat(o->path, &st) != 0)
		return bs_error(err, BS_EIO, "cannot open '%s': %s", o->path,
				strerror(errno));
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return bs_error(err, BS_EINVAL,
				"'%s' is neither a regular file nor a block "
				"device",
				o->path);
	t->is_device = S_ISBLK(st.st_mode);
	/* A file that backs a loop device is that device: writing the
	 * file writes the device, so it takes the same checks. */
	is_vol = o->write && bs_zcav_volume(o->path, &vol);
	if (is_vol && !o->yes_destroy_data) {
		if (vol.via[0])
			return bs_error(err, BS_EINVAL,
					"refusing to write to '%s': it backs "
					"the block device '%s'; -w destroys "
					"its data; give --yes-destroy-data to "
					"do it",
					o->path, vol.via);
		return bs_error(err, BS_EINVAL,
				"refusing to write to block device '%s': -w "
				"destroys its data; give --yes-destroy-data "
				"to do it",
				o->path);
	}
	if (is_vol && (rc = bs_zcav_check_use(o->path, &vol, err)) < 0)
		return rc;
	/* O_EXCL on a block device fails with EBUSY while the kernel uses
	 * it (mounted, swap, a member of md or device-mapper). */
	excl = o->write && t->is_device;
	t->direct = !o->no_direct;
	t->fd = open_target(o->path, o->write, t->direct, excl);
	if (t->fd < 0 && errno == EINVAL && t->direct) {
		t->direct = 0;
		t->fd = open_target(o->path, o->write, 0, excl);
	}
	if (t->fd < 0) {
		if (excl && errno == EBUSY)
			return bs_error(err, BS_EINVAL,
					"refusing to write to '%s': the device "
					"is busy (mounted or in use)",
					o->path);
		return bs_error(err, BS_EIO, "cannot open '%s': %s", o->path,
				strerror(errno));
	}
	if (is_vol &&
	    (rc = bs_zcav_check_signature(o->path, &vol, t->fd, err)) < 0) {
		bs_zcav_close(t);
		return rc;
	}
	if (t->is_device) {
		uint64_t bytes = 0;

		if (ioctl(t->fd, BLKGETSIZE64, &bytes) == 0)
			t->size_bytes = bytes;
		t->limit_bytes = t->size_bytes;
	} else {
		t->size_bytes = (uint64_t)st.st_size;
		/* A write never makes a file longer unless -r asks. */
		t->limit_bytes = o->write && o->last_block == 0 ? t->size_bytes
								: 0;
	}
	/* Some file systems take O_DIRECT at open and refuse it at the
	 * first read: find out now, so the printout says the truth. */
	if (t->direct && !o->write) {
		void *probe = NULL;

		if (posix_memalign(&probe, ALIGN, ALIGN) != 0)
			abort();
		if (pread(t->fd, probe, ALIGN, 0) < 0 && errno == EINVAL) {
			close(t->fd);
			t->direct = 0;
			t->fd = open_target(o->path, 0, 0, 0);
		}
		free(probe);
		if (t->fd < 0)
			return bs_error(err, BS_EIO, "cannot open '%s': %s",
					o->path, strerror(errno));
	}
	if (!t->direct && !o->write)
		(void)posix_fadvise(t->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	/* Check first, print after: a target without one block where the
	 * range starts is refused before a line says it is written. Where
	 * the blocks end is known for a device that told its size and for
	 * a file (its size), unless -w -r makes it longer. An empty file
	 * is no exception: without this, -w would make it longer. */
	known = t->limit_bytes ||
		(!t->is_device && (!o->write || o->last_block == 0));
	bound = t->limit_bytes ? t->limit_bytes : t->size_bytes;
	pos = o->first_block * o->skip;
	block = (uint64_t)o->block_mib * MIB;
	if (known && ((uint64_t)pos >= (uint64_t)INT64_MAX / block ||
		      (uint64_t)pos * block + block > bound)) {
		bs_zcav_close(t);
		return too_small(o, pos, err);
	}
	return 0;
}

void bs_zcav_close(struct bs_zcav_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

/* ---- measuring ---- */

struct zrun {
	const struct bs_zcav_opts *o;
	struct bs_zcav_target *t;
	const struct bs_zcav_cb *cb;
	struct bs_buf raw;
	unsigned char *buf;
	size_t buf_bytes;
	int accessed; /* an access succeeded: O_DIRECT works here */
};

static void emit(struct zrun *z, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void emit(struct zrun *z, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (z->raw.len)
		bs_buf_addc(&z->raw, '\n');
	bs_buf_adds(&z->raw, line);
	if (z->cb && z->cb->line)
		z->cb->line(line, z->cb->ctx);
}

/* Some file systems accept O_DIRECT at open and refuse it at the first
 * access: then go on without it. */
static int drop_direct(struct zrun *z, struct bs_err *err)
{
	int fd = open_target(z->o->path, z->o->write, 0, 0);

	if (fd < 0)
		return bs_error(err, BS_EIO, "cannot open '%s': %s", z->o->path,
				strerror(errno));
	close(z->t->fd);
	z->t->fd = fd;
	z->t->direct = 0;
	return 0;
}

/*
 * One access of n bytes at off, in full. Returns 0, 1 at the end of the
 * target (a short read, or a device that is full), or <0.
 */
static int access_all(struct zrun *z, uint64_t off, size_t n,
		      struct bs_err *err)
{
	size_t done = 0;

	while (done < n) {
		ssize_t k;

		if (bs_signal_pending())
			return bs_error(err, BS_EINTR, "interrupted");
		if (z->o->write)
			k = pwrite(z->t->fd, z->buf + done, n - done,
				   (off_t)(off + done));
		else
			k = pread(z->t->fd, z->buf + done, n - done,
				  (off_t)(off + done));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EINVAL && z->t->direct && !z->accessed) {
			int rc = drop_direct(z, err);

			if (rc < 0)
				return rc;
			continue;
		}
		if (k < 0 && z->o->write && errno == ENOSPC && z->t->is_device)
			return 1;
		if (k < 0)
			return bs_error(err, BS_EIO,
					"cannot %s '%s' at %llu MiB: %s",
					z->o->write ? "write" : "read",
					z->o->path,
					(unsigned long long)(off + done) / MIB,
					strerror(errno));
		if (k == 0)
			return 1;
		/* O_DIRECT reads at the end of a file come back short. */
		if (z->t->direct && (size_t)k % ALIGN != 0 && !z->o->write)
			return 1;
		done += (size_t)k;
		z->accessed = 1;
	}
	if (z->o->write && fsync(z->t->fd) != 0)
		return bs_error(err, BS_EIO, "cannot fsync '%s': %s",
				z->o->path, strerror(errno));
	return 0;
}

/* Times block pos: its seconds, or 1 at the end, or <0. */
static int access_block(struct zrun *z, int64_t pos, double *seconds,
			struct bs_err *err)
{
	uint64_t block = (uint64_t)z->o->block_mib * MIB;
	uint64_t chunk = (uint64_t)z->o->chunk_mib * MIB, done, off;
	uint64_t t0;
	int rc;

	/* Past any disk (and past what off_t holds): the end. */
	if ((uint64_t)pos >= (uint64_t)INT64_MAX / block)
		return 1;
	off = (uint64_t)pos * block;
	if (z->t->limit_bytes && off + block > z->t->limit_bytes)
		return 1;
	if (!z->t->direct)
		(void)posix_fadvise(z->t->fd, (off_t)off, (off_t)block,
				    POSIX_FADV_DONTNEED);
	t0 = bs_now_ns();
	for (done = 0; done < block; done += chunk) {
		uint64_t n = block - done < chunk ? block - done : chunk;

		rc = access_all(z, off + done, (size_t)n, err);
		if (rc != 0)
			return rc;
	}
	*seconds = (double)(bs_now_ns() - t0) / 1e9;
	return 0;
}

/* The mean of the middle third and more, as zcav's average(). */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double trimmed_mean(double *v, size_t n)
{
	size_t skip = n / 3, i;
	double sum = 0;

	qsort(v, n, sizeof(*v), cmp_double);
	for (i = skip; i < n - skip; i++)
		sum += v[i];
	return sum / (double)(n - 2 * skip);
}

/* A number as printed with that many decimals, read back. */
static double printed(int decimals, double v)
{
	char s[64];

	snprintf(s, sizeof(s), "%.*f", decimals, v);
	return strtod(s, NULL);
}

/* Prints one row and adds it to the curve. */
static void row(struct zrun *z, struct bs_series *s, int64_t pos,
		double seconds)
{
	double off = (double)((float)pos * (float)z->o->block_mib / 1024.0f);
	/* Printed to 0.01 GiB as zcav does, stored exactly: the block's
	 * number times its size (8 MiB blocks print 0.02 twice). */
	double exact = (double)pos * (double)z->o->block_mib / 1024.0;

	if (seconds < z->o->min_time_s) {
		emit(z, "#%.2f ++++ %.3f", off, seconds);
		bs_series_point(s, exact, NAN, printed(3, seconds));
	} else {
		double rate = (double)z->o->block_mib / seconds;

		emit(z, "%.2f %.2f %.3f", off, rate, seconds);
		bs_series_point(s, exact, printed(2, rate),
				printed(3, seconds));
	}
}

/* Not one block where the range starts (zcav: "... too small."). */
static int too_small(const struct bs_zcav_opts *o, int64_t pos,
		     struct bs_err *err)
{
	return bs_error(err, BS_EINVAL,
			"'%s' is too small: not one block of %lld MiB at "
			"%lld MiB%s",
			o->path, (long long)o->block_mib,
			(long long)(pos * o->block_mib),
			o->write ? " (-w never makes a file longer unless -r "
				   "asks for more)"
				 : "");
}

#define HEADER "#block offset (GiB), MiB/s, time"

int bs_zcav_run(const struct bs_zcav_opts *o, struct bs_zcav_target *t,
		const struct bs_zcav_cb *cb, struct bs_run *r,
		struct bs_err *err)
{
	struct zrun z;
	struct bs_series *s;
	double **times = NULL; /* [block][pass] */
	size_t *count = NULL, nblocks = 0, cap = 0, i, timed = 0;
	int64_t pass, b, expect;
	long long pass_rate = -1; /* the last "# Read" line's figure */
	double sum = 0;
	int m, rc = 0;

	memset(&z, 0, sizeof(z));
	z.o = o;
	z.t = t;
	z.cb = cb;
	z.buf_bytes = (size_t)o->chunk_mib * MIB;
	if (posix_memalign((void **)&z.buf, ALIGN, z.buf_bytes) != 0)
		abort();
	memset(z.buf, 0, z.buf_bytes);

	r->family = BS_FAM_ZCAV;
	m = bs_metric_find(BS_FAM_ZCAV,
			   o->write ? "write_mib_s" : "read_mib_s");
	s = bs_run_series_add(r, m, "offset_gib");
	/* Blocks in the range, for the progress line; -1 unknown. */
	expect = -1;
	if (o->last_block)
		expect = o->last_block - o->first_block;
	else if (t->size_bytes)
		expect = (int64_t)(t->size_bytes / ((uint64_t)o->block_mib *
						    MIB * (uint64_t)o->skip));
	if (expect >= 0 && !o->last_block)
		expect -= o->first_block;

	if (o->write)
		emit(&z, "Warning, writing to %s.", o->path);
	if (o->passes == 1)
		emit(&z, "%s", HEADER);
	for (pass = 0; pass < o->passes; pass++) {
		double total = 0;
		size_t k = 0;

		for (b = o->first_block; !o->last_block || b < o->last_block;
		     b++, k++) {
			int64_t pos = b * o->skip;
			double sec = 0;

			if (pass > 0 && k >= nblocks)
				break;
			rc = access_block(&z, pos, &sec, err);
			if (rc < 0)
				goto out;
			if (rc == 1) {
				rc = 0;
				if (k == 0) {
					rc = too_small(o, pos, err);
					goto out;
				}
				break;
			}
			total += sec;
			if (pass == 0) {
				xgrow((void **)&times, &cap, nblocks + 1,
				      sizeof(*times));
				times[nblocks] = xcalloc((size_t)o->passes,
							 sizeof(double));
				count = xrealloc(count, cap * sizeof(*count));
				count[nblocks] = 0;
				nblocks++;
			}
			times[k][count[k]++] = sec;
			if (o->passes == 1)
				row(&z, s, pos, sec);
			if (cb && cb->block)
				cb->block(pass + 1, (int64_t)k, expect,
					  (double)pos * (double)o->block_mib /
						  1024.0,
					  sec, cb->ctx);
		}
		if (cb && cb->pass_done)
			cb->pass_done(pass + 1, cb->ctx);
		/* zcav counts the blocks before -r's start in the total. */
		pass_rate = total > 0 ? (long long)((double)(b * o->block_mib) /
						    total)
				      : 0LL;
		emit(&z,
		     "# Read %lld megs in %d seconds, %lld megabytes per "
		     "second.",
		     (long long)(b * o->block_mib), (int)total, pass_rate);
	}
	if (o->passes > 1) {
		emit(&z, "#loops: %lld", (long long)o->passes);
		emit(&z, "%s", HEADER);
		for (i = 0; i < nblocks; i++)
			row(&z, s, (o->first_block + (int64_t)i) * o->skip,
			    trimmed_mean(times[i], count[i]));
	}

	for (i = 0; i < s->n; i++)
		if (!isnan(s->pt[i].y)) {
			sum += s->pt[i].y;
			timed++;
		}
	if (timed) {
		r->res[m].status = BS_ST_OK;
		r->res[m].value = sum / (double)timed;
	} else {
		/* Every block was "++++": no rate, never 0. */
		r->res[m].status = BS_ST_TOO_FAST;
	}
	/* The last pass's total, as its "# Read" line says (the ingest of
	 * the printout reads the same). */
	m = bs_metric_find(BS_FAM_ZCAV, "total_mib_s");
	if (pass_rate >= 0) {
		r->res[m].status = BS_ST_OK;
		r->res[m].value = (double)pass_rate;
	}
	r->params.block_mib = o->block_mib;
	r->params.passes = o->passes;
	r->params.skip = o->skip;
	bs_run_set(&r->tool, "bstore");
	bs_run_set(&r->tool_version, o->tool_version);
	bs_run_set(&r->format, BS_FMT_BSTORE_ZCAV);
	bs_run_set(&r->machine, o->machine);
	bs_run_set(&r->source, "bstore zcav");
	r->measured_at = (int64_t)time(NULL);
	free(r->raw);
	r->raw = bs_buf_detach(&z.raw, NULL);
out:
	for (i = 0; i < nblocks; i++)
		free(times[i]);
	free(times);
	free(count);
	free(z.buf);
	bs_buf_release(&z.raw);
	return rc;
}

int bs_zcav_hint(const struct bs_zcav_opts *o, const struct bs_zcav_target *t,
		 const struct bs_run *r, struct bs_buf *out)
{
	const struct bs_series *s = NULL;
	uint64_t room_mib = t->limit_bytes ? t->limit_bytes / MIB
					   : t->size_bytes / MIB;
	double slow = 0, want_mib, mt = 0;
	size_t i, fast = 0;
	int64_t b;

	for (i = 0; i < r->nseries && s == NULL; i++)
		if (bs_metrics[r->series[i].metric].family == BS_FAM_ZCAV)
			s = &r->series[i];
	if (s == NULL || s->n == 0)
		return 0;
	for (i = 0; i < s->n; i++)
		if (isnan(s->pt[i].y)) {
			fast++;
			if (s->pt[i].seconds > slow)
				slow = s->pt[i].seconds;
		}
	if (fast == 0 || fast * 2 < s->n)
		return 0;
	bs_buf_addf(out,
		    "%zu of %zu blocks took under %g s ('++++', no "
		    "rate): pass ",
		    fast, s->n, o->min_time_s);
	/* A limit under the time the fast blocks took, one digit, when
	 * they took long enough to time at all (10 ms). */
	if (slow >= 0.01) {
		mt = pow(10, floor(log10(slow / 2)));
		mt = floor(slow / 2 / mt) * mt;
		bs_buf_addf(out, "--min-time %g (they took up to %.3f s), or ",
			    mt, slow);
	}
	if (slow < 0.0005) {
		/* Printed as 0.000 s: nothing to scale a block by. */
		bs_buf_adds(out, "a bigger -b or a target that is not cached: "
				 "its blocks took no measurable time");
		return 1;
	}
	/* The block that takes about twice the limit at the speed of the
	 * slowest fast block, in powers of two MiB. */
	want_mib = (double)o->block_mib * 2 * o->min_time_s / slow;
	for (b = o->block_mib * 2;
	     (double)b < want_mib && b < (INT64_C(1) << 40); b *= 2)
		;
	bs_buf_addf(out, "-b %lld (about %.2g s a block at this speed)",
		    (long long)b, (double)b / (double)o->block_mib * slow);
	if (room_mib > 0 && (uint64_t)b > room_mib)
		bs_buf_addf(out,
			    " on a target of %lld MiB or more (this one "
			    "holds %llu MiB)",
			    (long long)b, (unsigned long long)room_mib);
	if (slow < 0.01)
		bs_buf_adds(out, "; blocks under 10 ms are too short to time: "
				 "the page cache may have answered");
	return 1;
}
