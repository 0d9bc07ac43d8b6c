/* SPDX-License-Identifier: ISC */
/*
 * phasechart: the inference-phase charts (phasechart.h). Each figure is laid out in
 * points (1/72 in), 1080 x 864 of them (15 x 12 in), and drawn at dpi/72 chart units per
 * point, so that a PNG is 15 dpi x 12 dpi pixels. Four panels to a figure, each an axes
 * box with its title, tick labels and axis labels; the colours are the branch's
 * (#FF6B6B prefill, #4ECDC4 decode, at 0.7 opacity over white; Set3 for op types).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "report/chart.h"
#include "report/phasechart.h"
#include "report/tab.h"

#define FIG_W	1080.0
#define FIG_H	864.0

#define C_PRE		0xff6b6bL
#define C_DEC		0x4ecdc4L
#define C_PRE_LIGHT	0xffb3b3L
#define C_DEC_LIGHT	0xb3e0ddL

struct prow {
	char	*name;
	double	 ms;		/* total_direct_kernel_time_ms */
	long long count;	/* Count */
	double	 pct;		/* Percentage (%) */
	double	 key;		/* the sort key of the moment */
	size_t	 idx;
};

struct phase {
	struct prow	*r;
	size_t		 n;
};

struct phasechart {
	struct phase	ph[2];		/* prefill, decode */
};

static const char *const phase_name[2] = { "Prefill", "Decode" };
static const long phase_col[2] = { C_PRE, C_DEC };

struct phasechart *
phasechart_new(void)
{
	return xcalloc(1, sizeof(struct phasechart));
}

void
phasechart_free(struct phasechart *pc)
{
	size_t p, i;

	if (pc == NULL)
		return;
	for (p = 0; p < 2; p++) {
		for (i = 0; i < pc->ph[p].n; i++)
			free(pc->ph[p].r[i].name);
		free(pc->ph[p].r);
	}
	free(pc);
}

int
phasechart_add(struct phasechart *pc, const struct tab *t)
{
	struct phase *ph;
	size_t cn, ct, cc, cp, i;

	if (strcmp(t->name, "ops_summary_prefill") == 0)
		ph = &pc->ph[0];
	else if (strcmp(t->name, "ops_summary_decode") == 0)
		ph = &pc->ph[1];
	else
		return 0;
	cn = tab_find(t, "name");
	ct = tab_find(t, "total_direct_kernel_time_ms");
	cc = tab_find(t, "Count");
	cp = tab_find(t, "Percentage (%)");
	if (cn == (size_t)-1 || ct == (size_t)-1 || cc == (size_t)-1)
		return 0;
	ph->r = xreallocarray(ph->r, ph->n + t->nrows + 1, sizeof(*ph->r));
	for (i = 0; i < t->nrows; i++) {
		struct prow *r = &ph->r[ph->n++];
		double c = tab_num(t, i, cc);

		r->name = xstrdup(tab_str(t, i, cn));
		r->ms = tab_num(t, i, ct);
		if (isnan(r->ms))
			r->ms = 0;
		r->count = isnan(c) ? 0 : (long long)c;
		r->pct = cp == (size_t)-1 ? NAN : tab_num(t, i, cp);
	}
	return 1;
}

int
phasechart_has_data(const struct phasechart *pc)
{
	return pc->ph[0].n > 0 || pc->ph[1].n > 0;
}

/* --- drawing in points ---------------------------------------------------------------- */

struct fig {
	struct chart	*c;
	double		 k;	/* chart units per point */
};

/* A colour at opacity a over white. */
static long
over_white(long rgb, double a)
{
	long out = 0;
	int sh;

	for (sh = 16; sh >= 0; sh -= 8) {
		double v = (double)((rgb >> sh) & 0xff) * a + 255.0 * (1 - a);

		out |= (long)lround(v) << sh;
	}
	return out;
}

static void
f_rect(struct fig *f, double x, double y, double w, double h, long fill, long stroke,
    double lw)
{
	chart_rect(f->c, x * f->k, y * f->k, w * f->k, h * f->k, fill, stroke, lw * f->k, 1);
}

static void
f_line(struct fig *f, double x1, double y1, double x2, double y2, long rgb, double lw,
    double dash)
{
	chart_line(f->c, x1 * f->k, y1 * f->k, x2 * f->k, y2 * f->k, rgb, lw * f->k,
	    dash * f->k);
}

/* Text; va: 'c' centre, 'b' bottom (baseline above the descent), 't' top, 'l' baseline. */
static void
f_text(struct fig *f, double x, double y, double size, int anchor, int va, int bold,
    long rgb, const char *s)
{
	double base = y;

	if (va == 'c')
		base = y + 0.36 * size;
	else if (va == 'b')
		base = y - 0.24 * size;
	else if (va == 't')
		base = y + 0.76 * size;
	chart_text(f->c, x * f->k, base * f->k, size * f->k, anchor, bold, rgb, s);
}

static double
f_width(struct fig *f, double size, int bold, const char *s)
{
	return chart_text_width(f->c, size * f->k, bold, s) / f->k;
}

/* Text rotated by deg (counter-clockwise on the page) around its anchor point. */
static void
f_text_rot(struct fig *f, double deg, double x, double y, double size, int anchor, int va,
    int bold, const char *s)
{
	chart_rotate(f->c, -deg, x * f->k, y * f->k);
	f_text(f, x, y, size, anchor, va, bold, 0, s);
	chart_unrotate(f->c);
}

/* Python's name[:n] + '...' when longer than n code points. */
static char *
trunc_name(const char *s, size_t n)
{
	size_t cp = 0, i;

	for (i = 0; s[i] != '\0'; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (cp == n) {
				struct buf b = BUF_INIT;

				buf_add(&b, s, i);
				buf_adds(&b, "...");
				return b.p;
			}
			cp++;
		}
	}
	return xstrdup(s);
}

static char *
fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));

static char *
fmt(const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	if (vasprintf(&s, f, ap) < 0)
		die(EXIT_DATA, "out of memory");
	va_end(ap);
	return s;
}

