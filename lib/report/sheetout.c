/* SPDX-License-Identifier: ISC */
/*
 * sheetout: TraceLens's sheet sets written as ttp-table's options ask
 * (report/sheetout.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/outfile.h"
#include "report/jaxsheets.h"
#include "report/nccl.h"
#include "report/page.h"
#include "report/phasechart.h"
#include "report/sheetout.h"
#include "report/tab.h"
#include "report/tableout.h"
#include "report/tlmerge.h"
#include "report/tlsheets.h"

/* --sheet NAME that the input has no sheet of: a warning that says what to do, with
 * the sheets there are (n names). */
static void
sheet_missing(const struct tableout_opts *o, const char *name, char *const *names,
    size_t n)
{
	struct buf b = BUF_INIT;
	size_t i;
	int fixed = 0;

	for (i = 0; tl_sheet_names[i] != NULL; i++)
		if (strcmp(tl_sheet_names[i], name) == 0)
			fixed = 1;
	/* the sheets of a roofline family are named by ttp-roofline's categories */
	if (!fixed && o->torch_ops > 0 && o->torch_categorised == 0) {
		warning("warning: no sheet %s: the records have no op categories or perf models (the "
		    "roofline sheets, GEMM, SDPA_fwd, ..., need them): add ttp-roofline, as in "
		    "ttp-parse TRACE | ttp-roofline | ttp-table --sheet %s", name, name);
		return;
	}
	for (i = 0; i < n; i++) {
		if (i)
			buf_adds(&b, ", ");
		buf_adds(&b, names[i]);
	}
	if (n == 0)
		warning("warning: no sheet %s: this input makes no sheets", name);
	else if (fixed && (strstr(name, "phase") || strstr(name, "prefill") ||
	    strstr(name, "decode")))
		warning("warning: no sheet %s: the ops have no phase: add ttp-phase before "
		    "ttp-table (its sheets: %s)", name, b.p);
	else
		warning("warning: no sheet %s in this input; its sheets: %s", name, b.p);
	buf_free(&b);
}

static int
wanted(const struct tableout_opts *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->nsheets; i++)
		if (strcmp(o->sheets[i], name) == 0)
			return 1;
	return o->nsheets == 0;
}

/* The sheets as DIR/NAME.csv: every name checked and every temporary written before
 * the first is renamed into place, so a failure leaves none of them half-written. */
static void
write_sheet_csvs(const char *dir, struct tab **s, size_t n,
    const struct tableout_opts *o)
{
	struct outfile **f = xcalloc(n ? n : 1, sizeof(*f));
	struct error e = ERROR_INIT;
	struct buf p = BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!wanted(o, s[i]->name))
			continue;
		buf_reset(&p);
		buf_printf(&p, "%s/%s.csv", dir, s[i]->name);
		tableout_check("--csv-dir", p.p);
	}
	for (i = 0; i < n; i++) {
		if (!wanted(o, s[i]->name))
			continue;
		buf_reset(&p);
		buf_printf(&p, "%s/%s.csv", dir, s[i]->name);
		if (o->verbose)
			say("Writing %s", p.p);
		if ((f[i] = outfile_open(p.p, &e)) == NULL)
			error_die(&e);
		if (tab_write_csv(s[i], outfile_fp(f[i])) != 0)
			die(EXIT_DATA, "%s: %s", p.p, strerror(errno ? errno : EIO));
	}
	for (i = 0; i < n; i++)
		if (f[i] != NULL && outfile_commit(f[i], &e) != 0)
			error_die(&e);
	buf_free(&p);
	free(f);
}

/* mkdir -p, as TraceLens's os.makedirs(exist_ok=True). */
static void
make_dirs(const char *dir)
{
	char *p = xstrdup(dir), *s = p;

	while ((s = strchr(s + 1, '/')) != NULL) {
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			die(EXIT_DATA, "%s: %s", p, strerror(errno));
		*s = '/';
	}
	if (mkdir(p, 0777) != 0 && errno != EEXIST)
		die(EXIT_DATA, "%s: %s", p, strerror(errno));
	free(p);
}

