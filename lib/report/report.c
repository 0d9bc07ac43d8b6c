/* SPDX-License-Identifier: ISC */
/*
 * report: the compact row table that ttp-table builds from records, and the text
 * report of tt-perf-report: performance table, totals line, advice (docs/tt-perf-report.md
 * §13, §15-§17).
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "report/colour.h"
#include "core/diag.h"
#include "core/io.h"
#include "tt/metrics.h"
#include "core/names.h"
#include "core/numfmt.h"
#include "core/rec.h"
#include "core/spool.h"
#include "report/report.h"
#include "report/texttab.h"
#include "core/tensor.h"
#include "tt/opclass.h"

/* --- the cells ------------------------------------------------------------------- */

/* An integer cell: a narrow field's fits an int (get_small_int checks it). */
static void
set_int(struct row *w, int f, long long v)
{
	w->kind[f] = TAB_INT;
	if (f < TF_NWIDE)
		w->v[f].i = v;
	else
		w->n[f - TF_NWIDE].i = (int32_t)v;
}

/* A number cell: wide fields only. */
static void
set_num(struct row *w, int f, double v)
{
	if (f >= TF_NWIDE)
		die(EXIT_DATA, "internal error: field %d is not a number's", f);
	w->kind[f] = TAB_NUM;
	w->v[f].d = v;
}

/* A string cell (narrow fields); id 0 (absent) leaves it empty. */
static void
set_str(struct row *w, int f, strid id)
{
	if (id == 0)
		return;
	if (f < TF_NWIDE)
		die(EXIT_DATA, "internal error: field %d is not a string's", f);
	w->kind[f] = TAB_STR;
	w->n[f - TF_NWIDE].s = id;
}

static void
set_bool(struct row *w, int f, int v)
{
	if (f < TF_NWIDE)
		die(EXIT_DATA, "internal error: field %d is not a boolean's", f);
	w->kind[f] = TAB_BOOL;
	w->n[f - TF_NWIDE].i = v != 0;
}

/* --- the strings ----------------------------------------------------------------- */

strid
table_intern(struct table *t, const char *s, size_t n)
{
	return names_intern(&t->strings, s, n) + 1;
}

const char *
table_str(const struct table *t, strid id)
{
	return id == 0 ? "" : t->strings.str[id - 1];
}

void
table_init(struct table *t)
{
	memset(t, 0, sizeof(*t));
	names_init(&t->strings);
}

void
table_free(struct table *t)
{
	free(t->rows);
	spool_close(t->sp);
	free(t->one);
	names_free(&t->strings);
	free(t->nokind_where);
	free(t->op_keys);
	memset(t, 0, sizeof(*t));
}

void
table_group_keys(struct table *t, const char *const *keys, size_t n)
{
	for (t->ngkeys = 0; t->ngkeys < n && t->ngkeys < TABLE_MAXKEYS; t->ngkeys++)
		t->gkeys[t->ngkeys] = keys[t->ngkeys];
}

/* The op row's group-key values (table_group_keys); has[k]: whether the op has key k. */
static void
group_keys(struct table *t, struct rec *r, struct row *w, int has[TABLE_MAXKEYS])
{
	struct buf b = BUF_INIT;
	size_t k, n;
	int any = 0;

	for (k = 0; k < t->ngkeys; k++) {
		const char *v;
		enum rec_type ty = rec_type(r, t->gkeys[k]);

		has[k] = 0;
		if (k > 0)
			buf_addc(&b, TABLE_KEYSEP);
		if (ty == REC_ABSENT || ty == REC_NULL)
			continue;
		has[k] = 1;
		if (ty == REC_STRING)
			v = rec_str(r, t->gkeys[k], &n);
		else
			v = rec_raw(r, t->gkeys[k], &n);
		if (n > 0)
			any = 1;
		buf_add(&b, v, n);
	}
	if (any)
		set_str(w, TF_GKEY, table_intern(t, b.p, b.len));
	buf_free(&b);
}

/* The first op record's keys, for the message about a group key no op has. */
static void
first_op_keys(struct table *t, struct rec *r)
{
	struct buf b = BUF_INIT;
	const char *key;
	size_t k;

	for (k = 0; (key = rec_key(r, k)) != NULL; k++)
		buf_printf(&b, "%s%s", k ? ", " : "", key);
	t->op_keys = xstrdup(b.p ? b.p : "");
	buf_free(&b);
}

/* --- the tensors' datatypes and memory ------------------------------------------ */

static strid
intern_opt(struct table *t, const char *s)
{
	return s == NULL ? 0 : table_intern(t, s, strlen(s));
}

/* in[0].dtype, in[0].mem, in[1].dtype and out[0].dtype of a record. */
static void
tensors(struct table *t, struct rec *r, struct row *w)
{
	struct tensor tt[2];
	size_t n;

	n = tensor_read(r, "in", tt, 2);
	if (n > 0) {
		set_str(w, TF_DT_IN0, intern_opt(t, tt[0].dtype));
		set_str(w, TF_MEM0, intern_opt(t, tt[0].mem));
	}
	if (n > 1)
		set_str(w, TF_DT_IN1, intern_opt(t, tt[1].dtype));
	if (tensor_read(r, "out", tt, 1) == 1)
		set_str(w, TF_DT_OUT, intern_opt(t, tt[0].dtype));
}

/* --- records to rows ------------------------------------------------------------- */

static strid
get_str(struct table *t, struct rec *r, const char *key)
{
	const char *s;
	size_t n;

	if ((s = rec_str(r, key, &n)) == NULL)
		return 0;
	return table_intern(t, s, n);
}

/* The Math Fidelity cell of a non-matmul op when no ttp-roofline ran (§9), as
 * ttp-roofline makes it. */
static strid
fallback_math(struct table *t, const struct row *w)
{
	struct buf b = BUF_INIT;
	strid id, i0 = row_str(w, TF_DT_IN0), i1 = row_str(w, TF_DT_IN1);
	strid o = row_str(w, TF_DT_OUT);

	metrics_math_plain(&b, i0 ? table_str(t, i0) : NULL, i1 ? table_str(t, i1) : NULL,
	    o ? table_str(t, o) : NULL);
	id = table_intern(t, b.p ? b.p : "", b.len);
	buf_free(&b);
	return id;
}

/* The classes of an op (opclass_report) as ttp-roofline wrote them; without them (no
 * ttp-roofline, or an older one) computed on the OP Code cell, label (op name). */
static unsigned
get_opclass(struct table *t, struct rec *r, strid label)
{
	static const char *const key[] = { "host", "matmul", "conv_new" };
	static const unsigned bit[] = { OPC_HOST, OPC_MATMUL, OPC_CONV_NEW };
	unsigned c = 0;
	size_t i;
	bool b;

	if (rec_type(r, "host") != REC_BOOL) {
		const char *s = table_str(t, label);

		return opclass_report(s, strlen(s));
	}
	for (i = 0; i < sizeof(key) / sizeof(key[0]); i++)
		if (rec_bool(r, key[i], &b) && b)
			c |= bit[i];
	return c;
}

