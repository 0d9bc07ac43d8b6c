/* SPDX-License-Identifier: ISC */
/* tlsheets: TraceLens's sheets from Kineto records (spec tracelens.md §1.5, §2, §7). */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


#include "core/buf.h"
#include "core/diag.h"
#include "core/json.h"
#include "core/names.h"
#include "core/numfmt.h"
#include "core/rec.h"
#include "report/pyrepr.h"
#include "report/interval.h"
#include "report/tab.h"
#include "report/tlsheets.h"
#include "torch/kcat.h"
#include "torch/opclass.h"

#define NONE SIZE_MAX

enum { GPU_KERNEL, GPU_MEMCPY, GPU_MEMSET };
enum { CLS_COMP, CLS_COMM, CLS_MEMCPY };

/* One GPU event. s and e are TraceLens's doubles: ts and ts + dur in µs. */
struct gpuev {
	uint32_t	name;
	uint8_t		gpu, cls;
	long long	stream, start_ns, ns, by;	/* by: launched_by, -1 when unlinked */
	long long	rank;				/* of its trace (ids are per trace) */
	long long	id;				/* its event index, -1 if none */
	size_t		op;				/* index of the launching op, or NONE */
	long long	via;				/* launch_via: the record right above
							 * its launch, below op; -1 if none */
	size_t		vop;				/* its index, or NONE */
	uint32_t	comm;				/* its collective's args (JSON), or NAME_NONE */
	double		s, e, dur;
};

/* One op record (a CPU op or an orphan launch). */
struct top {
	long long	id, parent, hs, he;
	long long	rank;			/* of its trace: ids are event indices per trace */
	long long	bwd_of;			/* ttp-roofline's: the forward op whose
						 * backward figures it carries, or -1 */
	double		flops, bytes, roof_us;	/* roof_us: NAN without a roofline */
	uint32_t	up;			/* parent index, or UP_NONE (read with UP) */
	uint32_t	name, cat, process, label, thread, spec, sheet, params;
	uint32_t	phase;			/* ttp-phase's tag, or NAME_NONE */
	uint32_t	args;			/* its argument reprs (tl->argset, ARG), or
						 * NAME_NONE when it has no "in" */
	uint32_t	bound;			/* COMPUTE_BOUND / MEMORY_BOUND */
	uint32_t	p0, np;			/* its params: tl->pkv[p0 .. p0 + np) */
	uint32_t	ev0, nev;		/* own GPU events (all, comm included):
						 * tl->oev[ev0 .. ev0 + nev) */
	uint32_t	kid0, nkid;		/* children in tl->kids */
	uint8_t		runtime, model;		/* model: ttp-roofline gave its figures */
	uint8_t		hasmodel;		/* TraceLens has a perf model for it */
	uint8_t		python;			/* a python function (ttp-parse -p); runtime too */
};

/* An op's parent index as a size_t: NONE at the root. (Ops and their events and
 * params are counted in 32 bits: add_op and add_gpu stop past OP_MAX.) */
#define UP_NONE		UINT32_MAX
#define UP(o)		((o).up == UP_NONE ? NONE : (size_t)(o).up)
#define OP_MAX		((size_t)UINT32_MAX - 1)

/*
 * Ops repeat their arguments: each "in" text is converted once while it is in this
 * cache (direct-mapped by a hash of the text, compared in full), and the ops keep only
 * the index of their 8 reprs (struct names argset, interned: one copy per distinct
 * set). The cache is bounded; the distinct texts are not kept.
 */
#define INCACHE	4096
struct incache {
	char		*text;
	size_t		 len;
	uint32_t	 set;
};

struct tl {
	struct gpuev	*k;
	size_t		 nk, capk;
	struct top	*op;
	size_t		 nop, capop;
	struct names	 str;
	size_t		*oev;			/* the ops' own GPU events (tl_link) */
	uint32_t	(*pkv)[2];		/* the ops' param names and value reprs */
	size_t		 npkv, cappkv;
	struct names	 argset;		/* distinct argument reprs: 8 uint32 each */
	struct incache	*inc;			/* recent "in" texts and their argset */
	size_t		*kids;			/* CSR children lists */
	size_t		*byid;			/* op indices sorted by id */
	long long	 maxid;
	int		 linked;		/* ops linked to parents and events */
	int		 roofline;		/* some op has a roofline time */
	int		 capture;		/* ttp-parse merged graph-capture traces */
	size_t		 ntraces, ngpuonly;	/* trace records; those that say gpu_only */
	long long	 rank0;			/* the first trace record's rank (-1: none) */
	size_t		 nrank;			/* trace records whose rank was taken */
	struct error	 refused;		/* the first trace refused: no GPU, a 2nd rank */
	uint32_t	 empty;
	const struct tl_opts *o;		/* of the tl_sheets call */
};

const char *const tl_sheet_names[] = {
	"gpu_timeline", "ops_summary_by_category", "ops_summary_by_phase", "ops_summary",
	"ops_unique_args", "unified_perf_summary", "ops_summary_prefill",
	"ops_summary_decode", "<family>", "kernel_summary", "kernel_summary_prefill",
	"kernel_summary_decode", "short_kernel_histogram",
	"short_kernels_summary", "coll_analysis", NULL
};

struct tl *
tl_new(void)
{
	struct tl *tl = xcalloc(1, sizeof(*tl));

	names_init(&tl->str);
	names_init(&tl->argset);
	tl->inc = xcalloc(INCACHE, sizeof(*tl->inc));
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
	error_free(&tl->refused);
	free(tl->oev);
	free(tl->pkv);
	free(tl->k);
	free(tl->kids);
	free(tl->byid);
	names_free(&tl->str);
	names_free(&tl->argset);
	for (i = 0; i < INCACHE; i++)
		free(tl->inc[i].text);
	free(tl->inc);
	free(tl);
}

size_t
tl_count(const struct tl *tl)
{
	return tl->nk + tl->nop;
}

size_t
tl_comm_kernels(const struct tl *tl)
{
	size_t i, n = 0;

	for (i = 0; i < tl->nk; i++)
		n += tl->k[i].gpu == GPU_KERNEL && tl->k[i].cls == CLS_COMM &&
		    tl->k[i].comm == NAME_NONE;
	return n;
}

static const char *
S(const struct tl *tl, uint32_t id)
{
	return names_str(&tl->str, id);
}

static uint32_t
intern(struct tl *tl, const char *s)
{
	return s ? names_intern(&tl->str, s, strlen(s)) : tl->empty;
}

static uint32_t
intern_buf(struct tl *tl, struct buf *b)
{
	return names_intern(&tl->str, b->p ? b->p : "", b->len);
}

static int
is_comm_name(const char *s)
{
	return strcasestr(s, "nccl") || strcasestr(s, "rccl") || strcasestr(s, "cross_device_reduce");
}

/* ROCm's legacy copy kernels count as memcpy (spec §2). */
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

/* ns as TraceLens's µs: the double that strtod gives for the trace's text (spec §1.1 and
 * its erratum). Below 2^53 the cast is exact and the division rounds once; above (epoch
 * clocks: 1.6e18 ns) the cast itself would round, so the whole µs (exact) and the
 * fraction are added: the one rounding of that sum is strtod's, since a fraction of
 * thousandths is never within its own error of a midpoint between doubles that large. */
static double
ns_us(long long ns)
{
	if (ns > -(1LL << 53) && ns < (1LL << 53))
		return (double)ns / 1000.0;
	return (double)(ns / 1000) + (double)(ns % 1000) / 1000.0;
}

static void
add_gpu(struct tl *tl, struct rec *r)
{
	struct gpuev kv, *k = &kv;
	const char *name = rec_str(r, "name", NULL), *g = rec_str(r, "gpu", NULL);
	const char *cls = rec_str(r, "class", NULL), *c;
	long long v;
	size_t n;

	memset(k, 0, sizeof(*k));
	if (!rec_int(r, "start_ns", &k->start_ns) || !rec_int(r, "ns", &k->ns))
		rec_reject(r, "gpu record without integer start_ns and ns");
	k->stream = rec_int(r, "stream", &v) ? v : -1;
	k->by = rec_int(r, "launched_by", &v) ? v : -1;
	k->rank = rec_int(r, "rank", &v) ? v : 0;
	k->id = rec_int(r, "id", &v) ? v : -1;
	k->via = rec_int(r, "launch_via", &v) ? v : -1;
	if (rec_bad(r) != NULL)
		return;		/* read all first: nothing kept of a bad record */
	if (tl->nk >= OP_MAX)
		die(EXIT_DATA, "more than %zu gpu records", OP_MAX);
	if (k->id > tl->maxid)
		tl->maxid = k->id;
	k->name = intern(tl, name);
	k->gpu = g == NULL || strcmp(g, "kernel") == 0 ? GPU_KERNEL :
	    strcmp(g, "memcpy") == 0 ? GPU_MEMCPY : GPU_MEMSET;
	k->op = NONE;
	k->vop = NONE;
	c = rec_raw(r, "comm", &n);
	k->comm = c != NULL ? names_intern(&tl->str, c, n) : NAME_NONE;
	if (cls != NULL)
		k->cls = strcmp(cls, "comm") == 0 ? CLS_COMM : strcmp(cls, "memcpy") == 0 ?
		    CLS_MEMCPY : CLS_COMP;
	else if (k->gpu == GPU_MEMCPY || (name && is_copy_kernel(name)))
		k->cls = CLS_MEMCPY;
	else
		k->cls = name && is_comm_name(name) ? CLS_COMM : CLS_COMP;
	k->s = ns_us(k->start_ns);
	k->dur = ns_us(k->ns);
	k->e = k->s + k->dur;
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
/* Repr j of op o's arguments: 0-3 the tuple reprs of dims, types, strides and concrete
 * inputs (ops_unique_args), 4-7 their list reprs (roofline sheets); NAME_NONE: NaN. */
static uint32_t
arg_repr(const struct tl *tl, const struct top *o, int j)
{
	uint32_t v;

	if (o->args == NAME_NONE)
		return NAME_NONE;
	memcpy(&v, tl->argset.str[o->args] + 4 * j, sizeof(v));
	return v;
}

#define TDIMS(o)	arg_repr(tl, (o), 0)
#define TTYPES(o)	arg_repr(tl, (o), 1)
#define TSTRIDES(o)	arg_repr(tl, (o), 2)
#define TCONC(o)	arg_repr(tl, (o), 3)
#define LDIMS(o)	arg_repr(tl, (o), 4)
#define LTYPES(o)	arg_repr(tl, (o), 5)
#define LSTRIDES(o)	arg_repr(tl, (o), 6)
#define LCONC(o)	arg_repr(tl, (o), 7)

/* Param j of op o: its name and its value's repr; own GPU event j of op o. */
#define PK(o, j)	(tl->pkv[(o)->p0 + (j)][0])
#define PV(o, j)	(tl->pkv[(o)->p0 + (j)][1])
#define OEV(o, j)	(tl->oev[(o)->ev0 + (j)])

static uint64_t
text_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

/* The argument columns of an op from its "in" array: each entry's shape (a list, or a
 * list of lists for a TensorList), dtype, strides and value (Concrete Inputs). */
static void
add_args(struct tl *tl, struct top *o, struct rec *r)
{
	static const char *const keys[4] = { "shape", "dtype", "strides", "value" };
	uint32_t set[8];
	struct buf t = BUF_INIT, l = BUF_INIT, cap = BUF_INIT;
	size_t i, j, n, rawlen, *off, x;
	const char *raw = rec_raw(r, "in", &rawlen);
	struct incache *c;
	int real;

	if (raw == NULL || (rawlen == 4 && memcmp(raw, "null", 4) == 0)) {
		/* no arguments recorded (a runtime launch): NaN cells */
		o->args = NAME_NONE;
		return;
	}
	c = &tl->inc[text_hash(raw, rawlen) % INCACHE];
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
			set[j] = set[4 + j] = NAME_NONE;
			continue;
		}
		buf_reset(&t);
		buf_reset(&l);
		buf_addc(&t, '(');
		buf_addc(&l, '[');
		for (i = 0; i < n; i++) {
			x = off[4 * i + j];
			if (i) {
				buf_adds(&t, ", ");
				buf_adds(&l, ", ");
			}
			if (x == SIZE_MAX) {
				buf_adds(&t, j == 0 || j == 2 ? "()" : "''");
				buf_adds(&l, j == 0 || j == 2 ? "[]" : "''");
			} else {
				py_json(&t, cap.p + x, strlen(cap.p + x), PY_TUPLE | real);
				py_json(&l, cap.p + x, strlen(cap.p + x), real);
			}
		}
		if (n == 1)
			buf_addc(&t, ',');
		buf_addc(&t, ')');
		buf_addc(&l, ']');
		set[j] = intern_buf(tl, &t);
		set[4 + j] = intern_buf(tl, &l);
	}
	o->args = names_intern(&tl->argset, (const char *)set, sizeof(set));
	free(c->text);
	c->text = xmalloc(rawlen);
	memcpy(c->text, raw, rawlen);
	c->len = rawlen;
	c->set = o->args;
	free(off);
	buf_free(&cap);
	buf_free(&t);
	buf_free(&l);
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
 * its first place and its last value, as jansson kept them). */
static void
add_params(struct tl *tl, struct top *o, struct rec *r)
{
	struct buf b = BUF_INIT, v = BUF_INIT;
	size_t n, i, k;
	const char *raw = rec_raw(r, "params", &n);
	struct js_reader *rd;
	uint32_t key;
	int real;

	if (raw == NULL || rec_type(r, "params") != REC_OBJECT)
		return;
	real = py_json_bigint(raw, n) ? PY_REAL : 0;
	o->p0 = (uint32_t)tl->npkv;
	rd = js_open_mem(raw, n);
	js_next(rd);
	while (js_next(rd) == JS_KEY) {
		const char *ks = js_str(rd, NULL);
		/* ttp-roofline's params_lists: the params that are Python lists */
		int tuple = param_is_list(r, ks) ? 0 : PY_TUPLE;

		key = intern(tl, ks);
		js_next(rd);
		buf_reset(&v);
		js_capture(rd, &v);
		buf_reset(&b);
		py_json(&b, v.p, v.len, tuple | real);
		for (k = 0; k < o->np && PK(o, k) != key; k++)
			;
		if (k == o->np) {	/* the op's pairs are the last ones: appended */
			if (tl->npkv >= OP_MAX)
				die(EXIT_DATA, "more than %zu op params", OP_MAX);
			tl->pkv = xgrow(tl->pkv, &tl->cappkv, tl->npkv + 1, sizeof(*tl->pkv));
			tl->pkv[tl->npkv++][0] = key;
			o->np++;
		}
		PV(o, k) = intern_buf(tl, &b);
	}
	js_close(rd);
	buf_reset(&b);
	buf_addc(&b, '{');
	for (i = 0; i < o->np; i++) {
		const char *ks = S(tl, PK(o, i)), *vs = S(tl, PV(o, i));

		if (i)
			buf_adds(&b, ", ");
		py_str(&b, ks, strlen(ks));
		buf_adds(&b, ": ");
		buf_adds(&b, vs);
	}
	buf_addc(&b, '}');
	o->params = intern_buf(tl, &b);
	o->model = 1;
	buf_free(&b);
	buf_free(&v);
}

static int
is_runtime_name(const char *s)
{
	return (strncmp(s, "cuda", 4) == 0 || strncmp(s, "hip", 3) == 0 ||
	    strncmp(s, "cu", 2) == 0) && strcasestr(s, "launch") != NULL;
}

/* The string key of r, or NULL (absent, null; of another type: r is bad). */
#define STR(key)	rec_str(r, key, NULL)

