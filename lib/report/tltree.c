/* SPDX-License-Identifier: ISC */
/* tltree: TraceLens's trace model from Kineto records (see report/tltree.h; spec
 * docs/tracelens.md §1.5, §2). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/ckint.h"
#include "core/diag.h"
#include "core/hash.h"
#include "core/dstr.h"
#include "core/json.h"
#include "core/names.h"
#include "core/rec.h"
#include "core/trace.h"
#include "report/pyrepr.h"
#include "report/interval.h"
#include "report/tltree.h"
#include "tlgone.h"

/* The largest op or gpu id, and event count of a trace record, taken: no real trace comes
 * near, and the synthetic rows numbered on from the largest (tl->maxid + 1, ...) stay in
 * a long long. */
#define TL_ID_MAX (1LL << 62)

#define NONE TL_NONE

/* Figures m's param j: its name and its value's repr; own GPU event j of op o. */
#define OEV(o, j)	(tl->oev[(o)->ev0 + (j)])

const struct tmod tl_mod_none = { -1, NAN, NAN, NAN, NAME_NONE, NAME_NONE, NAME_NONE,
	NAME_NONE, 0, 0 };

/*
 * Ops repeat their arguments: each "in" text is converted once while it is in this
 * cache (direct-mapped by a hash of the text, compared in full), and the ops keep only
 * the index of their 8 reprs (tl->argset, interned on disk: one copy per distinct
 * set). The cache is bounded; the distinct texts are not kept.
 */
#define INCACHE	4096

struct incache {
	char		*text;
	size_t		 len;
	uint32_t	 set;
};

struct tl *
tl_new(void)
{
	struct tl *tl = xcalloc(1, sizeof(*tl));

	names_init(&tl->str);
	names_init(&tl->gkey);
	tl->argset = dstr_new();
	tl->pset = dstr_new();
	names_init(&tl->ranks);
	names_init(&tl->who);
	tl->ds = dstr_new();
	tl->inc = xcalloc(INCACHE, sizeof(*tl->inc));
	tl->gmem = tl_gone_mem();
	tl->empty = names_intern(&tl->str, "", 0);
	tl->maxid = -1;
	tl->refused = (struct error)ERROR_INIT;
	return tl;
}

void
tl_free(struct tl *tl)
{
	size_t i;

	if (tl == NULL)
		return;
	free(tl->op);
	free(tl->phase);
	tl_gone_free(tl);
	free(tl->mod);
	names_free(&tl->ranks);
	names_free(&tl->who);
	names_free(&tl->gkey);
	free(tl->granks);
	error_free(&tl->refused);
	free(tl->oev);
	dstr_free(tl->pset);
	free(tl->k);
	free(tl->kids);
	free(tl->byid);
	names_free(&tl->str);
	buf_free(&tl->list);
	dstr_free(tl->ds);
	dstr_free(tl->argset);
	for (i = 0; i < INCACHE; i++)
		free(tl->inc[i].text);
	free(tl->inc);
	free(tl);
}

size_t
tl_count(const struct tl *tl)
{
	return tl->nk + tl->nop + tl->nskip;
}

size_t
tl_comm_kernels(const struct tl *tl)
{
	size_t i, n = 0;

	for (i = 0; i < tl->nk; i++)
		n += tl->k[i].gpu == TL_GPU_KERNEL && tl->k[i].cls == TL_CLS_COMM &&
		    tl->k[i].comm == NAME_NONE;
	return n;
}

/* s[0..len) interned in memory: its index is below TL_STR_DISK. */
static uint32_t
intern_mem(struct tl *tl, const char *s, size_t len)
{
	uint32_t i = names_intern(&tl->str, s, len);

	if (i >= TL_STR_DISK)
		die(EXIT_DATA, "more than %u distinct names", TL_STR_DISK);
	return i;
}

uint32_t
tl_intern(struct tl *tl, const char *s)
{
	return s ? intern_mem(tl, s, strlen(s)) : tl->empty;
}

uint32_t
tl_intern_buf(struct tl *tl, struct buf *b)
{
	return intern_mem(tl, b->p ? b->p : "", b->len);
}

/* An argument or params repr, interned on disk (tl->ds). */
static uint32_t
intern_disk(struct tl *tl, const struct buf *b)
{
	return dstr_intern(tl->ds, b->p ? b->p : "", b->len) | TL_STR_DISK;
}

static int
is_comm_name(const char *s)
{
	return strcasestr(s, "nccl") || strcasestr(s, "rccl") || strcasestr(s, "cross_device_reduce");
}

/* ROCm's legacy copy kernels count as memcpy (docs/tracelens.md §2). */
static int
is_copy_kernel(const char *s)
{
	static const char *const pre[] = { "MEMORY_COPY_HOST_TO_DEVICE",
	    "MEMORY_COPY_DEVICE_TO_HOST", "MEMORY_COPY_DEVICE_TO_DEVICE", NULL };
	const char *p;
	size_t i;

	for (i = 0; pre[i]; i++)
		if (strcmp(s, pre[i]) == 0 || (strncmp(s, pre[i], strlen(pre[i])) == 0 &&
		    strcmp(s + strlen(pre[i]), ".kd") == 0))
			return 1;
	if (strncmp(s, "__amd_rocclr_copyBuffer", 23) != 0)
		return 0;
	p = s + 23;
	if (strncmp(p, "Rect", 4) == 0)
		p += 4;
	if (strncmp(p, "Aligned", 7) == 0)
		p += 7;
	return *p == '\0' || strcmp(p, ".kd") == 0;
}

/* ns as TraceLens's µs: the double that strtod gives for the trace's text (§1.1 and
 * its erratum). Below 2^53 the cast is exact and the division rounds once; above (epoch
 * clocks: 1.6e18 ns) the cast itself would round, so the whole µs (exact) and the
 * fraction are added: the one rounding of that sum is strtod's, since a fraction of
 * thousandths is never within its own error of a midpoint between doubles that large. */
double
tl_ns_us(long long ns)
{
	if (ns > -(1LL << 53) && ns < (1LL << 53))
		return (double)ns / 1000.0;
	return (double)(ns / 1000) + (double)(ns % 1000) / 1000.0;
}

static void join_group(struct tl *tl, struct gpuev *k, struct rec *r);

