/* SPDX-License-Identifier: ISC */
/* xwrite: the records of an XSpace: the trace record, a gpu record per device event, an
 * op record per event of a TPU's XLA Ops and XLA Modules lines (docs/jax.md §10, §11). */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/ckint.h"
#include "core/io.h"
#include "core/names.h"
#include "core/pb.h"
#include "core/rec.h"
#include "xpriv.h"

static const char *const gpu_kinds[] = { "kernel", "memcpy", "memset" };
static const char *const classes[] = { "comp", "comm", "memcpy" };

/* The members build_kdetails makes of a kernel_details text, kept the same way: texts
 * repeat per kernel and step. */
#define KDCACHE_MAX	(4u << 20)
#define KDCACHE_TEXTS	65536

static void
flush_out(struct xp *x)
{
	if (x->out.len >= (1u << 16)) {
		if (fwrite(x->out.p, 1, x->out.len, x->sink) != x->out.len)
			io_write_error(x->sink, "<stdout>");
		buf_reset(&x->out);
		if (ferror(x->sink))
			io_write_error(x->sink, "stdout");
	}
}

static void
build_u64(struct rec_build *rb, uint64_t v)
{
	char t[32];
	int n;

	if (v <= INT64_MAX) {
		rec_build_int(rb, (long long)v);
		return;
	}
	n = snprintf(t, sizeof(t), "%" PRIu64, v);
	rec_build_num(rb, t, (size_t)n);
}

static void
build_stat(struct rec_build *rb, const struct xp *x, const struct plane *pl,
    const struct xstat *s)
{
	const char *t;
	char num[40];
	int n;

	switch (s->kind) {
	case S_UINT:
		build_u64(rb, s->u);
		break;
	case S_INT:
		rec_build_int(rb, (long long)pb_sint(s->u));
		break;
	case S_DOUBLE:
		n = snprintf(num, sizeof(num), "%.17g", pb_double(s->u));
		if (pb_double(s->u) == pb_double(s->u) && strchr(num, 'n') == NULL &&
		    strchr(num, 'i') == NULL)
			rec_build_num(rb, num, (size_t)n);
		else
			rec_build_null(rb);
		break;
	default:
		if ((t = xp_stat_text(x, pl, s)) != NULL)
			rec_build_strz(rb, t);
		else
			rec_build_null(rb);
	}
}

void
xp_write_trace(struct xp *x)
{
	static const struct { const char *stat, *key; } caps[] = {
		{ "device_vendor", "vendor" }, { "clock_rate", "clock_khz" },
		{ "core_count", "cores" }, { "memory_bandwidth", "bandwidth" },
		{ "memory_size", "memory" }, { "compute_cap_major", "compute_cap_major" },
		{ "compute_cap_minor", "compute_cap_minor" },
		{ "device_type_string", "device_type" },
		{ "peak_teraflops_per_second", "peak_tflops" },
		{ "peak_hbm_bw_gigabytes_per_second", "peak_hbm_gbps" }
	};
	struct rec_build rb;
	size_t i, k, j;

	rec_build_begin(&rb, &x->out);
	rec_build_key(&rb, "kind");
	rec_build_word(&rb, "trace");
	rec_build_key(&rb, "trace");
	rec_build_word(&rb, "xplane");
	rec_build_key(&rb, "file");
	rec_build_strz(&rb, x->name);
	rec_build_key(&rb, "format");
	rec_build_word(&rb, "xplane");
	rec_build_key(&rb, "hosts");
	rec_build_array(&rb);
	for (i = 0; i < x->nhosts; i++)
		rec_build_strz(&rb, x->hosts[i]);
	rec_build_end_array(&rb);
	rec_build_key(&rb, "devices");
	rec_build_array(&rb);
	for (i = 0; i < x->nplanes; i++) {
		const struct plane *pl = &x->planes[i];

		if (pl->kind != P_GPU && pl->kind != P_TPU && pl->kind != P_CUSTOM)
			continue;
		rec_build_object(&rb);
		rec_build_key(&rb, "id");
		rec_build_int(&rb, pl->ordinal);
		rec_build_key(&rb, "name");
		rec_build_strz(&rb, pl->name);
		rec_build_key(&rb, "type");
		rec_build_word(&rb, pl->kind == P_GPU ? "GPU" : pl->kind == P_TPU ? "TPU" :
		    "CUSTOM");
		rec_build_key(&rb, "plane_id");
		rec_build_int(&rb, pl->id);
		rec_build_key(&rb, "pid");
		if (pl->pid >= 0)
			rec_build_int(&rb, pl->pid);
		else
			rec_build_null(&rb);
		for (k = 0; k < sizeof(caps) / sizeof(caps[0]); k++)
			for (j = pl->pst; j < pl->pst + pl->npst; j++) {
				const char *sn = xp_stat_name(pl, pl->stats[j].md);
				if (sn == NULL || strcmp(sn, caps[k].stat) != 0)
					continue;
				rec_build_key(&rb, caps[k].key);
				build_stat(&rb, x, pl, &pl->stats[j]);
				break;
			}
		rec_build_key(&rb, "lines");
		rec_build_int(&rb, (long long)pl->nlines);
		rec_build_end_object(&rb);
	}
	rec_build_end_array(&rb);
	rec_build_key(&rb, "modules");
	rec_build_array(&rb);
	for (i = 0; i < x->nmods; i++) {
		rec_build_object(&rb);
		rec_build_key(&rb, "name");
		rec_build_strz(&rb, x->mods[i].key);
		rec_build_key(&rb, "module");
		rec_build_strz(&rb, x->mods[i].name);
		rec_build_key(&rb, "program_id");
		if (x->mods[i].program_id >= 0)
			rec_build_int(&rb, x->mods[i].program_id);
		else
			rec_build_null(&rb);
		rec_build_key(&rb, "hlo_bytes");
		rec_build_int(&rb, (long long)x->mods[i].len);
		rec_build_end_object(&rb);
	}
	rec_build_end_array(&rb);
	rec_build_key(&rb, "gpu_events");
	rec_build_int(&rb, (long long)x->gpu_events);
	rec_build_key(&rb, "unlinked");
	rec_build_int(&rb, (long long)x->unlinked);
	rec_build_end(&rb);
	flush_out(x);
}