static void
add_op(struct tl *tl, struct rec *r)
{
	struct top *o;
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
	if (rec_bad(r) != NULL)
		return;		/* read all first: nothing kept of a bad record */
	if (tl->nop >= OP_MAX)
		die(EXIT_DATA, "more than %zu op records", OP_MAX);
	tl->op = xgrow(tl->op, &tl->capop, tl->nop + 1, sizeof(*tl->op));
	o = &tl->op[tl->nop++];
	memset(o, 0, sizeof(*o));
	o->id = id;
	if (o->id > tl->maxid)
		tl->maxid = o->id;
	o->parent = has_parent ? parent : -1;
	o->bwd_of = has_bwd_of ? bwd_of : -1;
	o->rank = has_rank ? rank : 0;
	o->up = UP_NONE;
	o->hs = has_hs ? hs : 0;
	o->he = has_he ? he : o->hs;
	o->name = intern(tl, name);
	o->runtime = cat ? strcmp(cat, "cpu_op") != 0 : name != NULL && is_runtime_name(name);
	o->python = cat && strcmp(cat, "python_function") == 0;
	o->cat = category ? intern(tl, category) : NAME_NONE;
	o->process = intern(tl, process ? process : "Unknown");
	o->label = intern(tl, label ? label : "Unknown");
	o->thread = intern(tl, thread ? thread : "Unknown");
	o->spec = spec ? intern(tl, spec) : NAME_NONE;
	o->sheet = sheet ? intern(tl, sheet) : NAME_NONE;
	o->phase = phase ? intern(tl, phase) : NAME_NONE;
	o->params = NAME_NONE;
	o->flops = has_flops ? flops : NAN;
	o->bytes = has_bytes ? bytes : NAN;
	add_args(tl, o, r);
	add_params(tl, o, r);
	if (!isnan(o->flops))
		o->model = 1;
	/* TraceLens's _has_perf_model: the name has a model, whether or not it applies;
	 * a backward op's figures are its forward op's model (the roofline sheets'), not
	 * its own */
	o->hasmodel = hasmodel && !has_bwd_of;
	o->roof_us = has_roof ? roof_us : NAN;
	o->bound = NAME_NONE;
	if (!isnan(o->roof_us)) {
		tl->roofline = 1;
		if (roof != NULL)
			o->bound = intern(tl, strcmp(roof, "compute") == 0 ? "COMPUTE_BOUND" :
			    "MEMORY_BOUND");
		else if (has_peak && has_flops && peak > 0)
			/* no kernel time, so no "roof": TraceLens's bound all the same, the
			 * compute time (its expression) being the roofline time */
			o->bound = intern(tl, (flops / 1e9 * 1e9 / (peak * 1e12)) * 1e6 >=
			    roof_us ? "COMPUTE_BOUND" : "MEMORY_BOUND");
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
	(void)rec_int(r, "gpu_events", &ng);
	(void)rec_int(r, "unlinked", &nu);
	(void)rec_int(r, "events", &nev);
	(void)rec_int(r, "ignored", &nig);
	if (rec_elems(r, "ignored_cats", &e))
		while (rec_elem_next(&e)) {
			if ((c = rec_elem_str(&e, "cat", NULL)) == NULL || !rec_elem_int(&e, "n", &n))
				continue;
			if (strcmp(c, "python_function") == 0) {
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
	} else if (ng > 0 && 2 * nu > ng && !(rec_bool(r, "gpu_only", &go) && go))
		warning_once("tl-unlinked", "%s: %lld of %lld GPU events are linked to no launch "
		    "(launched before the profile began, or their flows are missing): the op "
		    "sheets leave them out", file, nu, ng);
	if (ng != 0 && nev > 0 && 2 * (nig - py) > nev)
		warning_once("tl-ignored", "%s: %lld of %lld events are of kinds ttp does not "
		    "read (%s)", file, nig - py, nev, b.len > 0 ? b.p : "");
	buf_free(&b);
}

/* The trace record of a PyTorch trace. */
static void
add_trace(struct tl *tl, struct rec *r)
{
	long long n, m;
	bool has_n = rec_int(r, "events", &n), has_m = rec_int(r, "capture_events", &m);
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
		if (has_m)
			n += m;
		if (n - 1 > tl->maxid)
			tl->maxid = n - 1;
	}
	/* TraceLens reads python frames whenever it merges captures */
	if (capture)
		tl->capture = 1;
}

/* A GPU-only trace (spec section 1.4 item 7: no cpu_op events; the trace record's
 * gpu_only) has only gpu_timeline, kernel_summary and the short-kernel sheets: its
 * graph launches are launchers (op records), but not ops of the op sheets. A stream
 * without trace records: no op records. */
static bool
gpu_only(const struct tl *tl)
{
	return tl->ntraces > 0 ? tl->ngpuonly == tl->ntraces : tl->nop == 0;
}

int
tl_add(struct tl *tl, struct rec *r)
{
	const char *kind = rec_str(r, "kind", NULL), *tr = rec_str(r, "trace", NULL);

	if (kind == NULL)
		return 0;
	if (strcmp(kind, "gpu") == 0) {
		add_gpu(tl, r);
		return 1;
	}
	if (tr == NULL || strcmp(tr, "kineto") != 0)
		return 0;
	if (strcmp(kind, "op") == 0)
		add_op(tl, r);
	else if (strcmp(kind, "trace") == 0)
		add_trace(tl, r);
	return 1;
}

/* --- linking ------------------------------------------------------------------------ */

static struct tl *cmp_tl;

/* Ops in (rank, id) order: several traces in one stream (ttp-parse a.json b.json) reuse
 * their event indices as ids, the rank tells them apart. */
static int
byid_cmp(const void *a, const void *b)
{
	const struct top *x = &cmp_tl->op[*(const size_t *)a], *y = &cmp_tl->op[*(const size_t *)b];

	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	return (x->id > y->id) - (x->id < y->id);
}

static size_t
find_op(const struct tl *tl, long long rank, long long id)
{
	size_t lo = 0, hi = tl->nop;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct top *m = &tl->op[tl->byid[mid]];

		if (m->rank == rank && m->id == id)
			return tl->byid[mid];
		if (m->rank < rank || (m->rank == rank && m->id < id))
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
		for (j = i; j != NONE && walk[j] == 0; j = UP(tl->op[j]))
			walk[j] = i + 1;
		if (j != NONE && walk[j] == i + 1)
			tl->op[j].up = UP_NONE;
	}
	free(walk);
}

/* TraceLens orders the ops of its tree by ts, a double, stably in the trace's event
 * order: ops whose ts differ by less than a double's precision at their magnitude
 * (epoch clocks: 0.25 µs) tie and keep their event order. v (op indices, in record
 * order, which is by ns) gets each run of such ties of one rank in id order. */
static void
tie_runs(const struct tl *tl, size_t *v, size_t n)
{
	size_t a, b, i, j, x;

	for (a = 0; a < n; a = b) {
		const struct top *o = &tl->op[v[a]];
		double t = ns_us(o->hs);

		for (b = a + 1; b < n && tl->op[v[b]].rank == o->rank &&
		    ns_us(tl->op[v[b]].hs) == t; b++)
			;
		for (i = a + 1; i < b; i++) {	/* insertion sort: runs are short */
			x = v[i];
			for (j = i; j > a && tl->op[v[j - 1]].id > tl->op[x].id; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
	}
}

static void
tl_link(struct tl *tl)
{
	size_t i, *cnt;
	struct top *o;

	if (tl->linked)
		return;
	tl->linked = 1;
	tl->byid = xreallocarray(NULL, tl->nop ? tl->nop : 1, sizeof(*tl->byid));
	for (i = 0; i < tl->nop; i++)
		tl->byid[i] = i;
	cmp_tl = tl;
	qsort(tl->byid, tl->nop, sizeof(*tl->byid), byid_cmp);
	for (i = 0; i < tl->nop; i++)
		if (tl->op[i].parent >= 0)
			tl->op[i].up = (uint32_t)find_op(tl, tl->op[i].rank, tl->op[i].parent);
	cut_cycles(tl);
	/* children, in input order */
	cnt = xcalloc(tl->nop + 1, sizeof(*cnt));
	for (i = 0; i < tl->nop; i++)
		if (UP(tl->op[i]) != NONE)
			tl->op[UP(tl->op[i])].nkid++;
	for (i = 0; i < tl->nop; i++) {
		tl->op[i].kid0 = i ? tl->op[i - 1].kid0 + tl->op[i - 1].nkid : 0;
	}
	tl->kids = xreallocarray(NULL, tl->nop ? tl->nop : 1, sizeof(*tl->kids));
	for (i = 0; i < tl->nop; i++) {
		size_t u = UP(tl->op[i]);

		if (u != NONE)
			tl->kids[tl->op[u].kid0 + cnt[u]++] = i;
	}
	free(cnt);
	for (i = 0; i < tl->nop; i++)
		tie_runs(tl, tl->kids + tl->op[i].kid0, tl->op[i].nkid);
	for (i = 0; i < tl->nk; i++) {
		struct gpuev *k = &tl->k[i];

		if (k->by < 0 || (k->op = find_op(tl, k->rank, k->by)) == NONE) {
			k->by = -1;
			continue;
		}
		if (k->via >= 0)
			k->vop = find_op(tl, k->rank, k->via);
		tl->op[k->op].nev++;
	}
	/* each op's own events, in event order */
	for (i = 0; i < tl->nop; i++)
		tl->op[i].ev0 = i ? tl->op[i - 1].ev0 + tl->op[i - 1].nev : 0;
	tl->oev = xreallocarray(NULL, tl->nop ? tl->op[tl->nop - 1].ev0 +
	    tl->op[tl->nop - 1].nev + 1 : 1, sizeof(*tl->oev));
	for (i = 0; i < tl->nop; i++)
		tl->op[i].nev = 0;
	for (i = 0; i < tl->nk; i++) {
		if (tl->k[i].by < 0)
			continue;
		o = &tl->op[tl->k[i].op];
		tl->oev[o->ev0 + o->nev++] = i;
	}
}

/* Busy time of a set of GPU events: Σ len(merge). */
static double
busy(const struct tl *tl, const size_t *ev, size_t n)
{
	struct iv *v;
	double t;
	size_t i;

	if (n == 0)
		return 0;
	v = xreallocarray(NULL, n, sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = (struct iv){ tl->k[ev[i]].s, tl->k[ev[i]].e };
	t = iv_len(v, iv_merge(v, n));
	free(v);
	return t;
}

/* --- gpu_timeline (§2) -------------------------------------------------------------- */

struct timeline {
	double	comp, xcomm, xmemcpy, busy, idle, micro, macro, total, comm, memcpy;
};

static void
timeline(const struct tl *tl, const struct tl_opts *o, struct timeline *t)
{
	struct iv *v[4], *tmp, *tmp2;
	size_t n[4] = { 0, 0, 0, 0 }, i, nt, nt2;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < 4; i++)
		v[i] = xreallocarray(NULL, tl->nk ? tl->nk : 1, sizeof(struct iv));
	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];
		struct iv x = { k->s, k->e };

		if (k->by < 0 && !o->include_unlinked)
			continue;
		v[k->cls][n[k->cls]++] = x;
		v[3][n[3]++] = x;
	}
	for (i = 0; i < 4; i++)
		n[i] = iv_merge(v[i], n[i]);
	tmp = xreallocarray(NULL, tl->nk * 2 + 2, sizeof(*tmp));
	tmp2 = xreallocarray(NULL, tl->nk * 2 + 2, sizeof(*tmp2));
	t->comp = iv_len(v[CLS_COMP], n[CLS_COMP]);
	nt = iv_sub(v[CLS_COMM], n[CLS_COMM], v[CLS_COMP], n[CLS_COMP], tmp);
	t->xcomm = iv_len(tmp, nt);
	nt = iv_sub(v[CLS_MEMCPY], n[CLS_MEMCPY], v[CLS_COMP], n[CLS_COMP], tmp);
	nt2 = iv_sub(tmp, nt, v[CLS_COMM], n[CLS_COMM], tmp2);
	t->xmemcpy = iv_len(tmp2, nt2);
	t->busy = iv_len(v[3], n[3]);
	t->total = n[3] ? v[3][n[3] - 1].e - v[3][0].s : 0;
	t->idle = t->total - t->busy;
	t->comm = iv_len(v[CLS_COMM], n[CLS_COMM]);
	t->memcpy = iv_len(v[CLS_MEMCPY], n[CLS_MEMCPY]);
	for (i = 1; i < n[3]; i++) {
		double gap = v[3][i].s - v[3][i - 1].e;

		if (gap < o->micro_idle_us)
			t->micro += gap;
		else
			t->macro += gap;
	}
	for (i = 0; i < 4; i++)
		free(v[i]);
	free(tmp);
	free(tmp2);
}

static void
tl_row3(struct tab *t, const char *type, double us, double total)
{
	size_t r = tab_row(t);

	tab_set_str(t, r, 0, type);
	tab_set_num(t, r, 1, us / 1e3);
	tab_set_num(t, r, 2, total != 0 ? us / total * 100 : NAN);
}

static struct tab *
sheet_timeline(const struct timeline *tm, const struct tl_opts *o)
{
	struct tab *t = tab_new("gpu_timeline");

	tab_col(t, "type");
	tab_col(t, "time ms");
	tab_col(t, "percent");
	tl_row3(t, "computation_time", tm->comp, tm->total);
	tl_row3(t, "exposed_comm_time", tm->xcomm, tm->total);
	tl_row3(t, "exposed_memcpy_time", tm->xmemcpy, tm->total);
	tl_row3(t, "busy_time", tm->busy, tm->total);
	if (isnan(o->micro_idle_us))
		tl_row3(t, "idle_time", tm->idle, tm->total);
	else {
		tl_row3(t, "micro_idle_time", tm->micro, tm->total);
		tl_row3(t, "macro_idle_time", tm->macro, tm->total);
	}
	tl_row3(t, "total_time", tm->total, tm->total);
	tl_row3(t, "total_comm_time", tm->comm, tm->total);
	tl_row3(t, "total_memcpy_time", tm->memcpy, tm->total);
	return t;
}

/* --- kernels and their parents (§7.6, §7.7) ----------------------------------------- */

/* kernel_summary's parent category of kernel k: the cpu_op's category, "graph" or
 * "runtime" for a launch with no cpu_op, NAME_NONE when unlinked. */
static uint32_t
op_category(struct tl *tl, size_t i);

static uint32_t
kernel_parent_cat(struct tl *tl, const struct gpuev *k)
{
	const struct top *o;

	if (k->op == NONE)
		return NAME_NONE;
	o = &tl->op[k->op];
	if (o->runtime)
		return intern(tl, strcasestr(S(tl, o->name), "cudagraph") ||
		    strcasestr(S(tl, o->name), "graphlaunch") ? "graph" : "runtime");
	return op_category(tl, k->op);
}

static void
set_name(struct tab *t, size_t r, size_t c, const struct tl *tl, uint32_t s)
{
	if (s != NAME_NONE)
		tab_set_str(t, r, c, S(tl, s));
}

static size_t launcher_of(const struct tl *tl, size_t i);

static struct tab *
sheet_kernel_summary(struct tl *tl, double total_us, const char *phase)
{
	struct tab *t;
	struct tab_groups gr;
	size_t i, g;
	struct buf key = BUF_INIT;
	double all = 0;

	/* kernel_summary_<phase>: the kernels of the launchers ttp-phase tagged phase,
	 * percentages within the phase, no percent of the total time (as the
	 * inference-phase branch's get_df_kernel_summary_by_inference_phase) */
	uint32_t ph = phase ? names_lookup(&tl->str, phase, strlen(phase)) : NAME_NONE;

	buf_printf(&key, "kernel_summary%s%s", phase ? "_" : "", phase ? phase : "");
	t = tab_new(key.p);
	tab_groups_init(&gr);
	for (i = 0; i < tl->nk && (phase == NULL || ph != NAME_NONE); i++) {
		const struct gpuev *k = &tl->k[i];
		uint32_t cat, par;

		if (k->gpu != GPU_KERNEL)
			continue;
		if (phase != NULL && (k->op == NONE ||
		    tl->op[launcher_of(tl, k->op)].phase != ph))
			continue;
		cat = kernel_parent_cat(tl, k);
		par = k->op == NONE ? NAME_NONE : tl->op[k->op].name;
		buf_reset(&key);
		buf_printf(&key, "%u\x1f%u\x1f%u\x1f%lld", cat, par, k->name, k->stream);
		tab_groups_add(&gr, key.p, key.len, i, k->dur);
		all += k->dur;
	}
	tab_col(t, "Parent op category");
	tab_col(t, "Parent cpu_op");
	tab_col(t, "Kernel name");
	tab_col(t, "Kernel stream");
	tab_col(t, "Kernel duration (\u00b5s)_sum");
	tab_col(t, "Kernel duration (\u00b5s)_count");
	tab_col(t, "Kernel duration (\u00b5s)_mean");
	tab_col(t, "Kernel duration (\u00b5s)_min");
	tab_col(t, "Kernel duration (\u00b5s)_max");
	tab_col(t, "Percent of kernels time (%)");
	if (phase == NULL)
		tab_col(t, "Percent of total time (%)");
	for (g = 0; g < gr.n; g++) {
		const struct gpuev *k = &tl->k[gr.first[g]];
		size_t r = tab_row(t);
		double sum = stat_sum(&gr.vals[g]);

		set_name(t, r, 0, tl, kernel_parent_cat(tl, k));
		if (k->op != NONE)
			tab_set_str(t, r, 1, S(tl, tl->op[k->op].name));
		tab_set_str(t, r, 2, S(tl, k->name));
		tab_set_int(t, r, 3, k->stream);
		tab_set_num(t, r, 4, sum);
		tab_set_int(t, r, 5, (long long)gr.vals[g].n);
		tab_set_num(t, r, 6, stat_mean(&gr.vals[g]));
		tab_set_num(t, r, 7, stat_min(&gr.vals[g]));
		tab_set_num(t, r, 8, stat_max(&gr.vals[g]));
		tab_set_num(t, r, 9, sum / all * 100);
		if (phase == NULL)
			tab_set_num(t, r, 10, sum / total_us * 100);
	}
	{
		/* groupby orders groups by key (empty last); then pandas' sort on the sum */
		struct tab_key keys[] = { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 } };

		tab_sort(t, keys, 4);
		tab_sort_pandas(t, 4, 1);
	}
	tab_groups_free(&gr);
	buf_free(&key);
	return t;
}

