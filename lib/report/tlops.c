/* SPDX-License-Identifier: ISC */
/* tlops: the kernel launchers and ops_summary_by_category, ops_summary,
 * ops_unique_args (docs/tracelens.md §3, §7.1-§7.3, §8.1). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"
#include "report/pyrepr.h"
#include "report/tab.h"
#include "report/tlsheets.h"
#include "report/tltree.h"
#include "tlcommon.h"

/* The tl of launchers_build's sort. */
static struct tl *cmp_tl;

/* Per op, its first GPU event in the trace's order (tl_launchers_build), for hs_cmp. */
static const uint32_t *cmp_firstk;

/* TraceLens's launcher order: sorted (stably) by ts, a double, from the order in which
 * the trace's GPU events first name each launcher; ops apart by less than a double's
 * precision (epoch clocks) tie. */
static int
hs_cmp(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	double s = tl_ns_us(cmp_tl->op[i].hs), t = tl_ns_us(cmp_tl->op[j].hs);

	if (s != t)
		return (s > t) - (s < t);
	if (cmp_firstk[i] != cmp_firstk[j])
		return tl_kev_trace_cmp(cmp_tl, cmp_firstk[i], cmp_firstk[j]);
	return (i > j) - (i < j);
}

/* The launchers in 12 bytes each and their events (8 bytes each); on the way, 8 bytes
 * an op (its count of direct events, then its launcher; its first event). */
void
tl_launchers_build(struct tl *tl, struct launchers *L)
{
	uint32_t *cnt = xcalloc(tl->nop + 1, sizeof(*cnt)), *first, *at;
	size_t i, n = 0, tot = 0;

	/* ops and GPU events number at most TL_OP_MAX (tltree.h): 32 bits */
	memset(L, 0, sizeof(*L));
	first = xreallocarray(NULL, tl->nop + 1, sizeof(*first));
	for (i = 0; i < tl->nk; i++)
		if (tl->k[i].op != NONE && tl->k[i].cls != TL_CLS_COMM) {
			size_t o = tl_launcher_of(tl, tl->k[i].op);

			if (cnt[o]++ == 0 || tl_kev_trace_cmp(tl, i, first[o]) < 0)
				first[o] = (uint32_t)i;
		}
	for (i = 0; i < tl->nop; i++)
		n += cnt[i] != 0;
	L->op = xreallocarray(NULL, n + 1, sizeof(*L->op));
	for (n = 0, i = 0; i < tl->nop; i++)
		if (cnt[i])
			L->op[n++] = (uint32_t)i;
	cmp_tl = tl;
	cmp_firstk = first;
	qsort(L->op, n, sizeof(*L->op), hs_cmp);
	cmp_firstk = NULL;
	free(first);
	L->n = n;
	L->k0 = xreallocarray(NULL, n + 1, sizeof(*L->k0));
	L->nk = xcalloc(n + 1, sizeof(*L->nk));
	for (i = 0; i < n; i++) {
		L->k0[i] = (uint32_t)tot;
		tot += cnt[L->op[i]];
	}
	at = cnt;	/* per op, its launcher from here on */
	for (i = 0; i < n; i++)
		at[L->op[i]] = (uint32_t)i;
	L->ev = xreallocarray(NULL, tot + 1, sizeof(*L->ev));
	for (i = 0; i < tl->nk; i++)
		if (tl->k[i].op != NONE && tl->k[i].cls != TL_CLS_COMM) {
			size_t j = at[tl_launcher_of(tl, tl->k[i].op)];

			L->ev[L->k0[j] + L->nk[j]++] = i;
		}
	for (i = 0; i < n; i++)
		tl_sort_events(tl, L->ev + L->k0[i], L->nk[i]);
	free(at);
}

/* TraceLens's call stack of op i (§8.1, traverse_parents_and_get_callstack with the
 * "nn.Module" filter): its name, then the names of the ancestors that contain
 * "nn.Module", innermost first, each cut to 256 bytes + ".."; as a Python list repr into
 * cs. Its parent module: the second frame with every "_<digits>" run removed, or "NA". */
static void
call_stack(const struct tl *tl, size_t i, struct buf *cs, struct buf *pm)
{
	const char *n = tl_str(tl, tl->op[i].name), *f;
	size_t j, nf = 1, len;

	buf_reset(cs);
	buf_reset(pm);
	buf_addc(cs, '[');
	py_str(cs, n, strlen(n));
	for (j = TL_UP(tl->op[i]); j != NONE; j = TL_UP(tl->op[j])) {
		f = tl_str(tl, tl->op[j].name);
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
			tl_strip_num_runs(pm, f);
	}
	buf_addc(cs, ']');
	if (nf == 1)
		buf_adds(pm, "NA");
}

