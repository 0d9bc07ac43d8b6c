/* SPDX-License-Identifier: ISC */
/* tlphase: the sheets by inference phase: ops_summary_by_phase, ops_summary_prefill
 * and ops_summary_decode (docs/tracelens.md §9.2). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"
#include "report/tab.h"
#include "report/tlsheets.h"
#include "report/tltree.h"
#include "torch/kcat.h"
#include "tlcommon.h"

/* --- ops_summary_prefill, ops_summary_decode (§9.2) ------------------------------------ */

/* The launcher's kernel categories (torch/kcat.h): the distinct ones, sorted, joined
 * with ", " into b. */
static void
kernel_categories(struct tl *tl, const struct launchers *L, size_t i, struct buf *b)
{
	const char **c = NULL;
	size_t nc = 0, j, k;

	for (j = 0; j < L->nk[i]; j++) {
		const char *name = tl_str(tl, tl->k[L->ev[L->k0[i] + j]].name);
		const char *cat = kcat_name(name, strlen(name));

		for (k = 0; k < nc && strcmp(c[k], cat) != 0; k++)
			;
		if (k == nc) {
			c = xreallocarray(c, nc + 1, sizeof(*c));
			c[nc++] = cat;
		}
	}
	qsort(c, nc, sizeof(*c), tl_str_cmp);
	buf_reset(b);
	for (k = 0; k < nc; k++) {
		if (k)
			buf_adds(b, ", ");
		buf_adds(b, c[k]);
	}
	free(c);
}

/* The phase sheets' sources: a group's first launcher's phase and name, its direct
 * times in µs and in ms. */
enum { PH_DIRECT, PH_DIRECT_MS, PH_PHASE, PH_NAME };

struct phfirst {
	struct tl		*tl;
	const struct launchers	*L;
	size_t			 i;	/* the group's first launcher */
};

static void
phfirst(void *ctx, int src, struct tl_val *v)
{
	struct phfirst *f = ctx;
	const struct top *o = &f->tl->op[f->L->op[f->i]];

	*v = tl_val_str(tl_str(f->tl, src == PH_PHASE ? tl_op_phase(f->tl, o) : o->name));
}

/* The launchers (those tagged ph, or all when ph is NAME_NONE) grouped by phase (by) or
 * by name, in order of first appearance, each group's launchers chained in order: per
 * group its first launcher (first[]) and its launcher of the least id, the first of
 * them (least[]); next[i] the launcher after i in its group (PH_END after its last).
 * A group's times are gathered when its row is built. */
#define PH_END	UINT32_MAX
struct phgroups {
	uint32_t	*first, *least, *next;
	size_t		 ng;
};

static void
phase_groups(struct tl *tl, const struct launchers *L, uint32_t ph, int by,
    struct phgroups *G)
{
	struct names groups;
	uint32_t *last = NULL;
	size_t i, r, cap = 0, lcap = 0, fcap = 0;

	memset(G, 0, sizeof(*G));
	G->next = xreallocarray(NULL, L->n + 1, sizeof(*G->next));
	names_init(&groups);
	for (i = 0; i < L->n; i++) {
		const struct top *o = &tl->op[L->op[i]];
		const char *key = tl_str(tl, by ? tl_op_phase(tl, o) : o->name);

		G->next[i] = PH_END;
		if (ph != NAME_NONE && tl_op_phase(tl, o) != ph)
			continue;
		r = tab_group(&groups, key, strlen(key));
		if (r == G->ng) {
			G->first = xgrow(G->first, &fcap, G->ng + 1, sizeof(*G->first));
			G->least = xgrow(G->least, &cap, G->ng + 1, sizeof(*G->least));
			last = xgrow(last, &lcap, G->ng + 1, sizeof(*last));
			G->first[r] = G->least[r] = (uint32_t)i;
			G->ng++;
		} else {
			G->next[last[r]] = (uint32_t)i;
			if (o->id < tl->op[L->op[G->least[r]]].id)
				G->least[r] = (uint32_t)i;
		}
		last[r] = (uint32_t)i;
	}
	free(last);
	names_free(&groups);
}

/* Group r's direct times in µs and in ms, into v[0] and v[1], emptied first. */
static void
phase_times(const struct tl *tl, const struct launchers *L, const struct phgroups *G,
    size_t r, struct vec *v)
{
	uint32_t i;
	double d;

	v[0].n = v[1].n = 0;
	for (i = G->first[r]; i != PH_END; i = G->next[i]) {
		d = tl_launcher_direct(tl, L, i);
		vec_add(&v[0], d);
		vec_add(&v[1], d / 1000);
	}
}

static void
phase_groups_free(struct phgroups *G, struct vec *v)
{
	free(G->first);
	free(G->least);
	free(G->next);
	vec_free(&v[0]);
	vec_free(&v[1]);
}

