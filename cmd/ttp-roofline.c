/* SPDX-License-Identifier: ISC */
/*
 * ttp-roofline: adds tt-perf-report's per-op figures (label, math, DRAM, FLOPs, bound,
 * program config, fidelity verdict, advice, category) and ttp's roofline extras to
 * every TT op record, and TraceLens's op categories, perf-model figures and GPU
 * roofline to every PyTorch op record ("trace":"kineto"); other records pass through
 * unchanged. Its options and a push stage (core/stage.h) live here; the analysis is
 * lib/tt/metrics.c and lib/tt/roofline.c for TT, lib/torch/roofline.c for PyTorch.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/badrec.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/hwspec.h"
#include "core/io.h"
#include "core/stage.h"
#include "core/trace.h"
#include "tt/metrics.h"
#include "core/rec.h"
#include "tt/roofline.h"
#include "torch/roofline.h"
#include "jax/jaxtl.h"

static struct roofline_opts opt;

/* JAX kernels: TraceLens's perf model (docs/jax.md §6) as perf_model, flops, bytes and
 * params; a model TraceLens fails on drops the kernel's row, counted in one warning. */
static size_t jax_failed;
static char *jax_failed_msg;
static struct jax_devs jax_devs;	/* the devices of the profile's trace record */

static void
jax_record(struct rec *r)
{
	enum rec_kind kind = rec_kind(r);
	const char *name = rec_str(r, "name", NULL), *gpu;
	struct jax_tl v;
	struct jax_perf p = { 0, 0, BUF_INIT };
	struct buf err = BUF_INIT;
	int rc;

	if (kind == KIND_NONE || rec_bad(r) != NULL)
		return;
	if (kind == KIND_TRACE) {
		jax_devs_free(&jax_devs);
		jax_devs_read(&jax_devs, r);
		return;
	}
	if (opt.extras)
		jax_hlo_add(&jax_devs, r);	/* beyond TraceLens: HLO figures, roofline */
	if (kind != KIND_GPU)
		return;
	if ((gpu = rec_str(r, "gpu", NULL)) == NULL || strcmp(gpu, "kernel") != 0)
		return;
	jax_tl_read(r, &v);
	rec_set_str(r, "category", v.category);
	rc = jax_perf_run(&v, name, &p, &err);
	if (rc == 0) {
		rec_set_str(r, "perf_model", v.model);
		rec_set_num(r, "flops", p.flops);
		rec_set_num(r, "bytes", p.bytes);
		rec_set_raw(r, "params", p.params.p, p.params.len);
	} else if (rc < 0) {
		rec_set_str(r, "perf_model", v.model);
		rec_set_str(r, "model_error", err.p);
		if (jax_failed++ == 0)
			jax_failed_msg = xstrdup(err.p);
	}
	jax_tl_free(&v);
	buf_free(&p.params);
	buf_free(&err);
}

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: %s [-hnqVv] [--arch NAME] [--override-arch NAME] [--spec FILE]\n"
	    "       [--no-extras] [--pseudo-ops] [--no-step-counts] [--skip-bad] [FILE ...]\n"
	    "Adds tt-perf-report's per-op figures and a roofline to ttp op records, and\n"
	    "TraceLens's perf models and a GPU roofline to PyTorch op records.\n"
	    "  -a, --arch NAME           TT architecture for records that do not name one\n"
	    "                            (default wormhole; known: %s), or the GPU\n"
	    "                            of PyTorch records (known: %s)\n"
	    "  -o, --override-arch NAME  use NAME for every TT record, whatever it says\n"
	    "  -s, --spec FILE           load more architectures or overrides (JSON), or\n"
	    "                            a GPU from TraceLens's arch JSON\n"
	    "  -n, --no-extras           only the tt-perf-report compatible keys\n"
	    "      --pseudo-ops          PyTorch: sglang_profiler::NAME_<digits> ops are NAME\n"
	    "                            (TraceLens's pseudo-op option)\n"
	    "      --no-step-counts      PyTorch: attention ops of inference engines do not\n"
	    "                            read the counts of their step annotation (as\n"
	    "                            TraceLens's training report: no figures)\n"
	    "      --skip-bad            leave out bad records (not JSON, a key of the wrong\n"
	    "                            type, unusable) with a warning, instead of stopping\n"
	    "  -q, --quiet               no advisory notes (warnings and errors still appear)\n"
	    "  -v, --verbose             print the reference's informational messages;\n"
	    "                            twice, also ops counted as category Other\n"
	    "  -h, --help                show this help and exit\n"
	    "  -V, --version             show the version and exit\n",
	    getprogname(), hwspec_names(), hwspec_gpu_names());
}

static const struct hwspec *
arch_arg(const char *name)
{
	const struct hwspec *hw = hwspec_find(name);

	if (hw == NULL)
		die_usage("unknown architecture: %s (known: %s)", name, hwspec_names());
	return hw;
}

