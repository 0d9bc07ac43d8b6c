/* SPDX-License-Identifier: ISC */
/*
 * tab: the one column/group-by model of the reports. A tab is a named table of typed
 * cells (empty, integer, number, string, boolean) under named columns; it is built row by
 * row, grouped with the helpers below, sorted on any columns (stably), and rendered as
 * CSV (pandas' to_csv: minimal quoting, Python float repr, True/False, empty for a
 * missing value), as an aligned text table (numbers right-aligned, the widest columns
 * trimmed to a width budget, the first N rows), as a Markdown table, or as one sheet of
 * an .xlsx workbook (numbers as numbers, a bold header row, column widths from the
 * content).
 *
 * A column can say how it shows (struct tab_fmt): a header for the terminal other than
 * its name, fixed decimals, a unit after the number, thousands separators, alignments,
 * colours, or that it stays out of the text forms or of the files. The TraceLens sheets
 * use the defaults; the grouped summary of the TT report (summary.h) sets them.
 *
 * Grouping: tab_group interns a key (any bytes, e.g. the columns of a group joined by
 * '\x1f') and returns its group number in order of first appearance; struct vec collects
 * the values of a group and the stat_* functions aggregate them as pandas does (std with
 * ddof 1 or 0, NaN where pandas gives NaN).
 */
#ifndef TTP_TAB_H
#define TTP_TAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/names.h"

enum tab_kind { TAB_NONE, TAB_INT, TAB_NUM, TAB_STR, TAB_BOOL };

struct tab_cell {
	uint8_t		kind;
	union {
		long long	i;
		double		d;
		uint32_t	s;	/* index in the tab's string table */
	} v;
} __attribute__((packed));	/* 9 bytes, not 16: a sheet of a row per op is large */

/* struct tab_fmt flags */
#define TAB_COL_NOTEXT	0x1	/* not in the text and Markdown forms */
#define TAB_COL_NOFILE	0x2	/* not in the CSV and the workbook */
#define TAB_COL_OPCOLOUR 0x4	/* text in colour: a string in its op's colour (colour.h) */

enum tab_align { TAB_AUTO, TAB_LEFT, TAB_RIGHT };

/* How a column shows. The strings are not copied: they must outlive the tab. */
struct tab_fmt {
	const char	*text;		/* header in text and Markdown; NULL: the name */
	int		 dec;		/* >= 0: numbers with this many decimals (in CSV a
					 * number cell only: an integer stays an integer, as
					 * in a pandas integer column); -1: the default */
	int		 thousands;	/* text and Markdown: ',' thousands separators */
	const char	*unit;		/* text and Markdown: after a number (" %") */
	int		 align, mdalign;	/* TAB_AUTO: right when a shown cell is a number */
	unsigned	 flags;		/* TAB_COL_* */
};
#define TAB_FMT_INIT { NULL, -1, 0, NULL, TAB_AUTO, TAB_AUTO, 0 }

struct tab {
	char		*name;		/* sheet name: the CSV's basename, the xlsx sheet */
	char		**cols;
	struct tab_fmt	*fmts;		/* one per column */
	size_t		 ncols, capcols;
	struct tab_cell	*cells;		/* row-major, nrows x ncols */
	size_t		 nrows, caprows;
	struct names	 strs;
};

struct tab *tab_new(const char *name);
void tab_free(struct tab *t);
/* Add a column (also after rows: their cells in it are empty); returns its index. */
size_t tab_col(struct tab *t, const char *name);
/* Set how column col shows (a new column has TAB_FMT_INIT). */
void tab_format(struct tab *t, size_t col, const struct tab_fmt *f);
/* The index of the column named name, or (size_t)-1. */
size_t tab_find(const struct tab *t, const char *name);
/* Append an empty row; returns its index. */
size_t tab_row(struct tab *t);
/* Room for nrows rows in all, exactly (no doubling's slack): for a table whose row
 * count is known before its rows are added. */
void tab_reserve(struct tab *t, size_t nrows);

void tab_set_int(struct tab *t, size_t row, size_t col, long long v);
/* A non-finite value is stored as empty (pandas' NaN is written empty). */
void tab_set_num(struct tab *t, size_t row, size_t col, double v);
void tab_set_str(struct tab *t, size_t row, size_t col, const char *s);
void tab_set_strn(struct tab *t, size_t row, size_t col, const char *s, size_t n);
void tab_set_bool(struct tab *t, size_t row, size_t col, int v);

