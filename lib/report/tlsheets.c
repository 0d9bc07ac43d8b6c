/* SPDX-License-Identifier: ISC */
/* tlsheets: TraceLens's sheets from Kineto records (spec tracelens.md §1.5, §2, §7). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"
#include "core/numfmt.h"
#include "core/rec.h"
#include "report/pyrepr.h"
#include "report/tab.h"
#include "report/tlsheets.h"

#define NONE SIZE_MAX

enum { GPU_KERNEL, GPU_MEMCPY, GPU_MEMSET };
enum { CLS_COMP, CLS_COMM, CLS_MEMCPY };

/* One GPU event. s and e are TraceLens's doubles: ts and ts + dur in µs. */
struct kev {
	uint32_t	name;
	uint8_t		gpu, cls;
	long long	stream, start_ns, ns, by;	/* by: launched_by, -1 when unlinked */
	size_t		op;				/* index of the launching op, or NONE */
	double		s, e, dur;
};

/* One op record (a CPU op or an orphan launch). */
struct top {
	long long	id, parent, hs, he;
	size_t		up;			/* parent index, or NONE */
	uint32_t	name, cat, process, label, thread, spec, sheet, params;
	uint32_t	tdims, ttypes, tstrides, tconc;	/* tuple reprs (ops_unique_args) */
	uint32_t	ldims, ltypes, lstrides, lconc;	/* list reprs (roofline sheets) */
	uint32_t	*pk, *pv;		/* param names and value reprs */
	size_t		 np;
	int		 runtime, model;
	double		 flops, bytes;
	size_t		*ev;			/* own GPU events (all, comm included) */
	size_t		 nev, capev;
	size_t		 kid0, nkid;		/* children in tl->kids */
};

struct tl {
	struct kev	*k;
	size_t		 nk, capk;
	struct top	*op;
	size_t		 nop, capop;
	struct names	 str;
	size_t		*kids;			/* CSR children lists */
	size_t		*byid;			/* op indices sorted by id */
	long long	 maxid;
	int		 linked;		/* ops linked to parents and events */
	uint32_t	 empty;
};

const char *const tl_sheet_names[] = {
	"gpu_timeline", "ops_summary_by_category", "ops_summary", "ops_unique_args",
	"unified_perf_summary", "<family>", "kernel_summary", "short_kernel_histogram",
	"short_kernels_summary", NULL
};

struct tl *
tl_new(void)
{
	struct tl *tl = xcalloc(1, sizeof(*tl));

	names_init(&tl->str);
	tl->empty = names_intern(&tl->str, "", 0);
	tl->maxid = -1;
	return tl;
}

void
tl_free(struct tl *tl)
{
	size_t i;

	if (tl == NULL)
		return;
	for (i = 0; i < tl->nop; i++) {
		free(tl->op[i].pk);
		free(tl->op[i].pv);
		free(tl->op[i].ev);
	}
	free(tl->op);
	free(tl->k);
	free(tl->kids);
	free(tl->byid);
	names_free(&tl->str);
	free(tl);
}