void
tl_launchers_modules(struct tl *tl, struct launchers *L)
{
	struct buf cs = BUF_INIT, pm = BUF_INIT;
	size_t i;

	L->pm = xreallocarray(NULL, L->n + 1, sizeof(*L->pm));
	L->cs = xreallocarray(NULL, L->n + 1, sizeof(*L->cs));
	for (i = 0; i < L->n; i++) {
		call_stack(tl, L->op[i], &cs, &pm);
		L->cs[i] = tl_intern_buf(tl, &cs);
		L->pm[i] = tl_intern_buf(tl, &pm);
	}
	buf_free(&cs);
	buf_free(&pm);
}

void
tl_launchers_free(struct launchers *L)
{
	free(L->pm);
	free(L->cs);
	free(L->op);
	free(L->k0);
	free(L->nk);
	free(L->ev);
}

/* Launcher i's busy time of its own kernels. */
double
tl_launcher_direct(const struct tl *tl, const struct launchers *L, size_t i)
{
	return tl_busy(tl, L->ev + L->k0[i], L->nk[i]);
}

void
tl_launcher_times(struct tl *tl, const struct launchers *L, struct lstat *ls)
{
	size_t i, *v = NULL, n, cap = 0;

	for (i = 0; i < L->n; i++) {
		n = 0;
		tl_subtree_events(tl, L->op[i], &v, &n, &cap);
		ls[i].subtree = tl_busy(tl, v, n);
	}
	free(v);
}

struct lkey {
	struct tl		*tl;
	const struct launchers	*L;
	int			 by_args;
};

/* Launcher i's group key: its category, its name, or its arguments (tl_args_key);
 * with parent modules, its module; by arguments and kernel counts, its count. */
static void
launcher_key(void *ctx, size_t i, struct buf *key)
{
	const struct lkey *k = ctx;
	struct tl *tl = k->tl;
	const struct launchers *L = k->L;
	const struct top *o = &tl->op[L->op[i]];

	if (k->by_args == 0)
		buf_printf(key, "%u", tl_op_category(tl, L->op[i]));
	else if (k->by_args == 1)
		buf_printf(key, "%u", o->name);
	else
		tl_args_key(tl, key, L->op[i], o->name, tl_op_category(tl, L->op[i]));
	if (L->pm)
		buf_printf(key, "\x1fm%u", L->pm[i]);
	if (k->by_args == 2 && tl->o->by_nkernels)
		buf_printf(key, "\x1fk%zu", (size_t)L->nk[i]);
}

/* The launchers grouped by a key, in order of first appearance, each group's
 * launchers chained in order: first[g] its first, next[i] the launcher after i in its
 * group (LG_END after its last). 8 bytes a launcher and 4 a group, where a vector of
 * times per group held some 100 bytes a group (a group per launcher with distinct
 * arguments): a group's times are gathered when its row is built. */
#define LG_END	UINT32_MAX
struct lgroups {
	uint32_t	*first, *next;
	size_t		 ng, most;	/* the groups; the most launchers in one */
};

static void
group_launchers(struct tl *tl, const struct launchers *L, int by_args, struct lgroups *G)
{
	struct lkey k = { tl, L, by_args };
	size_t i, g, n;
	uint32_t *cnt;

	/* next[] takes the place of the group numbers, from the last launcher down */
	G->ng = tl_group_ids(L->n, launcher_key, &k, &G->next);
	G->first = xreallocarray(NULL, G->ng + 1, sizeof(*G->first));
	cnt = xcalloc(G->ng + 1, sizeof(*cnt));
	for (g = 0; g < G->ng; g++)
		G->first[g] = LG_END;
	G->most = 0;
	for (i = L->n; i-- > 0;) {
		g = G->next[i];
		G->next[i] = G->first[g];
		G->first[g] = (uint32_t)i;
		if ((n = ++cnt[g]) > G->most)
			G->most = n;
	}
	free(cnt);
}

static void
lgroups_free(struct lgroups *G)
{
	free(G->first);
	free(G->next);
}

/* Group g's direct times (and subtree times when s is not NULL), in launcher order,
 * into d (and s), emptied first. */
