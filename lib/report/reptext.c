/* SPDX-License-Identifier: ISC */
/*
 * reptext: tt-perf-report's table declared once (tt_cols: the text report's and the
 * CSV's columns) and rendered as text (docs/tt-perf-report.md §15-§17: performance
 * table, totals line, advice; in blocks of columns at a width it does not fit) and as
 * Markdown.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/numfmt.h"
#include "report/colour.h"
#include "report/report.h"
#include "report/tab.h"
#include "report/texttab.h"
#include "tt/opclass.h"

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
