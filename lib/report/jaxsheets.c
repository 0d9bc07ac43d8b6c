/* SPDX-License-Identifier: ISC */
/* jaxsheets: TraceLens's JAX report from xplane.pb records (report/jaxsheets.h). */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"
#include "core/rec.h"
#include "jax/jaxtl.h"
#include "report/jaxsheets.h"
#include "report/pyrepr.h"
#include "report/interval.h"
#include "report/tab.h"

enum { CLS_COMP, CLS_COMM, CLS_MEMCPY };

struct jev {
	uint32_t	name, stream, cat, kd, dims, types, conc, params;
	long long	uid, pid, tid, inbytes;
	double		ts, dur, lat;
	double		flops, bytes;
	bool		kernel, perf;
	int		cls;
};

struct jx {
	struct names	 s;
	struct jev	*e;
	size_t		 n, cap, nrec, nfailed;
	char		*failed;	/* the first model failure's message */
	bool		 tpu;		/* the profile has TPU planes */
};

#define S(jx, i) names_str(&(jx)->s, (i))

struct jx *
jx_new(void)
{
	struct jx *jx = xcalloc(1, sizeof(*jx));

	names_init(&jx->s);
	return jx;
}

void
jx_free(struct jx *jx)
{
	if (jx == NULL)
		return;
	names_free(&jx->s);
	free(jx->e);
	free(jx->failed);
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

/* §5's total_input_bytes of the operand texts. */
static long long
input_bytes(const struct jax_tl *v)
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

		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (p == t || *p != '[')
			continue;
		for (p++; isdigit((unsigned char)*p) || *p == ','; p++)
			if (isdigit((unsigned char)*p) && (p[-1] == '[' || p[-1] == ',')) {
				prod *= strtoll(p, NULL, 10);
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
		total += prod * bpe;
	}
	return total;
}

static void
add_gpu(struct jx *jx, struct rec *r)
{
	struct jev *e;
	struct jax_tl v;
	const char *name = rec_str(r, "name", NULL), *g = rec_str(r, "gpu", NULL);
	const char *cls = rec_str(r, "class", NULL), *s;
	struct buf b = BUF_INIT;
	bool ok, ok2;
	double t, lt;
	long long ps;
	size_t i, nin;

	jx->e = xgrow(jx->e, &jx->cap, jx->n + 1, sizeof(*jx->e));
	e = &jx->e[jx->n];
	memset(e, 0, sizeof(*e));
	if (name == NULL)
		name = "";
	e->name = intern(jx, name);
	(void)rec_int(r, "uid", &e->uid);
	(void)rec_int(r, "pid", &e->pid);
	(void)rec_int(r, "tid", &e->tid);
	s = rec_str(r, "stream", NULL);
	e->stream = intern(jx, s ? s : "");
	e->ts = us_of(r, "start_ps", "start_ns", &ok);
	if (rec_int(r, "ps", &ps))
		e->dur = (double)(ps > 0 ? ps : 1) / 1e6;
	else if (rec_int(r, "ns", &ps))
		e->dur = (double)(ps > 0 ? (__int128)ps * 1000 : 1) / 1e6;
	lt = us_of(r, "launch_start_ps", "launch_start_ns", &ok2);
	e->lat = ok && ok2 ? e->ts - lt : NAN;
	e->kernel = g != NULL && strcmp(g, "kernel") == 0;
	e->cls = cls == NULL ? CLS_COMP : strcmp(cls, "memcpy") == 0 ? CLS_MEMCPY :
	    strcmp(cls, "comm") == 0 ? CLS_COMM : CLS_COMP;
	(void)t;
	if (!e->kernel || rec_bad(r) != NULL) {
		if (rec_bad(r) == NULL)
			jx->n++;
		return;
	}
	jax_tl_read(r, &v);
	e->cat = intern(jx, v.category);
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
	e->kd = intern(jx, b.p);
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
	e->dims = intern(jx, b.p);
	buf_reset(&b);
	buf_addc(&b, '(');
	for (i = 0; i < nin; i++) {
		if (i)
			buf_adds(&b, ", ");
		py_str(&b, v.in[i].dtype, strlen(v.in[i].dtype));
	}
	py_tuple_end(&b, nin);
	e->types = intern(jx, b.p);
	buf_reset(&b);
	if (strncmp(v.model, "jax_te_fused_attn", 17) == 0 && v.nin > 3) {
		buf_addc(&b, '(');
		py_dims(&b, v.in[3].d, v.in[3].nd);
		buf_adds(&b, ",)");
	} else
		buf_adds(&b, "()");
	e->conc = intern(jx, b.p);
	e->inbytes = v.meta ? input_bytes(&v) : 0;
	/* the perf model's figures, from ttp-roofline */
	if ((s = rec_str(r, "perf_model", NULL)) != NULL && strcmp(s, "rest") != 0) {
		const char *raw;
		size_t len;

		if ((raw = rec_raw(r, "params", &len)) != NULL && rec_num(r, "flops", &e->flops)) {
			e->perf = true;
			if (!rec_num(r, "bytes", &e->bytes))
				e->bytes = NAN;
			buf_reset(&b);
			buf_add(&b, raw, len);
			e->params = intern(jx, b.p);
		}
	}
	jax_tl_free(&v);
	buf_free(&b);
	if (rec_bad(r) == NULL)
		jx->n++;
}

