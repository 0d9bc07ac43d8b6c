/* SPDX-License-Identifier: ISC */
/* xplane: XSpace profiles to ttp records (jax/xplane.h; docs/jax.md §1, §10): the passes
 * over the file (its planes, the counting pass with the launch map, the device events in
 * xprof's order); the parts are xmeta.c, xevents.c, xhlo.c and xwrite.c (xpriv.h). */
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/io.h"
#include "core/names.h"
#include "core/pb.h"
#include "jax/xplane.h"
#include "xpriv.h"

int
xplane_sniff(const unsigned char *p, size_t n)
{
	struct pb_field f;
	const char *msg;
	size_t k = 0;
	int m;

	if (n < 2 || p[0] != 0x0a)
		return 0;
	if ((m = pb_head(p, n, 0, &f, &msg)) <= 0 || f.num != 1 || f.wt != PB_LEN)
		return 0;
	k = (size_t)m;
	if (k < n && p[k] == 0x08) {	/* the plane's id */
		if ((m = pb_head(p + k, n - k, 0, &f, &msg)) <= 0)
			return 0;
		k += (size_t)m;
	}
	if (k >= n || p[k] != 0x12 || (m = pb_head(p + k, n - k, 0, &f, &msg)) <= 0)
		return 0;
	k += (size_t)m;
	return (n - k >= 6 && memcmp(p + k, "/host:", 6) == 0) ||
	    (n - k >= 8 && memcmp(p + k, "/device:", 8) == 0);
}

/* --- the launch map (host events with a correlation_id) -------------------------------- */

static uint64_t
hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return v;
}

struct link *
xp_link_slot(struct xp *x, uint64_t corr)
{
	size_t i, k, blocks = x->caplinks >> 6;

	if (x->caplinks == 0)
		return NULL;
	/* runs of 64 consecutive ids (launches are numbered in order) stay together in a
	 * block of 64 slots, the blocks scattered: lookups in kernel order walk the table,
	 * not jump. A probe moves on by a block, keeping the place in it (so that a run
	 * that meets another moves on whole, not slot by slot through it), and after every
	 * block to the next place: each slot once in caplinks probes. */
	i = ((hash64(corr >> 6) << 6) | (corr & 63)) & (x->caplinks - 1);
	for (k = 1; x->links[i].used; k++) {
		if (x->links[i].corr == corr)
			return &x->links[i];
		i = (i + 64 + (k % blocks == 0)) & (x->caplinks - 1);
	}
	return &x->links[i];
}

static void
link_add(struct xp *x, const struct link *l)
{
	struct link *s;
	size_t i, old;

	if ((x->nlinks + 1) * 2 > x->caplinks) {
		struct link *prev = x->links;

		old = x->caplinks;
		x->caplinks = old == 0 ? 1024 : old * 2;
		x->links = xcalloc(x->caplinks, sizeof(*x->links));
		for (i = 0; i < old; i++)
			if (prev[i].used)
				*xp_link_slot(x, prev[i].corr) = prev[i];
		free(prev);
	}
	s = xp_link_slot(x, l->corr);
	if (!s->used) {
		*s = *l;
		s->used = true;
		x->nlinks++;
		return;
	}
	/* the last in TraceLens's order (tid, start, longest first) wins */
	if (l->tid > s->tid || (l->tid == s->tid && (l->start_ns > s->start_ns ||
	    (l->start_ns == s->start_ns && (l->rem_ps > s->rem_ps ||
	    (l->rem_ps == s->rem_ps && l->dur_ps <= s->dur_ps)))))) {
		*s = *l;
		s->used = true;
	}
}