/* "regs:38 grid:160,1,1 block:1024,1,1 ..." → grid, block arrays; shared bytes. */
static void
build_kdetails(struct rec_build *rb, const char *s)
{
	static const char *const keys[] = { "grid", "block" };
	static const char *const pats[] = { "grid:", "block:" };
	const char *p;
	size_t i;
	long long shared = 0;
	bool any = false;

	for (i = 0; i < 2; i++) {
		const char *pat = pats[i];
		long long v[3];
		int n = 0;

		for (p = s; (p = strstr(p, pat)) != NULL; p++)
			if (p == s || p[-1] == ' ')
				break;
		if (p == NULL)
			continue;
		p += strlen(pat);
		while (n < 3) {
			char *end;
			v[n] = strtoll(p, &end, 10);
			if (end == p)
				break;
			n++;
			p = end;
			if (*p != ',')
				break;
			p++;
		}
		if (n == 0)
			continue;
		rec_build_key(rb, keys[i]);
		rec_build_array(rb);
		for (int k = 0; k < n; k++)
			rec_build_int(rb, v[k]);
		rec_build_end_array(rb);
	}
	for (i = 0; i < 4; i++) {
		static const char *const sh[] = { "static_shared:", "dynamic_shared:", "shm:",
		    "group_mem:" };
		for (p = s; (p = strstr(p, sh[i])) != NULL; p++)
			if (p == s || p[-1] == ' ')
				break;
		if (p != NULL) {
			long long v1 = strtoll(p + strlen(sh[i]), NULL, 10);

			/* saturated, as strtoll saturates one size too large: no real
			 * kernel's shared memory comes near, the record still comes */
			if (!ck_add_i64(shared, v1, &shared))
				shared = v1 < 0 ? LLONG_MIN : LLONG_MAX;
			any = true;
		}
	}
	if (any) {
		rec_build_key(rb, "shared");
		rec_build_int(rb, shared);
	}
}

/* build_kdetails of text t, its members kept for the next kernel of the same text (a
 * member precedes them, the comma is due and stays due). */
