/* SPDX-License-Identifier: ISC */
/*
 * ttp-table: renders ttp records as tt-perf-report's report: the performance table,
 * advice and grouped summary as text (or Markdown), or the compatible --csv file with
 * the summary CSV and SVG plot beside it.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "report/chart.h"
#include "report/colour.h"
#include "report/html.h"
#include "core/badrec.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/outfile.h"
#include "report/opcsv.h"
#include "core/rec.h"
#include "core/stage.h"
#include "core/trace.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/tab.h"
#include "report/jaxsheets.h"
#include "report/nccl.h"
#include "report/phasechart.h"
#include "report/tlmerge.h"
#include "report/tlsheets.h"
#include "tt/metrics.h"

enum {
	OPT_CSV = 256, OPT_NO_ADVICE, OPT_RAW, OPT_NO_SUMMARY, OPT_GROUP_BY, OPT_CLASSIC,
	OPT_SUMMARY_FILE, OPT_STACKED_CSV, OPT_MIN_PCT, OPT_COLOR, OPT_NO_COLOR,
	OPT_PER_DEVICE, OPT_FORMAT, OPT_SORT, OPT_TOP, OPT_PERCENT_OF,
	OPT_SHEET, OPT_CSV_DIR, OPT_XLSX, OPT_WIDTH, OPT_MICRO_IDLE, OPT_UNLINKED,
	OPT_NO_KSUM, OPT_NO_SHORT, OPT_SHORT_THRESH, OPT_SHORT_BINS, OPT_TOPK_SHORT,
	OPT_SUMMARY_ONLY, OPT_PRINT_SUMMARY, OPT_INFERENCE, OPT_BY_MODULE, OPT_BY_NKERNELS,
	OPT_PSEUDO, OPT_NO_COLL,
	OPT_CALL_STACK, OPT_PROTECT, OPT_GPUS_PER_NODE, OPT_WORLD_SIZE,
	OPT_HEATMAP, OPT_HTML, OPT_PARTIAL, OPT_MERGE,
	OPT_PLOT = 400, OPT_PLOT_FORMAT, OPT_DEVICE, OPT_PLOT_PHASES, OPT_PLOT_DPI,
	OPT_PLOT_TITLE
};

static const struct option longopts[] = {
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "no-advice", no_argument, NULL, OPT_NO_ADVICE },
	{ "raw-op-codes", no_argument, NULL, OPT_RAW },
	{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
	{ "no-stacked-report", no_argument, NULL, OPT_NO_SUMMARY },
	{ "group-by", required_argument, NULL, OPT_GROUP_BY },
	{ "classic-colors", no_argument, NULL, OPT_CLASSIC },
	{ "summary-file", required_argument, NULL, OPT_SUMMARY_FILE },
	{ "stacked-csv", required_argument, NULL, OPT_STACKED_CSV },
	{ "min-percentage", required_argument, NULL, OPT_MIN_PCT },
	{ "color", optional_argument, NULL, OPT_COLOR },
	{ "colour", optional_argument, NULL, OPT_COLOR },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "per-device", no_argument, NULL, OPT_PER_DEVICE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "summary-only", no_argument, NULL, OPT_SUMMARY_ONLY },
	{ "percent-of", required_argument, NULL, OPT_PERCENT_OF },
	{ "sheet", required_argument, NULL, OPT_SHEET },
	{ "csv-dir", required_argument, NULL, OPT_CSV_DIR },
	{ "xlsx", required_argument, NULL, OPT_XLSX },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "micro-idle-thresh-us", required_argument, NULL, OPT_MICRO_IDLE },
	{ "include-unlinked-kernels", no_argument, NULL, OPT_UNLINKED },
	{ "no-kernel-summary", no_argument, NULL, OPT_NO_KSUM },
	{ "no-short-kernels", no_argument, NULL, OPT_NO_SHORT },
	{ "short-kernel-threshold-us", required_argument, NULL, OPT_SHORT_THRESH },
	{ "short-kernel-bins", required_argument, NULL, OPT_SHORT_BINS },
	{ "topk-short-kernels", required_argument, NULL, OPT_TOPK_SHORT },
	{ "print-summary", no_argument, NULL, OPT_PRINT_SUMMARY },
	{ "inference", no_argument, NULL, OPT_INFERENCE },
	{ "group-by-parent-module", no_argument, NULL, OPT_BY_MODULE },
	{ "group-by-num-kernels", no_argument, NULL, OPT_BY_NKERNELS },
	{ "pseudo-ops", no_argument, NULL, OPT_PSEUDO },
	{ "no-coll-analysis", no_argument, NULL, OPT_NO_COLL },
	{ "include-call-stack", no_argument, NULL, OPT_CALL_STACK },
	{ "protect", required_argument, NULL, OPT_PROTECT },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "plot-format", required_argument, NULL, OPT_PLOT_FORMAT },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "plot-phases", required_argument, NULL, OPT_PLOT_PHASES },
	{ "plot-dpi", required_argument, NULL, OPT_PLOT_DPI },
	{ "plot-title", required_argument, NULL, OPT_PLOT_TITLE },
	{ "gpus-per-node", required_argument, NULL, OPT_GPUS_PER_NODE },
	{ "world-size", required_argument, NULL, OPT_WORLD_SIZE },
	{ "all2allv-heatmap", no_argument, NULL, OPT_HEATMAP },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "partial", no_argument, NULL, OPT_PARTIAL },
	{ "merge", no_argument, NULL, OPT_MERGE },
	{ NULL, 0, NULL, 0 }
};

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: ttp-table [-hqVv] [--csv FILE] [--no-advice] [--raw-op-codes] [--no-summary]\n"
	    "                 [--group-by op|memory|category|device|phase|line|KEY[,...]]\n"
	    "                 [--per-device]\n"
	    "                 [--summary-file BASE] [--stacked-csv BASE] [--classic-colors]\n"
	    "                 [--min-percentage F] [--color[=auto|always|never]] [--no-color]\n"
	    "                 [--format text|md|html] [--html FILE]\n"
	    "                 [--sort id|time|gap|total|op] [--top N]\n"
	    "                 [--percent-of all|shown] [--skip-bad] [FILE ...]\n"
	    "       ttp-table [--sheet NAME]... [--csv-dir DIR] [--xlsx FILE] [--top N]\n"
	    "                 [--width N] [--micro-idle-thresh-us X] [--include-unlinked-kernels]\n"
	    "                 [--no-kernel-summary] [--no-short-kernels]\n"
	    "                 [--short-kernel-threshold-us X] [--short-kernel-bins N]\n"
	    "                 [--topk-short-kernels N] [--print-summary] [--inference]\n"
	    "                 [--group-by-parent-module] [--group-by-num-kernels]\n"
	    "                 [--pseudo-ops] [--include-call-stack]\n"
	    "                 [--format text|md|csv|html] [--html FILE] [--skip-bad]\n"
	    "                 [--partial] [FILE ...]\n"
	    "       ttp-table --merge [--partial] [sheet options] [PARTIAL ...]\n"
	    "       ttp-table --plot roofline [--device N] [--top N] CHART [FILE ...]\n"
	    "Renders ttp records (from ttp-roofline) as tt-perf-report's report, or the\n"
	    "records of a PyTorch trace as TraceLens's sheets.\n"
	    "  --csv FILE            write the compatible op CSV to FILE instead of the text\n"
	    "                        report, and the summary beside it (FILE minus its\n"
	    "                        extension + \"_stacked\" .csv and .svg); FILE - is\n"
	    "                        standard output, with no summary files\n"
	    "  --no-advice           no advice section (no Advice column with --csv)\n"
	    "  --raw-op-codes        add a Raw OP Code column to the CSV\n"
	    "  --no-summary          no grouped summary (also --no-stacked-report)\n"
	    "  --group-by KEY        summary groups: op, memory (default), category,\n"
	    "                        device or phase; line (the model's source line,\n"
	    "                        loc_file:loc_line); any other record key (loc_line,\n"
	    "                        loc_name, iter, ...); or up to 4 of these, e.g.\n"
	    "                        phase,iter; on a PyTorch trace, the summary of its\n"
	    "                        GPU-launching ops by record keys (op, category,\n"
	    "                        phase, ...) instead of the sheets\n"
	    "  --per-device          one summary per device (the Device column)\n"
	    "  --summary-file BASE   also write the summary to BASE.csv and its plot to\n"
	    "                        BASE.svg (.png, .pdf: --plot-format)\n"
	    "  --stacked-csv BASE    the older name of --summary-file\n"
	    "  --classic-colors      plot with the tab20 palette, not category colours\n"
	    "  --plot-format FMT     the summary plot as svg (default), png or pdf\n"
	    "  --plot roofline       draw the ops' roofline chart to CHART (.png, .svg or\n"
	    "                        .pdf), labelling the --top N ops by time (default 10)\n"
	    "  --device N            the roofline chart of device N only\n"
	    "  --plot-phases DIR     beside the sheets, TraceLens's five inference-phase\n"
	    "                        charts of ops_summary_prefill and _decode in DIR\n"
	    "                        (--plot-format, default svg; --plot-dpi N, default\n"
	    "                        300; --plot-title NAME, the trace's name)\n"
	    "  --min-percentage F    grey out ops under F %% of the total (default 0.5)\n"
	    "  --color[=WHEN]        auto (default: a terminal and NO_COLOR unset),\n"
	    "                        always or never; --no-color is never (also\n"
	    "                        spelt --colour)\n"
	    "  --format text|md      the text report, or the table and advice as Markdown\n"
	    "  --format html         one self-contained HTML page on stdout instead: the\n"
	    "                        op table (sortable), the summary and its chart; for a\n"
	    "                        PyTorch trace the sheets (--sheet, --top) and charts\n"
	    "  --html FILE           write that page to FILE as well (beside the text,\n"
	    "                        --csv, --csv-dir or --xlsx output)\n"
	    "  --sort KEY            row order: id (input order, default), time (Device\n"
	    "                        Time), gap (Op-to-Op Gap), total (both), op (name);\n"
	    "                        largest first, equal keys in input order\n"
	    "  --top N               only the first N rows (after --sort); with\n"
	    "                        --summary-only the first N groups\n"
	    "  --summary-only        only the grouped summary, not the op table\n"
	    "  --percent-of WHAT     with --top: Total %% and the totals line of all the\n"
	    "                        ops (default) or of the shown ones\n"
	    "PyTorch traces (TraceLens's sheets):\n"
	    "  --sheet NAME          only this sheet (repeatable; default all)\n"
	    "  --csv-dir DIR         write each sheet to DIR/NAME.csv, nothing on stdout\n"
	    "  --xlsx FILE           write every sheet to one workbook, nothing on stdout\n"
	    "  --format csv          the one --sheet as CSV on stdout\n"
	    "  --top N               at most N rows of each sheet on the terminal\n"
	    "  --width N             fit text sheets to N columns: the widest cut, a wide\n"
	    "                        sheet in blocks of columns (0: never; default the\n"
	    "                        terminal's width, $COLUMNS, or 200 in a file or pipe);\n"
	    "                        the TT report: its OP Code column cut (in a file or\n"
	    "                        pipe, without --width: the reference's layout)\n"
	    "  --micro-idle-thresh-us X  split idle time at gaps of X us\n"
	    "  --include-unlinked-kernels  count kernels without a launcher in gpu_timeline\n"
	    "  --no-kernel-summary   leave out kernel_summary\n"
	    "  --no-short-kernels    leave out the short-kernel sheets\n"
	    "  --short-kernel-threshold-us X  short means shorter than X us (default 10)\n"
	    "  --short-kernel-bins N histogram bins (default 100)\n"
	    "  --topk-short-kernels N  rows of short_kernels_summary (default all)\n"
	    "  --no-coll-analysis    leave out coll_analysis\n"
	    "  --print-summary       with --csv-dir or --xlsx: the GPU timeline and the top\n"
	    "                        ops (--top, default 10) on stdout as well\n"
	    "  --inference           TraceLens's inference report: <family>_fwd sheets\n"
	    "                        (Normalization_fwd), the ops_summary of its layout\n"
	    "  --group-by-parent-module  parent_module and call stacks in the launcher\n"
	    "                        sheets (needs ttp-parse -p for the nn.Module frames)\n"
	    "  --group-by-num-kernels  num_kernels in ops_unique_args and the roofline sheets\n"
	    "  --pseudo-ops          TraceLens's pseudo-op option: sglang_profiler:: names\n"
	    "                        lose their _N; a trace that opens the gate of one of\n"
	    "                        TraceLens's pseudo-op extensions (fused MoE, MLA, ...)\n"
	    "                        is an error: ttp does not build them yet\n"
	    "  --include-call-stack  entry_point and call_stack_full in unified_perf_summary\n"
	    "                        (needs ttp-parse -p for the python frames)\n"
	    "  --partial             write the sheets (those of --sheet) as partial\n"
	    "                        aggregates, records that --merge reads\n"
	    "  --merge               read partials (FILEs or stdin, any number, any order)\n"
	    "                        and write their sheets; of several ranks: the\n"
	    "                        sheets over ranks; with --partial: one partial\n"
	    "Collective records (from ttp-filter) of every rank: TraceLens's\n"
	    "multi-rank collective report, written by the sheet options above.\n"
	    "  --world-size N        its world size (default: the highest rank + 1)\n"
	    "  --gpus-per-node N     node_id and node_span (default: rank 0's devices)\n"
	    "  --all2allv-heatmap    add nccl_all2allv_heatmap\n"
	    "  --skip-bad            leave out bad records (not JSON, a key of the wrong\n"
	    "                        type, an op without an id): warn about the first\n"
	    "                        %d, count them, report the rest, exit 0\n"
	    "  --protect FILE        an input of the run (repeatable): an output named like\n"
	    "                        it, or a link to it, is an error before anything is\n"
	    "                        written (the files read are protected already)\n"
	    "  -q, --quiet           no advisory notes (warnings and errors still appear)\n"
	    "  -v, --verbose         say which files are written; twice, also the ops\n"
	    "                        counted as category Other and the communication\n"
	    "                        kernels coll_analysis leaves out\n"
	    "  -h, --help            show this help and exit\n"
	    "  -V, --version         show the version and exit\n", BADREC_SHOWN);
}

/* --group-by, parsed (summary.h); the default is the reference's "memory". */
static struct group_spec gspec;
/* --summary-only: the summary without the op table (--top counts its groups) */
static int summary_only;
/* --partial, --merge (report/tlmerge.h): the sheets as partial records, and their
 * merge; the partial's rank and the report it is of */
