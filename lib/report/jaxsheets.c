/* SPDX-License-Identifier: ISC */
/* jaxsheets: TraceLens's JAX report from xplane.pb records (report/jaxsheets.h);
 * sections (§): docs/jax.md. */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/ckint.h"
#include "core/diag.h"
#include "core/names.h"
#include "core/rec.h"
#include "core/spool.h"
#include "core/trace.h"
#include "jax/jaxtl.h"
#include "report/jaxsheets.h"
#include "report/pyrepr.h"
#include "report/tab.h"

/*
 * Memory (issue 26): nothing here grows with the events but 8 bytes per kernel for the
 * statistics that need every value of a group (medians, numpy's pairwise sums) and 24
 * more per kernel that has a perf model. The timeline's intervals and the kernels' rows
 * go through external sorts (core/spool.h's spsort) and are folded or written as they
 * come back in order; the strings the sheets print (names, shapes, HLO texts) are
 * interned once each.
 */

enum { CLS_COMP, CLS_COMM, CLS_MEMCPY, CLS_ALL };

/* One GPU event of the timeline, sorted by pid then start. */
struct tev {
	long long	pid;
	double		s, e;
	uint64_t	seq;
	int		cls;
};

/* One kernel, sorted by UID (then arrival). */
struct kev {
	long long	uid, pid, tid, inbytes;
	uint64_t	seq;
	double		dur, lat, flops, bytes;
	uint32_t	name, stream, cat, kd, dims, types, conc, params;
	int		perf;
};

/* A group of kernel_launchers_summary / xla_summary: the kernels of one name. */
struct sgrp {
	struct stat_acc	acc;
	size_t		n;
	const char	*cs[8];		/* the categories met, in order */
	size_t		ncs;
};

struct sgroups {
	struct names	 keys;
	struct sgrp	*g;
	size_t		 cap;
	long long	*pids;		/* the distinct pids of the kernels */
	size_t		 npids, cappids;
};

/* A group of kernel_launchers_unique_args: its first kernel and every duration. */
struct ugrp {
	struct kev	first;
	struct vec	d;
};

/* A group of an op_<category> sheet: its first kernel, durations and throughputs. */
struct ogrp {
	struct kev	first;
	struct vec	d, tb, tf;
};

/* One category's op sheet. */
struct osheet {
	bool		 any;
	uint32_t	 params;	/* the first kernel's params: the sheet's param columns */
	struct names	 keys;
	struct ogrp	*g;
	size_t		 cap;
};

/* The param cells of one params text (parsed once per distinct text). */
struct pcells {
	bool		 done;
	struct buf	 names;		/* NUL-separated */
	char		**v;
	size_t		 n;
	struct buf	 key;		/* the cells joined by '\x1f' */
};

struct jx {
	struct names	 s;
	size_t		 nrec, n, nk;	/* records taken, GPU events, kernels */
	uint64_t	 seq;
	bool		 tpu;		/* the profile has TPU planes */
	struct spsort	*tl;		/* struct tev */
	struct spsort	*ks;		/* struct kev */
	long long	*pids;		/* distinct pids, in order of first appearance */
	size_t		 npids, cappids;
};

#define S(jx, i) names_str(&(jx)->s, (i))

