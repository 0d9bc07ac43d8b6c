/* SPDX-License-Identifier: ISC */
/*
 * ttp-filter: select the ops tt-perf-report analyses (signpost window, device merge,
 * id range, host ops) and more (devices, op names, phases), as records.
 * Its options and a stage (core/stage.h); the logic is in lib/tt/filter.c, window.c,
 * merge.c, lib/phase/stepwin.c and lib/torch/collect.c.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/badrec.h"
#include "core/diag.h"
#include "tt/filter.h"
#include "core/io.h"
#include "core/stage.h"
#include "core/rec.h"
#include "phase/stepwin.h"
#include "torch/collect.h"

enum {
	OPT_IGNORE = 256, OPT_PRINT, OPT_NO_MERGE, OPT_NO_HOST, OPT_OP, OPT_XOP, OPT_PHASE,
	OPT_NO_CONST, OPT_SIGNPOST, OPT_CONST_ONLY, OPT_NO_ILC, OPT_ILC_ONLY, OPT_PROGRAM, OPT_LOOP,
	OPT_STEPS, OPT_STEADY, OPT_NUM_STEPS, OPT_ITER, OPT_COLLECTIVES, OPT_RANK
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
	{ "const-eval-only",	no_argument,		NULL, OPT_CONST_ONLY },
	{ "no-input-layout-conversion", no_argument,	NULL, OPT_NO_ILC },
	{ "input-layout-conversion-only", no_argument,	NULL, OPT_ILC_ONLY },
	{ "program",		required_argument,	NULL, OPT_PROGRAM },
	{ "loop",		required_argument,	NULL, OPT_LOOP },
	{ "steps",		required_argument,	NULL, OPT_STEPS },
	{ "steady-state",	no_argument,		NULL, OPT_STEADY },
	{ "num-steps",		required_argument,	NULL, OPT_NUM_STEPS },
	{ "collectives",	no_argument,		NULL, OPT_COLLECTIVES },
	{ "rank",		required_argument,	NULL, OPT_RANK },
	{ NULL,			0,			NULL, 0 }
};

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

struct filt {
	struct filter_opts	 o;
	struct stepwin_opts	 sw;
	struct collect_opts	 co;
	bool			 steps, colls;
	FILE			*out;
};

/* A number option (--program, --loop, --iter, --num-steps, --rank) or die. */
static long long
number(const char *name, const char *arg, long long lo, long long hi)
{
	const char *err;
	long long v = strtonum(arg, lo, hi, &err);

	if (err != NULL)
		die_usage("--%s: %s: '%s'", name, err, arg);
	return v;
}

/* The options of PyTorch traces' steps and collectives: whether ch was one. */
static bool
torch_option(struct filt *p, int ch, char *arg)
{
	const char *err;

	switch (ch) {
	case OPT_STEPS:
		if ((err = stepwin_parse(arg, &p->sw)) != NULL)
			die_usage("%s: '%s'", err, arg);
		p->steps = true;
		return true;
	case OPT_STEADY:
		p->sw.steady = true;
		return true;
	case OPT_NUM_STEPS:
		p->sw.num_steps = number("num-steps", arg, 1, LLONG_MAX);
		return true;
	case OPT_COLLECTIVES:
		p->colls = true;
		return true;
	case OPT_RANK:
		p->co.rank = number("rank", arg, 0, 1000000);
		return true;
	}
	return false;
}

