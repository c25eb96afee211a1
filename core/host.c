/* core/host.c - the host probe: kernel, mount, disk, RAM, CPU. */
#include "core/host.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* Copies s into a fixed buffer, cutting what does not fit. */
static void setstr(char *dst, size_t size, const char *s, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/* Reads a small text file into buf, without trailing white space. */
static int read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0) {
		buf[0] = '\0';
		return -1;
	}
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' ||
			 buf[n - 1] == '\t' || buf[n - 1] == '\r'))
		n--;
	buf[n] = '\0';
	return 0;
}

/* Reads a whole (pseudo) file, e.g. /proc/self/mountinfo; NULL on error. */
static char *read_all(const char *path)
{
	struct bs_buf b = BS_BUF_INIT;
	char chunk[4096];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	bs_buf_init_max(&b, 16u << 20);
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (bs_buf_add(&b, chunk, (size_t)n) < 0)
			break;
	}
	close(fd);
	return bs_buf_detach(&b, NULL);
}

/* Undoes mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *o = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
}

/* Length of mnt when it is a path prefix of path ("/a" of "/a/b"), or 0. */
static size_t prefix_len(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (strcmp(mnt, "/") == 0)
		return 1;
	if (strncmp(mnt, path, n) != 0)
		return 0;
	if (path[n] != '\0' && path[n] != '/')
		return 0;
	return n;
}

/* Appends the comma-separated options of add that out does not have. */
static void merge_options(struct bs_buf *out, const char *add)
{
	const char *p = add, *end;
	size_t n;

	while (*p) {
		const char *h = bs_buf_str(out), *q;
		int seen = 0;

		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		for (q = h; n && *q;) {
			const char *qe = strchr(q, ',');
			size_t qn = qe ? (size_t)(qe - q) : strlen(q);

			if (qn == n && memcmp(q, p, n) == 0) {
				seen = 1;
				break;
			}
			if (!qe)
				break;
			q = qe + 1;
		}
		if (n && !seen) {
			if (out->len)
				bs_buf_addc(out, ',');
			bs_buf_add(out, p, n);
		}
		p += n;
		if (*p == ',')
			p++;
	}
}