static int partial_mode, merge_mode;
static long long partial_rank = -1;
static const char *partial_kind = "pytorch";

struct opts {
	const char	*csv, *summary_file, *stacked_csv;
	int		 advice, raw, summary, group_by, classic, per_device, verbose;
	int		 nverbose;	/* -v given this many times */
	int		 colour_mode, markdown, sort, percent_shown;
	long long	 top;		/* -1: all rows */
	double		 min_pct;
	unsigned	 given;		/* GIVEN_*: options that may conflict */
	/* PyTorch sheets */
	const char	*csv_dir, *xlsx;
	char		**sheets;
	size_t		 nsheets;
	long long	 width;
	int		 sheet_csv, print_summary;
	int		 html_stdout;	/* --format html */
	const char	*html;		/* --html FILE */
	struct tl_opts	 tl;
	struct nc_opts	 nc;		/* the multi-rank collective report */
};

static double
num_arg(const char *opt, const char *s)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || d != d)
		die_usage("%s: not a number: '%s'", opt, s);
	return d;
}

static long long
count_arg(const char *opt, const char *s)
{
	const char *e = NULL;
	long long v = strtonum(s, 0, 1000000000, &e);

	if (e != NULL)
		die_usage("%s: %s: '%s'", opt, e, s);
	return v;
}