/* --- axes ----------------------------------------------------------------------------- */

/* A panel: the cell of the figure it may use, and its axes box and data range. */
struct ax {
	double cl, ct, cr, cb;		/* cell */
	double l, t, r, b;		/* axes box */
	double x0, x1, y0, y1;		/* data range */
};

static double
ax_x(const struct ax *a, double v)
{
	return a->l + (v - a->x0) / (a->x1 - a->x0) * (a->r - a->l);
}

static double
ax_y(const struct ax *a, double v)
{
	return a->b - (v - a->y0) / (a->y1 - a->y0) * (a->b - a->t);
}

/* The cell of panel i (0..3, row by row) under the figure's title. */
static void
ax_cell(struct ax *a, int i)
{
	double top = 50, cw = FIG_W / 2, ch = (FIG_H - top - 10) / 2;

	memset(a, 0, sizeof(*a));
	a->cl = (i % 2) * cw + 10;
	a->cr = a->cl + cw - 20;
	a->ct = top + (i / 2) * ch;
	a->cb = a->ct + ch - 10;
}

/* matplotlib-like ticks over [lo, hi]: a step of 1, 2, 2.5, 5 or 10 times a power of
 * ten giving at most 9 intervals; decimals enough to show it. */
static double
nice_step(double lo, double hi, int *dec)
{
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	double raw = (hi - lo) / 8.0, mag, st = 1, v;
	size_t i;

	if (!(raw > 0) || !isfinite(raw))
		raw = 1;
	mag = pow(10.0, floor(log10(raw)));
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		st = steps[i] * mag;
		if (st >= raw * (1 - 1e-9))
			break;
	}
	*dec = 0;
	for (v = st; *dec < 12 && fabs(v - round(v)) > 1e-6 * fmax(1, v); v *= 10)
		(*dec)++;
	return st;
}

/* The widest numeric tick label over [lo, hi]. */
static double
ticks_width(struct fig *f, double lo, double hi)
{
	int dec;
	double st = nice_step(lo, hi, &dec), w = 0, v;
	long k;
	char b[64];

	for (k = (long)ceil(lo / st - 1e-9); (v = (double)k * st) <= hi + st * 1e-9; k++) {
		snprintf(b, sizeof(b), "%.*f", dec, fabs(v) < st * 1e-9 ? 0.0 : v);
		w = fmax(w, f_width(f, 9, 0, b));
	}
	return w;
}

/* Numeric ticks and their labels on the left (y) or at the bottom (x). */
static void
ax_num_ticks(struct fig *f, const struct ax *a, int yaxis)
{
	double lo = yaxis ? a->y0 : a->x0, hi = yaxis ? a->y1 : a->x1, st, v;
	int dec;
	long k;
	char b[64];

	st = nice_step(lo, hi, &dec);
	for (k = (long)ceil(lo / st - 1e-9); (v = (double)k * st) <= hi + st * 1e-9; k++) {
		snprintf(b, sizeof(b), "%.*f", dec, fabs(v) < st * 1e-9 ? 0.0 : v);
		if (yaxis) {
			double y = ax_y(a, v);

			f_line(f, a->l - 3.5, y, a->l, y, 0, 0.8, 0);
			f_text(f, a->l - 5.5, y, 9, CHART_END, 'c', 0, 0, b);
		} else {
			double x = ax_x(a, v);

			f_line(f, x, a->b, x, a->b + 3.5, 0, 0.8, 0);
			f_text(f, x, a->b + 5.5, 9, CHART_MIDDLE, 't', 0, 0, b);
		}
	}
}

/* Category ticks: labels at data positions 0..n-1 on x (rot 0 or 45, right-aligned) or
 * on y (right of nothing, left of the axes). */
static void
ax_cat_ticks(struct fig *f, const struct ax *a, int yaxis, char **labels, size_t n,
    int rot)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (yaxis) {
			double y = ax_y(a, (double)i);

			f_line(f, a->l - 3.5, y, a->l, y, 0, 0.8, 0);
			f_text(f, a->l - 5.5, y, 9, CHART_END, 'c', 0, 0, labels[i]);
		} else {
			double x = ax_x(a, (double)i);
			const char *s = labels[i], *nl = strchr(s, '\n');

			f_line(f, x, a->b, x, a->b + 3.5, 0, 0.8, 0);
			if (rot) {
				f_text_rot(f, rot, x, a->b + 5.5 + 6, 9, CHART_END, 'c', 0, s);
			} else if (nl != NULL) {
				char *l1 = xstrndup(s, (size_t)(nl - s));

				f_text(f, x, a->b + 5.5, 9, CHART_MIDDLE, 't', 0, 0, l1);
				f_text(f, x, a->b + 5.5 + 10.8, 9, CHART_MIDDLE, 't', 0, 0, nl + 1);
				free(l1);
			} else {
				f_text(f, x, a->b + 5.5, 9, CHART_MIDDLE, 't', 0, 0, s);
			}
		}
	}
}

/* The frame, the title (bold, 12 pt) and the axis labels (10 pt). */
static void
ax_frame(struct fig *f, const struct ax *a, const char *title, const char *xlabel,
    const char *ylabel)
{
	f_rect(f, a->l, a->t, a->r - a->l, a->b - a->t, CHART_NONE, 0, 0.8);
	if (title != NULL)
		f_text(f, (a->l + a->r) / 2, a->t - 6, 12, CHART_MIDDLE, 'b', 1, 0, title);
	if (xlabel != NULL)
		f_text(f, (a->l + a->r) / 2, a->cb, 10, CHART_MIDDLE, 'b', 0, 0, xlabel);
	if (ylabel != NULL)
		f_text_rot(f, 90, a->cl + 10, (a->t + a->b) / 2, 10, CHART_MIDDLE, 'c', 0,
		    ylabel);
}