static void
kdetails(struct xp *x, struct rec_build *rb, const char *t)
{
	size_t start = x->out.len, len = strlen(t);
	uint32_t k;
	int added;

	if (x->kdn.n >= KDCACHE_TEXTS && names_lookup(&x->kdn, t, len) == NAME_NONE) {
		build_kdetails(rb, t);
		return;
	}
	k = names_add(&x->kdn, t, len, &added);
	if (added) {
		if ((size_t)k >= x->capkd) {
			size_t old = x->capkd;

			x->kd_at = xgrow(x->kd_at, &x->capkd, (size_t)k + 1, sizeof(*x->kd_at));
			x->kd_len = xreallocarray(x->kd_len, x->capkd, sizeof(*x->kd_len));
			memset(x->kd_at + old, 0, (x->capkd - old) * sizeof(*x->kd_at));
		}
		x->kd_at[k] = 0;
	} else if (x->kd_at[k] != 0) {
		buf_add(&x->out, x->kdcache.p + x->kd_at[k] - 1, x->kd_len[k]);
		return;
	}
	build_kdetails(rb, t);
	if (added && x->kdcache.len + (x->out.len - start) <= KDCACHE_MAX) {
		x->kd_at[k] = (uint32_t)x->kdcache.len + 1;
		x->kd_len[k] = (uint32_t)(x->out.len - start);
		buf_add(&x->kdcache, x->out.p + start, x->out.len - start);
	}
}

/* What xprof shows of an event: its metadata's display name when set and not empty,
 * else its name; "" when it has neither. */
static const char *
event_name(const struct plane *pl, const struct event *e)
{
	if (e->meta == NULL)
		return "";
	if (e->meta->dname != NAME_NONE && *names_str(&pl->strs, e->meta->dname))
		return names_str(&pl->strs, e->meta->dname);
	return e->meta->name != NAME_NONE ? names_str(&pl->strs, e->meta->name) : "";
}

/* The keys every event record starts with: kind, trace, id and uid (TraceLens's UID). */
static void
build_event_head(struct rec_build *rb, const char *kind, uint64_t uid)
{
	rec_build_key(rb, "kind");
	rec_build_word(rb, kind);
	rec_build_key(rb, "trace");
	rec_build_word(rb, "xplane");
	rec_build_key(rb, "id");
	build_u64(rb, uid);
	rec_build_key(rb, "uid");
	build_u64(rb, uid);
}

/* A time in ps as a JSON integer: ns * 1000 + rem (0 <= rem < 1000) written out in
 * decimal, without the 64-bit product: a negative ns with a remainder borrows one ns. */
static void
build_ps(struct rec_build *rb, int64_t ns, uint32_t rem)
{
	char t[64];
	uint64_t m;
	int n;

	if (ns >= 0 || rem == 0) {
		if (ns == 0)
			n = snprintf(t, sizeof(t), "%u", rem);
		else
			n = snprintf(t, sizeof(t), "%lld%03u", (long long)ns, rem);
	} else {
		m = (uint64_t)-(ns + 1);	/* -ns - 1, for ns = INT64_MIN too */
		if (m == 0)
			n = snprintf(t, sizeof(t), "-%u", 1000 - rem);
		else
			n = snprintf(t, sizeof(t), "-%llu%03u", (unsigned long long)m, 1000 - rem);
	}
	rec_build_num(rb, t, (size_t)n);
}

/* A gpu record's event: its name, kind and class, where it ran, when and how long. */
static void
gpu_event(struct rec_build *rb, const struct plane *pl, const struct line *ln,
    const struct event *e)
{
	const char *name, *lname;
	int64_t start_ns;
	uint32_t rem;
	uint8_t gk, cl;

	name = event_name(pl, e);
	if (e->meta != NULL) {
		gk = e->meta->gpu;
		cl = e->meta->cls;
	} else
		xp_classify(name, &gk, &cl);
	xp_event_start(ln, e, &start_ns, &rem);
	rec_build_key(rb, "name");
	rec_build_strz(rb, name);
	rec_build_key(rb, "gpu");
	rec_build_word(rb, gpu_kinds[gk]);
	rec_build_key(rb, "class");
	rec_build_word(rb, classes[cl]);
	rec_build_key(rb, "device");
	rec_build_int(rb, pl->ordinal);
	rec_build_key(rb, "pid");
	rec_build_int(rb, pl->pid);
	rec_build_key(rb, "tid");
	rec_build_int(rb, ln->tid);
	lname = ln->dname != NAME_NONE && *names_str(&pl->strs, ln->dname) ?
	    names_str(&pl->strs, ln->dname) : names_str(&pl->strs, ln->name);
	rec_build_key(rb, "stream");
	rec_build_strz(rb, ln->name == NAME_NONE && ln->dname == NAME_NONE ? "" : lname);
	rec_build_key(rb, "start_ns");
	rec_build_int(rb, start_ns);
	rec_build_key(rb, "ns");
	build_u64(rb, e->dur_ps / 1000);
	if (pl->subns) {
		rec_build_key(rb, "start_ps");
		build_ps(rb, start_ns, rem);
		rec_build_key(rb, "ps");
		build_u64(rb, e->dur_ps);
	}
}