/* The width text sheets are fitted to: --width; else, when standard output is a
 * terminal, $COLUMNS or the terminal's width; else 200 (a file, a pipe). */
static size_t
text_width(long long given)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS"), *e = NULL;
	long long n;

	if (given >= 0)
		return (size_t)given;
	if (!isatty(STDOUT_FILENO))
		return 200;
	if (c != NULL && *c != '\0' && (n = strtonum(c, 20, 100000, &e), e == NULL))
		return (size_t)n;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 200;
}

/* --- the HTML page (html.h): --format html on stdout, --html FILE ------------------ */

/* The first trace record's file: the page's title names it. */
static char *trace_file;

struct page {
	struct html	*h;
	struct outfile	*f;
};

static void
page_open(const struct opts *o, struct page *pg, const char *what)
{
	struct error e = ERROR_INIT;
	struct buf t = BUF_INIT;
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
	buf_printf(&t, "%s%s%s", what, trace_file ? ": " : "", !trace_file ? "" :
	    strrchr(trace_file, '/') ? strrchr(trace_file, '/') + 1 : trace_file);
	pg->h = html_new(fp, t.p);
	buf_free(&t);
}

static void
page_close(const struct opts *o, struct page *pg)
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
static void
page_sheet(struct page *pg, const struct opts *o, const struct tab *t)
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
static void
page_ops(struct page *pg, const struct opts *o, const struct table *t)
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
static void
page_summary(struct page *pg, const struct opts *o, const struct summary *s)
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

#define GIVEN_MIN_PCT	0x01
#define GIVEN_COLOUR	0x02
#define GIVEN_SUMMARY	0x04
#define GIVEN_PERCENT	0x08
#define GIVEN_FORMAT	0x10
#define GIVEN_GROUP	0x20

/* PyTorch op records read, and those with ttp-roofline's category: none means that
 * ttp-roofline was left out of the pipeline (no roofline sheets, no categories). */
static size_t torch_ops, torch_categorised;

/* --sheet NAME that the input has no sheet of: a warning that says what to do, with
 * the sheets there are (n names). */
