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
		w->gkey = table_intern(t, b.p, b.len);
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
		w->dt_in0 = intern_opt(t, tt[0].dtype);
		w->mem0 = intern_opt(t, tt[0].mem);
	}
	if (n > 1)
		w->dt_in1 = intern_opt(t, tt[1].dtype);
	if (tensor_read(r, "out", tt, 1) == 1)
		w->dt_out = intern_opt(t, tt[0].dtype);
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
	strid id;

	metrics_math_plain(&b, w->dt_in0 ? table_str(t, w->dt_in0) : NULL,
	    w->dt_in1 ? table_str(t, w->dt_in1) : NULL, w->dt_out ? table_str(t, w->dt_out) : NULL);
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

static int
get_small_int(struct rec *r, const char *key, int *v)
{
	long long x;

	if (!rec_int(r, key, &x))
		return 0;
	if (x < -2147483647LL || x > 2147483647LL) {
		rec_reject(r, "key \"%s\": integer out of range", key);
		return 0;
	}
	*v = (int)x;
	return 1;
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

	if (!(w->flags & (ROW_DEV_US | ROW_GAP)) || !(t->total > 0))
		return;
	dt = (w->flags & ROW_DEV_US) ? w->dev_us : 0;
	g = (w->flags & ROW_GAP) ? w->gap_us : 0;
	w->pct = (dt + g) / t->total * 100;
	w->flags |= ROW_PCT;
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

	w->flags |= ROW_SIGNPOST;
	if ((s = rec_str(r, "name", &n)) == NULL)
		s = "", n = 0;
	w->op = table_intern(t, s, n);
	buf_add(&lb, s, n);
	buf_adds(&lb, " (signpost)");
	w->label = table_intern(t, lb.p, lb.len);
	buf_free(&lb);
}

/* An op's name, label and classes (host, matmul, conv); returns whether no ttp-roofline
 * labelled it. */
static bool
op_names(struct table *t, struct rec *r, struct row *w)
{
	const char *s;
	size_t n;
	unsigned opc;
	bool noroof;

	if ((s = rec_str(r, "op", &n)) == NULL)
		s = "", n = 0;
	w->op = table_intern(t, s, n);
	w->label = get_str(t, r, "label");
	noroof = w->label == 0;
	if (noroof)	/* no ttp-roofline: the op name is the OP Code */
		w->label = w->op;
	opc = get_opclass(t, r, w->label);
	if (opc & OPC_HOST)
		w->flags |= ROW_HOST;
	if (opc & OPC_MATMUL)
		w->flags |= ROW_MATMUL;
	if (opc & OPC_CONV_NEW)
		w->flags |= ROW_CONV_NEW;
	return noroof;
}

/* A duration key in ns, in microseconds: the flags has | intns when it is an integer
 * (*ns holds it), has when another number, 0 when absent or null. */
static uint32_t
get_us(struct rec *r, const char *key, long long *ns, double *us, uint32_t has,
    uint32_t intns)
{
	double d;

	if (rec_type(r, key) == REC_INT && rec_int(r, key, ns)) {
		*us = (double)*ns / 1000;
		return has | intns;
	}
	if (rec_num(r, key, &d)) {
		*us = d / 1000;
		return has;
	}
	return 0;
}

/* An op's device, cores, call count, Device Time (none for a host op, 0 when absent) and
 * Op-to-Op Gap. */
static void
op_numbers(struct rec *r, struct row *w)
{
	uint32_t f;

	if (rec_int(r, "device", &w->device))
		w->flags |= ROW_DEVICE;
	if (rec_ifig(r, "report_cores", &w->cores) || rec_ifig(r, "cores", &w->cores))
		w->flags |= ROW_CORES;
	if (rec_int(r, "call", &w->call))
		w->flags |= ROW_CALL;
	if (!(w->flags & ROW_HOST)) {
		f = get_us(r, "device_ns", &w->dev_ns, &w->dev_us, ROW_DEV_US, ROW_DEV_INTNS);
		if (f == 0) {
			w->dev_us = 0;
			f = ROW_DEV_US | ROW_DEV_ZERO;
		}
		w->flags |= f;
	}
	w->flags |= get_us(r, "gap_ns", &w->gap_ns, &w->gap_us, ROW_GAP, ROW_GAP_INTNS);
}

