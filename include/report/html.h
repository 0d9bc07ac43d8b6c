/* SPDX-License-Identifier: ISC */
/*
 * html: the reports as one self-contained HTML page (ttp-table --format html, --html):
 * no network and no other file, the style sheet, the charts (inline SVG) and a few lines
 * of script that sort a table by the column whose header is clicked (numbers by value,
 * empty cells last) all in the page. Sections come in the order they are added, each
 * with a heading that the contents at the top link to.
 *
 *	struct html *h = html_new(fp, "title");
 *	html_section(h, "ops_summary"); html_tab(h, t, 0);
 *	html_svg(h, svg, n); html_bars(h, ...); html_csv(h, csv, n);
 *	html_end(h);
 */
#ifndef TTP_HTML_H
#define TTP_HTML_H

#include <stddef.h>
#include <stdio.h>

struct tab;
struct html;

/* A page on fp (written as sections are added). */
struct html *html_new(FILE *fp, const char *title);
/* A section: its heading (and the contents' link to it). */
void html_section(struct html *h, const char *title);
/* A line of text under the current section. */
void html_note(struct html *h, const char *text);
/* A tab as a sortable table: its text columns, cells as the terminal shows them
 * (numbers sorted by value); top > 0: only its first top rows, with a line saying how
 * many more there are. */
void html_tab(struct html *h, const struct tab *t, size_t top);
/* A CSV text (header line, then rows; RFC 4180 quoting, CRLF or LF) as a sortable
 * table: tt-perf-report's op table as its --csv file holds it. */
void html_csv(struct html *h, const char *csv, size_t n);
/* An SVG document (its XML declaration dropped) as an inline chart. */
void html_svg(struct html *h, const char *svg, size_t n);
/* A horizontal bar chart (inline SVG) of n labelled values, unit after each value. */
void html_bars(struct html *h, const char *const *labels, const double *v, size_t n,
    const char *unit);
/* End the page (the contents go at the end, placed at the top by the style sheet) and
 * free h; returns 0, or -1 with errno set when a write failed. */
int html_end(struct html *h);

#endif