int
jx_add(struct jx *jx, struct rec *r)
{
	const char *tr = rec_str(r, "trace", NULL), *kind = rec_str(r, "kind", NULL);

	if (tr == NULL || strcmp(tr, "xplane") != 0)
		return 0;
	jx->nrec++;
	if (kind != NULL && strcmp(kind, "gpu") == 0)
		add_gpu(jx, r);
	else if (kind != NULL && strcmp(kind, "trace") == 0) {
		struct rec_elems e;

		if (rec_elems(r, "devices", &e))
			while (rec_elem_next(&e)) {
				const char *t = rec_elem_str(&e, "type", NULL);

				if (t != NULL && strcmp(t, "TPU") == 0)
					jx->tpu = true;
			}
	}
	return 1;
}

/* --- gpu_timeline (§2) -------------------------------------------------------------- */

/* The eight figures of one pid, in µs, in the sheet's order. */
static void
timeline(const struct jx *jx, long long pid, double f[8])
{
	struct iv *v[4], *tmp, *tmp2;
	size_t n[4] = { 0, 0, 0, 0 }, i, nt, nt2, cap = jx->n + 1;

	for (i = 0; i < 4; i++)
		v[i] = xreallocarray(NULL, cap, sizeof(struct iv));
	for (i = 0; i < jx->n; i++) {
		const struct jev *e = &jx->e[i];
		struct iv x = { e->ts, e->ts + e->dur };

		if (e->pid != pid)
			continue;
		v[e->cls][n[e->cls]++] = x;
		v[3][n[3]++] = x;
	}
	for (i = 0; i < 4; i++)
		n[i] = iv_merge(v[i], n[i]);
	tmp = xreallocarray(NULL, cap * 2, sizeof(*tmp));
	tmp2 = xreallocarray(NULL, cap * 2, sizeof(*tmp2));
	f[0] = iv_len(v[CLS_COMP], n[CLS_COMP]);
	nt = iv_sub(v[CLS_COMM], n[CLS_COMM], v[CLS_COMP], n[CLS_COMP], tmp);
	f[1] = iv_len(tmp, nt);
	nt = iv_sub(v[CLS_MEMCPY], n[CLS_MEMCPY], v[CLS_COMP], n[CLS_COMP], tmp);
	nt2 = iv_sub(tmp, nt, v[CLS_COMM], n[CLS_COMM], tmp2);
	f[2] = iv_len(tmp2, nt2);
	f[3] = iv_len(v[3], n[3]);
	f[5] = n[3] ? v[3][n[3] - 1].e - v[3][0].s : 0;
	f[4] = f[5] - f[3];
	f[6] = iv_len(v[CLS_COMM], n[CLS_COMM]);
	f[7] = iv_len(v[CLS_MEMCPY], n[CLS_MEMCPY]);
	for (i = 0; i < 4; i++)
		free(v[i]);
	free(tmp);
	free(tmp2);
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
	long long *pids = xreallocarray(NULL, jx->n + 1, sizeof(*pids));
	long long *ord = xreallocarray(NULL, jx->n + 1, sizeof(*ord));
	double f[8], sum[8] = { 0 };
	size_t i, j, np;
	struct tab *t = tab_new("gpu_timeline"), *a = tab_new("gpu_events_averages");

	for (i = 0; i < jx->n; i++)
		pids[i] = jx->e[i].pid;
	np = set_order(pids, jx->n, ord);
	tab_col(t, "type");
	tab_col(t, "time ms");
	tab_col(t, "percent");
	tab_col(t, "gpu_pid");
	for (i = 0; i < np; i++) {
		timeline(jx, ord[i], f);
		for (j = 0; j < 8; j++) {
			row3(t, tl_rows[j], f[j], f[5]);
			tab_set_int(t, t->nrows - 1, 3, ord[i]);
			sum[j] += f[j];
		}
	}
	tab_col(a, "type");
	tab_col(a, "time ms");
	tab_col(a, "percent");
	for (j = 0; j < 8 && np > 0; j++)
		row3(a, tl_rows[j], sum[j] / (double)np, sum[5] / (double)np);
	free(pids);
	free(ord);
	*tl = t;
	*avg = a;
}

