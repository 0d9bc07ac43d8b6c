/* SPDX-License-Identifier: ISC */
/*
 * page: ttp-table's HTML page (report/html.h): --format html on standard output, or
 * --html FILE beside the other outputs. The TT report's page has the op table and the
 * grouped summary with its chart; TraceLens's has the sheets, some with a chart.
 *
 * A struct page starts zeroed ({ NULL, NULL }: no page). page_open opens the page when
 * the options ask for one (and does nothing otherwise, or when it is open already);
 * the page_* writers do nothing on a page that is not open; page_close ends it, commits
 * --html's file and leaves the page zeroed. The page owns its file until then.
 *
 * Errors end the program (core/diag.h: "ttp-table: FILE: what is wrong", exit 1).
 */
#ifndef TTP_REPORT_PAGE_H
#define TTP_REPORT_PAGE_H

struct html;
struct outfile;
struct summary;
struct tab;
struct table;
struct tableout_opts;

struct page {
	struct html	*h;
	struct outfile	*f;
};

/* Open the page of o (--format html, --html FILE), titled what and the trace's file
 * name (o->trace_file without its directories). */
void page_open(const struct tableout_opts *o, struct page *pg, const char *what);
/* End the page: its file committed, or standard output checked. */
void page_close(const struct tableout_opts *o, struct page *pg);
/* A sheet: its heading, the chart of the sheets that have one, its first --top rows. */
void page_sheet(struct page *pg, const struct tableout_opts *o, const struct tab *t);
/* The TT report's op table as the compatible CSV holds it (sortable numbers). */
void page_ops(struct page *pg, const struct tableout_opts *o, const struct table *t);
/* The TT report's grouped summary: its chart and its table. */
void page_summary(struct page *pg, const struct tableout_opts *o, const struct summary *s);

#endif