/* A panel with nothing to show: its title and the branch's message, centred. */
static void
ax_empty(struct fig *f, struct ax *a, const char *title, const char *msg)
{
	a->l = a->cl + 50;
	a->r = a->cr;
	a->t = a->ct + 25;
	a->b = a->cb - 30;
	a->x0 = a->y0 = 0;
	a->x1 = a->y1 = 1;
	ax_num_ticks(f, a, 0);
	ax_num_ticks(f, a, 1);
	ax_frame(f, a, title, NULL, NULL);
	f_text(f, (a->l + a->r) / 2, (a->t + a->b) / 2, 12, CHART_MIDDLE, 'c', 0, 0, msg);
}

/* The upper right legend: entries with a patch (dash < 0) or a line (dash 0: solid). */
struct legend {
	const char *label;
	long colour;
	double dash;
};

static void
ax_legend(struct fig *f, const struct ax *a, const struct legend *e, size_t n)
{
	double w = 0, h = (double)n * 9 * 1.4 + 6, x, y;
	size_t i;

	for (i = 0; i < n; i++)
		w = fmax(w, f_width(f, 9, 0, e[i].label));
	w += 40;
	x = a->r - 6 - w;
	y = a->t + 6;
	f_rect(f, x, y, w, h, 0xffffff, 0xcccccc, 0.8);
	for (i = 0; i < n; i++) {
		double cy = y + 3 + 9 * 1.4 * ((double)i + 0.5);

		if (e[i].dash < 0)
			f_rect(f, x + 6, cy - 4, 20, 8, e[i].colour, 0, 0.5);
		else
			f_line(f, x + 6, cy, x + 26, cy, e[i].colour, 2, e[i].dash);
		f_text(f, x + 32, cy, 9, CHART_START, 'c', 0, 0, e[i].label);
	}
}

/* --- sorting -------------------------------------------------------------------------- */

static int
by_key_desc(const void *pa, const void *pb)
{
	const struct prow *a = *(struct prow *const *)pa, *b = *(struct prow *const *)pb;

	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The first n rows by key descending (pandas' nlargest, keep first); *out malloc'd. */
static size_t
nlargest(const struct phase *ph, size_t n, int which, struct prow ***out)
{
	struct prow **v = xreallocarray(NULL, ph->n + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < ph->n; i++) {
		struct prow *r = &ph->r[i];

		r->idx = i;
		r->key = which == 0 ? r->ms : which == 1 ? (double)r->count :
		    which == 2 ? (r->count != 0 ? r->ms / (double)r->count : NAN) : r->pct;
		if (isnan(r->key))
			r->key = -INFINITY;
		v[i] = r;
	}
	qsort(v, ph->n, sizeof(*v), by_key_desc);
	*out = v;
	return ph->n < n ? ph->n : n;
}

/* --- the panels ----------------------------------------------------------------------- */

/* Horizontal bars of rows (top down), labels from the names cut at cut code points. */
static void
panel_hbars(struct fig *f, struct ax *a, struct prow **rows, size_t n, const double *vals,
    size_t cut, long colour, const char *title, const char *xlabel, int dec)
{
	char **labels = xcalloc(n + 1, sizeof(*labels));
	double w = 0, vmax = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		labels[i] = trunc_name(rows[i]->name, cut);
		w = fmax(w, f_width(f, 9, 0, labels[i]));
		vmax = fmax(vmax, vals[i]);
	}
	a->x0 = 0;
	a->x1 = vmax > 0 ? vmax * 1.05 : 1;
	/* inverted: the first row on top */
	a->y0 = (double)n - 1 + 0.4 + 0.05 * ((double)n - 0.2);
	a->y1 = -0.4 - 0.05 * ((double)n - 0.2);
	a->l = a->cl + w + 10;
	a->r = a->cr - 55;
	a->t = a->ct + 25;
	a->b = a->cb - 32;
	for (i = 0; i < n; i++) {
		double yt = ax_y(a, (double)i - 0.4), yb = ax_y(a, (double)i + 0.4);
		char *s;

		/* the axis runs downwards in data: ax_y of the larger value is lower */
		f_rect(f, ax_x(a, 0), fmin(yt, yb), ax_x(a, vals[i]) - ax_x(a, 0),
		    fabs(yb - yt), over_white(colour, 0.7), 0, 0.5);
		/* dec < 0: counts, as integers */
		s = dec < 0 ? fmt("%lld", (long long)vals[i]) : fmt("%.*fms", dec, vals[i]);
		f_text(f, ax_x(a, vals[i] + vmax * 0.01), ax_y(a, (double)i), 8, CHART_START,
		    'c', 0, 0, s);
		free(s);
	}
	ax_cat_ticks(f, a, 1, labels, n, 0);
	ax_num_ticks(f, a, 0);
	ax_frame(f, a, title, xlabel, NULL);
	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
}

/* Vertical bars at 0..n-1 with a value label above each; colours[i]; labels under. */
static void
panel_vbars(struct fig *f, struct ax *a, char **labels, size_t n, const double *vals,
    const long *colours, double lw, int rot, const char *title, const char *ylabel,
    char **vlabels, int boldvals, double above)
{
	double vmax = 0, lh = 12, wl = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		vmax = fmax(vmax, vals[i]);
		if (rot)
			wl = fmax(wl, f_width(f, 9, 0, labels[i]));
		else if (strchr(labels[i], '\n') != NULL)
			lh = 24;
	}
	a->x0 = -0.4 - 0.05 * ((double)n - 0.2);
	a->x1 = (double)n - 1 + 0.4 + 0.05 * ((double)n - 0.2);
	a->y0 = 0;
	/* matplotlib's 5 % margin, and room for the labels above the bars */
	a->y1 = vmax > 0 ? vmax * 1.1 + (above > 0 ? above : 0) : 1;
	a->l = a->cl + 22 + ticks_width(f, a->y0, a->y1) + 8;
	a->r = a->cr;
	a->t = a->ct + 25;
	a->b = a->cb - 18 - (rot ? wl * 0.7071 + 10 : lh);
	for (i = 0; i < n; i++) {
		double x0 = ax_x(a, (double)i - 0.4), x1 = ax_x(a, (double)i + 0.4);
		double yv = ax_y(a, vals[i]);

		f_rect(f, x0, yv, x1 - x0, ax_y(a, 0) - yv, colours[i], 0, lw);
		if (vlabels != NULL && vlabels[i] != NULL)
			f_text(f, (x0 + x1) / 2, ax_y(a, vals[i] + (above < 0 ? vmax * 0.01 :
			    above)), boldvals ? 10 : 8, CHART_MIDDLE, 'b', boldvals, 0,
			    vlabels[i]);
	}
	ax_cat_ticks(f, a, 0, labels, n, rot);
	ax_num_ticks(f, a, 1);
	ax_frame(f, a, title, NULL, ylabel);
}

