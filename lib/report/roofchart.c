/* SPDX-License-Identifier: ISC */
/*
 * roofchart: the roofline chart of ttp-table --plot roofline (chart.h). Each op that
 * ttp-roofline gave FLOPs and bytes, and that has a device time, is a point at its
 * arithmetic intensity (FLOP/byte) and achieved throughput (TFLOP/s), its area growing
 * with its time, its colour its category; log-log axes in whole decades; the memory roof
 * (DRAM bandwidth) and one compute roof per math fidelity (TT: per core times the chip's
 * worker cores) or compute spec (GPU: the peak ttp-roofline wrote) of the hardware the
 * records name; the top ops by time numbered, and listed beside the legend.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/hwspec.h"
#include "core/rec.h"
#include "report/chart.h"

#define MU	"\xce\xbc"
#define ELLIPSIS "\xe2\x80\xa6"

/* matplotlib's tab10, the categories' colours in order of their time */
static const long tab10[10] = {
	0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
	0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf,
};

struct rpoint {
	double	 x, y;		/* FLOP/byte, TFLOP/s */
	double	 ns;
	char	*label;
	size_t	 cat;
	long	 device;
	size_t	 seq;
};

struct rcat {
	char	*name;
	double	 ns;
	long	 colour;
};

#define MAXROOFS 8

struct roof {
	char	 name[32];	/* "HiFi4", "matrix_bf16" */
	double	 tflops;
};

struct roofchart {
	long		 want_device;
	struct rpoint	*pts;
	size_t		 npts, cap;
	struct rcat	*cats;
	size_t		 ncats, catcap;
	char		 hw[HWSPEC_NAMESZ];
	char		*hw_other;	/* a second hardware name, if any */
	int		 gpu;
	long		 hw_cores;
	unsigned	 fids;		/* TT: the math fidelities of the ops, bits */
	double		 bw_gbps;	/* from a memory-roofed op; 0: the spec's */
	struct roof	 roofs[MAXROOFS];
	size_t		 nroofs;
	long		 devices[64];
	size_t		 ndevices;
};

struct roofchart *
roofchart_new(long device)
{
	struct roofchart *rc = xcalloc(1, sizeof(*rc));

	rc->want_device = device;
	return rc;
}

void
roofchart_free(struct roofchart *rc)
{
	size_t i;

	if (rc == NULL)
		return;
	for (i = 0; i < rc->npts; i++)
		free(rc->pts[i].label);
	for (i = 0; i < rc->ncats; i++)
		free(rc->cats[i].name);
	free(rc->pts);
	free(rc->cats);
	free(rc->hw_other);
	free(rc);
}

size_t
roofchart_count(const struct roofchart *rc)
{
	return rc->npts;
}

static size_t
cat_index(struct roofchart *rc, const char *name)
{
	size_t i;

	for (i = 0; i < rc->ncats; i++)
		if (strcmp(rc->cats[i].name, name) == 0)
			return i;
	rc->cats = xgrow(rc->cats, &rc->catcap, rc->ncats + 1, sizeof(*rc->cats));
	rc->cats[rc->ncats].name = xstrdup(name);
	rc->cats[rc->ncats].ns = 0;
	rc->cats[rc->ncats].colour = 0;
	return rc->ncats++;
}

static void
add_roof(struct roofchart *rc, const char *name, double tflops)
{
	size_t i;

	if (!(tflops > 0))
		return;
	for (i = 0; i < rc->nroofs; i++)
		if (strcmp(rc->roofs[i].name, name) == 0)
			return;
	if (rc->nroofs == MAXROOFS)
		return;
	snprintf(rc->roofs[rc->nroofs].name, sizeof(rc->roofs[0].name), "%s", name);
	rc->roofs[rc->nroofs++].tflops = tflops;
}

static void
add_device(struct roofchart *rc, long dev)
{
	size_t i;

	for (i = 0; i < rc->ndevices; i++)
		if (rc->devices[i] == dev)
			return;
	if (rc->ndevices < sizeof(rc->devices) / sizeof(rc->devices[0]))
		rc->devices[rc->ndevices++] = dev;
}