/* Counting pass: converted events per line; host links; kernels without one. */
static int
count_event(struct xp *x, struct plane *pl, size_t li, const struct event *e,
    const struct xstat *st, size_t nst, uint64_t off, uint64_t len, void *arg)
{
	struct line *ln = &pl->lines[li];
	struct link l;
	uint64_t corr;
	const struct link *hit;
	uint32_t rem;

	if (e->meta != NULL && e->meta->internal)
		return 0;
	ln->nev++;
	if ((e->off_ps % 1000) != 0 || (e->dur_ps % 1000) != 0)
		pl->subns = true;
	if (pl->kind == P_HOST && xp_stat_u64(xp_find_stat(pl, e, st, nst, pl->s_corr), &corr)) {
		memset(&l, 0, sizeof(l));
		l.corr = corr;
		l.tid = ln->tid;
		xp_event_start(ln, e, &l.start_ns, &rem);
		l.rem_ps = (uint16_t)rem;
		l.dur_ps = e->dur_ps;
		link_add(x, &l);
	}
	if (pl->kind == P_GPU && ln->stream) {
		x->gpu_events++;
		hit = xp_stat_u64(xp_find_stat(pl, e, st, nst, pl->s_corr), &corr) ?
		    xp_link_slot(x, corr) : NULL;
		if (hit == NULL || !hit->used)
			x->unlinked++;
	}
	return 0;
}

/* --- the second pass: events in xprof's order ----------------------------------------- */

struct gather {
	struct ev	*evs;
	size_t		 n, cap;
	uint32_t	 tid;
};

static int
gather_event(struct xp *x, struct plane *pl, size_t li, const struct event *e,
    const struct xstat *st, size_t nst, uint64_t off, uint64_t len, void *arg)
{
	struct gather *g = arg;
	struct ev *v;

	if (e->meta != NULL && e->meta->internal)
		return 0;
	g->evs = xgrow(g->evs, &g->cap, g->n + 1, sizeof(*g->evs));
	v = &g->evs[g->n++];
	xp_event_start(&pl->lines[li], e, &v->start_ns, &v->rem_ps);
	v->line = (uint32_t)li;
	v->dur_ps = e->dur_ps;
	v->off = off;
	v->len = len;
	return 0;
}

static int
cmp_ev(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->rem_ps != y->rem_ps)
		return x->rem_ps < y->rem_ps ? -1 : 1;
	if (x->dur_ps != y->dur_ps)
		return x->dur_ps > y->dur_ps ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int
