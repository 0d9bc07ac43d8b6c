/* SPDX-License-Identifier: ISC */
/*
 * fuzz_tltree: libFuzzer target for the walks of TraceLens's sheets over the op tree
 * (lib/report/tlsheets.c). The input is a program that builds a tree of PyTorch op
 * and GPU records, deep ones from a few bytes: each byte after the options byte is an
 * instruction (low three bits) with an argument (the other five):
 *
 *   0  a child of the current op, which becomes current
 *   1  a sibling of the current op (a root at the top), which becomes current
 *   2  up arg + 1 levels
 *   3  a GPU event of the current op (arg: computation, communication, memcpy)
 *   4  a launch (cudaLaunchKernel) under the current op, with a GPU event
 *   5  a chain of (arg + 1) * 1000 nested ops under the current op, the last current
 *   6  the current op gets a perf model (flops, bytes, params, a roofline time)
 *   7  a python function child (or "execute" when arg is odd), which becomes current
 *
 * at most 40,000 ops. The records go through tl_add and every sheet is built
 * (tl_sheets, the options byte choosing pseudo ops, inference, unlinked kernels,
 * call stacks, and with bit 4 CPU ops that say they launch nothing, which tltree
 * does not keep, spooled two at a time: tlgone.c) and written as text and CSV to /dev/null, on a thread whose stack is
 * 512 KB: a walk that recurses as deep as the tree overflows it (a crash, a finding),
 * where the iterative walks need a few frames.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/rec.h"
#include "report/tab.h"
#include "report/tlsheets.h"
#include "fuzz.h"

#define MAXOPS		40000
#define STACK_BYTES	(512 * 1024)

struct gen {
	struct buf	 out;
	long long	*stack;		/* ids of the current op's ancestors and itself */
	size_t		 depth, cap;
	long long	 next_id, t;	/* next record id; a clock in ns */
	size_t		 nops;
	int		 gone;		/* CPU ops without a model say they launch nothing */
};

static long long
cur(const struct gen *g)
{
	return g->depth ? g->stack[g->depth - 1] : -1;
}

static void
push(struct gen *g, long long id)
{
	if (g->depth == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 64;
		g->stack = realloc(g->stack, g->cap * sizeof(*g->stack));
		if (g->stack == NULL)
			abort();
	}
	g->stack[g->depth++] = id;
}

/* An op record under the current op; returns its id. */
static long long
op(struct gen *g, const char *name, const char *cat, bool model)
{
	long long id = g->next_id++, parent = cur(g);

	buf_printf(&g->out, "{\"kind\":\"op\",\"trace\":\"kineto\",\"id\":%lld,\"op\":\"%s\","
	    "\"cat\":\"%s\"", id, name, cat);
	if (parent >= 0)
		buf_printf(&g->out, ",\"parent\":%lld", parent);
	if (g->gone && !model && strcmp(cat, "cpu_op") == 0)
		buf_adds(&g->out, ",\"launcher\":false");
	buf_printf(&g->out, ",\"host_start_ns\":%lld,\"host_end_ns\":%lld", g->t,
	    g->t + 1000000000LL - (long long)g->depth);
	if (model)
		buf_printf(&g->out, ",\"category\":\"GEMM\",\"flops\":%lld,\"bytes\":%lld,"
		    "\"compute_spec\":\"matrix_bf16\",\"roof_us\":0.5,\"roof\":\"memory\","
		    "\"params\":{\"M\":%lld,\"N\":8,\"K\":16,\"stride_A\":[16,1]}",
		    1024 + id, 448 + id, id % 7);
	buf_adds(&g->out, "}\n");
	g->t += 10;
	g->nops++;
	return id;
}

static void
gpu(struct gen *g, long long by, unsigned cls)
{
	static const char *const names[] = { "my_kernel", "ncclDevKernel_AllReduce",
	    "Memcpy HtoD" };
	static const char *const classes[] = { "comp", "comm", "memcpy" };

	cls %= 3;
	buf_printf(&g->out, "{\"kind\":\"gpu\",\"trace\":\"kineto\",\"id\":%lld,\"name\":\"%s\","
	    "\"gpu\":\"%s\",\"class\":\"%s\",\"stream\":7,\"start_ns\":%lld,\"ns\":%lld",
	    g->next_id++, names[cls], cls == 2 ? "memcpy" : "kernel", classes[cls], g->t,
	    1000 + (g->t % 5000));
	if (by >= 0)
		buf_printf(&g->out, ",\"launched_by\":%lld", by);
	buf_adds(&g->out, "}\n");
	g->t += 700;
}

