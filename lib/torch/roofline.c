/* SPDX-License-Identifier: ISC */
/*
 * roofline (torch): the record side of ttp-roofline for Kineto records: reading an
 * op's arguments and kernels, choosing the GPU, applying the perf model, writing the
 * keys, and remembering the modelled forward ops that a later backward op links to.
 */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/hwspec.h"
#include "core/names.h"
#include "core/rec.h"
#include "core/trace.h"
#include "torch/step.h"
#include "torch/opclass.h"
#include "torch/perfmodel.h"
#include "torch/roofline.h"

#define MAXKERNELS 4096

/* A forward op whose model has backward formulas, kept for its backward op. */
struct fwdop {
	const struct opclass	*oc;
	char			*in;	/* {"in":its "in" array}, a record's text */
	size_t			 inlen;
	long long		 id;
};

/* One reason the models gave no figures, with the ops and names it hit. */
struct cause {
	char			*text;	/* the model's error, argument numbers as N */
	size_t			 nops;
	struct names		 names;
};

struct troof {
	const struct hwspec	*arch, *spec, *dev;	/* --arch, --spec, the trace's */
	struct names		 ids;		/* op ids (as text) seen, by first appearance */
	long			*fwd;		/* per id: index into fwds, or -1 */
	size_t			 cap;
	struct fwdop		*fwds;
	size_t			 nfwds;
	struct names		 unmodelled;	/* names with a TraceLens model ttp lacks */
	size_t			 nunmodelled, nfailed, nlate;
	bool			 pseudo;	/* --pseudo-ops: sglang_profiler:: names */
	bool			 nosteps;	/* --no-step-counts */
	bool			 verbose;	/* -v: each name the models failed on */
	struct cause		*causes;
	size_t			 ncauses;
	struct sign {
		long long	 start, end, rank;
		struct tanno	 an;
	}			*sign;		/* the signposts so far, in stream order */
	size_t			 nsign, capsign;
};

struct troof *
troof_new(const struct hwspec *arch, const struct hwspec *spec)
{
	struct troof *t = xcalloc(1, sizeof(*t));

	t->arch = arch;
	t->spec = spec;
	names_init(&t->ids);
	names_init(&t->unmodelled);
	return t;
}

void
troof_inference(struct troof *t, bool pseudo_ops, bool step_counts)
{
	t->pseudo = pseudo_ops;
	t->nosteps = !step_counts;
}

void
troof_verbose(struct troof *t, bool verbose)
{
	t->verbose = verbose;
}

/* The models' failures, one line per cause: how many ops, the first names. */
static void
causes_note(struct troof *t)
{
	size_t i, j;

	for (i = 0; i < t->ncauses; i++) {
		struct cause *c = &t->causes[i];
		char list[256] = "";
		size_t shown = 0;

		for (j = 0; j < c->names.n && j < 3; j++, shown++) {
			if (j > 0)
				strlcat(list, ", ", sizeof(list));
			strlcat(list, c->names.str[j], sizeof(list));
		}
		if (c->names.n > shown)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
			    " and %zu more", c->names.n - shown);
		note("%zu op%s (%s) got no figures: %s%s", c->nops, c->nops == 1 ? "" : "s",
		    list, c->text, t->verbose ? "" : " (-v: each name)");
		free(c->text);
		names_free(&c->names);
	}
	free(t->causes);
}

void
troof_free(struct troof *t)
{
	size_t i;

	if (t == NULL)
		return;
	causes_note(t);
	free(t->sign);
	if (t->nunmodelled > 0) {
		char list[512] = "";

		for (i = 0; i < t->unmodelled.n; i++) {
			if (i > 0)
				strlcat(list, ", ", sizeof(list));
			if (strlcat(list, t->unmodelled.str[i], sizeof(list)) >= sizeof(list))
				break;
		}
		note("%zu ops have TraceLens perf models ttp does not implement (no figures): "
		    "%s", t->nunmodelled, list);
	}
	if (t->nlate > 0)
		note("%zu backward ops came before their forward op in the stream: no "
		    "backward figures for them", t->nlate);
	for (i = 0; i < t->nfwds; i++)
		free(t->fwds[i].in);
	free(t->fwds);
	free(t->fwd);
	names_free(&t->ids);
	names_free(&t->unmodelled);
	free(t);
}