static struct tab *
sheet_short_histogram(struct tl *tl, const struct tl_opts *o)
{
	struct tab *t = tab_new("short_kernel_histogram");
	double lo = INFINITY, hi = -INFINITY, *edge;
	long long *cnt;
	size_t i, nb = (size_t)o->short_bins, n = 0;

	tab_col(t, "bin_start");
	tab_col(t, "bin_end");
	tab_col(t, "count");
	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];

		if (k->gpu == GPU_KERNEL && k->dur < o->short_thresh_us) {
			lo = k->dur < lo ? k->dur : lo;
			hi = k->dur > hi ? k->dur : hi;
			n++;
		}
	}
	if (n == 0 || nb == 0)
		return t;
	if (lo == hi) {		/* numpy widens an empty range by 0.5 each side */
		lo -= 0.5;
		hi += 0.5;
	}
	edge = xreallocarray(NULL, nb + 1, sizeof(*edge));
	cnt = xcalloc(nb, sizeof(*cnt));
	for (i = 0; i <= nb; i++)
		edge[i] = lo + (double)i * ((hi - lo) / (double)nb);
	edge[nb] = hi;
	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];
		size_t b;

		if (k->gpu != GPU_KERNEL || !(k->dur < o->short_thresh_us))
			continue;
		b = (size_t)((k->dur - lo) * ((double)nb / (hi - lo)));
		if (b >= nb)
			b = nb - 1;
		if (b > 0 && k->dur < edge[b])
			b--;
		else if (b + 1 < nb && k->dur >= edge[b + 1])
			b++;
		cnt[b]++;
	}
	for (i = 0; i < nb; i++) {
		size_t r = tab_row(t);

		tab_set_num(t, r, 0, edge[i]);
		tab_set_num(t, r, 1, edge[i + 1]);
		tab_set_int(t, r, 2, cnt[i]);
	}
	free(edge);
	free(cnt);
	return t;
}

static struct tab *
sheet_short_summary(struct tl *tl, const struct tl_opts *o, double total_us)
{
	struct tab *t = tab_new("short_kernels_summary");
	bool gpu = gpu_only(tl);
	struct tab_groups gr;
	size_t i, g, c0, nshort = 0;
	struct buf key = BUF_INIT;

	tab_groups_init(&gr);
	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];
		const struct top *op;

		if (k->gpu != GPU_KERNEL || !(k->dur < o->short_thresh_us))
			continue;
		nshort++;
		buf_reset(&key);
		if (gpu)
			buf_printf(&key, "%u", k->name);
		else {
			/* dropna: no cpu_op parent (unlinked, runtime launches) or a
			 * missing argument list (NaN) drops out */
			if (k->op == NONE || (op = &tl->op[k->op])->runtime ||
			    TDIMS(op) == NAME_NONE || TSTRIDES(op) == NAME_NONE ||
			    TCONC(op) == NAME_NONE)
				continue;
			buf_printf(&key, "%u\x1f%u\x1f%u\x1f%u\x1f%u", op->name, TDIMS(op),
			    TSTRIDES(op), TCONC(op), k->name);
		}
		tab_groups_add(&gr, key.p, key.len, i, k->dur);
	}
	if (nshort == 0) {
		/* no short kernel: pandas' DataFrame(), written as an empty line */
		tab_groups_free(&gr);
		buf_free(&key);
		return t;
	}
	if (gr.n == 0) {
		/* every short kernel dropped (no shapes in the trace): pandas' empty
		 * groupby keeps only its two header rows, (Kernel duration (µs); sum,
		 * count, mean), which the second row here stands for */
		for (i = 0; i < 3; i++)
			tab_col(t, "Kernel duration (\u00b5s)");
		g = tab_row(t);
		tab_set_str(t, g, 0, "sum");
		tab_set_str(t, g, 1, "count");
		tab_set_str(t, g, 2, "mean");
		tab_groups_free(&gr);
		buf_free(&key);
		return t;
	}
	if (!gpu) {
		tab_col(t, "Parent cpu_op");
		tab_col(t, "Input dims");
		tab_col(t, "Input strides");
		tab_col(t, "Concrete Inputs");
	}
	c0 = tab_col(t, "Kernel name");
	tab_col(t, "Short Kernel duration (\u00b5s) sum");
	tab_col(t, "Short Kernel count");
	tab_col(t, "Short Kernel duration (\u00b5s) mean");
	tab_col(t, "Short Kernel duration (\u00b5s) percent of total time");
	for (g = 0; g < gr.n; g++) {
		const struct gpuev *k = &tl->k[gr.first[g]];
		size_t r = tab_row(t);
		double sum = stat_sum(&gr.vals[g]);

		if (!gpu) {
			const struct top *op = &tl->op[k->op];

			tab_set_str(t, r, 0, S(tl, op->name));
			set_name(t, r, 1, tl, TDIMS(op));
			set_name(t, r, 2, tl, TSTRIDES(op));
			set_name(t, r, 3, tl, TCONC(op));
		}
		tab_set_str(t, r, c0, S(tl, k->name));
		tab_set_num(t, r, c0 + 1, sum);
		tab_set_int(t, r, c0 + 2, (long long)gr.vals[g].n);
		tab_set_num(t, r, c0 + 3, stat_mean(&gr.vals[g]));
		tab_set_num(t, r, c0 + 4, sum / total_us * 100);
	}
	{
		struct tab_key keys[] = { { c0 + 1, 1 }, { c0 + 2, 0 }, { c0 + 3, 0 },
		    { c0 + 4, 0 } };

		tab_sort(t, keys, 4);
	}
	if (o->topk_short >= 0)
		tab_truncate(t, (size_t)o->topk_short);
	tab_groups_free(&gr);
	buf_free(&key);
	return t;
}

/* --- op categories and launchers (§1.5, §3) ----------------------------------------- */

static int kev_ts_cmp_tl(const void *a, const void *b);

/* Own GPU events of op i sorted by start. */
static void
sort_events(struct tl *tl, size_t *ev, size_t n)
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

static uint32_t
op_category(struct tl *tl, size_t i)
{
	struct top *o = &tl->op[i];
	const char *n = S(tl, o->name), *k;
	size_t j, first = NONE;

	if (o->cat != NAME_NONE)
		return o->cat;
	if (strncmp(n, "triton", 6) == 0)
		return o->cat = intern(tl, "triton");
	if (strncmp(n, "record_param_comms", 18) == 0)
		return o->cat = intern(tl, "record_param_comms");
	for (j = 0; j < o->nev; j++)
		if (first == NONE || tl->k[OEV(o, j)].s < tl->k[first].s)
			first = OEV(o, j);
	o->cat = intern(tl, "other");
	if (first != NONE && strncmp(k = S(tl, tl->k[first].name), "void at::native", 15) == 0) {
		if (strstr(k, "elementwise"))
			o->cat = intern(tl, "elementwise");
		else if (strstr(k, "reduce"))
			o->cat = intern(tl, "reduce");
		else if (strstr(k, "multi_tensor_apply"))
			o->cat = intern(tl, "multi_tensor_apply");
	}
	return o->cat;
}

/* Launchers: ops with at least one linked, non-communication GPU event, in ts order,
 * each with those events (its direct kernels) sorted by ts. */
struct launchers {
	size_t	*op;		/* op index per launcher */
	size_t	*k0, *nk;	/* direct events in ev[k0 .. k0+nk) */
	size_t	*ev;
	size_t	 n;
	uint32_t *pm, *cs;	/* with by_module: parent_module, call stack (§8.1) */
};

/* Per op, its first GPU event in the trace's order (launchers_build), for hs_cmp. */
static const size_t *cmp_firstk;

/* Whether GPU event x comes before y in the trace: (rank, event index), else record
 * order. */
static int
kev_trace_cmp(const struct tl *tl, size_t x, size_t y)
{
	const struct gpuev *a = &tl->k[x], *b = &tl->k[y];

	if (a->rank != b->rank)
		return (a->rank > b->rank) - (a->rank < b->rank);
	if (a->id != b->id)
		return (a->id > b->id) - (a->id < b->id);
	return (x > y) - (x < y);
}

/* TraceLens's launcher order: sorted (stably) by ts, a double, from the order in which
 * the trace's GPU events first name each launcher; ops apart by less than a double's
 * precision (epoch clocks) tie. */
static int
hs_cmp(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	double s = ns_us(cmp_tl->op[i].hs), t = ns_us(cmp_tl->op[j].hs);

	if (s != t)
		return (s > t) - (s < t);
	if (cmp_firstk[i] != cmp_firstk[j])
		return kev_trace_cmp(cmp_tl, cmp_firstk[i], cmp_firstk[j]);
	return (i > j) - (i < j);
}

static size_t
launcher_of(const struct tl *tl, size_t i)
{
	while (!tl->op[i].runtime && strcmp(S(tl, tl->op[i].name), "execute") == 0 &&
	    UP(tl->op[i]) != NONE)
		i = UP(tl->op[i]);
	return i;
}

static void
launchers_build(struct tl *tl, struct launchers *L)
{
	size_t *cnt = xcalloc(tl->nop + 1, sizeof(*cnt)), *at, i, n = 0, tot = 0, *first;

	memset(L, 0, sizeof(*L));
	first = xreallocarray(NULL, tl->nop + 1, sizeof(*first));
	for (i = 0; i < tl->nk; i++)
		if (tl->k[i].op != NONE && tl->k[i].cls != CLS_COMM) {
			size_t o = launcher_of(tl, tl->k[i].op);

			if (cnt[o]++ == 0 || kev_trace_cmp(tl, i, first[o]) < 0)
				first[o] = i;
		}
	L->op = xreallocarray(NULL, tl->nop + 1, sizeof(size_t));
	for (i = 0; i < tl->nop; i++)
		if (cnt[i])
			L->op[n++] = i;
	cmp_tl = tl;
	cmp_firstk = first;
	qsort(L->op, n, sizeof(size_t), hs_cmp);
	cmp_firstk = NULL;
	free(first);
	L->n = n;
	L->k0 = xreallocarray(NULL, n + 1, sizeof(size_t));
	L->nk = xcalloc(n + 1, sizeof(size_t));
	at = xcalloc(tl->nop + 1, sizeof(size_t));
	for (i = 0; i < n; i++) {
		L->k0[i] = tot;
		at[L->op[i]] = i;
		tot += cnt[L->op[i]];
	}
	L->ev = xreallocarray(NULL, tot + 1, sizeof(size_t));
	for (i = 0; i < tl->nk; i++)
		if (tl->k[i].op != NONE && tl->k[i].cls != CLS_COMM) {
			size_t j = at[launcher_of(tl, tl->k[i].op)];

			L->ev[L->k0[j] + L->nk[j]++] = i;
		}
	for (i = 0; i < n; i++)
		sort_events(tl, L->ev + L->k0[i], L->nk[i]);
	free(cnt);
	free(at);
}

/* s with every "_<digits>" run removed (TraceLens's re.sub(r"_\d+", "", s)), into b. */
static void
strip_num_runs(struct buf *b, const char *f)
{
	size_t k = 0, len = strlen(f);

	while (k < len) {
		if (f[k] == '_' && k + 1 < len && isdigit((unsigned char)f[k + 1])) {
			for (k++; k < len && isdigit((unsigned char)f[k]); k++)
				;
			continue;
		}
		buf_addc(b, f[k++]);
	}
}

/* TraceLens's call stack of op i (§8.1, traverse_parents_and_get_callstack with the
 * "nn.Module" filter): its name, then the names of the ancestors that contain
 * "nn.Module", innermost first, each cut to 256 bytes + ".."; as a Python list repr into
 * cs. Its parent module: the second frame with every "_<digits>" run removed, or "NA". */
static void
call_stack(const struct tl *tl, size_t i, struct buf *cs, struct buf *pm)
{
	const char *n = S(tl, tl->op[i].name), *f;
	size_t j, nf = 1, len;

	buf_reset(cs);
	buf_reset(pm);
	buf_addc(cs, '[');
	py_str(cs, n, strlen(n));
	for (j = UP(tl->op[i]); j != NONE; j = UP(tl->op[j])) {
		f = S(tl, tl->op[j].name);
		if (!strstr(f, "nn.Module"))
			continue;
		len = strlen(f);
		buf_adds(cs, ", ");
		if (len > 256) {
			struct buf cut = BUF_INIT;

			buf_add(&cut, f, 256);
			buf_adds(&cut, "..");
			py_str(cs, cut.p, cut.len);
			buf_free(&cut);
		} else
			py_str(cs, f, len);
		if (nf++ == 1)
			strip_num_runs(pm, f);
	}
	buf_addc(cs, ']');
	if (nf == 1)
		buf_adds(pm, "NA");
}

static void
launchers_modules(struct tl *tl, struct launchers *L)
{
	struct buf cs = BUF_INIT, pm = BUF_INIT;
	size_t i;

	L->pm = xreallocarray(NULL, L->n + 1, sizeof(*L->pm));
	L->cs = xreallocarray(NULL, L->n + 1, sizeof(*L->cs));
	for (i = 0; i < L->n; i++) {
		call_stack(tl, L->op[i], &cs, &pm);
		L->cs[i] = intern_buf(tl, &cs);
		L->pm[i] = intern_buf(tl, &pm);
	}
	buf_free(&cs);
	buf_free(&pm);
}

static void
launchers_free(struct launchers *L)
{
	free(L->pm);
	free(L->cs);
	free(L->op);
	free(L->k0);
	free(L->nk);
	free(L->ev);
}

/* The walks down the op tree keep their own stack: the tree is as deep as the trace
 * nests its ops (a hostile trace: 100,000 levels), beyond what the C stack holds. */
struct walk {
	size_t	*s;
	size_t	 n, cap;
};

static void
walk_push(struct walk *w, size_t i)
{
	w->s = xgrow(w->s, &w->cap, w->n + 1, sizeof(*w->s));
	w->s[w->n++] = i;
}

/* Op i's children onto the stack, the last first: they come off in their order. */
static void
walk_push_kids(const struct tl *tl, struct walk *w, size_t i)
{
	const struct top *o = &tl->op[i];
	size_t j;

	for (j = o->nkid; j-- > 0;)
		walk_push(w, tl->kids[o->kid0 + j]);
}

/* Every GPU event of op i's subtree (its own and its descendants', in preorder),
 * appended to v. */
static void
subtree_events(const struct tl *tl, size_t i, size_t **v, size_t *n, size_t *cap)
{
	struct walk w = { NULL, 0, 0 };
	size_t j;

	walk_push(&w, i);
	while (w.n > 0) {
		const struct top *o = &tl->op[i = w.s[--w.n]];

		*v = xgrow(*v, cap, *n + o->nev, sizeof(**v));
		for (j = 0; j < o->nev; j++)
			(*v)[(*n)++] = OEV(o, j);
		walk_push_kids(tl, &w, i);
	}
	free(w.s);
}

/* --- kernel details (§7.3) ---------------------------------------------------------- */

struct klist {
	const size_t	*ev;
	size_t		 n;
};

struct kdent {
	size_t		 pos;
	double		 total;
	const char	*name;
};