static int
tev_cmp(const void *a, const void *b)
{
	const struct tev *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	if (x->s != y->s)
		return (x->s > y->s) - (x->s < y->s);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int
kev_cmp(const void *a, const void *b)
{
	const struct kev *x = a, *y = b;

	if (x->uid != y->uid)
		return (x->uid > y->uid) - (x->uid < y->uid);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

struct jx *
jx_new(void)
{
	struct jx *jx = xcalloc(1, sizeof(*jx));

	names_init(&jx->s);
	jx->tl = spsort_new(sizeof(struct tev), tev_cmp);
	jx->ks = spsort_new(sizeof(struct kev), kev_cmp);
	return jx;
}

void
jx_free(struct jx *jx)
{
	if (jx == NULL)
		return;
	names_free(&jx->s);
	spsort_free(jx->tl);
	spsort_free(jx->ks);
	free(jx->pids);
	free(jx);
}

size_t
jx_count(const struct jx *jx)
{
	return jx->nrec;
}

static uint32_t
intern(struct jx *jx, const char *s)
{
	return names_intern(&jx->s, s, strlen(s));
}

/* Add pid to a list of distinct pids (a few, in runs: the last one checked first). */
static void
pid_add(long long **v, size_t *n, size_t *cap, long long pid)
{
	size_t j;

	if (*n > 0 && (*v)[*n - 1] == pid)
		return;
	for (j = 0; j < *n && (*v)[j] != pid; j++)
		;
	if (j == *n) {
		*v = xgrow(*v, cap, *n + 1, sizeof(**v));
		(*v)[(*n)++] = pid;
	}
}

/* A time in µs as xprof's JSON has it: picoseconds / 1e6. */
static double
us_of(struct rec *r, const char *ps, const char *ns, bool *ok)
{
	long long v;

	if (rec_int(r, ps, &v)) {
		*ok = true;
		return (double)v / 1e6;
	}
	if (rec_int(r, ns, &v)) {
		/* ps in 128 bits: an epoch time in ns times 1000 passes 2^63; Python's int
		 * does not overflow, and its float() rounds as this conversion does */
		*ok = true;
		return (double)((__int128)v * 1000) / 1e6;
	}
	*ok = false;
	return NAN;
}

static void
py_dims(struct buf *b, const long long *d, int n)
{
	int i;

	buf_addc(b, '(');
	for (i = 0; i < n; i++) {
		if (i)
			buf_adds(b, ", ");
		py_int(b, d[i]);
	}
	if (n == 1)
		buf_addc(b, ',');
	buf_addc(b, ')');
}

static void
py_tuple_end(struct buf *b, size_t n)
{
	if (n == 1)
		buf_addc(b, ',');
	buf_addc(b, ')');
}

/* §5's total_input_bytes of the operand texts; r rejected when it does not fit 64 bits (no
 * real operand comes near 2^63 bytes). */
static long long
input_bytes(struct rec *r, const struct jax_tl *v)
{
	static const struct {
		const char	*t;
		int		 n;
	} sz[] = { { "f32", 4 }, { "bf16", 2 }, { "s32", 4 }, { "fp16", 2 }, { "u32", 4 },
	    { "f16", 2 }, { "u64", 8 }, { "f8e4m3fn", 1 }, { "f8e4m3fnuz", 1 },
	    { "f8e5m2", 1 }, { "f8e5m2fnuz", 1 }, { "pred", 1 } };
	long long total = 0;
	size_t i, k;

	for (i = 0; i < v->nops; i++) {
		const char *t = v->ops[i], *p = t;
		long long prod = 1;
		int nd = 0, bpe = -1;
		bool fits = true;

		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (p == t || *p != '[')
			continue;
		for (p++; isdigit((unsigned char)*p) || *p == ','; p++)
			if (isdigit((unsigned char)*p) && (p[-1] == '[' || p[-1] == ',')) {
				fits = ck_mul_i64(prod, strtoll(p, NULL, 10), &prod) && fits;
				nd++;
			}
		if (*p != ']' || nd == 0)
			continue;
		for (k = 0; k < sizeof(sz) / sizeof(sz[0]); k++)
			if ((size_t)(strchr(t, '[') - t) == strlen(sz[k].t) &&
			    strncmp(t, sz[k].t, strlen(sz[k].t)) == 0)
				bpe = sz[k].n;
		if (bpe < 0 && (strncmp(t, "f8", 2) == 0 || strncmp(t, "s8", 2) == 0))
			bpe = 1;
		if (bpe < 0) {
			note_once("jax-dtype", "total_input_bytes leaves out operands of a dtype "
			    "TraceLens does not size (%.*s)", (int)(strchr(t, '[') - t), t);
			continue;
		}
		if (!fits || !ck_mul_i64(prod, bpe, &prod) || !ck_add_i64(total, prod, &total)) {
			rec_reject(r, "operand %s: total_input_bytes does not fit 64 bits", t);
			return 0;
		}
	}
	return total;
}

/* A kernel's HLO columns (§3.1, §5): kernel_details' HLO part, Input Dims, Input type,
 * Concrete Inputs, total_input_bytes and the perf model's figures. */
static void
add_kernel(struct jx *jx, struct rec *r, struct kev *k)
{
	struct jax_tl v;
	struct buf b = BUF_INIT;
	const char *s;
	size_t i, nin;

	jax_tl_read(r, &v);
	k->cat = intern(jx, v.category);
	/* kernel_details' HLO part: 'custom_call_target': ..., ..., 'metadata': ... */
	buf_adds(&b, "'custom_call_target': ");
	if (v.meta && v.target)
		py_str(&b, v.target, strlen(v.target));
	else
		buf_adds(&b, "'NA'");
	buf_adds(&b, ", 'operands': ");
	if (v.meta) {
		buf_addc(&b, '[');
		for (i = 0; i < v.nops; i++) {
			if (i)
				buf_adds(&b, ", ");
			py_str(&b, v.ops[i], strlen(v.ops[i]));
		}
		buf_addc(&b, ']');
	} else
		buf_adds(&b, "'NA'");
	buf_adds(&b, ", 'outputs': 'NA', 'metadata': ");
	if (v.meta && v.metadata)
		py_str(&b, v.metadata, strlen(v.metadata));
	else
		buf_adds(&b, "'NA'");
	k->kd = intern(jx, b.p);
	/* Input Dims, Input type, Concrete Inputs (§3.1) */
	nin = strncmp(v.model, "jax_te_fused_attn", 17) == 0 && v.nin > 3 ? 3 : v.nin;
	buf_reset(&b);
	buf_addc(&b, '(');
	for (i = 0; i < nin; i++) {
		if (i)
			buf_adds(&b, ", ");
		py_dims(&b, v.in[i].d, v.in[i].nd);
	}
	py_tuple_end(&b, nin);
	k->dims = intern(jx, b.p);
	buf_reset(&b);
	buf_addc(&b, '(');
	for (i = 0; i < nin; i++) {
		if (i)
			buf_adds(&b, ", ");
		py_str(&b, v.in[i].dtype, strlen(v.in[i].dtype));
	}
	py_tuple_end(&b, nin);
	k->types = intern(jx, b.p);
	buf_reset(&b);
	if (strncmp(v.model, "jax_te_fused_attn", 17) == 0 && v.nin > 3) {
		buf_addc(&b, '(');
		py_dims(&b, v.in[3].d, v.in[3].nd);
		buf_adds(&b, ",)");
	} else
		buf_adds(&b, "()");
	k->conc = intern(jx, b.p);
	k->inbytes = v.meta ? input_bytes(r, &v) : 0;
	/* the perf model's figures, from ttp-roofline */
	if ((s = rec_str(r, "perf_model", NULL)) != NULL && strcmp(s, "rest") != 0) {
		const char *raw;
		size_t len;

		if ((raw = rec_raw(r, "params", &len)) != NULL && rec_num(r, "flops", &k->flops)) {
			k->perf = 1;
			if (!rec_num(r, "bytes", &k->bytes))
				k->bytes = NAN;
			buf_reset(&b);
			buf_add(&b, raw, len);
			k->params = intern(jx, b.p);
		}
	}
	jax_tl_free(&v);
	buf_free(&b);
}

static void
add_gpu(struct jx *jx, struct rec *r)
{
	struct kev k;
	struct tev t;
	const char *name = rec_str(r, "name", NULL), *g = rec_str(r, "gpu", NULL);
	const char *cls = rec_str(r, "class", NULL), *s;
	bool ok, ok2, kernel;
	double lt;
	long long ps;

	memset(&k, 0, sizeof(k));
	memset(&t, 0, sizeof(t));
	if (name == NULL)
		name = "";
	k.name = intern(jx, name);
	(void)rec_int(r, "uid", &k.uid);
	(void)rec_int(r, "pid", &k.pid);
	(void)rec_int(r, "tid", &k.tid);
	s = rec_str(r, "stream", NULL);
	k.stream = intern(jx, s ? s : "");
	t.s = us_of(r, "start_ps", "start_ns", &ok);
	if (rec_int(r, "ps", &ps))
		k.dur = (double)(ps > 0 ? ps : 1) / 1e6;
	else if (rec_int(r, "ns", &ps))
		k.dur = (double)(ps > 0 ? (__int128)ps * 1000 : 1) / 1e6;
	lt = us_of(r, "launch_start_ps", "launch_start_ns", &ok2);
	k.lat = ok && ok2 ? t.s - lt : NAN;
	kernel = g != NULL && strcmp(g, "kernel") == 0;
	t.cls = cls == NULL ? CLS_COMP : strcmp(cls, "memcpy") == 0 ? CLS_MEMCPY :
	    strcmp(cls, "comm") == 0 ? CLS_COMM : CLS_COMP;
	if (kernel && rec_bad(r) == NULL)
		add_kernel(jx, r, &k);
	if (rec_bad(r) != NULL)
		return;
	t.pid = k.pid;
	t.e = t.s + k.dur;
	t.seq = k.seq = jx->seq++;
	spsort_add(jx->tl, &t);
	pid_add(&jx->pids, &jx->npids, &jx->cappids, k.pid);
	jx->n++;
	if (kernel) {
		spsort_add(jx->ks, &k);
		jx->nk++;
	}
}

int
jx_add(struct jx *jx, struct rec *r)
{
	enum trace_kind tr = rec_trace(r);
	enum rec_kind kind = rec_kind(r);
	struct trace_info ti;
	struct rec_elems e;

	if (tr != TRACE_XPLANE)
		return 0;
	jx->nrec++;
	if (kind == KIND_GPU)
		add_gpu(jx, r);
	else if (trace_read(r, &ti) && ti.devices != NULL && rec_elems(r, "devices", &e))
		/* a TPU among the devices: trace_read has them as text, rec_elems one by one */
		while (rec_elem_next(&e)) {
			const char *t = rec_elem_str(&e, "type", NULL);

			if (t != NULL && strcmp(t, "TPU") == 0)
				jx->tpu = true;
		}
	return 1;
}

/* --- gpu_timeline (§2) -------------------------------------------------------------- */

/*
 * One pid's events in order of start, swept once: each class's union (overlapping and
 * touching intervals merged, report/interval.c's rule) summed interval by interval as
 * each closes, and the pieces of comm minus comp and of memcpy minus comp minus comm
 * (iv_sub's) as the maximal runs of what each covers and the others do not, summed the
 * same way. Between two starts every class covers a prefix of the gap (its current
 * interval), so that the sweep needs no look-ahead and the sums are iv_len's, term by
 * term.
 */
struct sweep {
	bool	 any;
	double	 f;		/* everything before f is settled */
	double	 cs[4], ce[4];	/* each class's current interval; ce -inf: none yet */
	double	 len[4];
	double	 first;		/* the first start */
	double	 ps[2], pe[2];	/* the open piece of comm-comp, memcpy-comp-comm */
	bool	 popen[2];
	double	 plen[2];
};

static void
sw_init(struct sweep *w)
{
	size_t c;

	memset(w, 0, sizeof(*w));
	for (c = 0; c < 4; c++)
		w->ce[c] = -INFINITY;
}

static void
sw_piece(struct sweep *w, int p, double s, double e)
{
	if (!(e > s))
		return;
	if (w->popen[p] && s == w->pe[p]) {
		w->pe[p] = e;
		return;
	}
	if (w->popen[p])
		w->plen[p] += w->pe[p] - w->ps[p];
	w->popen[p] = true;
	w->ps[p] = s;
	w->pe[p] = e;
}

/* How far class c covers [f, x). */
static double
sw_cov(const struct sweep *w, int c, double x)
{
	double e = w->ce[c] < x ? w->ce[c] : x;

	return e > w->f ? e : w->f;
}

/* Settle [f, x). */
static void
sw_advance(struct sweep *w, double x)
{
	double comp, comm, mem;

	if (!w->any || !(x > w->f))
		return;
	comp = sw_cov(w, CLS_COMP, x);
	comm = sw_cov(w, CLS_COMM, x);
	mem = sw_cov(w, CLS_MEMCPY, x);
	sw_piece(w, 0, comp, comm);
	sw_piece(w, 1, comp > comm ? comp : comm, mem);
	w->f = x;
}

static void
sw_class(struct sweep *w, int c, double s, double e)
{
	if (w->ce[c] != -INFINITY && s <= w->ce[c]) {
		if (e > w->ce[c])
			w->ce[c] = e;
		return;
	}
	if (w->ce[c] != -INFINITY)
		w->len[c] += w->ce[c] - w->cs[c];
	w->cs[c] = s;
	w->ce[c] = e;
}

static void
sw_add(struct sweep *w, const struct tev *t)
{
	sw_advance(w, t->s);
	if (!w->any) {
		w->any = true;
		w->first = t->s;
		w->f = t->s;
	}
	sw_class(w, t->cls, t->s, t->e);
	sw_class(w, CLS_ALL, t->s, t->e);
}

/* The eight figures of the pid swept, in µs, in the sheet's order. */
static void
sw_end(struct sweep *w, double f[8])
{
	size_t c;
	int p;

	sw_advance(w, INFINITY);
	for (c = 0; c < 4; c++)
		if (w->ce[c] != -INFINITY)
			w->len[c] += w->ce[c] - w->cs[c];
	for (p = 0; p < 2; p++)
		if (w->popen[p])
			w->plen[p] += w->pe[p] - w->ps[p];
	f[0] = w->len[CLS_COMP];
	f[1] = w->plen[0];
	f[2] = w->plen[1];
	f[3] = w->len[CLS_ALL];
	f[5] = w->any ? w->ce[CLS_ALL] - w->first : 0;
	f[4] = f[5] - f[3];
	f[6] = w->len[CLS_COMM];
	f[7] = w->len[CLS_MEMCPY];
}

static const char *const tl_rows[8] = { "computation_time", "exposed_comm_time",
	"exposed_memcpy_time", "busy_time", "idle_time", "total_time", "total_comm_time",
	"total_memcpy_time" };

/* The iteration order of a CPython set of small non-negative ints added in this order
 * (§2 QUIRK): open addressing from slot x & mask, linear probing, resized to the
 * smallest power of two above 4 * fill when 5 * fill >= 3 * (size - 1). */
static size_t
set_order(const long long *in, size_t n, long long *out)
{
	size_t size = 8, fill = 0, i, j, k;
	long long *tab = xreallocarray(NULL, size, sizeof(*tab)), *old;

	for (i = 0; i < size; i++)
		tab[i] = -1;
	for (i = 0; i < n; i++) {
		for (j = 0; j < size && tab[j] != in[i]; j++)
			;
		if (j < size)
			continue;
		for (k = (size_t)in[i] & (size - 1); tab[k] >= 0; k = (k + 1) & (size - 1))
			;
		tab[k] = in[i];
		fill++;
		if (fill * 5 >= (size - 1) * 3) {
			size_t ns = 8, os = size;

			while (ns <= fill * 4)
				ns <<= 1;
			old = tab;
			tab = xreallocarray(NULL, ns, sizeof(*tab));
			for (j = 0; j < ns; j++)
				tab[j] = -1;
			size = ns;
			for (j = 0; j < os; j++) {
				if (old[j] < 0)
					continue;
				for (k = (size_t)old[j] & (size - 1); tab[k] >= 0;
				    k = (k + 1) & (size - 1))
					;
				tab[k] = old[j];
			}
			free(old);
		}
	}
	for (i = 0, k = 0; i < size; i++)
		if (tab[i] >= 0)
			out[k++] = tab[i];
	free(tab);
	return k;
}

static void
row3(struct tab *t, const char *type, double us, double total)
{
	size_t r = tab_row(t);

	tab_set_str(t, r, 0, type);
	tab_set_num(t, r, 1, us / 1e3);
	tab_set_num(t, r, 2, total != 0 ? us / total * 100 : NAN);
}

static void
sheets_timeline(struct jx *jx, struct tab **tl, struct tab **avg)
{
	long long *ord = xreallocarray(NULL, jx->npids + 1, sizeof(*ord));
	double (*f)[8] = xcalloc(jx->npids + 1, sizeof(*f)), sum[8] = { 0 };
	size_t i, j, np;
	struct tab *t = tab_new("gpu_timeline"), *a = tab_new("gpu_events_averages");
	const struct tev *e;
	struct sweep w;
	long long pid = 0;

	/* each pid's figures, in the order of the sort; then printed in the set's */
	np = set_order(jx->pids, jx->npids, ord);
	sw_init(&w);
	while ((e = spsort_next(jx->tl)) != NULL) {
		if (w.any && e->pid != pid) {
			for (i = 0; i < np && ord[i] != pid; i++)
				;
			sw_end(&w, f[i]);
			sw_init(&w);
		}
		pid = e->pid;
		sw_add(&w, e);
	}
	if (w.any) {
		for (i = 0; i < np && ord[i] != pid; i++)
			;
		sw_end(&w, f[i]);
	}
	tab_col(t, "type");
	tab_col(t, "time ms");
	tab_col(t, "percent");
	tab_col(t, "gpu_pid");
	for (i = 0; i < np; i++) {
		for (j = 0; j < 8; j++) {
			row3(t, tl_rows[j], f[i][j], f[i][5]);
			tab_set_int(t, t->nrows - 1, 3, ord[i]);
			sum[j] += f[i][j];
		}
	}
	tab_col(a, "type");
	tab_col(a, "time ms");
	tab_col(a, "percent");
	for (j = 0; j < 8 && np > 0; j++)
		row3(a, tl_rows[j], sum[j] / (double)np, sum[5] / (double)np);
	free(ord);
	free(f);
	*tl = t;
	*avg = a;
}

/* --- kernel_launchers and what is made of it (§3-§5) ------------------------------- */

/* The rows of a sheet with one row per kernel are handed on in parts of this many
 * (TTP_SHEET_PART=N: of N, for tests). */
#define PART_ROWS	4096

static size_t
part_rows(void)
{
	static size_t n;
	const char *e;

	if (n == 0)
		n = (e = getenv("TTP_SHEET_PART")) != NULL && atol(e) > 0 ? (size_t)atol(e) :
		    PART_ROWS;
	return n;
}

struct emit {
	jx_sheet_fn	 fn;
	void		*ctx;
	size_t		 n;		/* sheets handed on */
};

/* A sheet with one row per kernel, written as the kernels come in UID order. */
struct lsheet {
	const char	*name;
	int		 xla;
	struct tab	*t;
	bool		 started;
	struct buf	 b;
};

static struct tab *
launch_tab(const char *name, int xla)
{
	static const char *const cols[] = { "name", "UID", "op category",
	    "total_direct_kernel_time", "total_subtree_kernel_time", "direct_kernel_count",
	    "pid", "tid", "Input Dims", "Input type", "Input Strides", "Concrete Inputs",
	    "kernel_details", "GPU_kernel_launch_latency", "total_input_bytes" };
	struct tab *t = tab_new(name);
	size_t i, nc = xla ? 15 : 14;

	for (i = 0; i < nc; i++)
		tab_col(t, cols[i]);
	return t;
}

static void
kd_cell(const struct jx *jx, const struct kev *e, struct buf *b)
{
	buf_reset(b);
	buf_adds(b, "[{'name': ");
	py_str(b, S(jx, e->name), strlen(S(jx, e->name)));
	buf_adds(b, ", 'dur': ");
	py_float(b, e->dur);
	buf_adds(b, ", ");
	buf_adds(b, S(jx, e->kd));
	buf_adds(b, "}]");
}

static void
ls_add(const struct jx *jx, struct lsheet *l, const struct kev *e, struct emit *em)
{
	struct tab *t;
	size_t r;

	if (l->t == NULL)
		l->t = launch_tab(l->name, l->xla);
	t = l->t;
	r = tab_row(t);
	tab_set_str(t, r, 0, S(jx, e->name));
	tab_set_int(t, r, 1, e->uid);
	tab_set_str(t, r, 2, S(jx, e->cat));
	tab_set_num(t, r, 3, e->dur);
	tab_set_num(t, r, 4, e->dur);
	tab_set_int(t, r, 5, 1);
	tab_set_int(t, r, 6, e->pid);
	tab_set_int(t, r, 7, e->tid);
	tab_set_str(t, r, 8, S(jx, e->dims));
	tab_set_str(t, r, 9, S(jx, e->types));
	tab_set_str(t, r, 10, "()");
	tab_set_str(t, r, 11, S(jx, e->conc));
	kd_cell(jx, e, &l->b);
	tab_set_str(t, r, 12, l->b.p);
	tab_set_num(t, r, 13, e->lat);
	if (l->xla)
		tab_set_int(t, r, 14, e->inbytes);
	if (t->nrows >= part_rows()) {
		em->fn(t, l->started ? 0 : JX_FIRST, em->ctx);
		l->started = true;
		l->t = NULL;
	}
}

static void
ls_end(struct lsheet *l, struct emit *em)
{
	if (l->t == NULL)
		l->t = launch_tab(l->name, l->xla);
	em->fn(l->t, (l->started ? 0 : JX_FIRST) | JX_LAST, em->ctx);
	if (!l->started)
		em->n++;
	l->t = NULL;
	buf_free(&l->b);
}

static void
emit_one(struct emit *em, struct tab *t)
{
	em->fn(t, JX_FIRST | JX_LAST, em->ctx);
	em->n++;
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
sg_init(struct sgroups *sg)
{
	memset(sg, 0, sizeof(*sg));
	names_init(&sg->keys);
}

static void
sg_free(struct sgroups *sg)
{
	names_free(&sg->keys);
	free(sg->g);
	free(sg->pids);
}

/* A kernel into the summary groups: by its name, or with strip by its name without
 * digits (xla_summary). */
static void
sg_add(const struct jx *jx, struct sgroups *sg, const struct kev *e, int strip,
    struct buf *b)
{
	const char *s = S(jx, e->name), *cat = S(jx, e->cat);
	struct sgrp *g;
	uint32_t gi;
	size_t c;
	int added;

	buf_reset(b);
	for (; *s; s++)
		if (!strip || !isdigit((unsigned char)*s))
			buf_addc(b, *s);
	buf_adds(b, "");
	gi = names_add(&sg->keys, b->p, b->len, &added);
	if (added) {
		sg->g = xgrow(sg->g, &sg->cap, (size_t)gi + 1, sizeof(*sg->g));
		memset(&sg->g[gi], 0, sizeof(sg->g[gi]));
	}
	g = &sg->g[gi];
	stat_acc_add(&g->acc, e->dur);
	g->n++;
	for (c = 0; c < g->ncs && strcmp(g->cs[c], cat) != 0; c++)
		;
	if (c == g->ncs && g->ncs < 8)
		g->cs[g->ncs++] = cat;
	pid_add(&sg->pids, &sg->npids, &sg->cappids, e->pid);
}

/* kernel_launchers_summary (§4), xla_summary with the digits taken out of the names */
static struct tab *
sheet_summary(struct sgroups *sg, const char *sname)
{
	struct tab *t = tab_new(sname);
	size_t i, j, r, n = sg->keys.n, gpus = sg->npids;
	const char **keys = xreallocarray(NULL, n + 1, sizeof(*keys));
	struct buf b = BUF_INIT;

	tab_col(t, "name");
	tab_col(t, "total_direct_kernel_time_sum");
	tab_col(t, "total_subtree_kernel_time_sum");
	tab_col(t, "total_direct_kernel_time_ms");
	tab_col(t, "total_subtree_kernel_time_ms");
	tab_col(t, "Count");
	tab_col(t, "Categories");
	/* the groups in order of their names */
	for (i = 0; i < n; i++)
		keys[i] = names_str(&sg->keys, (uint32_t)i);
	qsort(keys, n, sizeof(*keys), str_cmp);
	for (i = 0; i < n; i++) {
		struct sgrp *g = &sg->g[names_lookup(&sg->keys, keys[i], strlen(keys[i]))];
		double sum = stat_acc_sum(&g->acc);

		qsort(g->cs, g->ncs, sizeof(*g->cs), str_cmp);
		buf_reset(&b);
		buf_addc(&b, '[');
		for (j = 0; j < g->ncs; j++) {
			if (j)
				buf_adds(&b, ", ");
			py_str(&b, g->cs[j], strlen(g->cs[j]));
		}
		buf_addc(&b, ']');
		r = tab_row(t);
		tab_set_str(t, r, 0, keys[i]);
		tab_set_num(t, r, 1, sum);
		tab_set_num(t, r, 2, sum);
		tab_set_num(t, r, 3, sum / 1000);
		tab_set_num(t, r, 4, sum / 1000);
		tab_set_int(t, r, 5, (long long)g->n);
		tab_set_str(t, r, 6, b.p);
	}
	tab_sort_pandas(t, 1, 1);
	tab_percentages(t, 3);
	j = tab_col(t, "time ms per gpu");
	for (r = 0; r < t->nrows; r++)
		tab_set_num(t, r, j, tab_num(t, r, 3) / (double)(gpus ? gpus : 1));
	free(keys);
	buf_free(&b);
	return t;
}

static struct tab *
sheet_by_category(struct sgroups *sg)
{
	struct tab *t = tab_new("kernel_launchers_summary_by_category");
	size_t i, r, gpus = sg->npids, c, n = sg->keys.n;
	const char **keys = xreallocarray(NULL, n + 1, sizeof(*keys));

	tab_col(t, "op category");
	tab_col(t, "Count");
	tab_col(t, "total_direct_kernel_time_ms");
	c = tab_col(t, "sum");
	/* pandas groups sorted by key, then sorted by the sum (quicksort) */
	for (i = 0; i < n; i++)
		keys[i] = names_str(&sg->keys, (uint32_t)i);
	qsort(keys, n, sizeof(*keys), str_cmp);
	for (i = 0; i < n; i++) {
		struct sgrp *g = &sg->g[names_lookup(&sg->keys, keys[i], strlen(keys[i]))];

		r = tab_row(t);
		tab_set_str(t, r, 0, keys[i]);
		tab_set_int(t, r, 1, (long long)g->n);
		tab_set_num(t, r, 2, stat_acc_sum(&g->acc) / 1000);
		tab_set_num(t, r, c, stat_acc_sum(&g->acc));
	}
	free(keys);
	tab_sort_pandas(t, c, 1);
	tab_percentages(t, 2);
	i = tab_col(t, "time ms per gpu");
	for (r = 0; r < t->nrows; r++)
		tab_set_num(t, r, i, tab_num(t, r, 2) / (double)(gpus ? gpus : 1));
	{
		static const char *const keep[] = { "op category", "Count",
		    "total_direct_kernel_time_ms", "Percentage (%)",
		    "Cumulative Percentage (%)", "time ms per gpu", NULL };
		struct tab *p = tab_project(t, t->name, keep);

		tab_free(t);
		t = p;
	}
	return t;
}

/* The by-category groups: the summary groups keyed by the category. */
static void
cat_add(const struct jx *jx, struct sgroups *sg, const struct kev *e)
{
	const char *s = S(jx, e->cat);
	uint32_t gi;
	int added;

	gi = names_add(&sg->keys, s, strlen(s), &added);
	if (added) {
		sg->g = xgrow(sg->g, &sg->cap, (size_t)gi + 1, sizeof(*sg->g));
		memset(&sg->g[gi], 0, sizeof(sg->g[gi]));
	}
	stat_acc_add(&sg->g[gi].acc, e->dur);
	sg->g[gi].n++;
	pid_add(&sg->pids, &sg->npids, &sg->cappids, e->pid);
}

/* The kernel-stats dict of a group's durations (docs/tracelens.md §7.3), after its head. */
static void
kstats(struct buf *b, const struct vec *d)
{
	buf_adds(b, "'count': ");
	py_int(b, (long long)d->n);
	buf_adds(b, ", 'total_duration_us': ");
	py_float(b, stat_npsum(d));
	buf_adds(b, ", 'mean_duration_us': ");
	py_float(b, stat_npmean(d));
	buf_adds(b, ", 'median_duration_us': ");
	py_float(b, stat_median(d));
	buf_adds(b, ", 'std_dev_duration_us': ");
	py_float(b, stat_npstd(d));
	buf_adds(b, ", 'min_duration_us': ");
	py_float(b, stat_min(d));
	buf_adds(b, ", 'max_duration_us': ");
	py_float(b, stat_max(d));
}

static void
param_cells(const char *params, struct buf *names, char ***vals, size_t *nv)
{
	/* params is a flat JSON object of scalars and arrays of scalars written by
	 * jax/jaxtl.c: split it member by member */
	const char *p = params + 1;
	struct buf v = BUF_INIT;

	*nv = 0;
	*vals = NULL;
	buf_reset(names);
	while (*p == '"') {
		const char *q = strchr(p + 1, '"'), *s;
		int depth = 0;

		buf_add(names, p + 1, (size_t)(q - p - 1));
		buf_addc(names, '\0');
		s = q + 2;	/* after ": */
		for (p = s; *p && (depth > 0 || (*p != ',' && *p != '}')); p++) {
			if (*p == '[')
				depth++;
			else if (*p == ']')
				depth--;
			else if (*p == '"')
				p = strchr(p + 1, '"');
		}
		buf_reset(&v);
		if (*s == '"')
			buf_add(&v, s + 1, (size_t)(p - s - 2));
		else if (strncmp(s, "true", 4) == 0)
			buf_adds(&v, "True");
		else if (strncmp(s, "false", 5) == 0)
			buf_adds(&v, "False");
		else if (strncmp(s, "null", 4) == 0)
			buf_adds(&v, "None");
		else
			py_json(&v, s, (size_t)(p - s), PY_TUPLE);
		*vals = xreallocarray(*vals, *nv + 1, sizeof(**vals));
		(*vals)[(*nv)++] = xstrdup(v.p ? v.p : "");
		if (*p == ',')
			p++;
	}
	buf_free(&v);
}

struct ugroups {
	struct names	 keys;
	struct ugrp	*g;
	size_t		 cap;
};

static void
ug_add(struct ugroups *ug, const struct kev *e, struct buf *b)
{
	uint32_t gi;
	int added;

	buf_reset(b);
	buf_printf(b, "%x.%x.%x.%x.%x", e->name, e->cat, e->dims, e->types, e->conc);
	gi = names_add(&ug->keys, b->p, b->len, &added);
	if (added) {
		ug->g = xgrow(ug->g, &ug->cap, (size_t)gi + 1, sizeof(*ug->g));
		memset(&ug->g[gi], 0, sizeof(ug->g[gi]));
		ug->g[gi].first = *e;
	}
	vec_add(&ug->g[gi].d, e->dur);
}

static struct tab *
sheet_unique_args(const struct jx *jx, struct ugroups *ug)
{
	struct tab *t = tab_new("kernel_launchers_unique_args");
	static const char *const st[6] = { "mean", "median", "std", "min", "max", "sum" };
	static const char *const kc[6] = { "name", "op category", "Input Dims", "Input type",
	    "Input Strides", "Concrete Inputs" };
	struct buf b = BUF_INIT;
	size_t i, j, r, c, cuid, csum;

	for (i = 0; i < 6; i++)
		tab_col(t, kc[i]);
	tab_col(t, "operation_count");
	for (j = 0; j < 6; j++) {
		buf_reset(&b);
		buf_printf(&b, "total_direct_kernel_time_%s", st[j]);
		tab_col(t, b.p);
		buf_reset(&b);
		buf_printf(&b, "total_subtree_kernel_time_%s", st[j]);
		tab_col(t, b.p);
	}
	csum = 7 + 10;
	cuid = tab_col(t, "ex_UID");
	tab_col(t, "kernel_details_summary");
	for (i = 0; i < ug->keys.n; i++) {
		const struct kev *e = &ug->g[i].first;
		const struct vec *v = &ug->g[i].d;
		double s[6] = { stat_mean(v), stat_median(v), stat_std(v, 1), stat_min(v),
		    stat_max(v), stat_sum(v) };

		r = tab_row(t);
		tab_set_str(t, r, 0, S(jx, e->name));
		tab_set_str(t, r, 1, S(jx, e->cat));
		tab_set_str(t, r, 2, S(jx, e->dims));
		tab_set_str(t, r, 3, S(jx, e->types));
		tab_set_str(t, r, 4, "()");
		tab_set_str(t, r, 5, S(jx, e->conc));
		tab_set_int(t, r, 6, (long long)v->n);
		for (j = 0, c = 7; j < 6; j++, c += 2) {
			tab_set_num(t, r, c, s[j]);
			tab_set_num(t, r, c + 1, s[j]);
		}
		tab_set_int(t, r, cuid, e->uid);
		buf_reset(&b);
		buf_adds(&b, "[{'name': ");
		py_str(&b, S(jx, e->name), strlen(S(jx, e->name)));
		buf_adds(&b, ", ");
		buf_adds(&b, S(jx, e->kd));
		buf_adds(&b, ", ");
		kstats(&b, v);
		buf_adds(&b, "}]");
		tab_set_str(t, r, cuid + 1, b.p);
	}
	{
		struct tab_key keys[2] = { { csum, 1 }, { cuid, 0 } };

		tab_sort(t, keys, 2);
	}
	tab_percentages(t, csum);
	buf_free(&b);
	return t;
}

/* --- op_<category> (§6) ------------------------------------------------------------- */

/* The param cells of params (an id of jx->s), parsed the first time. */
static struct pcells *
pcells_of(const struct jx *jx, struct pcells **pc, size_t *cap, uint32_t params)
{
	struct pcells *p;
	size_t j;

	if ((size_t)params >= *cap) {
		size_t old = *cap;

		*pc = xgrow(*pc, cap, (size_t)params + 1, sizeof(**pc));
		memset(*pc + old, 0, (*cap - old) * sizeof(**pc));
	}
	p = &(*pc)[params];
	if (!p->done) {
		p->done = true;
		param_cells(S(jx, params), &p->names, &p->v, &p->n);
		buf_adds(&p->key, "");
		for (j = 0; j < p->n; j++) {
			buf_addc(&p->key, '\x1f');
			buf_adds(&p->key, p->v[j]);
		}
	}
	return p;
}

static void
pcells_free(struct pcells *pc, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < pc[i].n; j++)
			free(pc[i].v[j]);
		free(pc[i].v);
		buf_free(&pc[i].names);
		buf_free(&pc[i].key);
	}
	free(pc);
}

/* A kernel with a perf model into its category's op sheet: grouped by name and param
 * cells. */
static void
op_add(const struct jx *jx, struct osheet *os, const struct kev *e, struct pcells *p,
    struct buf *b)
{
	struct ogrp *g;
	uint32_t gi;
	int added;

	if (!os->any) {
		os->any = true;
		os->params = e->params;
		names_init(&os->keys);
	}
	buf_reset(b);
	buf_adds(b, S(jx, e->name));
	buf_add(b, p->key.p, p->key.len);
	gi = names_add(&os->keys, b->p, b->len, &added);
	if (added) {
		os->g = xgrow(os->g, &os->cap, (size_t)gi + 1, sizeof(*os->g));
		memset(&os->g[gi], 0, sizeof(os->g[gi]));
		os->g[gi].first = *e;
	}
	g = &os->g[gi];
	vec_add(&g->d, e->dur);
	vec_add(&g->tb, e->bytes / 1e12 / (e->dur / 1e6));
	vec_add(&g->tf, e->flops / 1e12 / (e->dur / 1e6));
}

static void
os_free(struct osheet *os)
{
	size_t i;

	if (!os->any)
		return;
	for (i = 0; i < os->keys.n; i++) {
		vec_free(&os->g[i].d);
		vec_free(&os->g[i].tb);
		vec_free(&os->g[i].tf);
	}
	free(os->g);
	names_free(&os->keys);
}

static const char *const st5[5] = { "mean", "median", "std", "min", "max" };

/* An op_* sheet's columns: name, the params p0 names, the figures, the kernel stats;
 * the index of Kernel Time (µs)_sum. */
static size_t
op_cols(struct tab *t, const struct pcells *p0, struct buf *b)
{
	const char *pn;
	size_t i, j, ccol;

	tab_col(t, "name");
	for (i = 0, pn = p0->names.p; i < p0->n; i++) {
		buf_reset(b);
		buf_printf(b, "param: %s", pn);
		tab_col(t, b->p);
		pn += strlen(pn) + 1;
	}
	tab_col(t, "GFLOPS_first");
	tab_col(t, "Data Moved (MB)_first");
	tab_col(t, "FLOPS/Byte_first");
	for (j = 0; j < 2; j++)
		for (i = 0; i < 5; i++) {
			buf_reset(b);
			buf_printf(b, "%s_%s", j ? "TFLOPS/s" : "TB/s", st5[i]);
			tab_col(t, b->p);
		}
	tab_col(t, "process_name_first");
	tab_col(t, "process_label_first");
	tab_col(t, "thread_name_first");
	tab_col(t, "kernel_details__summarize_kernel_stats");
	tab_col(t, "Input Dims_first");
	tab_col(t, "Input type_first");
	for (i = 0; i < 5; i++) {
		buf_reset(b);
		buf_printf(b, "Kernel Time (\u00b5s)_%s", st5[i]);
		tab_col(t, b->p);
	}
	ccol = tab_col(t, "Kernel Time (\u00b5s)_sum");
	tab_col(t, "name_count");
	tab_col(t, "UID_first");
	return ccol;
}

/* Row r of an op_* sheet of np params: group g, its first kernel's figures and params
 * (pc), the throughputs' and durations' statistics. */
static void
op_row(const struct jx *jx, struct tab *t, size_t r, const struct ogrp *g,
    const struct pcells *pc, size_t np, struct buf *b)
{
	const struct kev *e = &g->first;
	const struct pcells *pf = &pc[e->params];
	const struct vec *d = &g->d;
	double tbv[5], tfv[5], kt[6];
	size_t i, j, c;

	tab_row(t);
	tab_set_str(t, r, 0, S(jx, e->name));
	for (j = 0; j < np && j < pf->n; j++)
		tab_set_str(t, r, 1 + j, pf->v[j]);
	c = 1 + np;
	tab_set_num(t, r, c++, e->flops / 1e9);
	tab_set_num(t, r, c++, e->bytes / (1024.0 * 1024.0));
	tab_set_num(t, r, c++, e->flops / e->bytes);
	tbv[0] = stat_mean(&g->tb); tbv[1] = stat_median(&g->tb);
	tbv[2] = stat_std(&g->tb, 1); tbv[3] = stat_min(&g->tb); tbv[4] = stat_max(&g->tb);
	tfv[0] = stat_mean(&g->tf); tfv[1] = stat_median(&g->tf);
	tfv[2] = stat_std(&g->tf, 1); tfv[3] = stat_min(&g->tf); tfv[4] = stat_max(&g->tf);
	for (i = 0; i < 5; i++)
		tab_set_num(t, r, c++, tbv[i]);
	for (i = 0; i < 5; i++)
		tab_set_num(t, r, c++, tfv[i]);
	tab_set_str(t, r, c++, "Unknown");
	tab_set_str(t, r, c++, "Unknown");
	tab_set_str(t, r, c++, S(jx, e->stream));
	buf_reset(b);
	buf_adds(b, "[{'name': ");
	py_str(b, S(jx, e->name), strlen(S(jx, e->name)));
	buf_adds(b, ", ");
	kstats(b, d);
	buf_adds(b, "}]");
	tab_set_str(t, r, c++, b->p);
	tab_set_str(t, r, c++, S(jx, e->dims));
	tab_set_str(t, r, c++, S(jx, e->types));
	kt[0] = stat_mean(d); kt[1] = stat_median(d); kt[2] = stat_std(d, 1);
	kt[3] = stat_min(d); kt[4] = stat_max(d); kt[5] = stat_sum(d);
	for (i = 0; i < 6; i++)
		tab_set_num(t, r, c++, kt[i]);
	tab_set_int(t, r, c++, (long long)d->n);
	tab_set_int(t, r, c++, e->uid);
}

/* TraceLens drops the per-kernel columns that are NaN for every kernel before it
 * summarises: the families whose _first or _mean column is empty in every row, and
 * params that are None everywhere. t without them (t is freed). */
static struct tab *
op_drop_empty(struct tab *t, struct buf *b)
{
	const char **keep = xreallocarray(NULL, t->ncols + 1, sizeof(*keep));
	size_t nk = 0, fc, c, r;
	struct tab *p;

	for (c = 0; c < t->ncols; c++) {
		const char *cn = t->cols[c], *us = strrchr(cn, '_');
		bool drop = true;

		fc = c;
		if (strncmp(cn, "param: ", 7) == 0) {
			for (r = 0; r < t->nrows && drop; r++)
				drop = strcmp(tab_str(t, r, c), "None") == 0;
		} else if (us != NULL && (strncmp(cn, "TB/s_", 5) == 0 ||
		    strncmp(cn, "TFLOPS/s_", 9) == 0 || strcmp(us, "_first") == 0)) {
			buf_reset(b);
			buf_add(b, cn, (size_t)(us - cn));
			buf_adds(b, strcmp(us, "_first") == 0 ? "_first" : "_mean");
			fc = tab_find(t, b->p);
			for (r = 0; r < t->nrows && drop; r++)
				drop = tab_cell(t, r, fc)->kind == TAB_NONE;
		} else
			drop = false;
		if (!drop || t->nrows == 0)
			keep[nk++] = cn;
	}
	keep[nk] = NULL;
	p = tab_project(t, t->name, keep);
	free(keep);
	tab_free(t);
	return p;
}

/* The op_* sheet of category cat: one row per kernel name and params, by total time. */
static struct tab *
sheet_op(const struct jx *jx, struct osheet *os, struct pcells *pc, const char *cat)
{
	struct tab *t;
	struct buf b = BUF_INIT;
	size_t i, r, ccol;

	buf_printf(&b, "op_");
	for (i = 0; cat[i]; i++)
		buf_addc(&b, cat[i] == ' ' ? '_' : (char)tolower((unsigned char)cat[i]));
	t = tab_new(b.p);
	ccol = op_cols(t, &pc[os->params], &b);
	for (r = 0; r < os->keys.n; r++)
		op_row(jx, t, r, &os->g[r], pc, pc[os->params].n, &b);
	{
		struct tab_key keys[2] = { { ccol, 1 }, { tab_find(t, "UID_first"), 0 } };

		tab_sort(t, keys, 2);
	}
	t = op_drop_empty(t, &b);
	buf_free(&b);
	return t;
}

/* --- the report ---------------------------------------------------------------------- */

#define NCAT 7	/* jax_categories' */

size_t
jx_sheets_each(struct jx *jx, jx_sheet_fn fn, void *ctx, struct error *err)
{
	struct emit em = { fn, ctx, 0 };
	struct lsheet kl, xl;
	struct sgroups sk, sx, sc;
	struct ugroups ug;
	struct osheet os[NCAT];
	struct pcells *pc = NULL;
	size_t npc = 0, i, nx = 0;
	struct tab *tl, *avg, *t;
	struct spool *xs;
	const struct kev *e;
	struct buf b = BUF_INIT;
	uint64_t off;
	uint32_t uncat;

	if (jx->n == 0) {
		error_set(err, NULL, 0, 0, jx->tpu ?
		    "no GPU in this profile: it is a TPU profile; TraceLens's JAX report "
		    "covers GPU kernels only (the TPU's XLA ops are ttp-parse's op records)" :
		    "no GPU kernels in this profile (no /device:GPU stream events)");
		return 0;
	}
	sheets_timeline(jx, &tl, &avg);
	emit_one(&em, tl);
	emit_one(&em, avg);
	/* one pass over the kernels in UID order: kernel_launchers written as it goes,
	 * the groups of the other sheets folded, the uncategorised kernels spooled for
	 * df_xla_perf */
	memset(&kl, 0, sizeof(kl));
	memset(&xl, 0, sizeof(xl));
	kl.name = "kernel_launchers";
	xl.name = "df_xla_perf";
	xl.xla = 1;
	sg_init(&sk);
	sg_init(&sx);
	sg_init(&sc);
	memset(&ug, 0, sizeof(ug));
	names_init(&ug.keys);
	memset(os, 0, sizeof(os));
	xs = spool_open();
	uncat = names_lookup(&jx->s, "Uncategorized Events/XLA", 24);
	while ((e = spsort_next(jx->ks)) != NULL) {
		ls_add(jx, &kl, e, &em);
		sg_add(jx, &sk, e, 0, &b);
		cat_add(jx, &sc, e);
		ug_add(&ug, e, &b);
		if (e->cat == uncat) {
			sg_add(jx, &sx, e, 1, &b);
			spool_add(xs, (const char *)e, sizeof(*e));
			nx++;
		}
		if (e->perf)
			for (i = 0; i < NCAT; i++)
				if (strcmp(S(jx, e->cat), jax_categories[i]) == 0)
					op_add(jx, &os[i], e, pcells_of(jx, &pc, &npc, e->params),
					    &b);
	}
	ls_end(&kl, &em);
	emit_one(&em, sheet_summary(&sk, "kernel_launchers_summary"));
	emit_one(&em, sheet_by_category(&sc));
	emit_one(&em, sheet_unique_args(jx, &ug));
	for (i = 0, off = 0; i < nx; i++, off += sizeof(struct kev)) {
		struct kev k;

		memcpy(&k, spool_get(xs, off, sizeof(k)), sizeof(k));
		ls_add(jx, &xl, &k, &em);
	}
	ls_end(&xl, &em);
	spool_close(xs);
	emit_one(&em, sheet_summary(&sx, "xla_summary"));
	if (jx->nk == 0)
		note("no GPU kernels in this profile: the kernel sheets are empty (TraceLens "
		    "fails there)");
	else if (nx == 0)
		note("no uncategorised kernels: df_xla_perf and xla_summary are empty "
		    "(TraceLens fails there)");
	for (i = 0; i < NCAT; i++)
		if (os[i].any && (t = sheet_op(jx, &os[i], pc, jax_categories[i])) != NULL)
			emit_one(&em, t);
	for (i = 0; i < NCAT; i++)
		os_free(&os[i]);
	pcells_free(pc, npc);
	for (i = 0; i < ug.keys.n; i++)
		vec_free(&ug.g[i].d);
	free(ug.g);
	names_free(&ug.keys);
	sg_free(&sk);
	sg_free(&sx);
	sg_free(&sc);
	buf_free(&b);
	return em.n;
}

/* Every sheet whole, its parts joined. */
struct collect {
	struct tab	**s;
	size_t		  n;
};

static void
tab_append(struct tab *dst, const struct tab *src)
{
	size_t i, j, r;

	for (i = 0; i < src->nrows; i++) {
		r = tab_row(dst);
		for (j = 0; j < src->ncols; j++) {
			const struct tab_cell *c = tab_cell(src, i, j);

			switch (c->kind) {
			case TAB_INT:
				tab_set_int(dst, r, j, c->v.i);
				break;
			case TAB_NUM:
				tab_set_num(dst, r, j, c->v.d);
				break;
			case TAB_STR:
				tab_set_str(dst, r, j, tab_str(src, i, j));
				break;
			case TAB_BOOL:
				tab_set_bool(dst, r, j, (int)c->v.i);
				break;
			default:
				break;
			}
		}
	}
}

static void
collect(struct tab *t, unsigned flags, void *ctx)
{
	struct collect *c = ctx;

	if (flags & JX_FIRST) {
		c->s = xreallocarray(c->s, c->n + 1, sizeof(*c->s));
		c->s[c->n++] = t;
		return;
	}
	tab_append(c->s[c->n - 1], t);
	tab_free(t);
}

size_t
jx_sheets(struct jx *jx, struct tab ***out, struct error *err)
{
	struct collect c = { NULL, 0 };

	(void)jx_sheets_each(jx, collect, &c, err);
	*out = c.s;
	return c.n;
}

void
jx_sheets_free(struct tab **s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		tab_free(s[i]);
	free(s);
}
