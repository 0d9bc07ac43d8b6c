/* SPDX-License-Identifier: ISC */
/*
 * ttp-parse: traces to ttp records (NDJSON). Each input is opened once and told apart by
 * its first bytes: the table of readers below (core/reader.h) names the formats, TT-Metal
 * ops perf CSV files, PyTorch profiler traces (Kineto JSON) and JAX profiles (XSpace).
 * Its options and a source of records run by stage_main (core/stage.h).
 */
#include <sys/stat.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/io.h"
#include "core/reader.h"
#include "core/stage.h"
#include "jax/jreader.h"
#include "torch/kreader.h"
#include "tt/ttreader.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: ttp-parse [-ahnpqVv] [-c DIR] [--expect csv|json] [--rank N] [--]\n"
	    "                 [FILE ...]\n"
	    "Read TT-Metal ops perf CSV files, PyTorch profiler traces (Kineto JSON) or\n"
	    "JAX/XLA profiles (XSpace .xplane.pb), told apart by their content (none or\n"
	    "\"-\": standard input; gzip is read transparently), and write records as\n"
	    "NDJSON.\n"
	    "\n"
	    "  -a, --all          CSV: also keep every other column under its header name\n"
	    "  -n, --no-sort      CSV: keep file order (do not sort by HOST START TS);\n"
	    "      --tracing-mode same as --no-sort (tt-perf-report's name)\n"
	    "  -p, --python       PyTorch: python functions join the call tree as op records\n"
	    "  -c, --capture-folder DIR\n"
	    "                     PyTorch: merge the graph-capture traces DIR lists in its\n"
	    "                     execution_details.json under the graph launches they\n"
	    "                     replay (TraceLens's capture folder; implies -p)\n"
	    "      --expect csv|json\n"
	    "                     refuse the other kind of trace (a usage error, exit 2):\n"
	    "                     the drivers' check that ttp-report got a TT-Metal CSV and\n"
	    "                     ttp-tracelens a PyTorch trace\n"
	    "      --rank N       PyTorch: the trace's rank when its distributedInfo has none\n"
	    "                     (else its file name's rank[-_/]N; one trace only)\n"
	    "  -q, --quiet        no advisory notes (warnings and errors still appear)\n"
	    "  -v, --verbose      print informational messages\n"
	    "  -h, --help         show this help and exit\n"
	    "  -V, --version      show the version and exit\n");
}

/* The inputs: a global, so that a leak checker sees them when an error exits. */
static struct io_input *in;

/* What the options ask. */
struct parse {
	struct reader_opts	 o;
	const struct reader	*want;		/* --expect's reader, or NULL */
};

/* The readers, in the order they are asked; the CSV reader takes what no other claims. */
static const struct reader *const readers[] = {
	&xplane_reader, &kineto_reader, &ttm_reader, NULL
};

/* The row that --expect's word names. */
static const struct reader *
expected(const char *word)
{
	const struct reader *const *r;

	for (r = readers; *r != NULL; r++)
		if ((*r)->expect != NULL && strcmp((*r)->expect, word) == 0)
			return *r;
	die_usage("--expect: expected csv or json, not '%s'", word);
}

/* A FIFO, /dev/fd/N or device named twice would be read by two streams at once: refuse
 * it, before anything opens it (opening a FIFO waits for its writer). */
static void
once(int n)
{
	struct stat st;
	int i, j;

	for (i = 1; i < n; i++)
		for (j = 0; j < i; j++)
			if (strcmp(in[i].path, in[j].path) == 0 && strcmp(in[i].path, "-") != 0 &&
			    stat(in[i].path, &st) == 0 && !S_ISREG(st.st_mode))
				die_usage("%s: given more than once (it can be read only once)",
				    in[i].path);
}

/* Open every input once, choose the reader of the first, refuse the others' kinds. */
static const struct reader *
choose(int n, const struct reader *want)
{
	const struct reader *r, *ri;
	struct error err = ERROR_INIT;
	int i;

	for (i = 0; i < n; i++)
		if (io_input_open(&in[i], in[i].path, &err) != 0)
			error_die(&err);
	r = reader_find(readers, in[0].head, in[0].nhead);
	if (want != NULL && r != want)
		die(EXIT_USAGE, "%s: a %s, not a %s: %s", in[0].name, r->what, want->wanted,
		    r->hint);
	for (i = 1; i < n; i++) {
		if ((ri = reader_find(readers, in[i].head, in[i].nhead)) == r)
			continue;
		if (r->stray != NULL)
			die(EXIT_DATA, "%s: %s among %s", in[i].name, r->stray, r->many);
		die(EXIT_DATA, "%s: a %s among %s: give one kind of trace at a time",
		    in[i].name, ri->one, r->many);
	}
	return r;
}

/* One of ttp-parse's own options (stage_main has the common ones). */
static void
option(void *self, int ch, char *arg)
{
	struct parse *p = self;
	const char *e = NULL;

	switch (ch) {
	case 'a':
		p->o.all = 1;
		break;
	case 'n':
		p->o.nosort = 1;
		break;
	case 'p':
		p->o.python = 1;
		break;
	case 'c':
		p->o.capture = arg;
		break;
	case 'E':
		p->want = expected(arg);
		break;
	case 'R':
		p->o.rank = strtonum(arg, 0, 100000000, &e);
		if (e != NULL)
			die_usage("--rank: expected a rank from 0 to 100000000, not '%s'", arg);
		p->o.has_rank = 1;
		break;
	}
}

/* The source: every input opened once, the reader of their kind run into the sink. */
static int
parse_source(void *self, int argc, char **argv, struct sink *out, struct stage_env *env,
    struct error *e)
{
	struct parse *p = self;
	const struct reader *r;
	int i, n, nstdin = 0;

	p->o.verbose = env->verbose;
	n = argc > 0 ? argc : 1;
	in = xcalloc((size_t)n, sizeof(*in));
	for (i = 0; i < n; i++) {
		in[i].path = argc > 0 ? argv[i] : "-";
		if (strcmp(in[i].path, "-") == 0 && nstdin++ > 0)
			die_usage("standard input given more than once");
	}
	once(n);
	r = choose(n, p->want);
	if (p->o.capture != NULL && !(r->flags & READER_CAPTURE))
		die_usage("--capture-folder: PyTorch traces only");
	if (p->o.has_rank && !(r->flags & READER_RANK))
		die_usage("--rank: PyTorch traces only");
	if (p->o.has_rank && n > 1)
		die_usage("--rank: one trace only (each of several traces takes its own rank)");
	if (r->parse(in, n, &p->o, out, e) != 0)
		return -1;
	free(in);
	in = NULL;
	return 0;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "all",		no_argument,	NULL, 'a' },
		{ "no-sort",		no_argument,	NULL, 'n' },
		{ "tracing-mode",	no_argument,	NULL, 'n' },
		{ "python",		no_argument,	NULL, 'p' },
		{ "capture-folder",	required_argument, NULL, 'c' },
		{ "expect",		required_argument, NULL, 'E' },
		{ "rank",		required_argument, NULL, 'R' },
		{ NULL,			0,		NULL, 0 }
	};
	static struct parse self;
	static const struct stage_prog prog = {
		.name = "ttp-parse", .optstring = "ac:np", .longopts = longopts,
		.usage = usage, .option = option, .self = &self, .source = parse_source
	};

	return stage_main(&prog, argc, argv);
}