static int
kdent_cmp(const void *a, const void *b)
{
	const struct kdent *x = a, *y = b;
	int c;

	if (x->total != y->total)
		return (x->total > y->total) - (x->total < y->total);
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

static void
py_key(struct buf *b, const char *k)
{
	py_str(b, k, strlen(k));
	buf_adds(b, ": ");
}

/* round(x, 2) of TraceLens's mean, a numpy float64: numpy rounds as rint(x * 100) / 100
 * (ties to even on the scaled product, so 4.325 -> 4.32), not as Python's correctly
 * rounded round(). */
static double
round2(double x)
{
	if (!isfinite(x))
		return x;
	return rint(x * 100) / 100;
}

/* kernel_details_summary and trunc_kernel_details of a group's instances. */
static void
kernel_details_order(const struct tl *tl, const struct klist *in, size_t n, struct buf *sum,
    struct buf *trunc, size_t *order, const struct klist **tplp, int stacks);

static void
kernel_details(const struct tl *tl, const struct klist *in, size_t n, struct buf *sum,
    struct buf *trunc)
{
	kernel_details_order(tl, in, n, sum, trunc, NULL, NULL, 0);
}

static void kernel_stack(const struct tl *tl, size_t k, struct buf *b);

/* The same, and the template instance's kernel positions in the summary's order; with
 * stacks, each entry has the template kernel's call_stack after its stream. */
static void
kernel_details_order(const struct tl *tl, const struct klist *in, size_t n, struct buf *sum,
    struct buf *trunc, size_t *order, const struct klist **tplp, int stacks)
{
	const struct klist *tpl = NULL;
	struct kdent *ent;
	struct vec d = VEC_INIT;
	size_t i, j;

	buf_reset(sum);
	buf_reset(trunc);
	for (i = 0; i < n && tpl == NULL; i++)
		if (in[i].n)
			tpl = &in[i];
	if (tplp)
		*tplp = tpl;
	buf_addc(sum, '[');
	buf_addc(trunc, '[');
	if (tpl == NULL) {
		buf_addc(sum, ']');
		buf_addc(trunc, ']');
		return;
	}
	ent = xreallocarray(NULL, tpl->n, sizeof(*ent));
	for (j = 0; j < tpl->n; j++) {
		d.n = 0;
		for (i = 0; i < n; i++)
			if (in[i].n == tpl->n)
				vec_add(&d, tl->k[in[i].ev[j]].dur);
		ent[j] = (struct kdent){ j, stat_npsum(&d), S(tl, tl->k[tpl->ev[j]].name) };
	}
	qsort(ent, tpl->n, sizeof(*ent), kdent_cmp);
	for (j = 0; order && j < tpl->n; j++)
		order[j] = ent[j].pos;
	for (j = 0; j < tpl->n; j++) {
		const struct gpuev *k = &tl->k[tpl->ev[ent[j].pos]];
		size_t nl = strlen(ent[j].name), cut;
		double mean;

		d.n = 0;
		for (i = 0; i < n; i++)
			if (in[i].n == tpl->n)
				vec_add(&d, tl->k[in[i].ev[ent[j].pos]].dur);
		mean = stat_npmean(&d);
		if (j) {
			buf_adds(sum, ", ");
			buf_adds(trunc, ", ");
		}
		buf_addc(sum, '{');
		py_key(sum, "name");
		py_str(sum, ent[j].name, nl);
		buf_adds(sum, ", ");
		py_key(sum, "stream");
		py_int(sum, k->stream);
		buf_adds(sum, ", ");
		if (stacks) {
			py_key(sum, "call_stack");
			kernel_stack(tl, tpl->ev[ent[j].pos], sum);
			buf_adds(sum, ", ");
		}
		py_key(sum, "count");
		py_int(sum, (long long)d.n);
		buf_adds(sum, ", ");
		py_key(sum, "total_duration_us");
		py_float(sum, ent[j].total);
		buf_adds(sum, ", ");
		py_key(sum, "mean_duration_us");
		py_float(sum, mean);
		buf_adds(sum, ", ");
		py_key(sum, "median_duration_us");
		py_float(sum, stat_median(&d));
		buf_adds(sum, ", ");
		py_key(sum, "std_dev_duration_us");
		py_float(sum, stat_npstd(&d));
		buf_adds(sum, ", ");
		py_key(sum, "min_duration_us");
		py_float(sum, stat_min(&d));
		buf_adds(sum, ", ");
		py_key(sum, "max_duration_us");
		py_float(sum, stat_max(&d));
		buf_addc(sum, '}');

		/* the first 64 code points, and '...' when longer */
		for (cut = 0, i = 0; cut < nl; cut++)
			if (((unsigned char)ent[j].name[cut] & 0xc0) != 0x80 && i++ == 64)
				break;
		buf_addc(trunc, '{');
		py_key(trunc, "name");
		if (cut < nl) {
			struct buf t = BUF_INIT;

			buf_add(&t, ent[j].name, cut);
			buf_adds(&t, "...");
			py_str(trunc, t.p, t.len);
			buf_free(&t);
		} else
			py_str(trunc, ent[j].name, nl);
		buf_adds(trunc, ", ");
		py_key(trunc, "stream");
		py_int(trunc, k->stream);
		buf_adds(trunc, ", ");
		py_key(trunc, "mean_duration_us");
		py_float(trunc, round2(mean));
		buf_addc(trunc, '}');
	}
	buf_addc(sum, ']');
	buf_addc(trunc, ']');
	free(ent);
	vec_free(&d);
}

/* --- ops_summary_by_category, ops_summary, ops_unique_args (§7.1-§7.3) -------------- */

struct lstat {
	double	direct, subtree;
};

static void
launcher_times(struct tl *tl, const struct launchers *L, struct lstat *ls)
{
	size_t i, *v = NULL, n, cap = 0;

	for (i = 0; i < L->n; i++) {
		ls[i].direct = busy(tl, L->ev + L->k0[i], L->nk[i]);
		n = 0;
		subtree_events(tl, L->op[i], &v, &n, &cap);
		ls[i].subtree = busy(tl, v, n);
	}
	free(v);
}

/* Group launchers by a key; returns the group of each launcher, *ng the count. */
static size_t *
group_launchers(struct tl *tl, const struct launchers *L, int by_args, size_t *ng)
{
	struct names groups;
	struct buf key = BUF_INIT;
	size_t *g = xreallocarray(NULL, L->n + 1, sizeof(*g)), i;

	names_init(&groups);
	for (i = 0; i < L->n; i++) {
		const struct top *o = &tl->op[L->op[i]];

		buf_reset(&key);
		if (by_args == 0)
			buf_printf(&key, "%u", op_category(tl, L->op[i]));
		else if (by_args == 1)
			buf_printf(&key, "%u", o->name);
		else
			buf_printf(&key, "%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u",
			    o->name, op_category(tl, L->op[i]), o->process, o->label, o->thread,
			    TDIMS(o), TTYPES(o), TSTRIDES(o), TCONC(o));
		if (L->pm)
			buf_printf(&key, "\x1fm%u", L->pm[i]);
		if (by_args == 2 && tl->o->by_nkernels)
			buf_printf(&key, "\x1fk%zu", L->nk[i]);
		g[i] = tab_group(&groups, key.p, key.len);
	}
	*ng = groups.n;
	names_free(&groups);
	buf_free(&key);
	return g;
}

static struct tab *
sheet_by_category(struct tl *tl, const struct launchers *L, const struct lstat *ls)
{
	struct tab *t = tab_new("ops_summary_by_category");
	size_t ng, *g = group_launchers(tl, L, 0, &ng), i, r, cn, cms, cpm = 0, ccs = 0;
	struct tab_key keys[] = { { 0, 0 }, { 0, 0 } };
	struct vec *d;

	/* the inference report with parent modules: op category, parent_module, Count,
	 * call_stack_first (of the group's first launcher), ms */
	tab_col(t, "op category");
	if (L->pm)
		cpm = tab_col(t, "parent_module");
	cn = tab_col(t, "Count");
	if (L->pm)
		ccs = tab_col(t, "call_stack_first");
	cms = tab_col(t, "total_direct_kernel_time_ms");
	keys[1].col = cpm;
	d = xreallocarray(NULL, ng ? ng : 1, sizeof(*d));
	for (i = 0; i < ng; i++) {
		tab_row(t);
		d[i] = (struct vec)VEC_INIT;
	}
	for (i = 0; i < L->n; i++) {
		r = g[i];
		if (tab_cell(t, r, 0)->kind == TAB_NONE) {
			tab_set_str(t, r, 0, S(tl, op_category(tl, L->op[i])));
			tab_set_int(t, r, cn, 0);
			if (L->pm) {
				tab_set_str(t, r, cpm, S(tl, L->pm[i]));
				tab_set_str(t, r, ccs, S(tl, L->cs[i]));
			}
		}
		tab_cell(t, r, cn)->v.i++;
		vec_add(&d[r], ls[i].direct);
	}
	/* the sum in µs, then ms; the groups in key order, sorted by pandas */
	for (r = 0; r < ng; r++) {
		tab_set_num(t, r, cms, stat_sum(&d[r]) / 1000);
		vec_free(&d[r]);
	}
	free(d);
	tab_sort(t, keys, L->pm ? 2 : 1);
	tab_sort_pandas(t, cms, 1);
	tab_percentages(t, cms);
	free(g);
	return t;
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static struct tab *
sheet_ops_summary(struct tl *tl, const struct launchers *L, const struct lstat *ls)
{
	struct tab *t = tab_new("ops_summary");
	size_t ng, *g = group_launchers(tl, L, 1, &ng), i, j, r;
	size_t cds, css, csc = 0, cdm, csm = 0, cn, ccat, cpm = 0, ccs = 0;
	struct tab_key keys[] = { { 0, 0 }, { 0, 0 } };
	struct buf b = BUF_INIT;
	struct vec *dv, *sv;
	int inf = tl->o->inference;

	/* the inference report's layout (get_df_kernel_launchers_summary_module): the
	 * subtree count, no subtree ms; with parent modules, parent_module and
	 * call_stack_first */
	tab_col(t, "name");
	if (L->pm)
		cpm = tab_col(t, "parent_module");
	cds = tab_col(t, "total_direct_kernel_time_sum");
	css = tab_col(t, "total_subtree_kernel_time_sum");
	if (inf)
		csc = tab_col(t, "total_subtree_kernel_time_count");
	cdm = tab_col(t, "total_direct_kernel_time_ms");
	if (!inf)
		csm = tab_col(t, "total_subtree_kernel_time_ms");
	cn = tab_col(t, "Count");
	ccat = tab_col(t, "Categories");
	if (L->pm)
		ccs = tab_col(t, "call_stack_first");
	keys[1].col = cpm;
	dv = xreallocarray(NULL, ng ? ng : 1, sizeof(*dv));
	sv = xreallocarray(NULL, ng ? ng : 1, sizeof(*sv));
	for (i = 0; i < ng; i++) {
		tab_row(t);
		dv[i] = sv[i] = (struct vec)VEC_INIT;
	}
	for (i = 0; i < L->n; i++) {
		r = g[i];
		if (tab_cell(t, r, 0)->kind == TAB_NONE) {
			tab_set_str(t, r, 0, S(tl, tl->op[L->op[i]].name));
			tab_set_int(t, r, cn, 0);
			if (inf)
				tab_set_int(t, r, csc, 0);
			if (L->pm) {
				tab_set_str(t, r, cpm, S(tl, L->pm[i]));
				tab_set_str(t, r, ccs, S(tl, L->cs[i]));
			}
		}
		vec_add(&dv[r], ls[i].direct);
		vec_add(&sv[r], ls[i].subtree);
		tab_cell(t, r, cn)->v.i++;
		if (inf)
			tab_cell(t, r, csc)->v.i++;
	}
	/* Categories: the sorted distinct categories of each name */
	for (r = 0; r < ng; r++) {
		const char **c = NULL;
		size_t nc = 0;

		for (i = 0; i < L->n; i++) {
			const char *s;

			if (g[i] != r)
				continue;
			s = S(tl, op_category(tl, L->op[i]));
			for (j = 0; j < nc && strcmp(c[j], s) != 0; j++)
				;
			if (j == nc) {
				c = xreallocarray(c, nc + 1, sizeof(*c));
				c[nc++] = s;
			}
		}
		if (nc > 1)
			qsort(c, nc, sizeof(*c), str_cmp);
		buf_reset(&b);
		buf_addc(&b, '[');
		for (j = 0; j < nc; j++) {
			if (j)
				buf_adds(&b, ", ");
			py_str(&b, c[j], strlen(c[j]));
		}
		buf_addc(&b, ']');
		tab_set_str(t, r, ccat, b.p);
		tab_set_num(t, r, cds, stat_sum(&dv[r]));
		tab_set_num(t, r, css, stat_sum(&sv[r]));
		tab_set_num(t, r, cdm, tab_num(t, r, cds) / 1000);
		if (!inf)
			tab_set_num(t, r, csm, tab_num(t, r, css) / 1000);
		free(c);
		vec_free(&dv[r]);
		vec_free(&sv[r]);
	}
	free(dv);
	free(sv);
	/* groupby orders the groups by key; then pandas' sort on the direct sum */
	tab_sort(t, keys, L->pm ? 2 : 1);
	tab_sort_pandas(t, cds, 1);
	tab_percentages(t, cdm);
	free(g);
	buf_free(&b);
	return t;
}

/* --- ops_summary_prefill, ops_summary_decode (§9.2) ------------------------------------ */

/* The launcher's kernel categories (torch/kcat.h): the distinct ones, sorted, joined
 * with ", " into b. */
static void
kernel_categories(struct tl *tl, const struct launchers *L, size_t i, struct buf *b)
{
	const char **c = NULL;
	size_t nc = 0, j, k;

	for (j = 0; j < L->nk[i]; j++) {
		const char *name = S(tl, tl->k[L->ev[L->k0[i] + j]].name);
		const char *cat = kcat_name(name, strlen(name));

		for (k = 0; k < nc && strcmp(c[k], cat) != 0; k++)
			;
		if (k == nc) {
			c = xreallocarray(c, nc + 1, sizeof(*c));
			c[nc++] = cat;
		}
	}
	qsort(c, nc, sizeof(*c), str_cmp);
	buf_reset(b);
	for (k = 0; k < nc; k++) {
		if (k)
			buf_adds(b, ", ");
		buf_adds(b, c[k]);
	}
	free(c);
}

/* ttp's grouped summary by phase (ttp-table --group-by phase for PyTorch records): the
 * kernel launchers per ttp-phase tag, as ops_summary_by_category groups them by
 * category; launchers without a tag are the phase "None". Empty (so left out) when no
 * op has a tag. */
static struct tab *
sheet_by_phase(struct tl *tl, const struct launchers *L, const struct lstat *ls)
{
	struct tab *t = tab_new("ops_summary_by_phase");
	struct names groups;
	struct tab_key keys[] = { { 2, 1 }, { 0, 0 } };
	size_t i, r;
	int any = 0;

	tab_col(t, "phase");
	tab_col(t, "Count");
	tab_col(t, "total_direct_kernel_time_ms");
	for (i = 0; i < L->n && !any; i++)
		any = tl->op[L->op[i]].phase != NAME_NONE;
	names_init(&groups);
	for (i = 0; i < L->n && any; i++) {
		const char *ph = S(tl, tl->op[L->op[i]].phase);

		r = tab_group(&groups, ph, strlen(ph));
		if (r == t->nrows) {
			tab_row(t);
			tab_set_str(t, r, 0, ph);
			tab_set_int(t, r, 1, 0);
			tab_set_num(t, r, 2, 0);
		}
		tab_cell(t, r, 1)->v.i++;
		tab_cell(t, r, 2)->v.d += ls[i].direct / 1000;
	}
	tab_sort(t, keys, 2);
	tab_percentages(t, 2);
	names_free(&groups);
	return t;
}

/* The launchers ttp-phase tagged phase, grouped by name, as the branch's
 * get_df_kernel_launchers_summary_by_inference_phase: percentages within the phase;
 * Kernel categories of each name from its first launcher (by trace order). Empty (so
 * left out) when no launcher has the phase. */
static struct tab *
sheet_phase(struct tl *tl, const struct launchers *L, const struct lstat *ls,
    const char *phase)
{
	struct tab *t;
	struct names groups;
	struct buf b = BUF_INIT;
	struct tab_key byname = { 1, 0 };
	uint32_t ph = names_lookup(&tl->str, phase, strlen(phase));
	long long *first = NULL;
	size_t i, r;

	buf_printf(&b, "ops_summary_%s", phase);
	t = tab_new(b.p);
	tab_col(t, "Kernel categories");
	tab_col(t, "name");
	tab_col(t, "total_direct_kernel_time_sum");
	tab_col(t, "Count");
	tab_col(t, "total_direct_kernel_time_ms");
	names_init(&groups);
	for (i = 0; i < L->n && ph != NAME_NONE; i++) {
		const struct top *o = &tl->op[L->op[i]];
		const char *name = S(tl, o->name);

		if (o->phase != ph)
			continue;
		r = tab_group(&groups, name, strlen(name));
		if (r == t->nrows) {
			tab_row(t);
			tab_set_str(t, r, 1, name);
			tab_set_num(t, r, 2, 0);
			tab_set_int(t, r, 3, 0);
			first = xreallocarray(first, r + 1, sizeof(*first));
			first[r] = -1;
		}
		tab_cell(t, r, 2)->v.d += ls[i].direct;
		tab_cell(t, r, 3)->v.i++;
		if (first[r] < 0 || o->id < first[r]) {
			first[r] = o->id;
			kernel_categories(tl, L, i, &b);
			if (b.len > 0)
				tab_set_str(t, r, 0, b.p);
		}
	}
	for (r = 0; r < t->nrows; r++)
		tab_set_num(t, r, 4, tab_num(t, r, 2) / 1000);
	/* groupby's order (by name), then sort_values on the sum, whose ties pandas
	 * leaves in numpy's quicksort order */
	tab_sort(t, &byname, 1);
	tab_sort_pandas(t, 2, 1);
	tab_percentages(t, 4);
	names_free(&groups);
	buf_free(&b);
	free(first);
	return t;
}

/* The six statistics pandas' agg gives, in the order of ops_unique_args. */
static void
set_stats(struct tab *t, size_t r, size_t c, const struct vec *v, int which)
{
	double s[6] = { stat_mean(v), stat_median(v), stat_std(v, 1), stat_min(v),
	    stat_max(v), stat_sum(v) };

	tab_set_num(t, r, c, s[which]);
}

static struct tab *
sheet_unique_args(struct tl *tl, const struct launchers *L, const struct lstat *ls)
{
	struct tab *t = tab_new("ops_unique_args");
	static const char *const st[6] = { "mean", "median", "std", "min", "max", "sum" };
	size_t ng, *g = group_launchers(tl, L, 2, &ng), i, j, r, c, cuid, ckd, cst, csum;
	size_t cpm = 0, cnk = 0, ccs = 0, kcol[9];
	struct vec *dv = xcalloc(ng + 1, sizeof(*dv)), *sv = xcalloc(ng + 1, sizeof(*sv));
	struct klist *kl = xreallocarray(NULL, L->n + 1, sizeof(*kl));
	size_t *first = xreallocarray(NULL, ng + 1, sizeof(*first));
	/* next[i]: the group's next launcher after i, NONE at its last (each group's
	 * launchers in order without a scan of all of them per group) */
	size_t *next = xreallocarray(NULL, L->n + 1, sizeof(*next));
	struct buf b = BUF_INIT, name = BUF_INIT, sum = BUF_INIT, trunc = BUF_INIT;
	struct tab_key keys[2];
	static const char *const kc[] = { "name", "op category", "process_name",
	    "process_label", "thread_name", "Input Dims", "Input type", "Input Strides",
	    "Concrete Inputs" };

	/* the inference report adds parent_module after op category, num_kernels after
	 * Concrete Inputs and call_stack after ex_UID (§7.3, §8.1) */
	for (i = 0; i < 9; i++) {
		kcol[i] = tab_col(t, kc[i]);
		if (i == 1 && L->pm)
			cpm = tab_col(t, "parent_module");
	}
	if (tl->o->by_nkernels)
		cnk = tab_col(t, "num_kernels");
	cst = tab_col(t, "operation_count") + 1;
	csum = cst + 10;	/* total_direct_kernel_time_sum */
	for (j = 0; j < 6; j++) {
		buf_reset(&name);
		buf_printf(&name, "total_direct_kernel_time_%s", st[j]);
		tab_col(t, name.p);
		buf_reset(&name);
		buf_printf(&name, "total_subtree_kernel_time_%s", st[j]);
		tab_col(t, name.p);
	}
	cuid = tab_col(t, "ex_UID");
	if (L->pm)
		ccs = tab_col(t, "call_stack");
	ckd = tab_col(t, "kernel_details_summary");
	tab_col(t, "trunc_kernel_details");
	for (i = 0; i < ng; i++)
		first[i] = NONE;
	for (i = L->n; i-- > 0;) {
		next[i] = first[g[i]];
		first[g[i]] = i;
	}
	for (i = 0; i < L->n; i++) {
		vec_add(&dv[g[i]], ls[i].direct);
		vec_add(&sv[g[i]], ls[i].subtree);
	}
	for (r = 0; r < ng; r++) {
		const struct top *o = &tl->op[L->op[first[r]]];
		size_t n = 0;

		tab_row(t);
		tab_set_str(t, r, kcol[0], S(tl, o->name));
		tab_set_str(t, r, kcol[1], S(tl, op_category(tl, L->op[first[r]])));
		tab_set_str(t, r, kcol[2], S(tl, o->process));
		tab_set_str(t, r, kcol[3], S(tl, o->label));
		tab_set_str(t, r, kcol[4], S(tl, o->thread));
		set_name(t, r, kcol[5], tl, TDIMS(o));
		set_name(t, r, kcol[6], tl, TTYPES(o));
		set_name(t, r, kcol[7], tl, TSTRIDES(o));
		set_name(t, r, kcol[8], tl, TCONC(o));
		if (L->pm) {
			tab_set_str(t, r, cpm, S(tl, L->pm[first[r]]));
			tab_set_str(t, r, ccs, S(tl, L->cs[first[r]]));
		}
		if (tl->o->by_nkernels)
			tab_set_int(t, r, cnk, (long long)L->nk[first[r]]);
		tab_set_int(t, r, cst - 1, (long long)dv[r].n);
		for (j = 0, c = cst; j < 6; j++, c += 2) {
			set_stats(t, r, c, &dv[r], (int)j);
			set_stats(t, r, c + 1, &sv[r], (int)j);
		}
		tab_set_int(t, r, cuid, o->id);
		for (i = first[r]; i != NONE; i = next[i])
			kl[n++] = (struct klist){ L->ev + L->k0[i], L->nk[i] };
		kernel_details(tl, kl, n, &sum, &trunc);
		tab_set_str(t, r, ckd, sum.p);
		tab_set_str(t, r, ckd + 1, trunc.p);
		vec_free(&dv[r]);
		vec_free(&sv[r]);
	}
	keys[0] = (struct tab_key){ csum, 1 };
	keys[1] = (struct tab_key){ cuid, 0 };
	tab_sort(t, keys, 2);
	tab_percentages(t, csum);
	free(g);
	free(dv);
	free(sv);
	free(kl);
	free(first);
	free(next);
	buf_free(&b);
	buf_free(&name);
	buf_free(&sum);
	buf_free(&trunc);
	return t;
}

/* --- the workbook ------------------------------------------------------------------- */

/* Where the sheets go as they are built: fn takes each (and frees it). */
struct sink {
	void	(*fn)(struct tab *, void *);
	void	 *ctx;
	size_t	  n;
};

static struct tab *sheet_unified(struct tl *tl);
static void sheets_roofline(struct tl *tl, struct sink *sk);

static void
push(struct sink *sk, struct tab *t)
{
	if (t->nrows == 0 && strncmp(t->name, "short_kernel", 12) != 0) {
		tab_free(t);
		return;
	}
	sk->n++;
	sk->fn(t, sk->ctx);
}

/* s contains needle, ASCII case ignored when fold. */
static int
contains(const char *s, const char *needle, int fold)
{
	size_t n = strlen(needle), i;

	for (; *s; s++) {
		for (i = 0; i < n && s[i]; i++)
			if (fold ? tolower((unsigned char)s[i]) != tolower((unsigned char)needle[i])
			    : s[i] != needle[i])
				break;
		if (i == n)
			return 1;
	}
	return 0;
}

/* At s: "py(" <digits> "):"; returns the end of the match or NULL. */
static const char *
py_line(const char *s)
{
	const char *d;

	if (strncmp(s, "py(", 3) != 0)
		return NULL;
	for (d = s + 3; isdigit((unsigned char)*d); d++)
		;
	if (d == s + 3 || strncmp(d, "):", 2) != 0)
		return NULL;
	return d + 2;
}

/* The python-function names that gate TraceLens's MLA and V4 extensions:
 * MLA decode  "mla.py" and "mla_decode_fwd" in it and aiter/mla.py\(\d+\): mla_decode_fwd,
 * MLA prefill ":\s*mla_fp8_prefill_attn(\b|$)",
 * V4 decode   paged_decode\.py\(\d+\):\s*sparse_attn_v4_paged_decode. */
enum { PY_MLA_DECODE = 1, PY_MLA_PREFILL = 2, PY_V4_DECODE = 4 };

static int
py_gates(const char *n)
{
	const char *p, *e;
	int g = 0;

	if (strstr(n, "mla.py") && strstr(n, "mla_decode_fwd"))
		for (p = n; (p = strstr(p, "aiter/mla")) != NULL; p++)
			if (p[9] && (e = py_line(p + 10)) && strncmp(e, " mla_decode_fwd", 15) == 0)
				g |= PY_MLA_DECODE;
	for (p = n; (p = strchr(p, ':')) != NULL; p++) {
		for (e = p + 1; isspace((unsigned char)*e); e++)
			;
		if (strncmp(e, "mla_fp8_prefill_attn", 20) == 0 &&
		    !isalnum((unsigned char)e[20]) && e[20] != '_')
			g |= PY_MLA_PREFILL;
	}
	for (p = n; (p = strstr(p, "paged_decode.")) != NULL; p++)
		if ((e = py_line(p + 13)) != NULL) {
			while (isspace((unsigned char)*e))
				e++;
			if (strncmp(e, "sparse_attn_v4_paged_decode", 27) == 0)
				g |= PY_V4_DECODE;
		}
	return g;
}

/* --enable_pseudo_ops (spec §3.2; TraceLens's apply_pseudo_op_extensions): sglang_profiler::
 * CPU op names without their trailing "_<digits>". TraceLens then runs an extension only
 * when its gate holds; ttp builds none of them yet, so a trace that opens a gate stops the
 * report, and any other trace (vllm::moe_forward without vllm::rocm_aiter_fused_moe or a
 * matmul_ogs kernel, say) gets exactly TraceLens's report. Gates:
 *   MoE_Fused          vllm::moe_forward and vllm::rocm_aiter_fused_moe
 *   MoE_Unfused_Triton vllm::moe_forward and a kernel name containing matmul_ogs (any case)
 *   MoE_GPTQ_AWQ       vllm::outplace_fused_experts and a kernel name containing
 *                      fused_moe_kernel_gptq_awq
 *   MoE_Flydsl         aiter::fused_moe_
 *   MLA_Decode         aiter::mla_decode_stage1_asm_fwd and the python function (py_gates)
 *   MLA_Prefill        aiter::mla_prefill_ps_asm_fwd and the python function
 *   V4_Paged_Decode    the python function alone
 *   paged-attention KV-cache dtypes: _rocm_C::paged_attention, aiter::paged_attention_v1 */
static const char *
pseudo_ops(struct tl *tl)
{
	enum { MOE_FWD = 1, AITER_MOE = 2, OUTPLACE = 4, FLYDSL = 8, MLA_D = 16, MLA_P = 32,
	    ROCM_PA = 64, AITER_PA = 128 };
	static const struct { const char *name; int bit; } gate[] = {
		{ "vllm::moe_forward", MOE_FWD }, { "vllm::rocm_aiter_fused_moe", AITER_MOE },
		{ "vllm::outplace_fused_experts", OUTPLACE }, { "aiter::fused_moe_", FLYDSL },
		{ "aiter::mla_decode_stage1_asm_fwd", MLA_D },
		{ "aiter::mla_prefill_ps_asm_fwd", MLA_P },
		{ "_rocm_C::paged_attention", ROCM_PA }, { "aiter::paged_attention_v1", AITER_PA },
		{ NULL, 0 } };
	const char *why = NULL;
	size_t i, j, len, k;
	int has = 0, py = 0, ogs = 0, awq = 0;

	for (i = 0; i < tl->nop; i++) {
		struct top *o = &tl->op[i];
		const char *n = S(tl, o->name);

		for (j = 0; gate[j].name; j++)
			if (strcmp(n, gate[j].name) == 0)
				has |= gate[j].bit;
		py |= py_gates(n);
		if (o->runtime || strncmp(n, "sglang_profiler::", 17) != 0)
			continue;
		len = strlen(n);
		for (k = len; k > 17 && isdigit((unsigned char)n[k - 1]); k--)
			;
		/* ^(sglang_profiler::.+?)_\d+$: at least one character kept before "_" */
		if (k < len && k > 18 && n[k - 1] == '_') {
			struct buf b = BUF_INIT;

			buf_add(&b, n, k - 1);
			o->name = intern_buf(tl, &b);
			buf_free(&b);
		}
	}
	if (has & (MOE_FWD | OUTPLACE))
		for (i = 0; i < tl->nk; i++) {
			const char *n = S(tl, tl->k[i].name);

			if (tl->k[i].gpu != GPU_KERNEL)
				continue;
			ogs |= contains(n, "matmul_ogs", 1);
			awq |= contains(n, "fused_moe_kernel_gptq_awq", 0);
		}
	if ((has & MOE_FWD) && (has & AITER_MOE))
		why = "vllm::moe_forward with vllm::rocm_aiter_fused_moe (MoE_Fused)";
	else if ((has & MOE_FWD) && ogs)
		why = "vllm::moe_forward with matmul_ogs kernels (MoE_Unfused_Triton)";
	else if ((has & OUTPLACE) && awq)
		why = "vllm::outplace_fused_experts with fused_moe_kernel_gptq_awq kernels "
		    "(MoE_GPTQ_AWQ)";
	else if (has & FLYDSL)
		why = "aiter::fused_moe_ (MoE_Flydsl)";
	else if ((has & MLA_D) && (py & PY_MLA_DECODE))
		why = "aiter::mla_decode_stage1_asm_fwd under aiter/mla.py mla_decode_fwd (MLA_Decode)";
	else if ((has & MLA_P) && (py & PY_MLA_PREFILL))
		why = "aiter::mla_prefill_ps_asm_fwd under mla_fp8_prefill_attn (MLA_Prefill)";
	else if (py & PY_V4_DECODE)
		why = "paged_decode.py sparse_attn_v4_paged_decode (V4_Paged_Decode)";
	else if (has & ROCM_PA)
		why = "_rocm_C::paged_attention (KV-cache dtype)";
	else if (has & AITER_PA)
		why = "aiter::paged_attention_v1 (KV-cache dtype)";
	return why;
}

/* --- coll_analysis (§7.8) ------------------------------------------------------------ */

static const char *const coll_keys[] = {
	"Process Group Name", "Process Group Ranks", "Collective name", "Group size", "dtype",
	"In msg nelems", "Out msg nelems", "In split size", "Out split size", NULL
};

/* Bytes of an element of a collective's dtype; 0 when unknown (the size stays empty). */
static int
coll_dtype_bytes(const char *d)
{
	static const struct { const char *n; int b; } tb[] = {
		{ "Float", 4 }, { "Int", 4 }, { "Long", 8 }, { "BFloat16", 2 }, { "Bool", 1 },
		{ "Byte", 1 }, { "Double", 8 }, { "Half", 2 }, { "Short", 2 }, { NULL, 0 }
	};
	size_t i;

	for (i = 0; d != NULL && tb[i].n; i++)
		if (strcmp(d, tb[i].n) == 0)
			return tb[i].b;
	return 0;
}

#define NCOLL 9	/* coll_keys' count */

/* A collective's args as sheet_coll reads them: each coll_keys member's type (JS_NULL
 * when absent) and text in txt (a string decoded, a number's text, "true"/"false", an
 * array or object as compact JSON text as the record holds it). */
struct collv {
	struct buf	 txt;
	enum js_tok	 t[NCOLL];
	size_t		 at[NCOLL];
};

/* Read the "comm" object's text (the last value where a key repeats); false when it is
 * not an object or is one that jansson did not read without flags (an integer beyond long
 * long, a NUL in a string), as the sheet read it before. */
static bool
coll_read(const char *txt, struct collv *c)
{
	struct js_reader *rd;
	enum js_tok t;
	const char *x;
	size_t j, n, len = strlen(txt);
	bool ok = true;

	buf_reset(&c->txt);
	for (j = 0; j < NCOLL; j++)
		c->t[j] = JS_NULL;
	if (py_json_bigint(txt, len))
		return false;
	rd = js_open_mem(txt, len);
	if (js_next(rd) != JS_OBJECT) {
		js_close(rd);
		return false;
	}
	while (ok && (t = js_next(rd)) == JS_KEY) {
		x = js_str(rd, &n);
		ok = strlen(x) == n;
		for (j = 0; j < NCOLL && strcmp(x, coll_keys[j]) != 0; j++)
			;
		t = js_next(rd);
		if (j == NCOLL) {
			ok = ok && js_skip(rd) != JS_ERROR;
			continue;
		}
		c->t[j] = t;
		c->at[j] = c->txt.len;
		if (t == JS_STRING) {
			x = js_str(rd, &n);
			ok = ok && strlen(x) == n;
			buf_add(&c->txt, x, n);
		} else if (t == JS_NUMBER) {
			x = js_text(rd, &n);
			buf_add(&c->txt, x, n);
		} else if (t == JS_TRUE || t == JS_FALSE)
			buf_adds(&c->txt, t == JS_TRUE ? "true" : "false");
		else if (t == JS_OBJECT || t == JS_ARRAY)
			ok = ok && js_capture(rd, &c->txt) != JS_ERROR;
		buf_addc(&c->txt, '\0');
	}
	js_close(rd);
	return ok;
}

static const char *
coll_text(const struct collv *c, size_t j)
{
	return c->t[j] == JS_NULL ? NULL : c->txt.p + c->at[j];
}

/* Member j as a cell: integers and reals as numbers, strings as text, true, false, arrays
 * and objects as their JSON text (compact; no collective arg of a real trace is one). */
static void
coll_cell(struct tab *t, size_t r, size_t col, const struct collv *c, size_t j)
{
	const char *x = coll_text(c, j);
	long long v;

	if (x == NULL)
		return;
	if (c->t[j] == JS_NUMBER && js_number_int(x, strlen(x), &v))
		tab_set_int(t, r, col, v);
	else if (c->t[j] == JS_NUMBER)
		tab_set_num(t, r, col, strtod(x, NULL));
	else
		tab_set_str(t, r, col, x);
}

/* A communication kernel's collective args: each group key but the process group's
 * name is there (TraceLens's groupby drops a row with any key missing) and a stream. */
static int
coll_complete(const struct tl *tl, const struct gpuev *k, struct collv *c)
{
	size_t j;
	int ok = coll_read(S(tl, k->comm), c) && k->stream >= 0;

	for (j = 1; ok && j < NCOLL; j++)
		ok = c->t[j] != JS_NULL;
	return ok;
}

/* The process group's name where the args have none: "Unknown_Group", or "all" when no
 * collective kernel names one and each rank runs them on one stream (TraceLens's
 * simplified inference mode). */
static const char *
coll_unnamed_group(const struct tl *tl)
{
	long long *rank = NULL, *stream = NULL;
	size_t n = 0, i, j;
	const char *name = "all", *v;
	struct collv c = { BUF_INIT, { 0 }, { 0 } };

	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];

		if (k->gpu != GPU_KERNEL || k->cls != CLS_COMM)
			continue;
		if (k->comm != NAME_NONE && coll_read(S(tl, k->comm), &c) &&
		    (v = coll_text(&c, 0)) != NULL &&
		    !(c.t[0] == JS_STRING && strcmp(v, "Unknown_Group") == 0))
			name = "Unknown_Group";
		for (j = 0; j < n && rank[j] != k->rank; j++)
			;
		if (j == n) {
			rank = xreallocarray(rank, n + 1, sizeof(*rank));
			stream = xreallocarray(stream, n + 1, sizeof(*stream));
			rank[n] = k->rank;
			stream[n++] = k->stream;
		} else if (stream[j] != k->stream)
			name = "Unknown_Group";
	}
	free(rank);
	free(stream);
	buf_free(&c.txt);
	return name;
}