/* A table filling the panel: header row grey and bold, first column light and bold. */
static void
panel_table(struct fig *f, struct ax *a, const char *const *cells, size_t nrows,
    size_t ncols, const char *title)
{
	double l = a->cl + 10, r = a->cr - 10, t = a->ct + 40, b = a->cb - 10;
	double cw = (r - l) / (double)ncols, rh = (b - t) / (double)nrows;
	size_t i, j;

	for (i = 0; i < nrows; i++)
		for (j = 0; j < ncols; j++) {
			double x = l + (double)j * cw, y = t + (double)i * rh;
			long bg = i == 0 ? 0xe8e8e8 : j == 0 ? 0xf5f5f5 : 0xffffff;

			f_rect(f, x, y, cw, rh, bg, 0, 0.8);
			f_text(f, x + cw / 2, y + rh / 2, 9, CHART_MIDDLE, 'c', i == 0 || j == 0,
			    0, cells[i * ncols + j]);
		}
	f_text(f, (l + r) / 2, t - 20, 12, CHART_MIDDLE, 'b', 1, 0, title);
}

/* The pie of the phases' total times, with the branch's labels and annotations. */
static void
panel_pie(struct fig *f, struct ax *a, const double *times)
{
	double cx = (a->cl + a->cr) / 2 - 40, cy = (a->ct + a->cb) / 2 + 10;
	double rad = fmin(a->cr - a->cl, a->cb - a->ct - 30) / 2 / 1.25, tot = 0, ang = 90;
	size_t i, k = 0;

	for (i = 0; i < 2; i++)
		tot += times[i] > 0 ? times[i] : 0;
	for (i = 0; i < 2; i++) {
		double span, mid, c, s;
		char *t;

		if (!(times[i] > 0))
			continue;
		span = 360.0 * times[i] / tot;
		mid = (ang + span / 2) * M_PI / 180.0;
		c = cos(mid);
		s = sin(mid);
		chart_wedge(f->c, cx * f->k, cy * f->k, rad * f->k, ang, ang + span,
		    phase_col[i], CHART_NONE, 0);
		f_text(f, cx + 1.1 * rad * c, cy - 1.1 * rad * s, 10, c > 0 ? CHART_START :
		    CHART_END, 'c', 0, 0, phase_name[i]);
		t = fmt("%.1f%%", 100.0 * times[i] / tot);
		f_text(f, cx + 0.6 * rad * c, cy - 0.6 * rad * s, 10, CHART_MIDDLE, 'c', 0, 0,
		    t);
		free(t);
		/* the annotation box at data (1.3, 0.8 - 0.2 k) */
		t = fmt("%.1fms", times[i]);
		{
			double x = cx + 1.3 * rad, y = cy - (0.8 - 0.2 * (double)k) * rad;
			double w = f_width(f, 9, 0, t);

			f_rect(f, x - 3, y - 9 - 3, w + 6, 9 * 1.2 + 6,
			    over_white(phase_col[i], 0.3), 0, 0.8);
			f_text(f, x, y, 9, CHART_START, 'l', 0, 0, t);
		}
		free(t);
		ang += span;
		k++;
	}
	f_text(f, cx, a->ct + 18, 12, CHART_MIDDLE, 'b', 1, 0,
	    "Total Execution Time Distribution");
}

/* --- the figures ---------------------------------------------------------------------- */

static double
phase_total(const struct phase *ph)
{
	double s = 0;
	size_t i;

	for (i = 0; i < ph->n; i++)
		s += ph->r[i].ms;
	return s;
}

static void
fig_title(struct fig *f, const char *what, const char *name)
{
	char *t = fmt("%s - %s", what, name);

	f_text(f, FIG_W / 2, 30, 16, CHART_MIDDLE, 'b', 1, 0, t);
	free(t);
}

