/* SPDX-License-Identifier: ISC */
/*
 * ttp-filter: select the ops tt-perf-report analyses (signpost window, device merge,
 * id range, host ops) and more (devices, op names, phases), as records.
 * Option parsing only; the logic is in lib/tt/filter.c, window.c, merge.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/badrec.h"
#include "core/diag.h"
#include "tt/filter.h"
#include "core/io.h"
#include "core/rec.h"
#include "phase/stepwin.h"
#include "torch/collect.h"

enum {
	OPT_IGNORE = 256, OPT_PRINT, OPT_NO_MERGE, OPT_NO_HOST, OPT_OP, OPT_XOP, OPT_PHASE,
	OPT_NO_CONST, OPT_SIGNPOST, OPT_CONST_ONLY, OPT_NO_ILC, OPT_ILC_ONLY, OPT_PROGRAM, OPT_LOOP,
	OPT_STEPS, OPT_STEADY, OPT_NUM_STEPS, OPT_ITER, OPT_SKIP_BAD, OPT_COLLECTIVES, OPT_RANK
};

static const struct option longopts[] = {
	{ "start-signpost",	required_argument,	NULL, 's' },
	{ "signpost",		required_argument,	NULL, OPT_SIGNPOST },
	{ "end-signpost",	required_argument,	NULL, 'e' },
	{ "ignore-signposts",	no_argument,		NULL, OPT_IGNORE },
	{ "print-signposts",	no_argument,		NULL, OPT_PRINT },
	{ "no-merge-devices",	no_argument,		NULL, OPT_NO_MERGE },
	{ "device",		required_argument,	NULL, 'd' },
	{ "id-range",		required_argument,	NULL, 'i' },
	{ "no-host-ops",	no_argument,		NULL, OPT_NO_HOST },
	{ "op",			required_argument,	NULL, OPT_OP },
	{ "exclude-op",		required_argument,	NULL, OPT_XOP },
	{ "phase",		required_argument,	NULL, OPT_PHASE },
	{ "iter",		required_argument,	NULL, OPT_ITER },
	{ "no-const-eval",	no_argument,		NULL, OPT_NO_CONST },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "const-eval-only",	no_argument,		NULL, OPT_CONST_ONLY },
	{ "no-input-layout-conversion", no_argument,	NULL, OPT_NO_ILC },
	{ "input-layout-conversion-only", no_argument,	NULL, OPT_ILC_ONLY },
	{ "program",		required_argument,	NULL, OPT_PROGRAM },
	{ "loop",		required_argument,	NULL, OPT_LOOP },
	{ "steps",		required_argument,	NULL, OPT_STEPS },
	{ "steady-state",	no_argument,		NULL, OPT_STEADY },
	{ "num-steps",		required_argument,	NULL, OPT_NUM_STEPS },
	{ "skip-bad",		no_argument,		NULL, OPT_SKIP_BAD },
	{ "collectives",	no_argument,		NULL, OPT_COLLECTIVES },
	{ "rank",		required_argument,	NULL, OPT_RANK },
	{ "verbose",		no_argument,		NULL, 'v' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

/* A global, so that a leak checker sees it when an error exits from deep inside. */
static struct rec_reader *rd;

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: ttp-filter [-hqVv] [-s NAME] [-e NAME] [--ignore-signposts] [--print-signposts]\n"
	    "                  [--no-merge-devices] [-d LIST] [-i RANGE] [--no-host-ops]\n"
	    "                  [--op GLOB] [--exclude-op GLOB] [--phase NAME] [--iter N]\n"
	    "                  [--no-const-eval | --const-eval-only]\n"
	    "                  [--no-input-layout-conversion | --input-layout-conversion-only]\n"
	    "                  [--program N] [--loop N] [--skip-bad] [FILE ...]\n"
	    "       ttp-filter [-hqVv] [--skip-bad] --steps FROM:TO | --steady-state\n"
	    "                  [--num-steps N] [FILE ...]\n"
	    "       ttp-filter [-hqVv] [--skip-bad] --collectives [--rank N] [FILE ...]\n"
	    "Select the ops tt-perf-report analyses from ttp records, in its order.\n"
	    "  -s, --start-signpost NAME  ops with IDs above the first signpost NAME's\n"
	    "                             (also --signpost)\n"
	    "  -e, --end-signpost NAME    ops with IDs below signpost NAME's (the second\n"
	    "                             one if it is also the start)\n"
	    "      --ignore-signposts     the whole input, signpost records included\n"
	    "      --print-signposts      keep the signpost records inside the window\n"
	    "      --no-merge-devices     keep one op per device (with more than one device)\n"
	    "  -d, --device LIST          only these devices (e.g. 0,2-3), before merging\n"
	    "  -i, --id-range RANGE       ops with IDs in START-END, START- or -END\n"
	    "      --no-host-ops          drop host ops (\"(torch)\" in the op name)\n"
	    "      --op GLOB              only ops whose name matches GLOB (repeatable)\n"
	    "      --exclude-op GLOB      drop ops whose name matches GLOB (repeatable)\n"
	    "      --phase NAME           only ops tagged phase NAME (by ttp-phase)\n"
	    "      --iter N               only ops of iteration N (by ttp-phase)\n"
	    "      --no-const-eval        drop const-eval ops (tt-mlir traces), as ttrt's\n"
	    "                             *_minus_const_eval.csv\n"
	    "      --const-eval-only      only const-eval ops\n"
	    "      --no-input-layout-conversion\n"
	    "                             drop input layout conversions, as ttrt's\n"
	    "                             *_minus_input_layout_conversions.csv\n"
	    "      --input-layout-conversion-only\n"
	    "                             only input layout conversions\n"
	    "      --program N            only ops of program N (program_index)\n"
	    "      --loop N               only ops of ttrt's loop N (loop_number)\n"
	    "PyTorch inference traces (step annotations of vLLM, SGLang, ATOM, the profiler):\n"
	    "      --steps FROM:TO        only steps FROM to TO (from 1, both included; FROM:\n"
	    "                             or :TO open; numbered as ttp-phase -b steps does)\n"
	    "      --steady-state         only the largest steady-state region of each rank\n"
	    "                             (TraceLens's rule)\n"
	    "      --num-steps N          TraceLens's --num-steps for --steady-state (%d)\n"
	    "      --collectives          one compact record per collective kernel, and one\n"
	    "                             per trace (its rank), for ttp-table's multi-rank\n"
	    "                             collective report\n"
	    "      --rank N               the trace's rank when its distributedInfo has none\n"
	    "                             (else ttp-parse's, else its file name's rank[-_/]N)\n"
	    "      --skip-bad             leave out bad records (not JSON, a key of the wrong\n"
	    "                             type, unusable) with a warning, instead of stopping\n"
	    "  -q, --quiet                no advisory notes (warnings and errors still appear)\n"
	    "  -v, --verbose              print the reference's informational messages\n"
	    "  -h, --help                 show this help and exit\n"
	    "  -V, --version              show the version and exit\n"
	    "Without a window option the window starts after the last signpost's name.\n",
	    STEPWIN_NUM_STEPS);
}