struct tab_cell *tab_cell(const struct tab *t, size_t row, size_t col);
/* The cell as a double (NaN when empty or not a number). */
double tab_num(const struct tab *t, size_t row, size_t col);
const char *tab_str(const struct tab *t, size_t row, size_t col);	/* "" if none */

/* Sort keys: a column and its direction. Stable: equal keys keep their order. Empty
 * cells sort last; numbers before strings. */
struct tab_key {
	size_t	col;
	int	desc;
};
void tab_sort(struct tab *t, const struct tab_key *keys, size_t nkeys);
/* pandas' sort_values(by=col, ascending=!desc) with its default kind: numpy's quicksort,
 * which is not stable, so equal values end in the order pandas gives them (for up to 16
 * rows that is table order); empty cells last in table order. */
void tab_sort_pandas(struct tab *t, size_t col, int desc);
/* A new tab named name holding the columns of t named in cols (NULL-terminated), in
 * that order; names t lacks are left out. */
struct tab *tab_project(const struct tab *t, const char *name, const char *const *cols);
/* A copy of t (its columns, formats and rows), named name. */
struct tab *tab_copy(const struct tab *t, const char *name);
/* Keep the first n rows. */
void tab_truncate(struct tab *t, size_t n);
/* Add "Percentage (%)" and "Cumulative Percentage (%)" columns over column col. */
void tab_percentages(struct tab *t, size_t col);

/* The cell as the text and Markdown forms show it (its column's format), appended to b
 * (a struct buf of core/buf.h). */
struct buf;
void tab_show(const struct tab *t, size_t row, size_t col, struct buf *b);
/* The header the text forms show for column col. */
const char *tab_header(const struct tab *t, size_t col);

/* Output. Each returns 0, or -1 with errno set by the failing write. */
int tab_write_csv(const struct tab *t, FILE *fp);
/* A sheet written in parts: the header (when header is non-zero), then t's rows. */
int tab_write_csv_part(const struct tab *t, FILE *fp, int header);

/* tab_print flags */
#define TAB_PRINT_MD		0x1	/* a Markdown table, not aligned text */
#define TAB_PRINT_COLOUR	0x2	/* text: ANSI colours (TAB_COL_OPCOLOUR columns) */
#define TAB_PRINT_TRIM		0x4	/* text: no trailing spaces on a line */
#define TAB_PRINT_ENDRULE	0x8	/* text: a rule under the last row as well */
/* The table through the one printer (texttab.h): header, rule, rows. top: at most this
 * many rows (0: all; text says how many more there are); width: in text, the line
 * budget the widest columns are trimmed to (0: no trimming). */
int tab_print(const struct tab *t, FILE *fp, size_t top, size_t width, int flags);
/* tab_print as text, and as Markdown. */
int tab_write_text(const struct tab *t, FILE *fp, size_t top, size_t width);
int tab_write_md(const struct tab *t, FILE *fp, size_t top);

/*
 * Blocks of columns for a table printed from a stream of rows (one too long to hold as
 * a tab: the TT report's rows are spooled), in text at a width: tab_layout splits the
 * columns as tab_print splits a tab's, each block after the first led by column 0, the
 * widest columns cut down to their floors, headers that the cut would make alike kept
 * apart. The caller prints each block's columns at those widths and cuts (ttab_cut)
 * a cell wider than its column.
 */
struct tab_lcol {
	const char	*header;	/* not copied */
	size_t		 natural;	/* the widest of the header and the shown cells */
	size_t		 numw;		/* the widest number among them: never cut */
	int		 right;		/* a shown cell is a number */
};
struct tab_block {
	size_t		 n;		/* its columns: */
	size_t		*col;		/* their indices in tab_layout's array */
	size_t		*w;		/* their widths */
	char		**hdr;		/* their headers as cut for the block */
};
struct tab_layout {
	struct tab_block *b;
	size_t		  n;
};
/* The blocks of ncols columns at width (> 0); tab_layout_free frees them. */
void tab_layout(struct tab_layout *l, const struct tab_lcol *c, size_t ncols, size_t width);
void tab_layout_free(struct tab_layout *l);