static void
fig_overview(struct fig *f, const struct phasechart *pc, const char *name)
{
	double tot[2], all, avg[2];
	long long cnt[2], nall;
	struct ax a;
	char *lab[2], *vl[2], *cells[24];
	long col[2];
	double vals[2];
	size_t i, n = 0;

	for (i = 0; i < 2; i++) {
		tot[i] = phase_total(&pc->ph[i]);
		cnt[i] = (long long)pc->ph[i].n;
		avg[i] = cnt[i] > 0 ? tot[i] / (double)cnt[i] : 0;
	}
	all = tot[0] + tot[1];
	nall = cnt[0] + cnt[1];
	fig_title(f, "Inference Phase Analysis Overview", name);

	ax_cell(&a, 0);
	panel_pie(f, &a, tot);

	ax_cell(&a, 1);
	for (i = 0; i < 2; i++) {
		lab[i] = (char *)phase_name[i];
		vals[i] = (double)cnt[i];
		col[i] = over_white(phase_col[i], 0.7);
		vl[i] = cnt[i] > 0 ? fmt("%lld", cnt[i]) : NULL;
	}
	panel_vbars(f, &a, lab, 2, vals, col, 1, 0, "Number of Operations by Phase",
	    "Operation Count", vl, 1, -1);
	for (i = 0; i < 2; i++)
		free(vl[i]);

	ax_cell(&a, 2);
	for (i = 0; i < 2; i++) {
		if (cnt[i] == 0)
			continue;
		lab[n] = fmt("%s\n(%lld ops)", phase_name[i], cnt[i]);
		vals[n] = avg[i];
		/* the branch takes the first colours, whichever phases are there */
		col[n] = over_white(phase_col[n], 0.7);
		vl[n] = fmt("%.1fms", avg[i]);
		n++;
	}
	if (n > 0)
		panel_vbars(f, &a, lab, n, vals, col, 1, 0, "Average Time per Operation",
		    "Average Time (ms)", vl, 1, -1);
	for (i = 0; i < n; i++) {
		free(lab[i]);
		free(vl[i]);
	}

	ax_cell(&a, 3);
	n = 0;
	cells[n++] = xstrdup("Metric");
	cells[n++] = xstrdup("Prefill");
	cells[n++] = xstrdup("Decode");
	cells[n++] = xstrdup("Total/Ratio");
	cells[n++] = xstrdup("Total Time (ms)");
	cells[n++] = fmt("%.1f", tot[0]);
	cells[n++] = fmt("%.1f", tot[1]);
	cells[n++] = fmt("%.1f", all);
	cells[n++] = xstrdup("Operation Count");
	cells[n++] = fmt("%lld", cnt[0]);
	cells[n++] = fmt("%lld", cnt[1]);
	cells[n++] = fmt("%lld", nall);
	cells[n++] = xstrdup("Avg Time/Op (ms)");
	cells[n++] = cnt[0] > 0 ? fmt("%.1f", avg[0]) : xstrdup("N/A");
	cells[n++] = cnt[1] > 0 ? fmt("%.1f", avg[1]) : xstrdup("N/A");
	cells[n++] = nall > 0 ? fmt("%.1f", all / (double)nall) : xstrdup("N/A");
	cells[n++] = xstrdup("Phase Percentage");
	cells[n++] = all > 0 ? fmt("%.1f%%", 100 * tot[0] / all) : xstrdup("N/A");
	cells[n++] = all > 0 ? fmt("%.1f%%", 100 * tot[1] / all) : xstrdup("N/A");
	cells[n++] = xstrdup("100%");
	cells[n++] = xstrdup("Prefill:Decode Ratio");
	cells[n++] = tot[1] > 0 ? fmt("%.2f:1", tot[0] / tot[1]) : xstrdup("N/A");
	cells[n++] = tot[0] > 0 ? fmt("1:%.2f", tot[1] / tot[0]) : xstrdup("N/A");
	cells[n++] = xstrdup("Time Ratio");
	panel_table(f, &a, (const char *const *)cells, 6, 4, "Summary Statistics");
	for (i = 0; i < n; i++)
		free(cells[i]);
}

/* A histogram of the phase's op times (20 bins) with its mean and median. */
static void
panel_hist(struct fig *f, struct ax *a, const struct phase *ph, int p)
{
	struct vec v = VEC_INIT;
	double lo, hi, w, mean, med, cmax = 0;
	long cnt[20] = { 0 };
	size_t i;
	char *l1, *l2;
	struct legend e[2];
	static const long mcol[2] = { 0xff0000, 0x008080 }, dcol[2] = { 0x8b0000, 0x008b8b };

	for (i = 0; i < ph->n; i++)
		vec_add(&v, ph->r[i].ms);
	lo = stat_min(&v);
	hi = stat_max(&v);
	if (lo == hi) {
		lo -= 0.5;
		hi += 0.5;
	}
	w = (hi - lo) / 20;
	for (i = 0; i < ph->n; i++) {
		long b = (long)((ph->r[i].ms - lo) / w);

		if (b > 19)
			b = 19;
		if (b < 0)
			b = 0;
		cnt[b]++;
	}
	for (i = 0; i < 20; i++)
		cmax = fmax(cmax, (double)cnt[i]);
	mean = stat_mean(&v);
	med = stat_median(&v);
	a->x0 = lo - (hi - lo) * 0.05;
	a->x1 = hi + (hi - lo) * 0.05;
	a->y0 = 0;
	a->y1 = cmax * 1.05;
	a->l = a->cl + 22 + ticks_width(f, a->y0, a->y1) + 8;
	a->r = a->cr;
	a->t = a->ct + 25;
	a->b = a->cb - 32;
	for (i = 0; i < 20; i++) {
		double x0 = ax_x(a, lo + w * (double)i), x1 = ax_x(a, lo + w * (double)(i + 1));

		if (cnt[i] > 0)
			f_rect(f, x0, ax_y(a, (double)cnt[i]), x1 - x0,
			    ax_y(a, 0) - ax_y(a, (double)cnt[i]), over_white(phase_col[p], 0.7),
			    0, 0.5);
	}
	f_line(f, ax_x(a, mean), a->t, ax_x(a, mean), a->b, mcol[p], 2, 7.4);
	f_line(f, ax_x(a, med), a->t, ax_x(a, med), a->b, dcol[p], 2, 0);
	ax_num_ticks(f, a, 0);
	ax_num_ticks(f, a, 1);
	l1 = fmt("Mean: %.1fms", mean);
	l2 = fmt("Median: %.1fms", med);
	e[0] = (struct legend){ l1, mcol[p], 7.4 };
	e[1] = (struct legend){ l2, dcol[p], 0 };
	ax_legend(f, a, e, 2);
	l1 = (free(l1), NULL);
	free(l2);
	l2 = fmt("%s Time Distribution", phase_name[p]);
	ax_frame(f, a, l2, "Operation Time (ms)", "Frequency");
	free(l2);
	free(v.v);
}

/* The upper panels of the time and frequency charts: the phase's ten largest ops by
 * time (by_count 0: ms, names cut to 30) or by count (1: calls, names cut to 25) as
 * horizontal bars, or the "no data" panel. */