static strid
get_advice(struct table *t, struct rec *r)
{
	struct rec_strv a;
	struct buf b = BUF_INIT;
	size_t i;
	strid id;

	if (!rec_strv(r, "advice", &a))
		return 0;
	for (i = 0; i < a.n; i++) {
		if (i > 0)
			buf_addc(&b, '\n');
		buf_add(&b, a.s[i], a.len[i]);
	}
	/* An empty array ("Optimized") is interned as "" so that it is not "absent". */
	id = table_intern(t, b.p ? b.p : "", b.len);
	buf_free(&b);
	return id;
}

/* An int-sized integer key into field f. */
static void
get_small_int(struct rec *r, const char *key, struct row *w, int f)
{
	long long x;

	if (!rec_int(r, key, &x))
		return;
	if (x < -2147483647LL || x > 2147483647LL) {
		rec_reject(r, "key \"%s\": integer out of range", key);
		return;
	}
	set_int(w, f, x);
}

void
table_spool(struct table *t)
{
	t->may_spool = 1;
}

/* Total % of a row (docs/tt-perf-report.md §13), once the total is known. */
static void
row_pct(const struct table *t, struct row *w)
{
	double dt, g;

	if (!(row_has(w, TF_DEVTIME) || row_has(w, TF_GAP)) || !(t->total > 0))
		return;
	dt = row_has(w, TF_DEVTIME) ? row_num(w, TF_DEVTIME) : 0;
	g = row_has(w, TF_GAP) ? row_num(w, TF_GAP) : 0;
	set_num(w, TF_PCT, (dt + g) / t->total * 100);
}

const struct row *
table_row(const struct table *t, size_t i)
{
	if (t->sp == NULL)
		return &t->rows[i];
	memcpy(t->one, spool_get(t->sp, (uint64_t)i * sizeof(*t->one), sizeof(*t->one)),
	    sizeof(*t->one));
	if (t->finished)
		row_pct(t, t->one);
	return t->one;
}

/* The next row to fill: in memory, or the spool's staging row (table_add_done). */
static struct row *
table_new_row(struct table *t)
{
	if (t->sp == NULL && t->may_spool && t->nrows == TABLE_MEMROWS) {
		/* from now on the rows live in the spool */
		t->sp = spool_open();
		t->one = xmalloc(sizeof(*t->one));
		spool_add(t->sp, (const char *)t->rows, t->nrows * sizeof(*t->rows));
		free(t->rows);
		t->rows = NULL;
		t->caprows = 0;
	}
	if (t->sp != NULL)
		return t->one;
	t->rows = xgrow(t->rows, &t->caprows, t->nrows + 1, sizeof(*t->rows));
	return &t->rows[t->nrows];
}

/* The row from table_new_row is complete. */
static void
table_add_done(struct table *t)
{
	if (t->sp != NULL)
		spool_add(t->sp, (const char *)t->one, sizeof(*t->one));
	t->nrows++;
}

/* The end of table_add for a row that is complete unless r turned out bad: then the row
 * and the strings interned for it (since the table held nstr) are dropped; 0 or 1. */
static int
table_add_end(struct table *t, struct rec *r, size_t nstr)
{
	if (rec_bad(r) != NULL) {
		names_rewind(&t->strings, nstr);
		return 0;
	}
	table_add_done(t);
	return 1;
}

/* A signpost's row: its name, labelled "NAME (signpost)". */
static void
signpost_row(struct table *t, struct rec *r, struct row *w)
{
	struct buf lb = BUF_INIT;
	const char *s;
	size_t n;

	w->cls = ROW_SIGNPOST;
	if ((s = rec_str(r, "name", &n)) == NULL)
		s = "", n = 0;
	set_str(w, TF_OP, table_intern(t, s, n));
	buf_add(&lb, s, n);
	buf_adds(&lb, " (signpost)");
	set_str(w, TF_LABEL, table_intern(t, lb.p, lb.len));
	buf_free(&lb);
}

/* An op's name, label and classes (host, matmul, conv); returns whether no ttp-roofline
 * labelled it. */
static bool
op_names(struct table *t, struct rec *r, struct row *w)
{
	const char *s;
	size_t n;
	strid op, label;
	bool noroof;

	if ((s = rec_str(r, "op", &n)) == NULL)
		s = "", n = 0;
	op = table_intern(t, s, n);
	set_str(w, TF_OP, op);
	label = get_str(t, r, "label");
	noroof = label == 0;
	if (noroof)	/* no ttp-roofline: the op name is the OP Code */
		label = op;
	set_str(w, TF_LABEL, label);
	w->cls = (uint8_t)(get_opclass(t, r, label) & (OPC_HOST | OPC_MATMUL | OPC_CONV_NEW));
	return noroof;
}

/* A duration key in ns into field f in microseconds; 0 when absent or null. */
static int
get_us(struct rec *r, const char *key, struct row *w, int f)
{
	long long ns;
	double d;

	if (rec_type(r, key) == REC_INT && rec_int(r, key, &ns))
		d = (double)ns;
	else if (!rec_num(r, key, &d))
		return 0;
	set_num(w, f, d / 1000);
	return 1;
}

/* An op's device, cores, call count, Device Time (none for a host op, the integer 0
 * when absent) and Op-to-Op Gap. */
static void
op_numbers(struct rec *r, struct row *w)
{
	long long x;
	double d;

	if (rec_int(r, "device", &x))
		set_int(w, TF_DEVICE, x);
	if (rec_ifig(r, "report_cores", &d) || rec_ifig(r, "cores", &d)) {
		if (isnan(d))
			set_num(w, TF_CORES, d);
		else
			set_int(w, TF_CORES, (long long)d);
	}
	if (rec_int(r, "call", &x))
		set_int(w, TF_CALL, x);
	if (!(w->cls & OPC_HOST) && !get_us(r, "device_ns", w, TF_DEVTIME))
		set_int(w, TF_DEVTIME, 0);
	(void)get_us(r, "gap_ns", w, TF_GAP);
}

/* What ttp-roofline found of an op: the roofline figures, the matmul's blocking. */
static void
op_figures(struct rec *r, struct row *w)
{
	static const struct { const char *key; int f; } fig[] = {
		{ "dram_gbps", TF_DRAM }, { "dram_pct", TF_DRAMPCT },
		{ "tflops", TF_TFLOPS }, { "flops_pct", TF_FLOPSPCT }
	};
	size_t i;
	double d;
	bool b;

	/* figures may be null: NaN, an empty text cell and "nan" in the CSV (§10.1) */
	for (i = 0; i < sizeof(fig) / sizeof(fig[0]); i++)
		if (rec_fig(r, fig[i].key, &d))
			set_num(w, fig[i].f, d);
	if (rec_bool(r, "dram_sharded", &b) && b)
		set_bool(w, TF_SHARDED, 1);
	get_small_int(r, "in0_block_w", w, TF_IN0BW);
	get_small_int(r, "out_subblock_h", w, TF_SBH);
	get_small_int(r, "out_subblock_w", w, TF_SBW);
	get_small_int(r, "iter", w, TF_ITER);
}

/* An op's text cells: Bound, the fidelity verdict, category, phase, the tensors' types,
 * Math Fidelity, advice. */
