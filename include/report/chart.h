/* SPDX-License-Identifier: ISC */
/*
 * chart: a small drawing surface for ttp's charts, drawn through cairo as PNG or PDF, or
 * written as plain SVG text (byte-stable: the same input gives the same file on every
 * machine, text stays text). Coordinates are user units, y downwards; a chart of w x h
 * units at dpi units per inch is a w x h pixel PNG, a w/dpi x h/dpi inch PDF page.
 * Text is DejaVu Sans (Debian's fonts-dejavu-core), loaded from its file through
 * fontconfig and FreeType with fixed rendering options, so that pixels do not depend on
 * the machine's font configuration; without that font a chart is an error.
 *
 * The roofline chart (chart_roofline_*) collects the op records ttp-roofline wrote and
 * draws them against the memory and compute roofs of the hardware the records name.
 */
#ifndef TTP_CHART_H
#define TTP_CHART_H

#include <stddef.h>
#include <stdio.h>

enum chart_format { CHART_SVG, CHART_PNG, CHART_PDF };

/* "png", "svg" or "pdf" (lower case) as a format, or -1. */
int chart_format_parse(const char *word);
/* The format a file name's extension names (".png", ".svg", ".pdf", any case), or -1. */
int chart_format_of_path(const char *path);
/* "png", "svg", "pdf". */
const char *chart_format_name(int fmt);

#define CHART_NONE	(-1L)	/* no fill or no stroke */

enum chart_anchor { CHART_START, CHART_MIDDLE, CHART_END };

struct chart;
struct error;

/* A blank (white) chart. NULL with err set when the font cannot be loaded. */
struct chart *chart_new(int fmt, double w, double h, double dpi, struct error *err);
/* Write the chart to path (overwritten) and free it. Returns 0, or -1 with errno set. */
int chart_write(struct chart *c, const char *path, struct error *err);
void chart_free(struct chart *c);
/* Write the chart to an open stream and free it. Returns 0 or -1 (errno set). */
int chart_write_fp(struct chart *c, FILE *fp);
/* Markup added as it is to an SVG chart (groups, titles, classes); nothing for PNG and
 * PDF. Whatever it opens, the caller closes. */
void chart_svg(struct chart *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text escaped for XML, added to an SVG chart (a title's); nothing for PNG and PDF. */
void chart_svg_text(struct chart *c, const char *text);

/* A rectangle; fill and stroke are 0xRRGGBB or CHART_NONE; opacity of the stroke. */
void chart_rect(struct chart *c, double x, double y, double w, double h, long fill,
    long stroke, double width, double stroke_opacity);
/* A line; dash > 0 draws it dashed (dash units on, dash off). */
void chart_line(struct chart *c, double x1, double y1, double x2, double y2, long rgb,
    double width, double dash);
/* A circle. */
void chart_circle(struct chart *c, double x, double y, double r, long fill, double opacity,
    long stroke, double width);
/* A pie wedge: centre (x, y), radius r, from angle a0 to a1 (degrees, counter-clockwise
 * from the positive x axis as on paper, so upwards on the chart). */
void chart_wedge(struct chart *c, double x, double y, double r, double a0, double a1,
    long fill, long stroke, double width);
/* One line of text, baseline at y; size in user units; bold or not. */
void chart_text(struct chart *c, double x, double y, double size, int anchor, int bold,
    long rgb, const char *text);
/* The advance width of text (user units). */
double chart_text_width(struct chart *c, double size, int bold, const char *text);
/* Rotate what follows by deg degrees (counter-clockwise when negative, as SVG) around
 * (x, y), until chart_unrotate. Not nested. */
void chart_rotate(struct chart *c, double deg, double x, double y);
void chart_unrotate(struct chart *c);
/* Clip what follows to a rectangle, until chart_unclip. Not nested. */
void chart_clip(struct chart *c, double x, double y, double w, double h);
void chart_unclip(struct chart *c);

/* --- the roofline chart ------------------------------------------------------------- */

struct rec;
struct roofchart;

/* device < 0: every device. */
struct roofchart *roofchart_new(long device);
/* Take what the chart needs of one record (ops with FLOPs, bytes and a time; the hardware
 * they name). Returns 1 when the record is a point, 0 otherwise; a key of the wrong type
 * marks the record bad (rec_bad). */
int roofchart_add(struct roofchart *rc, struct rec *r);
/* Points collected so far. */
size_t roofchart_count(const struct roofchart *rc);
/* Draw it to path in fmt, labelling the top ops by time (ntop of them). Returns 0, or -1
 * with err set (the font, no hardware named, writing the file). */
int roofchart_write(struct roofchart *rc, const char *path, int fmt, size_t ntop,
    struct error *err);
void roofchart_free(struct roofchart *rc);

#endif