static void
panel_top10(struct fig *f, struct ax *a, const struct phase *ph, int p, int by_count,
    const char *title, const char *none)
{
	struct prow **rows;
	double *vals;
	size_t i, n;

	if (ph->n == 0) {
		ax_empty(f, a, title, none);
		return;
	}
	n = nlargest(ph, 10, by_count, &rows);
	vals = xcalloc(n + 1, sizeof(*vals));
	for (i = 0; i < n; i++)
		vals[i] = by_count ? (double)rows[i]->count : rows[i]->ms;
	panel_hbars(f, a, rows, n, vals, by_count ? 25 : 30, phase_col[p], title,
	    by_count ? "Call Count" : "Time (ms)", by_count ? -1 : 1);
	free(vals);
	free(rows);
}

static void
fig_time(struct fig *f, const struct phasechart *pc, const char *name)
{
	struct ax a;
	size_t p;

	fig_title(f, "Operation Time Distribution Analysis", name);
	for (p = 0; p < 2; p++) {
		const struct phase *ph = &pc->ph[p];
		char *title = fmt("Top 10 %s Operations by Time", phase_name[p]);
		char *none = fmt("No %s Data Available", phase_name[p]);

		ax_cell(&a, (int)p);
		panel_top10(f, &a, ph, (int)p, 0, title, none);
		free(title);
		ax_cell(&a, (int)p + 2);
		if (ph->n == 0) {
			title = fmt("%s Time Distribution", phase_name[p]);
			ax_empty(f, &a, title, none);
			free(title);
		} else {
			panel_hist(f, &a, ph, (int)p);
		}
		free(none);
	}
}

/* Count against time, each op a point, with the least-squares line. */
static void
panel_scatter(struct fig *f, struct ax *a, const struct phase *ph, int p)
{
	double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, nn = (double)ph->n, dx, dy;
	size_t i;
	char *t;

	for (i = 0; i < ph->n; i++) {
		double x = (double)ph->r[i].count, y = ph->r[i].ms;

		xmin = fmin(xmin, x);
		xmax = fmax(xmax, x);
		ymin = fmin(ymin, y);
		ymax = fmax(ymax, y);
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
	}
	dx = xmax > xmin ? (xmax - xmin) * 0.05 : 0.05 * fmax(1, fabs(xmin));
	dy = ymax > ymin ? (ymax - ymin) * 0.05 : 0.05 * fmax(1e-3, fabs(ymin));
	a->x0 = xmin - dx;
	a->x1 = xmax + dx;
	a->y0 = ymin - dy;
	a->y1 = ymax + dy;
	a->l = a->cl + 22 + ticks_width(f, a->y0, a->y1) + 8;
	a->r = a->cr;
	a->t = a->ct + 25;
	a->b = a->cb - 32;
	chart_clip(f->c, a->l * f->k, a->t * f->k, (a->r - a->l) * f->k, (a->b - a->t) * f->k);
	for (i = 0; i < ph->n; i++)
		chart_circle(f->c, ax_x(a, (double)ph->r[i].count) * f->k,
		    ax_y(a, ph->r[i].ms) * f->k, 3.99 * f->k, phase_col[p], 0.6, 0,
		    0.5 * f->k);
	if (ph->n > 1 && nn * sxx - sx * sx > 0) {
		double m = (nn * sxy - sx * sy) / (nn * sxx - sx * sx), c = (sy - m * sx) / nn;

		f_line(f, ax_x(a, xmin), ax_y(a, m * xmin + c), ax_x(a, xmax),
		    ax_y(a, m * xmax + c), p == 0 ? 0xff0000 : 0x0000ff, 2, 7.4);
	}
	chart_unclip(f->c);
	ax_num_ticks(f, a, 0);
	ax_num_ticks(f, a, 1);
	t = fmt("%s: Frequency vs Total Time", phase_name[p]);
	ax_frame(f, a, t, "Call Count", "Total Time (ms)");
	free(t);
}

static void
fig_freq(struct fig *f, const struct phasechart *pc, const char *name)
{
	struct ax a;
	size_t p;

	fig_title(f, "Operation Frequency Analysis", name);
	for (p = 0; p < 2; p++) {
		const struct phase *ph = &pc->ph[p];
		char *title = fmt("Most Frequent %s Operations", phase_name[p]);
		char *none = fmt("No %s Data Available", phase_name[p]);

		ax_cell(&a, (int)p);
		panel_top10(f, &a, ph, (int)p, 1, title, none);
		free(title);
		ax_cell(&a, (int)p + 2);
		if (ph->n == 0) {
			title = fmt("%s: Frequency vs Total Time", phase_name[p]);
			ax_empty(f, &a, title, none);
			free(title);
		} else {
			panel_scatter(f, &a, ph, (int)p);
		}
		free(none);
	}
}

static void
fig_bottlenecks(struct fig *f, const struct phasechart *pc, const char *name)
{
	struct ax a;
	size_t p, i, n;

	fig_title(f, "Performance Bottleneck Analysis", name);
	for (p = 0; p < 2; p++) {
		const struct phase *ph = &pc->ph[p];
		char *title = fmt("Slowest %s Operations (Time/Call)", phase_name[p]);
		char *none = fmt("No %s Data Available", phase_name[p]);
		struct prow **rows;

		ax_cell(&a, (int)p);
		if (ph->n == 0) {
			ax_empty(f, &a, title, none);
		} else {
			double *vals;

			n = nlargest(ph, 8, 2, &rows);
			vals = xcalloc(n + 1, sizeof(*vals));
			for (i = 0; i < n; i++)
				vals[i] = rows[i]->key > -INFINITY ? rows[i]->key : 0;
			panel_hbars(f, &a, rows, n, vals, 20, phase_col[p], title,
			    "Time per Call (ms)", 2);
			free(vals);
			free(rows);
		}
		free(title);
		title = fmt("Top %s Time Contributors", phase_name[p]);
		ax_cell(&a, (int)p + 2);
		if (ph->n == 0) {
			ax_empty(f, &a, title, none);
		} else {
			char **labels, **vl;
			double *vals;
			long *col;

			n = nlargest(ph, 10, 3, &rows);
			labels = xcalloc(n + 1, sizeof(*labels));
			vl = xcalloc(n + 1, sizeof(*vl));
			vals = xcalloc(n + 1, sizeof(*vals));
			col = xcalloc(n + 1, sizeof(*col));
			for (i = 0; i < n; i++) {
				labels[i] = trunc_name(rows[i]->name, 15);
				vals[i] = isnan(rows[i]->pct) ? 0 : rows[i]->pct;
				vl[i] = fmt("%.1f%%", rows[i]->pct);
				col[i] = over_white(phase_col[p], 0.7);
			}
			panel_vbars(f, &a, labels, n, vals, col, 0.5, 45, title,
			    "Percentage of Phase Time (%)", vl, 0, 0.5);
			for (i = 0; i < n; i++) {
				free(labels[i]);
				free(vl[i]);
			}
			free(labels);
			free(vl);
			free(vals);
			free(col);
			free(rows);
		}
		free(title);
		free(none);
	}
}