/* --- kernel_launchers and what is made of it (§3-§5) ------------------------------- */

static int
uid_cmp(const void *a, const void *b)
{
	const struct jev *const *x = a, *const *y = b;

	return ((*x)->uid > (*y)->uid) - ((*x)->uid < (*y)->uid);
}

static void
kd_cell(const struct jx *jx, const struct jev *e, struct buf *b)
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

static struct tab *
sheet_launchers(const struct jx *jx, struct jev **k, size_t n, const char *name, int xla)
{
	struct tab *t = tab_new(name);
	static const char *const cols[] = { "name", "UID", "op category",
	    "total_direct_kernel_time", "total_subtree_kernel_time", "direct_kernel_count",
	    "pid", "tid", "Input Dims", "Input type", "Input Strides", "Concrete Inputs",
	    "kernel_details", "GPU_kernel_launch_latency", "total_input_bytes" };
	struct buf b = BUF_INIT;
	size_t i, r, nc = xla ? 15 : 14;

	for (i = 0; i < nc; i++)
		tab_col(t, cols[i]);
	for (i = 0; i < n; i++) {
		const struct jev *e = k[i];

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
		kd_cell(jx, e, &b);
		tab_set_str(t, r, 12, b.p);
		tab_set_num(t, r, 13, e->lat);
		if (xla)
			tab_set_int(t, r, 14, e->inbytes);
	}
	buf_free(&b);
	return t;
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* qsort's comparison of kernel indexes by sort_names, then index (stable) */
static char **sort_names;

static int
idx_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_names[x], sort_names[y]);

	return c != 0 ? c : (x > y) - (x < y);
}

/* The number of distinct pids (a few, in runs: checked against the last one first). */
static size_t
npids(struct jev **k, size_t n)
{
	long long *seen = NULL;
	size_t i, j, c = 0, cap = 0;

	for (i = 0; i < n; i++) {
		if (c > 0 && seen[c - 1] == k[i]->pid)
			continue;
		for (j = 0; j < c && seen[j] != k[i]->pid; j++)
			;
		if (j == c) {
			seen = xgrow(seen, &cap, c + 1, sizeof(*seen));
			seen[c++] = k[i]->pid;
		}
	}
	free(seen);
	return c;
}