size_t
tl_count(const struct tl *tl)
{
	return tl->nk + tl->nop;
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

static void
add_gpu(struct tl *tl, struct rec *r)
{
	struct kev *k;
	const char *name = rec_str(r, "name", NULL), *g = rec_str(r, "gpu", NULL);
	const char *cls = rec_str(r, "class", NULL);
	long long v;

	if (tl->nk == tl->capk) {
		tl->capk = tl->capk ? 2 * tl->capk : 1024;
		tl->k = xreallocarray(tl->k, tl->capk, sizeof(*tl->k));
	}
	k = &tl->k[tl->nk++];
	memset(k, 0, sizeof(*k));
	k->name = intern(tl, name);
	k->gpu = g == NULL || strcmp(g, "kernel") == 0 ? GPU_KERNEL :
	    strcmp(g, "memcpy") == 0 ? GPU_MEMCPY : GPU_MEMSET;
	if (!rec_int(r, "start_ns", &k->start_ns) || !rec_int(r, "ns", &k->ns))
		die_where(rec_where(r), "gpu record without integer start_ns and ns");
	k->stream = rec_int(r, "stream", &v) ? v : -1;
	k->by = rec_int(r, "launched_by", &v) ? v : -1;
	k->op = NONE;
	if (cls != NULL)
		k->cls = strcmp(cls, "comm") == 0 ? CLS_COMM : strcmp(cls, "memcpy") == 0 ?
		    CLS_MEMCPY : CLS_COMP;
	else if (k->gpu == GPU_MEMCPY || (name && is_copy_kernel(name)))
		k->cls = CLS_MEMCPY;
	else
		k->cls = name && is_comm_name(name) ? CLS_COMM : CLS_COMP;
	k->s = (double)k->start_ns / 1000.0;
	k->dur = (double)k->ns / 1000.0;
	k->e = k->s + k->dur;
}

/* The argument columns of an op from its "in" array: each entry's shape (a list, or a
 * list of lists for a TensorList), dtype, strides and value (Concrete Inputs). */
static void
add_args(struct tl *tl, struct top *o, struct rec *r)
{
	json_t *in = rec_json(r, "in"), *e, *x;
	static const char *const keys[4] = { "shape", "dtype", "strides", "value" };
	uint32_t *tup[4] = { &o->tdims, &o->ttypes, &o->tstrides, &o->tconc };
	uint32_t *lst[4] = { &o->ldims, &o->ltypes, &o->lstrides, &o->lconc };
	struct buf t = BUF_INIT, l = BUF_INIT;
	size_t i, j, n;

	if (in == NULL) {	/* no arguments recorded (a runtime launch): NaN cells */
		for (j = 0; j < 4; j++)
			*tup[j] = *lst[j] = NAME_NONE;
		return;
	}
	n = json_is_array(in) ? json_array_size(in) : 0;
	for (j = 0; j < 4; j++) {
		buf_reset(&t);
		buf_reset(&l);
		buf_addc(&t, '(');
		buf_addc(&l, '[');
		for (i = 0; i < n; i++) {
			e = json_array_get(in, i);
			x = json_is_object(e) ? json_object_get(e, keys[j]) : NULL;
			if (i) {
				buf_adds(&t, ", ");
				buf_adds(&l, ", ");
			}
			if (x == NULL || json_is_null(x)) {
				buf_adds(&t, j == 0 || j == 2 ? "()" : "''");
				buf_adds(&l, j == 0 || j == 2 ? "[]" : "''");
			} else {
				py_json(&t, x, PY_TUPLE);
				py_json(&l, x, 0);
			}
		}
		if (n == 1)
			buf_addc(&t, ',');
		buf_addc(&t, ')');
		buf_addc(&l, ']');
		*tup[j] = intern_buf(tl, &t);
		*lst[j] = intern_buf(tl, &l);
	}
	json_decref(in);
	buf_free(&t);
	buf_free(&l);
}

static void
add_params(struct tl *tl, struct top *o, struct rec *r)
{
	json_t *p = rec_json(r, "params"), *v;
	struct buf b = BUF_INIT;
	const char *k;
	size_t n;

	if (!json_is_object(p)) {
		json_decref(p);
		return;
	}
	n = json_object_size(p);
	o->pk = xreallocarray(NULL, n ? n : 1, sizeof(*o->pk));
	o->pv = xreallocarray(NULL, n ? n : 1, sizeof(*o->pv));
	json_object_foreach(p, k, v) {
		o->pk[o->np] = intern(tl, k);
		buf_reset(&b);
		py_json(&b, v, PY_TUPLE);
		o->pv[o->np++] = intern_buf(tl, &b);
	}
	buf_reset(&b);
	py_json(&b, p, PY_TUPLE);
	o->params = intern_buf(tl, &b);
	o->model = 1;
	json_decref(p);
	buf_free(&b);
}

static int
is_runtime_name(const char *s)
{
	return (strncmp(s, "cuda", 4) == 0 || strncmp(s, "hip", 3) == 0 ||
	    strncmp(s, "cu", 2) == 0) && strcasestr(s, "launch") != NULL;
}

static void
add_op(struct tl *tl, struct rec *r)
{
	struct top *o;
	const char *cat = rec_str(r, "cat", NULL), *name = rec_str(r, "op", NULL);
	long long v;

	if (tl->nop == tl->capop) {
		tl->capop = tl->capop ? 2 * tl->capop : 1024;
		tl->op = xreallocarray(tl->op, tl->capop, sizeof(*tl->op));
	}
	o = &tl->op[tl->nop++];
	memset(o, 0, sizeof(*o));
	if (!rec_int(r, "id", &o->id))
		die_where(rec_where(r), "op record without an integer id");
	if (o->id > tl->maxid)
		tl->maxid = o->id;
	o->parent = rec_int(r, "parent", &v) ? v : -1;
	o->up = NONE;
	o->hs = rec_int(r, "host_start_ns", &v) ? v : 0;
	o->he = rec_int(r, "host_end_ns", &v) ? v : o->hs;
	o->name = intern(tl, name);
	o->runtime = cat ? strcmp(cat, "cpu_op") != 0 : name != NULL && is_runtime_name(name);
	o->cat = rec_str(r, "category", NULL) ? intern(tl, rec_str(r, "category", NULL)) : NAME_NONE;
	o->process = intern(tl, rec_str(r, "process", NULL) ? rec_str(r, "process", NULL) : "Unknown");
	o->label = intern(tl, rec_str(r, "process_label", NULL) ? rec_str(r, "process_label", NULL) : "Unknown");
	o->thread = intern(tl, rec_str(r, "thread", NULL) ? rec_str(r, "thread", NULL) : "Unknown");
	o->spec = rec_str(r, "compute_spec", NULL) ? intern(tl, rec_str(r, "compute_spec", NULL)) : NAME_NONE;
	o->sheet = rec_str(r, "sheet", NULL) ? intern(tl, rec_str(r, "sheet", NULL)) : NAME_NONE;
	o->params = NAME_NONE;
	o->flops = rec_num(r, "flops", &o->flops) ? o->flops : NAN;
	o->bytes = rec_num(r, "bytes", &o->bytes) ? o->bytes : NAN;
	add_args(tl, o, r);
	add_params(tl, o, r);
	if (!isnan(o->flops))
		o->model = 1;
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
	return 1;
}

/* --- linking ------------------------------------------------------------------------ */

static struct tl *cmp_tl;

static int
byid_cmp(const void *a, const void *b)
{
	long long x = cmp_tl->op[*(const size_t *)a].id, y = cmp_tl->op[*(const size_t *)b].id;

	return (x > y) - (x < y);
}

static size_t
find_op(const struct tl *tl, long long id)
{
	size_t lo = 0, hi = tl->nop;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		long long m = tl->op[tl->byid[mid]].id;

		if (m == id)
			return tl->byid[mid];
		if (m < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NONE;
}

static void
tl_link(struct tl *tl)
{
	size_t i, *cnt;

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
			tl->op[i].up = find_op(tl, tl->op[i].parent);
	/* children, in input order */
	cnt = xcalloc(tl->nop + 1, sizeof(*cnt));
	for (i = 0; i < tl->nop; i++)
		if (tl->op[i].up != NONE)
			tl->op[tl->op[i].up].nkid++;
	for (i = 0; i < tl->nop; i++) {
		tl->op[i].kid0 = i ? tl->op[i - 1].kid0 + tl->op[i - 1].nkid : 0;
	}
	tl->kids = xreallocarray(NULL, tl->nop ? tl->nop : 1, sizeof(*tl->kids));
	for (i = 0; i < tl->nop; i++) {
		size_t u = tl->op[i].up;

		if (u != NONE)
			tl->kids[tl->op[u].kid0 + cnt[u]++] = i;
	}
	free(cnt);
	for (i = 0; i < tl->nk; i++) {
		struct kev *k = &tl->k[i];
		struct top *o;

		if (k->by < 0 || (k->op = find_op(tl, k->by)) == NONE) {
			k->by = -1;
			continue;
		}
		o = &tl->op[k->op];
		if (o->nev == o->capev) {
			o->capev = o->capev ? 2 * o->capev : 4;
			o->ev = xreallocarray(o->ev, o->capev, sizeof(*o->ev));
		}
		o->ev[o->nev++] = i;
	}
}

/* --- intervals ---------------------------------------------------------------------- */

struct iv {
	double	s, e;
};

static int
iv_cmp(const void *a, const void *b)
{
	const struct iv *x = a, *y = b;

	return (x->s > y->s) - (x->s < y->s);
}

/* Sort and merge in place (touching intervals merge); returns the new count. */
static size_t
iv_merge(struct iv *v, size_t n)
{
	size_t i, m = 0;

	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), iv_cmp);
	for (i = 1; i < n; i++) {
		if (v[i].s <= v[m].e) {
			if (v[i].e > v[m].e)
				v[m].e = v[i].e;
		} else
			v[++m] = v[i];
	}
	return m + 1;
}