/* A gpu record's correlation_id and the start of the host event that launched it. */
static void
gpu_launch(struct rec_build *rb, struct xp *x, const struct plane *pl,
    const struct event *e, const struct xstat *st, size_t nst)
{
	const struct link *l;
	uint64_t corr;

	if (!xp_stat_u64(xp_find_stat(pl, e, st, nst, pl->s_corr), &corr))
		return;
	l = xp_link_slot(x, corr);
	rec_build_key(rb, "correlation_id");
	build_u64(rb, corr);
	if (l == NULL || !l->used)
		return;
	rec_build_key(rb, "launch_start_ns");
	rec_build_int(rb, l->start_ns);
	if (l->rem_ps != 0 || pl->subns) {
		rec_build_key(rb, "launch_start_ps");
		build_ps(rb, l->start_ns, l->rem_ps);
	}
}

/* A gpu record's XLA stats (module, program, HLO op, TF op, scope, kernel details) and
 * the facts of the HLO instruction it ran. */
static void
gpu_xla(struct rec_build *rb, struct xp *x, const struct plane *pl, const struct event *e,
    const struct xstat *st, size_t nst)
{
	const char *t, *mod, *op;
	uint64_t v;
	long long pidv;
	bool has_pid;
	struct module *mm;
	const struct hlo_module *hm;
	const struct hlo_instr *ins;

	mod = xp_stat_text(x, pl, xp_find_stat(pl, e, st, nst, pl->s_hlo_module));
	op = xp_stat_text(x, pl, xp_find_stat(pl, e, st, nst, pl->s_hlo_op));
	has_pid = xp_stat_u64(xp_find_stat(pl, e, st, nst, pl->s_program_id), &v);
	pidv = has_pid ? (long long)v : -1;
	if (mod != NULL) {
		rec_build_key(rb, "hlo_module");
		rec_build_strz(rb, mod);
	}
	if (has_pid) {
		rec_build_key(rb, "program_id");
		build_u64(rb, v);
	}
	if (op != NULL) {
		rec_build_key(rb, "hlo_op");
		rec_build_strz(rb, op);
	}
	if ((t = xp_stat_text(x, pl, xp_find_stat(pl, e, st, nst, pl->s_tf_op))) != NULL) {
		rec_build_key(rb, "tf_op");
		rec_build_strz(rb, t);
	}
	if ((t = xp_stat_text(x, pl, xp_find_stat(pl, e, st, nst, pl->s_name))) != NULL) {
		rec_build_key(rb, "scope");
		rec_build_strz(rb, t);
	}
	if ((t = xp_stat_text(x, pl, xp_find_stat(pl, e, st, nst, pl->s_kdetails))) != NULL) {
		rec_build_key(rb, "kernel_details");
		rec_build_strz(rb, t);
		kdetails(x, rb, t);
	}
	if (mod != NULL && op != NULL &&
	    (mm = xp_find_module(x, mod, has_pid ? &pidv : NULL)) != NULL) {
		rec_build_key(rb, "module");
		rec_build_strz(rb, mm->key);
		if ((hm = xp_module_hlo(x, mm)) != NULL &&
		    (ins = hlo_find(hm, op, strlen(op))) != NULL)
			xp_hlo_members(rb, x, mm, ins);
	}
}

/* One device event as a gpu record (docs/jax.md §10). */
int
xp_write_gpu(struct xp *x, struct plane *pl, const struct line *ln, const struct event *e,
    const struct xstat *st, size_t nst, uint64_t uid)
{
	struct rec_build rb;

	rec_build_begin(&rb, &x->out);
	build_event_head(&rb, "gpu", uid);
	gpu_event(&rb, pl, ln, e);
	gpu_launch(&rb, x, pl, e, st, nst);
	gpu_xla(&rb, x, pl, e, st, nst);
	rec_build_end(&rb);
	flush_out(x);
	return 0;
}

/* Stats that op records leave out: xprof's internal ones, and long or binary ones. */
static bool
op_stat_skipped(const char *sn)
{
	static const char *const skip[] = { "_pt", "_ct", "_p", "_c", "_r", "symbol_id",
	    "source_stack", "memory_access_breakdown", "program_id", "flops",
	    "bytes_accessed", "hlo_category" };
	size_t i;

	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (strcmp(sn, skip[i]) == 0)
			return true;
	return false;
}

/* The stats st[0..nst) but those of an id that comes again later or in over[0..nover)
 * (the event's own stats override its metadata's): each key once. */