/* What ttp-roofline found of an op: the roofline figures, the matmul's blocking. */
static void
op_figures(struct rec *r, struct row *w)
{
	bool b;

	/* figures may be null: NaN, an empty text cell and "nan" in the CSV (§10.1) */
	if (rec_fig(r, "dram_gbps", &w->dram))
		w->flags |= ROW_DRAM;
	if (rec_fig(r, "dram_pct", &w->dram_pct))
		w->flags |= ROW_DRAM_PCT;
	if (rec_fig(r, "tflops", &w->tflops))
		w->flags |= ROW_TFLOPS;
	if (rec_fig(r, "flops_pct", &w->flops_pct))
		w->flags |= ROW_FLOPS_PCT;
	if (rec_bool(r, "dram_sharded", &b) && b)
		w->flags |= ROW_SHARDED;
	if (get_small_int(r, "in0_block_w", &w->in0bw))
		w->flags |= ROW_IN0BW;
	if (get_small_int(r, "out_subblock_h", &w->sbh))
		w->flags |= ROW_SBH;
	if (get_small_int(r, "out_subblock_w", &w->sbw))
		w->flags |= ROW_SBW;
	if (get_small_int(r, "iter", &w->iter))
		w->flags |= ROW_ITER;
}

/* An op's text cells: Bound, the fidelity verdict, category, phase, the tensors' types,
 * Math Fidelity, advice. */
static void
op_strings(struct table *t, struct rec *r, struct row *w)
{
	const char *s;

	w->bound = get_str(t, r, "bound");
	if ((w->flags & ROW_HOST) && w->bound == 0)
		w->bound = table_intern(t, "HOST", 4);
	w->verdict = get_str(t, r, "fidelity_verdict");
	w->category = get_str(t, r, "category");
	w->phase = get_str(t, r, "phase");
	/* a PyTorch op's tensors (any rank, lists of shapes) are not TT-Metal's */
	if ((s = rec_str(r, "trace", NULL)) == NULL || strcmp(s, "kineto") != 0)
		tensors(t, r, w);
	if (rec_type(r, "math") != REC_ABSENT)
		w->math = get_str(t, r, "math");
	else if (!(w->flags & ROW_HOST))
		w->math = fallback_math(t, w);
	w->advice = get_advice(t, r);
}

/* What the table keeps of a good op beside its row: the counts, the first op's keys. */
static void
op_counts(struct table *t, struct rec *r, const struct row *w, bool noroof,
    const int has[TABLE_MAXKEYS])
{
	size_t k;

	if (noroof)
		t->nnoroof++;
	if (w->flags & ROW_HOST)
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
	memset(w, 0, sizeof(*w));
	w->id = id;

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

		if (w->flags & ROW_DEV_US)
			sd += w->dev_us;
		if (w->flags & ROW_GAP)
			sg += w->gap_us;
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

	if (sort_key != SORT_GAP && (w->flags & ROW_DEV_US))
		v += w->dev_us;
	if (sort_key != SORT_TIME && (w->flags & ROW_GAP))
		v += w->gap_us;
	return v;
}

static int
row_cmp(const void *pa, const void *pb)
{
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct row *a = &sort_t->rows[ia], *b = &sort_t->rows[ib];
	int sa = (a->flags & ROW_SIGNPOST) != 0, sb = (b->flags & ROW_SIGNPOST) != 0;
	double x, y;
	int c = 0;

	if (sa != sb)
		return sa - sb;
	if (sort_key == SORT_OP)
		c = strcmp(table_str(sort_t, a->label), table_str(sort_t, b->label));
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

		if (w->flags & ROW_SIGNPOST)
			t->nsignpost++;
		else if (w->flags & ROW_HOST)
			t->nhost++;
		else
			t->ndevice++;
		if (t->sp == NULL)	/* a spooled row gets it in table_row */
			t->rows[i].flags &= ~(uint32_t)ROW_PCT;
	}
	n = t->nall;
	table_finish(t);
	t->nall = n;
}

