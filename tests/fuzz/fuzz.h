/*
 * tests/fuzz/fuzz.h - what every fuzz target shares: libFuzzer's entry
 * point, which replay.c calls too, and CHECK, which aborts with the
 * failed condition so that libFuzzer keeps the input as a crash.
 */
#ifndef BS_TESTS_FUZZ_FUZZ_H
#define BS_TESTS_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
			abort();                                               \
		}                                                              \
	} while (0)

#endif
