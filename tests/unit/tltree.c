/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for report/tltree, TraceLens's model of a PyTorch trace, on hand-made
 * records: the op tree (parents, children in ts order with ties in id order, a parent
 * cycle cut, "execute" launchers), the links of GPU events to their ops (unlinked ones
 * left out), categories guessed from the first kernel, busy time of a subtree, and
 * gpu_timeline's interval algebra (computation, exposed communication and memcpy, busy,
 * idle split into micro and macro, totals) worked out by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/rec.h"
#include "report/tltree.h"
#include "tap.h"

static void
add(struct tl *tl, const char *s)
{
	struct rec *r = tap_rec(s, strlen(s), "t:1");

	ok(tl_add(tl, r) == 1, "taken: %.60s", s);
	rec_free(r);
}

/* A CPU op: id, parent (-1: none), name, host start and end in ns. */
static void
op(struct tl *tl, long long id, long long parent, const char *name, long long hs,
    long long he)
{
	char line[512];

	snprintf(line, sizeof(line), "{\"kind\":\"op\",\"trace\":\"kineto\",\"cat\":\"cpu_op\","
	    "\"id\":%lld,%s%lld,\"op\":\"%s\",\"host_start_ns\":%lld,\"host_end_ns\":%lld}",
	    id, parent >= 0 ? "\"parent\":" : "\"rank\":", parent >= 0 ? parent : 0, name,
	    hs, he);
	add(tl, line);
}

/* A GPU event: id, launcher (-1: none), kind, name, start and duration in ns. */
static void
gpu(struct tl *tl, long long id, long long by, const char *kind, const char *name,
    long long s, long long ns)
{
	char line[512];

	snprintf(line, sizeof(line), "{\"kind\":\"gpu\",\"gpu\":\"%s\",\"name\":\"%s\","
	    "\"id\":%lld,\"start_ns\":%lld,\"ns\":%lld,\"stream\":7%s%lld}", kind, name, id,
	    s, ns, by >= 0 ? ",\"launched_by\":" : ",\"rank\":", by >= 0 ? by : 0);
	add(tl, line);
}

static size_t
kid(const struct tl *tl, size_t i, size_t j)
{
	return tl->kids[tl->op[i].kid0 + j];
}

static size_t
at(const struct tl *tl, long long id)
{
	return tl_find_op(tl, 0, id);
}

static int
near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

/* The tree: root 1 with children 4 (ts 100), then 3 and 2 (both ts 50: a tie, so
 * in id order); 5 "execute" under 4; 8 and 9 each other's parent. */
static void
tree(void)
{
	struct tl *tl = tl_new();
	size_t r, *v = NULL, n = 0, cap = 0;

	op(tl, 1, -1, "aten::linear", 0, 1000);
	op(tl, 4, 1, "aten::mm", 100, 200);
	op(tl, 3, 1, "aten::t", 50, 60);
	op(tl, 2, 1, "aten::view", 50, 55);
	op(tl, 5, 4, "execute", 110, 190);
	op(tl, 8, 9, "a", 0, 1);
	op(tl, 9, 8, "b", 0, 1);
	gpu(tl, 20, 5, "kernel", "void at::native::elementwise_kernel<x>", 150000, 10000);
	gpu(tl, 21, 4, "kernel", "gemm", 120000, 20000);
	gpu(tl, 22, 99, "kernel", "orphan", 0, 5000);
	ok(tl_count(tl) == 10, "7 ops and 3 GPU events taken (%zu)", tl_count(tl));
	tl_link(tl);
	tl_link(tl);	/* again: nothing */
	r = at(tl, 1);
	ok(r != TL_NONE && tl_op_nkid(&tl->op[r]) == 3, "the root has 3 children");
	ok(tl->op[kid(tl, r, 0)].id == 4 && tl->op[kid(tl, r, 1)].id == 2 &&
	    tl->op[kid(tl, r, 2)].id == 3, "children in record order, tied ts in id order");
	ok(TL_UP(tl->op[at(tl, 5)]) == at(tl, 4) && TL_UP(tl->op[r]) == TL_NONE,
	    "parent links; the root has none");
	ok((TL_UP(tl->op[at(tl, 8)]) == TL_NONE) != (TL_UP(tl->op[at(tl, 9)]) == TL_NONE),
	    "a parent cycle is cut once");
	ok(tl_op_nev(&tl->op[at(tl, 5)]) == 1 && tl_op_nev(&tl->op[at(tl, 4)]) == 1 &&
	    tl_op_nev(&tl->op[r]) == 0,
	    "each event linked to its launcher only");
	ok(tl->k[2].op == TL_NONE, "an event of no known op: unlinked");
	ok(tl_launcher_of(tl, at(tl, 5)) == at(tl, 4), "\"execute\" launches for its parent");
	is_str(tl_str(tl, tl_op_category(tl, at(tl, 5))), "elementwise",
	    "category from the first kernel's name");
	is_str(tl_str(tl, tl_op_category(tl, at(tl, 4))), "other", "no pattern: other");
	tl_subtree_events(tl, r, &v, &n, &cap);
	ok(n == 2, "the root's subtree holds 2 events (%zu)", n);
	ok(near(tl_busy(tl, v, n), 30), "their busy time: 20 + 10 µs, apart (%g)",
	    tl_busy(tl, v, n));
	free(v);
	tl_free(tl);
}