static void
add_gpu(struct tl *tl, struct rec *r)
{
	struct gpuev kv, *k = &kv;
	long long start_ns, ns, rank;
	const char *name = rec_str(r, "name", NULL), *g = rec_str(r, "gpu", NULL);
	const char *cls = rec_str(r, "class", NULL), *c;
	long long v;
	size_t n;

	memset(k, 0, sizeof(*k));
	if (!rec_int(r, "start_ns", &start_ns) || !rec_int(r, "ns", &ns))
		rec_reject(r, "gpu record without integer start_ns and ns");
	k->stream = rec_int(r, "stream", &v) ? v : -1;
	k->by = rec_int(r, "launched_by", &v) ? v : -1;
	rank = rec_int(r, "rank", &v) ? v : 0;
	k->id = rec_int(r, "id", &v) ? v : -1;
	k->via = rec_int(r, "launch_via", &v) ? v : -1;
	if (k->id > TL_ID_MAX)
		rec_reject(r, "gpu record's id %lld over 2^62", k->id);
	if (rec_bad(r) != NULL)
		return;		/* read all first: nothing kept of a bad record */
	if (tl->nk >= TL_OP_MAX)
		die(EXIT_DATA, "more than %zu gpu records", TL_OP_MAX);
	if (k->id > tl->maxid)
		tl->maxid = k->id;
	k->name = tl_intern(tl, name);
	k->rank = names_intern(&tl->ranks, (const char *)&rank, sizeof(rank));
	k->gpu = g == NULL || strcmp(g, "kernel") == 0 ? TL_GPU_KERNEL :
	    strcmp(g, "memcpy") == 0 ? TL_GPU_MEMCPY : TL_GPU_MEMSET;
	c = rec_raw(r, "comm", &n);
	k->comm = c != NULL ? intern_mem(tl, c, n) : NAME_NONE;
	if (c != NULL && tl->gkey.n > 0)
		join_group(tl, k, r);
	if (cls != NULL)
		k->cls = strcmp(cls, "comm") == 0 ? TL_CLS_COMM : strcmp(cls, "memcpy") == 0 ?
		    TL_CLS_MEMCPY : TL_CLS_COMP;
	else if (k->gpu == TL_GPU_MEMCPY || (name && is_copy_kernel(name)))
		k->cls = TL_CLS_MEMCPY;
	else
		k->cls = name && is_comm_name(name) ? TL_CLS_COMM : TL_CLS_COMP;
	k->s = tl_ns_us(start_ns);
	k->dur = tl_ns_us(ns);
	tl->k = xgrow(tl->k, &tl->capk, tl->nk + 1, sizeof(*tl->k));
	tl->k[tl->nk++] = kv;
}

/* The value of member keys[j] of each element of the array text raw (the last one where
 * a key repeats, as jansson kept it), captured as compact JSON text into cap: element i's
 * at off[4 * i + j], or SIZE_MAX when absent or null; the element count. */
static size_t
arg_members(const char *raw, size_t rawlen, const char *const keys[4], struct buf *cap,
    size_t **off)
{
	struct js_reader *rd = js_open_mem(raw, rawlen);
	enum js_tok t;
	size_t n = 0, j, at, offcap = 0;

	*off = NULL;
	if (js_next(rd) != JS_ARRAY) {
		js_close(rd);
		return 0;
	}
	while ((t = js_next(rd)) != JS_ARRAY_END && t != JS_ERROR) {
		*off = xgrow(*off, &offcap, 4 * (n + 1), sizeof(**off));
		for (j = 0; j < 4; j++)
			(*off)[4 * n + j] = SIZE_MAX;
		if (t != JS_OBJECT) {
			js_skip(rd);
			n++;
			continue;
		}
		while ((t = js_next(rd)) == JS_KEY) {
			for (j = 0; j < 4 && !js_is(rd, keys[j]); j++)
				;
			t = js_next(rd);
			if (j == 4 || t == JS_NULL) {
				if (j < 4)
					(*off)[4 * n + j] = SIZE_MAX;
				js_skip(rd);
				continue;
			}
			at = cap->len;
			js_capture(rd, cap);
			buf_addc(cap, '\0');
			(*off)[4 * n + j] = at;
		}
		n++;
	}
	js_close(rd);
	return n;
}

/* The argument columns of an op from its "in" array: each entry's shape (a list, or a
 * list of lists for a TensorList), dtype, strides and value (Concrete Inputs). */
uint32_t
tl_arg_repr(const struct tl *tl, const struct top *o, int j)
{
	uint32_t v;

	if (o->args == NAME_NONE)
		return NAME_NONE;
	memcpy(&v, dstr_get(tl->argset, o->args) + 4 * j, sizeof(v));
	return v;
}

const char *
tl_arg_list(struct tl *tl, const struct top *o, int j)
{
	uint32_t v = tl_arg_repr(tl, o, j);
	const char *s;

	if (v == NAME_NONE)
		return NULL;
	s = tl_str(tl, v);
	buf_reset(&tl->list);
	py_tuple_list(&tl->list, s, strlen(s));
	buf_addc(&tl->list, '\0');
	return tl->list.p;
}

/* The argument columns of an op from its "in" array: each entry's shape (a list, or a
 * list of lists for a TensorList), dtype, strides and value (Concrete Inputs). */