/* --- cells ----------------------------------------------------------------------- */

enum col {
	C_ID, C_PCT, C_BOUND, C_OPCODE, C_DEVICE, C_DEVTIME, C_GAP, C_CORES, C_DRAM,
	C_DRAMPCT, C_FLOPS, C_FLOPSPCT, C_MATH, NCOLS
};

static const char *const headers[NCOLS] = {
	"ID", "Total %", "Bound", "OP Code", "Device", "Device Time", "Op-to-Op Gap",
	"Cores", "DRAM", "DRAM %", "FLOPs", "FLOPs %", "Math Fidelity"
};

#define MU "\xce\xbc"	/* U+03BC, as the reference prints it */

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
	return (w->flags & ROW_PCT) && w->pct < o->min_pct && !(w->flags & ROW_HOST);
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
	if (strcmp(bound, "SLOW") == 0 && (w->flags & ROW_DRAM_PCT) &&
	    (w->flags & ROW_FLOPS_PCT) && larger)
		return COL_YELLOW;
	return COL_NONE;
}

/* The colour of cell col of a row that is not muted (docs/tt-perf-report.md §16). */
static int
cell_colour(const struct table *t, const struct row *w, int col)
{
	const char *bound = table_str(t, w->bound);

	switch (col) {
	case C_BOUND:
		return bound_colour(bound);
	case C_OPCODE:
		return colour_for_op(table_str(t, w->label));
	case C_GAP:
		return w->gap_us > 6.5 ? COL_RED : COL_NONE;
	case C_CORES:
		return w->cores < 10 ? COL_RED : w->cores == 64 ? COL_GREEN : COL_NONE;
	case C_DRAM:
	case C_DRAMPCT:
		return roof_colour(w, bound, "DRAM", w->dram_pct > w->flops_pct);
	case C_FLOPS:
	case C_FLOPSPCT:
		return roof_colour(w, bound, "FLOP", !(w->dram_pct > w->flops_pct));
	case C_MATH:
		if (w->flags & (ROW_MATMUL | ROW_CONV_NEW))
			return verdict_colour(table_str(t, w->verdict));
		return COL_NONE;
	}
	return COL_NONE;
}

/* The OP Code cell: a signpost's name after a placard; a label that extends the op's
 * name (matmul, conv, halo) in two pieces, name and rest, as the reference colours it. */
