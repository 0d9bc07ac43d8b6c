/* SPDX-License-Identifier: ISC */
/*
 * report: the compact row table that ttp-table builds from records (§13): a row
 * of cells per op and signpost, the totals, the orders. reptext.c renders it.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "tt/metrics.h"
#include "core/names.h"
#include "core/rec.h"
#include "core/spool.h"
#include "report/report.h"
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