static void
add_args(struct tl *tl, struct top *o, struct rec *r)
{
	static const char *const keys[4] = { "shape", "dtype", "strides", "value" };
	uint32_t set[4];
	struct buf t = BUF_INIT, cap = BUF_INIT;
	size_t i, j, n, rawlen, *off, x;
	const char *raw = rec_raw(r, "in", &rawlen);
	struct incache *c;
	int real;

	if (raw == NULL || (rawlen == 4 && memcmp(raw, "null", 4) == 0)) {
		/* no arguments recorded (a runtime launch): NaN cells */
		o->args = NAME_NONE;
		return;
	}
	c = &tl->inc[hash_bytes(raw, rawlen) % INCACHE];
	if (c->text != NULL && c->len == rawlen && memcmp(c->text, raw, rawlen) == 0) {
		o->args = c->set;
		return;
	}
	/* an integer beyond long long anywhere in "in" makes every one a float */
	real = py_json_bigint(raw, rawlen) ? PY_REAL : 0;
	n = arg_members(raw, rawlen, keys, &cap, &off);
	for (j = 0; j < 4; j++) {
		/* no argument has the member: the trace has no such list (older PyTorch
		 * writes no Input Strides nor Concrete Inputs), TraceLens's None, a NaN
		 * cell (and a NaN group key: short_kernels_summary drops the kernel) */
		for (i = 0; i < n && off[4 * i + j] == SIZE_MAX; i++)
			;
		if (n > 0 && i == n) {
			set[j] = NAME_NONE;
			continue;
		}
		buf_reset(&t);
		buf_addc(&t, '(');
		for (i = 0; i < n; i++) {
			x = off[4 * i + j];
			if (i)
				buf_adds(&t, ", ");
			if (x == SIZE_MAX)
				buf_adds(&t, j == 0 || j == 2 ? "()" : "''");
			else
				py_json(&t, cap.p + x, strlen(cap.p + x), PY_TUPLE | real);
		}
		if (n == 1)
			buf_addc(&t, ',');
		buf_addc(&t, ')');
		set[j] = intern_disk(tl, &t);
	}
	o->args = dstr_intern(tl->argset, (const char *)set, sizeof(set));
	free(c->text);
	c->text = xmalloc(rawlen);
	memcpy(c->text, raw, rawlen);
	c->len = rawlen;
	c->set = o->args;
	free(off);
	buf_free(&cap);
	buf_free(&t);
}

static bool
param_is_list(struct rec *r, const char *key)
{
	struct rec_elems e;

	if (!rec_elems(r, "params_lists", &e))
		return false;
	while (rec_elem_next(&e)) {
		const char *s = rec_elem_str(&e, NULL, NULL);

		if (s != NULL && strcmp(s, key) == 0)
			return true;
	}
	return false;
}

/* The op's "params" object: each member's repr and the whole dict's (a repeated key keeps
 * its first place and its last value, as jansson kept them). The reprs are made in
 * vals (pair k's at at[2k], at[2k + 1] bytes) and interned on disk once the last value
 * of each is known; the pairs of names and reprs go to tl->pset as one string (most
 * ops with params have several: 4 bytes a pair on disk, not 8 in memory). */
static void
add_params(struct tl *tl, struct top *o, struct tmod *m, struct rec *r)
{
	struct buf b = BUF_INIT, v = BUF_INIT, vals = BUF_INIT, w;
	size_t n, i, k, *at = NULL, capat = 0, cappk = 0;
	const char *raw = rec_raw(r, "params", &n);
	struct js_reader *rd;
	uint32_t key, (*pk)[2] = NULL;
	int real;

	if (raw == NULL || rec_type(r, "params") != REC_OBJECT)
		return;
	real = py_json_bigint(raw, n) ? PY_REAL : 0;
	rd = js_open_mem(raw, n);
	js_next(rd);
	while (js_next(rd) == JS_KEY) {
		const char *ks = js_str(rd, NULL);
		/* ttp-roofline's params_lists: the params that are Python lists */
		int tuple = param_is_list(r, ks) ? 0 : PY_TUPLE;

		key = tl_intern(tl, ks);
		js_next(rd);
		buf_reset(&v);
		js_capture(rd, &v);
		for (k = 0; k < m->np && pk[k][0] != key; k++)
			;
		if (k == m->np) {
			if (m->np >= TL_PARAMS_MAX)
				die(EXIT_DATA, "more than %u params in an op", TL_PARAMS_MAX);
			pk = xgrow(pk, &cappk, m->np + 1, sizeof(*pk));
			pk[m->np++][0] = key;
			at = xgrow(at, &capat, 2 * m->np, sizeof(*at));
		}
		at[2 * k] = vals.len;
		py_json(&vals, v.p, v.len, tuple | real);
		at[2 * k + 1] = vals.len - at[2 * k];
		buf_addc(&vals, '\0');
	}
	js_close(rd);
	buf_reset(&b);
	buf_addc(&b, '{');
	for (i = 0; i < m->np; i++) {
		const char *ks = tl_str(tl, pk[i][0]);

		if (i)
			buf_adds(&b, ", ");
		py_str(&b, ks, strlen(ks));
		buf_adds(&b, ": ");
		buf_adds(&b, vals.p + at[2 * i]);
		w = (struct buf){ vals.p + at[2 * i], at[2 * i + 1], 0 };
		pk[i][1] = intern_disk(tl, &w);
	}
	buf_addc(&b, '}');
	m->params = intern_disk(tl, &b);
	if (m->np > 0)
		m->p0 = dstr_intern(tl->pset, (const char *)pk, m->np * sizeof(*pk));
	o->model = 1;
	free(pk);
	free(at);
	buf_free(&b);
	buf_free(&v);
	buf_free(&vals);
}

uint32_t
tl_param(const struct tl *tl, const struct tmod *m, size_t j, int v)
{
	uint32_t x;

	memcpy(&x, dstr_get(tl->pset, m->p0) + 8 * j + 4 * v, sizeof(x));
	return x;
}

static int
is_runtime_name(const char *s)
{
	return (strncmp(s, "cuda", 4) == 0 || strncmp(s, "hip", 3) == 0 ||
	    strncmp(s, "cu", 2) == 0) && strcasestr(s, "launch") != NULL;
}

/* The string key of r, or NULL (absent, null; of another type: r is bad). */
#define STR(key)	rec_str(r, key, NULL)

/*
 * Whether a sheet may show the argument reprs of the op of record r (modelled: it has a
 * perf model or figures). They are the bulk of the op state when every op's arguments
 * differ, and a sheet shows them only for an op that launches GPU work (ops_unique_args,
 * unified_perf_summary's rows and synthetic rows, short_kernels_summary: the op a GPU
 * event's launched_by names) or that has a model (unified_perf_summary, the roofline
 * sheets: a backward op's forward op has a model too). ttp-parse says the first on the
 * op record, before its GPU events come: "launcher" (non-communication work) and
 * "kernels" (any). A record without "launcher" (not ttp-parse's) keeps its arguments.
 */
static bool
args_shown(struct rec *r, bool modelled)
{
	bool l;

	if (modelled || rec_type(r, "perf_model") != REC_ABSENT ||
	    rec_type(r, "kernels") != REC_ABSENT || rec_type(r, "launcher") != REC_BOOL)
		return true;
	return rec_bool(r, "launcher", &l) && l;
}

