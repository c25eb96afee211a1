/*
 * core/zcav.h - `bstore zcav`'s measuring: throughput by position of a
 * file or block device, the way bonnie++ 2.00a's zcav measures it.
 *
 * The target is read (or, with write set, overwritten with zeros) in
 * blocks of block_mib MiB, each block in accesses of chunk_mib MiB, and
 * every block is timed on its own. A block whose access took under
 * min_time_s (by default zcav's BS_ZCAV_MIN_TIME_S) is too fast to time
 * (zcav's "++++" row): it keeps its time but has no rate. With passes > 1
 * every block is read passes times and its row shows the trimmed mean of
 * its times (the lowest and highest third dropped), as zcav 2.00a prints
 * it.
 *
 * Positions: block i (first_block <= i < last_block, or to the end) sits
 * at i x skip blocks from the start, as zcav's -s reads every skip-th
 * block; zcav 2.00a prints that position too, but with -r first:last and
 * -s together it reads one block further than it prints.
 *
 * O_DIRECT is used when the target allows it, so that the page cache
 * does not make every block "++++"; otherwise each block's range is
 * dropped from the cache (posix_fadvise POSIX_FADV_DONTNEED) before it
 * is read. Writes end every chunk with fsync(), as zcav does.
 *
 * Output: every line bstore zcav prints on stdout comes through the
 * line callback, in zcav 2.00a's layout:
 *
 *   #block offset (GiB), MiB/s, time     (before the rows of one pass)
 *   0.00 104.52 4.899                    (offset GiB, MiB/s, seconds)
 *   #0.50 ++++ 0.733                     (a block too fast to time)
 *   # Read 1024 megs in 9 seconds, 104 megabytes per second.
 *   #loops: 3                            (with passes > 1, then the
 *                                         header and the averaged rows)
 *
 * and the run's raw text is those lines. The run (family zcav, tool
 * "bstore", format BS_FMT_BSTORE_ZCAV) holds read_mib_s or write_mib_s:
 * the mean of the printed rates of the timed blocks (too_fast when none
 * was timed), and the same rows as its curve (axis "offset_gib"), with
 * the numbers as printed, so that ingesting the printout gives the
 * stored values back.
 */
#ifndef BS_CORE_ZCAV_H
#define BS_CORE_ZCAV_H

#include <stdint.h>
#include <sys/types.h>

#include "core/result.h"
#include "util/buf.h"
#include "util/err.h"

/* zcav 2.00a prints a block timed under a second as "++++". */
#define BS_ZCAV_MIN_TIME_S 1.0
#define BS_ZCAV_SKIP_MAX 20
#define BS_ZCAV_CHUNK_MAX_MIB 1024

struct bs_zcav_opts {
	const char *path;
	int64_t block_mib;    /* -b, default 512 */
	int64_t chunk_mib;    /* -b's :CHUNK, default 1 */
	int64_t passes;       /* -c, default 1 */
	int64_t first_block;  /* -r FIRST (MiB) / block_mib; default 0 */
	int64_t last_block;   /* -r LAST (MiB) / block_mib; 0: to the end */
	int64_t skip;         /* -s, 1 (none) or 2 to 20 */
	int write;            /* -w: overwrite with zeros */
	int yes_destroy_data; /* -w on a block device is allowed */
	double min_time_s;    /* "++++" under it; BS_ZCAV_MIN_TIME_S */
	int no_direct;        /* never O_DIRECT: the page cache, dropped */
	const char *machine;
	const char *tool_version;
};

void bs_zcav_defaults(struct bs_zcav_opts *o);

/*
 * Whether zcav run r read a block device, a file, or nobody knows: so
 * that its curve's axis says "position on the disk" or "offset in the
 * file". The parameter target ("device" or "file") says it where
 * ingest could read it from the printout: the path zcav names (its
 * command line, "# Finished loop N, on device PATH"), under /dev/ a
 * device, else a file. Else bstore zcav's tag zcav.target (the path it
 * was given), else the raw text, read the same way.
 */
enum bs_zcav_medium {
	BS_ZCAV_UNKNOWN = -1, /* the run does not say */
	BS_ZCAV_FILE = 0,
	BS_ZCAV_DEVICE = 1,
};
enum bs_zcav_medium bs_zcav_on_device(const struct bs_run *r);

/* The name of the curve's axis for curves of which devices read a disk
 * and files a file (counts; runs that do not say count for neither):
 * "position on the disk", "offset in the file", both, or "position". */
const char *bs_zcav_axis(int devices, int files);

struct bs_zcav_target;