/* kernel_launchers_summary (§4), xla_summary with the digits taken out of the names */
static struct tab *
sheet_summary(const struct jx *jx, struct jev **k, size_t n, const char *sname,
    int strip)
{
	struct tab *t = tab_new(sname);
	char **names = xreallocarray(NULL, n + 1, sizeof(*names));
	size_t i, j, ng = 0, r, gpus = npids(k, n);
	struct buf b = BUF_INIT;

	for (i = 0; i < n; i++) {
		const char *s = S(jx, k[i]->name);
		char *c = xstrdup(s), *o = c;

		for (; *s; s++)
			if (!strip || !isdigit((unsigned char)*s))
				*o++ = *s;
		*o = '\0';
		names[i] = c;
	}
	tab_col(t, "name");
	tab_col(t, "total_direct_kernel_time_sum");
	tab_col(t, "total_subtree_kernel_time_sum");
	tab_col(t, "total_direct_kernel_time_ms");
	tab_col(t, "total_subtree_kernel_time_ms");
	tab_col(t, "Count");
	tab_col(t, "Categories");
	{
		/* the kernels by name, each name's in their order: one pass per name */
		size_t *u = xreallocarray(NULL, n + 1, sizeof(*u)), e, x;

		for (i = 0; i < n; i++)
			u[i] = i;
		sort_names = names;
		qsort(u, n, sizeof(*u), idx_cmp);
		for (i = 0; i < n; i = e) {
			struct vec v = VEC_INIT;
			const char *cs[8];
			size_t nc = 0, c;

			for (e = i + 1; e < n && strcmp(names[u[e]], names[u[i]]) == 0; e++)
				;
			for (x = i; x < e; x++) {
				j = u[x];
				vec_add(&v, k[j]->dur);
				for (c = 0; c < nc && strcmp(cs[c], S(jx, k[j]->cat)) != 0; c++)
					;
				if (c == nc && nc < 8)
					cs[nc++] = S(jx, k[j]->cat);
			}
			qsort(cs, nc, sizeof(*cs), str_cmp);
			buf_reset(&b);
			buf_addc(&b, '[');
			for (c = 0; c < nc; c++) {
				if (c)
					buf_adds(&b, ", ");
				py_str(&b, cs[c], strlen(cs[c]));
			}
			buf_addc(&b, ']');
			r = tab_row(t);
			tab_set_str(t, r, 0, names[u[i]]);
			tab_set_num(t, r, 1, stat_sum(&v));
			tab_set_num(t, r, 2, stat_sum(&v));
			tab_set_num(t, r, 3, stat_sum(&v) / 1000);
			tab_set_num(t, r, 4, stat_sum(&v) / 1000);
			tab_set_int(t, r, 5, (long long)v.n);
			tab_set_str(t, r, 6, b.p);
			vec_free(&v);
			ng++;
		}
		free(u);
	}
	tab_sort_pandas(t, 1, 1);
	tab_percentages(t, 3);
	j = tab_col(t, "time ms per gpu");
	for (r = 0; r < t->nrows; r++)
		tab_set_num(t, r, j, tab_num(t, r, 3) / (double)(gpus ? gpus : 1));
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	buf_free(&b);
	(void)ng;
	return t;
}

static struct tab *
sheet_by_category(const struct jx *jx, struct jev **k, size_t n)
{
	struct tab *t = tab_new("kernel_launchers_summary_by_category");
	struct tab_groups g;
	size_t i, r, gpus = npids(k, n), c;

	tab_groups_init(&g);
	for (i = 0; i < n; i++) {
		const char *s = S(jx, k[i]->cat);

		tab_groups_add(&g, s, strlen(s), i, k[i]->dur);
	}
	tab_col(t, "op category");
	tab_col(t, "Count");
	tab_col(t, "total_direct_kernel_time_ms");
	c = tab_col(t, "sum");
	/* pandas groups sorted by key, then sorted by the sum (quicksort) */
	{
		const char **keys = xreallocarray(NULL, g.n + 1, sizeof(*keys));

		for (i = 0; i < g.n; i++)
			keys[i] = names_str(&g.keys, (uint32_t)i);
		qsort(keys, g.n, sizeof(*keys), str_cmp);
		for (i = 0; i < g.n; i++) {
			uint32_t gi = names_lookup(&g.keys, keys[i], strlen(keys[i]));

			r = tab_row(t);
			tab_set_str(t, r, 0, keys[i]);
			tab_set_int(t, r, 1, (long long)g.vals[gi].n);
			tab_set_num(t, r, 2, stat_sum(&g.vals[gi]) / 1000);
			tab_set_num(t, r, c, stat_sum(&g.vals[gi]));
		}
		free(keys);
	}
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
	tab_groups_free(&g);
	return t;
}