/* The timeline, in µs: compute [0,10) [20,30); comm [5,25) (exposed: [10,20)); memcpy
 * [8,40) (exposed: [30,40)); memset [50,51); an unlinked kernel [60,70). */
static void
timeline(void)
{
	struct tl *tl = tl_new();
	struct tl_timeline t;

	op(tl, 1, -1, "aten::x", 0, 1);
	gpu(tl, 10, 1, "kernel", "k1", 0, 10000);
	gpu(tl, 11, 1, "kernel", "k2", 20000, 10000);
	gpu(tl, 12, 1, "kernel", "ncclDevKernel_AllReduce", 5000, 20000);
	gpu(tl, 13, 1, "memcpy", "Memcpy HtoD", 8000, 32000);
	gpu(tl, 14, 1, "memset", "Memset", 50000, 1000);
	gpu(tl, 15, -1, "kernel", "k3", 60000, 10000);
	tl_link(tl);
	ok(tl->k[2].cls == TL_CLS_COMM && tl->k[3].cls == TL_CLS_MEMCPY &&
	    tl->k[4].cls == TL_CLS_COMP, "classes: nccl, memcpy; a memset computes");
	tl_timeline(tl, 0, NAN, &t);
	ok(near(t.comp, 21), "computation 20 + 1 µs (%g)", t.comp);
	ok(near(t.xcomm, 10), "exposed communication 10 µs (%g)", t.xcomm);
	ok(near(t.xmemcpy, 10), "exposed memcpy 10 µs (%g)", t.xmemcpy);
	ok(near(t.busy, 41) && near(t.total, 51) && near(t.idle, 10),
	    "busy 41, total 51, idle 10 (%g %g %g)", t.busy, t.total, t.idle);
	ok(near(t.comm, 20) && near(t.memcpy, 32), "all communication 20, memcpy 32");
	tl_timeline(tl, 1, 5, &t);
	ok(near(t.total, 70) && near(t.busy, 51), "with the unlinked kernel: total 70, busy 51");
	ok(near(t.micro, 0) && near(t.macro, 19), "gaps of 10 and 9 µs: macro idle (%g %g)",
	    t.micro, t.macro);
	tl_timeline(tl, 1, 9.5, &t);
	ok(near(t.micro, 9) && near(t.macro, 10), "under 9.5 µs: the 9 µs gap is micro idle");
	tl_free(tl);
}

/* The argument reprs an op keeps: those a sheet may show (ttp-parse's "launcher" or
 * "kernels", a model, or a record that does not say), not those of an op that
 * launches nothing and has no model. */
