/* tests/unit/test_host.c - the host probe and its mountinfo parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>

#include <cmocka.h>

#include "core/host.h"
#include "core/result.h"
#include "util/banned.h"

/* Lines as /proc/self/mountinfo prints them (from real machines). */
static const char mountinfo[] =
	"21 26 0:20 / /proc rw,relatime - proc proc rw\n"
	"22 26 0:21 / /sys rw,relatime - sysfs sysfs rw\n"
	"26 1 254:0 / / rw,relatime - ext4 /dev/vda "
	"rw,discard,resv_strict,resuid=65534,resgid=65534\n"
	"24 23 0:22 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24683620k\n"
	"36 26 8:17 / /srv/data rw,noatime shared:1 master:2 - xfs /dev/sdb1 "
	"rw,attr2,inode64,logbufs=8,noquota\n"
	"37 36 8:33 / /srv/data/raid rw,noatime - ext4 /dev/md0 "
	"rw,stripe=256\n"
	"38 26 8:49 /exports /mnt/my\\040disk ro,nosuid - ext4 /dev/sdd1 "
	"ro,errors=remount-ro\n"
	"39 26 0:45 / /mnt/sub rw,relatime - btrfs /dev/nvme0n1p2 "
	"rw,ssd,space_cache=v2,subvolid=5\n"
	"40 26 254:0 /tmp /tmp/bind rw,nosuid - ext4 /dev/vda rw,discard\n";

struct mcase {
	unsigned maj, min;
	const char *path;
	const char *fs, *mnt, *opts, *src;
};

static void test_mountinfo(void **state)
{
	/* clang-format off */
	static const struct mcase cases[] = {
		{ 254, 0, "/work/main/build", "ext4", "/",
		  "rw,relatime,discard,resv_strict,resuid=65534,resgid=65534",
		  "/dev/vda" },
		/* Optional fields (shared:, master:) before the "-". */
		{ 8, 17, "/srv/data/x", "xfs", "/srv/data",
		  "rw,noatime,attr2,inode64,logbufs=8,noquota", "/dev/sdb1" },
		/* A nested mount wins over its parent... */
		{ 8, 33, "/srv/data/raid/t", "ext4", "/srv/data/raid",
		  "rw,noatime,stripe=256", "/dev/md0" },
		/* ...but "/srv/database" is not under "/srv/data". */
		{ 254, 0, "/srv/database", "ext4", "/",
		  "rw,relatime,discard,resv_strict,resuid=65534,resgid=65534",
		  "/dev/vda" },
		/* Octal escapes in the mount point; ro repeated once. */
		{ 8, 49, "/mnt/my disk/t", "ext4", "/mnt/my disk",
		  "ro,nosuid,errors=remount-ro", "/dev/sdd1" },
		/* btrfs: st_dev is an anonymous 0:N that no line has. */
		{ 0, 99, "/mnt/sub/vol/t", "btrfs", "/mnt/sub",
		  "rw,relatime,ssd,space_cache=v2,subvolid=5",
		  "/dev/nvme0n1p2" },
		/* A bind mount of the same device: the longest prefix. */
		{ 254, 0, "/tmp/bind/x", "ext4", "/tmp/bind",
		  "rw,nosuid,discard", "/dev/vda" },
	};
	/* clang-format on */
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bs_host h;

		memset(&h, 0, sizeof(h));
		assert_int_equal(bs_host_parse_mountinfo(mountinfo,
							 cases[i].maj,
							 cases[i].min,
							 cases[i].path, &h),
				 1);
		assert_string_equal(h.fs, cases[i].fs);
		assert_string_equal(h.mount_point, cases[i].mnt);
		assert_string_equal(h.mount_options, cases[i].opts);
		assert_string_equal(h.source, cases[i].src);
	}
}

static void test_mountinfo_garbage(void **state)
{
	struct bs_host h;

	(void)state;
	memset(&h, 0, sizeof(h));
	assert_int_equal(bs_host_parse_mountinfo("", 8, 1, "/x", &h), 0);
	assert_int_equal(bs_host_parse_mountinfo("no dash here at all\n"
						 "1 2 3\n",
						 8, 1, "/x", &h),
			 0);
	assert_string_equal(h.fs, "");
}

/* The real probe on the build tree's scratch directory. */
static void test_probe(void **state)
{
	const char *scratch = getenv("SCRATCH");
	struct bs_host h;
	struct bs_err err = BS_ERR_INIT;
	struct utsname u;
	struct bs_run r;
	char dir[4096];

	(void)state;
	assert_non_null(scratch);
	snprintf(dir, sizeof(dir), "%s/test_host", scratch);
	mkdir(scratch, 0755);
	mkdir(dir, 0755);
	assert_int_equal(bs_host_probe(dir, &h, &err), 0);
	assert_int_equal(uname(&u), 0);
	assert_string_equal(h.kernel, u.release);
	assert_true(h.fs[0] != '\0');
	assert_true(h.mount_point[0] == '/');
	assert_true(h.mount_options[0] != '\0');
	assert_true(h.ram_mib > 0);
	assert_true(h.cpus > 0);
	assert_true(h.rotational >= -1 && h.rotational <= 1);

	bs_run_init(&r);
	bs_host_tag(&h, &r);
	assert_string_equal(bs_run_tag_get(&r, "host.kernel"), u.release);
	assert_string_equal(bs_run_tag_get(&r, "host.fs"), h.fs);
	assert_non_null(bs_run_tag_get(&r, "host.ram_mib"));
	assert_non_null(bs_run_tag_get(&r, "host.mount_options"));
	bs_run_release(&r);

	assert_int_equal(bs_host_probe("/nonexistent/dir", &h, &err), -BS_EIO);
	assert_string_equal(err.msg, "cannot stat '/nonexistent/dir': "
				     "No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_mountinfo_garbage),
		cmocka_unit_test(test_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
