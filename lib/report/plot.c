/* SPDX-License-Identifier: ISC */
/*
 * plot: draws the summary ("stacked") plot, laid out like the reference tool's
 * matplotlib figure (docs/tt-perf-report.md §20): 6x8 in at 300 dpi (1800x2400 user units),
 * one stacked bar (merged) or one per device, category palettes or the classic tab20 list,
 * segment labels on segments of at least 2 %, category brackets and vertical category
 * labels. Everything is drawn once, through a chart (chart.h), in any of its formats; the
 * SVG also gets groups by role (bar, seg with its label as title, cat, catlabel, seglabel,
 * title) through chart_svg.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "report/chart.h"
#include "report/plot.h"

#define MU	"\xce\xbc"	/* U+03BC, as the reference prints it */
#define PM	"\xc2\xb1"	/* U+00B1 PLUS-MINUS SIGN */

#define DPI		300.0
#define PT		(DPI / 72.0)	/* user units per point */
#define FIG_H		2400.0
#define AX_TOP		108.5
#define AX_BOTTOM	2286.5
#define AX_RIGHT_PAD	77.5
#define LABEL_MIN_PCT	2.0

struct rgb {
	unsigned char r, g, b;
};

/* ColorBrewer 9-class sequential schemes: the control points of matplotlib's colormaps. */
static const unsigned char cm_purples[9][3] = {
	{0xfc, 0xfb, 0xfd}, {0xef, 0xed, 0xf5}, {0xda, 0xda, 0xeb}, {0xbc, 0xbd, 0xdc},
	{0x9e, 0x9a, 0xc8}, {0x80, 0x7d, 0xba}, {0x6a, 0x51, 0xa3}, {0x54, 0x27, 0x8f},
	{0x3f, 0x00, 0x7d},
};
static const unsigned char cm_greens[9][3] = {
	{0xf7, 0xfc, 0xf5}, {0xe5, 0xf5, 0xe0}, {0xc7, 0xe9, 0xc0}, {0xa1, 0xd9, 0x9b},
	{0x74, 0xc4, 0x76}, {0x41, 0xab, 0x5d}, {0x23, 0x8b, 0x45}, {0x00, 0x6d, 0x2c},
	{0x00, 0x44, 0x1b},
};
static const unsigned char cm_oranges[9][3] = {
	{0xff, 0xf5, 0xeb}, {0xfe, 0xe6, 0xce}, {0xfd, 0xd0, 0xa2}, {0xfd, 0xae, 0x6b},
	{0xfd, 0x8d, 0x3c}, {0xf1, 0x69, 0x13}, {0xd9, 0x48, 0x01}, {0xa6, 0x36, 0x03},
	{0x7f, 0x27, 0x04},
};
static const unsigned char cm_greys[9][3] = {
	{0xff, 0xff, 0xff}, {0xf0, 0xf0, 0xf0}, {0xd9, 0xd9, 0xd9}, {0xbd, 0xbd, 0xbd},
	{0x96, 0x96, 0x96}, {0x73, 0x73, 0x73}, {0x52, 0x52, 0x52}, {0x25, 0x25, 0x25},
	{0x00, 0x00, 0x00},
};

/* tab20, tab20b, tab20c, one after the other. */
static const unsigned int tab60[60] = {
	0x1f77b4, 0xaec7e8, 0xff7f0e, 0xffbb78, 0x2ca02c, 0x98df8a, 0xd62728, 0xff9896,
	0x9467bd, 0xc5b0d5, 0x8c564b, 0xc49c94, 0xe377c2, 0xf7b6d2, 0x7f7f7f, 0xc7c7c7,
	0xbcbd22, 0xdbdb8d, 0x17becf, 0x9edae5,
	0x393b79, 0x5254a3, 0x6b6ecf, 0x9c9ede, 0x637939, 0x8ca252, 0xb5cf6b, 0xcedb9c,
	0x8c6d31, 0xbd9e39, 0xe7ba52, 0xe7cb94, 0x843c39, 0xad494a, 0xd6616b, 0xe7969c,
	0x7b4173, 0xa55194, 0xce6dbd, 0xde9ed6,
	0x3182bd, 0x6baed6, 0x9ecae1, 0xc6dbef, 0xe6550d, 0xfd8d3c, 0xfdae6b, 0xfdd0a2,
	0x31a354, 0x74c476, 0xa1d99b, 0xc7e9c0, 0x756bb1, 0x9e9ac8, 0xbcbddc, 0xdadaeb,
	0x636363, 0x969696, 0xbdbdbd, 0xd9d9d9,
};