static void
args_kept(void)
{
	static const struct {
		const char	*extra;
		int		 shape, kept;
	} c[] = {
		{ "\"launcher\":false,\"subtree_ns\":5", 1, 0 },
		{ "\"launcher\":true", 2, 1 },
		{ "", 3, 1 },
		{ "\"launcher\":false,\"kernels\":[\"nccl\"]", 4, 1 },
		{ "\"launcher\":false,\"perf_model\":\"GEMM\"", 5, 1 },
		{ "\"launcher\":false,\"flops\":1", 6, 1 },
		{ "\"launcher\":\"no\"", 7, 1 },
		/* the same "in" as the second: from the cache */
		{ "\"launcher\":true,\"perf_model\":\"GEMM\"", 2, 1 },
	};
	struct tl *tl = tl_new();
	char line[512], dims[32];
	size_t i, j;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(line, sizeof(line), "{\"kind\":\"op\",\"trace\":\"kineto\","
		    "\"cat\":\"cpu_op\",\"id\":%zu,\"op\":\"aten::x\",\"in\":[{\"shape\":"
		    "[%d]}]%s%s}", i + 1, c[i].shape, *c[i].extra ? "," : "", c[i].extra);
		add(tl, line);
	}
	tl_link(tl);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		j = at(tl, (long long)i + 1);
		snprintf(dims, sizeof(dims), "((%d,),)", c[i].shape);
		ok(j != TL_NONE && (tl_arg_repr(tl, &tl->op[j], 0) != NAME_NONE) == c[i].kept &&
		    (!c[i].kept || strcmp(tl_str(tl, tl_arg_repr(tl, &tl->op[j], 0)), dims) == 0),
		    "arguments %s: %s", c[i].kept ? "kept" : "not kept",
		    *c[i].extra ? c[i].extra : "no launcher key");
	}
	tl_free(tl);
}

/* Ops no sheet needs (no GPU work at or below them, no model) are not kept: the kept
 * ops below them hang from the op above them. 1 > 2 (not needed) > 3 (modelled) and
 * 4 (not needed) > 5 (not needed, a cycle with 4) > 6 (modelled). */
static void
ops_kept(void)
{
	static const char *const rec[] = {
		"\"id\":1,\"op\":\"a\",\"launcher\":false,\"subtree_ns\":1",
		"\"id\":2,\"parent\":1,\"op\":\"b\",\"launcher\":false",
		"\"id\":3,\"parent\":2,\"op\":\"c\",\"launcher\":false,\"perf_model\":\"M\"",
		"\"id\":4,\"parent\":5,\"op\":\"d\",\"launcher\":false",
		"\"id\":5,\"parent\":4,\"op\":\"e\",\"launcher\":false",
		"\"id\":6,\"parent\":5,\"op\":\"f\",\"launcher\":false,\"flops\":2",
		"\"id\":7,\"parent\":2,\"op\":\"vllm::moe_forward\",\"launcher\":false",
	};
	struct tl *tl = tl_new();
	char line[512];
	size_t i;

	for (i = 0; i < sizeof(rec) / sizeof(rec[0]); i++) {
		snprintf(line, sizeof(line), "{\"kind\":\"op\",\"trace\":\"kineto\","
		    "\"cat\":\"cpu_op\",%s}", rec[i]);
		add(tl, line);
	}
	tl_link(tl);
	ok(tl_count(tl) == 7, "7 op records taken (%zu)", tl_count(tl));
	ok(tl->nop == 4 && at(tl, 2) == TL_NONE && at(tl, 4) == TL_NONE &&
	    at(tl, 5) == TL_NONE, "ops 2, 4, 5 not kept (%zu kept)", tl->nop);
	ok(at(tl, 3) != TL_NONE && TL_UP(tl->op[at(tl, 3)]) == at(tl, 1),
	    "op 3 hangs from op 1, above the op not kept");
	ok(at(tl, 6) != TL_NONE && TL_UP(tl->op[at(tl, 6)]) == TL_NONE,
	    "op 6 under a cycle of ops not kept: a root");
	ok(at(tl, 7) != TL_NONE && TL_UP(tl->op[at(tl, 7)]) == at(tl, 1),
	    "a pseudo-op gate's op is kept");
	ok(!tl_gpu_only(tl), "not GPU-only");
	tl_free(tl);
}

int
main(void)
{
	static const char other[] = "{\"kind\":\"op\",\"trace\":\"other\",\"id\":1}";
	struct tl *tl = tl_new();
	struct rec *r = tap_rec(other, strlen(other), "t:1");

	ok(tl_add(tl, r) == 0, "not a Kineto record: left");
	rec_free(r);
	tl_free(tl);
	tree();
	timeline();
	args_kept();
	ops_kept();
	/* every op of a trace is one: 152 bytes before the figures moved out */
	ok(sizeof(struct top) <= 80, "struct top in 80 bytes (%zu)", sizeof(struct top));
	return tap_done();
}