/* --- the GPU ------------------------------------------------------------------------- */

static void
trace_record(struct troof *t, struct rec *r)
{
	struct trace_info ti;
	struct rec_elems e;

	t->dev = NULL;
	/* the devices' names: trace_read has them as text, rec_elems one by one */
	if (!trace_read(r, &ti) || ti.devices == NULL || !rec_elems(r, "devices", &e))
		return;
	while (rec_elem_next(&e)) {
		const char *name = rec_elem_str(&e, rec_elem_type(&e, NULL) == REC_OBJECT ?
		    "name" : NULL, NULL);

		if ((t->dev = hwspec_gpu_match(name)) != NULL)
			break;
	}
}

static const struct hwspec *
gpu(const struct troof *t)
{
	return t->arch != NULL ? t->arch : t->spec != NULL ? t->spec : t->dev;
}

/* --- arguments ----------------------------------------------------------------------- */

/* The array key of r (see ttp-record(5)) as arguments; false when it is not an array
 * of objects. Strings are r's. */
static bool
read_args(struct rec *r, const char *key, struct targs *a)
{
	struct rec_elems e;
	size_t i;

	memset(a, 0, sizeof(*a));
	if (rec_type(r, key) == REC_ABSENT)
		return true;
	if (!rec_elems(r, key, &e))
		return false;
	a->n = rec_count(r, key);
	a->a = xcalloc(a->n + 1, sizeof(*a->a));
	for (i = 0; rec_elem_next(&e); i++) {
		struct targ *t = &a->a[i];
		enum rec_type st;
		const char *s;

		t->dtype = t->value = "";
		if (rec_elem_type(&e, NULL) != REC_OBJECT)
			return false;
		if ((t->rank = rec_elem_dims(&e, "shape", t->dims, TARG_MAXRANK)) >= 0)
			t->shape = TSHAPE_FLAT;
		else {
			t->rank = 0;
			if (rec_elem_type(&e, "shape") == REC_ARRAY) {
				t->shape = TSHAPE_LIST;
				t->shape_tree = rec_elem_tree(&e, "shape", NULL);
			}
		}
		if ((s = rec_elem_str(&e, "dtype", NULL)) != NULL)
			t->dtype = s;
		if ((s = rec_elem_str(&e, "value", NULL)) != NULL)
			t->value = s;
		st = rec_elem_type(&e, "strides");
		if (st != REC_ABSENT && st != REC_NULL)
			a->strides_known = true;
		t->nstrides = rec_elem_dims(&e, "strides", t->strides, TARG_MAXRANK);
		t->has_strides = t->nstrides >= 0;
		if (!t->has_strides)
			t->nstrides = 0;
	}
	return true;
}

struct kern {
	const char	*name;
	long long	 start;
};

static int
by_start(const void *a, const void *b)
{
	const struct kern *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The names of the op's own kernels by start time (a stable order for equal starts). */
static size_t
read_kernels(struct rec *r, const char **names)
{
	struct kern k[MAXKERNELS];
	struct rec_elems e;
	size_t i, n = 0;

	if (!rec_elems(r, "kernels", &e))
		return 0;
	while (rec_elem_next(&e) && n < MAXKERNELS) {
		const char *s = rec_elem_str(&e, "name", NULL);

		if (s == NULL)
			continue;
		k[n].name = s;
		if (!rec_elem_int(&e, "start_ns", &k[n].start))
			k[n].start = 0;
		n++;
	}
	/* insertion sort keeps equal starts in record order; lists are short */
	for (i = 1; i < n; i++) {
		struct kern x = k[i];
		size_t j = i;

		while (j > 0 && by_start(&k[j - 1], &x) > 0) {
			k[j] = k[j - 1];
			j--;
		}
		k[j] = x;
	}
	for (i = 0; i < n; i++)
		names[i] = k[i].name;
	return n;
}

/* --- ids: the forward ops kept for their backward ops ------------------------------ */

static long
id_index(struct troof *t, long long id, bool add)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%lld", id);
	uint32_t i;

	if (!add)
		return (i = names_lookup(&t->ids, buf, (size_t)n)) == NAME_NONE ? -1 : (long)i;
	i = names_intern(&t->ids, buf, (size_t)n);
	if (i >= t->cap) {
		size_t cap = grow_cap(t->cap, (size_t)i + 1), j;

		t->fwd = xreallocarray(t->fwd, cap, sizeof(*t->fwd));
		for (j = t->cap; j < cap; j++) {
			t->fwd[j] = -1;
		}
		t->cap = cap;
	}
	return (long)i;
}