#define NPAL	12	/* colours per category palette */

struct catpal {
	const char *name;
	const unsigned char (*cm)[3];
	int start;	/* first step, in hundredths: 100 = 1.00 */
};

/* The fixed category order of the plot; also the categories that have a palette. */
static const struct catpal catpals[] = {
	{"Compute", cm_purples, 100},
	{"TM", cm_greens, 100},
	{"DM", cm_oranges, 80},
	{"Other", cm_greys, 100},
};
#define NCATPAL (sizeof(catpals) / sizeof(catpals[0]))

/*
 * matplotlib's cmap(x): a 256-entry lookup table sampled from the linear segments,
 * entry int(x * 256) (clipped), converted to 8 bits by rounding.
 */
static struct rgb
cmap_at(const unsigned char cm[9][3], double x)
{
	struct rgb c;
	unsigned char *out[3] = {&c.r, &c.g, &c.b};
	long i = (long)(x * 256.0);
	double pos, seg, f;
	int k, ch;

	if (i < 0)
		i = 0;
	if (i > 255)
		i = 255;
	pos = (double)i / 255.0;
	seg = pos * 8.0;
	k = (int)seg;
	if (k > 7)
		k = 7;
	f = seg - k;
	for (ch = 0; ch < 3; ch++) {
		double v = cm[k][ch] + (cm[k + 1][ch] - cm[k][ch]) * f;
		*out[ch] = (unsigned char)lround(v);
	}
	return c;
}

static struct rgb
tab_colour(size_t i)
{
	unsigned int v = tab60[i % 60];
	struct rgb c = {(unsigned char)(v >> 16), (unsigned char)(v >> 8), (unsigned char)v};

	return c;
}

static int
catpal_index(const char *cat)
{
	size_t i;

	for (i = 0; i < NCATPAL; i++)
		if (cat != NULL && strcmp(cat, catpals[i].name) == 0)
			return (int)i;
	return -1;
}

static struct rgb
palette_colour(int pal, size_t step)
{
	double x = (catpals[pal].start - 5.0 * (double)step) / 100.0;

	return cmap_at(catpals[pal].cm, x);
}

/* One segment as drawn. */
struct dseg {
	const struct plot_seg *s;
	size_t idx;		/* position in the caller's array */
	int rank;		/* category rank: palette order, then first appearance */
	struct rgb col;
	double y0, y1;		/* data coordinates (us) */
};

static int
dseg_cmp(const void *a, const void *b)
{
	const struct dseg *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->s->time_us != y->s->time_us)
		return x->s->time_us > y->s->time_us ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static const char *
seg_cat(const struct plot_seg *s)
{
	return s->category != NULL ? s->category : "Other";
}

/* Order and colour the segments of one bar; returns the bar total (us). */
static double
layout_bar(const struct plot_bar *bar, struct dseg *d, int flags)
{
	size_t i, j, k, nother = 0;
	double y = 0;

	for (i = 0; i < bar->nsegs; i++) {
		const char *cat = seg_cat(&bar->segs[i]);
		int p = catpal_index(cat);

		d[i].s = &bar->segs[i];
		d[i].idx = i;
		if (p >= 0) {
			d[i].rank = p;
		} else {
			/* unknown categories after the palette ones, in order of appearance */
			d[i].rank = -1;
			for (j = 0; j < i; j++)
				if (catpal_index(seg_cat(&bar->segs[j])) < 0 &&
				    strcmp(seg_cat(&bar->segs[j]), cat) == 0) {
					d[i].rank = d[j].rank;
					break;
				}
			if (d[i].rank < 0)
				d[i].rank = (int)(NCATPAL + nother++);
		}
	}
	if (!(flags & PLOT_CLASSIC))
		qsort(d, bar->nsegs, sizeof(*d), dseg_cmp);

	for (i = 0; i < bar->nsegs; i++) {
		int p = catpal_index(seg_cat(d[i].s));

		if (flags & PLOT_CLASSIC) {
			d[i].col = tab_colour(i);
		} else {
			/* k = index of this segment within its category */
			for (k = 0, j = i; j > 0 && d[j - 1].rank == d[i].rank; j--)
				k++;
			if (flags & PLOT_CATEGORY) {
				if (p >= 0) {
					d[i].col = palette_colour(p, 0);
				} else {
					d[i].col = tab_colour((size_t)d[i].rank - NCATPAL);
				}
			} else if (p >= 0 && k < NPAL) {
				d[i].col = palette_colour(p, k);
			} else {
				d[i].col = tab_colour(p >= 0 ? k - NPAL : k);
			}
		}
		d[i].y0 = y;
		y += d[i].s->time_us > 0 ? d[i].s->time_us : 0;
		d[i].y1 = y;
	}
	return y;
}