static void
op_strings(struct table *t, struct rec *r, struct row *w)
{
	const char *s;
	strid bound;

	bound = get_str(t, r, "bound");
	if ((w->cls & OPC_HOST) && bound == 0)
		bound = table_intern(t, "HOST", 4);
	set_str(w, TF_BOUND, bound);
	set_str(w, TF_VERDICT, get_str(t, r, "fidelity_verdict"));
	set_str(w, TF_CATEGORY, get_str(t, r, "category"));
	set_str(w, TF_PHASE, get_str(t, r, "phase"));
	/* a PyTorch op's tensors (any rank, lists of shapes) are not TT-Metal's */
	if ((s = rec_str(r, "trace", NULL)) == NULL || strcmp(s, "kineto") != 0)
		tensors(t, r, w);
	if (rec_type(r, "math") != REC_ABSENT)
		set_str(w, TF_MATH, get_str(t, r, "math"));
	else if (!(w->cls & OPC_HOST))
		set_str(w, TF_MATH, fallback_math(t, w));
	set_str(w, TF_ADVICE, get_advice(t, r));
}

/* What the table keeps of a good op beside its row: the counts, the first op's keys. */
static void
op_counts(struct table *t, struct rec *r, const struct row *w, bool noroof,
    const int has[TABLE_MAXKEYS])
{
	size_t k;

	if (noroof)
		t->nnoroof++;
	if (w->cls & OPC_HOST)
		t->nhost++;
	else
		t->ndevice++;
	for (k = 0; k < t->ngkeys; k++)
		t->gkey_ops[k] += has[k];
	if (t->ngkeys > 0 && t->op_keys == NULL)
		first_op_keys(t, r);
}

int
table_add(struct table *t, struct rec *r)
{
	const char *kind;
	struct row *w;
	size_t nstr = t->strings.n;
	long long id;
	int has[TABLE_MAXKEYS];
	bool noroof;

	kind = rec_str(r, "kind", NULL);
	if (kind == NULL) {
		if (rec_bad(r) == NULL && t->nnokind++ == 0)
			t->nokind_where = xstrdup(rec_where(r));
		return 0;
	}
	if (strcmp(kind, "op") != 0 && strcmp(kind, "signpost") != 0)
		return 0;
	if (!rec_int(r, "id", &id)) {
		rec_reject(r, "record has no \"id\"");
		return 0;
	}
	w = table_new_row(t);
	memset(w, 0, sizeof(*w));	/* every cell empty (TAB_NONE) */
	set_int(w, TF_ID, id);
	set_bool(w, TF_SHARDED, 0);

	if (strcmp(kind, "signpost") == 0) {
		signpost_row(t, r, w);
		if (!table_add_end(t, r, nstr))
			return 0;
		t->nsignpost++;
		return 1;
	}
	noroof = op_names(t, r, w);
	op_numbers(r, w);
	op_figures(r, w);
	op_strings(t, r, w);
	if (t->ngkeys > 0)
		group_keys(t, r, w, has);
	if (!table_add_end(t, r, nstr))
		return 0;
	op_counts(t, r, w, noroof, has);
	return 1;
}

void
table_finish(struct table *t)
{
	size_t i;
	double sd = 0, sg = 0;

	t->nall = t->nrows;
	t->finished = 0;
	for (i = 0; i < t->nrows; i++) {
		const struct row *w = table_row(t, i);

		if (row_has(w, TF_DEVTIME))
			sd += row_num(w, TF_DEVTIME);
		if (row_has(w, TF_GAP))
			sg += row_num(w, TF_GAP);
	}
	t->sum_dev = sd;
	t->sum_gap = sg;
	t->total = sd + sg;
	t->finished = 1;
	if (t->sp == NULL)
		for (i = 0; i < t->nrows; i++)
			row_pct(t, &t->rows[i]);
}