static void
build_op_stats(struct rec_build *rb, struct xp *x, const struct plane *pl,
    const struct xstat *st, size_t nst, const struct xstat *over, size_t nover)
{
	const struct xstat *s;
	const char *sn;
	size_t i, j;

	for (i = 0; i < nst; i++) {
		s = &st[i];
		for (j = i + 1; j < nst && st[j].md != s->md; j++)
			;
		if (j < nst)
			continue;
		for (j = 0; j < nover && over[j].md != s->md; j++)
			;
		if (j < nover)
			continue;
		if (s->kind == S_BYTES || s->kind == S_NONE ||
		    (sn = xp_stat_name(pl, s->md)) == NULL || op_stat_skipped(sn))
			continue;
		rec_build_keyn(rb, sn, strlen(sn));
		build_stat(rb, x, pl, s);
	}
}

/* One event of a TPU plane's XLA Ops or XLA Modules line as an op record (docs/jax.md
 * §10, §11): its name as op (the core key of op records), its line, its duration as
 * device_ns and exactly in ps, and its metadata's cost stats. */
int
xp_write_op(struct xp *x, struct plane *pl, const struct line *ln, const struct event *e,
    const struct xstat *st, size_t nst, uint64_t uid)
{
	struct rec_build rb;
	const char *name, *lname, *t;
	const struct xstat *s;
	int64_t start_ns;
	uint32_t rem;
	uint64_t v;

	name = event_name(pl, e);
	lname = ln->dname != NAME_NONE && *names_str(&pl->strs, ln->dname) ?
	    names_str(&pl->strs, ln->dname) : names_str(&pl->strs, ln->name);
	xp_event_start(ln, e, &start_ns, &rem);
	rec_build_begin(&rb, &x->out);
	build_event_head(&rb, "op", uid);
	rec_build_key(&rb, "op");
	rec_build_strz(&rb, name);
	rec_build_key(&rb, "line");
	rec_build_strz(&rb, lname);
	rec_build_key(&rb, "device");
	rec_build_int(&rb, pl->ordinal);
	rec_build_key(&rb, "pid");
	rec_build_int(&rb, pl->pid);
	rec_build_key(&rb, "tid");
	rec_build_int(&rb, ln->tid);
	rec_build_key(&rb, "start_ns");
	rec_build_int(&rb, start_ns);
	rec_build_key(&rb, "device_ns");
	build_u64(&rb, e->dur_ps / 1000);
	rec_build_key(&rb, "start_ps");
	build_ps(&rb, start_ns, rem);
	rec_build_key(&rb, "ps");
	build_u64(&rb, e->dur_ps);
	if ((t = xp_stat_text(x, pl, xp_find_stat(pl, e, st, nst, pl->s_category))) != NULL) {
		rec_build_key(&rb, "hlo_category");
		rec_build_strz(&rb, t);
	}
	if (strcmp(lname, "XLA Modules") == 0 && (t = strrchr(name, '(')) != NULL &&
	    t != name && name[strlen(name) - 1] == ')') {
		/* "module(program_id)" */
		rec_build_key(&rb, "module");
		rec_build_str(&rb, name, (size_t)(t - name));
	}
	if (e->meta != NULL && e->meta->name != NAME_NONE && e->meta->dname != NAME_NONE &&
	    *names_str(&pl->strs, e->meta->dname)) {
		/* the metadata's name: the HLO instruction's text, or "module(program)" */
		rec_build_key(&rb, "long_name");
		rec_build_strz(&rb, names_str(&pl->strs, e->meta->name));
	}
	if (xp_stat_u64(s = xp_find_stat(pl, e, st, nst, pl->s_program_id), &v)) {
		rec_build_key(&rb, "program_id");
		build_u64(&rb, v);
	}
	if (xp_stat_u64(xp_find_stat(pl, e, st, nst, pl->s_flops), &v)) {
		rec_build_key(&rb, "flops");
		build_u64(&rb, v);
	}
	if (xp_stat_u64(xp_find_stat(pl, e, st, nst, pl->s_bytes), &v)) {
		rec_build_key(&rb, "bytes");
		build_u64(&rb, v);
	}
	/* the other stats under their own names: the metadata's, then the event's */
	rec_build_key(&rb, "stats");
	rec_build_object(&rb);
	if (e->meta != NULL)
		build_op_stats(&rb, x, pl, pl->stats + e->meta->st, e->meta->nst, st, nst);
	build_op_stats(&rb, x, pl, st, nst, NULL, 0);
	rec_build_end_object(&rb);
	rec_build_end(&rb);
	flush_out(x);
	return 0;
}