static long
rgb_of(struct rgb c)
{
	return (long)c.r << 16 | (long)c.g << 8 | (long)c.b;
}

/* Python's format of a float with .1f ("nan" for NaN, as the reference shows it). */
static void
fmt1(char *buf, size_t n, int has, double v)
{
	if (!has || isnan(v))
		snprintf(buf, n, "nan");
	else
		snprintf(buf, n, "%.1f", v);
}

/*
 * Text lines centred on (x, y) (user units), font size in points, in an SVG group of
 * class cls (none when NULL). Lines are separated by '\n'; line spacing 1.2 as
 * matplotlib.
 */
static void
put_text(struct chart *c, double x, double y, double size, const char *cls, int bold,
    long rgb, const char *text)
{
	const char *p, *nl;
	size_t nlines = 1, i;
	double fs = size * PT, lh = 1.2 * fs;

	for (p = text; *p != '\0'; p++)
		if (*p == '\n')
			nlines++;
	if (cls != NULL)
		chart_svg(c, "<g class=\"%s\">\n", cls);
	for (p = text, i = 0; i < nlines; i++, p = nl + 1) {
		double base = y + ((double)i - (nlines - 1) / 2.0) * lh + 0.36 * fs;
		char *line;

		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		line = xstrndup(p, (size_t)(nl - p));
		chart_text(c, x, base, fs, CHART_MIDDLE, bold, rgb, line);
		free(line);
		if (*nl == '\0')
			break;
	}
	if (cls != NULL)
		chart_svg(c, "</g>\n");
}

/* Segment label text (caller frees). */
static char *
seg_label(const struct plot_seg *s, int merged)
{
	char *t = NULL;
	const char *label = s->label != NULL ? s->label : "";
	int n;

	if (!merged) {
		n = asprintf(&t, "%.1f %%\n%s\n%.0f " MU "s", s->pct, label, s->time_us);
	} else if (s->has_flops) {
		char mn[32], mx[32], mean[32], sd[32], wm[32];

		fmt1(mn, sizeof(mn), 1, s->fmin);
		fmt1(mx, sizeof(mx), 1, s->fmax);
		fmt1(mean, sizeof(mean), 1, s->fmean);
		fmt1(sd, sizeof(sd), s->has_std, s->fstd);
		fmt1(wm, sizeof(wm), s->has_wmean, s->fwmean);
		if (s->has_wmean)
			n = asprintf(&t, "(%.1f %%) %s total=%.1f " MU "s; %ld ops\n"
			    " Util [%s - %s] weighted_mean=%s%% (mean=%s " PM " %s%%)",
			    s->pct, label, s->time_us, s->count, mn, mx, wm, mean, sd);
		else
			n = asprintf(&t, "(%.1f %%) %s total=%.1f " MU "s; %ld ops\n"
			    " Util [%s - %s] %s " PM " %s %%",
			    s->pct, label, s->time_us, s->count, mn, mx, mean, sd);
	} else {
		n = asprintf(&t, "(%.1f %%) %s total=%.1f " MU "s; %ld ops",
		    s->pct, label, s->time_us, s->count);
	}
	if (n < 0)
		die(EXIT_DATA, "out of memory");
	return t;
}