static void
cell_opcode(struct buf *b, const struct table *t, const struct row *w, int on, int c)
{
	const char *label = table_str(t, w->label), *op = table_str(t, w->op);
	size_t ol = strlen(op);

	if (w->flags & ROW_SIGNPOST) {
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

/* Append the text of one cell of row w (colours when on). */
static void
cell(struct buf *b, const struct table *t, const struct row *w, int col, int on,
    const struct report_opts *o)
{
	int grey = on && row_grey(w, o);
	int sp = (w->flags & ROW_SIGNPOST) != 0;
	int c = grey ? COL_GREY : on ? cell_colour(t, w, col) : COL_NONE;
	char nb[64];

	switch (col) {
	case C_ID:
		colour_add(b, on, c, nb, num_int(nb, w->id, 0));
		break;
	case C_PCT:
		if (w->flags & ROW_PCT)
			cell_num(b, on, c, w->pct, 1, "%");
		break;
	case C_BOUND:
		if (!sp)
			cell_str(b, on, c, table_str(t, w->bound));
		break;
	case C_OPCODE:
		cell_opcode(b, t, w, on, c);
		break;
	case C_DEVICE:
		if (w->flags & ROW_DEVICE)
			cell_num(b, on, c, (double)w->device, 0, NULL);
		break;
	case C_DEVTIME:
		if (w->flags & ROW_DEV_US)
			cell_num(b, on, c, w->dev_us, 0, MU "s");
		break;
	case C_GAP:
		if (w->flags & ROW_GAP)
			cell_num(b, on, c, w->gap_us, 0, MU "s");
		break;
	case C_CORES:
		if (w->flags & ROW_CORES)
			cell_num(b, on, c, w->cores, 0, NULL);
		break;
	case C_DRAM:
		if (w->flags & ROW_DRAM)
			cell_num(b, on, c, w->dram, 0, "GB/s");
		break;
	case C_DRAMPCT:
		if (w->flags & ROW_DRAM_PCT)
			cell_num(b, on, c, w->dram_pct, 1, "%");
		break;
	case C_FLOPS:
		if (w->flags & ROW_TFLOPS)
			cell_num(b, on, c, w->tflops, 1, "TFLOPs");
		break;
	case C_FLOPSPCT:
		if (w->flags & ROW_FLOPS_PCT)
			cell_num(b, on, c, w->flops_pct, 1, "%");
		break;
	case C_MATH:
		if (!sp && (w->math != 0 || grey))
			cell_str(b, on, c, table_str(t, w->math));
		break;
	}
}

/* --- the text table -------------------------------------------------------------- */

/* The report's columns; only OP Code is left-aligned in text, as the reference pads it,
 * and its headers are all left-aligned. */
static void
columns(struct ttab *tb, int flags)
{
	int col;

	ttab_init(tb, NCOLS, flags | TTAB_HEADLEFT);
	for (col = 0; col < NCOLS; col++)
		ttab_column(tb, col, headers[col], col == C_OPCODE ? TTAB_LEFT : TTAB_RIGHT,
		    col == C_OPCODE || col == C_BOUND || col == C_MATH ? TTAB_LEFT : TTAB_RIGHT);
}

/* A text cell (OP Code) of a table fitted to a width (report_opts.width): its text cut
 * to the column's width, its start and end kept, in the cell's colour. */
static void
cut_text(struct buf *cb, const struct table *t, const struct row *w, int col, size_t width,
    const struct report_opts *o)
{
	struct buf plain = BUF_INIT, cut = BUF_INIT;
	struct report_opts bare = *o;
	int c;

	bare.colour = 0;
	cell(&plain, t, w, col, 0, &bare);
	ttab_cut(&cut, plain.p ? plain.p : "", plain.len, width);
	c = !o->colour ? COL_NONE : row_grey(w, o) ? COL_GREY : cell_colour(t, w, col);
	buf_reset(cb);
	colour_add(cb, o->colour, c, cut.p, cut.len);
	buf_free(&plain);
	buf_free(&cut);
}

static void
print_row(FILE *fp, struct ttab *tb, struct buf *cb, const struct table *t,
    const struct row *w, const struct report_opts *o)
{
	int col;

	for (col = 0; col < NCOLS; col++) {
		buf_reset(cb);
		cell(cb, t, w, col, o->colour, o);
		if (col == C_OPCODE && (tb->flags & TTAB_MARKDOWN) == 0 &&
		    colour_width(cb->p ? cb->p : "", cb->len) > tb->cols[col].width)
			cut_text(cb, t, w, col, tb->cols[col].width, o);
		ttab_cell(tb, cb->p ? cb->p : "", cb->len);
	}
	ttab_row(tb, fp);
}

/* The number a numeric column shows for row w; 0 when the cell is empty or the
 * column holds text. */
static int
numval(const struct row *w, int col, double *v)
{
	static const uint32_t need[NCOLS] = {
		[C_PCT] = ROW_PCT, [C_DEVICE] = ROW_DEVICE, [C_DEVTIME] = ROW_DEV_US,
		[C_GAP] = ROW_GAP, [C_CORES] = ROW_CORES, [C_DRAM] = ROW_DRAM,
		[C_DRAMPCT] = ROW_DRAM_PCT, [C_FLOPS] = ROW_TFLOPS, [C_FLOPSPCT] = ROW_FLOPS_PCT
	};

	if (col == C_ID) {
		*v = (double)w->id;
		return 1;
	}
	if (need[col] == 0 || !(w->flags & need[col]))
		return 0;
	switch (col) {
	case C_PCT: *v = w->pct; break;
	case C_DEVICE: *v = (double)w->device; break;
	case C_DEVTIME: *v = w->dev_us; break;
	case C_GAP: *v = w->gap_us; break;
	case C_CORES: *v = w->cores; break;
	case C_DRAM: *v = w->dram; break;
	case C_DRAMPCT: *v = w->dram_pct; break;
	case C_FLOPS: *v = w->tflops; break;
	case C_FLOPSPCT: *v = w->flops_pct; break;
	}
	return !isnan(*v);	/* NaN cells are empty */
}

/*
 * Column widths (§15): the widest of the header and every cell. Correctly rounded
 * fixed-point text never gets shorter as the magnitude grows, so a numeric column
 * only needs its largest and smallest values formatted, not every cell.
 */
static void
compute_layout(const struct table *t, struct ttab *tb, const struct report_opts *o)
{
	struct buf cb = BUF_INIT;
	struct report_opts plain = *o;
	size_t i, hi[NCOLS], lo[NCOLS];
	double vhi[NCOLS], vlo[NCOLS], v = 0;
	int col, seen[NCOLS] = { 0 };

	plain.colour = 0;
	ttab_minwidth(tb, C_DEVICE, 7);
	for (i = 0; i < t->nrows; i++) {
		const struct row *w = table_row(t, i);
		const char *s;

		for (col = 0; col < NCOLS; col++) {
			if (!numval(w, col, &v))
				continue;
			if (!seen[col] || v > vhi[col])
				vhi[col] = v, hi[col] = i;
			if (!seen[col] || v < vlo[col])
				vlo[col] = v, lo[col] = i;
			seen[col] = 1;
		}
		/* the reference measures a signpost as "name (signpost)", not as shown */
		s = table_str(t, w->label);
		ttab_fit(tb, C_OPCODE, s, strlen(s));
		s = table_str(t, w->bound);
		ttab_fit(tb, C_BOUND, s, strlen(s));
		s = table_str(t, w->math);
		if (!(w->flags & ROW_SIGNPOST))
			ttab_fit(tb, C_MATH, s, strlen(s));
	}
	for (col = 0; col < NCOLS; col++) {
		int j;

		if (!seen[col])
			continue;
		for (j = 0; j < 2; j++) {
			if (col == C_ID) {
				/* §15 (the ID column's width): measured with thousands
				 * separators, printed without */
				char nb[NUM_BUFSZ];
				size_t n = report_fixed(nb, j ? vlo[col] : vhi[col], 0);

				ttab_fit(tb, col, nb, n);
				continue;
			}
			buf_reset(&cb);
			cell(&cb, t, table_row(t, j ? lo[col] : hi[col]), col, 0, &plain);
			ttab_fit(tb, col, cb.p ? cb.p : "", cb.len);
		}
	}
	buf_free(&cb);
}

static void
print_totals(FILE *fp, const struct table *t, struct ttab *tb, int on, int cut)
{
	struct buf cb = BUF_INIT;
	char txt[128];
	int col, c = on ? COL_GREY : COL_NONE;

	for (col = 0; col < NCOLS; col++) {
		buf_reset(&cb);
		switch (col) {
		case C_PCT:
			cell_num(&cb, on, c, 100.0, 1, "%");
			break;
		case C_OPCODE:
			snprintf(txt, sizeof(txt), "%ld device ops, %ld host ops, %ld signposts",
			    t->ndevice, t->nhost, t->nsignpost);
			if (cut) {	/* a table fitted to a width: the column's width */
				struct buf x = BUF_INIT;

				ttab_cut(&x, txt, strlen(txt), tb->cols[C_OPCODE].width);
				colour_add(&cb, on, c, x.p, x.len);
				buf_free(&x);
			} else
				cell_str(&cb, on, c, txt);
			break;
		case C_DEVTIME:
			cell_num(&cb, on, c, t->sum_dev, 0, MU "s");
			break;
		case C_GAP:
			cell_num(&cb, on, c, t->sum_gap, 0, MU "s");
			break;
		default:
			cell_str(&cb, on, c, "");
			break;
		}
		ttab_cell(tb, cb.p ? cb.p : "", cb.len);
	}
	ttab_row(tb, fp);
	buf_free(&cb);
}

/* What the advice section lists: host ops, high gaps (and the time they cost), matmuls. */
struct advice_sums {
	size_t	nhost, ngap, nmm;
	double	save;
};

static bool
high_gap(const struct row *w)
{
	return (w->flags & ROW_GAP) && w->gap_us > 6.5;
}

/* A matmul with ttp-roofline's advice (none without it: no verdict without figures). */
static bool
has_mm_advice(const struct row *w)
{
	return (w->flags & ROW_MATMUL) && w->advice != 0;
}

static void
advice_sums(const struct table *t, struct advice_sums *a)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < t->nrows; i++) {
		const struct row *w = table_row(t, i);

		if (w->flags & ROW_HOST)
			a->nhost++;
		if (high_gap(w)) {
			a->ngap++;
			a->save += w->gap_us - 6;
		}
		if (has_mm_advice(w))
			a->nmm++;
	}
}