/* --- keys ------------------------------------------------------------------------------ */

static void
set_pynum(struct rec *r, const char *key, struct pynum v)
{
	if (v.isint)
		rec_set_int(r, key, v.i);
	else
		rec_set_num(r, key, v.d);
}

/* The family and the training report's roofline sheet of a modelled op (opclass_sheet:
 * docs/tracelens.md §3.3); an op of a backward category has a backward row. */
static void
write_sheet(struct rec *r, const struct opclass *oc, bool bwd)
{
	size_t n = strlen(oc->category);
	char sheet[64];

	rec_set_str(r, "family", oc->family);
	if (n > 4 && strcmp(oc->category + n - 4, "_bwd") == 0)
		bwd = true;
	rec_set_str(r, "sheet", opclass_sheet(oc->family, bwd, false, sheet, sizeof(sheet)));
}

/* The figures of a model on r, measured over ns nanoseconds of kernel time. */
static void
write_figures(struct troof *t, struct rec *r, const struct tperf *p, long long ns)
{
	const struct hwspec *hw = gpu(t);
	double flops = pynum_double(p->flops), bytes = pynum_double(p->bytes);
	double gflops = flops / 1e9, us = (double)ns / 1000.0, peak = 0, pct = 0;
	char spec[64];
	const char *over = NULL;

	rec_set_raw(r, "params", p->params.p, p->params.len);
	if (p->nlists > 0)
		rec_set_strv(r, "params_lists", p->lists, NULL, p->nlists);
	set_pynum(r, "flops", p->flops);
	if (p->has_bytes) {
		set_pynum(r, "bytes", p->bytes);
		if (bytes > 0)
			rec_set_num(r, "intensity", gflops * 1e9 / bytes);
	} else
		rec_set_null(r, "bytes");
	if (p->prec != NULL && p->maf != NULL)
		snprintf(spec, sizeof(spec), "%s_%s", p->maf, p->prec);
	else
		spec[0] = '\0';
	rec_set_str(r, "compute_spec", spec);
	if (ns > 0) {
		rec_set_num(r, "tflops", (gflops / 1e3) / (us / 1e6));
		if (p->has_bytes)
			rec_set_num(r, "tbps", (bytes / 1e12) / (us / 1e6));
	}
	if (hw == NULL)
		return;
	rec_set_str(r, "hw", hw->name);
	rec_set_str(r, "hw_src", hw->source);
	if (spec[0] == '\0' || (peak = hwspec_peak(hw, spec)) <= 0 || !p->has_bytes ||
	    gflops <= 0)
		return;
	{
		/* TraceLens's expressions, in its order */
		double compute_us = (gflops * 1e9 / (peak * 1e12)) * 1e6;
		double memory_us = (bytes / (hw->dram_gbps * 1e9)) * 1e6;
		double roof_us = compute_us > memory_us ? compute_us : memory_us;
		double attain = bytes > 0 ? flops / bytes * hw->dram_gbps / 1e3 : peak;

		rec_set_num(r, "peak_tflops", peak);
		rec_set_num(r, "roof_tflops", attain < peak ? attain : peak);
		rec_set_num(r, "roof_us", roof_us);
		/* which roof binds is a claim about the op's kernels: none without them
		 * (TraceLens's Roofline Bound, which its sheets show all the same, is
		 * roof_us equal to the compute time F / peak) */
		if (ns > 0) {
			rec_set_str(r, "roof", compute_us >= memory_us ? "compute" : "memory");
			pct = roof_us / us * 100;
			rec_set_num(r, "roof_pct", pct);
		}
	}
	if (pct > 100)
		over = p->quirk != NULL ? p->quirk : "the kernels did less work than the model "
		    "counts, or the op's time is not all in its subtree's kernels";
	if (over != NULL)
		rec_set_str(r, "model_unsure", over);
}