/* matplotlib-like tick step: at most 9 intervals, steps 1, 2, 2.5, 5, 10. */
static double
tick_step(double vmax, int *decimals)
{
	static const double steps[] = {1, 2, 2.5, 5, 10};
	double raw = vmax / 9.0, mag, st = 1;
	size_t i;

	if (!(raw > 0))
		raw = 1;
	mag = pow(10.0, floor(log10(raw)));
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		st = steps[i] * mag;
		if (st >= raw * (1 - 1e-9))
			break;
	}
	*decimals = 0;
	for (double v = st; *decimals < 10 && fabs(v - round(v)) > 1e-9 * fmax(1, v); v *= 10)
		(*decimals)++;
	return st;
}

/* One bar as drawn: its segments laid out, its height. */
struct dbar {
	const struct plot_bar *bar;
	struct dseg *segs;	/* bar->nsegs, in drawing order */
	double total;		/* us */
};

/* The axes: where data coordinates land in user units, and the y ticks. */
struct frame {
	int merged;			/* one bar, devices merged */
	double fig_w;
	double xmin, xmax, ymax;	/* the data range the axes show */
	double ax_l, ax_r, ax_t, ax_b;	/* the axes box */
	double step;			/* y tick step (us) */
	int dec;			/* decimals of the y tick labels */
	size_t maxchars;		/* the widest y tick label */
};

static double
xpx(const struct frame *f, double x)
{
	return f->ax_l + (x - f->xmin) / (f->xmax - f->xmin) * (f->ax_r - f->ax_l);
}

static double
ypx(const struct frame *f, double y)
{
	return f->ax_b - y / f->ymax * (f->ax_b - f->ax_t);
}

/*
 * The axes of nbars bars, the tallest ymax (us) high: matplotlib's x range for bars of
 * width 0.5 at 0, 1, ... (or one at 1.0), 5 % headroom above the tallest, and a left
 * margin that grows with the widest y tick label, as the tight layout makes it.
 */
static void
frame_init(struct frame *f, size_t nbars, int merged, double ymax)
{
	char buf[64];

	f->merged = merged;
	f->fig_w = merged || nbars <= 3 ? 1800.0 : 600.0 * (double)nbars;
	if (merged) {
		f->xmin = 0.7;
		f->xmax = 1.3;
	} else {
		double n = nbars ? (double)nbars : 1;

		f->xmin = -0.25 - 0.05 * (n - 0.5);
		f->xmax = n - 0.75 + 0.05 * (n - 0.5);
	}
	if (!(ymax > 0))
		ymax = 1;
	f->ymax = ymax * 1.05;
	f->step = tick_step(f->ymax, &f->dec);
	f->maxchars = 1;
	for (double v = 0; v <= f->ymax; v += f->step) {
		size_t len = (size_t)snprintf(buf, sizeof(buf), "%.*f", f->dec, v);

		if (len > f->maxchars)
			f->maxchars = len;
	}
	f->ax_l = 131.0 + 26.5 * (double)f->maxchars;
	f->ax_r = f->fig_w - AX_RIGHT_PAD;
	f->ax_t = AX_TOP;
	f->ax_b = AX_BOTTOM;
}

/* The segments' rectangles, between x0 and x1, each with its label as tooltip. */
static void
put_segs(struct chart *c, const struct frame *f, const struct dbar *d, double x0,
    double x1)
{
	size_t i;

	for (i = 0; i < d->bar->nsegs; i++) {
		const struct dseg *g = &d->segs[i];
		double ya = ypx(f, g->y1), yb = ypx(f, g->y0);

		chart_svg(c, "<g class=\"seg\"><title>");
		chart_svg_text(c, g->s->label != NULL ? g->s->label : "");
		chart_svg(c, "</title>\n");
		chart_rect(c, x0, ya, x1 - x0, yb - ya, rgb_of(g->col), CHART_NONE, 0, 1);
		chart_svg(c, "</g>\n");
	}
}

/*
 * One category, the segments from up to (not including) to: a bracket around them
 * (not when each segment is a category) and its name and share, rotated, left of the
 * bar.
 */