/* One row per (rank, process group, collective, sizes, dtype, stream) over the
 * communication kernels that carry their collective's args, in pandas' order: the
 * groups by key, then sorted on dur_sum descending. */
static struct tab *
sheet_coll(struct tl *tl)
{
	struct tab *t = tab_new("coll_analysis");
	struct tab_groups gr;
	size_t i, g, j;
	struct buf key = BUF_INIT;
	struct tab_key sk[11];
	const char *unnamed = NULL, *v;
	struct collv c = { BUF_INIT, { 0 }, { 0 } };

	tab_groups_init(&gr);
	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];

		if (k->gpu != GPU_KERNEL || k->cls != CLS_COMM || k->comm == NAME_NONE ||
		    !coll_complete(tl, k, &c))
			continue;
		buf_reset(&key);
		buf_printf(&key, "%lld\x1f%u\x1f%lld", k->rank, k->comm, k->stream);
		tab_groups_add(&gr, key.p, key.len, i, k->dur);
	}
	tab_col(t, "rank");
	for (j = 0; coll_keys[j]; j++)
		tab_col(t, coll_keys[j]);
	tab_col(t, "stream");
	tab_col(t, "In msg size (MB)_first");
	tab_col(t, "Out msg size (MB)_first");
	tab_col(t, "dur_sum");
	tab_col(t, "dur_mean");
	tab_col(t, "dur_std");
	tab_col(t, "dur_min");
	tab_col(t, "dur_max");
	tab_col(t, "operation_count");
	for (g = 0; g < gr.n; g++) {
		const struct gpuev *k = &tl->k[gr.first[g]];
		size_t r = tab_row(t), c0 = 1 + j;
		int b;

		tab_set_int(t, r, 0, k->rank);
		coll_read(S(tl, k->comm), &c);	/* complete, so read */
		for (j = 0; coll_keys[j]; j++)
			coll_cell(t, r, 1 + j, &c, j);
		if (tab_cell(t, r, 1)->kind == TAB_NONE) {
			if (unnamed == NULL)
				unnamed = coll_unnamed_group(tl);
			tab_set_str(t, r, 1, unnamed);
		}
		c0 = 1 + j;
		if (k->stream >= 0)
			tab_set_int(t, r, c0, k->stream);
		b = coll_dtype_bytes(c.t[4] == JS_STRING ? coll_text(&c, 4) : NULL);
		for (j = 0; j < 2; j++)		/* In and Out msg nelems */
			if (b > 0 && c.t[5 + j] == JS_NUMBER &&
			    (v = coll_text(&c, 5 + j)) != NULL)
				tab_set_num(t, r, c0 + 1 + j,
				    strtod(v, NULL) * b / (1024.0 * 1024.0));
		tab_set_num(t, r, c0 + 3, stat_sum(&gr.vals[g]));
		tab_set_num(t, r, c0 + 4, stat_mean(&gr.vals[g]));
		tab_set_num(t, r, c0 + 5, stat_std(&gr.vals[g], 1));
		tab_set_num(t, r, c0 + 6, stat_min(&gr.vals[g]));
		tab_set_num(t, r, c0 + 7, stat_max(&gr.vals[g]));
		tab_set_int(t, r, c0 + 8, (long long)gr.vals[g].n);
	}
	for (j = 0; j < 11; j++)
		sk[j] = (struct tab_key){ j, 0 };
	tab_sort(t, sk, 11);
	tab_sort_pandas(t, tab_find(t, "dur_sum"), 1);
	buf_free(&key);
	buf_free(&c.txt);
	tab_groups_free(&gr);
	return t;
}