/*
 * Whether no sheet needs the op of record r (a CPU op, not modelled): ttp-parse says it
 * charges no GPU event to it ("launcher" false, no "kernels") and launches none below it
 * (no "subtree_ns"). Its subtree then has no GPU work, so it is no launcher, no row of
 * unified_perf_summary and no frame of a call stack; the ops below it that are kept
 * (modelled ones) are linked to the op above it, which keeps unified_perf_summary's
 * "a descendant has a model". Most ops of a trace are such (owlv2: 68 %).
 */
static bool
not_needed(struct rec *r, const char *cat, const char *name, bool modelled)
{
	bool l;

	return !modelled && cat != NULL && strcmp(cat, "cpu_op") == 0 &&
	    rec_type(r, "launcher") == REC_BOOL && rec_bool(r, "launcher", &l) && !l &&
	    rec_type(r, "kernels") == REC_ABSENT && rec_type(r, "subtree_ns") == REC_ABSENT &&
	    rec_type(r, "perf_model") == REC_ABSENT && !tl_pseudo_name(name ? name : "");
}

/* An op's roofline time roof_us (NaN: none) and its bound into m: its record's "roof",
 * else from its flops and peak_tflops (NULL when absent). */
static void
add_roof(struct tl *tl, struct tmod *m, double roof_us, const char *roof,
    const double *flops, const double *peak)
{
	m->roof_us = roof_us;
	if (isnan(roof_us))
		return;
	tl->roofline = 1;
	if (roof != NULL)
		m->bound = tl_intern(tl, strcmp(roof, "compute") == 0 ? "COMPUTE_BOUND" :
		    "MEMORY_BOUND");
	else if (peak != NULL && flops != NULL && *peak > 0)
		/* no kernel time, so no "roof": TraceLens's bound all the same, the
		 * compute time (its expression) being the roofline time */
		m->bound = tl_intern(tl, (*flops / 1e9 * 1e9 / (*peak * 1e12)) * 1e6 >=
		    roof_us ? "COMPUTE_BOUND" : "MEMORY_BOUND");
}

/* The next op's ttp-phase tag (NULL: none); tl->phase from the first tag on. */
static void
add_phase(struct tl *tl, const char *phase)
{
	size_t i = tl->capphase;

	if (phase == NULL && tl->phase == NULL)
		return;
	tl->phase = xgrow(tl->phase, &tl->capphase, tl->nop + 1, sizeof(*tl->phase));
	for (; i < tl->capphase; i++)
		tl->phase[i] = NAME_NONE;
	tl->phase[tl->nop] = phase ? tl_intern(tl, phase) : NAME_NONE;
}

static void
add_op(struct tl *tl, struct rec *r)
{
	struct top *o;
	struct tmod mv, *m;
	uint32_t who[3 + sizeof(long long) / 4], w;
	bool modelled;
	const char *cat = STR("cat"), *name = STR("op");
	long long id, parent, rank, hs, he;
	bool has_id = rec_int(r, "id", &id);
	bool has_parent = rec_int(r, "parent", &parent), has_rank = rec_int(r, "rank", &rank);
	long long bwd_of;
	bool has_bwd_of = rec_int(r, "bwd_of", &bwd_of);
	bool has_hs = rec_int(r, "host_start_ns", &hs), has_he = rec_int(r, "host_end_ns", &he);
	const char *category = STR("category"), *process = STR("process");
	const char *label = STR("process_label"), *thread = STR("thread");
	const char *spec = STR("compute_spec"), *sheet = STR("sheet"), *phase = STR("phase");
	double flops, bytes, roof_us;
	bool has_flops = rec_num(r, "flops", &flops), has_bytes = rec_num(r, "bytes", &bytes);
	/* perf_model is read only when params and flops do not say (add_params) */
	bool model = (has_flops && !isnan(flops)) || rec_type(r, "params") == REC_OBJECT;
	bool hasmodel = model || STR("perf_model") != NULL;
	bool has_roof = rec_num(r, "roof_us", &roof_us) && !isnan(roof_us);
	const char *roof = has_roof ? STR("roof") : NULL;
	double peak;
	bool has_peak = rec_num(r, "peak_tflops", &peak);

	if (!has_id)
		rec_reject(r, "op record without an integer id");
	else if (id > TL_ID_MAX)
		rec_reject(r, "op record's id %lld over 2^62", id);
	if (rec_bad(r) != NULL)
		return;		/* read all first: nothing kept of a bad record */
	if (tl->nop >= TL_OP_MAX)
		die(EXIT_DATA, "more than %zu op records", TL_OP_MAX);
	modelled = hasmodel || has_flops || has_roof || has_bwd_of || spec != NULL ||
	    sheet != NULL;
	if (id > tl->maxid)
		tl->maxid = id;
	if (!has_rank)
		rank = 0;
	if (not_needed(r, cat, name, modelled)) {
		tl_gone_add(tl, id, has_parent ? parent : -1, rank);
		tl->nskip++;
		return;
	}
	tl->op = xgrow(tl->op, &tl->capop, tl->nop + 1, sizeof(*tl->op));
	add_phase(tl, phase);
	o = &tl->op[tl->nop++];
	memset(o, 0, sizeof(*o));
	o->id = id;
	o->parent = has_parent ? parent : -1;
	o->up = TL_UP_NONE;
	o->hs = has_hs ? hs : 0;
	o->he = has_he ? he : o->hs;
	o->name = tl_intern(tl, name);
	o->runtime = cat ? strcmp(cat, "cpu_op") != 0 : name != NULL && is_runtime_name(name);
	o->python = cat && strcmp(cat, "python_function") == 0;
	o->cat = category ? tl_intern(tl, category) : NAME_NONE;
	memcpy(who, &rank, sizeof(rank));
	w = sizeof(rank) / 4;
	who[w + TL_PROCESS] = tl_intern(tl, process ? process : "Unknown");
	who[w + TL_LABEL] = tl_intern(tl, label ? label : "Unknown");
	who[w + TL_THREAD] = tl_intern(tl, thread ? thread : "Unknown");
	if ((w = names_intern(&tl->who, (const char *)who, sizeof(who))) > TL_WHO_MAX)
		die(EXIT_DATA, "more than %u distinct (rank, process, thread)", TL_WHO_MAX);
	o->who = w;
	o->mod = TL_MOD_NONE;
	m = &mv;
	*m = tl_mod_none;
	if (has_flops || has_bytes || has_roof || has_bwd_of || spec != NULL ||
	    sheet != NULL || rec_type(r, "params") == REC_OBJECT) {
		if (tl->nmod >= TL_OP_MAX)
			die(EXIT_DATA, "more than %zu op records", TL_OP_MAX);
		o->mod = (uint32_t)tl->nmod;
	}
	m->bwd_of = has_bwd_of ? bwd_of : -1;
	m->spec = spec ? tl_intern(tl, spec) : NAME_NONE;
	m->sheet = sheet ? tl_intern(tl, sheet) : NAME_NONE;
	m->flops = has_flops ? flops : NAN;
	m->bytes = has_bytes ? bytes : NAN;
	if (args_shown(r, modelled))
		add_args(tl, o, r);
	else
		o->args = NAME_NONE;
	add_params(tl, o, m, r);
	if (!isnan(m->flops))
		o->model = 1;
	/* TraceLens's _has_perf_model: the name has a model, whether or not it applies;
	 * a backward op's figures are its forward op's model (the roofline sheets'), not
	 * its own */
	o->hasmodel = hasmodel && !has_bwd_of;
	add_roof(tl, m, has_roof ? roof_us : NAN, roof, has_flops ? &flops : NULL,
	    has_peak ? &peak : NULL);
	if (o->mod != TL_MOD_NONE) {
		tl->mod = xgrow(tl->mod, &tl->capmod, tl->nmod + 1, sizeof(*tl->mod));
		tl->mod[tl->nmod++] = mv;
	}
}