static void
put_category(struct chart *c, const struct frame *f, const struct dseg *from,
    const struct dseg *to, double x0, double x1, int flags)
{
	const struct dseg *g;
	double pct = 0, ylo = from->y0, yhi = to[-1].y1, cy, tx = x0 - 28;
	char *cl;

	for (g = from; g < to; g++)
		pct += g->s->pct;
	if (!(flags & PLOT_CATEGORY)) {
		chart_svg(c, "<g class=\"cat\">\n");
		chart_rect(c, x0, ypx(f, yhi), x1 - x0, ypx(f, ylo) - ypx(f, yhi),
		    CHART_NONE, 0x000000, 2 * PT, 0.8);
		chart_svg(c, "</g>\n");
	}
	if (asprintf(&cl, "%s(%.1f%%)", seg_cat(from->s), pct) < 0)
		die(EXIT_DATA, "out of memory");
	cy = ypx(f, (ylo + yhi) / 2);
	chart_rotate(c, -90, tx, cy);
	put_text(c, tx, cy, 6, "catlabel", 1, 0x000000, cl);
	chart_unrotate(c);
	free(cl);
}

/* The labels of the segments of at least LABEL_MIN_PCT of their bar, centred. */
static void
put_seg_labels(struct chart *c, const struct frame *f, const struct dbar *d, double x0,
    double x1)
{
	size_t i;

	for (i = 0; i < d->bar->nsegs; i++) {
		const struct dseg *g = &d->segs[i];
		double pct = d->total > 0 ? g->s->time_us / d->total * 100 : 0;
		char *t;

		if (!(pct >= LABEL_MIN_PCT))
			continue;
		t = seg_label(g->s, f->merged);
		put_text(c, (x0 + x1) / 2, ypx(f, (g->y0 + g->y1) / 2), 6, "seglabel", 0,
		    0xffffff, t);
		free(t);
	}
}

/* One bar centred on x = cx: segments, category brackets and labels, segment labels. */
static void
put_bar(struct chart *c, const struct frame *f, const struct dbar *d, double cx,
    int flags)
{
	double x0 = xpx(f, cx - 0.25), x1 = xpx(f, cx + 0.25);
	size_t i, j, n = d->bar->nsegs;

	chart_svg(c, "<g class=\"bar\" data-device=\"%ld\" shape-rendering=\"crispEdges\">\n",
	    d->bar->device);
	put_segs(c, f, d, x0, x1);
	/* the segments of a category are adjacent (layout_bar), except in classic mode */
	if (!(flags & PLOT_CLASSIC)) {
		for (i = 0; i < n; i = j) {
			for (j = i; j < n && d->segs[j].rank == d->segs[i].rank; j++)
				;
			put_category(c, f, &d->segs[i], &d->segs[j], x0, x1, flags);
		}
	}
	put_seg_labels(c, f, d, x0, x1);
	chart_svg(c, "</g>\n");
}

/* A tick mark, 0.8 pt wide as matplotlib's. */
static void
put_tick(struct chart *c, double x1, double y1, double x2, double y2)
{
	chart_line(c, x1, y1, x2, y2, 0x000000, 0.8 * PT, 0);
}

/* The axes' frame and the y ticks with their labels. */
static void
put_yaxis(struct chart *c, const struct frame *f)
{
	char buf[64];

	chart_rect(c, f->ax_l, f->ax_t, f->ax_r - f->ax_l, f->ax_b - f->ax_t, CHART_NONE,
	    0x000000, 0.8 * PT, 1);
	for (long k = 0; (double)k * f->step <= f->ymax * (1 + 1e-12); k++) {
		double v = (double)k * f->step, py = ypx(f, v);

		snprintf(buf, sizeof(buf), "%.*f", f->dec, v);
		put_tick(c, f->ax_l - 3.5 * PT, py, f->ax_l, py);
		chart_text(c, f->ax_l - 7 * PT, py + 0.36 * 10 * PT, 10 * PT, CHART_END, 0,
		    0x000000, buf);
	}
}

/* An x tick at px and its label under it. */
static void
put_xtick(struct chart *c, const struct frame *f, double px, const char *label)
{
	put_tick(c, px, f->ax_b, px, f->ax_b + 3.5 * PT);
	chart_text(c, px, f->ax_b + 7 * PT + 0.75 * 10 * PT, 10 * PT, CHART_MIDDLE, 0,
	    0x000000, label);
}