size_t
tl_sheets_each(struct tl *tl, const struct tl_opts *o, void (*fn)(struct tab *, void *),
    void *ctx, struct error *err)
{
	struct timeline tm;
	struct launchers L;
	struct lstat *ls;
	const char *why;
	struct sink sink = { fn, ctx, 0 }, *sk = &sink;

	tl->o = o;
	if (error_is_set(&tl->refused)) {
		error_set(err, tl->refused.file, tl->refused.line, tl->refused.off, "%s",
		    tl->refused.msg);
		return 0;
	}
	tl_link(tl);
	if (o->pseudo_ops && (why = pseudo_ops(tl)) != NULL) {
		error_set(err, NULL, 0, -1, "--enable_pseudo_ops: the trace has %s, whose "
		    "pseudo ops ttp does not build yet", why);
		return 0;
	}
	timeline(tl, o, &tm);
	push(sk, sheet_timeline(&tm, o));
	if (!gpu_only(tl)) {
		launchers_build(tl, &L);
		if (o->by_module)
			launchers_modules(tl, &L);
		ls = xreallocarray(NULL, L.n + 1, sizeof(*ls));
		launcher_times(tl, &L, ls);
		push(sk, sheet_by_category(tl, &L, ls));
		push(sk, sheet_by_phase(tl, &L, ls));
		push(sk, sheet_ops_summary(tl, &L, ls));
		push(sk, sheet_unique_args(tl, &L, ls));
		push(sk, sheet_unified(tl));
		/* where the inference-phase branch puts them */
		push(sk, sheet_phase(tl, &L, ls, "prefill"));
		push(sk, sheet_phase(tl, &L, ls, "decode"));
		sheets_roofline(tl, sk);
		free(ls);
		launchers_free(&L);
	}
	if (o->kernel_summary) {
		push(sk, sheet_kernel_summary(tl, tm.total, NULL));
		push(sk, sheet_kernel_summary(tl, tm.total, "prefill"));
		push(sk, sheet_kernel_summary(tl, tm.total, "decode"));
	}
	if (o->short_kernels) {
		push(sk, sheet_short_histogram(tl, o));
		push(sk, sheet_short_summary(tl, o, tm.total));
	}
	if (o->coll && !o->inference && !gpu_only(tl))
		push(sk, sheet_coll(tl));
	return sink.n;
}

struct collect {
	struct tab	**v;
	size_t		  n;
};

static void
collect(struct tab *t, void *ctx)
{
	struct collect *c = ctx;

	c->v = xreallocarray(c->v, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = t;
}

size_t
tl_sheets(struct tl *tl, const struct tl_opts *o, struct tab ***out, struct error *err)
{
	struct collect c = { NULL, 0 };

	tl_sheets_each(tl, o, collect, &c, err);
	*out = c.v;
	return c.n;
}

void
tl_sheets_free(struct tab **s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		tab_free(s[i]);
	free(s);
}


/* --- per-op perf rows (§5) ---------------------------------------------------------- */

/* One row of unified_perf_summary or of a roofline sheet before grouping. */
struct prow {
	size_t		 op;		/* the op the row describes (or the synthetic's parent) */
	size_t		 as;		/* the op whose name, UID, thread and arguments it
					 * shows: op, or the forward op of backward figures */
	long long	 uid;
	uint32_t	 name, cat;
	int		 model, hasmodel, synth;
	double		 dur_us, ktime, flops, bytes, roof_us;
	size_t		*ev;		/* its GPU events, sorted by ts */
	size_t		 nev;
};

static void
prow_metrics(const struct prow *p, double *tflops, double *tbps)
{
	double t = p->ktime;

	*tflops = t > 0 ? (p->flops / 1e9 / 1e3) / (t / 1e6) : NAN;
	*tbps = t > 0 ? (p->bytes / 1e12) / (t / 1e6) : NAN;
}

static void
prow_events(struct tl *tl, struct prow *p, size_t i)
{
	size_t cap = 0;

	p->ev = NULL;
	p->nev = 0;
	subtree_events(tl, i, &p->ev, &p->nev, &cap);
	sort_events(tl, p->ev, p->nev);
	p->ktime = busy(tl, p->ev, p->nev);
}

static void
prow_free(struct prow *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(p[i].ev);
	free(p);
}

/* The statistic columns shared by unified_perf_summary and the roofline sheets. */
enum { ST_MEAN, ST_MEDIAN, ST_STD, ST_MIN, ST_MAX, ST_SUM };

static double
stat_of(const struct vec *v, int which)
{
	switch (which) {
	case ST_MEAN: return stat_mean(v);
	case ST_MEDIAN: return stat_median(v);
	case ST_STD: return stat_std(v, 1);
	case ST_MIN: return stat_min(v);
	case ST_MAX: return stat_max(v);
	default: return stat_sum(v);
	}
}

static double
first_num(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			return v[i];
	return NAN;
}

/* Roofline columns (§6), when ttp-roofline gave ops a roofline time: the bound and time
 * of the group's first row that has them, Pct Roofline = roofline time / kernel time
 * per row, aggregated. */
static const char *const roof_stats[] = { "mean", "median", "std", "min", "max" };

/* The bound and time columns (time first when time_first), then Pct Roofline_*; returns
 * the first one's index. */
static size_t
roof_cols(struct tab *t, const char *bound, const char *time, int time_first)
{
	struct buf b = BUF_INIT;
	size_t c = tab_col(t, time_first ? time : bound), j;

	tab_col(t, time_first ? bound : time);
	for (j = 0; j < 5; j++) {
		buf_reset(&b);
		buf_printf(&b, "Pct Roofline_%s", roof_stats[j]);
		tab_col(t, b.p);
	}
	buf_free(&b);
	return c;
}

static void
roof_row(const struct tl *tl, struct tab *t, size_t r, size_t c, int time_first,
    const struct prow *p, const size_t *m, size_t nm)
{
	struct vec pct = VEC_INIT;
	size_t i, first = NONE;

	for (i = 0; i < nm; i++) {
		const struct prow *q = &p[m[i]];

		if (isnan(q->roof_us)) {
			vec_add(&pct, NAN);
			continue;
		}
		if (first == NONE)
			first = m[i];
		vec_add(&pct, q->ktime > 0 ? q->roof_us / q->ktime * 100 : NAN);
	}
	if (first != NONE) {
		set_name(t, r, c + (time_first != 0), tl, tl->op[p[first].op].bound);
		tab_set_num(t, r, c + (time_first == 0), p[first].roof_us);
	}
	for (i = 0; i < 5; i++)
		tab_set_num(t, r, c + 2 + i, stat_of(&pct, (int)i));
	vec_free(&pct);
}

/* --- unified_perf_summary (§7.4) ---------------------------------------------------- */

struct ucoll {
	struct prow	*r;
	size_t		 n, cap;
	char		*covered;	/* per GPU event */
	int		*submodel;	/* per op: a descendant has a model */
	size_t		*subn;		/* per op: GPU events in the subtree */
};

static struct prow *
ucoll_add(struct ucoll *u)
{
	u->r = xgrow(u->r, &u->cap, u->n + 1, sizeof(*u->r));
	memset(&u->r[u->n], 0, sizeof(u->r[0]));
	return &u->r[u->n++];
}

/* Per op of root i's subtree: its GPU events and whether a descendant has a model.
 * Ops in preorder, then taken in reverse: each after all its descendants. */
static void
subtree_facts(const struct tl *tl, struct ucoll *u, size_t i)
{
	struct walk w = { NULL, 0, 0 }, pre = { NULL, 0, 0 };
	size_t j, k;

	walk_push(&w, i);
	while (w.n > 0) {
		i = w.s[--w.n];
		walk_push(&pre, i);
		walk_push_kids(tl, &w, i);
	}
	while (pre.n > 0) {
		const struct top *o = &tl->op[i = pre.s[--pre.n]];

		u->subn[i] = o->nev;
		u->submodel[i] = 0;
		for (j = 0; j < o->nkid; j++) {
			k = tl->kids[o->kid0 + j];
			u->subn[i] += u->subn[k];
			u->submodel[i] |= u->submodel[k] || tl->op[k].hasmodel;
		}
	}
	free(w.s);
	free(pre.s);
}

static int
has_own_compute(const struct tl *tl, size_t i)
{
	size_t j;

	for (j = 0; j < tl->op[i].nev; j++)
		if (tl->k[OEV(&tl->op[i], j)].cls != CLS_COMM)
			return 1;
	return 0;
}

static void urow(struct tl *tl, struct ucoll *u, size_t i);

/* The rows of root i's subtree, in preorder: the first op down each path that is a
 * row (or none where no GPU event runs below). */
static void
ucollect(struct tl *tl, struct ucoll *u, size_t i)
{
	struct walk w = { NULL, 0, 0 };

	walk_push(&w, i);
	while (w.n > 0) {
		const struct top *o = &tl->op[i = w.s[--w.n]];

		if (u->subn[i] == 0)
			continue;
		/* python frames and launches under them pass through: only CPU ops are
		 * rows */
		if (o->runtime || (!o->hasmodel && (u->submodel[i] ||
		    !has_own_compute(tl, i))))
			walk_push_kids(tl, &w, i);
		else
			urow(tl, u, i);
	}
	free(w.s);
}

/* A row for op i. */
static void
urow(struct tl *tl, struct ucoll *u, size_t i)
{
	const struct top *o = &tl->op[i];
	struct prow *p;
	size_t j;

	p = ucoll_add(u);
	p->op = i;
	p->uid = o->id;
	p->name = o->name;
	p->cat = op_category(tl, i);
	p->model = o->model && o->bwd_of < 0;
	p->hasmodel = o->hasmodel;
	p->dur_us = (double)(o->he - o->hs) / 1000.0;
	p->flops = p->model ? o->flops : NAN;
	p->bytes = p->model ? o->bytes : NAN;
	p->roof_us = p->model ? o->roof_us : NAN;
	prow_events(tl, p, i);
	for (j = 0; j < p->nev; j++)
		u->covered[p->ev[j]] = 1;
}

/* A synthetic row for GPU event k that no collected op covers. */
static void
usynth(struct tl *tl, struct ucoll *u, size_t k, long long uid)
{
	const struct gpuev *e = &tl->k[k];
	const struct top *o = &tl->op[e->op];
	struct prow *p = ucoll_add(u);
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s->%s (Synthetic Op)", S(tl, o->name), S(tl, e->name));
	p->op = e->op;
	p->uid = uid;
	p->name = intern_buf(tl, &b);
	p->cat = o->runtime && o->cat == NAME_NONE ? intern(tl, "other") : op_category(tl, e->op);
	p->synth = 1;
	p->dur_us = (double)(o->he - o->hs) / 1000.0;
	p->flops = p->bytes = p->roof_us = NAN;
	p->ev = xmalloc(sizeof(*p->ev));
	p->ev[0] = k;
	p->nev = 1;
	p->ktime = busy(tl, p->ev, 1);
	buf_free(&b);
}

static const char *const unified_cols[] = {
	"name", "op category", "process_name", "process_label", "thread_name", "Input Dims",
	"Input type", "Input Strides", "Concrete Inputs", "ex_UID", "operation_count",
	"total_duration_us", "mean_duration_us", "std_duration_us", "GFLOPS",
	"Data Moved (MB)", "FLOPS/Byte", "Compute Spec", "TB/s_mean", "TB/s_std",
	"TFLOPS/s_mean", "TFLOPS/s_std", "Kernel Time (\u00b5s)_mean",
	"Kernel Time (\u00b5s)_std", "Kernel Time (\u00b5s)_sum", "duration_us_median",
	"duration_us_min", "duration_us_max", "TB/s_median", "TB/s_min", "TB/s_max",
	"TFLOPS/s_median", "TFLOPS/s_min", "TFLOPS/s_max", "Kernel Time (\u00b5s)_median",
	"Kernel Time (\u00b5s)_min", "Kernel Time (\u00b5s)_max", "kernel_details_summary",
	"trunc_kernel_details", "perf_params", "has_perf_model", NULL
};

static void
unified_row(struct tl *tl, struct tab *t, size_t r, const struct prow *p, const size_t *m,
    size_t nm)
{
	const struct top *o = &tl->op[p[m[0]].op];
	struct vec dur = VEC_INIT, kt = VEC_INIT, tb = VEC_INIT, tf = VEC_INIT;
	struct klist *kl = xreallocarray(NULL, nm, sizeof(*kl));
	double *gf = xreallocarray(NULL, nm, sizeof(double));
	double *mb = xreallocarray(NULL, nm, sizeof(double));
	double *fb = xreallocarray(NULL, nm, sizeof(double));
	struct buf sum = BUF_INIT, trunc = BUF_INIT;
	long long uid = p[m[0]].uid;
	size_t i, spec = NONE, model = NONE;
	int synth = p[m[0]].synth;

	for (i = 0; i < nm; i++) {
		const struct prow *q = &p[m[i]];
		double tflops, tbps;

		prow_metrics(q, &tflops, &tbps);
		vec_add(&dur, q->dur_us);
		vec_add(&kt, q->ktime);
		vec_add(&tb, tbps);
		vec_add(&tf, tflops);
		gf[i] = q->flops / 1e9;
		mb[i] = q->bytes / 1048576;
		fb[i] = q->bytes != 0 ? q->flops / q->bytes : NAN;
		kl[i] = (struct klist){ q->ev, q->nev };
		if (spec == NONE && q->model && tl->op[q->op].spec != NAME_NONE)
			spec = q->op;
		if (model == NONE && q->model)
			model = q->op;
	}
	tab_set_str(t, r, 0, S(tl, p[m[0]].name));
	tab_set_str(t, r, 1, S(tl, p[m[0]].cat));
	tab_set_str(t, r, 2, S(tl, o->process));
	tab_set_str(t, r, 3, S(tl, o->label));
	tab_set_str(t, r, 4, S(tl, o->thread));
	if (!(synth && o->runtime)) {
		set_name(t, r, 5, tl, TDIMS(o));
		set_name(t, r, 6, tl, TTYPES(o));
		set_name(t, r, 7, tl, TSTRIDES(o));
		set_name(t, r, 8, tl, TCONC(o));
	}
	tab_set_int(t, r, 9, uid);
	tab_set_int(t, r, 10, (long long)nm);
	tab_set_num(t, r, 11, stat_sum(&dur));
	tab_set_num(t, r, 12, stat_mean(&dur));
	tab_set_num(t, r, 13, stat_std(&dur, 1));
	tab_set_num(t, r, 14, first_num(gf, nm));
	tab_set_num(t, r, 15, first_num(mb, nm));
	tab_set_num(t, r, 16, first_num(fb, nm));
	if (spec != NONE)
		tab_set_str(t, r, 17, S(tl, tl->op[spec].spec));
	tab_set_num(t, r, 18, stat_mean(&tb));
	tab_set_num(t, r, 19, stat_std(&tb, 1));
	tab_set_num(t, r, 20, stat_mean(&tf));
	tab_set_num(t, r, 21, stat_std(&tf, 1));
	tab_set_num(t, r, 22, stat_mean(&kt));
	tab_set_num(t, r, 23, stat_std(&kt, 1));
	tab_set_num(t, r, 24, stat_sum(&kt));
	tab_set_num(t, r, 25, stat_median(&dur));
	tab_set_num(t, r, 26, stat_min(&dur));
	tab_set_num(t, r, 27, stat_max(&dur));
	tab_set_num(t, r, 28, stat_median(&tb));
	tab_set_num(t, r, 29, stat_min(&tb));
	tab_set_num(t, r, 30, stat_max(&tb));
	tab_set_num(t, r, 31, stat_median(&tf));
	tab_set_num(t, r, 32, stat_min(&tf));
	tab_set_num(t, r, 33, stat_max(&tf));
	tab_set_num(t, r, 34, stat_median(&kt));
	tab_set_num(t, r, 35, stat_min(&kt));
	tab_set_num(t, r, 36, stat_max(&kt));
	/* TraceLens's python frames (add_python_func) put each kernel's call stack in
	 * the summary; --include_call_stack moves them to call_stack_full */
	kernel_details_order(tl, kl, nm, &sum, &trunc, NULL, NULL, !synth &&
	    (tl->o->by_module || tl->capture) && !tl->o->call_stack);
	tab_set_str(t, r, 37, sum.p);
	tab_set_str(t, r, 38, trunc.p);
	if (model != NONE && tl->op[model].params != NAME_NONE)
		tab_set_str(t, r, 39, S(tl, tl->op[model].params));
	/* has_perf_model: a model whose figures failed (an InferenceAttention op without its
	 * step annotation, a model_error) leaves the row with no perf_params */
	tab_set_bool(t, r, 40, model != NONE || p[m[0]].hasmodel);
	vec_free(&dur);
	vec_free(&kt);
	vec_free(&tb);
	vec_free(&tf);
	free(kl);
	free(gf);
	free(mb);
	free(fb);
	buf_free(&sum);
	buf_free(&trunc);
}

/* Rows grouped by the repr of their name, category, process, thread and arguments, in
 * order of first appearance: the members of each group. */
static size_t
group_rows(struct tl *tl, const struct prow *p, size_t n, int roof, size_t **start,
    size_t **members)
{
	struct names groups;
	struct buf key = BUF_INIT;
	size_t *g = xreallocarray(NULL, n + 1, sizeof(*g)), *cnt, ng, i, j;

	names_init(&groups);
	for (i = 0; i < n; i++) {
		const struct top *o = &tl->op[p[i].op];

		buf_reset(&key);
		if (roof) {
			buf_printf(&key, "%u", tl->op[p[i].as].name);
			for (j = 0; j < o->np; j++)
				buf_printf(&key, "\x1f%u=%u", PK(o, j), PV(o, j));
			if (tl->o->by_nkernels)
				buf_printf(&key, "\x1fk%zu", p[i].nev);
		} else if (p[i].synth && o->runtime)
			buf_printf(&key, "%u\x1f%u", p[i].name, p[i].cat);
		else
			buf_printf(&key, "%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u\x1f%u",
			    p[i].name, p[i].cat, o->process, o->label, o->thread, TDIMS(o),
			    TTYPES(o), TSTRIDES(o), TCONC(o));
		g[i] = tab_group(&groups, key.p, key.len);
	}
	ng = groups.n;
	cnt = xcalloc(ng + 1, sizeof(*cnt));
	*start = xcalloc(ng + 1, sizeof(**start));
	*members = xreallocarray(NULL, n + 1, sizeof(**members));
	for (i = 0; i < n; i++)
		cnt[g[i]]++;
	for (i = 0; i < ng; i++)
		(*start)[i + 1] = (*start)[i] + cnt[i];
	memset(cnt, 0, (ng + 1) * sizeof(*cnt));
	for (i = 0; i < n; i++)
		(*members)[(*start)[g[i]] + cnt[g[i]]++] = i;
	free(cnt);
	free(g);
	names_free(&groups);
	buf_free(&key);
	return ng;
}

/* --- call_stack_full and entry_point (§8.1, --include_call_stack) ------------------ */

/* The frames collect_unified_perf_events keeps: CPU ops, and python frames and launches
 * whose name has "nn.Module", "::" or "/". */
static int
cs_keep(const struct tl *tl, size_t i)
{
	const char *n = S(tl, tl->op[i].name);

	return !tl->op[i].runtime || strstr(n, "nn.Module") || strstr(n, "::") ||
	    strchr(n, '/');
}

struct frames {
	char	**f;
	size_t	  n, cap;
};

static void
frames_add(struct frames *v, const char *s, int strip)
{
	struct buf b = BUF_INIT;

	if (strip)
		strip_num_runs(&b, s);
	else
		buf_adds(&b, s);
	v->f = xgrow(v->f, &v->cap, v->n + 1, sizeof(*v->f));
	v->f[v->n++] = xstrdup(b.p ? b.p : "");
	buf_free(&b);
}

static void
frames_free(struct frames *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->f[i]);
	free(v->f);
	v->f = NULL;
	v->n = v->cap = 0;
}

