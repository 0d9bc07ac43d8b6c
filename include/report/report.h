/* SPDX-License-Identifier: ISC */
/*
 * report: the rows ttp-table renders and the text report of tt-perf-report
 * (docs/tt-perf-report.md §15-§17): the performance table, its totals line and the advice
 * section, plus the same table as Markdown.
 *
 * A table holds one compact row per record: its cells (struct row) and every string
 * interned once (names.h: op names, datatypes, advice repeat a lot). The records
 * themselves are never kept. A table that is only read in file order (table_spool) moves
 * its rows to a spool file (spool.h) past TABLE_MEMROWS, so its memory is the strings
 * and a fixed amount whatever the input's size; the rows are read with table_row.
 */
#ifndef TTP_REPORT_H
#define TTP_REPORT_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "core/names.h"
#include "report/tab.h"

struct rec;
struct spool;

/*
 * A row is the tab model's (tab.h) cells of one record, one per field below: each
 * TAB_NONE (the empty cell: the record has no such value) or a value of a tab_kind. A
 * figure that applies but cannot be computed (null in the record, tt-perf-report's NaN)
 * is the number NaN. Device Time is the integer 0 for a device op without a duration
 * (and empty for a host op), else a number of microseconds; strings are strid (below).
 * What kind of row it is (a signpost, or an op and its classes) is row.cls.
 */
enum tt_field {
	/* wide: numbers and integers of 64 bits */
	TF_ID, TF_PCT, TF_DEVICE, TF_DEVTIME, TF_GAP, TF_CORES, TF_DRAM, TF_DRAMPCT,
	TF_TFLOPS, TF_FLOPSPCT, TF_CALL,
	/* narrow: strings, int-sized integers, booleans */
	TF_BOUND, TF_LABEL, TF_MATH, TF_DT_OUT, TF_DT_IN0, TF_DT_IN1, TF_SHARDED,
	TF_MEM0, TF_IN0BW, TF_SBH, TF_SBW, TF_ADVICE, TF_OP, TF_VERDICT, TF_CATEGORY,
	TF_PHASE, TF_ITER, TF_GKEY, TF_NFIELDS
};
#define TF_NWIDE	(TF_CALL + 1)

/* row.cls: a signpost, or an op with tt/opclass.h's OPC_HOST, OPC_MATMUL, OPC_CONV_NEW */
#define ROW_SIGNPOST	0x80

/* A string of the table: 0 is "absent", anything else its names.h index + 1. */
typedef uint32_t strid;

union row_val {
	long long	i;		/* TAB_INT */
	double		d;		/* TAB_NUM */
};
union row_val4 {
	int32_t		i;		/* TAB_INT, TAB_BOOL */
	strid		s;		/* TAB_STR */
};

/* The cells packed: their kinds, then the values of the wide fields and of the narrow
 * ones (a spooled row is this struct). */
struct row {
	uint8_t		kind[TF_NFIELDS];	/* enum tab_kind */
	uint8_t		cls;
	union row_val	v[TF_NWIDE];
	union row_val4	n[TF_NFIELDS - TF_NWIDE];
};

/* Whether field f has a value. */
static inline int
row_has(const struct row *w, int f)
{
	return w->kind[f] != TAB_NONE;
}

/* Field f as a number: NaN when it is empty or not a number. */
static inline double
row_num(const struct row *w, int f)
{
	if (w->kind[f] == TAB_NUM)
		return w->v[f].d;
	if (w->kind[f] == TAB_INT)
		return f < TF_NWIDE ? (double)w->v[f].i : (double)w->n[f - TF_NWIDE].i;
	return NAN;
}

/* Field f as an integer (TAB_INT, TAB_BOOL), 0 otherwise. */
static inline long long
row_int(const struct row *w, int f)
{
	if (w->kind[f] != TAB_INT && w->kind[f] != TAB_BOOL)
		return 0;
	return f < TF_NWIDE ? w->v[f].i : w->n[f - TF_NWIDE].i;
}

/* Field f as a string of the table, 0 when it is not one. */
static inline strid
row_str(const struct row *w, int f)
{
	return w->kind[f] == TAB_STR ? w->n[f - TF_NWIDE].s : 0;
}

/*
 * The report's columns, declared once (report.c's tt_cols): the text report and its
 * Markdown show the columns without TAB_COL_NOTEXT in fmt.flags, the CSV writes them
 * all (but Advice and Raw OP Code unless asked), each a field of the row in a format.
 */
#define TTC_ADVICE	0x01	/* in the CSV with OPCSV_ADVICE only */
#define TTC_RAW		0x02	/* in the CSV with OPCSV_RAW only */
#define TTC_BULLETS	0x04	/* a list ('\n'-separated): items joined by " \u2022 " in CSV */
#define TTC_PLAIN	0x08	/* text: the integer without separators (ID) */
#define TTC_OPCODE	0x10	/* text: the OP Code cell (signposts, the name coloured apart) */
#define TTC_OPEMPTY	0x20	/* text: an op's empty cell still takes its colour (Bound) */
#define TTC_GREYEMPTY	0x40	/* text: an op's empty cell takes a muted row's grey (Math) */