/* The branch's op types, by substrings of the lower-cased name, first match wins. */
static const char *
op_type(const char *name)
{
	static const struct {
		const char *type;
		const char *pat[4];
	} T[] = {
		{ "Matrix Ops", { "mm", "gemm", "matmul", NULL } },
		{ "Attention", { "attention", "attn", "flash", NULL } },
		{ "Normalization", { "norm", NULL } },
		{ "Memory Ops", { "copy", "clone", "view", "reshape" } },
		{ "Elementwise", { "add", "mul", "div", "sub" } },
		{ "Embedding", { "embed", NULL } },
		{ "Triton Kernels", { "triton", NULL } },
	};
	char *low = xstrdup(name), *q;
	const char *res = "Other";
	size_t i, j;

	for (q = low; *q != '\0'; q++)
		if (*q >= 'A' && *q <= 'Z')
			*q = (char)(*q + 32);
	for (i = 0; i < sizeof(T) / sizeof(T[0]) && strcmp(res, "Other") == 0; i++)
		for (j = 0; j < 4 && T[i].pat[j] != NULL; j++)
			if (strstr(low, T[i].pat[j]) != NULL) {
				res = T[i].type;
				break;
			}
	free(low);
	return res;
}

/* matplotlib's Set3 at np.linspace(0, 1, n)[i]. */
static long
set3(size_t i, size_t n)
{
	static const long S[12] = { 0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3,
	    0xfdb462, 0xb3de69, 0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f };
	double x = n > 1 ? (double)i / (double)(n - 1) : 0;
	long k = (long)(x * 12);

	return S[k > 11 ? 11 : k];
}

/* Time by op type: groupby (sorted by type), then by time descending. */
static void
panel_types(struct fig *f, struct ax *a, const struct phase *ph, int p)
{
	const char *types[8];
	double tt[8];
	size_t nt = 0, i, j, ord[8];
	char *labels[8], *vl[8];
	double vals[8], vmax = 0;
	long col[8];
	char *title;

	for (i = 0; i < ph->n; i++) {
		const char *t = op_type(ph->r[i].name);

		for (j = 0; j < nt && strcmp(types[j], t) != 0; j++)
			;
		if (j == nt) {
			types[nt] = t;
			tt[nt++] = 0;
		}
		tt[j] += ph->r[i].ms;
	}
	/* groupby's order (by type name), then a stable sort by time descending */
	for (i = 0; i < nt; i++)
		ord[i] = i;
	for (i = 1; i < nt; i++)
		for (j = i; j > 0 && strcmp(types[ord[j - 1]], types[ord[j]]) > 0; j--) {
			size_t tmp = ord[j];

			ord[j] = ord[j - 1];
			ord[j - 1] = tmp;
		}
	for (i = 1; i < nt; i++)
		for (j = i; j > 0 && tt[ord[j - 1]] < tt[ord[j]]; j--) {
			size_t tmp = ord[j];

			ord[j] = ord[j - 1];
			ord[j - 1] = tmp;
		}
	for (i = 0; i < nt; i++)
		vmax = fmax(vmax, tt[i]);
	for (i = 0; i < nt; i++) {
		labels[i] = (char *)types[ord[i]];
		vals[i] = tt[ord[i]];
		vl[i] = fmt("%.1fms", vals[i]);
		col[i] = over_white(set3(i, nt), 0.7);
	}
	title = fmt("%s Operations by Type", phase_name[p]);
	panel_vbars(f, a, labels, nt, vals, col, 0.5, 45, title, "Total Time (ms)", vl, 0,
	    -1);
	free(title);
	for (i = 0; i < nt; i++)
		free(vl[i]);
}