/*
 * When half or more of run r's blocks were too fast to time ("++++",
 * under o->min_time_s), appends what to pass so that they are timed: a
 * -b whose blocks take about twice min_time_s at the speed the fast
 * blocks went (when the target t holds such a block), or a --min-time
 * under their time, e.g. "6 of 6 blocks
 * took under 1 s ('++++', no rate): pass -b 64 (blocks of about 2 s at
 * this speed) or --min-time 0.05". Returns 1 when it wrote a hint, else
 * 0.
 */
int bs_zcav_hint(const struct bs_zcav_opts *o, const struct bs_zcav_target *t,
		 const struct bs_run *r, struct bs_buf *out);

/*
 * Parses -b's "BLOCK[:CHUNK]" (MiB) and -r's "[FIRST:]LAST" (MiB,
 * rounded down to blocks as zcav does; call after -b is known).
 */
int bs_zcav_parse_b(struct bs_zcav_opts *o, const char *arg,
		    struct bs_err *err);
int bs_zcav_parse_r(const char *arg, int64_t *first_mib, int64_t *last_mib,
		    struct bs_err *err);

/* What the target is, found by bs_zcav_open(). */
struct bs_zcav_target {
	int fd;               /* -1 when closed */
	int is_device;        /* a block device, else a regular file */
	int direct;           /* opened with O_DIRECT */
	uint64_t size_bytes;  /* a file's size, or the device's */
	uint64_t limit_bytes; /* where the blocks end (0: at a short read) */
};

/* clang-format off */
#define BS_ZCAV_TARGET_INIT {-1, 0, 0, 0, 0}
/* clang-format on */

/*
 * Opens the target. Refuses anything but a regular file or block device;
 * for write: a volume (a device, or a file that backs a loop device:
 * bs_zcav_volume()) without yes_destroy_data, a mounted, swap, held or
 * busy one (bs_zcav_check_use(), O_EXCL) and one whose first blocks hold
 * a file-system or partition-table signature (bs_zcav_check_signature()).
 * Refuses a target without one whole block where the range starts
 * before anything is printed. Writing to a regular file never makes it
 * longer unless -r asks for more.
 */
int bs_zcav_open(const struct bs_zcav_opts *o, struct bs_zcav_target *t,
		 struct bs_err *err);
void bs_zcav_close(struct bs_zcav_target *t);

/*
 * What a write to path would destroy besides the file: the block device
 * it is, or the loop device it backs (a regular file named by
 * /sys/block/loopN/loop/backing_file, the same file by device and inode:
 * writing the file writes the device). Fills v and returns 1 for such a
 * volume, else 0.
 */
struct bs_zcav_volume {
	dev_t dev;    /* the block device */
	char via[64]; /* "/dev/loop3" when path backs it; "" for a device */
};
int bs_zcav_volume(const char *path, struct bs_zcav_volume *v);

/*
 * The checks before a volume is written over, the same for a device and
 * for a file that backs one. bs_zcav_check_use() refuses a volume that
 * (or a partition of which) is mounted (/proc/self/mountinfo), an active
 * swap area, or held by another device (sysfs holders/: device-mapper,
 * md); and, for a loop device (or a partition of one, or a file that
 * backs one), every other loop device over the same backing file in any
 * of those uses: they write the same bytes. bs_zcav_check_signature() refuses one whose first blocks, read
 * through fd, hold a signature (bs_zcav_signature()). Messages name
 * path, and v->via when path backs it.
 */
int bs_zcav_check_use(const char *path, const struct bs_zcav_volume *v,
		      struct bs_err *err);
int bs_zcav_check_signature(const char *path, const struct bs_zcav_volume *v,
			    int fd, struct bs_err *err);

/*
 * The signature found in the first bytes of a volume (len of them, at
 * least 69632 to see btrfs): "ext2/3/4", "xfs", "btrfs", "swap", "LUKS",
 * "GPT", "NTFS", "FAT", "iso9660", "reiserfs", "f2fs" or "MBR" (any
 * sector 0 ending in 0x55 0xaa); NULL when none.
 */
const char *bs_zcav_signature(const unsigned char *buf, size_t len);

struct bs_zcav_cb {
	/* A line of the printout (no newline). */
	void (*line)(const char *text, void *ctx);
	/* A block is done: pass (1-based), its index and time. */
	void (*block)(int64_t pass, int64_t index, int64_t nblocks,
		      double offset_gib, double seconds, void *ctx);
	/* A pass is done (zcav's "# Finished loop N" on stderr). */
	void (*pass_done)(int64_t pass, void *ctx);
	void *ctx;
};

/*
 * Measures the opened target and fills r (which must be initialised).
 * Polls bs_signal_pending() (core/scratch.h) between accesses and stops
 * with BS_EINTR. Errors name the target and the offset.
 */
int bs_zcav_run(const struct bs_zcav_opts *o, struct bs_zcav_target *t,
		const struct bs_zcav_cb *cb, struct bs_run *r,
		struct bs_err *err);

#endif