static const char gap_advice[] = "Alternatively ensure device is not waiting for the host "
    "and use device.enable_async(True). Experts can try moving runtime args in the "
    "kernels to compile-time args.";

static void
print_advice(FILE *fp, const struct table *t, struct ttab *tb,
    const struct report_opts *o)
{
	struct buf line = BUF_INIT, cb = BUF_INIT;
	size_t i, nhost, ngap, nmm;
	double save;
	char nb[NUM_BUFSZ], pb[NUM_BUFSZ];
	struct advice_sums as;

	fputs("\n\xf0\x9f\x92\xa1 Advice \xf0\x9f\x92\xa1\n============\n\n", fp);
	advice_sums(t, &as);
	nhost = as.nhost, ngap = as.ngap, nmm = as.nmm, save = as.save;
	if (nhost > 0) {
		fputs("Fallback\n--------\n", fp);
		for (i = 0; i < t->nrows; i++)
			if (table_row(t, i)->flags & ROW_HOST)
				print_row(fp, tb, &cb, t, table_row(t, i), o);
		fputs("\nThese ops should be moved to run on device.\n\n", fp);
	}
	if (ngap > 0) {
		fputs("High Op-to-Op Gap\n----------------\n", fp);
		for (i = 0; i < t->nrows; i++) {
			const struct row *w = table_row(t, i);

			if (high_gap(w))
				print_row(fp, tb, &cb, t, w, o);
		}
		num_fixed(nb, save, 0, 0);
		num_fixed(pb, save / t->total * 100, 1, 0);
		fprintf(fp, "\nThese ops have a >6 " MU "s gap since the previous operation. "
		    "Running with tracing could save %s " MU "s (%s%% of overall time)\n", nb, pb);
		fprintf(fp, "%s\n\n", gap_advice);
	}
	if (nmm > 0) {
		fputs("Matmul Optimization\n-------------------\n", fp);
		for (i = 0; i < t->nrows; i++) {
			const struct row *w = table_row(t, i);
			const char *a, *nl;
			int c;

			if (!has_mm_advice(w))
				continue;
			print_row(fp, tb, &cb, t, w, o);
			c = row_grey(w, o) ? COL_GREY : COL_WHITE;
			a = table_str(t, w->advice);
			buf_reset(&cb);
			if (*a == '\0') {
				cell_str(&cb, o->colour, c, "\xe2\x9c\x85 Optimized");
				buf_addc(&cb, '\n');
			}
			while (*a != '\0') {
				buf_reset(&line);
				buf_adds(&line, "- ");
				nl = strchr(a, '\n');
				buf_add(&line, a, nl ? (size_t)(nl - a) : strlen(a));
				colour_add(&cb, o->colour, c, line.p, line.len);
				buf_addc(&cb, '\n');
				a = nl ? nl + 1 : a + strlen(a);
			}
			fwrite(cb.p, 1, cb.len, fp);
			fputc('\n', fp);
		}
	}
	buf_free(&line);
	buf_free(&cb);
}