static void
build(struct gen *g, const uint8_t *p, size_t n)
{
	size_t i, k;

	for (i = 0; i < n && g->nops < MAXOPS; i++) {
		unsigned arg = p[i] >> 3;

		switch (p[i] & 7) {
		case 0:
			push(g, op(g, arg & 1 ? "aten::mm" : "wrap", "cpu_op", false));
			break;
		case 1:
			if (g->depth)
				g->depth--;
			push(g, op(g, "aten::add", "cpu_op", false));
			break;
		case 2:
			g->depth = g->depth > arg + 1 ? g->depth - arg - 1 : 0;
			break;
		case 3:
			gpu(g, cur(g), arg);
			break;
		case 4:
			gpu(g, op(g, "cudaLaunchKernel", "cuda_runtime", false), arg);
			break;
		case 5:
			for (k = 0; k < (arg + 1) * 1000 && g->nops < MAXOPS; k++)
				push(g, op(g, k % 3 ? "wrap" : "aten::mm", "cpu_op", false));
			break;
		case 6:
			/* a modelled op: a new child carrying the figures */
			push(g, op(g, "aten::addmm", "cpu_op", true));
			break;
		case 7:
			push(g, op(g, arg & 1 ? "execute" : "nn.Module: Linear", arg & 1 ?
			    "cpu_op" : "python_function", false));
			break;
		}
	}
}

struct job {
	struct tl	*tl;
	struct tl_opts	 to;
};

static void *
sheets(void *arg)
{
	struct job *j = arg;
	struct error e = ERROR_INIT;
	struct tab **sh;
	size_t nsh, i;

	nsh = tl_sheets(j->tl, &j->to, &sh, &e);
	for (i = 0; i < nsh; i++) {
		tab_write_text(sh[i], fuzz_null, 5, 80);
		tab_write_csv(sh[i], fuzz_null);
	}
	tl_sheets_free(sh, nsh);
	error_free(&e);
	return NULL;
}

static void
run(void *arg)
{
	struct fuzz_job *jb = arg;
	struct gen g;
	struct rec_reader *rd;
	struct rec *r;
	struct job j = { NULL, TL_OPTS_INIT };
	pthread_attr_t at;
	pthread_t th;

	memset(&g, 0, sizeof(g));
	g.out = (struct buf)BUF_INIT;
	g.next_id = 1;
	g.t = 1000000;
	g.gone = (jb->opt >> 4) & 1;
	if (setenv("TTP_TL_GONE_MEM", g.gone ? "2" : "16384", 1) != 0)
		abort();
	j.tl = tl_new();
	buf_adds(&g.out, "{\"kind\":\"trace\",\"trace\":\"kineto\",\"file\":\"f.json\","
	    "\"format\":\"kineto\"}\n");
	build(&g, jb->p, jb->n);
	rd = rec_open(fuzz_file(0, (const uint8_t *)g.out.p, g.out.len));
	while ((r = rec_next(rd)) != NULL)
		(void)tl_add(j.tl, r);
	rec_close(rd);
	j.to.pseudo_ops = jb->opt & 1;
	j.to.inference = (jb->opt >> 1) & 1;
	j.to.include_unlinked = (jb->opt >> 2) & 1;
	j.to.call_stack = (jb->opt >> 3) & 1;
	if (pthread_attr_init(&at) != 0 || pthread_attr_setstacksize(&at, STACK_BYTES) != 0 ||
	    pthread_create(&th, &at, sheets, &j) != 0 || pthread_join(th, NULL) != 0)
		abort();
	pthread_attr_destroy(&at);
	fflush(fuzz_null);
	tl_free(j.tl);
	free(g.stack);
	buf_free(&g.out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_job jb;

	fuzz_job_split(data, size, &jb);
	fuzz_strict(run, &jb);
	return 0;
}
