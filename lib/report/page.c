/* SPDX-License-Identifier: ISC */
/*
 * page: ttp-table's HTML page (report/page.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/outfile.h"
#include "report/html.h"
#include "report/opcsv.h"
#include "report/page.h"
#include "report/summary.h"
#include "report/tab.h"
#include "report/tableout.h"

void
page_open(const struct tableout_opts *o, struct page *pg, const char *what)
{
	struct error e = ERROR_INIT;
	struct buf t = BUF_INIT;
	const char *tf = o->trace_file;
	FILE *fp = stdout;

	if (pg->h != NULL || (!o->html_stdout && o->html == NULL))
		return;
	if (o->html != NULL) {
		if (o->verbose)
			say("Writing %s", o->html);
		if ((pg->f = outfile_open(o->html, &e)) == NULL)
			error_die(&e);
		fp = outfile_fp(pg->f);
	}
	/* the trace's file name, without its directories */
	buf_printf(&t, "%s%s%s", what, tf ? ": " : "", !tf ? "" :
	    strrchr(tf, '/') ? strrchr(tf, '/') + 1 : tf);
	pg->h = html_new(fp, t.p);
	buf_free(&t);
}

void
page_close(const struct tableout_opts *o, struct page *pg)
{
	struct error e = ERROR_INIT;

	if (pg->h == NULL)
		return;
	if (html_end(pg->h) != 0 && pg->f != NULL)
		die(EXIT_DATA, "%s: %s", o->html, strerror(errno));
	pg->h = NULL;
	if (pg->f != NULL && outfile_commit(pg->f, &e) != 0)
		error_die(&e);
	pg->f = NULL;
	if (o->html_stdout)
		io_check_stdout();
}

/* A bar chart of column vcol by column lcol of t (its first 40 rows), when t has both. */
static void
page_bars(struct html *h, const struct tab *t, const char *lcol, const char *vcol,
    const char *unit)
{
	size_t l = tab_find(t, lcol), v = tab_find(t, vcol), i, n;
	const char **labels;
	double *vals;

	if (l == (size_t)-1 || v == (size_t)-1 || t->nrows == 0)
		return;
	n = t->nrows < 40 ? t->nrows : 40;
	labels = xcalloc(n, sizeof(*labels));
	vals = xcalloc(n, sizeof(*vals));
	for (i = 0; i < n; i++) {
		labels[i] = tab_str(t, i, l);
		vals[i] = tab_num(t, i, v);
	}
	html_bars(h, labels, vals, n, unit);
	free(labels);
	free(vals);
}

/* A sheet in the page: its heading, the chart of the sheets that have one, the table. */
void
page_sheet(struct page *pg, const struct tableout_opts *o, const struct tab *t)
{
	if (pg->h == NULL)
		return;
	html_section(pg->h, t->name);
	if (strcmp(t->name, "gpu_timeline") == 0)
		page_bars(pg->h, t, "type", "percent", " %");
	else if (strcmp(t->name, "ops_summary_by_category") == 0)
		page_bars(pg->h, t, "op category", "Percentage (%)", " %");
	else if (strcmp(t->name, "ops_summary") == 0)
		page_bars(pg->h, t, "name", "Percentage (%)", " %");
	html_tab(pg->h, t, o->top > 0 ? (size_t)o->top : 0);
}

/* The TT report's op table as the compatible CSV holds it (the text report's columns,
 * numbers as numbers, so that they sort). */
void
page_ops(struct page *pg, const struct tableout_opts *o, const struct table *t)
{
	char *p = NULL;
	size_t n = 0;
	FILE *m;

	if (pg->h == NULL)
		return;
	if ((m = open_memstream(&p, &n)) == NULL)
		die(EXIT_DATA, "open_memstream: %s", strerror(errno));
	if (opcsv_write(m, t, o->advice ? OPCSV_ADVICE : 0) != 0 || fclose(m) != 0)
		die(EXIT_DATA, "the page's op table: %s", strerror(errno));
	html_section(pg->h, "Performance report");
	html_csv(pg->h, p, n);
	free(p);
}

/* The grouped summary: its chart (the summary plot's SVG, through a temporary file)
 * and its table. */
void
page_summary(struct page *pg, const struct tableout_opts *o, const struct summary *s)
{
	const char *tmpdir = getenv("TMPDIR");
	struct buf path = BUF_INIT, svg = BUF_INIT;
	char chunk[65536];
	size_t k;
	FILE *fp;
	int fd;

	if (pg->h == NULL)
		return;
	html_section(pg->h, "Stacked report");
	buf_printf(&path, "%s/ttp-page.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if ((fd = mkstemp(path.p)) < 0)
		die(EXIT_DATA, "%s: %s", path.p, strerror(errno));
	close(fd);
	if (summary_write_svg(path.p, s, o->classic) == 0 && (fp = fopen(path.p, "r")) != NULL) {
		while ((k = fread(chunk, 1, sizeof(chunk), fp)) > 0)
			buf_add(&svg, chunk, k);
		fclose(fp);
		if (svg.len > 0)
			html_svg(pg->h, svg.p, svg.len);
	}
	unlink(path.p);
	html_tab(pg->h, summary_tab(s), 0);
	buf_free(&path);
	buf_free(&svg);
}
