/* SPDX-License-Identifier: ISC */
/*
 * ttp-table: renders ttp records as tt-perf-report's report: the performance table,
 * advice and grouped summary as text (or Markdown), or the compatible --csv file with
 * the summary CSV and SVG plot beside it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "report/colour.h"
#include "core/diag.h"
#include "core/io.h"
#include "report/opcsv.h"
#include "core/rec.h"
#include "report/report.h"
#include "report/summary.h"

enum {
	OPT_CSV = 256, OPT_NO_ADVICE, OPT_RAW, OPT_NO_SUMMARY, OPT_GROUP_BY, OPT_CLASSIC,
	OPT_SUMMARY_FILE, OPT_STACKED_CSV, OPT_MIN_PCT, OPT_COLOR, OPT_NO_COLOR,
	OPT_PER_DEVICE, OPT_FORMAT
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
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: ttp-table [-hVv] [--csv FILE] [--no-advice] [--raw-op-codes] [--no-summary]\n"
	    "                 [--group-by op|memory|category|device|phase] [--per-device]\n"
	    "                 [--summary-file BASE] [--stacked-csv BASE] [--classic-colors]\n"
	    "                 [--min-percentage F] [--color[=auto|always|never]] [--no-color]\n"
	    "                 [--format text|md] [FILE ...]\n"
	    "Renders ttp records (from ttp-roofline) as tt-perf-report's report.\n"
	    "  --csv FILE            write the compatible op CSV to FILE instead of the text\n"
	    "                        report, and the summary beside it (FILE minus its\n"
	    "                        extension + \"_stacked\" .csv and .svg)\n"
	    "  --no-advice           no advice section (no Advice column with --csv)\n"
	    "  --raw-op-codes        add a Raw OP Code column to the CSV\n"
	    "  --no-summary          no grouped summary (also --no-stacked-report)\n"
	    "  --group-by KEY        summary groups: op, memory (default), category,\n"
	    "                        device or phase\n"
	    "  --per-device          one summary per device (the Device column)\n"
	    "  --summary-file BASE   also write the summary to BASE.csv and BASE.svg\n"
	    "  --stacked-csv BASE    the older name of --summary-file\n"
	    "  --classic-colors      plot with the tab20 palette, not category colours\n"
	    "  --min-percentage F    grey out ops under F %% of the total (default 0.5)\n"
	    "  --color[=WHEN]        auto (default: a terminal and NO_COLOR unset),\n"
	    "                        always or never; --no-color is never\n"
	    "  --format text|md      the text report, or the table as Markdown\n"
	    "  -v, --verbose         say which files are written\n"
	    "  -h, --help            this text\n"
	    "  -V, --version         the version\n");
}

struct opts {
	const char	*csv, *summary_file, *stacked_csv;
	int		 advice, raw, summary, group_by, classic, per_device, verbose;
	int		 colour_mode, markdown;
	double		 min_pct;
};

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
	if (o->csv != NULL) {
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

static void
write_summary_files(const struct opts *o, const struct summary *s)
{
	char *base = summary_base(o);
	struct buf p = BUF_INIT;

	if (base == NULL)
		return;
	buf_printf(&p, "%s.csv", base);
	if (o->verbose)
		say("Writing CSV stacked report to %s", p.p);
	if (summary_write_csv(p.p, s) != 0)
		die(EXIT_DATA, "%s: %s", p.p, strerror(errno));
	buf_reset(&p);
	buf_printf(&p, "%s.svg", base);
	if (o->verbose)
		say("Plotting SVG stacked report to %s", p.p);
	if (summary_write_svg(p.p, s, o->classic) != 0)
		die(EXIT_DATA, "%s: %s", p.p, strerror(errno));
	buf_free(&p);
	free(base);
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	int ch;
	char *end;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":hVv", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_CSV: o->csv = optarg; break;
		case OPT_NO_ADVICE: o->advice = 0; break;
		case OPT_RAW: o->raw = 1; break;
		case OPT_NO_SUMMARY: o->summary = 0; break;
		case OPT_GROUP_BY:
			if ((o->group_by = summary_parse_group(optarg)) < 0)
				die_usage("--group-by: invalid choice: '%s' (choose from 'op', "
				    "'memory', 'category', 'device', 'phase')", optarg);
			break;
		case OPT_CLASSIC: o->classic = 1; break;
		case OPT_SUMMARY_FILE: o->summary_file = optarg; break;
		case OPT_STACKED_CSV: o->stacked_csv = optarg; break;
		case OPT_MIN_PCT:
			errno = 0;
			o->min_pct = strtod(optarg, &end);
			if (errno != 0 || end == optarg || *end != '\0')
				die_usage("--min-percentage: not a number: '%s'", optarg);
			break;
		case OPT_COLOR:
			if (optarg == NULL)
				o->colour_mode = COLOUR_ALWAYS;
			else if ((o->colour_mode = colour_parse_mode(optarg)) < 0)
				die_usage("--color: expected auto, always or never, not '%s'", optarg);
			break;
		case OPT_NO_COLOR: o->colour_mode = COLOUR_NEVER; break;
		case OPT_PER_DEVICE: o->per_device = 1; break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				o->markdown = 0;
			else if (strcmp(optarg, "md") == 0 || strcmp(optarg, "markdown") == 0)
				o->markdown = 1;
			else
				die_usage("--format: expected text or md, not '%s'", optarg);
			break;
		case 'v': o->verbose = 1; break;
		case 'h': usage(stdout); exit(0);
		case 'V': printf("ttp-table %s\n", TTP_VERSION); exit(0);
		default:
			die_getopt(ch, argv);
		}
	}
}

int
main(int argc, char **argv)
{
	struct opts o = { NULL, NULL, NULL, 1, 0, 1, GROUP_MEMORY, 0, 0, 0,
	    COLOUR_AUTO, 0, 0.5 };
	struct rec_reader *rd;
	struct rec *r;
	/* Static: an error exit (a write error, a bad option combination) leaves them
	 * reachable, so leak checkers report only real leaks. */
	static struct table t;
	static struct summary *s;
	int colour;

	io_init();
	parse_args(argc, argv, &o);
	colour = !o.markdown && o.csv == NULL && colour_wanted(o.colour_mode, stdout);

	table_init(&t);
	rd = rec_open_list(argv + optind, argc - optind);
	while ((r = rec_next(rd)) != NULL)
		table_add(&t, r);
	rec_close(rd);
	table_finish(&t);

	if (o.csv != NULL) {
		FILE *fp;

		if (o.verbose)
			say("Writing CSV output to %s", o.csv);
		if ((fp = fopen(o.csv, "w")) == NULL)
			die(EXIT_DATA, "%s: %s", o.csv, strerror(errno));
		if (opcsv_write(fp, &t, (o.advice ? OPCSV_ADVICE : 0) | (o.raw ? OPCSV_RAW : 0)) != 0 ||
		    fclose(fp) != 0)
			die(EXIT_DATA, "%s: %s", o.csv, strerror(errno));
		if (t.nrows == 0)
			goto done;
	} else if (t.nrows == 0) {
		note("No operations to display after applying filters.");
		goto done;
	} else if (o.markdown) {
		report_markdown(stdout, &t);
	} else {
		struct report_opts ro = { colour, o.advice, o.min_pct };

		report_text(stdout, &t, &ro);
	}
	if (!o.summary)
		goto done;
	if ((s = summary_build(&t, o.group_by, o.per_device)) == NULL) {
		note("No data available for stacked report generation.");
		goto done;
	}
	if (o.per_device && o.group_by == GROUP_CATEGORY && summary_ndevices(s) > 1)
		die(EXIT_DATA, "--group-by category cannot be combined with a per-device "
		    "summary of %zu devices", summary_ndevices(s));
	if (o.csv == NULL) {
		if (o.markdown) {
			fputc('\n', stdout);
			summary_markdown(stdout, s);
		} else
			summary_print(stdout, s, colour);
	}
	write_summary_files(&o, s);
done:
	summary_free(s);
	table_free(&t);
	io_finish();
	return 0;
}