int
roofchart_add(struct roofchart *rc, struct rec *r)
{
	const char *kind = rec_str(r, "kind", NULL), *hw, *label, *cat, *roof, *trace;
	const char *spec, *fid;
	double flops = 0, bytes = 0, ns = 0, x, roof_tf = 0, peak = 0;
	long long dev = -1, cores = 0;
	struct rpoint *p;

	if (kind == NULL || strcmp(kind, "op") != 0)
		return 0;
	/* the time: a PyTorch op's perf model counts the GPU time of its subtree (its own
	 * kernels or its children's), as TraceLens; a TT op's is its device time */
	if (!rec_num(r, "flops", &flops) || !rec_num(r, "bytes", &bytes) ||
	    !(flops > 0) || !(bytes > 0))
		return 0;
	if (!(rec_str(r, "perf_model", NULL) != NULL && rec_num(r, "subtree_ns", &ns)) &&
	    !rec_num(r, "device_ns", &ns))
		return 0;
	if (!(ns > 0))
		return 0;
	if ((hw = rec_str(r, "hw", NULL)) == NULL)
		return 0;
	(void)rec_int(r, "device", &dev);
	if (rc->want_device >= 0 && dev >= 0 && dev != rc->want_device)
		return 0;
	if (!rec_num(r, "intensity", &x) || !(x > 0))
		x = flops / bytes;
	if (rec_bad(r) != NULL)
		return 0;

	/* everything read before anything is kept: a bad key leaves the chart as it was */
	roof = rec_str(r, "roof", NULL);
	if (!rec_num(r, "roof_tflops", &roof_tf))
		roof_tf = 0;
	spec = rec_str(r, "compute_spec", NULL);
	if (!rec_num(r, "peak_tflops", &peak))
		peak = 0;
	fid = rec_str(r, "fidelity", NULL);
	if (!rec_int(r, "hw_cores", &cores))
		cores = 0;
	label = rec_str(r, "label", NULL);
	if (label == NULL)
		label = rec_str(r, "op", NULL);
	cat = rec_str(r, "category", NULL);
	trace = rec_str(r, "trace", NULL);
	if (rec_bad(r) != NULL)
		return 0;

	/* the hardware: the first op's; another name is an error at the end */
	if (rc->hw[0] == '\0') {
		snprintf(rc->hw, sizeof(rc->hw), "%s", hw);
		rc->gpu = trace != NULL && strcmp(trace, "ttmetal") != 0;
	} else if (strcmp(rc->hw, hw) != 0 && rc->hw_other == NULL) {
		rc->hw_other = xstrdup(hw);
	}
	/* the bandwidth as ttp-roofline used it (a --spec file's too): a memory-roofed op's
	 * attainable TFLOP/s over its intensity */
	if (rc->bw_gbps == 0 && roof != NULL && strcmp(roof, "memory") == 0 && roof_tf > 0)
		rc->bw_gbps = roof_tf / x * 1000.0;
	if (rc->gpu) {
		if (spec != NULL)
			add_roof(rc, spec, peak);
	} else {
		const struct hwspec *hs = hwspec_find(hw);
		int f = fid != NULL ? hwspec_fidelity(fid) : -1;

		if (cores > rc->hw_cores)
			rc->hw_cores = (long)cores;
		/* as ttp-roofline: HiFi4 when the op has no fidelity the chip models */
		if (hs != NULL && (f < 0 || hwspec_tflops(hs, f) <= 0))
			f = FID_HIFI4;
		if (f >= 0)
			rc->fids |= 1u << f;
	}

	rc->pts = xgrow(rc->pts, &rc->cap, rc->npts + 1, sizeof(*rc->pts));
	p = &rc->pts[rc->npts];
	p->x = x;
	p->y = flops / ns / 1000.0;
	p->ns = ns;
	p->label = xstrdup(label != NULL ? label : "?");
	p->cat = cat_index(rc, cat != NULL && *cat != '\0' ? cat : "Other");
	p->device = (long)dev;
	p->seq = rc->npts++;
	rc->cats[p->cat].ns += ns;
	if (dev >= 0)
		add_device(rc, (long)dev);
	return 1;
}

/* --- drawing ------------------------------------------------------------------------- */