/* The terminal summary beside the files: the GPU timeline and the ops that take the
 * most GPU time, with their category, throughput and share of the roofline. */
/* The columns of unified_perf_summary that --print-summary shows. */
static const char *const summary_cols[] = { "name", "op category", "operation_count",
	"Kernel Time (\u00b5s)_sum", "Percentage (%)", "TFLOPS/s_mean", "TB/s_mean",
	"Pct Roofline_mean", NULL };

/* more: rows of unified_perf_summary after those s holds (a sheet met in parts keeps
 * only the rows the summary shows). */
static void
print_summary(struct tab **s, size_t n, size_t top, size_t width, size_t more)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(s[i]->name, "gpu_timeline") == 0) {
			printf("GPU timeline\n");
			tab_write_text(s[i], stdout, 0, width);
		} else if (strcmp(s[i]->name, "unified_perf_summary") == 0) {
			struct tab *p = tab_project(s[i], "top ops", summary_cols);

			printf("\nTop ops by GPU kernel time\n");
			tab_write_text(p, stdout, top, width);
			if (more > 0)	/* as tab_print says it of a whole sheet */
				printf("... %zu more rows\n", more);
			tab_free(p);
		}
	}
	io_check_stdout();
}

static void sheets_write(const struct tableout_opts *o, struct tab **s, size_t n,
    long long rank, const char *kind);

/* The sheets written one by one as they are built (issue 24: one held at a time), the
 * large PyTorch ones in parts of this many rows. */
#define TABLE_PART_ROWS	4096
struct stream {
	const struct tableout_opts *o;
	struct tl	  *tl;
	int		   started;
	struct tab_book	  *bk;
	char		 **seen;	/* the names of the sheets met */
	size_t		   nseen;
	struct tab	  *keep[2];	/* --print-summary's sheets */
	size_t		   nkeep;
	struct outfile	 **of;		/* the CSVs written, renamed at the end */
	size_t		   nof;
	struct page	   pg;		/* --html */
	int		   inpart;	/* in a sheet handed over in parts: 1, 2 unwanted */
	struct outfile	  *part;	/* its CSV (NULL: none) */
	struct tab_part	*bpart;	/* its worksheet (NULL: none) */
	struct tab	  *ukeep;	/* --print-summary's rows of a sheet in parts */
	size_t		   umore;	/* and how many more it has */
};

static void
comm_note(const struct tableout_opts *o, struct tl *tl)
{
	size_t i;

	if (o->nverbose > 1 && o->tl.coll && !o->tl.inference &&
	    (i = tl_comm_kernels(tl)) > 0)
		note("coll_analysis leaves out %zu communication kernels without their "
		    "collective's args (Collective name, dtype, ...)", i);
}

/* What the first sheet (or the end, when there is none) opens: the note, then the
 * directory or the workbook, in sheets_write's order. */
static void
stream_start(struct stream *st)
{
	const struct tableout_opts *o = st->o;

	if (st->started)
		return;
	st->started = 1;
	comm_note(o, st->tl);
	if (o->csv_dir != NULL)
		make_dirs(o->csv_dir);
	if (o->xlsx != NULL) {
		if (o->verbose)
			say("Writing %s", o->xlsx);
		if ((st->bk = tab_book_new(o->xlsx)) == NULL)
			die(EXIT_DATA, "%s", tab_book_error());
	}
	page_open(o, &st->pg, "TraceLens report");
}

/* The end of a stream of sheets: the workbook closed, the page ended, every CSV
 * renamed into place, each --sheet that none of them was named. */