static void
group_times(const struct tl *tl, const struct launchers *L, const struct lgroups *G,
    const struct lstat *ls, size_t g, struct vec *d, struct vec *s)
{
	uint32_t i;

	d->n = 0;
	if (s != NULL)
		s->n = 0;
	for (i = G->first[g]; i != LG_END; i = G->next[i]) {
		vec_add(d, tl_launcher_direct(tl, L, i));
		if (s != NULL)
			vec_add(s, ls[i].subtree);
	}
}

/* ops_unique_args's sources: a group's first launcher, its direct and subtree times. */
enum { UA_NAME, UA_CAT, UA_PROC, UA_LABEL, UA_THREAD, UA_DIMS, UA_TYPES, UA_STRIDES,
	UA_CONC, UA_PM, UA_NK, UA_UID, UA_CS, UA_DIRECT, UA_SUBTREE };
/* Its columns; the inference report adds parent_module after op category, num_kernels
 * after Concrete Inputs and call_stack after ex_UID (§7.3, §8.1). */
enum { UAC_NAME, UAC_CAT, UAC_PM, UAC_PROC, UAC_LABEL, UAC_THREAD, UAC_DIMS, UAC_TYPES,
	UAC_STRIDES, UAC_CONC, UAC_NK, UAC_COUNT, UAC_DMEAN, UAC_SMEAN, UAC_DMEDIAN,
	UAC_SMEDIAN, UAC_DSTD, UAC_SSTD, UAC_DMIN, UAC_SMIN, UAC_DMAX, UAC_SMAX, UAC_DSUM,
	UAC_SSUM, UAC_UID, UAC_CS, UAC_KDS, UAC_TKD, UAC_N };
#define UA_BY_MODULE	1u	/* --group_by_parent_module */
#define UA_BY_NKERNELS	2u	/* --group_by_num_kernels */

static const struct tl_col ua_cols[UAC_N] = {
	[UAC_NAME] = { "name", UA_NAME, TL_FIRST, TL_STR, 0, 0 },
	[UAC_CAT] = { "op category", UA_CAT, TL_FIRST, TL_STR, 0, 0 },
	[UAC_PM] = { "parent_module", UA_PM, TL_FIRST, TL_STR, UA_BY_MODULE, 0 },
	[UAC_PROC] = { "process_name", UA_PROC, TL_FIRST, TL_STR, 0, 0 },
	[UAC_LABEL] = { "process_label", UA_LABEL, TL_FIRST, TL_STR, 0, 0 },
	[UAC_THREAD] = { "thread_name", UA_THREAD, TL_FIRST, TL_STR, 0, 0 },
	[UAC_DIMS] = { "Input Dims", UA_DIMS, TL_FIRST, TL_STR, 0, 0 },
	[UAC_TYPES] = { "Input type", UA_TYPES, TL_FIRST, TL_STR, 0, 0 },
	[UAC_STRIDES] = { "Input Strides", UA_STRIDES, TL_FIRST, TL_STR, 0, 0 },
	[UAC_CONC] = { "Concrete Inputs", UA_CONC, TL_FIRST, TL_STR, 0, 0 },
	[UAC_NK] = { "num_kernels", UA_NK, TL_FIRST, TL_INT, UA_BY_NKERNELS, 0 },
	[UAC_COUNT] = { "operation_count", UA_DIRECT, TL_COUNT, TL_INT, 0, 0 },
	[UAC_DMEAN] = { "total_direct_kernel_time_mean", UA_DIRECT, TL_MEAN, TL_NUM, 0, 0 },
	[UAC_SMEAN] = { "total_subtree_kernel_time_mean", UA_SUBTREE, TL_MEAN, TL_NUM, 0, 0 },
	[UAC_DMEDIAN] = { "total_direct_kernel_time_median", UA_DIRECT, TL_MEDIAN, TL_NUM,
	    0, 0 },
	[UAC_SMEDIAN] = { "total_subtree_kernel_time_median", UA_SUBTREE, TL_MEDIAN, TL_NUM,
	    0, 0 },
	[UAC_DSTD] = { "total_direct_kernel_time_std", UA_DIRECT, TL_STD, TL_NUM, 0, 0 },
	[UAC_SSTD] = { "total_subtree_kernel_time_std", UA_SUBTREE, TL_STD, TL_NUM, 0, 0 },
	[UAC_DMIN] = { "total_direct_kernel_time_min", UA_DIRECT, TL_MIN, TL_NUM, 0, 0 },
	[UAC_SMIN] = { "total_subtree_kernel_time_min", UA_SUBTREE, TL_MIN, TL_NUM, 0, 0 },
	[UAC_DMAX] = { "total_direct_kernel_time_max", UA_DIRECT, TL_MAX, TL_NUM, 0, 0 },
	[UAC_SMAX] = { "total_subtree_kernel_time_max", UA_SUBTREE, TL_MAX, TL_NUM, 0, 0 },
	[UAC_DSUM] = { "total_direct_kernel_time_sum", UA_DIRECT, TL_SUM, TL_NUM, 0, 0 },
	[UAC_SSUM] = { "total_subtree_kernel_time_sum", UA_SUBTREE, TL_SUM, TL_NUM, 0, 0 },
	[UAC_UID] = { "ex_UID", UA_UID, TL_FIRST, TL_INT, 0, 0 },
	[UAC_CS] = { "call_stack", UA_CS, TL_FIRST, TL_STR, UA_BY_MODULE, 0 },
	[UAC_KDS] = { "kernel_details_summary", 0, TL_CUSTOM, TL_STR, 0, 0 },
	[UAC_TKD] = { "trunc_kernel_details", 0, TL_CUSTOM, TL_STR, 0, 0 },
};