struct tt_col {
	const char	*name;		/* header, in the CSV and the text */
	int		 field;		/* enum tt_field */
	unsigned	 flags;		/* TTC_* */
	struct tab_fmt	 fmt;		/* text: decimals, thousands, unit, alignments */
	const char	*csv_empty;	/* the CSV's text for an empty cell */
};

extern const struct tt_col tt_cols[];
extern const size_t tt_ncols;

#define TABLE_MAXKEYS 4

/* Rows a spooling table keeps in memory before it moves them to its spool. */
#define TABLE_MEMROWS 10000

struct table {
	struct row	*rows;		/* in memory, or NULL once spooled: use table_row */
	size_t		 nrows, caprows;
	int		 may_spool;	/* table_spool was called */
	struct spool	*sp;		/* the rows, when spooled */
	struct row	*one;		/* table_row's copy of a spooled row */
	int		 finished;	/* table_finish ran: spooled rows get their Total % */
	struct names	 strings;
	long		 ndevice, nhost, nsignpost;	/* the totals-line counts */
	long		 nnokind, nnoroof;	/* records without "kind"; ops without "label" */
	char		*nokind_where;		/* where the first record without "kind" was */
	size_t		 nall;			/* rows before table_top */
	double		 sum_dev, sum_gap, total;	/* total = sum_dev + sum_gap */

	/* record keys an op row keeps for grouping (table_group_keys) */
	const char	*gkeys[TABLE_MAXKEYS];
	size_t		 ngkeys;
	long		 gkey_ops[TABLE_MAXKEYS];	/* ops that have each key */
	char		*op_keys;	/* the first op record's keys, ", "-separated */
};

struct report_opts {
	int	colour;		/* emit ANSI colours */
	int	advice;		/* print the advice section */
	double	min_pct;	/* --min-percentage: rows below it are grey */
	size_t	width;		/* text: a report wider than this many columns comes in
				 * blocks of columns that fit it (0: never cut) */
};

void table_init(struct table *t);
void table_free(struct table *t);
/* Before the first table_add: the rows will only be read through table_row in file
 * order (table_finish, table_top, the reports, the CSV, the summary; not table_sort
 * other than SORT_ID), so they may go to a spool file. */
void table_spool(struct table *t);
/* Row i (< nrows), valid until the next table_row or table_add of t; after table_finish
 * with its Total %. Reading rows in order costs one pass over the spool. */
const struct row *table_row(const struct table *t, size_t i);
/* Add a record: kind "op" and "signpost" become rows; other kinds are ignored (0
 * returned); 1 when added. Bad values are errors at the record's location. */
int table_add(struct table *t, struct rec *r);
/* Before the first table_add: op rows keep the values of these record keys (the
 * strings are not copied) in gkey, as text separated by TABLE_KEYSEP, a key's value as
 * its string or else its JSON text, "" when absent or null; gkey is 0 when all are. */
#define TABLE_KEYSEP '\x1f'
void table_group_keys(struct table *t, const char *const *keys, size_t n);
/* After the last record: Total % of every row, the sums and the counts. */
void table_finish(struct table *t);

/* --sort keys: file order, Device Time, Op-to-Op Gap, Device Time + gap, op name. */
enum table_sort { SORT_ID, SORT_TIME, SORT_GAP, SORT_TOTAL, SORT_OP };

/* Parse a --sort value; -1 if unknown. */
int table_parse_sort(const char *s);
/* After table_finish: order the rows by key, largest first (names: A to Z), equal keys
 * in file order. Signposts keep their place only under SORT_ID; otherwise they go last.
 * Only SORT_ID on a table_spool table. */
void table_sort(struct table *t, int key);
/* Keep the first n rows. shown: Total %, the sums and the totals line count the kept
 * rows only; otherwise they stay those of the whole input. */
void table_top(struct table *t, size_t n, int shown);

/* The string for id ("" when absent). */
const char *table_str(const struct table *t, strid id);
strid table_intern(struct table *t, const char *s, size_t n);

/* num_fixed(out, v, dec, 1), faster for 0-2 decimals; out holds NUM_BUFSZ bytes. */
size_t report_fixed(char *out, double v, int dec);

/* The text report (performance table, totals, advice) on fp: tt-perf-report's layout,
 * or at o->width, when wider, blocks of columns (tab.h's tab_layout), each led by ID. */
void report_text(FILE *fp, const struct table *t, const struct report_opts *o);
/* The performance table as a GitHub-flavoured Markdown table. */
void report_markdown(FILE *fp, const struct table *t);
/* The advice section as Markdown: a heading per kind of advice, one list item per op. */
void report_markdown_advice(FILE *fp, const struct table *t);

#endif