static void
stream_end(struct stream *st)
{
	const struct tableout_opts *o = st->o;
	struct error err = ERROR_INIT;
	size_t i, j;

	stream_start(st);
	if (st->bk != NULL && tab_book_close(st->bk) != 0)
		die(EXIT_DATA, "%s", tab_book_error());
	page_close(o, &st->pg);
	for (i = 0; i < st->nof; i++)
		if (outfile_commit(st->of[i], &err) != 0)
			error_die(&err);
	free(st->of);
	for (j = 0; j < o->nsheets; j++) {
		for (i = 0; i < st->nseen && strcmp(st->seen[i], o->sheets[j]) != 0; i++)
			;
		if (i == st->nseen)
			sheet_missing(o, o->sheets[j], st->seen, st->nseen);
	}
}

/* The sheet name's DIR/NAME.csv (--csv-dir), checked and opened to a temporary beside
 * it. */
static struct outfile *
sheet_csv_open(const struct tableout_opts *o, const char *name)
{
	struct error e = ERROR_INIT;
	struct buf p = BUF_INIT;
	struct outfile *f;

	buf_printf(&p, "%s/%s.csv", o->csv_dir, name);
	tableout_check("--csv-dir", p.p);
	if (o->verbose)
		say("Writing %s", p.p);
	if ((f = outfile_open(p.p, &e)) == NULL)
		error_die(&e);
	buf_free(&p);
	return f;
}

/* One sheet to a temporary beside DIR/NAME.csv; every one is renamed into place only
 * after the last is written, so a failure leaves none of them half-written. */
static void
stream_csv(struct stream *st, const struct tab *t)
{
	struct outfile *f = sheet_csv_open(st->o, t->name);

	if (tab_write_csv(t, outfile_fp(f)) != 0)
		die(EXIT_DATA, "%s: %s", outfile_path(f), strerror(errno ? errno : EIO));
	st->of = xreallocarray(st->of, st->nof + 1, sizeof(*st->of));
	st->of[st->nof++] = f;
}

static void
stream_sheet(struct tab *t, void *ctx)
{
	struct stream *st = ctx;
	const struct tableout_opts *o = st->o;

	stream_start(st);
	if (o->phase_charts != NULL)
		(void)phasechart_add(o->phase_charts, t);
	st->seen = xreallocarray(st->seen, st->nseen + 1, sizeof(*st->seen));
	st->seen[st->nseen++] = xstrdup(t->name);
	if (wanted(o, t->name)) {
		if (o->csv_dir != NULL)
			stream_csv(st, t);
		else if (tab_book_add(st->bk, t) != 0)
			die(EXIT_DATA, "%s", tab_book_error());
		page_sheet(&st->pg, o, t);
	}
	if (o->print_summary && st->nkeep < 2 && strcmp(t->name, "gpu_timeline") == 0)
		st->keep[st->nkeep++] = t;
	else if (o->print_summary && st->nkeep < 2 &&
	    strcmp(t->name, "unified_perf_summary") == 0) {
		/* only the columns the summary shows: the sheet has a row per op */
		st->keep[st->nkeep++] = tab_project(t, t->name, summary_cols);
		tab_free(t);
	} else
		tab_free(t);
}

static void nccl_part(struct tab *t, int more, void *ctx);

/* The rows of a part: TABLE_PART_ROWS, or TTP_TABLE_PART_ROWS (tests: small traces
 * through the many-part path). */
static size_t
part_rows(void)
{
	const char *e = getenv("TTP_TABLE_PART_ROWS");
	char *end;
	unsigned long long n;

	if (e == NULL || *e == '\0')
		return TABLE_PART_ROWS;
	errno = 0;
	n = strtoull(e, &end, 10);
	if (*end != '\0' || errno != 0 || n == 0 || n > (1u << 30))
		die(EXIT_USAGE, "TTP_TABLE_PART_ROWS: %s: not a row count from 1 to 2^30", e);
	return (size_t)n;
}