/* Kernel k's chain in its row: the kept frames from the root down to the row's op, then
 * those between it and the kernel's launch (one walk up from the record right above the
 * launch: python frames under the launching op, or the launching op), then the kernel's
 * name. */
static void
kernel_chain(const struct tl *tl, size_t k, struct frames *v)
{
	size_t *path = NULL, np = 0, cap = 0, j;

	for (j = tl->k[k].vop != NONE ? tl->k[k].vop : tl->k[k].op; j != NONE;
	    j = UP(tl->op[j])) {
		path = xgrow(path, &cap, np + 1, sizeof(*path));
		path[np++] = j;
	}
	while (np > 0) {
		j = path[--np];
		if (cs_keep(tl, j))
			frames_add(v, S(tl, tl->op[j].name), 1);
	}
	free(path);
	frames_add(v, S(tl, tl->k[k].name), 0);
}

static void
py_list_of(struct buf *b, char *const *f, size_t n)
{
	size_t i;

	buf_addc(b, '[');
	for (i = 0; i < n; i++) {
		if (i)
			buf_adds(b, ", ");
		py_str(b, f[i], strlen(f[i]));
	}
	buf_addc(b, ']');
}

/* Kernel k's call stack (its chain without its own name) as a Python list. */
static void
kernel_stack(const struct tl *tl, size_t k, struct buf *b)
{
	struct frames v = { NULL, 0, 0 };

	kernel_chain(tl, k, &v);
	py_list_of(b, v.f, v.n > 0 ? v.n - 1 : 0);
	frames_free(&v);
}

static const char *const wrap_files[] = { "torch/_ops.py", "torch/nn/modules/module.py",
	"torch/utils/_contextlib.py", "torch/utils/_device.py", "torch/_tensor.py",
	"torch/functional.py", "torch/overrides.py", "torch/_inductor/", "torch/_functorch/",
	"torch/distributed/c10d_logger.py", "triton/backends/", NULL };
static const char *const wrap_funcs[] = { "__torch_function__", "_call_impl",
	"_wrapped_call_impl", "decorate_context", "dispatch_wrapper", "handle_torch_function",
	"wrapper", "custom_wrapper", "wrapper_custom", "outer_wrapper", NULL };

/* The part after the last "): ", or the whole frame. */
static const char *
frame_func(const char *f)
{
	const char *p = f, *q;

	while ((q = strstr(p, "): ")) != NULL)
		p = q + 3;
	return p;
}

static int
is_wrapper_frame(const char *f)
{
	size_t i;

	if (strncmp(f, "<built-in", 9) == 0 || strncmp(f, "pybind11_builtins", 17) == 0 ||
	    strncmp(f, "nn.Module:", 10) == 0)
		return 1;
	for (i = 0; wrap_files[i]; i++)
		if (strstr(f, wrap_files[i]))
			return 1;
	if (strstr(f, "): "))
		for (i = 0; wrap_funcs[i]; i++)
			if (strcmp(frame_func(f), wrap_funcs[i]) == 0)
				return 1;
	return 0;
}

/* _find_entry_point over the flattened frames: the op by name (or without a trailing
 * _<digits>), searched from the end; inward, the first .py frame whose function holds
 * the op's local name; else outward, the first .py frame that is no wrapper. */
static const char *
entry_point(const struct frames *v, const char *op)
{
	const char *loc = op, *q;
	struct buf stripped = BUF_INIT;
	char *lower;
	size_t i, k, idx = NONE, len;
	const char *found = NULL;

	for (i = v->n; i-- > 0;)
		if (strcmp(v->f[i], op) == 0) {
			idx = i;
			break;
		}
	len = strlen(op);
	for (k = len; k > 0 && isdigit((unsigned char)op[k - 1]); k--)
		;
	if (idx == NONE && k < len && k > 0 && op[k - 1] == '_') {
		buf_add(&stripped, op, k - 1);
		for (i = v->n; i-- > 0;)
			if (strcmp(v->f[i], stripped.p) == 0) {
				idx = i;
				break;
			}
	}
	buf_free(&stripped);
	if (idx == NONE)
		return "Not found";
	while ((q = strstr(loc, "::")) != NULL)
		loc = q + 2;
	lower = xstrdup(loc);
	for (i = 0; lower[i]; i++)
		lower[i] = (char)tolower((unsigned char)lower[i]);
	for (i = idx + 1; i < v->n && !found; i++) {
		char *fn;

		if (!strstr(v->f[i], ".py"))
			continue;
		fn = xstrdup(frame_func(v->f[i]));
		for (k = 0; fn[k]; k++)
			fn[k] = (char)tolower((unsigned char)fn[k]);
		if (strstr(fn, lower))
			found = v->f[i];
		free(fn);
	}
	free(lower);
	for (i = idx; !found && i-- > 0;)
		if (strstr(v->f[i], ".py") && !is_wrapper_frame(v->f[i]))
			found = v->f[i];
	return found ? found : "Not found";
}

/* call_stack_full and entry_point of a unified row group (members m of p). */
static void
unified_stack(struct tl *tl, struct tab *t, size_t r, size_t col, const struct prow *p,
    const size_t *m, size_t nm)
{
	struct klist *kl = xreallocarray(NULL, nm + 1, sizeof(*kl));
	const struct klist *tpl = NULL;
	const struct prow *q = NULL;
	struct buf sum = BUF_INIT, trunc = BUF_INIT, out = BUF_INIT;
	struct frames *ch, flat = { NULL, 0, 0 };
	size_t *order, i, j, n, pre, minl;

	for (i = 0; i < nm; i++)
		kl[i] = (struct klist){ p[m[i]].ev, p[m[i]].nev };
	order = xreallocarray(NULL, nm ? p[m[0]].nev + 1 : 1, sizeof(*order));
	for (i = 0; i < nm && !q; i++)
		if (p[m[i]].nev)
			q = &p[m[i]];
	if (q == NULL) {
		tab_set_str(t, r, col, "Not found");
		tab_set_str(t, r, col + 1, "Not found");
		goto out;
	}
	order = xreallocarray(order, q->nev + 1, sizeof(*order));
	kernel_details_order(tl, kl, nm, &sum, &trunc, order, &tpl, 0);
	n = q->nev;
	ch = xcalloc(n + 1, sizeof(*ch));
	for (j = 0; j < n; j++) {
		size_t k = q->ev[order[j]];

		if (q->synth)
			frames_add(&ch[j], S(tl, tl->k[k].name), 0);
		else
			kernel_chain(tl, k, &ch[j]);
	}
	if (n == 1) {
		py_list_of(&out, ch[0].f, ch[0].n);
		for (i = 0; i < ch[0].n; i++)
			frames_add(&flat, ch[0].f[i], 0);
	} else {
		minl = ch[0].n;
		for (j = 1; j < n; j++)
			if (ch[j].n < minl)
				minl = ch[j].n;
		for (pre = 0; pre < minl; pre++) {
			for (j = 1; j < n && strcmp(ch[j].f[pre], ch[0].f[pre]) == 0; j++)
				;
			if (j < n)
				break;
		}
		buf_addc(&out, '[');
		for (i = 0; i < pre; i++) {
			if (i)
				buf_adds(&out, ", ");
			py_str(&out, ch[0].f[i], strlen(ch[0].f[i]));
			frames_add(&flat, ch[0].f[i], 0);
		}
		for (j = 0; j < n; j++) {
			size_t d, x;

			for (d = 0; d < j; d++) {	/* unique tails, first seen order */
				if (ch[d].n != ch[j].n)
					continue;
				for (x = pre; x < ch[j].n && strcmp(ch[d].f[x], ch[j].f[x]) == 0; x++)
					;
				if (x == ch[j].n)
					break;
			}
			if (d < j)
				continue;
			if (pre || j)
				buf_adds(&out, ", ");
			py_list_of(&out, ch[j].f + pre, ch[j].n - pre);
			for (x = pre; x < ch[j].n; x++)
				frames_add(&flat, ch[j].f[x], 0);
		}
		buf_addc(&out, ']');
	}
	tab_set_str(t, r, col, entry_point(&flat, S(tl, p[m[0]].name)));
	tab_set_str(t, r, col + 1, out.p);
	for (j = 0; j < n; j++)
		frames_free(&ch[j]);
	free(ch);
	frames_free(&flat);
out:
	free(order);
	free(kl);
	buf_free(&sum);
	buf_free(&trunc);
	buf_free(&out);
}

struct syn {
	size_t		k;
	long long	rank, id;
	size_t		group;
};

static int
syn_cmp(const void *a, const void *b)
{
	const struct syn *x = a, *y = b;

	if (x->group != y->group)
		return (x->group > y->group) - (x->group < y->group);
	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return (x->k > y->k) - (x->k < y->k);
}

