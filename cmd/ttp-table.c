/* SPDX-License-Identifier: ISC */
/*
 * ttp-table: renders ttp records as tt-perf-report's report: the performance table,
 * advice and grouped summary as text (or Markdown), or the compatible --csv file with
 * the summary CSV and SVG plot beside it.
 *
 * This file is the command's options, their checks and its sink stage; what it writes
 * is written by report/tableout.h (the output options it fills, the TT report's files),
 * report/sheetout.h (TraceLens's sheet sets) and report/page.h (the HTML page).
 */
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
#include "core/outfile.h"
#include "core/rec.h"
#include "core/stage.h"
#include "core/trace.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/tab.h"
#include "report/jaxsheets.h"
#include "report/nccl.h"
#include "report/page.h"
#include "report/phasechart.h"
#include "report/sheetout.h"
#include "report/tableout.h"
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

#define GIVEN_MIN_PCT	0x01
#define GIVEN_COLOUR	0x02
#define GIVEN_SUMMARY	0x04
#define GIVEN_PERCENT	0x08
#define GIVEN_FORMAT	0x10
#define GIVEN_GROUP	0x20

/* --plot, --device: the roofline chart (chart.h) */
static const char *plot_kind;
static long plot_device = -1;

/* The named outputs that are inputs (the files read, standard input, --protect's): a
 * usage error before anything is read or written. Each sheet of --csv-dir is checked
 * when its name is known. */
static void
check_outputs(const struct tableout_opts *o, char **paths, int npaths)
{
	char *base = tableout_summary_base(o);
	struct buf p = BUF_INIT;
	int i;

	for (i = 0; i < npaths; i++)
		if (strcmp(paths[i], "-") != 0)
			outfile_protect(paths[i]);
	outfile_protect_fd(STDIN_FILENO);
	tableout_check("--csv", o->csv);
	tableout_check("--xlsx", o->xlsx);
	tableout_check("--html", o->html);
	if (base != NULL && o->summary) {
		buf_printf(&p, "%s.csv", base);
		tableout_check(o->summary_file ? "--summary-file" : o->stacked_csv ?
		    "--stacked-csv" : "--csv (its summary)", p.p);
		/* the plot, in its format (--plot-format) */
		memcpy(p.p + p.len - 3, chart_format_name(o->plot_format), 3);
		tableout_check(o->summary_file ? "--summary-file" : o->stacked_csv ?
		    "--stacked-csv" : "--csv (its summary)", p.p);
	}
	if (o->plot_phases_dir != NULL) {
		static const char *const charts[] = { "phase_overview", "time_distributions",
		    "operation_frequencies", "performance_bottlenecks", "detailed_breakdowns" };
		size_t k;

		for (k = 0; k < sizeof(charts) / sizeof(charts[0]); k++) {
			buf_reset(&p);
			buf_printf(&p, "%s/%s.%s", o->plot_phases_dir, charts[k],
			    chart_format_name(o->plot_format));
			tableout_check("--plot-phases", p.p);
		}
	}
	buf_free(&p);
	free(base);
}

/* D8: refuse output names that lose data; warn about options that have no effect. */
static void
check_args(const struct tableout_opts *o)
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
	    (base = tableout_summary_base(o)) != NULL) {
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
plot_option(struct tableout_opts *o, int ch, const char *arg)
{
	const char *e = NULL;

	if (ch == OPT_PLOT) {
		if (strcmp(arg, "roofline") != 0)
			die_usage("--plot: expected roofline, not '%s'", arg);
		plot_kind = arg;
	} else if (ch == OPT_PLOT_PHASES) {
		if (*arg == '\0')
			die_usage("--plot-phases: the directory's name is empty");
		o->plot_phases_dir = arg;
	} else if (ch == OPT_PLOT_DPI) {
		/* 600 dpi is a 9000 x 7200 PNG of 260 MB in memory; more is refused */
		o->plot_dpi = (long)strtonum(arg, 1, 600, &e);
		if (e != NULL)
			die_usage("--plot-dpi: expected a resolution of 1 to 600 dpi, not '%s'",
			    arg);
	} else if (ch == OPT_PLOT_TITLE) {
		o->plot_title = arg;
	} else if (ch == OPT_PLOT_FORMAT) {
		if ((o->plot_format = chart_format_parse(arg)) < 0)
			die_usage("--plot-format: expected svg, png or pdf, not '%s'", arg);
	} else {
		plot_device = (long)strtonum(arg, 0, LONG_MAX, &e);
		if (e != NULL)
			die_usage("--device: expected a device number, not '%s'", arg);
	}
}

/* The TT report's options (tt-perf-report's); false when ch is none of them. */
static bool
tt_option(struct tableout_opts *o, int ch, char *arg)
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
output_option(struct tableout_opts *o, int ch, char *arg)
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
sheet_option(struct tableout_opts *o, int ch, char *arg)
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
	case OPT_PARTIAL: o->partial = 1; break;
	case OPT_MERGE: o->merge = 1; break;
	default:
		return false;
	}
	return true;
}

/* --- the program: its options and a sink stage (core/stage.h) ----------------------- */

/* What the stage holds; static in main, so that a leak checker sees it when an error
 * exits from deep inside. */