#undef STR

/* A refused trace record stops the report whatever the bad-record policy: under
 * --skip-bad the record is left out, but its op and GPU records would still make one
 * timeline of two ranks, or an empty report. tl_sheets returns the first refusal. */
static void
keep_refusal(struct tl *tl, const struct rec *r)
{
	const struct error *e = rec_bad(r);

	if (e != NULL && !error_is_set(&tl->refused))
		error_set(&tl->refused, e->file, e->line, e->off, "%s", e->msg);
}

/* A count of the trace record (events, unlinked, ...): 0 to TL_ID_MAX, r rejected else. */
static bool
trace_count(struct rec *r, const char *key, long long *v)
{
	long long x;

	if (!rec_int(r, key, &x))
		return false;
	if (x < 0 || x > TL_ID_MAX) {
		rec_reject(r, "trace record's %s %lld out of range (0 to 2^62)", key, x);
		return false;
	}
	*v = x;
	return true;
}

/*
 * What a trace record says the sheets cannot report (issue 23): a trace without GPU
 * events (CPU-only, another accelerator) is a bad record saying what it holds (the
 * program stops there, by the bad-record policy); so is a second rank in the stream
 * (its distributed.rank, else its "rank"): the sheets are one GPU's, never a timeline
 * adding two GPUs' times. A trace with most GPU events unlinked
 * (a GPU-only trace has no launches), or most events of kinds ttp does not read (python
 * frames aside), is said once.
 */
static void
trace_refusals(struct tl *tl, struct rec *r)
{
	const char *file = rec_str(r, "file", NULL), *d, *c;
	long long rank = -1, ng = -1, nu = 0, nev = 0, nig = 0, n, py = 0;
	struct rec_elems e;
	struct buf b = BUF_INIT;
	size_t len, shown = 0;
	bool go;

	if (rec_bad(r) != NULL)
		return;
	if (file == NULL)
		file = "<trace>";
	if ((d = rec_raw(r, "distributed", &len)) != NULL) {
		struct error err = ERROR_INIT;
		struct rec *dr = rec_parse(d, len, rec_where(r), &err);

		if (dr == NULL || !rec_int(dr, "rank", &rank))
			rank = -1;
		rec_free(dr);
		error_free(&err);
	}
	if (rank < 0 && !rec_int(r, "rank", &rank))
		rank = -1;
	if (tl->nrank++ == 0)
		tl->rank0 = rank;
	else if (rank != tl->rank0) {
		rec_reject(r, "several ranks in one stream (ranks %lld and %lld): TraceLens's "
		    "sheets are of one rank's GPU; report each rank's trace alone, and compare "
		    "ranks with the multi-rank report", tl->rank0, rank);
		keep_refusal(tl, r);
		return;
	}
	(void)trace_count(r, "gpu_events", &ng);
	(void)trace_count(r, "unlinked", &nu);
	(void)trace_count(r, "events", &nev);
	(void)trace_count(r, "ignored", &nig);
	if (rec_elems(r, "ignored_cats", &e))
		while (rec_elem_next(&e)) {
			if ((c = rec_elem_str(&e, "cat", NULL)) == NULL || !rec_elem_int(&e, "n", &n))
				continue;
			if (strcmp(c, "python_function") == 0) {
				if (n < 0 || n > TL_ID_MAX)
					rec_reject(r, "trace record's ignored_cats: python_function's "
					    "n %lld out of range (0 to 2^62)", n);
				else
					py = n;
				continue;
			}
			if (shown++ < 3)
				buf_printf(&b, "%s%lld %s", shown > 1 ? ", " : "", n,
				    *c != '\0' ? c : "without a category");
		}
	if (ng == 0) {
		rec_reject(r, "%s: no GPU events: 0 CUDA/HIP kernels, memcpys or memsets among "
		    "%lld events%s%s%s; ttp reads GPU traces", file, nev,
		    b.len > 0 ? " (not read: " : "", b.len > 0 ? b.p : "", b.len > 0 ? ")" : "");
		keep_refusal(tl, r);
	} else if (ng > 0 && nu > ng / 2 && !(rec_bool(r, "gpu_only", &go) && go))
		warning_once("tl-unlinked", "%s: %lld of %lld GPU events are linked to no launch "
		    "(launched before the profile began, or their flows are missing): the op "
		    "sheets leave them out", file, nu, ng);
	if (ng != 0 && nev > 0 && nig - py > nev / 2)
		warning_once("tl-ignored", "%s: %lld of %lld events are of kinds ttp does not "
		    "read (%s)", file, nig - py, nev, b.len > 0 ? b.p : "");
	buf_free(&b);
}

