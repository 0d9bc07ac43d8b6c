/* SPDX-License-Identifier: ISC */
/*
 * ncsheets: the multi-rank collective report's sheets in TraceLens's order
 * (report/nccl.h, nc_sheets_each and nc_sheets; the report's files are listed in
 * ncpriv.h): the collectives matched, their figures, each sheet handed over.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "report/nccl.h"
#include "report/tab.h"
#include "ncpriv.h"

size_t
nc_sheets_each(struct nc *nc, const struct nc_opts *opt, size_t chunk,
    void (*fn)(struct tab *, int, void *), void *ctx, struct error *err)
{
	struct out o = { fn, ctx, chunk, opt->gpus_per_node, opt->world_size, 0 };
	struct tab *u, *ssum, *sa2a, *strag;
	struct cgroup *gs = NULL;
	struct isrow *rows;
	struct a2row *ar;
	struct rankset rs;
	struct wide wi, wa;
	size_t ng = 0, i, nrows, na2a;
	const char *e = getenv("TTP_NC_PART");

	if (chunk > 0 && e != NULL && atol(e) > 0)
		o.chunk = (size_t)atol(e);	/* tests: parts of a row or a few */
	if (nc->n == 0) {
		error_set(err, NULL, 0, 0, "no collective kernels (NCCL/RCCL) in the input: "
		    "nothing to report");
		return 0;
	}
	nc_match(nc);
	gs = nc_coll_groups(nc, &ng);
	nc_rankset_init(nc, &rs);
	if (o.ws <= 0)
		o.ws = rs.r[rs.n - 1] + 1;
	if (o.gpn <= 0) {
		/* TraceLens: the device count of the first rank's trace */
		o.gpn = 0;
		for (i = 0; i < nc->nri; i++)
			if (nc->ri[i].rank == rs.r[0])
				o.gpn = nc->ri[i].devices;
	}
	u = tab_new("nccl_unmatched");
	tab_col(u, "collective_id");
	tab_col(u, "Process Group Name");
	tab_col(u, "Collective name");
	tab_col(u, "problem");

	/* what the sheets are made of: the matched collectives' figures */
	rows = xreallocarray(NULL, ng, sizeof(*rows));
	ar = xcalloc(ng, sizeof(*ar));
	nc_isync_figures(nc, gs, ng, &rs, u, rows, &nrows, &wi);
	nc_a2a_figures(nc, gs, ng, &rs, u, ar, &na2a, &wa);

	ssum = tab_new("nccl_summary_implicit_sync");
	nc_sheet_summary_isync(nc, ssum, rows, nrows, gs);
	nc_hand_whole(nc, &o, ssum, true);
	nc_sheet_summary_long(nc, &o);
	if (na2a > 0) {
		sa2a = tab_new("nccl_summary_all2allv");
		nc_sheet_summary_a2a(nc, sa2a, wa.gt);
		if (sa2a->nrows > 0)
			nc_hand_whole(nc, &o, sa2a, true);
		else
			tab_free(sa2a);
	}
	if (opt->heatmap)
		nc_sheet_heatmap(nc, &o, o.ws);
	nc_sheet_long(nc, &o);
	nc_sheet_isync(nc, &o, &wi, nrows);
	if (na2a > 0)
		nc_sheet_a2a(nc, &o, &wa, na2a);
	strag = tab_new("straggler_summary");
	nc_sheet_straggler(nc, strag, rows, nrows, gs, &wi);
	if (strag->nrows > 0)
		nc_hand_whole(nc, &o, strag, true);
	else
		tab_free(strag);
	if (u->nrows > 0) {
		size_t nu = u->nrows;

		nc_hand(&o, u, 0);
		warning("warning: %zu collective%s not matched across ranks (TraceLens stops "
		    "there): left out, listed in nccl_unmatched", nu, nu == 1 ? " is" : "s are");
	} else
		tab_free(u);
	nc_wide_free(&wi);
	nc_wide_free(&wa);
	for (i = 0; i < ng; i++)
		free(gs[i].ev);
	free(gs);
	free(rows);
	free(ar);
	nc_rankset_free(&rs);
	return o.n;
}

struct sheets {
	struct tab	**t;
	size_t		  n;
};

static void
take_sheet(struct tab *t, int more, void *ctx)
{
	struct sheets *sh = ctx;

	(void)more;
	sh->t = xreallocarray(sh->t, sh->n + 1, sizeof(*sh->t));
	sh->t[sh->n++] = t;
}

size_t
nc_sheets(struct nc *nc, const struct nc_opts *o, struct tab ***out, struct error *err)
{
	struct sheets sh = { NULL, 0 };

	nc_sheets_each(nc, o, 0, take_sheet, &sh, err);
	*out = sh.t;
	return sh.n;
}

void
nc_sheets_free(struct tab **s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		tab_free(s[i]);
	free(s);
}