/* Rows [0, n) of src (of dst's columns) after dst's. */
static void
tab_add_rows(struct tab *dst, const struct tab *src, size_t n)
{
	size_t i, j, r;

	for (i = 0; i < n; i++) {
		r = tab_row(dst);
		for (j = 0; j < src->ncols; j++) {
			const struct tab_cell *c = tab_cell(src, i, j);

			if (c->kind == TAB_INT)
				tab_set_int(dst, r, j, c->v.i);
			else if (c->kind == TAB_NUM)
				tab_set_num(dst, r, j, c->v.d);
			else if (c->kind == TAB_BOOL)
				tab_set_bool(dst, r, j, c->v.i != 0);
			else if (c->kind == TAB_STR)
				tab_set_str(dst, r, j, tab_str(src, i, j));
		}
	}
}

/* A part of a PyTorch sheet met in parts (unified_perf_summary, ops_unique_args, the
 * roofline sheets): written as nccl_part writes a multi-rank sheet's; --print-summary
 * keeps unified_perf_summary's first rows in the columns it shows, and counts the
 * others. */
static void
stream_part(struct tab *t, int more, void *ctx)
{
	struct stream *st = ctx;
	const struct tableout_opts *o = st->o;
	size_t top = o->top >= 0 ? (size_t)o->top : 10, n;

	if (o->print_summary && st->ukeep == NULL && st->nkeep < 2 &&
	    strcmp(t->name, "unified_perf_summary") == 0) {
		st->ukeep = tab_project(t, t->name, summary_cols);
		tab_truncate(st->ukeep, 0);
		st->keep[st->nkeep++] = st->ukeep;
	}
	if (st->ukeep != NULL && strcmp(t->name, "unified_perf_summary") == 0) {
		struct tab *p = tab_project(t, t->name, summary_cols);

		n = p->nrows;
		if (top != 0 && st->ukeep->nrows + n > top)
			n = st->ukeep->nrows >= top ? 0 : top - st->ukeep->nrows;
		tab_add_rows(st->ukeep, p, n);
		st->umore += p->nrows - n;
		tab_free(p);
	}
	nccl_part(t, more, ctx);
}

/* Into one directory or one workbook: each sheet written as soon as it is built, the
 * large ones in parts (but for an HTML page, which takes whole sheets). The notes of
 * --sheet names the trace has no sheet of come at the end. */
static void
sheets_stream(const struct tableout_opts *o, struct tl *tl)
{
	struct stream st;
	struct error err = ERROR_INIT;
	size_t i;

	memset(&st, 0, sizeof(st));
	st.o = o;
	st.tl = tl;
	tl_sheets_parts(tl, &o->tl, stream_sheet, stream_part,
	    o->html == NULL ? part_rows() : 0, &st, &err);
	if (error_is_set(&err))
		error_die(&err);
	stream_end(&st);
	if (o->print_summary)
		print_summary(st.keep, st.nkeep, o->top >= 0 ? (size_t)o->top : 10,
		    tableout_width(o->width), st.umore);
	for (i = 0; i < st.nkeep; i++)
		tab_free(st.keep[i]);
	for (i = 0; i < st.nseen; i++)
		free(st.seen[i]);
	free(st.seen);
}

static void
say_plot(const char *path)
{
	say("Plotting %s", path);
}

/* --plot-phases DIR: the inference-phase charts of the phase sheets met, when some
 * phase has ops (TraceLens's branch makes no folder otherwise). */
void
sheetout_phase_plots(struct tableout_opts *o)
{
	struct error err = ERROR_INIT;

	if (o->phase_charts == NULL)
		return;
	if (phasechart_has_data(o->phase_charts)) {
		int n;

		make_dirs(o->plot_phases_dir);
		if ((n = phasechart_write(o->phase_charts, o->plot_phases_dir, o->plot_format,
		    (double)o->plot_dpi, o->plot_title, o->verbose ? say_plot : NULL, &err)) < 0)
			error_die(&err);
		if (!o->verbose)
			note("wrote %d inference phase charts to %s", n, o->plot_phases_dir);
	} else if (o->verbose) {
		say("No phase data available for plotting");
	}
	phasechart_free(o->phase_charts);
	o->phase_charts = NULL;
}

