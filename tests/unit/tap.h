/* SPDX-License-Identifier: ISC */
/* A tiny TAP helper for the unit tests: ok(cond, fmt, ...), then return tap_done(). */
#ifndef TTP_TAP_H
#define TTP_TAP_H
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

/* tap_rand: the tests' pseudo-random numbers (xorshift64), the same sequence each run. */
static uint64_t tap_rng = 88172645463325252u;

static inline uint64_t
tap_rand(void)
{
	tap_rng ^= tap_rng << 13;
	tap_rng ^= tap_rng >> 7;
	tap_rng ^= tap_rng << 17;
	return tap_rng;
}

static inline int __attribute__((format(printf, 2, 3)))
ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	return cond;
}

/* String equality with a diagnostic line on failure. */
#define is_str(got, want, name) do {					\
	const char *g_ = (got), *w_ = (want);				\
	if (!ok(g_ && strcmp(g_, w_) == 0, "%s", name))			\
		printf("#   got  \"%s\"\n#   want \"%s\"\n", g_ ? g_ : "(null)", w_); \
} while (0)

static inline int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

#if defined(TTP_REC_H) && defined(TTP_DIAG_H)
/* rec_parse of a line the test wrote (core/rec.h and core/diag.h included first); a bad
 * one ends the test as a program would stop (error_die). */
static inline struct rec *
tap_rec(const char *s, size_t n, const char *where)
{
	struct error err = ERROR_INIT;
	struct rec *r = rec_parse(s, n, where, &err);

	if (r == NULL)
		error_die(&err);
	return r;
}
#endif
#endif