/* The x ticks: matplotlib's 0.7 ... 1.3 around the one merged bar, else "Dev N". */
static void
put_xaxis(struct chart *c, const struct frame *f, const struct plot_bar *bars,
    size_t nbars)
{
	char buf[64];
	size_t b;

	if (f->merged) {
		for (int k = 7; k <= 13; k++) {
			snprintf(buf, sizeof(buf), "%.1f", k / 10.0);
			put_xtick(c, f, xpx(f, k / 10.0), buf);
		}
	} else {
		for (b = 0; b < nbars; b++) {
			snprintf(buf, sizeof(buf), "Dev %ld", bars[b].device);
			put_xtick(c, f, xpx(f, (double)b), buf);
		}
	}
}

/* The title above the axes and the y label left of the tick labels. */
static void
put_titles(struct chart *c, const struct frame *f, double sum_total)
{
	double lx = f->ax_l - 7 * PT - 26.5 * (double)f->maxchars - 4 * PT - 0.36 * 10 * PT;
	double ly = (f->ax_t + f->ax_b) / 2;
	char *t;

	if (f->merged) {
		if (asprintf(&t, "Stacked Device Time (Total: %.1f " MU "s)", sum_total) < 0)
			die(EXIT_DATA, "out of memory");
	} else {
		t = xstrdup("Stacked Device Time per Device (100% per device)");
	}
	chart_svg(c, "<g class=\"title\">\n");
	chart_text(c, (f->ax_l + f->ax_r) / 2, f->ax_t - 6 * PT - 0.25 * 12 * PT, 12 * PT,
	    CHART_MIDDLE, 0, 0x000000, t);
	chart_svg(c, "</g>\n");
	free(t);
	chart_rotate(c, -90, lx, ly);
	chart_text(c, lx, ly, 10 * PT, CHART_MIDDLE, 0, 0x000000, "Device Time [" MU "s]");
	chart_unrotate(c);
}

/* The plot as a chart of the figure's size in fmt; NULL with err set (the font). */
static struct chart *
plot_draw(const struct plot_bar *bars, size_t nbars, int flags, int fmt,
    struct error *err)
{
	struct chart *c;
	struct frame f;
	struct dbar *d;
	double ymax = 0, sum_total = 0;
	size_t b;

	d = xcalloc(nbars ? nbars : 1, sizeof(*d));
	for (b = 0; b < nbars; b++) {
		d[b].bar = &bars[b];
		d[b].segs = xcalloc(bars[b].nsegs ? bars[b].nsegs : 1, sizeof(*d[b].segs));
		d[b].total = layout_bar(&bars[b], d[b].segs, flags);
		if (d[b].total > ymax)
			ymax = d[b].total;
		sum_total += d[b].total;
	}
	frame_init(&f, nbars, nbars == 1 && bars[0].device < 0, ymax);
	if ((c = chart_new(fmt, f.fig_w, FIG_H, DPI, err)) != NULL) {
		for (b = 0; b < nbars; b++)
			put_bar(c, &f, &d[b], f.merged ? 1.0 : (double)b, flags);
		put_yaxis(c, &f);
		put_xaxis(c, &f, bars, nbars);
		put_titles(c, &f, sum_total);
	}
	for (b = 0; b < nbars; b++)
		free(d[b].segs);
	free(d);
	return c;
}

int
plot_svg_fp(FILE *fp, const struct plot_bar *bars, size_t nbars, int flags)
{
	struct error err = ERROR_INIT;
	struct chart *c = plot_draw(bars, nbars, flags, CHART_SVG, &err);

	if (c == NULL)
		error_die(&err);
	return chart_write_fp(c, fp);
}

int
plot_chart(const char *path, const struct plot_bar *bars, size_t nbars, int flags,
    int fmt)
{
	struct error err = ERROR_INIT;
	struct chart *c = plot_draw(bars, nbars, flags, fmt, &err);

	if (c == NULL)
		error_die(&err);	/* the font */
	if (chart_write(c, path, &err) != 0) {
		int saved = errno != 0 ? errno : EIO;

		/* PNG and PDF: cairo's or the file's message; SVG: errno for the caller */
		if (fmt != CHART_SVG)
			error_die(&err);
		error_free(&err);
		errno = saved;
		return -1;
	}
	return 0;
}

int
plot_svg(const char *path, const struct plot_bar *bars, size_t nbars, int flags)
{
	return plot_chart(path, bars, nbars, flags, CHART_SVG);
}