int
table_parse_sort(const char *s)
{
	static const char *const names[] = { "id", "time", "gap", "total", "op" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

static const struct table *sort_t;
static int sort_key;

static double
sort_num(const struct row *w)
{
	double v = 0;

	if (sort_key != SORT_GAP && row_has(w, TF_DEVTIME))
		v += row_num(w, TF_DEVTIME);
	if (sort_key != SORT_TIME && row_has(w, TF_GAP))
		v += row_num(w, TF_GAP);
	return v;
}

static int
row_cmp(const void *pa, const void *pb)
{
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct row *a = &sort_t->rows[ia], *b = &sort_t->rows[ib];
	int sa = (a->cls & ROW_SIGNPOST) != 0, sb = (b->cls & ROW_SIGNPOST) != 0;
	double x, y;
	int c = 0;

	if (sa != sb)
		return sa - sb;
	if (sort_key == SORT_OP)
		c = strcmp(table_str(sort_t, row_str(a, TF_LABEL)),
		    table_str(sort_t, row_str(b, TF_LABEL)));
	else if (!sa) {
		x = sort_num(a);
		y = sort_num(b);
		c = x > y ? -1 : x < y ? 1 : 0;
	}
	if (c != 0)
		return c;
	/* equal keys keep file order (D7): qsort is not stable, the index is */
	return ia < ib ? -1 : ia > ib;
}

void
table_sort(struct table *t, int key)
{
	struct row *sorted;
	size_t *idx, i;

	if (key == SORT_ID || t->nrows < 2)
		return;
	if (t->sp != NULL)
		die(EXIT_DATA, "internal error: a spooled table cannot be sorted");
	idx = xreallocarray(NULL, t->nrows, sizeof(*idx));
	for (i = 0; i < t->nrows; i++)
		idx[i] = i;
	sort_t = t;
	sort_key = key;
	qsort(idx, t->nrows, sizeof(*idx), row_cmp);
	sorted = xreallocarray(NULL, t->caprows, sizeof(*sorted));
	for (i = 0; i < t->nrows; i++)
		sorted[i] = t->rows[idx[i]];
	free(t->rows);
	t->rows = sorted;
	free(idx);
}

void
table_top(struct table *t, size_t n, int shown)
{
	size_t i;

	if (n < t->nrows)
		t->nrows = n;
	if (!shown)
		return;
	t->ndevice = t->nhost = t->nsignpost = 0;
	for (i = 0; i < t->nrows; i++) {
		const struct row *w = table_row(t, i);

		if (w->cls & ROW_SIGNPOST)
			t->nsignpost++;
		else if (w->cls & OPC_HOST)
			t->nhost++;
		else
			t->ndevice++;
		if (t->sp == NULL)	/* a spooled row gets it in table_row */
			t->rows[i].kind[TF_PCT] = TAB_NONE;
	}
	n = t->nall;
	table_finish(t);
	t->nall = n;
}

/* --- the columns ----------------------------------------------------------------- */

#define MU "\xce\xbc"	/* U+03BC, as the reference prints it */

/* A text column: decimals, unit, alignment in text and in Markdown (headers are all
 * left-aligned in text, as the reference pads them). */
#define SHOW(dec, unit, al, md)	{ NULL, dec, 1, unit, al, md, 0 }
#define NUMBER(dec, unit)	SHOW(dec, unit, TAB_RIGHT, TAB_RIGHT)
#define TEXT(al)		SHOW(-1, NULL, al, TAB_LEFT)
/* A column of the CSV only. */
#define FILEONLY		{ NULL, -1, 0, NULL, TAB_AUTO, TAB_AUTO, TAB_COL_NOTEXT }

/* tt-perf-report's table (§15) and CSV (§18), in their order. */
const struct tt_col tt_cols[] = {
	{ "ID",			TF_ID,		TTC_PLAIN,	NUMBER(0, NULL),	"" },
	{ "Total %",		TF_PCT,		0,		NUMBER(1, "%"),		"" },
	{ "Bound",		TF_BOUND,	TTC_OPEMPTY,	TEXT(TAB_RIGHT),	"" },
	{ "OP Code",		TF_LABEL,	TTC_OPCODE,	TEXT(TAB_LEFT),		"" },
	{ "Device",		TF_DEVICE,	0,		NUMBER(0, NULL),	"" },
	{ "Device Time",	TF_DEVTIME,	0,		NUMBER(0, MU "s"),	"" },
	{ "Op-to-Op Gap",	TF_GAP,		0,		NUMBER(0, MU "s"),	"" },
	{ "Cores",		TF_CORES,	0,		NUMBER(0, NULL),	"" },
	{ "DRAM",		TF_DRAM,	0,		NUMBER(0, "GB/s"),	"" },
	{ "DRAM %",		TF_DRAMPCT,	0,		NUMBER(1, "%"),		"" },
	{ "FLOPs",		TF_TFLOPS,	0,		NUMBER(1, "TFLOPs"),	"" },
	{ "FLOPs %",		TF_FLOPSPCT,	0,		NUMBER(1, "%"),		"" },
	{ "Math Fidelity",	TF_MATH,	TTC_GREYEMPTY,	TEXT(TAB_RIGHT),	"" },
	{ "Output Datatype",	TF_DT_OUT,	0,		FILEONLY,		"nan" },
	{ "Input 0 Datatype",	TF_DT_IN0,	0,		FILEONLY,		"nan" },
	{ "Input 1 Datatype",	TF_DT_IN1,	0,		FILEONLY,		"nan" },
	{ "DRAM Sharded",	TF_SHARDED,	0,		FILEONLY,		"False" },
	{ "Input 0 Memory",	TF_MEM0,	0,		FILEONLY,		"" },
	{ "Inner Dim Block Size", TF_IN0BW,	0,		FILEONLY,		"" },
	{ "Output Subblock H",	TF_SBH,		0,		FILEONLY,		"" },
	{ "Output Subblock W",	TF_SBW,		0,		FILEONLY,		"" },
	{ "Global Call Count",	TF_CALL,	0,		FILEONLY,		"nan" },
	{ "Advice",		TF_ADVICE,	TTC_ADVICE | TTC_BULLETS, FILEONLY,	"" },
	{ "Raw OP Code",	TF_OP,		TTC_RAW,	FILEONLY,		"" },
};
const size_t tt_ncols = sizeof(tt_cols) / sizeof(tt_cols[0]);

/* The text columns are the first NTEXT. */
#define NTEXT 13

/* --- cells ----------------------------------------------------------------------- */

/*
 * num_fixed with thousands separators, fast for the report's 0-2 decimals: with a
 * 64-bit long double mantissa, v * 10^d is exact (53 + 7 bits), and rounding it to an
 * integer in the default mode is the correctly rounded, ties-to-even result that
 * printf gives. Anything else goes to num_fixed.
 */
size_t
report_fixed(char *out, double v, int dec)
{
#if LDBL_MANT_DIG >= 64
	static const long double scale[] = { 1.0L, 10.0L, 100.0L };
	char tmp[32];
	long double x;
	unsigned long long u;
	size_t n = 0, nd = 0, i, ni;
	int neg;

	if (dec < 0 || dec > 2 || !isfinite(v) || fabs(v) >= 1e15)
		return num_fixed(out, v, dec, 1);
	neg = signbit(v);
	x = fabsl((long double)v * scale[dec]);
	u = (unsigned long long)x;
	x -= (long double)u;		/* the exact fraction */
	if (x > 0.5L || (x == 0.5L && (u & 1)))
		u++;
	do {
		tmp[nd++] = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0 || nd <= (size_t)dec);
	if (neg)
		out[n++] = '-';
	ni = nd - (size_t)dec;		/* digits before the point */
	for (i = 0; i < ni; i++) {
		if (i > 0 && (ni - i) % 3 == 0)
			out[n++] = ',';
		out[n++] = tmp[nd - 1 - i];
	}
	if (dec > 0) {
		out[n++] = '.';
		for (i = ni; i < nd; i++)
			out[n++] = tmp[nd - 1 - i];
	}
	out[n] = '\0';
	return n;
#else
	return num_fixed(out, v, dec, 1);
#endif
}

/* A number with thousands separators and decimals, then " unit" when unit != NULL;
 * the reference colours the number and the unit as two pieces. */
static void
cell_num(struct buf *b, int on, int c, double v, int dec, const char *unit)
{
	char nb[NUM_BUFSZ];
	size_t n;

	if (isnan(v))		/* a figure that cannot be computed: empty, no colour */
		return;
	n = report_fixed(nb, v, dec);
	colour_add(b, on, c, nb, n);
	if (unit != NULL) {
		buf_addc(b, ' ');
		colour_add(b, on, c, unit, strlen(unit));
	}
}

static void
cell_str(struct buf *b, int on, int c, const char *s)
{
	colour_add(b, on, c, s, strlen(s));
}

static int
verdict_colour(const char *v)
{
	if (strcmp(v, "sufficient") == 0)
		return COL_GREEN;
	if (strcmp(v, "too_high") == 0)
		return COL_RED;
	if (strcmp(v, "too_low") == 0)
		return COL_CYAN;
	return COL_WHITE;
}

/* Whether a row is muted: Total % below the minimum and not a host op (§16). */
static int
row_grey(const struct row *w, const struct report_opts *o)
{
	return row_has(w, TF_PCT) && row_num(w, TF_PCT) < o->min_pct && !(w->cls & OPC_HOST);
}

static int
bound_colour(const char *bound)
{
	if (strcmp(bound, "DRAM") == 0 || strcmp(bound, "FLOP") == 0)
		return COL_GREEN;
	if (strcmp(bound, "SLOW") == 0)
		return COL_YELLOW;
	if (strcmp(bound, "HOST") == 0)
		return COL_RED;
	return COL_NONE;
}

/* The colour of the DRAM or FLOPs pair of cells, roof "DRAM" or "FLOP": green when the op
 * is bound by it; yellow when it is SLOW, both percentages are known and larger says the
 * pair is the one to look at. */
static int
roof_colour(const struct row *w, const char *bound, const char *roof, int larger)
{
	if (strcmp(bound, roof) == 0)
		return COL_GREEN;
	if (strcmp(bound, "SLOW") == 0 && row_has(w, TF_DRAMPCT) && row_has(w, TF_FLOPSPCT) &&
	    larger)
		return COL_YELLOW;
	return COL_NONE;
}

/* The colour of field f's cell in a row that is not muted (§16). */
static int
cell_colour(const struct table *t, const struct row *w, int f)
{
	const char *bound = table_str(t, row_str(w, TF_BOUND));
	double cores, dp = row_num(w, TF_DRAMPCT), fp = row_num(w, TF_FLOPSPCT);

	switch (f) {
	case TF_BOUND:
		return bound_colour(bound);
	case TF_LABEL:
		return colour_for_op(table_str(t, row_str(w, TF_LABEL)));
	case TF_GAP:
		return row_num(w, TF_GAP) > 6.5 ? COL_RED : COL_NONE;
	case TF_CORES:
		cores = row_num(w, TF_CORES);
		return cores < 10 ? COL_RED : cores == 64 ? COL_GREEN : COL_NONE;
	case TF_DRAM:
	case TF_DRAMPCT:
		return roof_colour(w, bound, "DRAM", dp > fp);
	case TF_TFLOPS:
	case TF_FLOPSPCT:
		return roof_colour(w, bound, "FLOP", !(dp > fp));
	case TF_MATH:
		if (w->cls & (OPC_MATMUL | OPC_CONV_NEW))
			return verdict_colour(table_str(t, row_str(w, TF_VERDICT)));
		return COL_NONE;
	}
	return COL_NONE;
}

/* The OP Code cell: a signpost's name after a placard; a label that extends the op's
 * name (matmul, conv, halo) in two pieces, name and rest, as the reference colours it. */
static void
cell_opcode(struct buf *b, const struct table *t, const struct row *w, int on, int c)
{
	const char *label = table_str(t, row_str(w, TF_LABEL));
	const char *op = table_str(t, row_str(w, TF_OP));
	size_t ol = strlen(op);

	if (w->cls & ROW_SIGNPOST) {
		struct buf sb = BUF_INIT;

		buf_adds(&sb, "\xf0\x9f\xaa\xa7 ");	/* U+1FAA7 PLACARD */
		buf_adds(&sb, op);
		colour_add(b, on, c, sb.p, sb.len);
		buf_free(&sb);
	} else if (ol > 0 && strncmp(label, op, ol) == 0 && label[ol] == ' ') {
		colour_add(b, on, c, label, ol);
		buf_addc(b, ' ');
		cell_str(b, on, c, label + ol + 1);
	} else
		cell_str(b, on, c, label);
}

/* Append the text of row w's cell in text column k (colours when on): the column's
 * field in its format. */
static void
cell(struct buf *b, const struct table *t, const struct row *w, size_t k, int on,
    const struct report_opts *o)
{
	const struct tt_col *tc = &tt_cols[k];
	int f = tc->field, grey = on && row_grey(w, o);
	int c = grey ? COL_GREY : on ? cell_colour(t, w, f) : COL_NONE;
	char nb[NUM_INTSZ];

	if (tc->flags & TTC_OPCODE) {
		cell_opcode(b, t, w, on, c);
		return;
	}
	if ((w->cls & ROW_SIGNPOST) && (tc->flags & (TTC_OPEMPTY | TTC_GREYEMPTY)))
		return;
	switch (w->kind[f]) {
	case TAB_NONE:
		/* the reference colours these empty cells */
		if ((tc->flags & TTC_OPEMPTY) || ((tc->flags & TTC_GREYEMPTY) && grey))
			cell_str(b, on, c, "");
		break;
	case TAB_INT:
		if (tc->flags & TTC_PLAIN)
			colour_add(b, on, c, nb, num_int(nb, row_int(w, f), 0));
		else
			cell_num(b, on, c, (double)row_int(w, f), tc->fmt.dec, tc->fmt.unit);
		break;
	case TAB_NUM:
		cell_num(b, on, c, w->v[f].d, tc->fmt.dec, tc->fmt.unit);
		break;
	case TAB_STR:
		cell_str(b, on, c, table_str(t, row_str(w, f)));
		break;
	}
}

/* --- views: the columns a table or a block of it prints ------------------------- */

/* The text columns a ttab prints (all, or a block of them at a width), and whether its
 * cells are cut to the columns' widths. */
struct view {
	struct ttab	 tb;
	size_t		 col[NTEXT];	/* the tt_cols shown, in order */
	size_t		 n;
	int		 cut;
};

/* The whole table: the reference's layout, or Markdown. */
static void
view_all(struct view *v, int flags)
{
	size_t k;

	ttab_init(&v->tb, NTEXT, flags | TTAB_HEADLEFT);
	for (k = 0; k < NTEXT; k++) {
		const struct tab_fmt *f = &tt_cols[k].fmt;

		v->col[k] = k;
		ttab_column(&v->tb, k, tt_cols[k].name, f->align == TAB_LEFT ? TTAB_LEFT :
		    TTAB_RIGHT, f->mdalign == TAB_LEFT ? TTAB_LEFT : TTAB_RIGHT);
	}
	v->n = NTEXT;
	v->cut = 0;
}

/* A block of a layout at a width: its columns, widths and cut headers. */
static void
view_block(struct view *v, const struct tab_block *b)
{
	size_t k;

	ttab_init(&v->tb, b->n, TTAB_TEXT | TTAB_HEADLEFT | TTAB_TRIM);
	for (k = 0; k < b->n; k++) {
		const struct tab_fmt *f = &tt_cols[b->col[k]].fmt;

		v->col[k] = b->col[k];
		ttab_column(&v->tb, k, b->hdr[k], f->align == TAB_LEFT ? TTAB_LEFT : TTAB_RIGHT,
		    TTAB_LEFT);
		ttab_minwidth(&v->tb, k, b->w[k]);
	}
	v->n = b->n;
	v->cut = 1;
}

/* s[0..n) (coloured c when on) into the view's next cell, cut to its width when the view
 * cuts and it is wider: its start and end kept, in its colour. */
static void
view_cell(struct view *v, struct buf *cb, int on, int c, const char *plain, size_t n)
{
	size_t k = v->tb.next;

	if (v->cut && colour_width(cb->p ? cb->p : "", cb->len) > v->tb.cols[k].width) {
		struct buf x = BUF_INIT;

		ttab_cut(&x, plain, n, v->tb.cols[k].width);
		buf_reset(cb);
		colour_add(cb, on, c, x.p, x.len);
		buf_free(&x);
	}
	ttab_cell(&v->tb, cb->p ? cb->p : "", cb->len);
}

/*
 * The OP Code of an op that does not fit its column, before it is cut: without what
 * every row repeats, the "DeviceOperation" that ends most TT op names and a host op's
 * "(torch) " (its Bound says HOST), so that what tells ops apart (the name's start, a
 * matmul's or a convolution's shape at the end) is what stays.
 */
static void
short_label(struct buf *b, const struct table *t, const struct row *w)
{
	static const char suffix[] = "DeviceOperation", host[] = "(torch) ";
	const char *label = table_str(t, row_str(w, TF_LABEL));
	const char *op = table_str(t, row_str(w, TF_OP));
	size_t ol = strlen(op), sl = sizeof(suffix) - 1;

	buf_reset(b);
	if (w->cls & ROW_SIGNPOST)
		return;
	if ((w->cls & OPC_HOST) && strncmp(label, host, sizeof(host) - 1) == 0 &&
	    label[sizeof(host) - 1] != '\0')
		label += sizeof(host) - 1;
	else if (ol > sl && strncmp(label, op, ol) == 0 && (label[ol] == ' ' ||
	    label[ol] == '\0') && strcmp(op + ol - sl, suffix) == 0) {
		buf_add(b, label, ol - sl);
		label += ol;
	}
	buf_adds(b, label);
}

static void
print_row(FILE *fp, struct view *v, struct buf *cb, const struct table *t,
    const struct row *w, const struct report_opts *o)
{
	struct buf plain = BUF_INIT;
	struct report_opts bare = *o;
	size_t k;

	bare.colour = 0;
	for (k = 0; k < v->n; k++) {
		size_t col = v->col[k];
		int c = !o->colour ? COL_NONE : row_grey(w, o) ? COL_GREY :
		    cell_colour(t, w, tt_cols[col].field);

		buf_reset(cb);
		cell(cb, t, w, col, o->colour, o);
		buf_reset(&plain);
		if (v->cut && (tt_cols[col].flags & TTC_OPCODE) && !(w->cls & ROW_SIGNPOST)) {
			/* the short OP Code, whole when it fits */
			short_label(&plain, t, w);
			buf_reset(cb);
			colour_add(cb, o->colour, c, plain.p ? plain.p : "", plain.len);
		} else if (v->cut)
			cell(&plain, t, w, col, 0, &bare);
		view_cell(v, cb, o->colour, c, plain.p ? plain.p : "", plain.len);
	}
	ttab_row(&v->tb, fp);
	buf_free(&plain);
}

/* --- measures -------------------------------------------------------------------- */

/* The widths of the text columns' shown cells: numbers in num[], text in txt[]; at a
 * width, the OP Codes as short_label makes them in shortop. */
struct measure {
	size_t	num[NTEXT], txt[NTEXT], shortop;
};

static void
fit(size_t *m, const char *s, size_t n)
{
	size_t w = colour_width(s, n);

	if (w > *m)
		*m = w;
}

/* The number a text column shows for row w; 0 when the cell is empty or not a number. */
static int
numval(const struct row *w, size_t k, double *v)
{
	int f = tt_cols[k].field;

	if (w->kind[f] != TAB_INT && w->kind[f] != TAB_NUM)
		return 0;
	*v = row_num(w, f);
	return !isnan(*v);	/* NaN cells are empty */
}

/*
 * Column widths (§15): the widest of the header and every cell. Correctly rounded
 * fixed-point text never gets shorter as the magnitude grows, so a numeric column
 * only needs its largest and smallest values formatted, not every cell.
 */
static void
measure(const struct table *t, struct measure *m, const struct report_opts *o)
{
	struct buf cb = BUF_INIT;
	struct report_opts plain = *o;
	size_t i, k, hi[NTEXT], lo[NTEXT];
	double vhi[NTEXT], vlo[NTEXT], v = 0;
	int seen[NTEXT] = { 0 };

	memset(m, 0, sizeof(*m));
	plain.colour = 0;
	for (i = 0; i < t->nrows; i++) {
		const struct row *w = table_row(t, i);

		if (o->width > 0) {
			buf_reset(&cb);
			if (w->cls & ROW_SIGNPOST)
				cell_opcode(&cb, t, w, 0, COL_NONE);
			else
				short_label(&cb, t, w);
			fit(&m->shortop, cb.p ? cb.p : "", cb.len);
		}

		for (k = 0; k < NTEXT; k++) {
			int f = tt_cols[k].field;
			const char *s;

			if (w->kind[f] == TAB_STR) {
				/* the reference measures a signpost as "name (signpost)" */
				s = table_str(t, row_str(w, f));
				fit(&m->txt[k], s, strlen(s));
			}
			if (!numval(w, k, &v))
				continue;
			if (!seen[k] || v > vhi[k])
				vhi[k] = v, hi[k] = i;
			if (!seen[k] || v < vlo[k])
				vlo[k] = v, lo[k] = i;
			seen[k] = 1;
		}
	}
	for (k = 0; k < NTEXT; k++) {
		int j;

		if (!seen[k])
			continue;
		for (j = 0; j < 2; j++) {
			if (tt_cols[k].flags & TTC_PLAIN) {
				/* §15 "Exception, ID": measured with thousands
				 * separators, printed without */
				char nb[NUM_BUFSZ];
				size_t n = report_fixed(nb, j ? vlo[k] : vhi[k], 0);

				fit(&m->num[k], nb, n);
				continue;
			}
			buf_reset(&cb);
			cell(&cb, t, table_row(t, j ? lo[k] : hi[k]), k, 0, &plain);
			fit(&m->num[k], cb.p ? cb.p : "", cb.len);
		}
	}
	buf_free(&cb);
}

/* --- the totals line ------------------------------------------------------------- */

/* The totals line's cell for text column k ("" for most), plain. */
static void
total_cell(const struct table *t, size_t k, struct buf *b)
{
	char txt[128];

	switch (tt_cols[k].field) {
	case TF_PCT:
		cell_num(b, 0, COL_NONE, 100.0, 1, "%");
		break;
	case TF_LABEL:
		snprintf(txt, sizeof(txt), "%ld device ops, %ld host ops, %ld signposts",
		    t->ndevice, t->nhost, t->nsignpost);
		buf_adds(b, txt);
		break;
	case TF_DEVTIME:
		cell_num(b, 0, COL_NONE, t->sum_dev, 0, MU "s");
		break;
	case TF_GAP:
		cell_num(b, 0, COL_NONE, t->sum_gap, 0, MU "s");
		break;
	}
}

/* The totals line in grey (when on); the number and its unit coloured apart, as the
 * reference does. */
static void
print_totals(FILE *fp, const struct table *t, struct view *v, int on)
{
	struct buf cb = BUF_INIT, pl = BUF_INIT;
	size_t k;
	int c = on ? COL_GREY : COL_NONE;

	for (k = 0; k < v->n; k++) {
		int f = tt_cols[v->col[k]].field;

		buf_reset(&cb);
		buf_reset(&pl);
		total_cell(t, v->col[k], &pl);
		if (f == TF_DEVTIME || f == TF_GAP || f == TF_PCT)
			cell_num(&cb, on, c, f == TF_PCT ? 100.0 : f == TF_GAP ? t->sum_gap :
			    t->sum_dev, f == TF_PCT ? 1 : 0, f == TF_PCT ? "%" : MU "s");
		else
			cell_str(&cb, on, c, pl.p ? pl.p : "");
		view_cell(v, &cb, on, c, pl.p ? pl.p : "", pl.len);
	}
	ttab_row(&v->tb, fp);
	buf_free(&cb);
	buf_free(&pl);
}

/* --- the advice section ---------------------------------------------------------- */

/* What the advice section lists: host ops, high gaps (and the time they cost), matmuls. */
struct advice_sums {
	size_t	nhost, ngap, nmm;
	double	save;
};

static bool
high_gap(const struct row *w)
{
	return row_has(w, TF_GAP) && row_num(w, TF_GAP) > 6.5;
}

/* A matmul with ttp-roofline's advice (none without it: no verdict without figures). */
static bool
has_mm_advice(const struct row *w)
{
	return (w->cls & OPC_MATMUL) && row_has(w, TF_ADVICE);
}

static void
advice_sums(const struct table *t, struct advice_sums *a)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < t->nrows; i++) {
		const struct row *w = table_row(t, i);

		if (w->cls & OPC_HOST)
			a->nhost++;
		if (high_gap(w)) {
			a->ngap++;
			a->save += row_num(w, TF_GAP) - 6;
		}
		if (has_mm_advice(w))
			a->nmm++;
	}
}