/* Splits a mountinfo line into its fields. Returns the count (max nmax). */
static int split_fields(char *line, char **f, int nmax)
{
	int n = 0;
	char *p = line;

	while (*p && n < nmax) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		f[n++] = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

int bs_host_parse_mountinfo(const char *text, unsigned maj, unsigned min,
			    const char *path, struct bs_host *h)
{
	char *copy = xstrdup(text), *line, *next;
	size_t best_dev = 0, best_any = 0;
	const char *pick_dev[5] = {NULL}, *pick_any[5] = {NULL};
	const char **pick;
	struct bs_buf opts = BS_BUF_INIT;
	int found = 0;

	for (line = copy; line && *line; line = next) {
		char *f[64];
		int n, i, dash = -1;
		unsigned a, b;
		size_t plen;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n = split_fields(line, f, 64);
		for (i = 6; i < n; i++) {
			if (strcmp(f[i], "-") == 0) {
				dash = i;
				break;
			}
		}
		if (n < 7 || dash < 0 || dash + 3 > n)
			continue;
		if (sscanf(f[2], "%u:%u", &a, &b) != 2)
			continue;
		unescape(f[4]);
		unescape(f[dash + 2]);
		plen = prefix_len(f[4], path);
		if (plen == 0)
			continue;
		/* Later lines mount over earlier ones: take ">=". */
		if (a == maj && b == min && plen >= best_dev) {
			best_dev = plen;
			pick_dev[0] = f[4];
			pick_dev[1] = f[5];
			pick_dev[2] = f[dash + 1];
			pick_dev[3] = dash + 3 < n ? f[dash + 3] : "";
			pick_dev[4] = f[dash + 2];
		}
		if (plen >= best_any) {
			best_any = plen;
			pick_any[0] = f[4];
			pick_any[1] = f[5];
			pick_any[2] = f[dash + 1];
			pick_any[3] = dash + 3 < n ? f[dash + 3] : "";
			pick_any[4] = f[dash + 2];
		}
	}
	pick = pick_dev[0] ? pick_dev : pick_any;
	if (pick[0]) {
		setstr(h->mount_point, sizeof(h->mount_point), pick[0],
		       strlen(pick[0]));
		setstr(h->fs, sizeof(h->fs), pick[2], strlen(pick[2]));
		setstr(h->source, sizeof(h->source), pick[4], strlen(pick[4]));
		merge_options(&opts, pick[1]);
		merge_options(&opts, pick[3]);
		setstr(h->mount_options, sizeof(h->mount_options),
		       bs_buf_str(&opts), opts.len);
		found = 1;
	}
	bs_buf_release(&opts);
	free(copy);
	return found;
}

/*
 * Resolves a block device number to its whole disk in /sys, following
 * partitions to their disk and device-mapper/md devices to their first
 * member. Fills path (a /sys/block-like directory). Returns 0 or -1.
 */
static int disk_dir(unsigned maj, unsigned min, char *path, size_t size)
{
	char link[64], real[PATH_MAX], sub[PATH_MAX + 512];
	int depth;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
	if (realpath(link, real) == NULL)
		return -1;
	for (depth = 0; depth < 8; depth++) {
		struct dirent *de;
		DIR *d;
		char *slash;
		struct stat st;

		snprintf(sub, sizeof(sub), "%s/partition", real);
		if (stat(sub, &st) == 0) {
			slash = strrchr(real, '/');
			if (slash == NULL || slash == real)
				return -1;
			*slash = '\0';
		}
		snprintf(sub, sizeof(sub), "%s/slaves", real);
		d = opendir(sub);
		if (d == NULL)
			break;
		while ((de = readdir(d)) != NULL)
			if (de->d_name[0] != '.')
				break;
		if (de == NULL) {
			closedir(d);
			break;
		}
		snprintf(sub, sizeof(sub), "%s/slaves/%s", real, de->d_name);
		closedir(d);
		if (realpath(sub, real) == NULL)
			return -1;
	}
	setstr(path, size, real, strlen(real));
	return 0;
}

static void probe_disk(unsigned maj, unsigned min, struct bs_host *h)
{
	char dir[PATH_MAX], p[PATH_MAX + 32], val[256];
	const char *base;
	ssize_t n;

	/* An md array's level is its own, not its first member's. */
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/md/level", maj, min);
	if (read_small(p, val, sizeof(val)) == 0 && val[0])
		setstr(h->raid_level, sizeof(h->raid_level), val, strlen(val));
	if (disk_dir(maj, min, dir, sizeof(dir)) < 0)
		return;
	base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	setstr(h->device, sizeof(h->device), base, strlen(base));
	snprintf(p, sizeof(p), "%s/device/model", dir);
	if (read_small(p, val, sizeof(val)) == 0 && val[0]) {
		setstr(h->device_model, sizeof(h->device_model), val,
		       strlen(val));
	} else {
		snprintf(p, sizeof(p), "%s/device/driver", dir);
		n = readlink(p, val, sizeof(val) - 1);
		if (n > 0) {
			val[n] = '\0';
			base = strrchr(val, '/');
			base = base ? base + 1 : val;
			setstr(h->device_model, sizeof(h->device_model), base,
			       strlen(base));
		}
	}
	snprintf(p, sizeof(p), "%s/queue/rotational", dir);
	if (read_small(p, val, sizeof(val)) == 0 &&
	    (strcmp(val, "0") == 0 || strcmp(val, "1") == 0))
		h->rotational = val[0] - '0';
	/* "mq-deadline kyber [bfq] none": the one in use. */
	snprintf(p, sizeof(p), "%s/queue/scheduler", dir);
	if (read_small(p, val, sizeof(val)) == 0) {
		char *open_b = strchr(val, '['), *close_b;

		close_b = open_b ? strchr(open_b, ']') : NULL;
		if (close_b)
			setstr(h->scheduler, sizeof(h->scheduler), open_b + 1,
			       (size_t)(close_b - open_b - 1));
		else if (val[0] && strchr(val, ' ') == NULL)
			setstr(h->scheduler, sizeof(h->scheduler), val,
			       strlen(val));
	}
	snprintf(p, sizeof(p), "%s/queue/read_ahead_kb", dir);
	if (read_small(p, val, sizeof(val)) == 0 && val[0] >= '0' &&
	    val[0] <= '9')
		h->read_ahead_kb = strtoll(val, NULL, 10);
}

int64_t bs_host_ram_mib(void)
{
	struct sysinfo si;

	if (sysinfo(&si) != 0 || si.mem_unit == 0)
		return -1;
	return (int64_t)((uint64_t)si.totalram * si.mem_unit >> 20);
}

static void probe_cpu(struct bs_host *h)
{
	static const char *const keys[] = {"model name", "Model", "cpu model",
					   "Hardware",   "cpu",   NULL};
	char *text = read_all("/proc/cpuinfo");
	long n;
	int k;

	n = sysconf(_SC_NPROCESSORS_ONLN);
	h->cpus = n > 0 && n < INT32_MAX ? (int)n : -1;
	if (text == NULL)
		return;
	for (k = 0; keys[k] && !h->cpu_model[0]; k++) {
		char *line, *next;
		size_t kl = strlen(keys[k]);

		for (line = text; line && *line; line = next) {
			char *colon, *v, *e;

			next = strchr(line, '\n');
			if (strncmp(line, keys[k], kl) != 0 ||
			    (line[kl] != ' ' && line[kl] != '\t' &&
			     line[kl] != ':')) {
				if (next)
					next++;
				continue;
			}
			colon = strchr(line, ':');
			if (colon == NULL || (next && colon > next)) {
				if (next)
					next++;
				continue;
			}
			v = colon + 1;
			while (*v == ' ' || *v == '\t')
				v++;
			e = next ? next : v + strlen(v);
			while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			if (e > v) {
				setstr(h->cpu_model, sizeof(h->cpu_model), v,
				       (size_t)(e - v));
				break;
			}
			if (next)
				next++;
		}
	}
	free(text);
}

int bs_host_probe(const char *dir, struct bs_host *h, struct bs_err *err)
{
	struct utsname u;
	struct stat st;
	char real[PATH_MAX];
	char *mi;

	memset(h, 0, sizeof(*h));
	h->rotational = -1;
	h->read_ahead_kb = -1;
	h->ram_mib = -1;
	h->cpus = -1;
	if (stat(dir, &st) != 0)
		return bs_error(err, BS_EIO, "cannot stat '%s': %s", dir,
				strerror(errno));
	if (uname(&u) == 0)
		setstr(h->kernel, sizeof(h->kernel), u.release,
		       strlen(u.release));
	/* A block device (bstore zcav): the disk itself, no mount. */
	if (S_ISBLK(st.st_mode)) {
		probe_disk(major(st.st_rdev), minor(st.st_rdev), h);
		h->ram_mib = bs_host_ram_mib();
		probe_cpu(h);
		return 0;
	}
	if (realpath(dir, real) == NULL)
		setstr(real, sizeof(real), dir, strlen(dir));
	mi = read_all("/proc/self/mountinfo");
	if (mi) {
		bs_host_parse_mountinfo(mi, major(st.st_dev), minor(st.st_dev),
					real, h);
		free(mi);
	}
	if (major(st.st_dev) != 0) {
		probe_disk(major(st.st_dev), minor(st.st_dev), h);
	} else if (strncmp(h->source, "/dev/", 5) == 0) {
		/* btrfs and friends: anonymous st_dev; ask the source. */
		struct stat ds;

		if (stat(h->source, &ds) == 0 && S_ISBLK(ds.st_mode))
			probe_disk(major(ds.st_rdev), minor(ds.st_rdev), h);
	}
	h->ram_mib = bs_host_ram_mib();
	probe_cpu(h);
	return 0;
}

/* clang-format off */
#define HF(key, label, kind, field) \
	{ key, label, kind, offsetof(struct bs_host, field) }
/* clang-format on */

/* clang-format off */
const struct bs_host_fact bs_host_facts[] = {
	HF("host.kernel",        "Kernel",        BS_HK_TEXT, kernel),
	HF("host.fs",            "File system",   BS_HK_TEXT, fs),
	HF("host.mount_options", "Mount options", BS_HK_TEXT, mount_options),
	HF("host.device",        "Device",        BS_HK_TEXT, device),
	HF("host.device_model",  "Device model",  BS_HK_TEXT, device_model),
	HF("host.rotational",    "Rotational",    BS_HK_BOOL, rotational),
	HF("host.scheduler",     "I/O scheduler", BS_HK_TEXT, scheduler),
	HF("host.read_ahead_kb", "Read-ahead (KiB)", BS_HK_I64, read_ahead_kb),
	HF("host.raid_level",    "RAID level",    BS_HK_TEXT, raid_level),
	HF("host.ram_mib",       "RAM (MiB)",     BS_HK_I64,  ram_mib),
	HF("host.cpu_model",     "CPU",           BS_HK_TEXT, cpu_model),
	HF("host.cpus",          "CPUs",          BS_HK_INT,  cpus),
};
/* clang-format on */

const int bs_nhost_facts =
	(int)(sizeof(bs_host_facts) / sizeof(bs_host_facts[0]));

void bs_host_tag(const struct bs_host *h, struct bs_run *r)
{
	const char *base = (const char *)h;
	char num[32];
	int i;

	for (i = 0; i < bs_nhost_facts; i++) {
		const struct bs_host_fact *f = &bs_host_facts[i];
		const char *at = base + f->offset;
		const char *v = NULL;
		int iv;
		int64_t lv;

		switch (f->kind) {
		case BS_HK_TEXT:
			v = at[0] ? at : NULL;
			break;
		case BS_HK_BOOL: /* 1, 0, or -1 unknown */
			memcpy(&iv, at, sizeof(iv));
			v = iv < 0 ? NULL : iv ? "1" : "0";
			break;
		case BS_HK_I64: /* -1 unknown */
			memcpy(&lv, at, sizeof(lv));
			if (lv >= 0) {
				snprintf(num, sizeof(num), "%lld",
					 (long long)lv);
				v = num;
			}
			break;
		case BS_HK_INT: /* -1 unknown, 0 none */
			memcpy(&iv, at, sizeof(iv));
			if (iv > 0) {
				snprintf(num, sizeof(num), "%d", iv);
				v = num;
			}
			break;
		}
		if (v)
			bs_run_tag(r, f->key, v);
	}
}
