/* SPDX-License-Identifier: ISC */
/*
 * tableout: ttp-table's output options and the TT report's files (report/tableout.h).
 */
#include <sys/ioctl.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/outfile.h"
#include "report/chart.h"
#include "report/opcsv.h"
#include "report/summary.h"
#include "report/tableout.h"

/* The width text sheets are fitted to: --width; else, when standard output is a
 * terminal, $COLUMNS or the terminal's width; else 200 (a file, a pipe). */
size_t
tableout_width(long long given)
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
char *
tableout_summary_base(const struct tableout_opts *o)
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

void
tableout_summary_files(const struct tableout_opts *o, const struct summary *s)
{
	char *base = tableout_summary_base(o);
	struct buf p = BUF_INIT;

	if (base == NULL)
		return;
	buf_printf(&p, "%s.csv", base);
	free(base);	/* p holds it from here on */
	if (o->verbose)
		say("Writing CSV stacked report to %s", p.p);
	if (summary_write_csv(p.p, s) != 0)
		summary_write_failed(&p);
	memcpy(p.p + p.len - 3, chart_format_name(o->plot_format), 3);
	if (o->verbose)
		say("Plotting %s stacked report to %s", o->plot_format == CHART_PNG ? "PNG" :
		    o->plot_format == CHART_PDF ? "PDF" : "SVG", p.p);
	if (summary_write_plot(p.p, s, o->classic, o->plot_format) != 0)
		summary_write_failed(&p);
	buf_free(&p);
}

/* An output named by the command line that is an input of the run: a usage error,
 * before anything is written. */
void
tableout_check(const char *opt, const char *path)
{
	if (path != NULL && strcmp(path, "-") != 0 && outfile_is_input(path))
		die_usage("%s %s: that file is an input of this run; writing it would "
		    "destroy the input (give another output name)", opt, path);
}

/* --csv FILE: the compatible op CSV, to FILE or standard output. */
void
tableout_op_csv(const struct tableout_opts *o, const struct table *t)
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