cmp_line_tid(const void *a, const void *b)
{
	const struct line *x = *(const struct line *const *)a, *y = *(const struct line *const *)b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Emit the Stream events of a device plane, each tid's lines merged, in UID order. */
static int
emit_plane(struct xp *x, struct plane *pl)
{
	struct line **order;
	struct gather g = { NULL, 0, 0, 0 };
	struct xstat st[MAXSTATS];
	struct event e;
	uint64_t base = pl->base;
	size_t i, j, k, nst;
	bool stream;
	int rc = 0;

	order = xcalloc(pl->nlines + 1, sizeof(*order));
	for (i = 0; i < pl->nlines; i++)
		order[i] = &pl->lines[i];
	qsort(order, pl->nlines, sizeof(*order), cmp_line_tid);
	for (i = 0; i < pl->nlines && rc == 0; i = j) {
		uint64_t n = 0;

		stream = false;
		for (j = i; j < pl->nlines && order[j]->tid == order[i]->tid; j++)
			if (order[j]->kept) {
				n += order[j]->nev;
				stream = stream || (pl->kind == P_GPU && order[j]->stream) ||
				    order[j]->ops;
			}
		if (!stream) {
			base += n;
			continue;
		}
		g.n = 0;
		for (k = i; k < j && rc == 0; k++)
			if (order[k]->kept)
				rc = xp_walk_line(x, pl, (size_t)(order[k] - pl->lines), gather_event,
				    &g, 0);
		if (rc != 0)
			break;
		/* a tid of one line comes in order, as a rule: sorted only when not */
		for (k = 1; k < g.n && cmp_ev(&g.evs[k - 1], &g.evs[k]) < 0; k++)
			;
		if (k < g.n)
			qsort(g.evs, g.n, sizeof(*g.evs), cmp_ev);
		for (k = 0; k < g.n && rc == 0; k++) {
			const struct ev *v = &g.evs[k];
			const struct line *ln = &pl->lines[v->line];
			const unsigned char *p;

			if (!(pl->kind == P_GPU && ln->stream) && !ln->ops)
				continue;
			if ((p = xsrc_get(&x->src, v->off, v->len, x->err)) == NULL ||
			    xp_decode_event(x, pl, p, v->len, v->off, &e, st, &nst, MAXSTATS,
			    true) != 0)
				rc = -1;
			else if (ln->ops)
				rc = xp_write_op(x, pl, ln, &e, st, nst, base + k);
			else
				rc = xp_write_gpu(x, pl, ln, &e, st, nst, base + k);
		}
		base += g.n;
	}
	free(g.evs);
	free(order);
	return rc;
}

/* --- the whole file --------------------------------------------------------------- */

static int
cmp_plane_pid(const void *a, const void *b)
{
	const struct plane *x = *(const struct plane *const *)a;
	const struct plane *y = *(const struct plane *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void
free_all(struct xp *x)
{
	size_t i;

	for (i = 0; i < x->nplanes; i++) {
		struct plane *pl = &x->planes[i];
		free(pl->name);
		free(pl->lines);
		free(pl->evmd);
		free(pl->evmd_at);
		free(pl->stmd);
		free(pl->stats);
		names_free(&pl->strs);
	}
	free(x->planes);
	for (i = 0; i < x->nhosts; i++)
		free(x->hosts[i]);
	free(x->hosts);
	for (i = 0; i < x->nmods; i++) {
		free(x->mods[i].key);
		free(x->mods[i].name);
		if (x->mods[i].loaded)
			hlo_free(&x->mods[i].m);
		free(x->mods[i].hcache);
		free(x->mods[i].hcache_len);
	}
	free(x->mods);
	free(x->links);
	buf_free(&x->out);
	buf_free(&x->tmp);
	buf_free(&x->hcache);
	buf_free(&x->estr);
	names_free(&x->kdn);
	free(x->kd_at);
	free(x->kd_len);
	buf_free(&x->kdcache);
	xsrc_close(&x->src);
}

/* The XSpace's fields: its planes (located) and its host names. */
static int
read_space(struct xp *x)
{
	struct xsrc_it it;
	struct pb_field f;
	const unsigned char *p;
	int rc;

	xsrc_it_init(&it, &x->src, 0, x->src.size, "XSpace");
	while ((rc = xsrc_next(&it, &f, x->err)) == PB_OK) {
		if (f.num == 1 && f.wt == PB_LEN) {
			x->planes = xgrow(x->planes, &x->capplanes, x->nplanes + 1,
			    sizeof(*x->planes));
			memset(&x->planes[x->nplanes], 0, sizeof(*x->planes));
			x->planes[x->nplanes].off = f.at;
			x->planes[x->nplanes].len = f.v;
			x->nplanes++;
		} else if (f.num == 4 && f.wt == PB_LEN && f.v <= 4096) {
			if ((p = xp_load(x, &f)) == NULL)
				return -1;
			x->hosts = xgrow(x->hosts, &x->caphosts, x->nhosts + 1,
			    sizeof(*x->hosts));
			x->hosts[x->nhosts++] = xstrndup((const char *)p, (size_t)f.v);
		}
	}
	if (rc == PB_ERR)
		return -1;
	if (x->nplanes == 0)
		return xp_fail(x, 0, "XSpace", "no planes: not a profile");
	return 0;
}

/* Each plane's pid as xprof gives it (docs/jax.md §1.4: host 701, GPU (else TPU) 1 +
 * id, custom 501 + id), the metadata plane's modules, and each line's tid and what is
 * kept of it; the lines' event counts are cleared for the counting pass. */
static void
plane_pids(struct xp *x)
{
	bool gpu = false;
	size_t i, k;

	for (i = 0; i < x->nplanes; i++)
		gpu = gpu || x->planes[i].kind == P_GPU;
	for (i = 0; i < x->nplanes; i++) {
		struct plane *pl = &x->planes[i];

		pl->pid = -1;
		if (pl->kind == P_HOST)
			pl->pid = 701;
		else if (pl->kind == P_GPU || (pl->kind == P_TPU && !gpu))
			pl->pid = 1 + pl->id;
		else if (pl->kind == P_CUSTOM)
			pl->pid = 501 + pl->id;
		else if (pl->kind == P_META)
			xp_collect_modules(x, pl);
		for (k = 0; k < pl->nlines; k++) {
			struct line *ln = &pl->lines[k];
			const char *dn = ln->dname != NAME_NONE ? names_str(&pl->strs, ln->dname) :
			    "";
			const char *nm = *dn ? dn : ln->name != NAME_NONE ?
			    names_str(&pl->strs, ln->name) : "";

			ln->tid = (uint32_t)(ln->display_id != 0 ? ln->display_id : ln->id);
			/* the line's display name: its display_name, else its name */
			ln->kept = pl->pid >= 0 && ln->nev > 0 && strcmp(nm, "Async XLA Ops") != 0;
			ln->stream = ln->kept && strncmp(nm, "Stream", 6) == 0 &&
			    (pl->kind == P_GPU || pl->kind == P_TPU);
			ln->ops = ln->kept && pl->kind == P_TPU && (strcmp(nm, "XLA Ops") == 0 ||
			    strcmp(nm, "XLA Modules") == 0);
			ln->nev = 0;
		}
	}
}

/* The counting pass, the host first: it links the device events. The UIDs number the
 * planes' events in pid order, so that the counts of a plane after the last one written
 * matter to none: of such a host plane only the events that may be launches are
 * decoded, other planes there are passed over. */
static int
count_pass(struct xp *x)
{
	long long lastpid = -1;
	size_t i, k, li;

	for (i = 0; i < x->nplanes; i++)
		if ((x->planes[i].kind == P_GPU || x->planes[i].kind == P_TPU) &&
		    x->planes[i].pid > lastpid)
			lastpid = x->planes[i].pid;
	for (i = 0; i < x->nplanes; i++)
		x->planes[i].links_only = x->planes[i].pid > lastpid;
	for (k = 0; k < 2; k++)
		for (i = 0; i < x->nplanes; i++) {
			struct plane *pl = &x->planes[i];

			if ((pl->kind == P_HOST) != (k == 0) || pl->pid < 0 ||
			    (pl->links_only && pl->kind != P_HOST))
				continue;
			for (li = 0; li < pl->nlines; li++)
				if (pl->lines[li].kept &&
				    xp_walk_line(x, pl, li, count_event, NULL, MAXSTATS) != 0)
					return -1;
			for (li = 0; li < pl->nlines; li++) {
				if (pl->lines[li].nev == 0)
					pl->lines[li].kept = false;
				pl->nconv += pl->lines[li].nev;
			}
		}
	return 0;
}

/* The planes in pid order, each numbered from the UID of its first converted event; the
 * caller frees the list. */
static struct plane **
number_planes(struct xp *x)
{
	struct plane **byp;
	uint64_t base = 0;
	size_t i;

	byp = xcalloc(x->nplanes + 1, sizeof(*byp));
	for (i = 0; i < x->nplanes; i++)
		byp[i] = &x->planes[i];
	qsort(byp, x->nplanes, sizeof(*byp), cmp_plane_pid);
	for (i = 0; i < x->nplanes; i++)
		if (byp[i]->pid >= 0) {
			byp[i]->base = base;
			base += byp[i]->nconv;
		}
	return byp;
}

static int
run(struct xp *x)
{
	struct plane **byp;
	size_t i;

	if (read_space(x) != 0)
		return -1;
	for (i = 0; i < x->nplanes; i++)
		if (xp_read_plane(x, &x->planes[i]) != 0)
			return -1;
	plane_pids(x);
	if (count_pass(x) != 0)
		return -1;
	byp = number_planes(x);
	xp_write_trace(x);
	for (i = 0; i < x->nplanes; i++)
		if (byp[i]->pid >= 0 && (byp[i]->kind == P_GPU || byp[i]->kind == P_TPU) &&
		    emit_plane(x, byp[i]) != 0) {
			free(byp);
			return -1;
		}
	free(byp);
	if (x->out.len > 0 && fwrite(x->out.p, 1, x->out.len, x->sink) != x->out.len)
		io_write_error(x->sink, "<stdout>");
	buf_reset(&x->out);
	if (ferror(x->sink))
		io_write_error(x->sink, "stdout");
	if (x->verbose)
		note("%s: %llu device events, %llu without a host launch, %zu HLO modules",
		    x->name, (unsigned long long)x->gpu_events,
		    (unsigned long long)x->unlinked, x->nmods);
	return 0;
}

int
xplane_parse(const char *path, const char *name, int verbose, FILE *out, struct error *err)
{
	struct xp x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.sink = out;
	x.name = name;
	x.verbose = verbose;
	x.err = err;
	if (xsrc_open(&x.src, path, err) != 0)
		return -1;
	x.src.name = name;
	names_init(&x.kdn);
	rc = run(&x);
	free_all(&x);
	return rc;
}