/* A table wider than width (0: any width) is narrowed in its OP Code column, down to 24:
 * the others hold numbers and Math Fidelity's data types, never cut (a terminal
 * narrower than the rest still wraps). 1 when a column was narrowed. */
static int
fit_width(struct ttab *tb, size_t width)
{
	static const struct { int col; size_t min; } text[] = {
		{ C_OPCODE, 24 }
	};
	size_t total = 0, col, over, i;
	int cut = 0;

	if (width == 0)
		return 0;
	for (col = 0; col < tb->ncols; col++)
		total += tb->cols[col].width + (col > 0 ? 2 : 0);
	for (i = 0; i < sizeof(text) / sizeof(text[0]) && total > width; i++) {
		struct ttab_col *c = &tb->cols[text[i].col];
		size_t give;

		if (c->width <= text[i].min)
			continue;
		over = total - width;
		give = c->width - text[i].min < over ? c->width - text[i].min : over;
		c->width -= give;
		total -= give;
		cut = 1;
	}
	return cut;
}

void
report_text(FILE *fp, const struct table *t, const struct report_opts *o)
{
	struct ttab tb;
	struct buf cb = BUF_INIT;
	size_t i;
	int cut;

	columns(&tb, TTAB_TEXT);
	compute_layout(t, &tb, o);
	cut = fit_width(&tb, o->width);
	fputs("\n\xf0\x9f\x9a\x80 Performance Report \xf0\x9f\x9a\x80\n"
	    "========================\n\n", fp);
	ttab_header(&tb, fp);
	ttab_rule(&tb, fp);
	for (i = 0; i < t->nrows; i++) {
		print_row(fp, &tb, &cb, t, table_row(t, i), o);
		if ((i & 1023) == 0)
			io_check_stdout();
	}
	ttab_rule(&tb, fp);
	print_totals(fp, t, &tb, o->colour, cut);
	if (o->advice)
		print_advice(fp, t, &tb, o);
	ttab_free(&tb);
	buf_free(&cb);
}