static void
add_glob(char ***v, size_t *n, char *g)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = g;
}

/* Whether the inputs include the standard input (none given, or "-"). */
static bool
stdin_named(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (strcmp(argv[i], "-") == 0)
			return true;
	return argc == 0;
}

int
main(int argc, char *argv[])
{
	struct filter_opts o;
	struct stepwin_opts sw = { 1, -1, false, STEPWIN_NUM_STEPS, false, NULL };
	struct badrec bad = BADREC_INIT;
	struct error rerr = ERROR_INIT;
	bool steps = false, colls = false;
	struct collect_opts co = { -1, NULL };
	const char *err;
	long long v;
	int c;

	io_init();
	memset(&o, 0, sizeof(o));
	o.program = o.loop = o.iter = -1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:e:d:i:qvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
		case OPT_SIGNPOST:
			o.w.start = optarg;
			break;
		case 'e':
			o.w.end = optarg;
			break;
		case OPT_IGNORE:
			o.w.ignore = true;
			break;
		case OPT_PRINT:
			o.w.print = true;
			break;
		case OPT_NO_MERGE:
			o.no_merge = true;
			break;
		case 'd':
			devlist_free(&o.devices);
			if ((err = devlist_parse(optarg, &o.devices)) != NULL)
				die_usage("%s", err);
			o.has_devices = true;
			break;
		case 'i':
			if ((err = idrange_parse(optarg, &o.idrange)) != NULL)
				die_usage("%s", err);
			o.has_idrange = true;
			break;
		case OPT_NO_HOST:
			o.no_host_ops = true;
			break;
		case OPT_OP:
			add_glob(&o.ops, &o.nops, optarg);
			break;
		case OPT_XOP:
			add_glob(&o.xops, &o.nxops, optarg);
			break;
		case OPT_PHASE:
			o.phase = optarg;
			break;
		case OPT_NO_CONST:
		case OPT_CONST_ONLY:
			o.const_eval = c == OPT_NO_CONST ? FILTER_DROP : FILTER_ONLY;
			break;
		case OPT_NO_ILC:
		case OPT_ILC_ONLY:
			o.layout_conv = c == OPT_NO_ILC ? FILTER_DROP : FILTER_ONLY;
			break;
		case OPT_PROGRAM:
		case OPT_LOOP:
		case OPT_ITER:
			v = strtonum(optarg, 0, LLONG_MAX, &err);
			if (err != NULL)
				die_usage("--%s: %s: '%s'", c == OPT_PROGRAM ? "program" :
				    c == OPT_LOOP ? "loop" : "iter", err, optarg);
			*(c == OPT_PROGRAM ? &o.program : c == OPT_LOOP ? &o.loop : &o.iter) = v;
			break;
		case OPT_STEPS:
			if ((err = stepwin_parse(optarg, &sw)) != NULL)
				die_usage("%s: '%s'", err, optarg);
			steps = true;
			break;
		case OPT_STEADY:
			sw.steady = true;
			break;
		case OPT_NUM_STEPS:
			sw.num_steps = strtonum(optarg, 1, LLONG_MAX, &err);
			if (err != NULL)
				die_usage("--num-steps: %s: '%s'", err, optarg);
			break;
		case OPT_SKIP_BAD:
			bad.skip = true;
			break;
		case OPT_COLLECTIVES:
			colls = true;
			break;
		case OPT_RANK:
			co.rank = strtonum(optarg, 0, 1000000, &err);
			if (err != NULL)
				die_usage("--rank: %s: '%s'", err, optarg);
			break;
		case 'q':
			diag_set_quiet(1);
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("ttp-filter %s\n", TTP_VERSION);
			return 0;
		default:
			die_getopt(c, argv);
		}
	}
	argc -= optind;
	argv += optind;
	o.w.verbose = o.verbose;
	/* --phase and --iter replace the default last-signpost window (the phases are the
	 * windows). */
	o.w.whole = o.phase != NULL || o.iter >= 0;

	if (steps && sw.steady)
		die_usage("--steps and --steady-state: give one");
	if ((steps || sw.steady) && (o.w.start || o.w.end || o.w.ignore || o.w.print ||
	    o.no_merge || o.has_devices || o.has_idrange || o.no_host_ops || o.phase ||
	    o.nops || o.nxops || o.const_eval || o.layout_conv || o.program >= 0 ||
	    o.loop >= 0 || o.iter >= 0))
		die_usage("--%s selects whole steps; pipe its output to a second ttp-filter "
		    "for the other selections", steps ? "steps" : "steady-state");
	if (co.rank >= 0 && !colls)
		die_usage("--rank goes with --collectives");
	if (colls && (steps || sw.steady || o.w.start || o.w.end || o.w.ignore || o.w.print ||
	    o.no_merge || o.has_devices || o.has_idrange || o.no_host_ops || o.phase ||
	    o.nops || o.nxops || o.const_eval || o.layout_conv || o.program >= 0 ||
	    o.loop >= 0 || o.iter >= 0))
		die_usage("--collectives keeps every collective kernel: not with the other "
		    "selections");
	sw.verbose = o.verbose;
	o.bad = sw.bad = co.bad = &bad;

	io_stdin_or_usage(argc, usage);
	/* A closed standard input: the spool would take descriptor 0 and be read as the
	 * input (an empty one); say so as the other stages' first read does. */
	if (stdin_named(argc, argv) && fcntl(STDIN_FILENO, F_GETFD) < 0 && errno == EBADF)
		die(1, "<stdin>: %s", strerror(EBADF));
	rd = rec_open_list(argv, argc);
	if ((colls ? collect_run(rd, stdout, &co, &rerr) :
	    steps || sw.steady ? stepwin_run(rd, stdout, &sw, &rerr) :
	    filter_run(rd, stdout, &o, &rerr)) < 0) {
		badrec_end(&bad);
		error_die(&rerr);
	}
	badrec_end(&bad);
	rec_close(rd);
	devlist_free(&o.devices);
	free(o.ops);
	free(o.xops);
	io_finish();
	return 0;
}
