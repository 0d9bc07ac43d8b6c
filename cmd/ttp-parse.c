/* SPDX-License-Identifier: ISC */
/*
 * ttp-parse: traces to ttp records (NDJSON). TT-Metal ops perf CSV files (lib/tt/ttmetal.c)
 * or PyTorch profiler JSON traces (lib/torch/kineto.c), told apart by their content.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/io.h"
#include "jax/xplane.h"
#include "torch/kineto.h"
#include "tt/ttmetal.h"

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

/* Whether an input's first bytes are a JAX/TensorFlow profile (an XSpace protobuf). */
static int
is_xplane(const struct io_input *in)
{
	return xplane_sniff(in->head, in->nhead < 512 ? in->nhead : 512);
}

/* Whether an input's first bytes are a JSON document (a PyTorch trace), not CSV. */
static int
is_json(const struct io_input *in)
{
	size_t i = 0;

	while (i < in->nhead && (in->head[i] == ' ' || in->head[i] == '\t' ||
	    in->head[i] == '\r' || in->head[i] == '\n'))
		i++;
	return i < in->nhead && (in->head[i] == '{' || in->head[i] == '[');
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
		{ "quiet",		no_argument,	NULL, 'q' },
		{ "verbose",		no_argument,	NULL, 'v' },
		{ "help",		no_argument,	NULL, 'h' },
		{ "version",		no_argument,	NULL, 'V' },
		{ "expect",		required_argument, NULL, 'E' },
		{ "rank",		required_argument, NULL, 'R' },
		{ NULL,			0,		NULL, 0 }
	};
	struct ttm_opts o = { 0, 0, 0 };
	struct kineto_ranks claimed = { NULL, NULL, 0, 0 };
	struct kineto_opts ko = { 0, 0, NULL, 0, 0, &claimed };
	char *dash[] = { "-" };
	char **paths;
	struct io_input *in;
	struct error err = ERROR_INIT;
	int ch, i, npaths, json, expect = -1;	/* expect: 1 JSON, 0 CSV, -1 either */

	io_init();
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":ac:npqvhV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			o.all = 1;
			break;
		case 'n':
			o.nosort = 1;
			break;
		case 'p':
			ko.python = 1;
			break;
		case 'c':
			ko.capture = optarg;
			break;
		case 'q':
			diag_set_quiet(1);
			break;
		case 'v':
			o.verbose = ko.verbose = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("ttp-parse %s\n", TTP_VERSION);
			return 0;
		case 'E':
			if (strcmp(optarg, "csv") == 0)
				expect = 0;
			else if (strcmp(optarg, "json") == 0)
				expect = 1;
			else
				die_usage("--expect: expected csv or json, not '%s'", optarg);
			break;
		case 'R': {
			const char *e = NULL;

			ko.rank = strtonum(optarg, 0, 100000000, &e);
			if (e != NULL)
				die_usage("--rank: expected a rank from 0 to 100000000, not '%s'",
				    optarg);
			ko.has_rank = 1;
			break;
		}
		default:
			die_getopt(ch, argv);
		}
	}
	io_stdin_or_usage(argc - optind, usage);
	paths = argc > optind ? argv + optind : dash;
	npaths = argc > optind ? argc - optind : 1;
	for (i = 0, ch = 0; i < npaths; i++)
		if (paths[i][0] == '-' && paths[i][1] == '\0' && ch++ > 0)
			die_usage("standard input given more than once");
	/* each input opened once: a FIFO or /dev/fd/N cannot be read twice */
	in = xcalloc((size_t)npaths, sizeof(*in));
	for (i = 0; i < npaths; i++)
		if (io_input_open(&in[i], paths[i], &err) != 0)
			error_die(&err);
	if (is_xplane(&in[0])) {
		/* JAX profiles: each file on its own (one host each) */
		for (i = 0; i < npaths; i++) {
			if (i > 0 && !is_xplane(&in[i]))
				die(EXIT_DATA, "%s: not a JAX profile (XSpace) among JAX profiles",
				    in[i].name);
			if (io_input_spool(&in[i], &err) != 0 ||
			    xplane_parse(in[i].path, in[i].name, o.verbose, &err) != 0)
				error_die(&err);
			io_input_close(&in[i]);
		}
		io_finish();
		return 0;
	}
	json = is_json(&in[0]);
	if (expect == 0 && json)
		die(EXIT_USAGE, "%s: a PyTorch profiler trace (JSON), not a TT-Metal ops perf "
		    "CSV: ttp-tracelens --profile_json_path FILE reports it", io_name(paths[0]));
	if (expect == 1 && !json)
		die(EXIT_USAGE, "%s: a TT-Metal ops perf CSV, not a PyTorch profiler trace "
		    "(Kineto JSON): ttp-report FILE reports it", io_name(paths[0]));
	for (i = 1; i < npaths; i++)
		if (is_json(&in[i]) != json)
			die(EXIT_DATA, "%s: a %s among %s: give one kind of trace at a time",
			    io_name(paths[i]), json ? "CSV file" : "JSON trace",
			    json ? "PyTorch traces" : "CSV files");
	if (ko.has_rank && npaths > 1)
		die_usage("--rank: one trace only (each of several traces takes its own rank)");
	if (!json) {
		if (ko.has_rank)
			die_usage("--rank: PyTorch traces only");
		if (ko.capture != NULL)
			die_usage("--capture-folder: PyTorch traces only");
		if (ttm_parse(argv + optind, argc - optind, &o, &err) != 0)
			error_die(&err);
		io_finish();
		return 0;
	}
	for (i = 0; i < npaths; i++) {
		if (kineto_parse(in[i].fp, in[i].name, npaths > 1 ? i : -1, &ko, &err) != 0)
			error_die(&err);
		io_input_close(&in[i]);
	}
	kineto_ranks_free(&claimed);
	io_finish();
	return 0;
}