/* A launcher's values, for the launcher sheets' TL_FIRST columns. */
struct lfirst {
	struct tl		*tl;
	const struct launchers	*L;
	size_t			 i;	/* the launcher */
};

static void
ua_first(void *ctx, int src, struct tl_val *v)
{
	struct lfirst *f = ctx;
	struct tl *tl = f->tl;
	size_t op = f->L->op[f->i];
	const struct top *o = &tl->op[op];
	uint32_t s;

	switch (src) {
	case UA_NAME: s = o->name; break;
	case UA_CAT: s = tl_op_category(tl, op); break;
	case UA_PROC: s = tl_op_who(tl, o, TL_PROCESS); break;
	case UA_LABEL: s = tl_op_who(tl, o, TL_LABEL); break;
	case UA_THREAD: s = tl_op_who(tl, o, TL_THREAD); break;
	case UA_DIMS: s = TDIMS(o); break;
	case UA_TYPES: s = TTYPES(o); break;
	case UA_STRIDES: s = TSTRIDES(o); break;
	case UA_CONC: s = TCONC(o); break;
	case UA_PM: s = f->L->pm[f->i]; break;
	case UA_CS: s = f->L->cs[f->i]; break;
	case UA_NK:
		*v = (struct tl_val){ TAB_INT, (long long)f->L->nk[f->i], 0, NULL };
		return;
	default:
		*v = (struct tl_val){ TAB_INT, o->id, 0, NULL };
		return;
	}
	if (s != NAME_NONE)
		*v = tl_val_str(tl_str(tl, s));
}

/* ops_summary_by_category's columns; the inference report with parent modules adds
 * parent_module and call_stack_first (of the group's first launcher). */
enum { BC_CAT, BC_PM, BC_COUNT, BC_CS, BC_MS, BC_N };
static const struct tl_col bc_cols[BC_N] = {
	[BC_CAT] = { "op category", UA_CAT, TL_FIRST, TL_STR, 0, 0 },
	[BC_PM] = { "parent_module", UA_PM, TL_FIRST, TL_STR, UA_BY_MODULE, 0 },
	[BC_COUNT] = { "Count", UA_DIRECT, TL_COUNT, TL_INT, 0, 0 },
	[BC_CS] = { "call_stack_first", UA_CS, TL_FIRST, TL_STR, UA_BY_MODULE, 0 },
	[BC_MS] = { "total_direct_kernel_time_ms", UA_DIRECT, TL_SUM, TL_MS, 0, 0 },
};

struct tab *
tl_sheet_by_category(struct tl *tl, const struct launchers *L, const struct lstat *ls)
{
	struct tab *t = tab_new("ops_summary_by_category");
	struct lgroups G;
	size_t r, idx[BC_N];
	struct vec d = VEC_INIT;
	struct lfirst f = { tl, L, 0 };
	const struct vec *v[UA_SUBTREE + 1];
	struct tl_group grp = { v, ua_first, &f, NULL };
	struct tab_key keys[2];

	group_launchers(tl, L, 0, &G);
	tl_cols_add(t, bc_cols, BC_N, L->pm ? UA_BY_MODULE : 0, idx);
	v[UA_DIRECT] = &d;
	for (r = 0; r < G.ng; r++) {
		f.i = G.first[r];
		group_times(tl, L, &G, ls, r, &d, NULL);
		tl_cols_row(t, tab_row(t), bc_cols, BC_N, idx, &grp);
	}
	/* the groups in key order, sorted by pandas */
	keys[0] = (struct tab_key){ idx[BC_CAT], 0 };
	keys[1] = (struct tab_key){ idx[BC_PM], 0 };
	tab_sort(t, keys, L->pm ? 2 : 1);
	tab_sort_pandas(t, idx[BC_MS], 1);
	tab_percentages(t, idx[BC_MS]);
	vec_free(&d);
	lgroups_free(&G);
	return t;
}

