/*
 * core/host.h - what the machine under test is: the facts `bstore run`
 * stores as host.* tags next to every result.
 *
 *   kernel         uname(2) release, e.g. "6.1.0-18-amd64"
 *   fs, mount_options
 *                  of the mount holding the directory, from
 *                  /proc/self/mountinfo (per-mount options, then the
 *                  file system's own, without repeats)
 *   device         the whole disk under that mount ("sda", "nvme0n1";
 *                  device-mapper and md devices are followed to their
 *                  first member), from /sys/dev/block/MAJ:MIN
 *   device_model   /sys/block/DISK/device/model, else the driver's name
 *   rotational     queue/rotational: 1 spinning, 0 solid state
 *   scheduler, read_ahead_kb
 *                  the disk's I/O scheduler (the one in brackets of
 *                  queue/scheduler) and queue/read_ahead_kb
 *   raid_level     an md device's md/level ("raid10"), before it is
 *                  followed to its first member
 *   ram_mib        sysinfo(2)
 *   cpu_model, cpus
 *                  /proc/cpuinfo, sysconf(_SC_NPROCESSORS_ONLN)
 *
 * Anything that cannot be found is left empty (strings) or -1 (numbers):
 * a probe never fails because /sys or /proc lacks a file.
 */
#ifndef BS_CORE_HOST_H
#define BS_CORE_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "util/err.h"

struct bs_host {
	char kernel[128];
	char fs[64];
	char mount_point[512];
	char mount_options[1024];
	char source[256]; /* mount source, e.g. "/dev/sda1" */
	char device[64];
	char device_model[128];
	int rotational; /* 1, 0, or -1 unknown */
	char scheduler[32];
	int64_t read_ahead_kb; /* -1 unknown */
	char raid_level[32];
	int64_t ram_mib; /* -1 unknown */
	char cpu_model[128];
	int cpus; /* -1 unknown */
};

/*
 * Probes the machine and the mount holding dir (which must exist; a
 * file will do too). For a block device, the disk facts are the
 * device's own and there is no mount. Fails only when dir cannot be
 * stat()ed.
 */
int bs_host_probe(const char *dir, struct bs_host *h, struct bs_err *err);

/*
 * Finds the mount of a file on device maj:min at the absolute path in
 * mountinfo text (the format of /proc/self/mountinfo): among lines with
 * that device, the one whose mount point is the longest prefix of path;
 * when no line has that device (btrfs subvolumes), the longest prefix of
 * any line. Fills fs, mount_point, mount_options and source. Returns 1
 * when found, 0 otherwise.
 */
int bs_host_parse_mountinfo(const char *text, unsigned maj, unsigned min,
			    const char *path, struct bs_host *h);

/* Total RAM, MiB (sysinfo); -1 when unknown. */
int64_t bs_host_ram_mib(void);

/* Adds the host.* tags (only the known facts) to a run. */
void bs_host_tag(const struct bs_host *h, struct bs_run *r);

/* The facts as tags, one row each, in the order reports show them: the
 * tag key, a label for people, and where struct bs_host keeps it. */
enum bs_host_kind { BS_HK_TEXT, BS_HK_BOOL, BS_HK_I64, BS_HK_INT };
struct bs_host_fact {
	const char *key;   /* "host.kernel" */
	const char *label; /* "Kernel" */
	enum bs_host_kind kind;
	size_t offset; /* of the field in struct bs_host */
};
extern const struct bs_host_fact bs_host_facts[];
extern const int bs_nhost_facts;

#endif