static double
iv_len(const struct iv *v, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i].e - v[i].s;
	return s;
}

/* a minus b, both sorted and disjoint, into out (room for na + nb); returns the count. */
static size_t
iv_sub(const struct iv *a, size_t na, const struct iv *b, size_t nb, struct iv *out)
{
	size_t i, j = 0, n = 0;

	for (i = 0; i < na; i++) {
		double s = a[i].s, e = a[i].e;

		while (j < nb && b[j].e <= s)
			j++;
		for (size_t k = j; k < nb && b[k].s < e; k++) {
			if (b[k].s > s)
				out[n++] = (struct iv){ s, b[k].s };
			if (b[k].e > s)
				s = b[k].e;
			if (s >= e)
				break;
		}
		if (s < e)
			out[n++] = (struct iv){ s, e };
	}
	return n;
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
		const struct kev *k = &tl->k[i];
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
kernel_parent_cat(struct tl *tl, const struct kev *k)
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

static struct tab *
sheet_kernel_summary(struct tl *tl, double total_us)
{
	struct tab *t = tab_new("kernel_summary");
	struct names groups;
	struct vec *d = NULL;
	size_t *first = NULL, ng = 0, i, g;
	struct buf key = BUF_INIT;
	double all = 0;

	names_init(&groups);
	for (i = 0; i < tl->nk; i++) {
		const struct kev *k = &tl->k[i];
		uint32_t cat, par;

		if (k->gpu != GPU_KERNEL)
			continue;
		cat = kernel_parent_cat(tl, k);
		par = k->op == NONE ? NAME_NONE : tl->op[k->op].name;
		buf_reset(&key);
		buf_printf(&key, "%u\x1f%u\x1f%u\x1f%lld", cat, par, k->name, k->stream);
		g = tab_group(&groups, key.p, key.len);
		if (g == ng) {
			d = xreallocarray(d, ng + 1, sizeof(*d));
			first = xreallocarray(first, ng + 1, sizeof(*first));
			d[ng] = (struct vec)VEC_INIT;
			first[ng++] = i;
		}
		vec_add(&d[g], k->dur);
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
	tab_col(t, "Percent of total time (%)");
	for (g = 0; g < ng; g++) {
		const struct kev *k = &tl->k[first[g]];
		size_t r = tab_row(t);
		double sum = stat_sum(&d[g]);

		set_name(t, r, 0, tl, kernel_parent_cat(tl, k));
		if (k->op != NONE)
			tab_set_str(t, r, 1, S(tl, tl->op[k->op].name));
		tab_set_str(t, r, 2, S(tl, k->name));
		tab_set_int(t, r, 3, k->stream);
		tab_set_num(t, r, 4, sum);
		tab_set_int(t, r, 5, (long long)d[g].n);
		tab_set_num(t, r, 6, stat_mean(&d[g]));
		tab_set_num(t, r, 7, stat_min(&d[g]));
		tab_set_num(t, r, 8, stat_max(&d[g]));
		tab_set_num(t, r, 9, sum / all * 100);
		tab_set_num(t, r, 10, sum / total_us * 100);
		vec_free(&d[g]);
	}
	{
		/* groupby orders groups by key; then a sort on the sum */
		struct tab_key keys[] = { { 4, 1 }, { 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 } };

		tab_sort(t, keys, 5);
	}
	free(d);
	free(first);
	names_free(&groups);
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
		const struct kev *k = &tl->k[i];

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
		const struct kev *k = &tl->k[i];
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
	int gpu_only = tl->nop == 0;
	struct names groups;
	struct vec *d = NULL;
	size_t *first = NULL, ng = 0, i, g, c0;
	struct buf key = BUF_INIT;

	names_init(&groups);
	for (i = 0; i < tl->nk; i++) {
		const struct kev *k = &tl->k[i];
		const struct top *op;

		if (k->gpu != GPU_KERNEL || !(k->dur < o->short_thresh_us))
			continue;
		buf_reset(&key);
		if (gpu_only)
			buf_printf(&key, "%u", k->name);
		else {
			/* dropna: no cpu_op parent (unlinked, runtime launches) drops out */
			if (k->op == NONE || (op = &tl->op[k->op])->runtime)
				continue;
			buf_printf(&key, "%u\x1f%u\x1f%u\x1f%u\x1f%u", op->name, op->tdims,
			    op->tstrides, op->tconc, k->name);
		}
		g = tab_group(&groups, key.p, key.len);
		if (g == ng) {
			d = xreallocarray(d, ng + 1, sizeof(*d));
			first = xreallocarray(first, ng + 1, sizeof(*first));
			d[ng] = (struct vec)VEC_INIT;
			first[ng++] = i;
		}
		vec_add(&d[g], k->dur);
	}
	if (!gpu_only) {
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
	for (g = 0; g < ng; g++) {
		const struct kev *k = &tl->k[first[g]];
		size_t r = tab_row(t);
		double sum = stat_sum(&d[g]);

		if (!gpu_only) {
			const struct top *op = &tl->op[k->op];

			tab_set_str(t, r, 0, S(tl, op->name));
			set_name(t, r, 1, tl, op->tdims);
			set_name(t, r, 2, tl, op->tstrides);
			set_name(t, r, 3, tl, op->tconc);
		}
		tab_set_str(t, r, c0, S(tl, k->name));
		tab_set_num(t, r, c0 + 1, sum);
		tab_set_int(t, r, c0 + 2, (long long)d[g].n);
		tab_set_num(t, r, c0 + 3, stat_mean(&d[g]));
		tab_set_num(t, r, c0 + 4, sum / total_us * 100);
		vec_free(&d[g]);
	}
	{
		struct tab_key keys[] = { { c0 + 1, 1 }, { c0 + 2, 0 }, { c0 + 3, 0 },
		    { c0 + 4, 0 } };

		tab_sort(t, keys, 4);
	}
	if (o->topk_short >= 0)
		tab_truncate(t, (size_t)o->topk_short);
	free(d);
	free(first);
	names_free(&groups);
	buf_free(&key);
	return t;
}

/* --- op categories and launchers (§1.5, §3) ----------------------------------------- */

static int kev_ts_cmp_tl(const void *a, const void *b);

/* Own GPU events of op i sorted by start. */
static void
sort_events(struct tl *tl, size_t *ev, size_t n)
{
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
		if (first == NONE || tl->k[o->ev[j]].s < tl->k[first].s)
			first = o->ev[j];
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
};

static int
hs_cmp(const void *a, const void *b)
{
	const struct top *x = &cmp_tl->op[*(const size_t *)a], *y = &cmp_tl->op[*(const size_t *)b];

	if (x->hs != y->hs)
		return (x->hs > y->hs) - (x->hs < y->hs);
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

static size_t
launcher_of(const struct tl *tl, size_t i)
{
	while (!tl->op[i].runtime && strcmp(S(tl, tl->op[i].name), "execute") == 0 &&
	    tl->op[i].up != NONE)
		i = tl->op[i].up;
	return i;
}

static void
launchers_build(struct tl *tl, struct launchers *L)
{
	size_t *cnt = xcalloc(tl->nop + 1, sizeof(*cnt)), *at, i, n = 0, tot = 0;

	memset(L, 0, sizeof(*L));
	for (i = 0; i < tl->nk; i++)
		if (tl->k[i].op != NONE && tl->k[i].cls != CLS_COMM)
			cnt[launcher_of(tl, tl->k[i].op)]++;
	L->op = xreallocarray(NULL, tl->nop + 1, sizeof(size_t));
	for (i = 0; i < tl->nop; i++)
		if (cnt[i])
			L->op[n++] = i;
	cmp_tl = tl;
	qsort(L->op, n, sizeof(size_t), hs_cmp);
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

static void
launchers_free(struct launchers *L)
{
	free(L->op);
	free(L->k0);
	free(L->nk);
	free(L->ev);
}

/* Every GPU event of op i's subtree (its own and its descendants'), appended to v. */
static void
subtree_events(const struct tl *tl, size_t i, size_t **v, size_t *n, size_t *cap)
{
	const struct top *o = &tl->op[i];
	size_t j;

	for (j = 0; j < o->nev; j++) {
		if (*n == *cap) {
			*cap = *cap ? 2 * *cap : 16;
			*v = xreallocarray(*v, *cap, sizeof(**v));
		}
		(*v)[(*n)++] = o->ev[j];
	}
	for (j = 0; j < o->nkid; j++)
		subtree_events(tl, tl->kids[o->kid0 + j], v, n, cap);
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

/* Python's round(x, 2): correctly rounded on the binary value, as num_fixed rounds. */
static double
round2(double x)
{
	char nb[NUM_BUFSZ];

	if (!isfinite(x))
		return x;
	num_fixed(nb, x, 2, 0);
	return strtod(nb, NULL);
}

/* kernel_details_summary and trunc_kernel_details of a group's instances. */
static void
kernel_details(const struct tl *tl, const struct klist *in, size_t n, struct buf *sum,
    struct buf *trunc)
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
		ent[j] = (struct kdent){ j, stat_sum(&d), S(tl, tl->k[tpl->ev[j]].name) };
	}
	qsort(ent, tpl->n, sizeof(*ent), kdent_cmp);
	for (j = 0; j < tpl->n; j++) {
		const struct kev *k = &tl->k[tpl->ev[ent[j].pos]];
		size_t nl = strlen(ent[j].name), cut;
		double mean;

		d.n = 0;
		for (i = 0; i < n; i++)
			if (in[i].n == tpl->n)
				vec_add(&d, tl->k[in[i].ev[ent[j].pos]].dur);
		mean = stat_mean(&d);
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
		py_float(sum, stat_std(&d, 0));
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
			    o->tdims, o->ttypes, o->tstrides, o->tconc);
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
	size_t ng, *g = group_launchers(tl, L, 0, &ng), i, r;
	struct tab_key keys[] = { { 2, 1 }, { 0, 0 } };

	tab_col(t, "op category");
	tab_col(t, "Count");
	tab_col(t, "total_direct_kernel_time_ms");
	for (i = 0; i < ng; i++)
		tab_row(t);
	for (i = 0; i < L->n; i++) {
		r = g[i];
		if (tab_cell(t, r, 0)->kind == TAB_NONE) {
			tab_set_str(t, r, 0, S(tl, op_category(tl, L->op[i])));
			tab_set_int(t, r, 1, 0);
			tab_set_num(t, r, 2, 0);
		}
		tab_cell(t, r, 1)->v.i++;
		tab_cell(t, r, 2)->v.d += ls[i].direct / 1000;
	}
	tab_sort(t, keys, 2);
	tab_percentages(t, 2);
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
	struct tab_key keys[] = { { 1, 1 }, { 0, 0 } };
	struct buf b = BUF_INIT;

	tab_col(t, "name");
	tab_col(t, "total_direct_kernel_time_sum");
	tab_col(t, "total_subtree_kernel_time_sum");
	tab_col(t, "total_direct_kernel_time_ms");
	tab_col(t, "total_subtree_kernel_time_ms");
	tab_col(t, "Count");
	tab_col(t, "Categories");
	for (i = 0; i < ng; i++)
		tab_row(t);
	for (i = 0; i < L->n; i++) {
		r = g[i];
		if (tab_cell(t, r, 0)->kind == TAB_NONE) {
			tab_set_str(t, r, 0, S(tl, tl->op[L->op[i]].name));
			tab_set_num(t, r, 1, 0);
			tab_set_num(t, r, 2, 0);
			tab_set_int(t, r, 5, 0);
		}
		tab_cell(t, r, 1)->v.d += ls[i].direct;
		tab_cell(t, r, 2)->v.d += ls[i].subtree;
		tab_cell(t, r, 5)->v.i++;
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
		qsort(c, nc, sizeof(*c), str_cmp);
		buf_reset(&b);
		buf_addc(&b, '[');
		for (j = 0; j < nc; j++) {
			if (j)
				buf_adds(&b, ", ");
			py_str(&b, c[j], strlen(c[j]));
		}
		buf_addc(&b, ']');
		tab_set_str(t, r, 6, b.p);
		tab_set_num(t, r, 3, tab_num(t, r, 1) / 1000);
		tab_set_num(t, r, 4, tab_num(t, r, 2) / 1000);
		free(c);
	}
	tab_sort(t, keys, 2);
	tab_percentages(t, 3);
	free(g);
	buf_free(&b);
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
	size_t ng, *g = group_launchers(tl, L, 2, &ng), i, j, r, c, cuid, ckd;
	struct vec *dv = xcalloc(ng + 1, sizeof(*dv)), *sv = xcalloc(ng + 1, sizeof(*sv));
	struct klist *kl = xreallocarray(NULL, L->n + 1, sizeof(*kl));
	size_t *first = xreallocarray(NULL, ng + 1, sizeof(*first));
	struct buf b = BUF_INIT, name = BUF_INIT, sum = BUF_INIT, trunc = BUF_INIT;
	struct tab_key keys[2];
	static const char *const kc[] = { "name", "op category", "process_name",
	    "process_label", "thread_name", "Input Dims", "Input type", "Input Strides",
	    "Concrete Inputs", "operation_count" };

	for (i = 0; i < 10; i++)
		tab_col(t, kc[i]);
	for (j = 0; j < 6; j++) {
		buf_reset(&name);
		buf_printf(&name, "total_direct_kernel_time_%s", st[j]);
		tab_col(t, name.p);
		buf_reset(&name);
		buf_printf(&name, "total_subtree_kernel_time_%s", st[j]);
		tab_col(t, name.p);
	}
	cuid = tab_col(t, "ex_UID");
	ckd = tab_col(t, "kernel_details_summary");
	tab_col(t, "trunc_kernel_details");
	for (i = 0; i < ng; i++)
		first[i] = NONE;
	for (i = 0; i < L->n; i++) {
		vec_add(&dv[g[i]], ls[i].direct);
		vec_add(&sv[g[i]], ls[i].subtree);
		if (first[g[i]] == NONE)
			first[g[i]] = i;
	}
	for (r = 0; r < ng; r++) {
		const struct top *o = &tl->op[L->op[first[r]]];
		size_t n = 0;

		tab_row(t);
		tab_set_str(t, r, 0, S(tl, o->name));
		tab_set_str(t, r, 1, S(tl, op_category(tl, L->op[first[r]])));
		tab_set_str(t, r, 2, S(tl, o->process));
		tab_set_str(t, r, 3, S(tl, o->label));
		tab_set_str(t, r, 4, S(tl, o->thread));
		set_name(t, r, 5, tl, o->tdims);
		set_name(t, r, 6, tl, o->ttypes);
		set_name(t, r, 7, tl, o->tstrides);
		set_name(t, r, 8, tl, o->tconc);
		tab_set_int(t, r, 9, (long long)dv[r].n);
		for (j = 0, c = 10; j < 6; j++, c += 2) {
			set_stats(t, r, c, &dv[r], (int)j);
			set_stats(t, r, c + 1, &sv[r], (int)j);
		}
		tab_set_int(t, r, cuid, o->id);
		for (i = first[r]; i < L->n; i++)
			if (g[i] == r)
				kl[n++] = (struct klist){ L->ev + L->k0[i], L->nk[i] };
		kernel_details(tl, kl, n, &sum, &trunc);
		tab_set_str(t, r, ckd, sum.p);
		tab_set_str(t, r, ckd + 1, trunc.p);
		vec_free(&dv[r]);
		vec_free(&sv[r]);
	}
	keys[0] = (struct tab_key){ 20, 1 };	/* total_direct_kernel_time_sum */
	keys[1] = (struct tab_key){ cuid, 0 };
	tab_sort(t, keys, 2);
	tab_percentages(t, 20);
	free(g);
	free(dv);
	free(sv);
	free(kl);
	free(first);
	buf_free(&b);
	buf_free(&name);
	buf_free(&sum);
	buf_free(&trunc);
	return t;
}

/* --- the workbook ------------------------------------------------------------------- */

static struct tab *sheet_unified(struct tl *tl, const struct launchers *L);
static size_t sheets_roofline(struct tl *tl, struct tab ***out, size_t n);

static size_t
push(struct tab ***out, size_t n, struct tab *t)
{
	if (t->nrows == 0 && strncmp(t->name, "short_kernel", 12) != 0) {
		tab_free(t);
		return n;
	}
	*out = xreallocarray(*out, n + 1, sizeof(**out));
	(*out)[n] = t;
	return n + 1;
}

size_t
tl_sheets(struct tl *tl, const struct tl_opts *o, struct tab ***out)
{
	struct timeline tm;
	struct launchers L;
	struct lstat *ls;
	size_t n = 0;

	*out = NULL;
	tl_link(tl);
	timeline(tl, o, &tm);
	n = push(out, n, sheet_timeline(&tm, o));
	if (tl->nop > 0) {
		launchers_build(tl, &L);
		ls = xreallocarray(NULL, L.n + 1, sizeof(*ls));
		launcher_times(tl, &L, ls);
		n = push(out, n, sheet_by_category(tl, &L, ls));
		n = push(out, n, sheet_ops_summary(tl, &L, ls));
		n = push(out, n, sheet_unique_args(tl, &L, ls));
		n = push(out, n, sheet_unified(tl, &L));
		n = sheets_roofline(tl, out, n);
		free(ls);
		launchers_free(&L);
	}
	if (o->kernel_summary)
		n = push(out, n, sheet_kernel_summary(tl, tm.total));
	if (o->short_kernels) {
		n = push(out, n, sheet_short_histogram(tl, o));
		n = push(out, n, sheet_short_summary(tl, o, tm.total));
	}
	return n;
}

void
tl_sheets_free(struct tab **s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		tab_free(s[i]);
	free(s);
}

static struct tab *
sheet_unified(struct tl *tl, const struct launchers *L)
{
	(void)tl;
	(void)L;
	return tab_new("unified_perf_summary");
}

static size_t
sheets_roofline(struct tl *tl, struct tab ***out, size_t n)
{
	(void)tl;
	(void)out;
	return n;
}