/* ops_summary_by_phase's columns: the ms are summed in order as ms, not µs / 1000. */
enum { BP_PHASE, BP_COUNT, BP_MS, BP_N };
static const struct tl_col bp_cols[BP_N] = {
	[BP_PHASE] = { "phase", PH_PHASE, TL_FIRST, TL_STR, 0, 0 },
	[BP_COUNT] = { "Count", PH_DIRECT, TL_COUNT, TL_INT, 0, 0 },
	[BP_MS] = { "total_direct_kernel_time_ms", PH_DIRECT_MS, TL_PSUM, TL_NUM, 0, 0 },
};

/* ttp's grouped summary by phase (ttp-table --group-by phase for PyTorch records): the
 * kernel launchers per ttp-phase tag, as ops_summary_by_category groups them by
 * category; launchers without a tag are the phase "None". Empty (so left out) when no
 * op has a tag. */
struct tab *
tl_sheet_by_phase(struct tl *tl, const struct launchers *L)
{
	struct tab *t = tab_new("ops_summary_by_phase");
	struct tab_key keys[2];
	size_t i, r, idx[BP_N];
	struct phgroups G;
	struct vec v[2] = { VEC_INIT, VEC_INIT };
	const struct vec *vp[2] = { &v[0], &v[1] };
	struct phfirst f = { tl, L, 0 };
	struct tl_group grp = { vp, phfirst, &f, NULL };
	int any = 0;

	tl_cols_add(t, bp_cols, BP_N, 0, idx);
	for (i = 0; i < L->n && !any; i++)
		any = tl_op_phase(tl, &tl->op[L->op[i]]) != NAME_NONE;
	memset(&G, 0, sizeof(G));
	if (any)
		phase_groups(tl, L, NAME_NONE, 1, &G);
	for (r = 0; r < G.ng; r++) {
		f.i = G.first[r];
		phase_times(tl, L, &G, r, v);
		tl_cols_row(t, tab_row(t), bp_cols, BP_N, idx, &grp);
	}
	keys[0] = (struct tab_key){ idx[BP_MS], 1 };
	keys[1] = (struct tab_key){ idx[BP_PHASE], 0 };
	tab_sort(t, keys, 2);
	tab_percentages(t, idx[BP_MS]);
	phase_groups_free(&G, v);
	return t;
}

/* ops_summary_<phase>'s columns: the µs summed in order, then in ms. */
enum { SP_CATS, SP_NAME, SP_SUM, SP_COUNT, SP_MS, SP_N };
static const struct tl_col sp_cols[SP_N] = {
	[SP_CATS] = { "Kernel categories", 0, TL_CUSTOM, TL_STR, 0, 0 },
	[SP_NAME] = { "name", PH_NAME, TL_FIRST, TL_STR, 0, 0 },
	[SP_SUM] = { "total_direct_kernel_time_sum", PH_DIRECT, TL_PSUM, TL_NUM, 0, 0 },
	[SP_COUNT] = { "Count", PH_DIRECT, TL_COUNT, TL_INT, 0, 0 },
	[SP_MS] = { "total_direct_kernel_time_ms", PH_DIRECT, TL_PSUM, TL_MS, 0, 0 },
};

/* The launchers ttp-phase tagged phase, grouped by name, as the branch's
 * get_df_kernel_launchers_summary_by_inference_phase: percentages within the phase;
 * Kernel categories of each name from its first launcher (by trace order). Empty (so
 * left out) when no launcher has the phase. */
struct tab *
tl_sheet_phase(struct tl *tl, const struct launchers *L, const char *phase)
{
	struct tab *t;
	struct buf b = BUF_INIT;
	struct tab_key byname;
	uint32_t ph = names_lookup(&tl->str, phase, strlen(phase));
	size_t r, idx[SP_N];
	struct phgroups G;
	struct vec v[2] = { VEC_INIT, VEC_INIT };
	const struct vec *vp[1] = { &v[0] };
	struct phfirst f = { tl, L, 0 };
	struct tl_group grp = { vp, phfirst, &f, NULL };

	buf_printf(&b, "ops_summary_%s", phase);
	t = tab_new(b.p);
	tl_cols_add(t, sp_cols, SP_N, 0, idx);
	memset(&G, 0, sizeof(G));
	if (ph != NAME_NONE)
		phase_groups(tl, L, ph, 0, &G);
	for (r = 0; r < G.ng; r++) {
		size_t row = tab_row(t);

		f.i = G.first[r];
		phase_times(tl, L, &G, r, v);
		tl_cols_row(t, row, sp_cols, SP_N, idx, &grp);
		/* the launcher of the name with the least id */
		kernel_categories(tl, L, G.least[r], &b);
		if (b.len > 0)
			tab_set_str(t, row, idx[SP_CATS], b.p);
	}
	/* groupby's order (by name), then sort_values on the sum, whose ties pandas
	 * leaves in numpy's quicksort order */
	byname = (struct tab_key){ idx[SP_NAME], 0 };
	tab_sort(t, &byname, 1);
	tab_sort_pandas(t, idx[SP_SUM], 1);
	tab_percentages(t, idx[SP_MS]);
	phase_groups_free(&G, v);
	buf_free(&b);
	return t;
}
