/* SPDX-License-Identifier: ISC */
/*
 * numfmt: number formatting that no locale changes.
 *
 * num_shortest: the shortest text that reads back as exactly the same double, laid
 * out as Python's repr(float) does ("94.25", "64.0", "1e-05", "1.5e+16"). It is valid
 * JSON for every finite value. Non-finite values give "nan", "inf", "-inf" (Python's
 * spelling, for the compatible CSV); JSON writers must not pass them.
 * num_fixed: like printf("%.*f") with ',' thousands separators (Python "{:,.Nf}"),
 * correctly rounded, ties-to-even on the binary value.
 */
#ifndef TTP_NUMFMT_H
#define TTP_NUMFMT_H

#include <float.h>
#include <stddef.h>

/*
 * Buffer sizes, derived from the types' limits so that no value can overrun them.
 * num_fixed's longest text is a sign, DBL_MAX's DBL_MAX_10_EXP + 1 integer digits, a
 * ',' before every group of three after the first, the point, NUM_MAXDEC decimals (more
 * are clamped to that) and the NUL. num_shortest needs far less (at most 17 digits, a
 * sign, a point and "e-308": 26 bytes).
 */
#define NUM_MAXDEC	40
#define NUM_INTDIGITS	(DBL_MAX_10_EXP + 1)
#define NUM_BUFSZ	(1 + NUM_INTDIGITS + (NUM_INTDIGITS - 1) / 3 + 1 + NUM_MAXDEC + 1)

/* Write into buf (at least NUM_BUFSZ bytes); return the length. */
size_t num_shortest(char *buf, double d);
size_t num_fixed(char *buf, double d, int decimals, int thousands);
/* Integer with optional thousands separators, into buf of at least NUM_INTSZ bytes
 * (NUL-terminated); returns the length. The one integer-to-text writer. 20 digits
 * (2^64 has 20), 6 separators, the sign and the NUL need 28. */
#define NUM_INTSZ 28
size_t num_int(char *buf, long long v, int thousands);

#endif