static void
sheet_missing(const char *name, char *const *names, size_t n)
{
	struct buf b = BUF_INIT;
	size_t i;
	int fixed = 0;

	for (i = 0; tl_sheet_names[i] != NULL; i++)
		if (strcmp(tl_sheet_names[i], name) == 0)
			fixed = 1;
	/* the sheets of a roofline family are named by ttp-roofline's categories */
	if (!fixed && torch_ops > 0 && torch_categorised == 0) {
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

/* --plot, --plot-format, --device: the charts (chart.h) */
static const char *plot_kind;
static int plot_format = CHART_SVG;
static long plot_device = -1;
/* --plot-phases DIR, --plot-dpi, --plot-title: the inference-phase charts (phasechart.h) */
static const char *plot_phases_dir;
static long plot_dpi = 300;
static const char *plot_title = "trace";
static struct phasechart *phase_charts;

/* The --csv name means standard output, a device, a pipe or a descriptor (/dev/stdout,
 * also when it leads to a file): no summary files beside it (D9), since
 * "/dev/stdout_stacked.csv" is nobody's wish. */
static int
csv_is_stream(const char *csv)
{
	return outfile_is_stream(csv);
}

/* BASE for the summary files (D5): --summary-file, else --stacked-csv, else the
 * --csv path without its extension plus "_stacked"; a trailing ".csv" is dropped. */
static char *
summary_base(const struct opts *o)
{
	const char *b = o->summary_file ? o->summary_file : o->stacked_csv;
	char *s;
	size_t n;

	if (b != NULL) {
		s = xstrdup(b);
		n = strlen(s);
		if (n > 4 && strcmp(s + n - 4, ".csv") == 0)
			s[n - 4] = '\0';
		return s;
	}
	if (o->csv != NULL && !csv_is_stream(o->csv)) {
		const char *slash = strrchr(o->csv, '/'), *base, *dot;
		struct buf bb = BUF_INIT;

		base = slash ? slash + 1 : o->csv;
		while (*base == '.')
			base++;
		dot = strrchr(base, '.');
		n = dot ? (size_t)(dot - o->csv) : strlen(o->csv);
		buf_add(&bb, o->csv, n);
		buf_adds(&bb, "_stacked");
		return bb.p;
	}
	return NULL;
}

/* One message and exit 1, with nothing left allocated for a leak checker to report. */
static void __attribute__((noreturn))
summary_write_failed(struct buf *p)
{
	char msg[1024];
	int e = errno;

	snprintf(msg, sizeof(msg), "%s: %s", p->p, strerror(e));
	buf_free(p);
	die(EXIT_DATA, "%s", msg);
}

static void
write_summary_files(const struct opts *o, const struct summary *s)
{
	char *base = summary_base(o);
	struct buf p = BUF_INIT;

	if (base == NULL)
		return;
	buf_printf(&p, "%s.csv", base);
	free(base);	/* p holds it from here on */
	if (o->verbose)
		say("Writing CSV stacked report to %s", p.p);
	if (summary_write_csv(p.p, s) != 0)
		summary_write_failed(&p);
	memcpy(p.p + p.len - 3, chart_format_name(plot_format), 3);
	if (o->verbose)
		say("Plotting %s stacked report to %s", plot_format == CHART_PNG ? "PNG" :
		    plot_format == CHART_PDF ? "PDF" : "SVG", p.p);
	if (summary_write_plot(p.p, s, o->classic, plot_format) != 0)
		summary_write_failed(&p);
	buf_free(&p);
}

/* An output named by the command line that is an input of the run: a usage error,
 * before anything is written. */
static void
check_output(const char *opt, const char *path)
{
	if (path != NULL && strcmp(path, "-") != 0 && outfile_is_input(path))
		die_usage("%s %s: that file is an input of this run; writing it would "
		    "destroy the input (give another output name)", opt, path);
}

/* The named outputs that are inputs (the files read, standard input, --protect's): a
 * usage error before anything is read or written. Each sheet of --csv-dir is checked
 * when its name is known. */
static void
check_outputs(const struct opts *o, char **paths, int npaths)
{
	char *base = summary_base(o);
	struct buf p = BUF_INIT;
	int i;

	for (i = 0; i < npaths; i++)
		if (strcmp(paths[i], "-") != 0)
			outfile_protect(paths[i]);
	outfile_protect_fd(STDIN_FILENO);
	check_output("--csv", o->csv);
	check_output("--xlsx", o->xlsx);
	check_output("--html", o->html);
	if (base != NULL && o->summary) {
		buf_printf(&p, "%s.csv", base);
		check_output(o->summary_file ? "--summary-file" : o->stacked_csv ?
		    "--stacked-csv" : "--csv (its summary)", p.p);
		/* the plot, in its format (--plot-format) */
		memcpy(p.p + p.len - 3, chart_format_name(plot_format), 3);
		check_output(o->summary_file ? "--summary-file" : o->stacked_csv ?
		    "--stacked-csv" : "--csv (its summary)", p.p);
	}
	if (plot_phases_dir != NULL) {
		static const char *const charts[] = { "phase_overview", "time_distributions",
		    "operation_frequencies", "performance_bottlenecks", "detailed_breakdowns" };
		size_t k;

		for (k = 0; k < sizeof(charts) / sizeof(charts[0]); k++) {
			buf_reset(&p);
			buf_printf(&p, "%s/%s.%s", plot_phases_dir, charts[k],
			    chart_format_name(plot_format));
			check_output("--plot-phases", p.p);
		}
	}
	buf_free(&p);
	free(base);
}

/* D8: refuse output names that lose data; warn about options that have no effect. */
static void
check_args(const struct opts *o)
{
	const char *sname = o->summary_file ? "--summary-file" : "--stacked-csv";
	char *base;

	if (o->csv != NULL && *o->csv == '\0')
		die_usage("--csv: empty file name");
	if ((o->summary_file != NULL && *o->summary_file == '\0') ||
	    (o->stacked_csv != NULL && *o->stacked_csv == '\0'))
		die_usage("%s: empty name (it would write the hidden files .csv and .svg)",
		    sname);
	if (o->csv != NULL && (o->summary_file != NULL || o->stacked_csv != NULL) &&
	    (base = summary_base(o)) != NULL) {
		size_t n = strlen(base);
		const char *c = o->csv;

		if (strncmp(c, "./", 2) == 0 && strncmp(base, "./", 2) != 0)
			c += 2;
		if (strncmp(c, base, n) == 0 && (strcmp(c + n, ".csv") == 0 ||
		    strcmp(c + n, ".svg") == 0 || c[n] == '\0')) {
			free(base);
			die_usage("%s %s would overwrite the --csv file %s", sname,
			    o->summary_file ? o->summary_file : o->stacked_csv, o->csv);
		}
		free(base);
	}
	if (o->csv != NULL && (o->given & GIVEN_FORMAT))
		warning("warning: --format has no effect with --csv");
	if ((o->csv != NULL || o->markdown) && (o->given & GIVEN_COLOUR) &&
	    o->colour_mode == COLOUR_ALWAYS)
		warning("warning: --color has no effect with %s", o->csv ? "--csv" : "--format md");
	if ((o->csv != NULL || o->markdown) && (o->given & GIVEN_MIN_PCT))
		warning("warning: --min-percentage has no effect with %s",
		    o->csv ? "--csv" : "--format md");
	if (!o->summary && (o->given & GIVEN_SUMMARY))
		warning("warning: %s has no effect with --no-summary", sname);
	if (o->raw && o->csv == NULL)
		warning("warning: --raw-op-codes has no effect without --csv");
	if (summary_only && !o->summary)
		die_usage("--summary-only and --no-summary together leave nothing to show");
	if (summary_only && o->csv != NULL)
		die_usage("--summary-only: not with --csv (the op CSV is the op table); "
		    "--summary-file writes the summary's CSV");
	if (summary_only && (o->given & GIVEN_PERCENT))
		warning("warning: --percent-of has no effect with --summary-only");
	if ((o->given & GIVEN_PERCENT) && o->top < 0)
		warning("warning: --percent-of has no effect without --top");
	if (o->html_stdout && o->html != NULL)
		die_usage("--format html and --html: the page goes to one place (standard "
		    "output, or the file)");
	if (o->html_stdout && o->csv != NULL)
		die_usage("--format html: not with --csv (--html FILE writes the page "
		    "beside the CSV)");
	if (o->html_stdout && o->print_summary)
		die_usage("--format html: not with --print-summary (--html FILE writes the "
		    "page and leaves the terminal to the summary)");
	if ((o->given & GIVEN_GROUP) && (o->csv_dir != NULL || o->xlsx != NULL ||
	    o->nsheets > 0 || o->sheet_csv))
		die_usage("--group-by: not with --sheet, --csv-dir, --xlsx or --format csv "
		    "(TraceLens's sheets have their own groupings)");
}

static void
plot_option(int ch, const char *arg)
{
	const char *e = NULL;

	if (ch == OPT_PLOT) {
		if (strcmp(arg, "roofline") != 0)
			die_usage("--plot: expected roofline, not '%s'", arg);
		plot_kind = arg;
	} else if (ch == OPT_PLOT_PHASES) {
		if (*arg == '\0')
			die_usage("--plot-phases: the directory's name is empty");
		plot_phases_dir = arg;
	} else if (ch == OPT_PLOT_DPI) {
		/* 600 dpi is a 9000 x 7200 PNG of 260 MB in memory; more is refused */
		plot_dpi = (long)strtonum(arg, 1, 600, &e);
		if (e != NULL)
			die_usage("--plot-dpi: expected a resolution of 1 to 600 dpi, not '%s'",
			    arg);
	} else if (ch == OPT_PLOT_TITLE) {
		plot_title = arg;
	} else if (ch == OPT_PLOT_FORMAT) {
		if ((plot_format = chart_format_parse(arg)) < 0)
			die_usage("--plot-format: expected svg, png or pdf, not '%s'", arg);
	} else {
		plot_device = (long)strtonum(arg, 0, LONG_MAX, &e);
		if (e != NULL)
			die_usage("--device: expected a device number, not '%s'", arg);
	}
}

/* The TT report's options (tt-perf-report's); false when ch is none of them. */
static bool
tt_option(struct opts *o, int ch, char *arg)
{
	char *end;
	const char *errstr, *err;

	switch (ch) {
	case OPT_CSV: o->csv = arg; break;
	case OPT_NO_ADVICE: o->advice = 0; break;
	case OPT_RAW: o->raw = 1; break;
	case OPT_NO_SUMMARY: o->summary = 0; break;
	case OPT_GROUP_BY:
		if (summary_parse_spec(arg, &gspec, &err) != 0)
			die_usage("--group-by: %s: '%s'", err, arg);
		o->group_by = gspec.by;
		o->given |= GIVEN_GROUP;
		break;
	case OPT_CLASSIC: o->classic = 1; break;
	case OPT_SUMMARY_FILE:
		o->summary_file = arg;
		o->given |= GIVEN_SUMMARY;
		break;
	case OPT_STACKED_CSV:
		o->stacked_csv = arg;
		o->given |= GIVEN_SUMMARY;
		break;
	case OPT_MIN_PCT:
		errno = 0;
		o->min_pct = strtod(arg, &end);
		if (errno != 0 || end == arg || *end != '\0')
			die_usage("--min-percentage: not a number: '%s'", arg);
		o->given |= GIVEN_MIN_PCT;
		break;
	case OPT_COLOR:
		o->given |= GIVEN_COLOUR;
		if (arg == NULL)
			o->colour_mode = COLOUR_ALWAYS;
		else if ((o->colour_mode = colour_parse_mode(arg)) < 0)
			die_usage("--color: expected auto, always or never, not '%s'", arg);
		break;
	case OPT_NO_COLOR: o->colour_mode = COLOUR_NEVER; break;
	case OPT_PER_DEVICE: o->per_device = 1; break;
	case OPT_SORT:
		if ((o->sort = table_parse_sort(arg)) < 0)
			die_usage("--sort: invalid choice: '%s' (choose from 'id', 'time', "
			    "'gap', 'total', 'op')", arg);
		break;
	case OPT_TOP:
		o->top = strtonum(arg, 0, LLONG_MAX, &errstr);
		if (errstr != NULL)
			die_usage("--top: expected a count, not '%s'", arg);
		break;
	case OPT_SUMMARY_ONLY:
		summary_only = 1;
		break;
	case OPT_PERCENT_OF:
		if (strcmp(arg, "all") == 0)
			o->percent_shown = 0;
		else if (strcmp(arg, "shown") == 0)
			o->percent_shown = 1;
		else
			die_usage("--percent-of: invalid choice: '%s' (choose from 'all', "
			    "'shown')", arg);
		o->given |= GIVEN_PERCENT;
		break;
	default:
		return false;
	}
	return true;
}

/* The options of every report's output: --format, --width, --html, --protect; false
 * when ch is none of them. */
static bool
output_option(struct opts *o, int ch, char *arg)
{
	switch (ch) {
	case OPT_FORMAT:
		/* the last --format wins */
		o->sheet_csv = o->html_stdout = o->markdown = 0;
		if (strcmp(arg, "text") == 0)
			o->markdown = 0;
		else if (strcmp(arg, "md") == 0 || strcmp(arg, "markdown") == 0)
			o->markdown = 1;
		else if (strcmp(arg, "csv") == 0)
			o->sheet_csv = 1;
		else if (strcmp(arg, "html") == 0)
			o->html_stdout = 1;
		else
			die_usage("--format: expected text, md, csv or html, not '%s'", arg);
		o->given |= GIVEN_FORMAT;
		break;
	case OPT_WIDTH: o->width = count_arg("--width", arg); break;
	case OPT_HTML:
		if (*arg == '\0')
			die_usage("--html: empty file name");
		o->html = arg;
		break;
	case OPT_PROTECT: outfile_protect(arg); break;
	default:
		return false;
	}
	return true;
}

/* The options of TraceLens's sheets (PyTorch and the multi-rank collective report);
 * false when ch is none of them. */
static bool
sheet_option(struct opts *o, int ch, char *arg)
{
	switch (ch) {
	case OPT_SHEET:
		o->sheets = xreallocarray(o->sheets, o->nsheets + 1, sizeof(*o->sheets));
		o->sheets[o->nsheets++] = arg;
		break;
	case OPT_CSV_DIR: o->csv_dir = arg; break;
	case OPT_XLSX: o->xlsx = arg; break;
	case OPT_MICRO_IDLE:
		o->tl.micro_idle_us = num_arg("--micro-idle-thresh-us", arg);
		break;
	case OPT_UNLINKED: o->tl.include_unlinked = 1; break;
	case OPT_NO_KSUM: o->tl.kernel_summary = 0; break;
	case OPT_NO_SHORT: o->tl.short_kernels = 0; break;
	case OPT_SHORT_THRESH:
		o->tl.short_thresh_us = num_arg("--short-kernel-threshold-us", arg);
		break;
	case OPT_SHORT_BINS:
		if ((o->tl.short_bins = (long)count_arg("--short-kernel-bins", arg)) < 1)
			die_usage("--short-kernel-bins: must be at least 1");
		break;
	case OPT_TOPK_SHORT:
		o->tl.topk_short = (long)count_arg("--topk-short-kernels", arg);
		break;
	case OPT_PRINT_SUMMARY: o->print_summary = 1; break;
	case OPT_INFERENCE: o->tl.inference = 1; break;
	case OPT_BY_MODULE: o->tl.by_module = 1; break;
	case OPT_BY_NKERNELS: o->tl.by_nkernels = 1; break;
	case OPT_PSEUDO: o->tl.pseudo_ops = 1; break;
	case OPT_NO_COLL: o->tl.coll = 0; break;
	case OPT_CALL_STACK: o->tl.call_stack = 1; break;
	case OPT_GPUS_PER_NODE:
		if ((o->nc.gpus_per_node = count_arg("--gpus-per-node", arg)) < 1)
			die_usage("--gpus-per-node: too small: '%s'", arg);
		break;
	case OPT_WORLD_SIZE:
		if ((o->nc.world_size = count_arg("--world-size", arg)) < 1)
			die_usage("--world-size: too small: '%s'", arg);
		break;
	case OPT_HEATMAP: o->nc.heatmap = 1; break;
	case OPT_PARTIAL: partial_mode = 1; break;
	case OPT_MERGE: merge_mode = 1; break;
	default:
		return false;
	}
	return true;
}

/* --- the program: its options and a sink stage (core/stage.h) ----------------------- */

/* What the stage holds; static in main, so that a leak checker sees it when an error
 * exits from deep inside. */
struct tbl {
	struct opts		 o;
	struct stage_env	*env;
	char			**inputs;	/* the files read (for check_outputs) */
	int			 ninputs;
	const char		*chart;		/* --plot roofline's CHART, its format */
	int			 chart_fmt;
	struct roofchart	*rc;
	struct table		 t;		/* the TT report */
	struct summary		*s;
	struct page		 pg;
	struct tl		*tl;		/* a PyTorch trace */
	struct jx		*jx;		/* a JAX profile */
	struct nc		*nc;		/* collective records */
	int			 colour;
	size_t			 tt_width;
	size_t			 ntorch, ntt, nrecs;
};

/* One option of ttp-table's own (stage_main has the common ones). */
static void
option(void *self, int ch, char *arg)
{
	struct opts *o = &((struct tbl *)self)->o;

	if (!tt_option(o, ch, arg) && !output_option(o, ch, arg) &&
	    !sheet_option(o, ch, arg))
		plot_option(ch, arg);
}

/* ttp-table's stage: records in, tables out; --merge reads its partials whole */
static struct stage tbl_stage;
static int tbl_merge(void *self, struct rec_reader *rd, struct error *e);

static void
ready(void *self, struct stage_env *env)
{
	struct opts *o = &((struct tbl *)self)->o;

	o->verbose = env->verbose;
	o->nverbose = env->nverbose;
	if (env->nverbose > 1)	/* twice: also the notes a user cannot act on */
		metrics_category_notes(1);
	check_args(o);
	if (plot_kind == NULL && plot_device >= 0)
		die_usage("--device: only with --plot roofline");
	if (plot_kind == NULL && plot_phases_dir != NULL && !(partial_mode && !merge_mode))
		phase_charts = phasechart_new();
	if (partial_mode && !merge_mode)
		tlm_capture_begin();
	if (merge_mode) {
		tbl_stage.push = NULL;
		tbl_stage.run = tbl_merge;
	}
}

/* ttp-table --plot roofline CHART [FILE ...]: CHART leads the inputs. */
static int
operands(void *self, int argc, char **argv)
{
	struct tbl *p = self;
	int n = 0;

	if (plot_kind != NULL) {
		if (argc < 1)
			die_usage("--plot roofline: the chart's file name is missing");
		p->chart = argv[n++];
		if ((p->chart_fmt = chart_format_of_path(p->chart)) < 0)
			die_usage("--plot: %s: the name ends in neither .png, .svg nor .pdf",
			    p->chart);
		p->rc = roofchart_new(plot_device);
	}
	p->inputs = argv + n;
	p->ninputs = argc - n;
	return n;
}

static int
wanted(const struct opts *o, const char *name)
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
write_sheet_csvs(const char *dir, struct tab **s, size_t n, const struct opts *o)
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
		check_output("--csv-dir", p.p);
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

static void sheets_write(const struct opts *o, struct tab **s, size_t n);

/* The sheets written one by one as they are built (issue 24: one held at a time), the
 * large PyTorch ones in parts of this many rows. */
#define TABLE_PART_ROWS	4096
struct stream {
	const struct opts *o;
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
comm_note(const struct opts *o, struct tl *tl)
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
	const struct opts *o = st->o;

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
	const struct opts *o = st->o;
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
			sheet_missing(o->sheets[j], st->seen, st->nseen);
	}
}

/* One sheet to a temporary beside DIR/NAME.csv; every one is renamed into place only
 * after the last is written, so a failure leaves none of them half-written. */
static void
stream_csv(struct stream *st, const struct tab *t)
{
	struct error e = ERROR_INIT;
	struct buf p = BUF_INIT;
	struct outfile *f;

	buf_printf(&p, "%s/%s.csv", st->o->csv_dir, t->name);
	check_output("--csv-dir", p.p);
	if (st->o->verbose)
		say("Writing %s", p.p);
	if ((f = outfile_open(p.p, &e)) == NULL)
		error_die(&e);
	if (tab_write_csv(t, outfile_fp(f)) != 0)
		die(EXIT_DATA, "%s: %s", p.p, strerror(errno ? errno : EIO));
	st->of = xreallocarray(st->of, st->nof + 1, sizeof(*st->of));
	st->of[st->nof++] = f;
	buf_free(&p);
}

static void
stream_sheet(struct tab *t, void *ctx)
{
	struct stream *st = ctx;
	const struct opts *o = st->o;

	stream_start(st);
	if (phase_charts != NULL)
		(void)phasechart_add(phase_charts, t);
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
	const struct opts *o = st->o;
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
sheets_stream(const struct opts *o, struct tl *tl)
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
		    text_width(o->width), st.umore);
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
static void
phase_plots(const struct opts *o)
{
	struct error err = ERROR_INIT;

	if (phase_charts == NULL)
		return;
	if (phasechart_has_data(phase_charts)) {
		int n;

		make_dirs(plot_phases_dir);
		if ((n = phasechart_write(phase_charts, plot_phases_dir, plot_format,
		    (double)plot_dpi, plot_title, o->verbose ? say_plot : NULL, &err)) < 0)
			error_die(&err);
		if (!o->verbose)
			note("wrote %d inference phase charts to %s", n, plot_phases_dir);
	} else if (o->verbose) {
		say("No phase data available for plotting");
	}
	phasechart_free(phase_charts);
	phase_charts = NULL;
}

/* TraceLens's sheets of a PyTorch trace: CSV files, a workbook, or stdout. */
static void
sheets_output(const struct opts *o, struct tl *tl)
{
	struct tab **s;
	struct error err = ERROR_INIT;
	size_t n, i;

	partial_rank = tl->rank0;
	if ((o->csv_dir != NULL) != (o->xlsx != NULL) && !partial_mode) {
		sheets_stream(o, tl);
		return;
	}
	n = tl_sheets(tl, &o->tl, &s, &err);

	if (error_is_set(&err))
		error_die(&err);
	for (i = 0; phase_charts != NULL && i < n; i++)
		(void)phasechart_add(phase_charts, s[i]);
	if (o->nverbose > 1 && o->tl.coll && !o->tl.inference &&
	    (i = tl_comm_kernels(tl)) > 0)
		note("coll_analysis leaves out %zu communication kernels without their "
		    "collective's args (Collective name, dtype, ...)", i);
	sheets_write(o, s, n);
	tl_sheets_free(s, n);
}

/* The JAX sheets into one directory or one workbook as they are built (issue 26):
 * one part of one sheet held at a time. */
struct jstream {
	const struct opts *o;
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
	const struct opts *o = st->o;
	struct error e = ERROR_INIT;
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
			struct buf p = BUF_INIT;

			buf_printf(&p, "%s/%s.csv", o->csv_dir, t->name);
			check_output("--csv-dir", p.p);
			if (o->verbose)
				say("Writing %s", p.p);
			if ((st->cur = outfile_open(p.p, &e)) == NULL)
				error_die(&e);
			buf_free(&p);
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
static void
jax_output(const struct opts *o, struct jx *jx)
{
	struct tab **s;
	struct error err = ERROR_INIT;
	size_t n, i, j;

	partial_kind = "jax";
	if ((o->csv_dir != NULL) != (o->xlsx != NULL) && !o->html_stdout && o->html == NULL &&
	    !partial_mode) {
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
				sheet_missing(o->sheets[j], st.seen, st.nseen);
		}
		if (st.keep != NULL)
			print_summary(&st.keep, 1, o->top >= 0 ? (size_t)o->top : 10,
			    text_width(o->width), 0);
		tab_free(st.keep);
		for (i = 0; i < st.nseen; i++)
			free(st.seen[i]);
		free(st.seen);
		return;
	}
	n = jx_sheets(jx, &s, &err);
	if (error_is_set(&err))
		error_die(&err);
	sheets_write(o, s, n);
	jx_sheets_free(s, n);
}

/* A sheet of the multi-rank report, or a part of one (more: parts follow): into the
 * sheet's CSV and its worksheet, which the first part opens and the last closes. */
static void
nccl_part(struct tab *t, int more, void *ctx)
{
	struct stream *st = ctx;
	const struct opts *o = st->o;
	struct error e = ERROR_INIT;
	struct buf p = BUF_INIT;
	int first = !st->inpart;

	if (first) {
		stream_start(st);
		st->seen = xreallocarray(st->seen, st->nseen + 1, sizeof(*st->seen));
		st->seen[st->nseen++] = xstrdup(t->name);
		st->inpart = wanted(o, t->name) ? 1 : 2;
		st->part = NULL;
		st->bpart = NULL;
		if (st->inpart == 1 && o->csv_dir != NULL) {
			buf_printf(&p, "%s/%s.csv", o->csv_dir, t->name);
			check_output("--csv-dir", p.p);
			if (o->verbose)
				say("Writing %s", p.p);
			if ((st->part = outfile_open(p.p, &e)) == NULL)
				error_die(&e);
		}
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
	buf_free(&p);
	tab_free(t);
}

/* TraceLens's multi-rank collective report of collective records. Into a directory or a
 * workbook, each sheet is written as it is made, the large ones part by part (but for
 * an HTML page, which takes whole sheets), so that the reduce's memory stays bounded
 * whatever the number of ranks (issue 27). */
static void
nccl_output(const struct opts *o, struct nc *nc, struct tl *tl)
{
	struct tab **s;
	struct error err = ERROR_INIT;
	struct stream st;
	size_t n, i;

	partial_kind = "collectives";
	if ((o->csv_dir == NULL && o->xlsx == NULL) || o->html_stdout || partial_mode) {
		n = nc_sheets(nc, &o->nc, &s, &err);
		if (error_is_set(&err))
			error_die(&err);
		sheets_write(o, s, n);
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
sheets_write(const struct opts *o, struct tab **s, size_t n)
{
	size_t i, j, shown = 0;
	size_t width = text_width(o->width);
	size_t top = o->top >= 0 ? (size_t)o->top : 0;

	if (partial_mode && !merge_mode) {
		/* the sheets --sheet names, or all; those --print-summary shows */
		char *opts = tlm_opts_text(&o->tl, partial_kind);
		struct tab **w = xcalloc(n + 1, sizeof(*w));

		for (i = j = 0; i < n; i++)
			if (wanted(o, s[i]->name) || (o->print_summary &&
			    (strcmp(s[i]->name, "gpu_timeline") == 0 ||
			    strcmp(s[i]->name, "unified_perf_summary") == 0)))
				w[j++] = s[i];
		tlm_partial_write(stdout, w, j, partial_rank, opts, trace_file);
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
			sheet_missing(o->sheets[j], names, n);
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

/* --merge: the partials' sheets written as the sheets are, or one partial again (the
 * stage's run: the inputs are partials, read whole). */
static int
tbl_merge(void *self, struct rec_reader *rd, struct error *e)
{
	const struct opts *o = &((struct tbl *)self)->o;
	struct tlm *m = tlm_new();
	struct tab **s;
	size_t n, i;

	if (tlm_read(m, rd, e) != 0) {
		tlm_free(m);
		return -1;
	}
	if (tlm_file(m) != NULL)
		trace_file = xstrdup(tlm_file(m));
	if (partial_mode) {
		tlm_keep(m, o->sheets, o->nsheets);
		tlm_write(m, stdout);
	} else {
		n = tlm_sheets(m, &s);
		for (i = 0; phase_charts != NULL && i < n; i++)
			(void)phasechart_add(phase_charts, s[i]);
		sheets_write(o, s, n);
		tl_sheets_free(s, n);
		phase_plots(o);
	}
	tlm_free(m);
	return 0;
}

/* A record of a PyTorch trace. */
static int
torch_record(struct rec *r)
{
	return rec_trace(r) == TRACE_KINETO;
}

/* --group-by on a PyTorch trace: the summary's rows are the ops that launch GPU work
 * (TraceLens's kernel launchers; device_ns is their kernels' busy time), grouped by
 * record keys. *n counts the trace's good records. */
static void
torch_add(struct table *t, struct rec *r, size_t *n)
{
	const char *err;
	bool launcher = false;

	if (rec_kind(r) == KIND_OP)
		(void)rec_bool(r, "launcher", &launcher);
	if (rec_bad(r) != NULL)
		return;
	if (*n == 0) {
		if (summary_spec_torch(&gspec, &err) != 0)
			die_usage("--group-by %s: %s", gspec.text, err);
		table_group_keys(t, gspec.keys, gspec.nkeys);
	}
	if (launcher)
		table_add(t, r);
	if (rec_bad(r) == NULL)
		(*n)++;
}

static int
tbl_open(void *self, FILE *out, struct stage_env *env, struct error *e)
{
	struct tbl *p = self;
	const struct opts *o = &p->o;

	p->env = env;
	if (plot_kind != NULL)
		return 0;
	p->colour = !o->markdown && !o->html_stdout && o->csv == NULL &&
	    colour_wanted(o->colour_mode, stdout);
	/* the TT report and its summary: fitted to --width, or to a terminal; a file or a
	 * pipe gets the reference's layout */
	p->tt_width = o->width >= 0 ? (size_t)o->width : isatty(STDOUT_FILENO) ?
	    text_width(-1) : 0;
	table_init(&p->t);
	p->tl = tl_new();
	p->jx = jx_new();
	p->nc = nc_new();
	table_group_keys(&p->t, gspec.keys, gspec.nkeys);
	if (o->sort == SORT_ID)	/* rows only read in file order: memory stays flat */
		table_spool(&p->t);
	check_outputs(o, p->inputs, p->ninputs);
	return 0;
}

/* One record: the stages keep nothing of a bad record; the policy decides what else. */
static int
tbl_push(void *self, struct rec *r, struct error *e)
{
	struct tbl *p = self;
	struct trace_info ti;

	if (plot_kind != NULL) {
		(void)roofchart_add(p->rc, r);
		return STAGE_READ;
	}
	p->nrecs++;
	if (trace_file == NULL && trace_read(r, &ti) && ti.file != NULL)
		trace_file = xstrdup(ti.file);
	if (torch_record(r) && rec_kind(r) == KIND_OP) {
		torch_ops++;
		if (rec_str(r, "category", NULL) != NULL)
			torch_categorised++;
	}
	if ((p->o.given & GIVEN_GROUP) && torch_record(r))
		torch_add(&p->t, r, &p->ntorch);
	else if (jx_add(p->jx, r))
		;
	else if (nc_add(p->nc, r))
		;
	else if (!tl_add(p->tl, r))
		p->ntt += (size_t)table_add(&p->t, r);
	return STAGE_READ;
}

/* --plot roofline: the chart of the records, nothing else. */
static int
plot_finish(struct tbl *p, struct error *e)
{
	if (p->o.verbose)
		say("Plotting the roofline of %zu ops to %s", roofchart_count(p->rc), p->chart);
	return roofchart_write(p->rc, p->chart, p->chart_fmt,
	    p->o.top >= 0 ? (size_t)p->o.top : 10, e) != 0 ? -1 : 0;
}

/* --group-by on a PyTorch trace: the grouped summary of its ops, as --summary-only
 * shows it. */
static void
torch_summary(struct tbl *p)
{
	if (p->ntt > 0 || tl_count(p->tl) > 0)
		die(EXIT_DATA, "the input mixes TT-Metal ops with PyTorch records");
	if (p->o.csv != NULL)
		die_usage("--csv: the op CSV is tt-perf-report's; for a PyTorch trace, "
		    "--summary-file writes the summary's CSV");
	if (!p->o.summary)
		die_usage("--group-by on a PyTorch trace shows the grouped summary: "
		    "not with --no-summary");
	if (p->o.per_device)
		die_usage("--per-device: PyTorch ops have no device key (their kernels "
		    "run on one)");
	summary_only = 1;
	p->o.group_by = gspec.by;
}

/* TraceLens's reports: collective records, a JAX profile or a PyTorch trace's sheets;
 * false when the input is none of those (a TT report). */
static bool
sheets_report(struct tbl *p)
{
	const struct opts *o = &p->o;

	if (nc_count(p->nc) > 0) {
		/* collective records (ttp-filter --collectives): the multi-rank report */
		if (p->t.nrows > 0 || tl_count(p->tl) > 0 || jx_count(p->jx) > 0)
			die(EXIT_DATA, "the input mixes collective records with other records");
		nccl_output(o, p->nc, p->tl);
		return true;
	}
	if (jx_count(p->jx) > 0) {
		/* a JAX profile (the trace record says xplane): TraceLens's JAX report */
		if (p->t.nrows > 0 || tl_count(p->tl) > 0)
			die(EXIT_DATA, "the input mixes a JAX profile with other records");
		jax_output(o, p->jx);
		return true;
	}
	if (tl_count(p->tl) > 0 || o->csv_dir != NULL || o->xlsx != NULL || o->nsheets > 0) {
		if (p->t.nrows > 0)
			die(EXIT_DATA, "the input mixes TT-Metal ops with PyTorch records");
		sheets_output(o, p->tl);
		phase_plots(o);
		return true;
	}
	return false;
}

/* --csv FILE: the compatible op CSV, to FILE or standard output. */
static void
write_op_csv(const struct opts *o, const struct table *t)
{
	struct outfile *f = NULL;
	struct error e = ERROR_INIT;
	FILE *fp = stdout;
	int tostdout = strcmp(o->csv, "-") == 0;

	if (o->verbose)
		say("Writing CSV output to %s", tostdout ? "standard output" : o->csv);
	if (!tostdout) {
		if ((f = outfile_open(o->csv, &e)) == NULL)
			error_die(&e);
		fp = outfile_fp(f);
	}
	if (opcsv_write(fp, t, (o->advice ? OPCSV_ADVICE : 0) | (o->raw ? OPCSV_RAW : 0)) != 0)
		die(EXIT_DATA, "%s: %s", o->csv, strerror(errno));
	if (f != NULL && outfile_commit(f, &e) != 0)
		error_die(&e);
}

/* The TT report's op table: the CSV, or the text or Markdown table and its advice;
 * false when no summary follows (no ops). */
static bool
tt_table(struct tbl *p)
{
	const struct opts *o = &p->o;
	struct table *t = &p->t;
	struct error keyerr = ERROR_INIT;

	if (partial_mode)
		die(EXIT_DATA, "--partial: only TraceLens's sheets have partials, not the TT "
		    "report or the --group-by summary");
	table_finish(t);
	if (t->nnokind > 0)
		warning("warning: %s: %ld record%s without \"kind\" left out (not ttp records?)",
		    t->nokind_where, t->nnokind, t->nnokind == 1 ? "" : "s");
	if (t->nnoroof > 0 && p->ntorch == 0)
		warning("warning: %ld op%s without roofline keys (no figures, bound or advice): "
		    "add ttp-roofline before ttp-table", t->nnoroof, t->nnoroof == 1 ? "" : "s");
	if (o->summary && summary_check_keys(t, &gspec, &keyerr) != 0)
		error_die(&keyerr);
	table_sort(t, o->sort);
	if (o->top >= 0 && !summary_only)
		table_top(t, (size_t)o->top, o->percent_shown);

	/* the page: the op table, then the summary, as the text report has them */
	page_open(o, &p->pg, "Performance report");
	if (t->nrows > 0 && !summary_only)
		page_ops(&p->pg, o, t);
	if (o->csv != NULL) {
		write_op_csv(o, t);
		return t->nrows > 0;
	} else if (t->nrows == 0) {
		note("No operations to display after applying filters.");
		if (p->pg.h != NULL)
			html_note(p->pg.h, "No operations to display after applying filters.");
		return false;
	} else if (summary_only || o->html_stdout) {
		;
	} else if (o->markdown) {
		report_markdown(stdout, t);
		if (o->advice)
			report_markdown_advice(stdout, t);
	} else {
		struct report_opts ro = { p->colour, o->advice, o->min_pct, p->tt_width };

		report_text(stdout, t, &ro);
	}
	return true;
}

/* The TT report's grouped summary: on stdout, in the page, and its files. */
static void
tt_summary(struct tbl *p)
{
	const struct opts *o = &p->o;

	if (!o->summary)
		return;
	if ((p->s = summary_build(&p->t, &gspec, o->per_device)) == NULL) {
		note("No data available for stacked report generation.");
		return;
	}
	if (o->per_device && o->group_by == GROUP_CATEGORY && summary_ndevices(p->s) > 1)
		die(EXIT_DATA, "--group-by category cannot be combined with a per-device "
		    "summary of %zu devices", summary_ndevices(p->s));
	if (summary_only && o->top >= 0)
		summary_top(p->s, (size_t)o->top);
	page_summary(&p->pg, o, p->s);
	if (o->csv == NULL && !o->html_stdout) {
		if (o->markdown) {
			if (!summary_only)
				fputc('\n', stdout);
			summary_markdown(stdout, p->s);
		} else
			summary_print(stdout, p->s, p->colour, p->tt_width);
	}
	write_summary_files(o, p->s);
}

/* The end of the input: the report the records make. */
static int
tbl_finish(void *self, struct error *e)
{
	struct tbl *p = self;

	if (plot_kind != NULL)
		return plot_finish(p, e);
	if (merge_mode)
		return 0;
	/* Not even ttp-parse's trace record: an earlier stage failed (in a shell without
	 * pipefail the pipeline's status is this stage's), or the input was empty. */
	if (p->nrecs == 0 && p->env->bad.n == 0)
		die(EXIT_DATA, "no records in the input: did an earlier stage of the pipeline "
		    "fail? (its message is above; ttp-parse writes a trace record even for "
		    "a trace without ops)");
	if (p->ntorch > 0)
		torch_summary(p);
	if (!sheets_report(p) && tt_table(p))
		tt_summary(p);
	page_close(&p->o, &p->pg);
	return 0;
}

static void
tbl_close(void *self)
{
	struct tbl *p = self;

	roofchart_free(p->rc);
	p->rc = NULL;
	free(p->o.sheets);
	if (plot_kind != NULL)
		return;
	free(trace_file);
	tl_free(p->tl);
	jx_free(p->jx);
	nc_free(p->nc);
	summary_free(p->s);
	table_free(&p->t);
}

static struct stage tbl_stage = {
	tbl_open, tbl_push, NULL, tbl_finish, tbl_close
};

int
main(int argc, char **argv)
{
	static struct tbl self = {
		.o = {
			.advice = 1, .summary = 1, .group_by = GROUP_MEMORY,
			.colour_mode = COLOUR_AUTO, .sort = SORT_ID, .top = -1,
			.min_pct = 0.5, .width = -1, .tl = TL_OPTS_INIT, .nc = NC_OPTS_INIT
		}
	};
	static const struct stage_prog prog = {
		.name = "ttp-table", .optstring = "", .longopts = longopts,
		.flags = STAGE_SKIP_BAD, .usage = usage, .option = option, .ready = ready,
		.stage = &tbl_stage, .self = &self, .operands = operands
	};
	const char *err;

	(void)summary_parse_spec("memory", &gspec, &err);
	return stage_main(&prog, argc, argv);
}