static void
model_failed(struct troof *t, struct rec *r, const char *name, const char *err)
{
	char key[300], text[sizeof(((struct tperf *)0)->err)], *d;
	struct cause *c;
	const char *s;
	size_t i;

	t->nfailed++;
	rec_set_str(r, "model_error", err);
	if (t->verbose) {
		snprintf(key, sizeof(key), "troof:%s", name);
		(void)note_once(key, "%s: %s: no figures: %s (further such ops of this "
		    "name are not reported)", rec_where(r), name, err);
	}
	/* the cause: the error with its numbers as N ("argument N: no strides"; not
	 * the digits of a word: c10::BFloat16) */
	for (s = err, d = text; *s != '\0' && d < text + sizeof(text) - 1; s++) {
		if (isdigit((unsigned char)*s) && (s == err || !isalnum((unsigned char)s[-1]))) {
			while (isdigit((unsigned char)s[1]))
				s++;
			*d++ = 'N';
		} else
			*d++ = *s;
	}
	*d = '\0';
	for (i = 0; i < t->ncauses && strcmp(t->causes[i].text, text) != 0; i++)
		;
	if (i == t->ncauses) {
		t->causes = xreallocarray(t->causes, t->ncauses + 1, sizeof(*t->causes));
		c = &t->causes[t->ncauses++];
		c->text = xstrdup(text);
		c->nops = 0;
		names_init(&c->names);
	}
	c = &t->causes[i];
	c->nops++;
	(void)names_intern(&c->names, name, strlen(name));
}

/* The backward figures of the forward op this backward op is linked to. */
static void
backward(struct troof *t, struct rec *r, long long fwdid, long long ns)
{
	const struct fwdop *f;
	struct error err = ERROR_INIT;
	struct targs a;
	struct tperf p;
	struct rec *in;
	long i;

	if ((i = id_index(t, fwdid, false)) < 0) {
		t->nlate++;
		return;
	}
	/* TraceLens: the linked op itself (its bwd_events), not an ancestor of it */
	if (t->fwd[i] < 0)
		return;
	f = &t->fwds[t->fwd[i]];
	if ((in = rec_parse(f->in, f->inlen, rec_where(r), &err)) == NULL)
		error_die(&err);	/* it was a record's value */
	if (!read_args(in, "in", &a)) {
		rec_free(in);
		free(a.a);
		return;
	}
	switch (perf_apply(f->oc->model, f->oc->name, &a, NULL, 0, true, &p)) {
	case PERF_OK:
		rec_set_int(r, "bwd_of", f->id);
		write_sheet(r, f->oc, true);
		write_figures(t, r, &p, ns);
		perf_free(&p);
		break;
	case PERF_ERROR:
		rec_set_int(r, "bwd_of", f->id);
		model_failed(t, r, f->oc->name, p.err);
		break;
	case PERF_NONE:
		break;
	}
	free(a.a);
	rec_free(in);
}

/* A TorchInductor kernel op: TraceLens's TritonCompiledPerfModel when its arguments
 * (a) carry the element counts (no roofline sheet: its category is "triton"). */
static void
triton(struct troof *t, struct rec *r, const char *name, long long ns,
    const struct targs *a)
{
	struct tperf p;

	switch (perf_triton(name, a, &p)) {
	case PERF_OK:
		rec_set_str(r, "perf_model", "TritonCompiledPerfModel");
		write_figures(t, r, &p, ns);
		perf_free(&p);
		break;
	case PERF_ERROR:
		rec_set_str(r, "perf_model", "TritonCompiledPerfModel");
		model_failed(t, r, name, "a tensor list among the kernel's arguments");
		break;
	case PERF_NONE:
		break;
	}
}