/* ops_summary's columns; the inference report's layout
 * (get_df_kernel_launchers_summary_module) has the subtree count and no subtree ms;
 * with parent modules, parent_module and call_stack_first. */
enum { OS_NAME, OS_PM, OS_DSUM, OS_SSUM, OS_SCOUNT, OS_DMS, OS_SMS, OS_COUNT, OS_CATS,
	OS_CS, OS_N };
#define OS_INFERENCE	4u
#define OS_TRAINING	8u
static const struct tl_col os_cols[OS_N] = {
	[OS_NAME] = { "name", UA_NAME, TL_FIRST, TL_STR, 0, 0 },
	[OS_PM] = { "parent_module", UA_PM, TL_FIRST, TL_STR, UA_BY_MODULE, 0 },
	[OS_DSUM] = { "total_direct_kernel_time_sum", UA_DIRECT, TL_SUM, TL_NUM, 0, 0 },
	[OS_SSUM] = { "total_subtree_kernel_time_sum", UA_SUBTREE, TL_SUM, TL_NUM, 0, 0 },
	[OS_SCOUNT] = { "total_subtree_kernel_time_count", UA_SUBTREE, TL_COUNT, TL_INT,
	    OS_INFERENCE, 0 },
	[OS_DMS] = { "total_direct_kernel_time_ms", UA_DIRECT, TL_SUM, TL_MS, 0, 0 },
	[OS_SMS] = { "total_subtree_kernel_time_ms", UA_SUBTREE, TL_SUM, TL_MS, OS_TRAINING,
	    0 },
	[OS_COUNT] = { "Count", UA_DIRECT, TL_COUNT, TL_INT, 0, 0 },
	[OS_CATS] = { "Categories", 0, TL_CUSTOM, TL_STR, 0, 0 },
	[OS_CS] = { "call_stack_first", UA_CS, TL_FIRST, TL_STR, UA_BY_MODULE, 0 },
};

/* Categories: the sorted distinct categories of the launchers of group r, as a Python
 * list, into b. */
static void
group_categories(struct tl *tl, const struct launchers *L, const struct lgroups *G,
    size_t r, struct buf *b)
{
	const char **c = NULL;
	size_t nc = 0, j;
	uint32_t i;

	for (i = G->first[r]; i != LG_END; i = G->next[i]) {
		const char *s;

		s = tl_str(tl, tl_op_category(tl, L->op[i]));
		for (j = 0; j < nc && strcmp(c[j], s) != 0; j++)
			;
		if (j == nc) {
			c = xreallocarray(c, nc + 1, sizeof(*c));
			c[nc++] = s;
		}
	}
	if (nc > 1)
		qsort(c, nc, sizeof(*c), tl_str_cmp);
	buf_reset(b);
	buf_addc(b, '[');
	for (j = 0; j < nc; j++) {
		if (j)
			buf_adds(b, ", ");
		py_str(b, c[j], strlen(c[j]));
	}
	buf_addc(b, ']');
	free(c);
}