static struct tab *
sheet_unified(struct tl *tl)
{
	struct tab *t = tab_new("unified_perf_summary");
	struct ucoll u;
	size_t i, ng, *start, *mem, rc, cs = 0, *roots, nroots = 0, ri;
	long long uid = tl->maxid + 1;
	struct tab_key keys[] = { { 24, 1 }, { 9, 0 } };

	memset(&u, 0, sizeof(u));
	u.covered = xcalloc(tl->nk + 1, 1);
	u.submodel = xcalloc(tl->nop + 1, sizeof(int));
	u.subn = xcalloc(tl->nop + 1, sizeof(size_t));
	roots = xreallocarray(NULL, tl->nop + 1, sizeof(*roots));
	for (i = 0; i < tl->nop; i++)
		if (UP(tl->op[i]) == NONE)
			roots[nroots++] = i;
	tie_runs(tl, roots, nroots);
	for (ri = 0; ri < nroots; ri++) {
		i = roots[ri];
		subtree_facts(tl, &u, i);
		/* python roots too: their frames pass through (§7.4) */
		if (!tl->op[i].runtime || tl->op[i].python)
			ucollect(tl, &u, i);
	}
	free(roots);
	/* synthetic rows, in the trace's event order: the kernels with no cpu_op above
	 * grouped by their launch (in order of its first kernel), then those under one */
	{
		size_t nc = 0, *first = xreallocarray(NULL, tl->nop + 1, sizeof(size_t));
		struct syn *c = xreallocarray(NULL, tl->nk + 1, sizeof(*c));

		for (i = 0; i < tl->nop; i++)
			first[i] = NONE;
		for (i = 0; i < tl->nk; i++) {
			const struct gpuev *k = &tl->k[i];

			if (k->op == NONE || u.covered[i] || k->cls == CLS_COMM)
				continue;
			c[nc++] = (struct syn){ i, k->rank, k->id, 0 };
		}
		qsort(c, nc, sizeof(*c), syn_cmp);
		for (i = 0; i < nc; i++) {
			size_t op = tl->k[c[i].k].op;

			if (first[op] == NONE)
				first[op] = i;
			c[i].group = tl->op[op].runtime ? first[op] : nc;
			c[i].rank = 0;
			c[i].id = (long long)i;
		}
		qsort(c, nc, sizeof(*c), syn_cmp);
		for (i = 0; i < nc; i++)
			usynth(tl, &u, c[i].k, uid++);
		free(c);
		free(first);
	}
	for (i = 0; unified_cols[i]; i++)
		tab_col(t, unified_cols[i]);
	rc = tl->roofline ? roof_cols(t, "Roofline Bound", "Roofline Time (\u00b5s)_first", 0) : 0;
	if (tl->o->call_stack) {
		cs = tab_col(t, "entry_point");
		tab_col(t, "call_stack_full");
	}
	ng = group_rows(tl, u.r, u.n, 0, &start, &mem);
	for (i = 0; i < ng; i++) {
		size_t r = tab_row(t);

		unified_row(tl, t, r, u.r, mem + start[i], start[i + 1] - start[i]);
		if (tl->roofline)
			roof_row(tl, t, r, rc, 0, u.r, mem + start[i], start[i + 1] - start[i]);
		if (tl->o->call_stack)
			unified_stack(tl, t, r, cs, u.r, mem + start[i], start[i + 1] - start[i]);
	}
	tab_sort(t, keys, 2);
	tab_percentages(t, 24);
	free(start);
	free(mem);
	prow_free(u.r, u.n);
	free(u.covered);
	free(u.submodel);
	free(u.subn);
	return t;
}

/* --- per-family roofline sheets (§3.3, §7.5) ---------------------------------------- */

static const char *const binary_ops[] = {
	"aten::div", "aten::div_", "aten::mul", "aten::mul_", "aten::add", "aten::add_",
	"aten::sigmoid_backward", "aten::threshold_backward", "LigerSiLUMulFunction", NULL
};

/* Sheet families in TraceLens's registry order; each fwd before its bwd. */
static const char *const families[] = {
	"GEMM", "SDPA_fwd", "SDPA_bwd", "CONV_fwd", "CONV_bwd", "InferenceAttention_fwd",
	"BinaryElementwise", "UnaryElementwise", "GroupedGEMM_fwd", "GroupedGEMM_bwd",
	"MoE_comm_fwd", "MoE_comm_bwd", "SSM_fwd", "SSM_bwd", "RoPE_fwd", "RoPE_bwd",
	"CrossEntropy_fwd", "CrossEntropy_bwd", "MoE_fused_fwd", "MoE_unfused_fwd",
	"MoE_aux_fwd", "RMSNorm_fwd", "elementwise_fwd", "GroupQuant_fwd", "FusedRoPE_fwd",
	"CustomCollective_fwd", "mHC_fwd", "Normalization", "Normalization_fwd", "Reduce_fwd", "Reduce_bwd", NULL
};

/* The roofline sheet of a modelled op: ttp-roofline's "sheet" key, or else derived from
 * its category as TraceLens names its sheets. */
static uint32_t
op_sheet(struct tl *tl, size_t i)
{
	struct top *o = &tl->op[i];
	const char *c, *n = S(tl, o->name);
	char sheet[128];
	size_t j;

	if (o->sheet != NAME_NONE) {
		/* ttp-roofline names the training report's sheets; the inference report
		 * splits Normalization too (Normalization_fwd) */
		if (tl->o->inference)
			o->sheet = intern(tl, opclass_sheet(S(tl, o->sheet), false, true,
			    sheet, sizeof(sheet)));
		return o->sheet;
	}
	c = S(tl, op_category(tl, i));
	if (strcmp(c, "elementwise") == 0) {
		for (j = 0; binary_ops[j] && strcmp(binary_ops[j], n) != 0; j++)
			;
		return o->sheet = intern(tl, binary_ops[j] ? "BinaryElementwise" :
		    "UnaryElementwise");
	}
	if (strncmp(c, "NORM_", 5) == 0)
		c = "Normalization";
	else if (strcmp(c, "reduce") == 0)
		c = "Reduce";
	return o->sheet = intern(tl, opclass_sheet(c, false, tl->o->inference, sheet,
	    sizeof(sheet)));
}

/* A modelled CPU op of a roofline sheet: TraceLens's sheets list registered names, so
 * TorchInductor's Triton kernels (category "triton"), modelled by name pattern, have
 * none. */
static int
has_sheet(struct tl *tl, size_t i)
{
	const struct top *o = &tl->op[i];

	return o->model && !o->runtime && strcmp(S(tl, op_category(tl, i)), "triton") != 0;
}

/* The rows of a roofline sheet in the order of the ops they show (rank, id), equal
 * ones in their order. */
static const struct tl *sort_tl;

static int
as_cmp(const void *a, const void *b)
{
	const struct prow *x = a, *y = b;
	const struct top *ox = &sort_tl->op[x->as], *oy = &sort_tl->op[y->as];

	if (ox->rank != oy->rank)
		return (ox->rank > oy->rank) - (ox->rank < oy->rank);
	if (x->uid != y->uid)
		return (x->uid > y->uid) - (x->uid < y->uid);
	return (x->op > y->op) - (x->op < y->op);
}

static void
sort_as(const struct tl *tl, struct prow *p, size_t n)
{
	sort_tl = tl;
	qsort(p, n, sizeof(*p), as_cmp);
	sort_tl = NULL;
}

/* The value of param key of op o (its repr), or NULL when o has none. */
static const char *
param_of(const struct tl *tl, const struct top *o, uint32_t key)
{
	size_t i;

	for (i = 0; i < o->np; i++)
		if (PK(o, i) == key)
			return S(tl, PV(o, i));
	return NULL;
}

/* Python's repr of an int: digits after an optional minus. */
static bool
is_int_repr(const char *s)
{
	if (*s == '-')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	return *s == '\0';
}

/* ... or of a float: "1.5", "1e-05", "inf", "-inf", "nan". */
static bool
is_float_repr(const char *s)
{
	char *end;

	if (strcmp(s, "nan") == 0 || strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0)
		return true;
	if (!strpbrk(s, ".e") || !(isdigit((unsigned char)*s) || *s == '-'))
		return false;
	(void)strtod(s, &end);
	return *end == '\0' && end != s;
}

/* The roofline sheets' param columns as TraceLens's DataFrame holds them before
 * astype(str): a column that some op of the sheet lacks holds NaN there, and when its
 * other values are all numbers pandas makes it float64, so an int shows as a float
 * ("64.0"). Per column (pk[j]): whether it is such a float column. */
static bool *
param_columns(const struct tl *tl, const struct prow *p, size_t n, const uint32_t *pk,
    size_t npk)
{
	bool *fl = xcalloc(npk ? npk : 1, sizeof(*fl));
	size_t i, j;

	for (j = 0; j < npk; j++) {
		bool missing = false, numeric = true;

		for (i = 0; i < n; i++) {
			const char *v = param_of(tl, &tl->op[p[i].op], pk[j]);

			if (v == NULL)
				missing = true;
			else if (!is_int_repr(v) && !is_float_repr(v))
				numeric = false;
		}
		fl[j] = missing && numeric;
	}
	return fl;
}

/* Cell (r, col) of a roofline sheet: op o's param key after astype(str), "nan" where o
 * lacks it (TraceLens groups and shows the strings), an int as a float in a float
 * column. */
static void
param_cell(const struct tl *tl, struct tab *t, size_t r, size_t col, const struct top *o,
    uint32_t key, bool isfloat)
{
	const char *v = param_of(tl, o, key);
	struct buf b = BUF_INIT;

	if (v == NULL)
		v = "nan";
	else if (isfloat && is_int_repr(v)) {
		py_float(&b, strtod(v, NULL));
		buf_addc(&b, '\0');
		v = b.p;
	}
	tab_set_str(t, r, col, v);
	buf_free(&b);
}

static struct tab *
sheet_family(struct tl *tl, uint32_t fam)
{
	struct tab *t = tab_new(S(tl, fam));
	struct prow *p = NULL;
	uint32_t *pk = NULL;
	bool *pfloat;
	size_t n = 0, pcap = 0, npk = 0, i, j, r, ng, *start, *mem, c0, c, rc, k, cnk = 0, nbwd = 0;
	static const char *const st[] = { "mean", "median", "std", "min", "max" };
	struct buf name = BUF_INIT, sum = BUF_INIT, trunc = BUF_INIT;

	/* every modelled op of the family, in id order (TraceLens's event order) */
	for (i = 0; i < tl->nop; i++) {
		size_t x = tl->byid[i];
		const struct top *o = &tl->op[x];

		if (!has_sheet(tl, x) || op_sheet(tl, x) != fam)
			continue;
		p = xgrow(p, &pcap, n + 1, sizeof(*p));
		memset(&p[n], 0, sizeof(*p));
		p[n].op = p[n].as = x;
		/* backward figures (ttp-roofline's bwd_of): TraceLens's row is the
		 * forward op's, with the backward op's kernels */
		if (o->bwd_of >= 0 && (j = find_op(tl, o->rank, o->bwd_of)) != NONE) {
			p[n].as = j;
			nbwd++;
		}
		p[n].uid = tl->op[p[n].as].id;
		p[n].flops = o->flops;
		p[n].bytes = o->bytes;
		p[n].roof_us = o->roof_us;
		prow_events(tl, &p[n], x);
		for (j = 0; j < o->np; j++) {
			for (c = 0; c < npk && pk[c] != PK(o, j); c++)
				;
			if (c == npk) {
				pk = xreallocarray(pk, npk + 1, sizeof(*pk));
				pk[npk++] = PK(o, j);
			}
		}
		n++;
	}
	if (nbwd > 0)	/* in the forward ops' order, as TraceLens's rows */
		sort_as(tl, p, n);
	tab_col(t, "name");
	for (j = 0; j < npk; j++) {
		buf_reset(&name);
		buf_printf(&name, "param: %s", S(tl, pk[j]));
		tab_col(t, name.p);
	}
	/* --group_by_num_kernels: the op's kernels, its whole subtree's */
	if (tl->o->by_nkernels)
		cnk = tab_col(t, "num_kernels");
	c0 = tab_col(t, "GFLOPS_first");
	tab_col(t, "Data Moved (MB)_first");
	tab_col(t, "FLOPS/Byte_first");
	for (j = 0; j < 5; j++) {
		buf_reset(&name);
		buf_printf(&name, "TB/s_%s", st[j]);
		tab_col(t, name.p);
	}
	for (j = 0; j < 5; j++) {
		buf_reset(&name);
		buf_printf(&name, "TFLOPS/s_%s", st[j]);
		tab_col(t, name.p);
	}
	tab_col(t, "process_name_first");
	tab_col(t, "process_label_first");
	tab_col(t, "thread_name_first");
	tab_col(t, "Compute Spec");
	rc = tl->roofline ? roof_cols(t, "Roofline Bound_first", "Roofline Time (\u00b5s)_first", 1) : 0;
	k = tab_col(t, "kernel_details__summarize_kernel_stats");
	tab_col(t, "trunc_kernel_details");
	tab_col(t, "Input Dims_first");
	tab_col(t, "Input type_first");
	tab_col(t, "Input Strides_first");
	tab_col(t, "Concrete Inputs_first");
	for (j = 0; j < 6; j++) {
		buf_reset(&name);
		buf_printf(&name, "Kernel Time (\u00b5s)_%s", j < 5 ? st[j] : "sum");
		tab_col(t, name.p);
	}
	tab_col(t, "name_count");
	tab_col(t, "UID_first");
	pfloat = param_columns(tl, p, n, pk, npk);
	ng = group_rows(tl, p, n, 1, &start, &mem);
	c = c0 + 13;
	for (r = 0; r < ng; r++) {
		size_t nm = start[r + 1] - start[r], *m = mem + start[r];
		const struct top *o = &tl->op[p[m[0]].op], *as = &tl->op[p[m[0]].as];
		struct vec tb = VEC_INIT, tf = VEC_INIT, kt = VEC_INIT;
		struct klist *kl = xreallocarray(NULL, nm, sizeof(*kl));
		double gf = NAN, mb = NAN, fb = NAN;
		uint32_t spec = NAME_NONE;

		tab_row(t);
		for (i = 0; i < nm; i++) {
			const struct prow *q = &p[m[i]];
			double tflops, tbps;

			prow_metrics(q, &tflops, &tbps);
			vec_add(&tb, tbps);
			vec_add(&tf, tflops);
			vec_add(&kt, q->ktime);
			kl[i] = (struct klist){ q->ev, q->nev };
			if (isnan(gf))
				gf = q->flops / 1e9;
			if (isnan(mb))
				mb = q->bytes / 1048576;
			if (isnan(fb) && q->bytes != 0)
				fb = q->flops / q->bytes;
			if (spec == NAME_NONE)
				spec = tl->op[q->op].spec;
		}
		tab_set_str(t, r, 0, S(tl, as->name));
		for (j = 0; j < npk; j++)
			param_cell(tl, t, r, 1 + j, o, pk[j], pfloat[j]);
		if (tl->o->by_nkernels)
			tab_set_int(t, r, cnk, (long long)p[m[0]].nev);
		tab_set_num(t, r, c0, gf);
		tab_set_num(t, r, c0 + 1, mb);
		tab_set_num(t, r, c0 + 2, fb);
		for (j = 0; j < 5; j++) {
			tab_set_num(t, r, c0 + 3 + j, stat_of(&tb, (int)j));
			tab_set_num(t, r, c0 + 8 + j, stat_of(&tf, (int)j));
		}
		tab_set_str(t, r, c, S(tl, as->process));
		tab_set_str(t, r, c + 1, S(tl, as->label));
		tab_set_str(t, r, c + 2, S(tl, as->thread));
		set_name(t, r, c + 3, tl, spec);
		kernel_details(tl, kl, nm, &sum, &trunc);
		/* every event carries a kernel_details list, [] for an op with no kernels
		 * (CPU-only instances), and _summarize_kernel_stats gives [] for a group
		 * of empty lists; trunc_kernel_details is None there */
		tab_set_str(t, r, k, sum.p);
		if (sum.len > 2)
			tab_set_str(t, r, k + 1, trunc.p);
		set_name(t, r, k + 2, tl, LDIMS(as));
		set_name(t, r, k + 3, tl, LTYPES(as));
		set_name(t, r, k + 4, tl, LSTRIDES(as));
		set_name(t, r, k + 5, tl, LCONC(as));
		for (j = 0; j < 6; j++)
			tab_set_num(t, r, k + 6 + j, stat_of(&kt, (int)j));
		tab_set_int(t, r, k + 12, (long long)nm);
		tab_set_int(t, r, k + 13, p[m[0]].uid);
		if (tl->roofline)
			roof_row(tl, t, r, rc, 1, p, m, nm);
		vec_free(&tb);
		vec_free(&tf);
		vec_free(&kt);
		free(kl);
	}
	{
		struct tab_key keys[] = { { k + 11, 1 }, { k + 13, 0 } };

		tab_sort(t, keys, 2);
	}
	free(start);
	free(mem);
	free(pk);
	free(pfloat);
	prow_free(p, n);
	buf_free(&name);
	buf_free(&sum);
	buf_free(&trunc);
	return t;
}

static void
sheets_roofline(struct tl *tl, struct sink *sk)
{
	uint32_t *fam = NULL;
	size_t nf = 0, i, j;

	for (i = 0; i < tl->nop; i++) {
		uint32_t f;

		if (!has_sheet(tl, i))
			continue;
		f = op_sheet(tl, i);
		for (j = 0; j < nf && fam[j] != f; j++)
			;
		if (j == nf) {
			fam = xreallocarray(fam, nf + 1, sizeof(*fam));
			fam[nf++] = f;
		}
	}
	/* registry order first, then any other family in order of appearance */
	for (i = 0; families[i]; i++)
		for (j = 0; j < nf; j++)
			if (fam[j] != NAME_NONE && strcmp(S(tl, fam[j]), families[i]) == 0) {
				push(sk, sheet_family(tl, fam[j]));
				fam[j] = NAME_NONE;
			}
	for (j = 0; j < nf; j++)
		if (fam[j] != NAME_NONE)
			push(sk, sheet_family(tl, fam[j]));
	free(fam);
}
