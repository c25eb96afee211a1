/*
 * util/err.h - error reporting shared by every module.
 * A function returns 0 (or a count) on success, or a negative BS_E* code
 * after filling the caller's struct bs_err. The first error wins: later
 * calls to bs_error() on a filled struct keep the first message.
 */
#ifndef BS_UTIL_ERR_H
#define BS_UTIL_ERR_H

#include <stddef.h>

enum {
	BS_OK = 0,
	BS_EINVAL = 1,    /* bad argument or usage */
	BS_EPARSE = 2,    /* input that does not parse */
	BS_EIO = 3,       /* system call failed */
	BS_EDB = 4,       /* database error */
	BS_ENOTFOUND = 5, /* nothing matched */
	BS_ETOOBIG = 6,   /* input over a limit */
	BS_EINTR = 7,     /* interrupted by a signal */
	BS_ETMPL = 8,     /* template error */
};

#define BS_ERR_MSG_MAX 512

struct bs_err {
	int code;                 /* 0 while no error */
	char msg[BS_ERR_MSG_MAX]; /* lowercase start, no final period */
};

/* clang-format off */
#define BS_ERR_INIT {0, {0}}
/* clang-format on */

#if defined(__GNUC__)
#define BS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define BS_NORETURN __attribute__((noreturn))
#else
#define BS_PRINTF(a, b)
#define BS_NORETURN
#endif

/* Fills err (unless already filled) and returns -code. err may be NULL. */
int bs_error(struct bs_err *err, int code, const char *fmt, ...)
	BS_PRINTF(3, 4);

/* Clears err for reuse. */
void bs_err_reset(struct bs_err *err);

/*
 * Copies at most max bytes of user data into out (size outsz) for use in a
 * message: control characters become '?', and "..." marks a cut.
 */
const char *bs_err_quote(char *out, size_t outsz, const char *s, size_t len,
			 size_t max);

/* Stays on in release builds: for states that would damage the store. */
#define BS_BUG(msg) bs_bug(__FILE__, __LINE__, (msg))
BS_NORETURN void bs_bug(const char *file, int line, const char *msg);

#endif
