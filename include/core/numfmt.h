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

#include <stddef.h>

#define NUM_BUFSZ 400	/* enough for any double in either form */

/* Write into buf (at least NUM_BUFSZ bytes); return the length. */
size_t num_shortest(char *buf, double d);
size_t num_fixed(char *buf, double d, int decimals, int thousands);
/* Integer with optional thousands separators, into buf of at least NUM_INTSZ bytes
 * (NUL-terminated); returns the length. The one integer-to-text writer. */
#define NUM_INTSZ 28
size_t num_int(char *buf, long long v, int thousands);

#endif