struct tbl {
	struct tableout_opts		 o;
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
	struct tableout_opts *o = &((struct tbl *)self)->o;

	if (!tt_option(o, ch, arg) && !output_option(o, ch, arg) &&
	    !sheet_option(o, ch, arg))
		plot_option(o, ch, arg);
}

/* ttp-table's stage: records in, tables out; --merge reads its partials whole */
static struct stage tbl_stage;
static int tbl_merge(void *self, struct rec_reader *rd, struct error *e);

static void
ready(void *self, struct stage_env *env)
{
	struct tableout_opts *o = &((struct tbl *)self)->o;

	o->verbose = env->verbose;
	o->nverbose = env->nverbose;
	if (env->nverbose > 1)	/* twice: also the notes a user cannot act on */
		metrics_category_notes(1);
	check_args(o);
	if (plot_kind == NULL && plot_device >= 0)
		die_usage("--device: only with --plot roofline");
	if (plot_kind == NULL && o->plot_phases_dir != NULL && !(o->partial && !o->merge))
		o->phase_charts = phasechart_new();
	if (o->partial && !o->merge)
		tlm_capture_begin();
	if (o->merge) {
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

/* --merge: the partials' sheets written as the sheets are, or one partial again (the
 * stage's run: the inputs are partials, read whole). */
static int
tbl_merge(void *self, struct rec_reader *rd, struct error *e)
{
	struct tableout_opts *o = &((struct tbl *)self)->o;
	struct tlm *m = tlm_new();
	struct tab **s;
	size_t n, i;

	if (tlm_read(m, rd, e) != 0) {
		tlm_free(m);
		return -1;
	}
	if (tlm_file(m) != NULL)
		o->trace_file = xstrdup(tlm_file(m));
	if (o->partial) {
		tlm_keep(m, o->sheets, o->nsheets);
		tlm_write(m, stdout);
	} else {
		n = tlm_sheets(m, &s);
		for (i = 0; o->phase_charts != NULL && i < n; i++)
			(void)phasechart_add(o->phase_charts, s[i]);
		sheetout_write(o, s, n);
		tl_sheets_free(s, n);
		sheetout_phase_plots(o);
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
	const struct tableout_opts *o = &p->o;

	p->env = env;
	if (plot_kind != NULL)
		return 0;
	p->colour = !o->markdown && !o->html_stdout && o->csv == NULL &&
	    colour_wanted(o->colour_mode, stdout);
	/* the TT report and its summary: fitted to --width, or to a terminal; a file or a
	 * pipe gets the reference's layout */
	p->tt_width = o->width >= 0 ? (size_t)o->width : isatty(STDOUT_FILENO) ?
	    tableout_width(-1) : 0;
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
	if (p->o.trace_file == NULL && trace_read(r, &ti) && ti.file != NULL)
		p->o.trace_file = xstrdup(ti.file);
	if (torch_record(r) && rec_kind(r) == KIND_OP) {
		p->o.torch_ops++;
		if (rec_str(r, "category", NULL) != NULL)
			p->o.torch_categorised++;
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
	struct tableout_opts *o = &p->o;

	if (nc_count(p->nc) > 0) {
		/* collective records (ttp-filter --collectives): the multi-rank report */
		if (p->t.nrows > 0 || tl_count(p->tl) > 0 || jx_count(p->jx) > 0)
			die(EXIT_DATA, "the input mixes collective records with other records");
		sheetout_nccl(o, p->nc, p->tl);
		return true;
	}
	if (jx_count(p->jx) > 0) {
		/* a JAX profile (the trace record says xplane): TraceLens's JAX report */
		if (p->t.nrows > 0 || tl_count(p->tl) > 0)
			die(EXIT_DATA, "the input mixes a JAX profile with other records");
		sheetout_jax(o, p->jx);
		return true;
	}
	if (tl_count(p->tl) > 0 || o->csv_dir != NULL || o->xlsx != NULL || o->nsheets > 0) {
		if (p->t.nrows > 0)
			die(EXIT_DATA, "the input mixes TT-Metal ops with PyTorch records");
		sheetout_torch(o, p->tl);
		sheetout_phase_plots(o);
		return true;
	}
	return false;
}

/* The TT report's op table: the CSV, or the text or Markdown table and its advice;
 * false when no summary follows (no ops). */
static bool
tt_table(struct tbl *p)
{
	const struct tableout_opts *o = &p->o;
	struct table *t = &p->t;
	struct error keyerr = ERROR_INIT;

	if (o->partial)
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
		tableout_op_csv(o, t);
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
	const struct tableout_opts *o = &p->o;

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
	tableout_summary_files(o, p->s);
}

/* The end of the input: the report the records make. */
static int
tbl_finish(void *self, struct error *e)
{
	struct tbl *p = self;

	if (plot_kind != NULL)
		return plot_finish(p, e);
	if (p->o.merge)
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
	free(p->o.trace_file);
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
			.min_pct = 0.5, .width = -1, .tl = TL_OPTS_INIT, .nc = NC_OPTS_INIT,
			.plot_format = CHART_SVG, .plot_dpi = 300, .plot_title = "trace"
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