static const char gap_advice[] = "Alternatively ensure device is not waiting for the host "
    "and use device.enable_async(True). Experts can try moving runtime args in the "
    "kernels to compile-time args.";

/*
 * A line of prose s[0..n) (coloured c when on) and its newline on b: whole, or at a
 * width (> 0) broken at spaces into lines that fit, those after the first indented by
 * indent spaces (a word longer than a line is cut, its start and end kept).
 */
static void
prose(struct buf *b, const char *s, size_t n, size_t width, size_t indent, int on, int c)
{
	struct buf x = BUF_INIT;
	size_t pad = 0;

	while (width > indent + 8 && ttab_u8width(s, n) + pad > width) {
		size_t room = width - pad, cut = ttab_u8prefix(s, n, room), brk = cut;

		while (brk > 0 && s[brk] != ' ')
			brk--;
		if (brk == 0) {		/* one word wider than the line */
			for (brk = cut; brk < n && s[brk] != ' '; brk++)
				;
			ttab_cut(&x, s, brk, room);
		} else {
			buf_reset(&x);
			buf_add(&x, s, brk);
		}
		buf_grow(b, pad);
		while (pad-- > 0)
			buf_addc(b, ' ');
		colour_add(b, on, c, x.p ? x.p : "", x.len);
		buf_addc(b, '\n');
		while (brk < n && s[brk] == ' ')
			brk++;
		s += brk;
		n -= brk;
		pad = indent;
		if (n == 0) {
			buf_free(&x);
			return;
		}
	}
	while (pad-- > 0)
		buf_addc(b, ' ');
	colour_add(b, on, c, s, n);
	buf_addc(b, '\n');
	buf_free(&x);
}