/* The kernel-stats dict of a group's durations (T§7.3), after its head. */
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

static struct tab *
sheet_unique_args(const struct jx *jx, struct jev **k, size_t n)
{
	struct tab *t = tab_new("kernel_launchers_unique_args");
	static const char *const st[6] = { "mean", "median", "std", "min", "max", "sum" };
	static const char *const kc[6] = { "name", "op category", "Input Dims", "Input type",
	    "Input Strides", "Concrete Inputs" };
	struct tab_groups g;
	struct buf key = BUF_INIT, b = BUF_INIT;
	size_t i, j, r, c, cuid, csum;

	tab_groups_init(&g);
	for (i = 0; i < n; i++) {
		buf_reset(&key);
		buf_printf(&key, "%s\x1f%s\x1f%s\x1f%s\x1f%s", S(jx, k[i]->name),
		    S(jx, k[i]->cat), S(jx, k[i]->dims), S(jx, k[i]->types), S(jx, k[i]->conc));
		tab_groups_add(&g, key.p, key.len, i, k[i]->dur);
	}
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
	for (i = 0; i < g.n; i++) {
		const struct jev *e = k[g.first[i]];
		const struct vec *v = &g.vals[i];
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
	tab_groups_free(&g);
	buf_free(&key);
	buf_free(&b);
	return t;
}

/* --- op_<category> (§6) ------------------------------------------------------------- */

struct prow {
	const struct jev *e;
	double		  tflops, tbps;
};

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

static int
prow_cmp_key(const void *a, const void *b)
{
	(void)a;
	(void)b;
	return 0;
}

static struct tab *
sheet_op(const struct jx *jx, struct jev **k, size_t n, const char *cat)
{
	static const char *const st5[5] = { "mean", "median", "std", "min", "max" };
	struct tab *t;
	struct buf b = BUF_INIT, pn = BUF_INIT;
	struct tab_groups g;
	char ***pv;
	size_t *npv, i, j, r, c, np = 0, nrows = 0, ccol;
	const struct jev **rows = xreallocarray(NULL, n + 1, sizeof(*rows));
	char *pnames = NULL;
	size_t pnlen = 0;

	for (i = 0; i < n; i++)
		if (k[i]->perf && strcmp(S(jx, k[i]->cat), cat) == 0)
			rows[nrows++] = k[i];
	if (nrows == 0) {
		free(rows);
		return NULL;
	}
	(void)prow_cmp_key;
	pv = xcalloc(nrows, sizeof(*pv));
	npv = xcalloc(nrows, sizeof(*npv));
	for (i = 0; i < nrows; i++) {
		param_cells(S(jx, rows[i]->params), &pn, &pv[i], &npv[i]);
		if (i == 0) {
			pnames = xreallocarray(NULL, pn.len + 1, 1);
			memcpy(pnames, pn.p, pn.len);
			pnlen = pn.len;
			np = npv[0];
		}
	}
	buf_reset(&b);
	buf_printf(&b, "op_");
	for (i = 0; cat[i]; i++)
		buf_addc(&b, cat[i] == ' ' ? '_' : (char)tolower((unsigned char)cat[i]));
	t = tab_new(b.p);
	tab_col(t, "name");
	for (i = 0, j = 0; i < np; i++) {
		buf_reset(&b);
		buf_printf(&b, "param: %s", pnames + j);
		tab_col(t, b.p);
		j += strlen(pnames + j) + 1;
	}
	(void)pnlen;
	tab_groups_init(&g);
	for (i = 0; i < nrows; i++) {
		buf_reset(&b);
		buf_adds(&b, S(jx, rows[i]->name));
		for (j = 0; j < npv[i]; j++) {
			buf_addc(&b, '\x1f');
			buf_adds(&b, pv[i][j]);
		}
		tab_groups_add(&g, b.p, b.len, i, rows[i]->dur);
	}
	tab_col(t, "GFLOPS_first");
	tab_col(t, "Data Moved (MB)_first");
	tab_col(t, "FLOPS/Byte_first");
	for (j = 0; j < 2; j++)
		for (i = 0; i < 5; i++) {
			buf_reset(&b);
			buf_printf(&b, "%s_%s", j ? "TFLOPS/s" : "TB/s", st5[i]);
			tab_col(t, b.p);
		}
	tab_col(t, "process_name_first");
	tab_col(t, "process_label_first");
	tab_col(t, "thread_name_first");
	tab_col(t, "kernel_details__summarize_kernel_stats");
	tab_col(t, "Input Dims_first");
	tab_col(t, "Input type_first");
	for (i = 0; i < 5; i++) {
		buf_reset(&b);
		buf_printf(&b, "Kernel Time (\u00b5s)_%s", st5[i]);
		tab_col(t, b.p);
	}
	ccol = tab_col(t, "Kernel Time (\u00b5s)_sum");
	tab_col(t, "name_count");
	tab_col(t, "UID_first");
	for (r = 0; r < g.n; r++) {
		const struct jev *e = rows[g.first[r]];
		struct vec tb = VEC_INIT, tf = VEC_INIT;
		const struct vec *d = &g.vals[r];
		long long uid = e->uid;
		double tbv[5], tfv[5], kt[6];

		tab_row(t);
		tab_set_str(t, r, 0, S(jx, e->name));
		for (j = 0; j < np && j < npv[g.first[r]]; j++)
			tab_set_str(t, r, 1 + j, pv[g.first[r]][j]);
		for (i = 0; i < nrows; i++) {
			if (i < g.first[r])
				continue;
			buf_reset(&b);
			buf_adds(&b, S(jx, rows[i]->name));
			for (j = 0; j < npv[i]; j++) {
				buf_addc(&b, '\x1f');
				buf_adds(&b, pv[i][j]);
			}
			if (names_lookup(&g.keys, b.p, b.len) != r)
				continue;
			vec_add(&tb, rows[i]->bytes / 1e12 / (rows[i]->dur / 1e6));
			vec_add(&tf, rows[i]->flops / 1e12 / (rows[i]->dur / 1e6));
			if (rows[i]->uid < uid)
				uid = rows[i]->uid;
		}
		c = 1 + np;
		tab_set_num(t, r, c++, e->flops / 1e9);
		tab_set_num(t, r, c++, e->bytes / (1024.0 * 1024.0));
		tab_set_num(t, r, c++, e->flops / e->bytes);
		tbv[0] = stat_mean(&tb); tbv[1] = stat_median(&tb); tbv[2] = stat_std(&tb, 1);
		tbv[3] = stat_min(&tb); tbv[4] = stat_max(&tb);
		tfv[0] = stat_mean(&tf); tfv[1] = stat_median(&tf); tfv[2] = stat_std(&tf, 1);
		tfv[3] = stat_min(&tf); tfv[4] = stat_max(&tf);
		for (i = 0; i < 5; i++)
			tab_set_num(t, r, c++, tbv[i]);
		for (i = 0; i < 5; i++)
			tab_set_num(t, r, c++, tfv[i]);
		tab_set_str(t, r, c++, "Unknown");
		tab_set_str(t, r, c++, "Unknown");
		tab_set_str(t, r, c++, S(jx, e->stream));
		buf_reset(&b);
		buf_adds(&b, "[{'name': ");
		py_str(&b, S(jx, e->name), strlen(S(jx, e->name)));
		buf_adds(&b, ", ");
		kstats(&b, d);
		buf_adds(&b, "}]");
		tab_set_str(t, r, c++, b.p);
		tab_set_str(t, r, c++, S(jx, e->dims));
		tab_set_str(t, r, c++, S(jx, e->types));
		kt[0] = stat_mean(d); kt[1] = stat_median(d); kt[2] = stat_std(d, 1);
		kt[3] = stat_min(d); kt[4] = stat_max(d); kt[5] = stat_sum(d);
		for (i = 0; i < 6; i++)
			tab_set_num(t, r, c++, kt[i]);
		tab_set_int(t, r, c++, (long long)d->n);
		tab_set_int(t, r, c++, uid);
		vec_free(&tb);
		vec_free(&tf);
	}
	{
		struct tab_key keys[2] = { { ccol, 1 }, { tab_find(t, "UID_first"), 0 } };

		tab_sort(t, keys, 2);
	}
	/* TraceLens drops the per-kernel columns that are NaN for every kernel before it
	 * summarises: the families whose _first or _mean column is empty in every row,
	 * and params that are None everywhere */
	{
		const char **keep = xreallocarray(NULL, t->ncols + 1, sizeof(*keep));
		size_t nk = 0, fc;
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
				buf_reset(&b);
				buf_add(&b, cn, (size_t)(us - cn));
				buf_adds(&b, strcmp(us, "_first") == 0 ? "_first" : "_mean");
				fc = tab_find(t, b.p);
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
		t = p;
	}
	for (i = 0; i < nrows; i++) {
		for (j = 0; j < npv[i]; j++)
			free(pv[i][j]);
		free(pv[i]);
	}
	free(pv);
	free(npv);
	free(pnames);
	free(rows);
	tab_groups_free(&g);
	buf_free(&b);
	buf_free(&pn);
	return t;
}

/* --- the report ---------------------------------------------------------------------- */

static size_t
push(struct tab ***out, size_t n, struct tab *t)
{
	*out = xreallocarray(*out, n + 1, sizeof(**out));
	(*out)[n] = t;
	return n + 1;
}

size_t
jx_sheets(struct jx *jx, struct tab ***out, struct error *err)
{
	struct jev **k, **x;
	size_t nk = 0, nx = 0, n = 0, i;
	struct tab *tl, *avg, *t;

	*out = NULL;
	if (jx->n == 0) {
		error_set(err, NULL, 0, 0, jx->tpu ?
		    "no GPU in this profile: it is a TPU profile; TraceLens's JAX report "
		    "covers GPU kernels only (the TPU's XLA ops are ttp-parse's op records)" :
		    "no GPU kernels in this profile (no /device:GPU stream events)");
		return 0;
	}
	k = xreallocarray(NULL, jx->n, sizeof(*k));
	x = xreallocarray(NULL, jx->n, sizeof(*x));
	for (i = 0; i < jx->n; i++)
		if (jx->e[i].kernel)
			k[nk++] = &jx->e[i];
	qsort(k, nk, sizeof(*k), uid_cmp);
	for (i = 0; i < nk; i++)
		if (strcmp(S(jx, k[i]->cat), "Uncategorized Events/XLA") == 0)
			x[nx++] = k[i];
	sheets_timeline(jx, &tl, &avg);
	n = push(out, n, tl);
	n = push(out, n, avg);
	n = push(out, n, sheet_launchers(jx, k, nk, "kernel_launchers", 0));
	n = push(out, n, sheet_summary(jx, k, nk, "kernel_launchers_summary", 0));
	n = push(out, n, sheet_by_category(jx, k, nk));
	n = push(out, n, sheet_unique_args(jx, k, nk));
	n = push(out, n, sheet_launchers(jx, x, nx, "df_xla_perf", 1));
	n = push(out, n, sheet_summary(jx, x, nx, "xla_summary", 1));
	if (nk == 0)
		note("no GPU kernels in this profile: the kernel sheets are empty (TraceLens "
		    "fails there)");
	else if (nx == 0)
		note("no uncategorised kernels: df_xla_perf and xla_summary are empty "
		    "(TraceLens fails there)");
	for (i = 0; jax_categories[i] != NULL; i++)
		if ((t = sheet_op(jx, k, nk, jax_categories[i])) != NULL)
			n = push(out, n, t);
	free(k);
	free(x);
	return n;
}

void
jx_sheets_free(struct tab **s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		tab_free(s[i]);
	free(s);
}