struct roof {
	const char		*archname, *override;
	const struct hwspec	*gpu, *gpuspec;
	struct troof		*torch;
	struct mresult		 m;
	bool			 pseudo, steps;
	FILE			*out;
};

static void
option(void *self, int ch, char *arg)
{
	struct roof *p = self;
	struct error err = ERROR_INIT;

	switch (ch) {
	case 'a':
		p->archname = opt.arch_arg = arg;
		break;
	case 'o':
		p->override = arg;
		break;
	case 's':
		if (hwspec_load(arg, &err) != 0)
			error_die(&err);
		p->gpuspec = hwspec_gpu_loaded();
		break;
	case 'n':
		opt.extras = false;
		break;
	case 'P':
		p->pseudo = true;
		break;
	case 'S':
		p->steps = false;
		break;
	}
}

/*
 * Names are resolved after every --spec is loaded. An unknown --arch is an error only
 * when a record needs it: records that name their architecture (v2.1 traces) ignore
 * --arch with a warning, as tt-perf-report does (its quirk Q24).
 */
static void
ready(void *self, struct stage_env *env)
{
	struct roof *p = self;

	opt.verbose = env->verbose;
	if (env->nverbose > 1)	/* twice: also the notes a user cannot act on */
		metrics_category_notes(1);
	opt.arch = hwspec_find(p->archname);
	/* A GPU name serves PyTorch records; TT records that need --arch then fail. */
	if (opt.arch_arg != NULL && opt.arch == NULL)
		p->gpu = hwspec_gpu_find(opt.arch_arg);
	if (p->override != NULL)
		opt.override = arch_arg(p->override);
}

static int
roof_open(void *self, FILE *out, struct stage_env *env, struct error *e)
{
	struct roof *p = self;

	p->out = out;
	metrics_init(&p->m);
	p->torch = troof_new(p->gpu, p->gpuspec);
	troof_inference(p->torch, p->pseudo, p->steps);
	troof_verbose(p->torch, opt.verbose);
	return 0;
}

/* A TT record: tt-perf-report's figures on an op. */
static void
tt_record(struct roof *p, struct rec *r)
{
	/* A record of a trace that does not name its architecture (v1, v2) needs --arch;
	 * v2.1 traces name theirs. */
	const char *fmt;

	if (opt.arch == NULL && p->override == NULL &&
	    (fmt = rec_str(r, "fmt", NULL)) != NULL && strcmp(fmt, "v2.1") != 0 &&
	    !rec_has(r, "arch"))
		die(EXIT_USAGE, "unknown architecture: %s (known: %s)", p->archname,
		    hwspec_names());
	if (rec_kind(r) == KIND_OP && rec_bad(r) == NULL && roofline_record(r, &opt, &p->m) < 0)
		die(EXIT_USAGE, "unknown architecture: %s (known: %s)", opt.arch_arg,
		    hwspec_names());
}

static int
roof_push(void *self, struct rec *r, struct error *e)
{
	struct roof *p = self;

	switch (rec_trace(r)) {
	case TRACE_KINETO:
		/* an --arch that names no chip and no GPU is an error here too */
		if (opt.arch_arg != NULL && opt.arch == NULL && p->gpu == NULL)
			die(EXIT_USAGE, "unknown architecture: %s (TT: %s; GPUs: %s)",
			    opt.arch_arg, hwspec_names(), hwspec_gpu_names());
		troof_record(p->torch, r);
		break;
	case TRACE_XPLANE:
		jax_record(r);
		break;
	default:
		tt_record(p, r);
	}
	return STAGE_WRITE;
}

static int
roof_finish(void *self, struct error *e)
{
	if (jax_failed > 0)
		warning("warning: %zu JAX kernel%s left out of the op_* sheets: %s (TraceLens "
		    "fails there)", jax_failed, jax_failed == 1 ? "" : "s", jax_failed_msg);
	return 0;
}

static void
roof_close(void *self)
{
	struct roof *p = self;

	free(jax_failed_msg);
	jax_devs_free(&jax_devs);
	troof_free(p->torch);
	metrics_free(&p->m);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "arch",		required_argument,	NULL, 'a' },
		{ "override-arch",	required_argument,	NULL, 'o' },
		{ "spec",		required_argument,	NULL, 's' },
		{ "no-extras",		no_argument,		NULL, 'n' },
		{ "pseudo-ops",		no_argument,		NULL, 'P' },
		{ "no-step-counts",	no_argument,		NULL, 'S' },
		{ NULL,			0,			NULL, 0 }
	};
	static const struct stage stage = {
		roof_open, roof_push, NULL, roof_finish, roof_close
	};
	/* static: reachable when a record ends the run */
	static struct roof self = { .archname = "wormhole", .steps = true };
	static const struct stage_prog prog = {
		.name = "ttp-roofline", .optstring = "a:o:s:n", .longopts = longopts,
		.flags = STAGE_SKIP_BAD, .usage = usage, .option = option, .ready = ready,
		.stage = &stage, .self = &self
	};

	opt.extras = true;
	return stage_main(&prog, argc, argv);
}