/* An .xlsx workbook holding one sheet per tab. */
struct tab_book;
struct tab_book *tab_book_new(const char *path);	/* NULL: errno-free failure */
/* Adds t as a sheet (rows past Excel's 1,048,576 go on in sheets "NAME (2)", ...);
 * returns 0, or -1 (the message is in tab_book_error). */
int tab_book_add(struct tab_book *b, const struct tab *t);
/* Write and close; returns 0, or -1 (the message is in tab_book_error). */
int tab_book_close(struct tab_book *b);
const char *tab_book_error(void);

/*
 * A sheet too long to hold at once, written in parts (tabs of the same name and
 * columns, one after another; the JAX report's per-kernel sheets, the multi-rank
 * report's large ones): tab_write_csv_part with the header for the first part, without
 * for each other; in a workbook,
 * tab_book_begin with the first part, tab_book_more with each other, tab_book_end (the
 * column widths; frees the handle). The file is the one the parts joined would give.
 * Each returns 0, or -1 (errno set; the workbook's message in tab_book_error; after a
 * failure the handle still needs tab_book_end).
 */
struct tab_part;
int tab_book_begin(struct tab_book *b, const struct tab *t, struct tab_part **p);
int tab_book_more(struct tab_part *p, const struct tab *t);
int tab_book_end(struct tab_part *p);

/* --- grouping and aggregation ------------------------------------------------------ */

struct vec {
	double	*v;
	size_t	 n, cap;
};
#define VEC_INIT { NULL, 0, 0 }

void vec_add(struct vec *v, double d);
void vec_free(struct vec *v);

/* pandas' groupby aggregations over the values in their order, bit for bit (NaN values
 * are skipped, as pandas skips them): sum and mean by Kahan's compensated sum (cython
 * group_sum, group_mean), std by Welford's running update (group_var). */
double stat_sum(const struct vec *v);
double stat_mean(const struct vec *v);
double stat_median(const struct vec *v);	/* sorts a copy */
double stat_std(const struct vec *v, int ddof);	/* NaN when n - ddof <= 0 */
double stat_min(const struct vec *v);
double stat_max(const struct vec *v);
/* numpy's np.sum, np.mean and np.std (ddof 0) over every value, NaN included: its
 * pairwise summation, so that a mean rounded afterwards rounds as numpy's does. */
double stat_npsum(const struct vec *v);
double stat_npmean(const struct vec *v);
double stat_npstd(const struct vec *v);

/* The same aggregations one value at a time, for the groups of a table that is
 * streamed (whose values are too many to keep); the stat_* functions over a vec are
 * these over its values. An all-zero stat_acc is empty; NaN values are skipped. */
struct stat_acc {
	size_t	n;		/* non-NaN values */
	double	plain;		/* their sum added in order without compensation (the
				 * TT summary's weighted mean and Ops order, as they were) */
	double	sum, comp;	/* Kahan's compensated sum */
	double	min, max;
	double	mean, m2;	/* Welford's running mean and sum of squared deviations */
};

void stat_acc_add(struct stat_acc *a, double v);
double stat_acc_sum(const struct stat_acc *a);
double stat_acc_mean(const struct stat_acc *a);		/* NaN when empty */
double stat_acc_std(const struct stat_acc *a, int ddof);	/* NaN when n - ddof <= 0 */
double stat_acc_min(const struct stat_acc *a);		/* NaN when empty */
double stat_acc_max(const struct stat_acc *a);

/* Group number of key (order of first appearance). */
uint32_t tab_group(struct names *groups, const char *key, size_t len);

/* Values by group: each key's group (tab_group's number), the values added to each
 * group in order, and the item (a caller's index) with which each group first came. */
struct tab_groups {
	struct names	 keys;
	struct vec	*vals;
	size_t		*first;
	size_t		 n, cap;
};

void tab_groups_init(struct tab_groups *g);
/* Add value v of item to the group of key; returns the group. */
size_t tab_groups_add(struct tab_groups *g, const char *key, size_t len, size_t item,
    double v);
void tab_groups_free(struct tab_groups *g);

#endif