/* TraceLens's sheets of a PyTorch trace: CSV files, a workbook, or stdout. */
void
sheetout_torch(const struct tableout_opts *o, struct tl *tl)
{
	struct tab **s;
	struct error err = ERROR_INIT;
	size_t n, i;

	if ((o->csv_dir != NULL) != (o->xlsx != NULL) && !o->partial) {
		sheets_stream(o, tl);
		return;
	}
	n = tl_sheets(tl, &o->tl, &s, &err);

	if (error_is_set(&err))
		error_die(&err);
	for (i = 0; o->phase_charts != NULL && i < n; i++)
		(void)phasechart_add(o->phase_charts, s[i]);
	comm_note(o, tl);
	sheets_write(o, s, n, tl->rank0, "pytorch");
	tl_sheets_free(s, n);
}

/* The JAX sheets into one directory or one workbook as they are built (issue 26):
 * one part of one sheet held at a time. */
struct jstream {
	const struct tableout_opts *o;
	int		   started, want;
	struct tab_book	  *bk;
	struct tab_part	  *part;	/* the workbook's sheet being written */
	struct outfile	  *cur;		/* the CSV being written */
	struct outfile	 **of;		/* the CSVs written, renamed at the end */
	size_t		   nof;
	char		 **seen;
	size_t		   nseen;
	struct tab	  *keep;	/* --print-summary's gpu_timeline */
};

static void
jax_part(struct tab *t, unsigned flags, void *ctx)
{
	struct jstream *st = ctx;
	const struct tableout_opts *o = st->o;
	int rc = 0;

	if (!st->started) {
		st->started = 1;
		if (o->csv_dir != NULL)
			make_dirs(o->csv_dir);
		else {
			if (o->verbose)
				say("Writing %s", o->xlsx);
			if ((st->bk = tab_book_new(o->xlsx)) == NULL)
				die(EXIT_DATA, "%s", tab_book_error());
		}
	}
	if (flags & JX_FIRST) {
		st->seen = xreallocarray(st->seen, st->nseen + 1, sizeof(*st->seen));
		st->seen[st->nseen++] = xstrdup(t->name);
		if ((st->want = wanted(o, t->name)) && o->csv_dir != NULL) {
			st->cur = sheet_csv_open(o, t->name);
			rc = tab_write_csv(t, outfile_fp(st->cur));
		} else if (st->want)
			rc = tab_book_begin(st->bk, t, &st->part);
	} else if (st->want)
		rc = o->csv_dir != NULL ? tab_write_csv_part(t, outfile_fp(st->cur), 0) :
		    tab_book_more(st->part, t);
	if (rc != 0 && o->csv_dir != NULL)
		die(EXIT_DATA, "%s: %s", outfile_path(st->cur), strerror(errno ? errno : EIO));
	if (rc != 0 || (st->want && o->csv_dir == NULL && (flags & JX_LAST) &&
	    tab_book_end(st->part) != 0))
		die(EXIT_DATA, "%s", tab_book_error());
	if (st->want && o->csv_dir != NULL && (flags & JX_LAST)) {
		st->of = xreallocarray(st->of, st->nof + 1, sizeof(*st->of));
		st->of[st->nof++] = st->cur;
	}
	if (o->print_summary && st->keep == NULL && strcmp(t->name, "gpu_timeline") == 0)
		st->keep = t;
	else
		tab_free(t);
}

