/* SPDX-License-Identifier: ISC */
/*
 * plot: the summary ("stacked") plot of ttp-table, drawn once through chart.h: a PNG as
 * the reference tool's matplotlib PNG (docs/tt-perf-report.md D5), or SVG (with each
 * segment's label as its tooltip) or PDF.
 *
 * The caller (lib/report/summary.c) hands over the summary rows grouped into bars: one bar
 * when devices are merged, one per device otherwise. Segments arrive in the summary's
 * row order (Device Time Sum descending); plot_svg() does the reference's ordering
 * (§20: categories Compute, TM, DM, Other, then the others, each by time descending;
 * table order with classic colours), the colours, the labels (segments >= 2 % of their
 * bar), the category brackets and the titles. Nothing in the arrays is modified.
 */
#ifndef TTP_PLOT_H
#define TTP_PLOT_H

#include <stddef.h>
#include <stdio.h>

struct plot_seg {
	const char *label;	/* the summary's Op Code cell (category name in category mode) */
	const char *category;	/* "Compute", "TM", "DM", "Other", "Host", ... (never NULL) */
	double time_us;		/* Device Time Sum [us] */
	long count;		/* Op Count */
	double pct;		/* Total % of this bar (0..100), as in the summary */
	int has_flops;		/* fmin, fmax, fmean are set (some op had a FLOPs %) */
	double fmin, fmax, fmean;
	int has_std;		/* fstd set (more than one FLOPs value) */
	double fstd;
	int has_wmean;		/* fwmean set (weighted mean exists) */
	double fwmean;
};

struct plot_bar {
	long device;		/* device id; -1 when devices are merged (single bar) */
	const struct plot_seg *segs;
	size_t nsegs;
};

/* Plot modes (flags for plot_svg). */
#define PLOT_CLASSIC	0x1	/* --classic-colors: tab20 palette, table order, no brackets */
#define PLOT_CATEGORY	0x2	/* --group-by category: segments are categories */

/*
 * Write the SVG stacked-bar plot to path (overwritten). nbars == 1 with device == -1
 * is the merged plot ("Stacked Device Time (Total: ... μs)"); otherwise the per-device
 * plot ("Stacked Device Time per Device (100% per device)").
 * Returns 0, or -1 with errno set (nothing is printed).
 */
int plot_svg(const char *path, const struct plot_bar *bars, size_t nbars, int flags);

/* As plot_svg, to an open stream (does not close it). Returns 0 or -1 (ferror). */
int plot_svg_fp(FILE *fp, const struct plot_bar *bars, size_t nbars, int flags);

/* The plot as fmt (chart.h): CHART_PNG (one pixel per user unit: 1800 x 2400 for 6 x 8 in
 * at 300 dpi, as the reference's PNG), CHART_SVG or CHART_PDF. Returns 0, or -1 with
 * errno set (SVG); a missing font, and for PNG and PDF a file that cannot be written,
 * are an error message and exit 1. */
int plot_chart(const char *path, const struct plot_bar *bars, size_t nbars, int flags,
    int fmt);

#endif