/* The same, written to fp. */
static void
put_prose(FILE *fp, const char *s, size_t width)
{
	struct buf b = BUF_INIT;

	prose(&b, s, strlen(s), width, 0, 0, COL_NONE);
	fwrite(b.p, 1, b.len, fp);
	buf_free(&b);
}

/* A matmul's advice after its row: "- item" per line, "✅ Optimized" when none. */
static void
print_mm_advice(FILE *fp, const struct table *t, const struct row *w,
    const struct report_opts *o)
{
	struct buf line = BUF_INIT, cb = BUF_INIT;
	const char *a = table_str(t, row_str(w, TF_ADVICE)), *nl;
	int c = row_grey(w, o) ? COL_GREY : COL_WHITE;

	if (*a == '\0') {
		cell_str(&cb, o->colour, c, "\xe2\x9c\x85 Optimized");
		buf_addc(&cb, '\n');
	}
	while (*a != '\0') {
		buf_reset(&line);
		buf_adds(&line, "- ");
		nl = strchr(a, '\n');
		buf_add(&line, a, nl ? (size_t)(nl - a) : strlen(a));
		prose(&cb, line.p, line.len, o->width, 2, o->colour, c);
		a = nl ? nl + 1 : a + strlen(a);
	}
	fwrite(cb.p, 1, cb.len, fp);
	fputc('\n', fp);
	buf_free(&line);
	buf_free(&cb);
}