/* The trace record of a PyTorch trace. */
static void
add_trace(struct tl *tl, struct rec *r)
{
	long long n, m;
	bool has_n = trace_count(r, "events", &n), has_m = trace_count(r, "capture_events", &m);
	bool capture = rec_str(r, "capture_folder", NULL) != NULL;
	bool go, has_go = rec_bool(r, "gpu_only", &go);

	trace_refusals(tl, r);
	if (rec_bad(r) != NULL)
		return;
	if (has_go) {
		tl->ntraces++;
		tl->ngpuonly += go;
	}
	/* synthetic rows number on from the trace's last event index, or from the last
	 * event merged from graph-capture traces (ttp-parse -c) */
	if (has_n) {
		if (has_m && (!ck_add_i64(n, m, &n) || n > TL_ID_MAX)) {
			rec_reject(r, "trace record's events + capture_events out of range "
			    "(0 to 2^62)");
			return;
		}
		if (n - 1 > tl->maxid)
			tl->maxid = n - 1;
	}
	/* TraceLens reads python frames whenever it merges captures */
	if (capture)
		tl->capture = 1;
}

/* A GPU-only trace (docs/tracelens.md §1.4.7: no cpu_op events; the trace record's
 * gpu_only) has only gpu_timeline, kernel_summary and the short-kernel sheets: its
 * graph launches are launchers (op records), but not ops of the op sheets. A stream
 * without trace records: no op records. */
bool
tl_gpu_only(const struct tl *tl)
{
	return tl->ntraces > 0 ? tl->ngpuonly == tl->ntraces : tl->nop + tl->nskip == 0;
}

/* The key of a process group on a rank: the rank, the group's name as JSON text. */
static void
group_key(struct buf *b, long long rank, const char *name, size_t n)
{
	buf_reset(b);
	buf_printf(b, "%lld\x1f", rank);
	buf_add(b, name, n);
}

/* A "group" record (ttp-parse: a process group's rank list, written once, after its
 * trace record and before the gpu records that leave the list out). */
static void
add_group(struct tl *tl, struct rec *r)
{
	const char *name, *ranks;
	size_t n, rn;
	long long rank;
	struct buf b = BUF_INIT;
	uint32_t i;
	int added;

	if ((name = rec_raw(r, "group", &n)) == NULL ||
	    (ranks = rec_raw(r, "group_ranks", &rn)) == NULL)
		return;
	if (!rec_int(r, "rank", &rank))
		rank = 0;	/* as add_gpu reads a gpu record without one */
	group_key(&b, rank, name, n);
	i = names_add(&tl->gkey, b.p, b.len, &added);
	tl->granks = xgrow(tl->granks, &tl->capg, (size_t)i + 1, sizeof(*tl->granks));
	if (added)
		tl->granks[i] = intern_mem(tl, ranks, rn);
	buf_free(&b);
}

/* A collective kernel's args without its group's rank list: the list its group's
 * record gives, added at the end of its comm object as if the kernel's args had it (as
 * TraceLens reads them). The object's text is otherwise kept byte for byte: read with
 * the JSON reader, not as a record, which would refuse what a kernel's args may hold
 * (a repeated key, a NUL) and that coll_analysis reads as TraceLens does. */
static void
join_group(struct tl *tl, struct gpuev *k, struct rec *r)
{
	struct js_reader *rd;
	struct buf name = BUF_INIT, b = BUF_INIT;
	const char *c, *rl;
	enum js_tok t;
	size_t n, end;
	bool ranks = false, named = false;
	uint32_t g;

	if (rec_type(r, "comm") != REC_OBJECT || (c = rec_raw(r, "comm", &n)) == NULL)
		return;
	rd = js_open_mem(c, n);
	if (js_next(rd) != JS_OBJECT) {
		js_close(rd);
		return;
	}
	while ((t = js_next(rd)) == JS_KEY) {
		bool isname = js_is(rd, "Process Group Name");

		if (js_is(rd, "Process Group Ranks"))
			ranks = true;
		if ((t = js_next(rd)) == JS_ERROR)
			break;
		if (isname) {
			buf_reset(&name);	/* the last one, as ttp-parse keyed it */
			if ((t = js_capture(rd, &name)) == JS_ERROR)
				break;
			named = true;
		} else if ((t = js_skip(rd)) == JS_ERROR)
			break;
	}
	js_close(rd);
	end = n;
	while (end > 0 && c[end - 1] != '}')
		end--;
	if (t == JS_OBJECT_END && !ranks && named && end > 0) {
		group_key(&b, tl_kev_rank(tl, k), name.p, name.len);
		if ((g = names_lookup(&tl->gkey, b.p, b.len)) != NAME_NONE) {
			rl = names_str(&tl->str, tl->granks[g]);
			buf_reset(&b);
			buf_add(&b, c, end - 1);
			buf_printf(&b, ",\"Process Group Ranks\":");
			buf_add(&b, rl, strlen(rl));
			buf_add(&b, "}", 1);
			k->comm = intern_mem(tl, b.p, b.len);
		}
	}
	buf_free(&name);
	buf_free(&b);
}

int
tl_add(struct tl *tl, struct rec *r)
{
	enum rec_kind kind = rec_kind(r);
	enum trace_kind tr = rec_trace(r);

	if (kind == KIND_NONE)
		return 0;
	if (kind == KIND_GPU) {
		add_gpu(tl, r);
		return 1;
	}
	if (tr != TRACE_KINETO)
		return 0;
	if (kind == KIND_OP)
		add_op(tl, r);
	else if (kind == KIND_TRACE)
		add_trace(tl, r);
	else if (kind == KIND_GROUP && rec_bad(r) == NULL)
		add_group(tl, r);
	return 1;
}

/* --- linking ------------------------------------------------------------------------ */

static struct tl *cmp_tl;

/* Ops in (rank, id) order: several traces in one stream (ttp-parse a.json b.json) reuse
 * their event indices as ids, the rank tells them apart. */
static int
byid_cmp(const void *a, const void *b)
{
	const struct top *x = &cmp_tl->op[*(const uint32_t *)a];
	const struct top *y = &cmp_tl->op[*(const uint32_t *)b];
	long long rx = tl_op_rank(cmp_tl, x), ry = tl_op_rank(cmp_tl, y);

	if (rx != ry)
		return (rx > ry) - (rx < ry);
	return (x->id > y->id) - (x->id < y->id);
}

size_t
tl_find_op(const struct tl *tl, long long rank, long long id)
{
	size_t lo = 0, hi = tl->nop;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct top *m = &tl->op[tl->byid[mid]];
		long long mr = tl_op_rank(tl, m);

		if (mr == rank && m->id == id)
			return tl->byid[mid];
		if (mr < rank || (mr == rank && m->id < id))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NONE;
}