#define W	1800.0
#define H	1050.0
#define DPI	150.0
#define PT	(DPI / 72.0)
#define AX_L	135.0
#define AX_R	(W - 660.0)
#define AX_T	80.0
#define AX_B	(H - 105.0)

struct axes {
	int	 xlo, xhi, ylo, yhi;	/* decades */
};

static double
px(const struct axes *a, double x)
{
	return AX_L + (log10(x) - a->xlo) / (a->xhi - a->xlo) * (AX_R - AX_L);
}

static double
py(const struct axes *a, double y)
{
	return AX_B - (log10(y) - a->ylo) / (a->yhi - a->ylo) * (AX_B - AX_T);
}

static void
decade_label(char *buf, size_t n, int k)
{
	if (k >= 0 && k <= 5)
		snprintf(buf, n, "%.0f", pow(10, k));
	else if (k < 0 && k >= -3)
		snprintf(buf, n, "%.*f", -k, pow(10, k));
	else
		snprintf(buf, n, "1e%d", k);
}

/* A number of 3 significant digits at most, without trailing zeros (locale-free). */
static void
num3(char *buf, size_t n, double v)
{
	if (v >= 100)
		snprintf(buf, n, "%.0f", v);
	else if (v >= 10)
		snprintf(buf, n, "%.1f", v);
	else
		snprintf(buf, n, "%.2f", v);
	if (strchr(buf, '.') != NULL) {
		size_t l = strlen(buf);

		while (buf[l - 1] == '0')
			buf[--l] = '\0';
		if (buf[l - 1] == '.')
			buf[l - 1] = '\0';
	}
}