/* The advice section, its rows in the view's columns (prose fitted to o->width when
 * the table is: a view that cuts). */
static void
print_advice(FILE *fp, const struct table *t, struct view *v, const struct report_opts *o)
{
	struct buf cb = BUF_INIT, msg = BUF_INIT;
	size_t i, width = v->cut ? o->width : 0;
	char nb[NUM_BUFSZ], pb[NUM_BUFSZ];
	struct advice_sums as;
	struct report_opts ro = *o;

	ro.width = width;
	fputs("\n\xf0\x9f\x92\xa1 Advice \xf0\x9f\x92\xa1\n============\n\n", fp);
	advice_sums(t, &as);
	if (as.nhost > 0) {
		fputs("Fallback\n--------\n", fp);
		for (i = 0; i < t->nrows; i++)
			if (table_row(t, i)->cls & OPC_HOST)
				print_row(fp, v, &cb, t, table_row(t, i), o);
		fputc('\n', fp);
		put_prose(fp, "These ops should be moved to run on device.", width);
		fputc('\n', fp);
	}
	if (as.ngap > 0) {
		fputs("High Op-to-Op Gap\n----------------\n", fp);
		for (i = 0; i < t->nrows; i++) {
			const struct row *w = table_row(t, i);

			if (high_gap(w))
				print_row(fp, v, &cb, t, w, o);
		}
		num_fixed(nb, as.save, 0, 0);
		num_fixed(pb, as.save / t->total * 100, 1, 0);
		buf_printf(&msg, "These ops have a >6 " MU "s gap since the previous operation. "
		    "Running with tracing could save %s " MU "s (%s%% of overall time)", nb, pb);
		fputc('\n', fp);
		put_prose(fp, msg.p, width);
		put_prose(fp, gap_advice, width);
		fputc('\n', fp);
	}
	if (as.nmm > 0) {
		fputs("Matmul Optimization\n-------------------\n", fp);
		for (i = 0; i < t->nrows; i++) {
			const struct row *w = table_row(t, i);

			if (!has_mm_advice(w))
				continue;
			print_row(fp, v, &cb, t, w, o);
			print_mm_advice(fp, t, w, &ro);
		}
	}
	buf_free(&cb);
	buf_free(&msg);
}

/* --- the text report ------------------------------------------------------------- */

/* The rows of the table in the view: header, rule, rows, rule, totals line. */
static void
print_table(FILE *fp, const struct table *t, struct view *v, const struct report_opts *o)
{
	struct buf cb = BUF_INIT;
	size_t i, k;
	int totals = 0;

	ttab_header(&v->tb, fp);
	ttab_rule(&v->tb, fp);
	for (i = 0; i < t->nrows; i++) {
		print_row(fp, v, &cb, t, table_row(t, i), o);
		if ((i & 1023) == 0)
			io_check_stdout();
	}
	ttab_rule(&v->tb, fp);
	/* a block without the totals line's cells has none */
	for (k = 0; k < v->n; k++) {
		buf_reset(&cb);
		total_cell(t, v->col[k], &cb);
		totals |= cb.len > 0 && (k > 0 || !v->cut);
	}
	if (totals || !v->cut)
		print_totals(fp, t, v, o->colour);
	buf_free(&cb);
}

/* The text columns as tab_layout measures them: the widest of header and cells, the
 * totals line's numbers included (never cut). */