/* Parent links read from records may form a cycle (no trace has one; a hand-made or
 * damaged stream may): cut each where the walk up that finds it closes it, so that
 * every walk up ends. */
static void
cut_cycles(struct tl *tl)
{
	size_t *walk = xcalloc(tl->nop + 1, sizeof(*walk)), i, j;	/* 0: not seen */

	for (i = 0; i < tl->nop; i++) {
		for (j = i; j != NONE && walk[j] == 0; j = TL_UP(tl->op[j]))
			walk[j] = i + 1;
		if (j != NONE && walk[j] == i + 1)
			tl->op[j].up = TL_UP_NONE;
	}
	free(walk);
}

/* TraceLens orders the ops of its tree by ts, a double, stably in the trace's event
 * order: ops whose ts differ by less than a double's precision at their magnitude
 * (epoch clocks: 0.25 µs) tie and keep their event order. v (op indices, in record
 * order, which is by ns) gets each run of such ties of one rank in id order. */
void
tl_tie_runs(const struct tl *tl, size_t *v, size_t n)
{
	size_t a, b, i, j, x;

	for (a = 0; a < n; a = b) {
		const struct top *o = &tl->op[v[a]];
		double t = tl_ns_us(o->hs);

		for (b = a + 1; b < n && tl_op_rank(tl, &tl->op[v[b]]) == tl_op_rank(tl, o) &&
		    tl_ns_us(tl->op[v[b]].hs) == t; b++)
			;
		for (i = a + 1; i < b; i++) {	/* insertion sort: runs are short */
			x = v[i];
			for (j = i; j > a && tl->op[v[j - 1]].id > tl->op[x].id; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
	}
}

/* The start of each op's list in a CSR array of lists that cnt[i] long, into ev0 or kid0
 * (the op past the last one included); cnt is zeroed. */
static void
csr_starts(struct tl *tl, size_t *cnt, int kids)
{
	size_t i, n = 0;

	for (i = 0; i <= tl->nop; i++) {
		if (kids)
			tl->op[i].kid0 = (uint32_t)n;
		else
			tl->op[i].ev0 = (uint32_t)n;
		n += cnt[i];
		cnt[i] = 0;
	}
}

/* Each op's children, in input order (ties of ts in id order: tl_tie_runs). */
static void
link_kids(struct tl *tl)
{
	size_t i, j, n, *cnt = xcalloc(tl->nop + 1, sizeof(*cnt));

	for (i = 0; i < tl->nop; i++)
		if (TL_UP(tl->op[i]) != NONE)
			cnt[TL_UP(tl->op[i])]++;
	csr_starts(tl, cnt, 1);
	tl->kids = xreallocarray(NULL, tl->nop ? tl->nop : 1, sizeof(*tl->kids));
	for (i = 0; i < tl->nop; i++) {
		size_t u = TL_UP(tl->op[i]);

		if (u != NONE)
			tl->kids[tl->op[u].kid0 + cnt[u]++] = (uint32_t)i;
	}
	for (i = 0; i < tl->nop; i++) {	/* cnt: room for the longest list */
		uint32_t *kv = tl->kids + tl->op[i].kid0;

		n = tl_op_nkid(&tl->op[i]);
		for (j = 0; j < n; j++)
			cnt[j] = kv[j];
		tl_tie_runs(tl, cnt, n);
		for (j = 0; j < n; j++)
			kv[j] = (uint32_t)cnt[j];
	}
	free(cnt);
}

/* Each GPU event's launching op (and launch_via's), each op's own events in event
 * order. */
static void
link_events(struct tl *tl)
{
	size_t i, *cnt = xcalloc(tl->nop + 1, sizeof(*cnt));

	for (i = 0; i < tl->nk; i++) {
		struct gpuev *k = &tl->k[i];
		long long by = k->by, via = k->via;	/* the ids are links now */

		k->op = k->vop = NONE;
		if (by < 0 || (k->op = tl_find_op(tl, tl_kev_rank(tl, k), by)) == NONE)
			continue;
		if (via >= 0)
			k->vop = tl_find_op(tl, tl_kev_rank(tl, k), via);
		cnt[k->op]++;
	}
	csr_starts(tl, cnt, 0);
	tl->oev = xreallocarray(NULL, tl->op[tl->nop].ev0 + 1, sizeof(*tl->oev));
	for (i = 0; i < tl->nk; i++)
		if (tl->k[i].op != NONE)
			tl->oev[tl->op[tl->k[i].op].ev0 + cnt[tl->k[i].op]++] = (uint32_t)i;
	free(cnt);
}

void
tl_link(struct tl *tl)
{
	size_t i;

	if (tl->linked)
		return;
	tl->linked = 1;
	tl->byid = xreallocarray(NULL, tl->nop ? tl->nop : 1, sizeof(*tl->byid));
	for (i = 0; i < tl->nop; i++)
		tl->byid[i] = (uint32_t)i;
	cmp_tl = tl;
	qsort(tl->byid, tl->nop, sizeof(*tl->byid), byid_cmp);
	tl_gone_link(tl);
	for (i = 0; i < tl->nop; i++)
		tl->op[i].parent = 0;	/* the ids are links now */
	/* no more reprs, params or "in" texts: what only adding them needs goes */
	dstr_freeze(tl->ds);
	dstr_freeze(tl->argset);
	dstr_freeze(tl->pset);
	for (i = 0; i < INCACHE; i++) {
		free(tl->inc[i].text);
		tl->inc[i] = (struct incache){ NULL, 0, 0 };
	}
	cut_cycles(tl);
	/* the op past the last one, whose ev0 and kid0 end the last op's lists */
	tl->op = xgrow(tl->op, &tl->capop, tl->nop + 1, sizeof(*tl->op));
	memset(&tl->op[tl->nop], 0, sizeof(*tl->op));
	link_kids(tl);
	link_events(tl);
}

/* Busy time of a set of GPU events: Σ len(merge). */
double
tl_busy(const struct tl *tl, const size_t *ev, size_t n)
{
	struct iv *v;
	double t;
	size_t i;

	if (n == 0)
		return 0;
	v = xreallocarray(NULL, n, sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = (struct iv){ tl->k[ev[i]].s, tl->k[ev[i]].s + tl->k[ev[i]].dur };
	t = iv_len(v, iv_merge(v, n));
	free(v);
	return t;
}

void
tl_timeline(const struct tl *tl, int include_unlinked, double micro_idle_us,
    struct tl_timeline *t)
{
	struct iv *v[4], *tmp, *tmp2;
	size_t n[4] = { 0, 0, 0, 0 }, i, nt, nt2;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < 4; i++)
		v[i] = xreallocarray(NULL, tl->nk ? tl->nk : 1, sizeof(struct iv));
	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];
		struct iv x = { k->s, k->s + k->dur };

		if (k->op == NONE && !include_unlinked)
			continue;
		v[k->cls][n[k->cls]++] = x;
		v[3][n[3]++] = x;
	}
	for (i = 0; i < 4; i++)
		n[i] = iv_merge(v[i], n[i]);
	tmp = xreallocarray(NULL, tl->nk * 2 + 2, sizeof(*tmp));
	tmp2 = xreallocarray(NULL, tl->nk * 2 + 2, sizeof(*tmp2));
	t->comp = iv_len(v[TL_CLS_COMP], n[TL_CLS_COMP]);
	nt = iv_sub(v[TL_CLS_COMM], n[TL_CLS_COMM], v[TL_CLS_COMP], n[TL_CLS_COMP], tmp);
	t->xcomm = iv_len(tmp, nt);
	nt = iv_sub(v[TL_CLS_MEMCPY], n[TL_CLS_MEMCPY], v[TL_CLS_COMP], n[TL_CLS_COMP], tmp);
	nt2 = iv_sub(tmp, nt, v[TL_CLS_COMM], n[TL_CLS_COMM], tmp2);
	t->xmemcpy = iv_len(tmp2, nt2);
	t->busy = iv_len(v[3], n[3]);
	t->total = n[3] ? v[3][n[3] - 1].e - v[3][0].s : 0;
	t->idle = t->total - t->busy;
	t->comm = iv_len(v[TL_CLS_COMM], n[TL_CLS_COMM]);
	t->memcpy = iv_len(v[TL_CLS_MEMCPY], n[TL_CLS_MEMCPY]);
	for (i = 1; i < n[3]; i++) {
		double gap = v[3][i].s - v[3][i - 1].e;

		if (gap < micro_idle_us)
			t->micro += gap;
		else
			t->macro += gap;
	}
	for (i = 0; i < 4; i++)
		free(v[i]);
	free(tmp);
	free(tmp2);
}