/* A signpost: its span and the attention counts of its step annotation. */
static void
signpost_record(struct troof *t, struct rec *r)
{
	const char *name = rec_str(r, "name", NULL);
	struct sign *g;
	struct step st;
	long long v, start, end, rank;

	if (name == NULL || !rec_int(r, "host_start_ns", &start))
		return;
	end = rec_int(r, "host_end_ns", &v) ? v : start;
	rank = rec_int(r, "rank", &v) ? v : 0;
	if (rec_bad(r) != NULL)
		return;
	t->sign = xgrow(t->sign, &t->capsign, t->nsign + 1, sizeof(*t->sign));
	g = &t->sign[t->nsign++];
	memset(g, 0, sizeof(*g));
	g->start = start;
	g->end = end;
	g->rank = rank;
	if (step_parse(name, strlen(name), &st) && st.sqsk) {
		g->an.sqsk = true;
		g->an.c_sq = st.c_sq;
		g->an.c_sk = st.c_sk;
		g->an.c_sqsq = st.c_sqsq;
		g->an.c_sqsk = st.c_sqsk;
		g->an.g_sq = st.g_sq;
		g->an.g_sk = st.g_sk;
		g->an.g_sqsq = st.g_sqsq;
		g->an.g_sqsk = st.g_sqsk;
	}
}

/* The attention ops TraceLens's inference report annotates (apply_annotation's name
 * prefixes): each reads the counts of the first annotation, in time order, that
 * encloses it. */
static const char *const annotated[] = {
	"vllm::unified_attention_with_output", "aiter::mha_varlen_fwd",
	"pseudo_mla_decode_fwd", "pseudo_mla_prefill_fwd", "vllm::gdn_attention_core",
	"aiter::fmha_v3_varlen_fwd", "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
	"sglang_profiler::attention_paged_attention_ragged", "aiter::mha_batch_prefill",
	"aiter::pa_decode_gluon", "aiter::v4_attention_with_output",
	"pseudo_v4_paged_decode_swa", "pseudo_v4_paged_decode_csa",
	"pseudo_v4_paged_decode_hca", NULL
};

static const struct tanno *
enclosing_step(const struct troof *t, const char *name, struct rec *r)
{
	static const struct tanno none;
	long long s, e, rank;
	size_t i;

	if (t->nosteps)
		return NULL;
	for (i = 0; annotated[i] && strncmp(name, annotated[i], strlen(annotated[i])) != 0;
	    i++)
		;
	if (annotated[i] == NULL || !rec_int(r, "host_start_ns", &s))
		return NULL;
	e = rec_int(r, "host_end_ns", &e) ? e : s;
	rank = rec_int(r, "rank", &rank) ? rank : 0;
	for (i = 0; i < t->nsign; i++)
		if (t->sign[i].rank == rank && t->sign[i].start <= s && e < t->sign[i].end)
			return &t->sign[i].an;
	return &none;
}

/* --pseudo-ops: a CPU op sglang_profiler::NAME_<digits> is NAME (TraceLens's
 * ^(sglang_profiler::.+?)_\d+$); the record's op changes, the trace's name is kept in
 * op_traced. Returns the name to use. */
static const char *
pseudo_name(struct troof *t, struct rec *r, const char *name)
{
	const char *cat = rec_str(r, "cat", NULL);
	size_t len = strlen(name), k;
	char *s;

	if (!t->pseudo || (cat != NULL && strcmp(cat, "cpu_op") != 0) ||
	    strncmp(name, "sglang_profiler::", 17) != 0)
		return name;
	for (k = len; k > 17 && name[k - 1] >= '0' && name[k - 1] <= '9'; k--)
		;
	if (!(k < len && k > 18 && name[k - 1] == '_'))
		return name;
	s = xstrdup(name);
	rec_set_str(r, "op_traced", s);
	s[k - 1] = '\0';
	rec_set_str(r, "op", s);
	free(s);
	return rec_str(r, "op", NULL);
}

/* A forward op whose model has backward formulas, for the backward op linked to it: its
 * "in" as the text of a record of its own. */