static void
layout_cols(const struct table *t, const struct measure *m, struct tab_lcol *lc)
{
	struct buf b = BUF_INIT;
	size_t k;

	for (k = 0; k < NTEXT; k++) {
		const struct tab_fmt *f = &tt_cols[k].fmt;
		size_t num = m->num[k];

		buf_reset(&b);
		total_cell(t, k, &b);
		if (tt_cols[k].field != TF_LABEL)
			fit(&num, b.p ? b.p : "", b.len);
		lc[k].header = tt_cols[k].name;
		lc[k].numw = num;
		lc[k].natural = ttab_u8width(lc[k].header, strlen(lc[k].header));
		if (num > lc[k].natural)
			lc[k].natural = num;
		if (tt_cols[k].field == TF_LABEL) {
			if (m->shortop > lc[k].natural)
				lc[k].natural = m->shortop;
		} else if (m->txt[k] > lc[k].natural)
			lc[k].natural = m->txt[k];
		if (tt_cols[k].field == TF_DEVICE && lc[k].natural < 7)
			lc[k].natural = 7;
		lc[k].right = f->align != TAB_LEFT && f->dec >= 0;
	}
	buf_free(&b);
}

/* The report in the reference's layout: one table as wide as its cells. */
static void
report_whole(FILE *fp, const struct table *t, const struct measure *m,
    const struct report_opts *o)
{
	struct view v;
	size_t k;

	view_all(&v, TTAB_TEXT);
	/* the reference's Device column is at least 7 wide */
	ttab_minwidth(&v.tb, 4, 7);
	for (k = 0; k < NTEXT; k++) {
		ttab_minwidth(&v.tb, k, m->num[k]);
		ttab_minwidth(&v.tb, k, m->txt[k]);
	}
	print_table(fp, t, &v, o);
	if (o->advice)
		print_advice(fp, t, &v, o);
	ttab_free(&v.tb);
}

/* The report at a width it does not fit: in blocks of columns, as the sheets are; the
 * advice section's rows in the first block's columns. */
static void
report_blocks(FILE *fp, const struct table *t, const struct measure *m,
    const struct report_opts *o)
{
	struct tab_lcol lc[NTEXT];
	struct tab_layout l;
	struct view v;
	size_t i;

	layout_cols(t, m, lc);
	tab_layout(&l, lc, NTEXT, o->width);
	for (i = 0; i < l.n; i++) {
		if (i > 0)
			fputc('\n', fp);
		view_block(&v, &l.b[i]);
		print_table(fp, t, &v, o);
		ttab_free(&v.tb);
	}
	if (o->advice) {
		view_block(&v, &l.b[0]);
		print_advice(fp, t, &v, o);
		ttab_free(&v.tb);
	}
	tab_layout_free(&l);
}

void
report_text(FILE *fp, const struct table *t, const struct report_opts *o)
{
	struct measure m;
	size_t k, total = 0;

	measure(t, &m, o);
	for (k = 0; k < NTEXT; k++) {
		size_t w = ttab_u8width(tt_cols[k].name, strlen(tt_cols[k].name));

		if (m.num[k] > w)
			w = m.num[k];
		if (m.txt[k] > w)
			w = m.txt[k];
		if (tt_cols[k].field == TF_DEVICE && w < 7)
			w = 7;
		total += w + (k > 0 ? 2 : 0);
	}
	fputs("\n\xf0\x9f\x9a\x80 Performance Report \xf0\x9f\x9a\x80\n"
	    "========================\n\n", fp);
	if (o->width == 0 || total <= o->width)
		report_whole(fp, t, &m, o);
	else
		report_blocks(fp, t, &m, o);
}

/* --- Markdown -------------------------------------------------------------------- */

void
report_markdown(FILE *fp, const struct table *t)
{
	struct report_opts plain = { 0, 0, 0, 0 };
	struct view v;
	struct buf cb = BUF_INIT, pl = BUF_INIT;
	size_t i, k;

	view_all(&v, TTAB_MARKDOWN);
	ttab_header(&v.tb, fp);
	for (i = 0; i < t->nrows; i++)
		print_row(fp, &v, &cb, t, table_row(t, i), &plain);
	for (k = 0; k < NTEXT; k++) {
		buf_reset(&cb);
		buf_reset(&pl);
		total_cell(t, k, &pl);
		if (pl.len > 0)
			buf_printf(&cb, "**%s**", pl.p);
		ttab_cell(&v.tb, cb.p ? cb.p : "", cb.len);
	}
	ttab_row(&v.tb, fp);
	ttab_free(&v.tb);
	buf_free(&cb);
	buf_free(&pl);
}

/* One advice item: "- ID n, `label`: text". */
static void
md_item(FILE *fp, const struct table *t, const struct row *w, const char *text)
{
	fprintf(fp, "- ID %lld, `%s`%s%s\n", row_int(w, TF_ID),
	    table_str(t, row_str(w, TF_LABEL)), text ? ": " : "", text ? text : "");
}

void
report_markdown_advice(FILE *fp, const struct table *t)
{
	struct advice_sums as;
	char nb[NUM_BUFSZ], pb[NUM_BUFSZ], db[NUM_BUFSZ];
	size_t i;

	advice_sums(t, &as);
	fputs("\n## Advice\n", fp);
	if (as.nhost > 0) {
		fputs("\n### Fallback\n\nThese ops should be moved to run on device.\n\n", fp);
		for (i = 0; i < t->nrows; i++)
			if (table_row(t, i)->cls & OPC_HOST)
				md_item(fp, t, table_row(t, i), NULL);
	}
	if (as.ngap > 0) {
		num_fixed(nb, as.save, 0, 0);
		num_fixed(pb, as.save / t->total * 100, 1, 0);
		fprintf(fp, "\n### High Op-to-Op Gap\n\nThese ops have a >6 " MU "s gap since "
		    "the previous operation. Running with tracing could save %s " MU "s (%s%% of "
		    "overall time). %s\n\n", nb, pb, gap_advice);
		for (i = 0; i < t->nrows; i++) {
			const struct row *w = table_row(t, i);

			if (!high_gap(w))
				continue;
			num_fixed(db, row_num(w, TF_GAP), 0, 1);
			fprintf(fp, "- ID %lld, `%s`: %s " MU "s gap\n", row_int(w, TF_ID),
			    table_str(t, row_str(w, TF_LABEL)), db);
		}
	}
	if (as.nmm > 0) {
		fputs("\n### Matmul Optimization\n\n", fp);
		for (i = 0; i < t->nrows; i++) {
			const struct row *w = table_row(t, i);
			const char *a, *nl;

			if (!has_mm_advice(w))
				continue;
			a = table_str(t, row_str(w, TF_ADVICE));
			if (*a == '\0') {
				md_item(fp, t, w, "\xe2\x9c\x85 Optimized");
				continue;
			}
			md_item(fp, t, w, NULL);
			while (*a != '\0') {
				nl = strchr(a, '\n');
				fprintf(fp, "  - %.*s\n", (int)(nl ? (size_t)(nl - a) : strlen(a)), a);
				a = nl ? nl + 1 : a + strlen(a);
			}
		}
	}
	if (as.nhost + as.ngap + as.nmm == 0)
		fputs("\nNo advice.\n", fp);
}