static int
by_ns_desc(const void *a, const void *b)
{
	const struct rpoint *x = *(const struct rpoint *const *)a;
	const struct rpoint *y = *(const struct rpoint *const *)b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
cat_by_ns(const void *a, const void *b)
{
	const struct rcat *x = *(const struct rcat *const *)a;
	const struct rcat *y = *(const struct rcat *const *)b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int
roof_by_tflops(const void *a, const void *b)
{
	const struct roof *x = a, *y = b;

	if (x->tflops != y->tflops)
		return x->tflops > y->tflops ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Text cut to fit width, with an ellipsis (caller frees). */
static char *
fit_text(struct chart *c, double size, const char *text, double width)
{
	size_t n = strlen(text);
	char *t = xstrdup(text);

	while (n > 0 && chart_text_width(c, size, 0, t) > width) {
		do
			n--;
		while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80);
		t = xrealloc(t, n + sizeof(ELLIPSIS));
		memcpy(t, text, n);
		strcpy(t + n, ELLIPSIS);
	}
	return t;
}

static void
draw_axes(struct chart *c, const struct axes *a)
{
	char buf[32];
	int k;

	for (k = a->xlo; k <= a->xhi; k++) {
		double x = AX_L + (double)(k - a->xlo) / (a->xhi - a->xlo) * (AX_R - AX_L);

		if (k > a->xlo && k < a->xhi)
			chart_line(c, x, AX_T, x, AX_B, 0xdddddd, 0.8 * PT, 0);
		chart_line(c, x, AX_B, x, AX_B + 3.5 * PT, 0x000000, 0.8 * PT, 0);
		decade_label(buf, sizeof(buf), k);
		chart_text(c, x, AX_B + 7 * PT + 0.75 * 10 * PT, 10 * PT, CHART_MIDDLE, 0, 0,
		    buf);
	}
	for (k = a->ylo; k <= a->yhi; k++) {
		double y = AX_B - (double)(k - a->ylo) / (a->yhi - a->ylo) * (AX_B - AX_T);

		if (k > a->ylo && k < a->yhi)
			chart_line(c, AX_L, y, AX_R, y, 0xdddddd, 0.8 * PT, 0);
		chart_line(c, AX_L - 3.5 * PT, y, AX_L, y, 0x000000, 0.8 * PT, 0);
		decade_label(buf, sizeof(buf), k);
		chart_text(c, AX_L - 7 * PT, y + 0.36 * 10 * PT, 10 * PT, CHART_END, 0, 0, buf);
	}
	chart_text(c, (AX_L + AX_R) / 2, AX_B + 7 * PT + 0.75 * 10 * PT + 20 * PT, 11 * PT,
	    CHART_MIDDLE, 0, 0, "Arithmetic intensity [FLOP/byte]");
	chart_rotate(c, -90, 30, (AX_T + AX_B) / 2);
	chart_text(c, 30, (AX_T + AX_B) / 2, 11 * PT, CHART_MIDDLE, 0, 0,
	    "Achieved throughput [TFLOP/s]");
	chart_unrotate(c);
}

/* The memory roof up to the highest ridge, each compute roof from its ridge on, and
 * their names and figures. */
static void
draw_roofs(struct chart *c, const struct axes *a, double bw, const struct roof *roofs,
    size_t nroofs)
{
	double x0 = pow(10, a->xlo), x1 = pow(10, a->xhi), ridge, ax, ay, bx, by;
	char buf[512], num[32];
	size_t i;

	chart_clip(c, AX_L, AX_T, AX_R - AX_L, AX_B - AX_T);
	ridge = nroofs > 0 ? roofs[0].tflops * 1000.0 / bw : x1;
	ax = px(a, x0), ay = py(a, bw * x0 / 1000.0);
	bx = px(a, ridge), by = py(a, bw * ridge / 1000.0);
	chart_line(c, ax, ay, bx, by, 0x000000, 1.5 * PT, 0);
	for (i = 0; i < nroofs; i++) {
		double r = roofs[i].tflops * 1000.0 / bw, y = py(a, roofs[i].tflops);

		chart_line(c, px(a, r), y, px(a, x1), y, 0x000000, (i == 0 ? 1.5 : 1.0) * PT,
		    i == 0 ? 0 : 4 * PT);
	}
	chart_unclip(c);
	for (i = 0; i < nroofs; i++) {
		double y = py(a, roofs[i].tflops);

		num3(num, sizeof(num), roofs[i].tflops);
		snprintf(buf, sizeof(buf), "%s %s TFLOP/s", roofs[i].name, num);
		/* the highest above its line, the others under theirs */
		if (i > 0)
			chart_text(c, AX_R - 5 * PT, y + 12 * PT, 9 * PT, CHART_END, 0, 0, buf);
		else if (y - 4 * PT > AX_T + 8 * PT)
			chart_text(c, AX_R - 5 * PT, y - 4 * PT, 9 * PT, CHART_END, 0, 0, buf);
	}
	/* the memory roof's name along it, where it enters the axes */
	{
		double ex = ax, ey = ay, ang = atan2(by - ay, bx - ax) * 180.0 / M_PI;

		if (ey > AX_B) {	/* enters through the bottom */
			double t = (ey - AX_B) / (ey - by);

			ex = ax + t * (bx - ax);
			ey = AX_B;
		}
		num3(num, sizeof(num), bw);
		snprintf(buf, sizeof(buf), "DRAM %s GB/s", num);
		ex += 30 * PT * cos(ang * M_PI / 180.0);
		ey += 30 * PT * sin(ang * M_PI / 180.0);
		chart_rotate(c, round(ang), ex, ey);
		chart_text(c, ex, ey - 5 * PT, 9 * PT, CHART_START, 0, 0, buf);
		chart_unrotate(c);
	}
}

static void
draw_points(struct chart *c, const struct axes *a, struct rpoint **byns, size_t n,
    const struct rcat *cats, size_t ntop, double maxns)
{
	char buf[128];
	size_t i;

	chart_clip(c, AX_L, AX_T, AX_R - AX_L, AX_B - AX_T);
	/* the longest on top */
	for (i = n; i-- > 0;) {
		const struct rpoint *p = byns[i];
		double r = (3 + 9 * sqrt(p->ns / maxns)) * DPI / 100.0;

		chart_circle(c, px(a, p->x), py(a, p->y), r, cats[p->cat].colour, 0.7,
		    0xffffff, 0.5 * PT);
	}
	/* the numbers of points that fall on one spot (an op on each device) as one
	 * label: "1,2" */
	for (i = 0; i < n && i < ntop; i++) {
		const struct rpoint *p = byns[i];
		double r = (3 + 9 * sqrt(p->ns / maxns)) * DPI / 100.0, x = px(a, p->x);
		double y = py(a, p->y);
		size_t j, k, len;

		for (j = 0; j < i; j++)
			if (fabs(px(a, byns[j]->x) - x) < 4 && fabs(py(a, byns[j]->y) - y) < 4)
				break;
		if (j < i)
			continue;	/* labelled with an earlier one */
		len = (size_t)snprintf(buf, sizeof(buf), "%zu", i + 1);
		for (k = i + 1; k < n && k < ntop && len < sizeof(buf); k++)
			if (fabs(px(a, byns[k]->x) - x) < 4 && fabs(py(a, byns[k]->y) - y) < 4)
				len += (size_t)snprintf(buf + len, sizeof(buf) - len, ",%zu",
				    k + 1);
		chart_text(c, x + r + 2 * PT, y - r * 0.5, 8 * PT, CHART_START, 1, 0, buf);
	}
	chart_unclip(c);
}

/* The categories' colours, then the top ops by time with their numbers. */
static void
draw_legend(struct chart *c, struct rcat **order, size_t ncats,
    struct rpoint **byns, size_t n, size_t ntop, double total_ns)
{
	double x = AX_R + 20 * PT, y = AX_T + 10 * PT, wmax = W - x - 8 * PT;
	char buf[512], *t;
	size_t i;

	chart_text(c, x, y, 10 * PT, CHART_START, 1, 0, "Category (share of time)");
	y += 16 * PT;
	for (i = 0; i < ncats && i < 12; i++) {
		chart_circle(c, x + 5 * PT, y - 3.5 * PT, 4.5 * PT, order[i]->colour, 0.7,
		    CHART_NONE, 0);
		snprintf(buf, sizeof(buf), "%s (%.1f %%)", order[i]->name,
		    total_ns > 0 ? order[i]->ns / total_ns * 100 : 0);
		t = fit_text(c, 9 * PT, buf, wmax - 14 * PT);
		chart_text(c, x + 14 * PT, y, 9 * PT, CHART_START, 0, 0, t);
		free(t);
		y += 14 * PT;
	}
	if (ncats > 12) {
		snprintf(buf, sizeof(buf), "%zu more", ncats - 12);
		chart_text(c, x + 14 * PT, y, 9 * PT, CHART_START, 0, 0, buf);
		y += 14 * PT;
	}
	if (ntop == 0 || n == 0)
		return;
	y += 10 * PT;
	chart_text(c, x, y, 10 * PT, CHART_START, 1, 0, "Top ops by time");
	y += 16 * PT;
	for (i = 0; i < n && i < ntop && y < H - 10 * PT; i++) {
		const struct rpoint *p = byns[i];

		snprintf(buf, sizeof(buf), "%zu", i + 1);
		chart_text(c, x, y, 8 * PT, CHART_START, 1, 0, buf);
		if (p->device >= 0)
			snprintf(buf, sizeof(buf), "%.1f " MU "s, dev %ld, %s", p->ns / 1000.0,
			    p->device, p->label);
		else
			snprintf(buf, sizeof(buf), "%.1f " MU "s, %s", p->ns / 1000.0, p->label);
		t = fit_text(c, 8 * PT, buf, wmax - 14 * PT);
		chart_text(c, x + 14 * PT, y, 8 * PT, CHART_START, 0, 0, t);
		free(t);
		y += 12 * PT;
	}
}

static int
long_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* "wormhole, 64 cores, devices 0, 1", "h100" */
static void
title_of(const struct roofchart *rc, char *buf, size_t n)
{
	size_t i, len;
	long devs[64];

	len = (size_t)snprintf(buf, n, "Roofline: %s", rc->hw);
	if (!rc->gpu && rc->hw_cores > 0 && len < n)
		len += (size_t)snprintf(buf + len, n - len, ", %ld cores", rc->hw_cores);
	memcpy(devs, rc->devices, rc->ndevices * sizeof(long));
	qsort(devs, rc->ndevices, sizeof(long), long_cmp);
	for (i = 0; i < rc->ndevices && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%ld",
		    i == 0 ? (rc->ndevices == 1 ? ", device " : ", devices ") : ", ", devs[i]);
}

int
roofchart_write(struct roofchart *rc, const char *path, int fmt, size_t ntop,
    struct error *err)
{
	struct rpoint **byns;
	struct rcat **order;
	struct chart *c;
	struct axes a;
	double bw = rc->bw_gbps, xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
	double total = 0, lo, hi;
	char title[256];
	size_t i;

	if (rc->npts == 0) {
		error_set(err, NULL, 0, -1, "no op to plot: none has FLOPs, bytes and a "
		    "device time%s (ttp-roofline writes them)", rc->want_device >= 0 ?
		    " on that device" : "");
		return -1;
	}
	if (rc->hw_other != NULL) {
		error_set(err, NULL, 0, -1, "the ops name two hardware specs, %s and %s: "
		    "one chart shows one (--device N)", rc->hw, rc->hw_other);
		return -1;
	}
	if (!(bw > 0)) {
		const struct hwspec *hs = rc->gpu ? hwspec_gpu_find(rc->hw) : hwspec_find(rc->hw);

		if (hs == NULL) {
			error_set(err, NULL, 0, -1, "%s: no such hardware spec", rc->hw);
			return -1;
		}
		bw = hs->dram_gbps;
	}
	if (!rc->gpu) {
		const struct hwspec *hs = hwspec_find(rc->hw);
		int f;

		for (f = 0; hs != NULL && f < FID_N; f++)
			if (rc->fids & (1u << f))
				add_roof(rc, hwspec_fidelity_name(f),
				    hwspec_tflops(hs, f) * (double)rc->hw_cores);
	}
	qsort(rc->roofs, rc->nroofs, sizeof(rc->roofs[0]), roof_by_tflops);

	for (i = 0; i < rc->npts; i++) {
		xmin = fmin(xmin, rc->pts[i].x);
		xmax = fmax(xmax, rc->pts[i].x);
		ymin = fmin(ymin, rc->pts[i].y);
		ymax = fmax(ymax, rc->pts[i].y);
	}
	/* the decades that hold the points and the ridges, the roofs' knees */
	lo = xmin, hi = xmax;
	for (i = 0; i < rc->nroofs; i++) {
		lo = fmin(lo, rc->roofs[i].tflops * 1000.0 / bw);
		hi = fmax(hi, rc->roofs[i].tflops * 1000.0 / bw);
		ymax = fmax(ymax, rc->roofs[i].tflops);
	}
	a.xlo = (int)floor(log10(lo) - 0.3);
	a.xhi = (int)ceil(log10(hi) + 0.3);
	a.ylo = (int)floor(log10(ymin) - 0.3);
	a.yhi = (int)ceil(log10(ymax) + 0.15);
	if (a.yhi - a.ylo < 2)
		a.ylo = a.yhi - 2;

	if ((c = chart_new(fmt, W, H, DPI, err)) == NULL)
		return -1;
	byns = xcalloc(rc->npts, sizeof(*byns));
	for (i = 0; i < rc->npts; i++) {
		byns[i] = &rc->pts[i];
		total += rc->pts[i].ns;
	}
	qsort(byns, rc->npts, sizeof(*byns), by_ns_desc);
	order = xcalloc(rc->ncats, sizeof(*order));
	for (i = 0; i < rc->ncats; i++)
		order[i] = &rc->cats[i];
	qsort(order, rc->ncats, sizeof(*order), cat_by_ns);
	for (i = 0; i < rc->ncats; i++)
		order[i]->colour = i < 10 ? tab10[i] : 0x7f7f7f;

	title_of(rc, title, sizeof(title));
	chart_text(c, (AX_L + AX_R) / 2, AX_T - 12 * PT, 13 * PT, CHART_MIDDLE, 0, 0, title);
	draw_axes(c, &a);
	draw_roofs(c, &a, bw, rc->roofs, rc->nroofs);
	draw_points(c, &a, byns, rc->npts, rc->cats, ntop, byns[0]->ns);
	chart_rect(c, AX_L, AX_T, AX_R - AX_L, AX_B - AX_T, CHART_NONE, 0x000000, 0.8 * PT,
	    1);
	draw_legend(c, order, rc->ncats, byns, rc->npts, ntop, total);
	free(byns);
	free(order);
	return chart_write(c, path, err);
}
