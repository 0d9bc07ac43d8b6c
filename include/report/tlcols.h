/* SPDX-License-Identifier: ISC */
/*
 * tlcols: the aggregating sheets' columns, declared: each sheet lists its columns in order
 * (name, source, aggregation, format, when), tl_cols_add adds those its options ask
 * for, and tl_cols_row fills a group's row from the group's values of each source. A
 * column's aggregation is what merging partial results (one rank's, one window's) needs
 * to know of it: a sum, a count, a mean, a min, a max, a median, a first. The
 * aggregations are tab.h's, pandas' bit for bit.
 */
#ifndef TTP_REPORT_TLCOLS_H
#define TTP_REPORT_TLCOLS_H

#include <stddef.h>
#include <stdint.h>

#include "report/tab.h"

#define TL_COL_NONE	SIZE_MAX	/* a column left out (tl_cols_add) */

enum tl_agg {
	TL_FIRST,	/* the group's first member's value (any kind) */
	TL_FIRSTNUM,	/* the first value that is not NaN */
	TL_SUM,		/* pandas' sum (compensated) */
	TL_PSUM,	/* the values added in order, plainly */
	TL_COUNT, TL_MEAN, TL_MEDIAN,
	TL_STD,		/* ddof 1, as pandas */
	TL_MIN, TL_MAX,
	TL_PCT,		/* the sum, percent of the denominator arg */
	TL_CUSTOM	/* the sheet fills it (the column only) */
};
enum tl_fmt {
	TL_NUM,		/* a number */
	TL_INT,		/* an integer */
	TL_STR,		/* a string */
	TL_BOOL,	/* True or False */
	TL_MS		/* a number of µs shown in ms (/ 1000 after aggregating) */
};
struct tl_col {
	const char	*name;
	int		 src;		/* the sheet's source: a series of its groups */
	enum tl_agg	 agg;
	enum tl_fmt	 fmt;
	unsigned	 when;		/* options the column needs (tl_cols_add), 0: always */
	int		 arg;		/* TL_PCT: the denominator's index */
};

/* A value of a TL_FIRST column (kind: TAB_NONE for an empty cell). */
struct tl_val {
	int		 kind;
	long long	 i;
	double		 d;
	const char	*s;
};

/* One group of an aggregating sheet: its values of each numeric source (v[src]), its
 * first member's values (first), the TL_PCT denominators. */
struct tl_group {
	const struct vec *const *v;
	void		(*first)(void *ctx, int src, struct tl_val *out);
	void		 *ctx;
	const double	 *denom;
};

/* Add the columns of c[0 .. n) whose when is within the options have: idx[j] is
 * column j's index in t, or TL_COL_NONE when left out. */
void tl_cols_add(struct tab *t, const struct tl_col *c, size_t n, unsigned have,
    size_t *idx);
/* Fill row r's cells of the columns added (but TL_CUSTOM ones) from group g. */
void tl_cols_row(struct tab *t, size_t r, const struct tl_col *c, size_t n,
    const size_t *idx, const struct tl_group *g);
/* --partial (report/tlmerge.h): when set, tl_cols_row hands each row it filled, with
 * its group, to this hook as well, which keeps what merging the row needs. */
extern void (*tl_cols_hook)(struct tab *t, size_t r, const struct tl_col *c, size_t n,
    const size_t *idx, const struct tl_group *g);
static inline struct tl_val
tl_val_str(const char *s)
{
	struct tl_val v = { s ? TAB_STR : TAB_NONE, 0, 0, s };

	return v;
}

#endif