/* TraceLens's JAX report of an xplane.pb's records. */
void
sheetout_jax(const struct tableout_opts *o, struct jx *jx)
{
	struct tab **s;
	struct error err = ERROR_INIT;
	size_t n, i, j;

	if ((o->csv_dir != NULL) != (o->xlsx != NULL) && !o->html_stdout && o->html == NULL &&
	    !o->partial) {
		struct jstream st;

		memset(&st, 0, sizeof(st));
		st.o = o;
		(void)jx_sheets_each(jx, jax_part, &st, &err);
		if (error_is_set(&err))
			error_die(&err);
		if (st.bk != NULL && tab_book_close(st.bk) != 0)
			die(EXIT_DATA, "%s", tab_book_error());
		for (i = 0; i < st.nof; i++)
			if (outfile_commit(st.of[i], &err) != 0)
				error_die(&err);
		free(st.of);
		for (j = 0; j < o->nsheets; j++) {
			for (i = 0; i < st.nseen && strcmp(st.seen[i], o->sheets[j]) != 0; i++)
				;
			if (i == st.nseen)
				sheet_missing(o, o->sheets[j], st.seen, st.nseen);
		}
		if (st.keep != NULL)
			print_summary(&st.keep, 1, o->top >= 0 ? (size_t)o->top : 10,
			    tableout_width(o->width), 0);
		tab_free(st.keep);
		for (i = 0; i < st.nseen; i++)
			free(st.seen[i]);
		free(st.seen);
		return;
	}
	n = jx_sheets(jx, &s, &err);
	if (error_is_set(&err))
		error_die(&err);
	sheets_write(o, s, n, -1, "jax");
	jx_sheets_free(s, n);
}

/* A sheet of the multi-rank report, or a part of one (more: parts follow): into the
 * sheet's CSV and its worksheet, which the first part opens and the last closes. */
static void
nccl_part(struct tab *t, int more, void *ctx)
{
	struct stream *st = ctx;
	const struct tableout_opts *o = st->o;
	int first = !st->inpart;

	if (first) {
		stream_start(st);
		st->seen = xreallocarray(st->seen, st->nseen + 1, sizeof(*st->seen));
		st->seen[st->nseen++] = xstrdup(t->name);
		st->inpart = wanted(o, t->name) ? 1 : 2;
		st->part = NULL;
		st->bpart = NULL;
		if (st->inpart == 1 && o->csv_dir != NULL)
			st->part = sheet_csv_open(o, t->name);
		if (st->inpart == 1 && st->bk != NULL &&
		    tab_book_begin(st->bk, t, &st->bpart) != 0)
			die(EXIT_DATA, "%s", tab_book_error());
		if (st->inpart == 1 && !more)
			page_sheet(&st->pg, o, t);	/* --html: whole sheets only */
	}
	if (st->part != NULL && tab_write_csv_part(t, outfile_fp(st->part), first) != 0)
		die(EXIT_DATA, "%s: %s", outfile_path(st->part), strerror(errno ? errno : EIO));
	if (!first && st->bpart != NULL && tab_book_more(st->bpart, t) != 0)
		die(EXIT_DATA, "%s", tab_book_error());
	if (!more) {
		if (st->part != NULL) {
			st->of = xreallocarray(st->of, st->nof + 1, sizeof(*st->of));
			st->of[st->nof++] = st->part;
		}
		if (st->bpart != NULL && tab_book_end(st->bpart) != 0)
			die(EXIT_DATA, "%s", tab_book_error());
		st->inpart = 0;
		st->part = NULL;
		st->bpart = NULL;
	}
	tab_free(t);
}

/* TraceLens's multi-rank collective report of collective records. Into a directory or a
 * workbook, each sheet is written as it is made, the large ones part by part (but for
 * an HTML page, which takes whole sheets), so that the reduce's memory stays bounded
 * whatever the number of ranks (issue 27). */
void
sheetout_nccl(const struct tableout_opts *o, struct nc *nc, struct tl *tl)
{
	struct tab **s;
	struct error err = ERROR_INIT;
	struct stream st;
	size_t n, i;

	if ((o->csv_dir == NULL && o->xlsx == NULL) || o->html_stdout || o->partial) {
		n = nc_sheets(nc, &o->nc, &s, &err);
		if (error_is_set(&err))
			error_die(&err);
		sheets_write(o, s, n, -1, "collectives");
		nc_sheets_free(s, n);
		return;
	}
	memset(&st, 0, sizeof(st));
	st.o = o;
	st.tl = tl;
	nc_sheets_each(nc, &o->nc, o->html == NULL ? (size_t)1 << 16 : 0, nccl_part, &st,
	    &err);
	if (error_is_set(&err))
		error_die(&err);
	stream_end(&st);
	for (i = 0; i < st.nseen; i++)
		free(st.seen[i]);
	free(st.seen);
}