struct tab *
tl_sheet_ops_summary(struct tl *tl, const struct launchers *L, const struct lstat *ls)
{
	struct tab *t = tab_new("ops_summary");
	struct lgroups G;
	size_t r, idx[OS_N];
	struct vec dv = VEC_INIT, sv = VEC_INIT;
	struct lfirst f = { tl, L, 0 };
	const struct vec *v[UA_SUBTREE + 1];
	struct tl_group grp = { v, ua_first, &f, NULL };
	struct tab_key keys[2];
	struct buf b = BUF_INIT;

	group_launchers(tl, L, 1, &G);
	tl_cols_add(t, os_cols, OS_N, (L->pm ? UA_BY_MODULE : 0) |
	    (tl->o->inference ? OS_INFERENCE : OS_TRAINING), idx);
	v[UA_DIRECT] = &dv;
	v[UA_SUBTREE] = &sv;
	for (r = 0; r < G.ng; r++) {
		size_t row = tab_row(t);

		f.i = G.first[r];
		group_times(tl, L, &G, ls, r, &dv, &sv);
		tl_cols_row(t, row, os_cols, OS_N, idx, &grp);
		group_categories(tl, L, &G, r, &b);
		tab_set_str(t, row, idx[OS_CATS], b.p);
	}
	/* groupby orders the groups by key; then pandas' sort on the direct sum */
	keys[0] = (struct tab_key){ idx[OS_NAME], 0 };
	keys[1] = (struct tab_key){ idx[OS_PM], 0 };
	tab_sort(t, keys, L->pm ? 2 : 1);
	tab_sort_pandas(t, idx[OS_DSUM], 1);
	tab_percentages(t, idx[OS_DMS]);
	vec_free(&dv);
	vec_free(&sv);
	lgroups_free(&G);
	buf_free(&b);
	return t;
}

/* ops_unique_args's groups, for tl_push_groups: the launchers' groups, a group's
 * times and kernel lists made again for each row. */
struct uagroups {
	struct tl		*tl;
	const struct launchers	*L;
	const struct lstat	*ls;
	const struct lgroups	*G;
	const size_t		*idx;
	struct vec		 dv, sv;
	struct klist		*kl;
	struct buf		 sum, trunc;
};

static void
ua_row(void *ctx, struct tab *t, size_t r, size_t g)
{
	struct uagroups *u = ctx;
	const struct launchers *L = u->L;
	struct lfirst f = { u->tl, L, u->G->first[g] };
	const struct vec *v[UA_SUBTREE + 1];
	struct tl_group grp = { v, ua_first, &f, NULL };
	size_t n = 0;
	uint32_t i;

	group_times(u->tl, L, u->G, u->ls, g, &u->dv, &u->sv);
	v[UA_DIRECT] = &u->dv;
	v[UA_SUBTREE] = &u->sv;
	tl_cols_row(t, r, ua_cols, UAC_N, u->idx, &grp);
	for (i = u->G->first[g]; i != LG_END; i = u->G->next[i])
		u->kl[n++] = (struct klist){ L->ev + L->k0[i], L->nk[i] };
	tl_kernel_details(u->tl, u->kl, n, &u->sum, &u->trunc);
	tab_set_str(t, r, u->idx[UAC_KDS], u->sum.p);
	tab_set_str(t, r, u->idx[UAC_TKD], u->trunc.p);
}

/* A group's ex_UID: its first launcher's id. */
static long long
ua_uid(void *ctx, size_t g)
{
	const struct uagroups *u = ctx;

	return u->tl->op[u->L->op[u->G->first[g]]].id;
}

void
tl_sheet_unique_args(struct tl *tl, const struct launchers *L, const struct lstat *ls,
    struct sink *sk)
{
	struct tab *t = tab_new("ops_unique_args");
	struct lgroups G;
	size_t r, idx[UAC_N];
	double *key;
	struct uagroups u = { tl, L, ls, &G, idx, VEC_INIT, VEC_INIT, NULL, BUF_INIT,
	    BUF_INIT };
	struct tl_grows gs;

	group_launchers(tl, L, 2, &G);
	key = xreallocarray(NULL, G.ng + 1, sizeof(*key));
	u.kl = xreallocarray(NULL, G.most + 1, sizeof(*u.kl));
	tl_cols_add(t, ua_cols, UAC_N, (L->pm ? UA_BY_MODULE : 0) |
	    (tl->o->by_nkernels ? UA_BY_NKERNELS : 0), idx);
	gs = (struct tl_grows){ t, G.ng, key, ua_uid, idx[UAC_DSUM], 1, ua_row, &u, NULL,
	    0 };
	/* the order: total_direct_kernel_time_sum (pandas' sum of the direct times in
	 * launcher order), ex_UID (the first launcher's id) */
	for (r = 0; r < G.ng; r++) {
		struct stat_acc a;
		uint32_t i;

		memset(&a, 0, sizeof(a));
		for (i = G.first[r]; i != LG_END; i = G.next[i])
			stat_acc_add(&a, tl_launcher_direct(tl, L, i));
		key[r] = stat_acc_sum(&a);
	}
	tl_push_groups(sk, &gs);
	lgroups_free(&G);
	vec_free(&u.dv);
	vec_free(&u.sv);
	free(u.kl);
	free(key);
	buf_free(&u.sum);
	buf_free(&u.trunc);
}