static void
fig_breakdowns(struct fig *f, const struct phasechart *pc, const char *name)
{
	struct ax a;
	size_t p, i, n = 0, np = 0;
	double tot[2], avg[2], scale, mt = 0, ma = 0;
	const char *cells[24];
	char *own[24];
	size_t nown = 0, nc = 0;

	fig_title(f, "Detailed Operation Breakdown", name);
	for (p = 0; p < 2; p++) {
		char *title = fmt("%s Operations by Type", phase_name[p]);
		char *none = fmt("No %s Data Available", phase_name[p]);

		ax_cell(&a, (int)p);
		if (pc->ph[p].n == 0)
			ax_empty(f, &a, title, none);
		else
			panel_types(f, &a, &pc->ph[p], (int)p);
		free(title);
		free(none);
		tot[p] = phase_total(&pc->ph[p]);
		avg[p] = pc->ph[p].n > 0 ? tot[p] / (double)pc->ph[p].n : 0;
	}

	/* total against average, the averages scaled to 0.3 of the largest total */
	ax_cell(&a, 2);
	for (p = 0; p < 2; p++)
		if (pc->ph[p].n > 0) {
			mt = fmax(mt, tot[p]);
			ma = fmax(ma, avg[p]);
			np++;
		}
	scale = ma > 0 ? mt / ma * 0.3 : 1;
	{
		static const long light[2] = { C_PRE_LIGHT, C_DEC_LIGHT };
		char *labels[2], *lt, *la;
		struct legend e[2];
		size_t k = 0;

		a.x0 = -0.35 - 0.05 * ((double)np - 0.3);
		a.x1 = (double)np - 1 + 0.35 + 0.05 * ((double)np - 0.3);
		a.y0 = 0;
		a.y1 = (mt * 1.01) * 1.05 + mt * 0.05;
		if (!(a.y1 > 0))
			a.y1 = 1;
		a.l = a.cl + 22 + ticks_width(f, a.y0, a.y1) + 8;
		a.r = a.cr;
		a.t = a.ct + 25;
		a.b = a.cb - 32;
		for (p = 0; p < 2; p++) {
			double x, vals[2];
			long cols[2];
			int j;

			if (pc->ph[p].n == 0)
				continue;
			x = (double)k;
			labels[k] = (char *)phase_name[p];
			vals[0] = tot[p];
			vals[1] = avg[p] * scale;
			/* the branch colours by position, not by phase */
			cols[0] = over_white(phase_col[k], 0.7);
			cols[1] = over_white(light[k], 0.7);
			for (j = 0; j < 2; j++) {
				double x0 = ax_x(&a, x - 0.35 + 0.35 * j), x1 = ax_x(&a, x + 0.35 * j);
				double yv = ax_y(&a, vals[j]);
				char *s = fmt("%.1f", j == 0 ? tot[p] : avg[p]);

				f_rect(f, x0, yv, x1 - x0, ax_y(&a, 0) - yv, cols[j], 0, 0.5);
				f_text(f, (x0 + x1) / 2, ax_y(&a, vals[j] + mt * 0.01), 9,
				    CHART_MIDDLE, 'b', 1, 0, s);
				free(s);
			}
			k++;
		}
		ax_cat_ticks(f, &a, 0, labels, k, 0);
		ax_num_ticks(f, &a, 1);
		lt = xstrdup("Total Time (ms)");
		la = fmt("Avg Time (ms) \xc3\x97%.1f", scale);
		e[0] = (struct legend){ lt, over_white(phase_col[0], 0.7), -1 };
		e[1] = (struct legend){ la, over_white(light[0], 0.7), -1 };
		ax_legend(f, &a, e, 2);
		ax_frame(f, &a, "Total vs Average Operation Time", "Phase", "Time (ms)");
		free(lt);
		free(la);
	}

	ax_cell(&a, 3);
#define CELL(s)	(cells[nc++] = (s))
#define OWN(s)	(cells[nc++] = own[nown++] = (s))
	CELL("Metric"); CELL("Prefill"); CELL("Decode"); CELL("Comparison");
	if (pc->ph[0].n > 0 && pc->ph[1].n > 0) {
		double e0 = (double)pc->ph[0].n / tot[0], e1 = (double)pc->ph[1].n / tot[1];

		CELL("Ops/ms"); OWN(fmt("%.3f", e0)); OWN(fmt("%.3f", e1));
		OWN(fmt("%s more efficient", e0 > e1 ? "Prefill" : "Decode"));
		CELL("Avg Time/Op (ms)"); OWN(fmt("%.2f", avg[0])); OWN(fmt("%.2f", avg[1]));
		OWN(fmt("%s faster ops", avg[0] < avg[1] ? "Prefill" : "Decode"));
		CELL("Total Operations"); OWN(fmt("%zu", pc->ph[0].n));
		OWN(fmt("%zu", pc->ph[1].n));
		OWN(fmt("%s more diverse", pc->ph[0].n > pc->ph[1].n ? "Prefill" : "Decode"));
		CELL("Phase Dominance"); OWN(fmt("%.1f%%", 100 * tot[0] / (tot[0] + tot[1])));
		OWN(fmt("%.1f%%", 100 * tot[1] / (tot[0] + tot[1])));
		OWN(fmt("%s dominates", tot[0] > tot[1] ? "Prefill" : "Decode"));
		n = 5;
	} else {
		p = pc->ph[0].n > 0 ? 0 : 1;
		CELL("Total Operations");
		if (p == 0) {
			OWN(fmt("%zu", pc->ph[0].n)); CELL("N/A");
			CELL("Only Prefill available");
			CELL("Total Time (ms)"); OWN(fmt("%.1f", tot[0])); CELL("N/A");
			CELL("Only Prefill available");
		} else {
			CELL("N/A"); OWN(fmt("%zu", pc->ph[1].n));
			CELL("Only Decode available");
			CELL("Total Time (ms)"); CELL("N/A"); OWN(fmt("%.1f", tot[1]));
			CELL("Only Decode available");
		}
		n = 3;
	}
#undef CELL
#undef OWN
	panel_table(f, &a, cells, n, 4, "Phase Efficiency Comparison");
	for (i = 0; i < nown; i++)
		free(own[i]);
}

/* --- writing -------------------------------------------------------------------------- */

int
phasechart_write(struct phasechart *pc, const char *dir, int fmt, double dpi,
    const char *name, void (*announce)(const char *path), struct error *err)
{
	static const struct {
		const char *file;
		void (*draw)(struct fig *, const struct phasechart *, const char *);
	} figs[] = {
		{ "phase_overview", fig_overview },
		{ "time_distributions", fig_time },
		{ "operation_frequencies", fig_freq },
		{ "performance_bottlenecks", fig_bottlenecks },
		{ "detailed_breakdowns", fig_breakdowns },
	};
	size_t i;
	int n = 0;

	for (i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		struct fig f;
		struct buf p = BUF_INIT;

		/* the branch draws no overview when the phases took no time */
		if (i == 0 && !(phase_total(&pc->ph[0]) + phase_total(&pc->ph[1]) > 0))
			continue;
		f.k = dpi / 72.0;
		if ((f.c = chart_new(fmt, FIG_W * f.k, FIG_H * f.k, dpi, err)) == NULL)
			return -1;
		figs[i].draw(&f, pc, name);
		buf_printf(&p, "%s/%s.%s", dir, figs[i].file, chart_format_name(fmt));
		if (announce != NULL)
			announce(p.p);
		if (chart_write(f.c, p.p, err) != 0) {
			buf_free(&p);
			return -1;
		}
		buf_free(&p);
		n++;
	}
	return n;
}
