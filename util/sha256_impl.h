/*
 * util/sha256_impl.h - internals of util/sha256.c that only tests use.
 * util/sha256.c picks its block function once, at the first hash: the
 * SHA-NI instructions when the CPU has them (x86-64, GCC or Clang), the
 * portable C code otherwise. These hooks let a test run both paths on one
 * machine and compare them.
 */
#ifndef BS_UTIL_SHA256_IMPL_H
#define BS_UTIL_SHA256_IMPL_H

/* 1 if this build and CPU can use the SHA-NI path, else 0. */
int bs_sha256_have_accel(void);

/*
 * on != 0: every later hash uses the portable code; on == 0: back to the
 * run-time choice. Meant for tests; set it while no other thread hashes.
 */
void bs_sha256_force_portable(int on);

#endif