/* --- op categories and launchers (§1.5, §3) ----------------------------------------- */

static int kev_ts_cmp_tl(const void *a, const void *b);

/* Own GPU events of op i sorted by start. */
void
tl_sort_events(struct tl *tl, size_t *ev, size_t n)
{
	if (n < 2)
		return;
	cmp_tl = tl;
	qsort(ev, n, sizeof(*ev), kev_ts_cmp_tl);
}

static int
kev_ts_cmp_tl(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	double s = cmp_tl->k[x].s, t = cmp_tl->k[y].s;

	if (s != t)
		return (s > t) - (s < t);
	return (x > y) - (x < y);
}

uint32_t
tl_op_category(struct tl *tl, size_t i)
{
	struct top *o = &tl->op[i];
	const char *n = tl_str(tl, o->name), *k;
	size_t j, first = NONE;

	if (o->cat != NAME_NONE)
		return o->cat;
	if (strncmp(n, "triton", 6) == 0)
		return o->cat = tl_intern(tl, "triton");
	if (strncmp(n, "record_param_comms", 18) == 0)
		return o->cat = tl_intern(tl, "record_param_comms");
	for (j = 0; j < tl_op_nev(o); j++)
		if (first == NONE || tl->k[OEV(o, j)].s < tl->k[first].s)
			first = OEV(o, j);
	o->cat = tl_intern(tl, "other");
	if (first != NONE &&
	    strncmp(k = tl_str(tl, tl->k[first].name), "void at::native", 15) == 0) {
		if (strstr(k, "elementwise"))
			o->cat = tl_intern(tl, "elementwise");
		else if (strstr(k, "reduce"))
			o->cat = tl_intern(tl, "reduce");
		else if (strstr(k, "multi_tensor_apply"))
			o->cat = tl_intern(tl, "multi_tensor_apply");
	}
	return o->cat;
}

/* Whether GPU event x comes before y in the trace: (rank, event index), else record
 * order. */
int
tl_kev_trace_cmp(const struct tl *tl, size_t x, size_t y)
{
	const struct gpuev *a = &tl->k[x], *b = &tl->k[y];
	long long ra = tl_kev_rank(tl, a), rb = tl_kev_rank(tl, b);

	if (ra != rb)
		return (ra > rb) - (ra < rb);
	if (a->id != b->id)
		return (a->id > b->id) - (a->id < b->id);
	return (x > y) - (x < y);
}

size_t
tl_launcher_of(const struct tl *tl, size_t i)
{
	while (!tl->op[i].runtime && strcmp(tl_str(tl, tl->op[i].name), "execute") == 0 &&
	    TL_UP(tl->op[i]) != NONE)
		i = TL_UP(tl->op[i]);
	return i;
}

void
tl_walk_push(struct tl_walk *w, size_t i)
{
	w->s = xgrow(w->s, &w->cap, w->n + 1, sizeof(*w->s));
	w->s[w->n++] = i;
}

/* Op i's children onto the stack, the last first: they come off in their order. */
void
tl_walk_push_kids(const struct tl *tl, struct tl_walk *w, size_t i)
{
	const struct top *o = &tl->op[i];
	size_t j;

	for (j = tl_op_nkid(o); j-- > 0;)
		tl_walk_push(w, tl->kids[o->kid0 + j]);
}

/* Every GPU event of op i's subtree (its own and its descendants', in preorder),
 * appended to v. */
void
tl_subtree_events(const struct tl *tl, size_t i, size_t **v, size_t *n, size_t *cap)
{
	struct tl_walk w = { NULL, 0, 0 };
	size_t j;

	tl_walk_push(&w, i);
	while (w.n > 0) {
		const struct top *o = &tl->op[i = w.s[--w.n]];

		*v = xgrow(*v, cap, *n + tl_op_nev(o), sizeof(**v));
		for (j = 0; j < tl_op_nev(o); j++)
			(*v)[(*n)++] = OEV(o, j);
		tl_walk_push_kids(tl, &w, i);
	}
	free(w.s);
}
