/* SPDX-License-Identifier: ISC */
/*
 * opcsv: the op table as tt-perf-report's --csv file (docs/tt-perf-report.md §18), byte for
 * byte: Python csv module quoting, CRLF line ends, floats in Python repr, "nan" where the
 * reference has NaN, True/False; Cores and Global Call Count as integers (D6).
 */
#ifndef TTP_OPCSV_H
#define TTP_OPCSV_H

#include <stdio.h>

struct table;

#define OPCSV_ADVICE	0x1	/* the Advice column (omitted with --no-advice) */
#define OPCSV_RAW	0x2	/* the Raw OP Code column (--raw-op-codes) */

/* Write the CSV to fp. Returns 0, or -1 on a write error (errno set). */
int opcsv_write(FILE *fp, const struct table *t, int flags);

/* Append field s[0..n) to fp quoted as Python's csv.writer does (QUOTE_MINIMAL). */
void csv_field(FILE *fp, const char *s, size_t n);

#endif