/* --- Markdown -------------------------------------------------------------------- */

void
report_markdown(FILE *fp, const struct table *t)
{
	struct report_opts plain = { 0, 0, 0, 0 };
	struct ttab tb;
	struct buf cb = BUF_INIT;
	size_t i;
	int col;
	char txt[128], nb[NUM_BUFSZ];

	columns(&tb, TTAB_MARKDOWN);
	ttab_header(&tb, fp);
	for (i = 0; i < t->nrows; i++)
		print_row(fp, &tb, &cb, t, table_row(t, i), &plain);
	for (col = 0; col < NCOLS; col++) {
		buf_reset(&cb);
		switch (col) {
		case C_PCT:
			buf_adds(&cb, "**100.0 %**");
			break;
		case C_OPCODE:
			snprintf(txt, sizeof(txt), "**%ld device ops, %ld host ops, %ld signposts**",
			    t->ndevice, t->nhost, t->nsignpost);
			buf_adds(&cb, txt);
			break;
		case C_DEVTIME:
		case C_GAP:
			num_fixed(nb, col == C_GAP ? t->sum_gap : t->sum_dev, 0, 1);
			buf_printf(&cb, "**%s " MU "s**", nb);
			break;
		}
		ttab_cell(&tb, cb.p ? cb.p : "", cb.len);
	}
	ttab_row(&tb, fp);
	ttab_free(&tb);
	buf_free(&cb);
}

/* One advice item: "- ID n, `label`: text". */
static void
md_item(FILE *fp, const struct table *t, const struct row *w, const char *text)
{
	fprintf(fp, "- ID %lld, `%s`%s%s\n", w->id, table_str(t, w->label),
	    text ? ": " : "", text ? text : "");
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
			if (table_row(t, i)->flags & ROW_HOST)
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
			num_fixed(db, w->gap_us, 0, 1);
			fprintf(fp, "- ID %lld, `%s`: %s " MU "s gap\n", w->id,
			    table_str(t, w->label), db);
		}
	}
	if (as.nmm > 0) {
		fputs("\n### Matmul Optimization\n\n", fp);
		for (i = 0; i < t->nrows; i++) {
			const struct row *w = table_row(t, i);
			const char *a, *nl;

			if (!has_mm_advice(w))
				continue;
			a = table_str(t, w->advice);
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