/* Sheets as CSV files, a workbook, or on stdout. */
static void
sheets_write(const struct tableout_opts *o, struct tab **s, size_t n, long long rank,
    const char *kind)
{
	size_t i, j, shown = 0;
	size_t width = tableout_width(o->width);
	size_t top = o->top >= 0 ? (size_t)o->top : 0;

	if (o->partial && !o->merge) {
		/* the sheets --sheet names, or all; those --print-summary shows */
		char *opts = tlm_opts_text(&o->tl, kind);
		struct tab **w = xcalloc(n + 1, sizeof(*w));

		for (i = j = 0; i < n; i++)
			if (wanted(o, s[i]->name) || (o->print_summary &&
			    (strcmp(s[i]->name, "gpu_timeline") == 0 ||
			    strcmp(s[i]->name, "unified_perf_summary") == 0)))
				w[j++] = s[i];
		tlm_partial_write(stdout, w, j, rank, opts, o->trace_file);
		free(opts);
		free(w);
		return;
	}
	for (j = 0; j < o->nsheets; j++) {
		for (i = 0; i < n && strcmp(s[i]->name, o->sheets[j]) != 0; i++)
			;
		if (i == n) {
			char **names = xcalloc(n ? n : 1, sizeof(*names));

			for (i = 0; i < n; i++)
				names[i] = s[i]->name;
			sheet_missing(o, o->sheets[j], names, n);
			free(names);
		}
	}
	for (i = 0; o->sheet_csv && o->csv_dir == NULL && o->xlsx == NULL && i < n; i++)
		if (wanted(o, s[i]->name) && shown++)
			die_usage("--format csv writes one sheet: name it with --sheet");
	shown = 0;
	if (o->csv_dir != NULL) {
		make_dirs(o->csv_dir);
		write_sheet_csvs(o->csv_dir, s, n, o);
	}
	if (o->xlsx != NULL) {
		struct tab_book *bk;

		if (o->verbose)
			say("Writing %s", o->xlsx);
		if ((bk = tab_book_new(o->xlsx)) == NULL)
			die(EXIT_DATA, "%s", tab_book_error());
		for (i = 0; i < n; i++)
			if (wanted(o, s[i]->name) && tab_book_add(bk, s[i]) != 0)
				die(EXIT_DATA, "%s", tab_book_error());
		if (tab_book_close(bk) != 0)
			die(EXIT_DATA, "%s", tab_book_error());
	}
	if (o->html_stdout || o->html != NULL) {
		struct page pg = { NULL, NULL };

		page_open(o, &pg, "TraceLens report");
		for (i = 0; i < n; i++)
			if (wanted(o, s[i]->name))
				page_sheet(&pg, o, s[i]);
		page_close(o, &pg);
	}
	if (o->print_summary && (o->csv_dir != NULL || o->xlsx != NULL))
		print_summary(s, n, o->top >= 0 ? (size_t)o->top : 10, width, 0);
	for (i = 0; o->csv_dir == NULL && o->xlsx == NULL && !o->html_stdout && i < n; i++) {
		if (!wanted(o, s[i]->name))
			continue;
		if (o->sheet_csv) {
			tab_write_csv(s[i], stdout);
			continue;
		}
		if (shown++)
			fputc('\n', stdout);
		if (o->markdown) {
			printf("### %s\n\n", s[i]->name);
			tab_write_md(s[i], stdout, top);
		} else {
			printf("%s\n", s[i]->name);
			tab_write_text(s[i], stdout, top, width);
		}
		io_check_stdout();
	}
}

/* The sheets of a --merge, written as the options ask. */
void
sheetout_write(const struct tableout_opts *o, struct tab **s, size_t n)
{
	sheets_write(o, s, n, -1, "pytorch");
}
