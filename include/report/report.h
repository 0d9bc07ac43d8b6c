/* SPDX-License-Identifier: ISC */
/*
 * report: the rows ttp-table renders and the text report of tt-perf-report
 * (docs/tt-perf-report.md §15-§17): the performance table, its totals line and the advice
 * section, plus the same table as Markdown.
 *
 * A table holds one compact row per record: numbers in fixed fields and every string
 * interned once (names.h: op names, datatypes, advice repeat a lot). The records
 * themselves are never kept. A table that is only read in file order (table_spool) moves
 * its rows to a spool file (spool.h) past TABLE_MEMROWS, so its memory is the strings
 * and a fixed amount whatever the input's size; the rows are read with table_row.
 */
#ifndef TTP_REPORT_H
#define TTP_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "core/names.h"

struct rec;
struct spool;

/* Row flags: which values are present, and what kind of row it is. */
#define ROW_SIGNPOST	0x00001
#define ROW_HOST	0x00002		/* a host op (opclass_report: "(torch)") */
#define ROW_DEVICE	0x00004		/* device id present */
#define ROW_CORES	0x00008
#define ROW_CALL	0x00010
#define ROW_DEV_US	0x00020		/* Device Time present */
#define ROW_DEV_ZERO	0x00040		/* ... and it is the integer 0 (no duration) */
#define ROW_GAP		0x00080
#define ROW_DRAM	0x00100
#define ROW_DRAM_PCT	0x00200
#define ROW_TFLOPS	0x00400
#define ROW_FLOPS_PCT	0x00800
#define ROW_PCT		0x01000		/* Total % present */
#define ROW_SHARDED	0x02000		/* DRAM Sharded */
#define ROW_IN0BW	0x04000
#define ROW_SBH		0x08000
#define ROW_SBW		0x10000
#define ROW_MATMUL	0x20000		/* a matmul (opclass_report: "Matmul") */
#define ROW_ITER	0x40000
#define ROW_DEV_INTNS	0x80000		/* device_ns was an integer: dev_ns holds it */
#define ROW_GAP_INTNS	0x100000	/* gap_ns was an integer: gap_ns holds it */
#define ROW_CONV_NEW	0x200000	/* an OptimizedConvNew (opclass_report) */

/* A string of the table: 0 is "absent", anything else its names.h index + 1. */
typedef uint32_t strid;

struct row {
	long long	id, device, call;
	long long	dev_ns, gap_ns;	/* the integer durations, see ROW_*_INTNS */
	/* Figures: NaN when they apply but cannot be computed (null in the record) */
	double		cores, dev_us, gap_us, dram, dram_pct, tflops, flops_pct, pct;
	int		in0bw, sbh, sbw, iter;
	uint32_t	flags;
	strid		label, op, math, bound, verdict, category, phase;
	strid		dt_out, dt_in0, dt_in1, mem0;
	strid		advice;		/* items separated by '\n'; absent for non-matmuls */
	strid		gkey;		/* the values of the table's group keys, see below */
};

#define TABLE_MAXKEYS 4

/* Rows a spooling table keeps in memory before it moves them to its spool. */
#define TABLE_MEMROWS 16384

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
	size_t	width;		/* text: the OP Code column cut so that the table fits
				 * this many columns where it can (0: never cut) */
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

/* The text report (performance table, totals, advice) on fp. */
void report_text(FILE *fp, const struct table *t, const struct report_opts *o);
/* The performance table as a GitHub-flavoured Markdown table. */
void report_markdown(FILE *fp, const struct table *t);
/* The advice section as Markdown: a heading per kind of advice, one list item per op. */
void report_markdown_advice(FILE *fp, const struct table *t);

#endif