static void
option(void *self, int c, char *arg)
{
	struct filt *p = self;
	struct filter_opts *o = &p->o;
	const char *err;

	if (torch_option(p, c, arg))
		return;
	switch (c) {
	case 's':
	case OPT_SIGNPOST:
		o->w.start = arg;
		break;
	case 'e':
		o->w.end = arg;
		break;
	case OPT_IGNORE:
		o->w.ignore = true;
		break;
	case OPT_PRINT:
		o->w.print = true;
		break;
	case OPT_NO_MERGE:
		o->no_merge = true;
		break;
	case 'd':
		devlist_free(&o->devices);
		if ((err = devlist_parse(arg, &o->devices)) != NULL)
			die_usage("%s", err);
		o->has_devices = true;
		break;
	case 'i':
		if ((err = idrange_parse(arg, &o->idrange)) != NULL)
			die_usage("%s", err);
		o->has_idrange = true;
		break;
	case OPT_NO_HOST:
		o->no_host_ops = true;
		break;
	case OPT_OP:
		add_glob(&o->ops, &o->nops, arg);
		break;
	case OPT_XOP:
		add_glob(&o->xops, &o->nxops, arg);
		break;
	case OPT_PHASE:
		o->phase = arg;
		break;
	case OPT_NO_CONST:
	case OPT_CONST_ONLY:
		o->const_eval = c == OPT_NO_CONST ? FILTER_DROP : FILTER_ONLY;
		break;
	case OPT_NO_ILC:
	case OPT_ILC_ONLY:
		o->layout_conv = c == OPT_NO_ILC ? FILTER_DROP : FILTER_ONLY;
		break;
	case OPT_PROGRAM:
	case OPT_LOOP:
	case OPT_ITER:
		*(c == OPT_PROGRAM ? &o->program : c == OPT_LOOP ? &o->loop : &o->iter) =
		    number(c == OPT_PROGRAM ? "program" : c == OPT_LOOP ? "loop" : "iter", arg,
		    0, LLONG_MAX);
		break;
	}
}

/* Whether any selection of TT ops (or windows) is asked for. */
static bool
selects(const struct filter_opts *o)
{
	return o->w.start || o->w.end || o->w.ignore || o->w.print || o->no_merge ||
	    o->has_devices || o->has_idrange || o->no_host_ops || o->phase || o->nops ||
	    o->nxops || o->const_eval || o->layout_conv || o->program >= 0 || o->loop >= 0 ||
	    o->iter >= 0;
}

static void
ready(void *self, struct stage_env *env)
{
	struct filt *p = self;
	struct filter_opts *o = &p->o;

	o->verbose = env->verbose;
	o->w.verbose = o->verbose;
	/* --phase and --iter replace the default last-signpost window (the phases are the
	 * windows). */
	o->w.whole = o->phase != NULL || o->iter >= 0;
	if (p->steps && p->sw.steady)
		die_usage("--steps and --steady-state: give one");
	if ((p->steps || p->sw.steady) && selects(o))
		die_usage("--%s selects whole steps; pipe its output to a second ttp-filter "
		    "for the other selections", p->steps ? "steps" : "steady-state");
	if (p->co.rank >= 0 && !p->colls)
		die_usage("--rank goes with --collectives");
	if (p->colls && (p->steps || p->sw.steady || selects(o)))
		die_usage("--collectives keeps every collective kernel: not with the other "
		    "selections");
	p->sw.verbose = o->verbose;
}

static int
filt_open(void *self, FILE *out, struct stage_env *env, struct error *e)
{
	struct filt *p = self;

	p->out = out;
	p->o.bad = p->sw.bad = p->co.bad = &env->bad;
	return 0;
}

/* Windows and merges look ahead: the stage reads its input itself. */
static int
filt_run(void *self, struct rec_reader *rd, struct error *e)
{
	struct filt *p = self;

	if (p->colls)
		return collect_run(rd, p->out, &p->co, e);
	if (p->steps || p->sw.steady)
		return stepwin_run(rd, p->out, &p->sw, e);
	return filter_run(rd, p->out, &p->o, e);
}

static void
filt_close(void *self)
{
	struct filt *p = self;

	devlist_free(&p->o.devices);
	free(p->o.ops);
	free(p->o.xops);
}

int
main(int argc, char *argv[])
{
	static const struct stage stage = { filt_open, NULL, filt_run, NULL, filt_close };
	static struct filt self = {
		.o = { .program = -1, .loop = -1, .iter = -1 },
		.sw = { 1, -1, false, STEPWIN_NUM_STEPS, false, NULL },
		.co = { -1, NULL }
	};
	static const struct stage_prog prog = {
		.name = "ttp-filter", .optstring = "s:e:d:i:", .longopts = longopts,
		.flags = STAGE_SKIP_BAD, .usage = usage, .option = option, .ready = ready,
		.stage = &stage, .self = &self
	};

	return stage_main(&prog, argc, argv);
}
