/* SPDX-License-Identifier: ISC */
/*
 * ttp-phase: tag every op record with the phase of the run it belongs to (phase, iter).
 * Its options and a stage (core/stage.h) that calls lib/phase/phase.c, which owns the
 * methods.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/badrec.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/stage.h"
#include "phase/guess.h"
#include "phase/phase.h"
#include "core/rec.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: ttp-phase [-hqVv] [-b METHOD] [-t N] [--skip-bad] [FILE...]\n"
	    "Tag each op record with a phase (and an iteration where the phase repeats).\n"
	    "  -b, --by METHOD    signpost: the signpost that opened the op's segment;\n"
	    "                     steps: the engine step annotation (vLLM, SGLang, ATOM,\n"
	    "                       profiler steps) enclosing the op: prefill, decode,\n"
	    "                       mixed, idle; \"outside\" when none encloses it;\n"
	    "                     matmul-m: decode where matmul M <= N, else prefill;\n"
	    "                     repeat: the repeating op sequence is decode, iter 1, 2, ...;\n"
	    "                     gemm-params, kernel-names, attention, framework,\n"
	    "                       frequency, hybrid, union: TraceLens's heuristics on\n"
	    "                       PyTorch kernel launchers (unreliable; see ttp-phase(1);\n"
	    "                       TraceLens's names, gemm_params, ..., work too);\n"
	    "                     auto (default): TT traces: signpost if any, else repeat,\n"
	    "                       else matmul-m; PyTorch traces: steps if any, else\n"
	    "                       gemm-params\n"
	    "  -t, --threshold N  largest M that is decode (default %d for matmul-m and\n"
	    "                     repeat, %d for the heuristics)\n"
	    "  --skip-bad         leave out bad records (not JSON, a key of the wrong\n"
	    "                     type): warn about the first %d, count them, exit 0\n"
	    "  -q, --quiet        no advisory notes (which method auto chose, what it\n"
	    "                     found); warnings and errors still appear\n"
	    "  -v, --verbose      say what each method found\n"
	    "  -h, --help         show this help and exit\n"
	    "  -V, --version      show the version and exit\n", PHASE_THRESHOLD, GUESS_THRESHOLD,
	    BADREC_SHOWN);
}

struct phase_prog {
	struct phase_opts	 o;
	FILE			*out;
};

static void
option(void *self, int ch, char *arg)
{
	struct phase_opts *o = &((struct phase_prog *)self)->o;
	const char *errstr;

	switch (ch) {
	case 'b':
		if (!phase_by_parse(arg, &o->by))
			die_usage("--by: unknown method \"%s\" (auto, signpost, steps, matmul-m, "
			    "repeat, gemm-params, kernel-names, attention, framework, "
			    "frequency, hybrid, union)", arg);
		break;
	case 't':
		o->threshold = strtonum(arg, 0, LLONG_MAX, &errstr);
		if (errstr != NULL)
			die_usage("--threshold: %s: %s", arg, errstr);
		break;
	}
}

static int
phase_open(void *self, FILE *out, struct stage_env *env, struct error *e)
{
	struct phase_prog *p = self;

	p->out = out;
	p->o.quiet = env->quiet;
	p->o.verbose = env->verbose;
	p->o.bad = &env->bad;
	return 0;
}

/* The methods look ahead: the stage reads its input itself. */
static int
phase_run(void *self, struct rec_reader *rd, struct error *e)
{
	struct phase_prog *p = self;

	phase_tag(rd, p->out, &p->o);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "threshold", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct stage stage = { phase_open, NULL, phase_run, NULL, NULL };
	static struct phase_prog self = { { PHASE_AUTO, -1, 0, 0, NULL }, NULL };
	static const struct stage_prog prog = {
		.name = "ttp-phase", .optstring = "b:t:", .longopts = longopts,
		.flags = STAGE_SKIP_BAD, .usage = usage, .option = option, .stage = &stage,
		.self = &self
	};

	return stage_main(&prog, argc, argv);
}