static void
keep_fwd(struct troof *t, struct rec *r, const struct opclass *oc, long long id, long idx)
{
	struct buf b = BUF_INIT;
	struct rec_build rb;
	const char *in;
	size_t len;

	rec_build_begin(&rb, &b);
	/* without recorded shapes: no "in", as the op's own figures read it */
	if ((in = rec_raw(r, "in", &len)) != NULL) {
		rec_build_key(&rb, "in");
		rec_build_raw(&rb, in, len);
	}
	rec_build_end(&rb);
	t->fwds = xreallocarray(t->fwds, t->nfwds + 1, sizeof(*t->fwds));
	t->fwds[t->nfwds].oc = oc;
	t->fwds[t->nfwds].in = b.p;
	t->fwds[t->nfwds].inlen = b.len - 1;	/* without the newline */
	t->fwds[t->nfwds].id = id;
	t->fwd[idx] = (long)t->nfwds++;
}

static void
op_record(struct troof *t, struct rec *r)
{
	const char *name = rec_str(r, "op", NULL), *kn[MAXKERNELS];
	const struct opclass *oc;
	const struct perfmodel *pm;
	long long id = -1, fwdid, ns = 0;
	struct rec_elems sk;
	struct targs a;
	struct tperf p;
	size_t nk;
	long idx = -1;
	bool modelled, triton_op, has_fwd;

	/* what it reads first: a bad record keeps no id, forward op or count */
	if (name == NULL)
		name = "";
	name = pseudo_name(t, r, name);
	(void)rec_int(r, "id", &id);
	if (!rec_int(r, "subtree_ns", &ns))
		ns = 0;
	has_fwd = rec_int(r, "fwd", &fwdid);
	oc = opclass_find(name);
	modelled = oc != NULL && oc->model != NULL;
	triton_op = !modelled && strncmp(name, "triton_", 7) == 0;
	memset(&a, 0, sizeof(a));
	if ((modelled || triton_op) && !read_args(r, "in", &a))
		rec_reject(r, "key \"in\": expected an array of objects");
	if (modelled)
		a.anno = enclosing_step(t, name, r);
	if (rec_bad(r) != NULL) {
		free(a.a);
		return;
	}
	if (id >= 0)
		idx = id_index(t, id, true);
	nk = read_kernels(r, kn);
	rec_set_str(r, "category", opclass_category(name, nk > 0 ? kn[0] : NULL));

	if (has_fwd && !modelled)
		backward(t, r, fwdid, ns);
	if (!modelled) {
		if (triton_op)
			triton(t, r, name, ns, &a);
		free(a.a);
		return;
	}
	rec_set_str(r, "perf_model", oc->model);
	/* a GEMM's kernels launched by its children (ttp-parse's subtree_kernels) */
	if (rec_elems(r, "subtree_kernels", &sk)) {
		nk = 0;
		while (rec_elem_next(&sk))
			if (rec_elem_type(&sk, NULL) == REC_STRING && nk < MAXKERNELS)
				kn[nk++] = rec_elem_str(&sk, NULL, NULL);
	}
	switch (perf_apply(oc->model, name, &a, kn, nk, false, &p)) {
	case PERF_OK:
		write_sheet(r, oc, false);
		write_figures(t, r, &p, ns);
		perf_free(&p);
		break;
	case PERF_ERROR:
		model_failed(t, r, name, p.err);
		break;
	case PERF_NONE:
		if (perf_model(oc->model) == NULL) {
			size_t len = strlen(name);

			t->nunmodelled++;
			(void)names_intern(&t->unmodelled, name, len);
		}
		break;
	}
	if (idx >= 0 && (pm = perf_model(oc->model)) != NULL && pm->bwd &&
	    !opclass_bwd_dropped(name))
		keep_fwd(t, r, oc, id, idx);
	free(a.a);
}

void
troof_record(struct troof *t, struct rec *r)
{
	enum rec_kind kind = rec_kind(r);

	if (rec_bad(r) != NULL)
		return;
	if (kind == KIND_TRACE)
		trace_record(t, r);
	else if (kind == KIND_OP)
		op_record(t, r);
	else if (kind == KIND_SIGNPOST)
		signpost_record(t, r);
}
