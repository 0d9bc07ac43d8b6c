/* SPDX-License-Identifier: ISC */
/*
 * filter: ttp-filter's selection from the first record read to the last written
 * (see filter.h). Pass 1 summarises and spools; at the end of input the window and the
 * merge run on the summaries; pass 2 replays the chosen lines from the spool, parsing
 * only the few records it changes (gap_ns deleted, a collective's mean device_ns).
 */
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/badrec.h"
#include "core/buf.h"
#include "core/diag.h"
#include "tt/filter.h"
#include "core/io.h"
#include "tt/merge.h"
#include "core/spool.h"
#include "core/trace.h"
#include "tt/opclass.h"

/* The distinct values of an integer key (at most SEEN_MAX, sorted) and whether any op
 * of the selection matched. */
#define SEEN_MAX 32
struct seen {
	long long	 v[SEEN_MAX];
	size_t		 n;
	bool		 any, more, matched;
};

static void
seen_note(struct seen *s, long long v, bool match)
{
	size_t i;

	s->any = true;
	if (match)
		s->matched = true;
	for (i = 0; i < s->n && s->v[i] < v; i++)
		;
	if (i < s->n && s->v[i] == v)
		return;
	if (s->n == SEEN_MAX) {
		s->more = true;
		return;
	}
	memmove(s->v + i + 1, s->v + i, (s->n - i) * sizeof(*s->v));
	s->v[i] = v;
	s->n++;
}

static void
seen_add(struct seen *s, long long v, long long want)
{
	seen_note(s, v, v == want);
}

/* The values present, for a message. */
static void
seen_list(const struct seen *s, struct buf *b)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		buf_printf(b, "%s%lld", i ? ", " : "", s->v[i]);
	if (s->more)
		buf_adds(b, ", ...");
}

/* --program/--loop N that no op has: one message naming the values present; -1. */
static int
seen_check(const struct seen *s, const char *opt, const char *key, long long want,
    struct error *err)
{
	struct buf b = BUF_INIT;

	if (want < 0 || s->matched)
		return 0;
	if (!s->any) {
		error_set(err, NULL, 0, -1, "%s %lld: no op has the \"%s\" key (%s)", opt, want,
		    key, strcmp(key, "iter") == 0 ? "ttp-phase writes it: add ttp-phase before "
		    "ttp-filter" : "PROGRAM_METADATA of tt-mlir and tt-torch traces");
		return -1;
	}
	seen_list(s, &b);
	error_set(err, NULL, 0, -1, "%s %lld: no op has %s %lld (present: %s)", opt, want, key,
	    want, b.p);
	buf_free(&b);
	return -1;
}

/* The distinct values of a string key (the first SEEN_MAX), for --phase. */
struct seen_str {
	char		*v[SEEN_MAX];
	size_t		 n;
	bool		 any, more, matched;
};

static void
seen_str_add(struct seen_str *s, const char *v, size_t len, const char *want)
{
	size_t i;

	s->any = true;
	if (strlen(want) == len && memcmp(v, want, len) == 0)
		s->matched = true;
	for (i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == len && memcmp(s->v[i], v, len) == 0)
			return;
	if (s->n == SEEN_MAX) {
		s->more = true;
		return;
	}
	s->v[s->n++] = xstrndup(v, len);
}

static void
seen_str_free(struct seen_str *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
}

/* A boolean tt-mlir key under --no-X / --X-only; *any: the record has it. */
static void
bool_select(struct rec *r, const char *key, int how, bool *any, struct fent *x)
{
	bool b = false;

	if (rec_bool(r, key, &b))
		*any = true;
	if ((how == FILTER_DROP && b) || (how == FILTER_ONLY && !b))
		x->flags |= FE_DROP;
}

struct filter {
	const struct filter_opts *o;
	FILE		*out;
	struct names	 nm;
	struct fent	*e;		/* one per spooled record, stream order */
	size_t		 n, cap;
	struct spool	*sp;
	struct buf	 line;

	/* emit state: the analysed sequence as it goes out */
	bool		 seen_op;	/* a non-signpost row came before */
	bool		 range_started;	/* the first row inside --id-range came */

	/* streaming (--ignore-signposts --no-merge-devices, >1 device) */
	bool		 may_stream;
	bool		 streaming;
	int64_t		*devs;		/* distinct devices seen, sorted */
	size_t		 ndevs, capdevs;

	/* what the tt-mlir selections saw, for a clear message when they keep nothing */
	struct seen	 progs, loops;
	bool		 any_ce, any_ilc;
	/* and what the other selections saw (a typo must not give a silent empty output) */
	struct seen	 iters, devsel;
	struct seen_str	 phases;
	bool		*op_matched;		/* per --op glob */
	char		*op_casefold;		/* an op name a glob matches if case is ignored */
	bool		 any_named_op;

	/* PyTorch records: no device merging (a TT concept); --device picks GPU records;
	 * a GPU record goes out only when the op it is charged to does (that op's record
	 * comes right before it) */
	bool		 kineto;
	size_t		 last_op;	/* entry of the last op record */
	int64_t		 last_op_id;
	bool		 have_op;
	bool		*kept;		/* per entry: written */

	/*
	 * The signpost window and the device merge stream when ttp-parse's leading "trace"
	 * record promises what the end of input would tell (tt_trace): ids ascending (so
	 * the merge's id order is stream order, and a named window's ID bounds are stream
	 * positions), the devices, the signposts in order. Records are spooled until the
	 * window holds a device op of every promised device (before that the reference may
	 * keep nothing, Q43, and the number of devices is not known); then the window's
	 * entries go through the merge's per-device queues, and out in stream order as soon
	 * as their step is made: e[head..n) are the records still waiting, lines in the
	 * spool, e[0] at stream position base. A record that breaks the promise is an error.
	 */
	bool		 tt_promise;	/* a usable trace record came first */
	bool		 tt_stream;	/* now streaming the window */
	bool		 tt_inwin;	/* the default window has started */
	uint32_t	*tt_sp;		/* the promised signposts, interned */
	size_t		 tt_nsp, tt_spi;
	struct wplan	 tt_plan;
	int64_t		*tt_devs;	/* the promised devices, ascending */
	bool		*tt_devseen;	/* ... that have a device op in the window */
	size_t		 tt_ndev, tt_nseen;
	int64_t		 tt_previd;
	bool		 tt_anyid;
	bool		 tt_merging;	/* streaming through the merge, not per device */
	struct merge	 tt_m;
	size_t		 head;		/* the first entry not yet written */
	uint64_t	 base;		/* stream position of e[0] */

	/*
	 * Without a promise the summaries stay in memory up to SPILL_AT entries; past that,
	 * while ids ascend, they go to a spool of their own (fsp), and at the end of input
	 * the window and the merge are replayed from the two spools in stream order through
	 * the streaming merge above, what the trace record would have told now known:
	 * the signposts (sps), the devices. Ids that stop ascending (the merge's id order
	 * is then not stream order) or PyTorch records read them back into memory.
	 */
	struct spool	*fsp;
	size_t		 nspilled;	/* summaries in fsp, e[] empty meanwhile */
	bool		 asc, anyid;	/* the ids so far ascend */
	int64_t		 lastid;
	uint32_t	*sps;		/* the signposts' names, stream order */
	size_t		 nsps, capsps;
	bool		 replay;	/* e[] is the replay's queue; lines stay in sp */
};

static void
write_line(struct filter *f, const char *line, size_t len)
{
	if (fwrite_unlocked(line, 1, len, f->out) != len)
		io_write_error(f->out, "stdout");
}

/* One row of the analysed sequence (kind op or signpost), in output order; true when
 * it is written. */
static bool
emit(struct filter *f, struct fent *x, const char *line, size_t len)
{
	const struct filter_opts *o = f->o;
	struct error err = ERROR_INIT;
	bool clr = false;
	struct rec *r;

	if (x->kind == FK_OP) {
		/* docs/tt-perf-report.md §9: a gap only when a non-signpost row precedes in
		 * the sequence */
		if (!f->seen_op)
			clr = true;
		f->seen_op = true;
	}
	if (o->has_idrange) {
		if ((o->idrange.has_lo && x->id < o->idrange.lo) ||
		    (o->idrange.has_hi && x->id > o->idrange.hi))
			return false;
		if (!f->range_started) {	/* docs/tt-perf-report.md §14: no gap */
			f->range_started = true;
			clr = true;
		}
	}
	if (x->flags & FE_DROP)
		return false;
	if (!(x->flags & FE_GAP))
		clr = false;
	if (!clr && !(x->flags & FE_SETDUR)) {
		write_line(f, line, len);
		return true;
	}
	/* a line rec_format wrote: an error here is the program's own */
	r = rec_parse(line, len > 0 && line[len - 1] == '\n' ? len - 1 : len, "-",
	    &err);
	if (r == NULL)
		error_die(&err);
	if (clr)
		rec_del(r, "gap_ns");
	if (x->flags & FE_SETDUR) {
		if (isnan(x->dur))
			rec_del(r, "device_ns");
		else
			rec_set_num(r, "device_ns", x->dur);
	}
	rec_write(r, f->out);
	rec_free(r);
	return true;
}

static bool
matches_any(char **globs, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fnmatch(globs[i], s, 0) == 0)
			return true;
	return false;
}

/* --op: whether any glob matches name, noting which globs ever matched. */
static bool
op_selected(struct filter *f, const char *name)
{
	const struct filter_opts *o = f->o;
	bool any = false;
	size_t i;

	f->any_named_op = true;
	for (i = 0; i < o->nops; i++) {
		if (fnmatch(o->ops[i], name, 0) == 0) {
			f->op_matched[i] = true;
			any = true;
		} else if (!f->op_matched[i] && f->op_casefold == NULL &&
		    fnmatch(o->ops[i], name, FNM_CASEFOLD) == 0)
			f->op_casefold = xstrdup(name);
	}
	return any;
}

/* Selections that kept nothing because of a typo: one error naming what is present;
 * -1. */
static int
check_selections(struct filter *f, struct error *err)
{
	const struct filter_opts *o = f->o;
	struct buf b = BUF_INIT;
	size_t i;

	if (seen_check(&f->iters, "--iter", "iter", o->iter, err) < 0)
		return -1;
	if (o->has_devices && !f->devsel.matched) {
		if (!f->devsel.any) {
			error_set(err, NULL, 0, -1, "--device: no record has the \"device\" key");
			return -1;
		}
		seen_list(&f->devsel, &b);
		error_set(err, NULL, 0, -1, "--device: nothing on the devices asked for (devices "
		    "present: %s)", b.p);
		buf_free(&b);
		return -1;
	}
	if (o->phase != NULL && !f->phases.matched) {
		if (!f->phases.any) {
			error_set(err, NULL, 0, -1, "--phase %s: no op has the \"phase\" key "
			    "(ttp-phase writes it: add ttp-phase before ttp-filter)", o->phase);
			return -1;
		}
		for (i = 0; i < f->phases.n; i++)
			buf_printf(&b, "%s%s", i ? ", " : "", f->phases.v[i]);
		if (f->phases.more)
			buf_adds(&b, ", ...");
		error_set(err, NULL, 0, -1, "--phase %s: no op has that phase (phases present: "
		    "%s)", o->phase, b.p);
		buf_free(&b);
		return -1;
	}
	for (i = 0; i < o->nops && f->any_named_op; i++) {
		if (f->op_matched[i])
			continue;
		if (f->op_casefold != NULL && fnmatch(o->ops[i], f->op_casefold, FNM_CASEFOLD) == 0)
			error_set(err, NULL, 0, -1, "--op '%s': no op name matches (names are "
			    "case-sensitive; '%s' would match if case were ignored)", o->ops[i],
			    f->op_casefold);
		else
			error_set(err, NULL, 0, -1, "--op '%s': no op name matches (ttp-parse FILE | "
			    "jq -r 'select(.kind == \"op\") | .op' | sort -u lists them)", o->ops[i]);
		return -1;
	}
	return 0;
}

/* Add d to the ascending list v[0..*n) unless it is there; returns *n. */
static size_t
sorted_add(int64_t **v, size_t *n, size_t *cap, int64_t d)
{
	size_t lo = 0, hi = *n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if ((*v)[mid] == d)
			return *n;
		if ((*v)[mid] < d)
			lo = mid + 1;
		else
			hi = mid;
	}
	*v = xgrow(*v, cap, *n + 1, sizeof(**v));
	memmove(*v + lo + 1, *v + lo, (*n - lo) * sizeof(**v));
	(*v)[lo] = d;
	return ++*n;
}

/* Track distinct devices; returns how many there are now. */
static size_t
see_device(struct filter *f, int64_t d)
{
	return sorted_add(&f->devs, &f->ndevs, &f->capdevs, d);
}

/*
 * What summarise read of a record for the selections' messages, applied by admit once
 * the program has taken the record as good: a bad record leaves no trace.
 */
struct facts {
	bool		 kineto;	/* "trace":"kineto" */
	bool		 has_dev;	/* --device: a device of the record ... */
	long long	 dev;
	bool		 keep;		/* ... and whether it is one asked for */
	bool		 ce, ilc;	/* the tt-mlir booleans are there */
	bool		 has_prog, has_loop, has_iter;
	long long	 prog, loop, iter;
	const char	*phase;		/* the op's phase, phaselen bytes */
	size_t		 phaselen;
	bool		 named;		/* an op with a name, for --op */
};

/* Summarise one record, reading only; false when it is dropped at once (--device). A
 * record the filter cannot use is marked bad (rec_reject). */
static bool
summarise(struct filter *f, struct rec *r, struct fent *x, struct facts *fa)
{
	const struct filter_opts *o = f->o;
	enum rec_kind kind;
	const char *s;
	size_t len;
	long long v;
	double d;

	memset(x, 0, sizeof(*x));
	memset(fa, 0, sizeof(*fa));
	x->name = NAME_NONE;
	x->dur = NAN;
	kind = rec_kind(r);
	if (!f->kineto && rec_trace(r) == TRACE_KINETO)
		fa->kineto = true;
	if (kind != KIND_OP && kind != KIND_SIGNPOST) {
		x->kind = FK_OTHER;
		if (f->have_op && kind == KIND_GPU && rec_int(r, "launched_by", &v) &&
		    v == f->last_op_id) {
			x->flags |= FE_GPULINK;
			x->id = (int64_t)f->last_op;
		}
		/* a PyTorch GPU event on a device not asked for */
		if (o->has_devices && kind == KIND_GPU && rec_int(r, "device", &v)) {
			fa->has_dev = true;
			fa->dev = v;
			fa->keep = devlist_has(&o->devices, v);
			return fa->keep;
		}
		return true;
	}
	x->kind = kind == KIND_OP ? FK_OP : FK_SIGNPOST;
	if (!rec_int(r, "id", &v)) {
		rec_reject(r, "%s record without \"id\"", rec_kind_name(kind));
		return false;
	}
	x->id = v;
	s = rec_str(r, x->kind == FK_OP ? "op" : "name", &len);
	if (s != NULL) {
		x->name = names_intern(&f->nm, s, len);
		if (opclass_host(s))	/* Q38: on the shown name, any kind */
			x->flags |= FE_HOST;
	}
	if (x->kind == FK_OP) {
		s = rec_str(r, "op_type", NULL);
		if (opclass_device_type(s))
			x->flags |= FE_DEVOP;
		if (rec_int(r, "device", &v)) {
			x->flags |= FE_HASDEV;
			x->device = v;
			if (o->has_devices) {
				fa->has_dev = true;
				fa->dev = v;
				if (!(fa->keep = devlist_has(&o->devices, v)))
					return false;
			}
		}
		if (rec_num(r, "device_ns", &d))
			x->dur = d;
		if (rec_has(r, "gap_ns"))
			x->flags |= FE_GAP;
		bool_select(r, "const_eval", o->const_eval, &fa->ce, x);
		bool_select(r, "input_layout_conversion", o->layout_conv, &fa->ilc, x);
		if (o->program >= 0) {
			fa->has_prog = rec_int(r, "program_index", &fa->prog);
			if (!fa->has_prog || fa->prog != o->program)
				x->flags |= FE_DROP;
		}
		if (o->loop >= 0) {
			fa->has_loop = rec_int(r, "loop_number", &fa->loop);
			if (!fa->has_loop || fa->loop != o->loop)
				x->flags |= FE_DROP;
		}
		if (o->phase != NULL) {
			fa->phase = rec_str(r, "phase", &fa->phaselen);
			if (fa->phase == NULL || strcmp(fa->phase, o->phase) != 0)
				x->flags |= FE_DROP;
		}
		if (o->iter >= 0) {
			fa->has_iter = rec_int(r, "iter", &fa->iter);
			if (!fa->has_iter || fa->iter != o->iter)
				x->flags |= FE_DROP;
		}
		fa->named = x->name != NAME_NONE;
		if (o->nops > 0 && (!fa->named ||
		    !matches_any(o->ops, o->nops, names_str(&f->nm, x->name))))
			x->flags |= FE_DROP;
		if (o->nxops > 0 && fa->named &&
		    matches_any(o->xops, o->nxops, names_str(&f->nm, x->name)))
			x->flags |= FE_DROP;
	}
	if (o->no_host_ops && (x->flags & FE_HOST))
		x->flags |= FE_DROP;
	return true;
}

/* A good record's summary: what the selections' messages and the GPU links keep. */
static void
admit(struct filter *f, const struct fent *x, const struct facts *fa)
{
	const struct filter_opts *o = f->o;

	if (fa->kineto)
		f->kineto = true;
	if (fa->has_dev)
		seen_note(&f->devsel, fa->dev, fa->keep);
	if (x->kind == FK_OP) {
		f->last_op = f->nspilled + f->n;
		f->last_op_id = x->id;
		f->have_op = true;
	}
	if (x->kind != FK_OP || (fa->has_dev && !fa->keep))
		return;
	if (fa->ce)
		f->any_ce = true;
	if (fa->ilc)
		f->any_ilc = true;
	if (fa->has_prog)
		seen_add(&f->progs, fa->prog, o->program);
	if (fa->has_loop)
		seen_add(&f->loops, fa->loop, o->loop);
	if (fa->phase != NULL)
		seen_str_add(&f->phases, fa->phase, fa->phaselen, o->phase);
	if (fa->has_iter)
		seen_add(&f->iters, fa->iter, o->iter);
	if (o->nops > 0 && fa->named)
		(void)op_selected(f, names_str(&f->nm, x->name));
}

static void
range_message(const struct filter_opts *o)
{
	const struct idrange *r = &o->idrange;

	if (!o->has_idrange || !o->verbose)
		return;
	if (r->has_lo && r->has_hi)
		say("Filtering rows with IDs from %lld to %lld", (long long)r->lo, (long long)r->hi);
	else if (r->has_lo)
		say("Filtering rows with IDs from %lld onwards", (long long)r->lo);
	else
		say("Filtering rows with IDs up to %lld", (long long)r->hi);
}

/* Start streaming: everything spooled so far goes out in stream order. */
static void
start_streaming(struct filter *f)
{
	size_t i;

	f->streaming = true;
	for (i = 0; i < f->n; i++) {
		struct fent *x = &f->e[i];
		const char *p = spool_get(f->sp, x->off, x->len);

		if (x->kind == FK_OTHER)
			write_line(f, p, x->len);
		else
			emit(f, x, p, x->len);
	}
	spool_close(f->sp);
	f->sp = NULL;
	free(f->e);
	f->e = NULL;
	f->n = f->cap = 0;
}

static bool
is_devop(const struct fent *x)
{
	return x->kind == FK_OP && (x->flags & (FE_DEVOP | FE_HASDEV)) == (FE_DEVOP | FE_HASDEV);
}

/*
 * The window holds no device op although the input has some: the reference's "No device
 * operations found" alone sends users looking for a broken trace. Say why, and what to
 * try: the last signpost is often an end marker (PERF_DECODE_END, "... finished"), and
 * a trace replay reuses the capture's timestamps, which sorts its signposts after
 * every op.
 */
static void
empty_window(struct filter *f, const uint32_t *sel, size_t k)
{
	const struct wopts *w = &f->o->w;
	struct buf b = BUF_INIT;
	size_t i, nall = 0, nsp = 0, nlisted = 0, firstsp = 0, ops_after = 0;
	uint32_t last = NAME_NONE;

	for (i = 0; i < k; i++)
		if (is_devop(&f->e[sel[i]]))
			return;
	for (i = 0; i < f->n; i++) {
		if (is_devop(&f->e[i]))
			nall++;
		if (f->e[i].kind == FK_SIGNPOST) {
			if (nsp++ == 0)
				firstsp = i;
			last = f->e[i].name;
		}
	}
	if (nall == 0 || nsp == 0 || w->ignore)
		return;
	for (i = firstsp + 1; i < f->n; i++)	/* none: the signposts all sort last */
		if (is_devop(&f->e[i]))
			ops_after++;
	for (i = 0; i < f->n && nlisted < 8; i++) {
		if (f->e[i].kind != FK_SIGNPOST)
			continue;
		if (strstr(b.p ? b.p : "", names_str(&f->nm, f->e[i].name)) != NULL)
			continue;
		buf_printf(&b, "%s'%s'", nlisted++ ? ", " : "", names_str(&f->nm, f->e[i].name));
	}
	if (w->start == NULL && w->end == NULL)
		warning("the default window (after the last signpost, '%s') holds none of the "
		    "%zu device ops", names_str(&f->nm, last), nall);
	else
		warning("the signpost window holds none of the %zu device ops", nall);
	warning("try --start-signpost/--end-signpost with the signposts present (%s%s), "
	    "--ignore-signposts for the whole trace%s", b.p, nlisted == 8 ? ", ..." : "",
	    ops_after == 0 ? ", or ttp-parse --no-sort (ttp-report --tracing-mode): every "
	    "signpost sorts after every op, as in a trace replay that reuses the capture's "
	    "timestamps" : "");
	buf_free(&b);
}

/* A record of another kind, unless it is a GPU record whose op was not written. */
static void
write_other(struct filter *f, const struct fent *x)
{
	if (x->kind != FK_OTHER)
		return;
	if ((x->flags & FE_GPULINK) && f->kept != NULL && !f->kept[x->id])
		return;
	write_line(f, spool_get(f->sp, x->off, x->len), x->len);
}

/* End of input with everything spooled: select and replay; -1 when a named signpost
 * is not there. */
static int
finish(struct filter *f, struct error *err)
{
	const struct filter_opts *o = f->o;
	uint32_t *sel, *seq;
	size_t i, k, m, u = 0;

	sel = xreallocarray(NULL, f->n ? f->n : 1, sizeof(*sel));
	if (window_select(f->e, f->n, &f->nm, &o->w, sel, &k, err) < 0) {
		free(sel);
		return -1;
	}
	seq = xreallocarray(NULL, k ? k : 1, sizeof(*seq));
	if (f->kineto) {
		memcpy(seq, sel, k * sizeof(*seq));
		m = k;
	} else {
		m = merge_devices(f->e, sel, k, &f->nm, o->no_merge, o->verbose, seq);
		empty_window(f, sel, k);
	}
	free(sel);
	range_message(o);
	if (f->kineto)
		f->kept = xcalloc(f->n ? f->n : 1, sizeof(*f->kept));
	for (i = 0; i < m; i++) {
		struct fent *x = &f->e[seq[i]];

		/* Records of other kinds keep their place before what followed them. */
		for (; u < f->n && u < seq[i]; u++)
			write_other(f, &f->e[u]);
		if (u == seq[i])
			u++;
		if (emit(f, x, spool_get(f->sp, x->off, x->len), x->len) && f->kept != NULL)
			f->kept[seq[i]] = true;
	}
	for (; u < f->n; u++)
		write_other(f, &f->e[u]);
	free(f->kept);
	f->kept = NULL;
	free(seq);
	return 0;
}

/* Whether the options allow the window to stream: nothing that is checked or decided
 * only at the end of input. */
static bool
tt_may_stream(const struct filter_opts *o)
{
	return !o->w.whole && !o->has_devices &&
	    o->phase == NULL && o->iter < 0 && o->program < 0 && o->loop < 0 &&
	    o->nops == 0 && o->const_eval != FILTER_ONLY && o->layout_conv != FILTER_ONLY;
}

/* devices: a JSON array of distinct integers, ascending; false if it is not that. */
static bool
tt_devices(struct filter *f, const char *s, size_t len)
{
	const char *p = s + 1, *end = s + len - 1;
	char *q;
	size_t cap = 0;

	if (len < 2 || s[0] != '[' || *end != ']')
		return false;
	while (p < end) {
		long long v = strtoll(p, &q, 10);

		if (q == p || q > end || (f->tt_ndev > 0 && v <= f->tt_devs[f->tt_ndev - 1]))
			return false;
		f->tt_devs = xgrow(f->tt_devs, &cap, f->tt_ndev + 1, sizeof(*f->tt_devs));
		f->tt_devs[f->tt_ndev++] = v;
		p = q;
		if (p < end && *p++ != ',')
			return false;
	}
	return true;
}

/* Index of device d among the promised devices, or tt_ndev. */
static size_t
tt_devindex(const struct filter *f, int64_t d)
{
	return merge_devindex(f->tt_devs, f->tt_ndev, d);
}

/* What the leading "trace" record of a TT-Metal trace promises, as read from it by
 * trace_read (the strings are the record's): usable when it is a TT-Metal trace whose
 * ids ascend, with its devices and signposts. */
struct promise {
	bool			 ok;		/* a usable promise */
	struct trace_info	 t;
};

static void
tt_read(struct rec *r, struct promise *pr)
{
	pr->ok = trace_read(r, &pr->t) && pr->t.trace == TRACE_TTMETAL &&
	    pr->t.ids_ascending && pr->t.devices != NULL && pr->t.has_signposts;
}

/* Take the promise of a good trace record. A named signpost that it does not announce
 * is an error at once (D3): -1. */
static int
tt_trace(struct filter *f, const struct promise *pr, struct error *err)
{
	const struct rec_strv *v = &pr->t.signposts;
	size_t i, cap = 0;

	f->tt_ndev = 0;
	if (!pr->ok || !tt_devices(f, pr->t.devices, pr->t.devices_len))
		return 0;
	for (i = 0; i < v->n; i++)
		if (v->len[i] == 0)
			return 0;	/* an unnamed signpost: the spool decides */
	f->tt_sp = xgrow(NULL, &cap, v->n ? v->n : 1, sizeof(*f->tt_sp));
	for (i = 0; i < v->n; i++)
		f->tt_sp[i] = names_intern(&f->nm, v->s[i], v->len[i]);
	f->tt_nsp = v->n;
	f->tt_devseen = xcalloc(f->tt_ndev ? f->tt_ndev : 1, sizeof(*f->tt_devseen));
	if (window_plan(f->tt_sp, f->tt_nsp, &f->nm, &f->o->w, &f->tt_plan, err) < 0)
		return -1;
	f->tt_promise = true;
	return 0;
}

/* The promise broken before the stream started: back to reading the whole input. */
static void
tt_drop_promise(struct filter *f)
{
	size_t i;

	f->tt_promise = false;
	for (i = 0; i < f->n; i++)
		f->e[i].flags &= (uint16_t)~FE_SKIP;
}

/* A record against the promise: one that breaks it is bad (rec_reject). Reads only. */
static void
tt_check(struct filter *f, struct rec *r, const struct fent *x)
{
	if (x->kind == FK_OTHER)
		return;
	if (f->tt_anyid && x->id <= f->tt_previd)
		rec_reject(r, "id %lld after id %lld, but the trace record says ids ascend",
		    (long long)x->id, (long long)f->tt_previd);
	else if (x->kind == FK_SIGNPOST &&
	    (f->tt_spi >= f->tt_nsp || x->name != f->tt_sp[f->tt_spi]))
		rec_reject(r, "signpost '%s' is not the one the trace record announced next",
		    x->name == NAME_NONE ? "" : names_str(&f->nm, x->name));
	else if ((x->flags & FE_HASDEV) && tt_devindex(f, x->device) == f->tt_ndev)
		rec_reject(r, "device %lld is not among the trace record's devices",
		    (long long)x->device);
}

/* A good record under the promise: where the stream is now. */
static void
tt_take(struct filter *f, const struct fent *x)
{
	if (x->kind == FK_OTHER)
		return;
	f->tt_anyid = true;
	f->tt_previd = x->id;
	if (x->kind == FK_SIGNPOST)
		f->tt_spi++;
}

/*
 * Whether entry x (the next in stream order, after tt_check) is inside the window of
 * tt_plan. The default window starts after the first row of any kind named like the
 * last signpost (Q1, Q2); a named one lies between its signposts, which with ids
 * ascending is between their stream positions: a row after s signposts is after the
 * start signpost (ordinal lo) when s > lo and before the end one (ordinal hi) when
 * s <= hi.
 */
static bool
tt_window(struct filter *f, const struct fent *x)
{
	const struct wplan *p = &f->tt_plan;

	if (x->kind == FK_OTHER)
		return false;
	if (p->all)
		return true;
	if (p->named) {
		size_t s = f->tt_spi;	/* signposts so far, x included */

		if (x->kind == FK_SIGNPOST) {
			s--;	/* x's ordinal */
			if ((p->has_lo && s <= p->lo) || (p->has_hi && s >= p->hi))
				return false;
		} else if ((p->has_lo && s <= p->lo) || (p->has_hi && s > p->hi))
			return false;
	} else if (p->by_last && !f->tt_inwin) {
		if (x->name == p->last)
			f->tt_inwin = true;
		return false;
	}
	return x->kind != FK_SIGNPOST || p->keep_sp;
}

/* Whether x, in the window, is a device op of a promised device not seen there yet;
 * true when that makes every promised device seen. */
static bool
tt_see(struct filter *f, const struct fent *x)
{
	size_t i;

	if (!is_devop(x))
		return false;
	i = tt_devindex(f, x->device);
	if (!f->tt_devseen[i]) {
		f->tt_devseen[i] = true;
		f->tt_nseen++;
	}
	return f->tt_nseen == f->tt_ndev;
}

/* Entry i of the stream (in e) enters the merge or waits for nothing; steps are made
 * as far as every queue has a head. */
static void
tt_admit(struct filter *f, size_t i)
{
	struct fent *x = &f->e[i];
	uint64_t chosen;

	if (!f->tt_merging || x->kind == FK_OTHER || (x->flags & FE_SKIP) || !is_devop(x))
		return;
	x->flags |= FE_PENDING;
	merge_push(&f->tt_m, x->device, f->base + i);
	while (merge_ready(&f->tt_m))
		merge_step(&f->tt_m, f->e, f->base, &chosen);
}

#define TT_NOLINE UINT64_MAX	/* fent.off: the line is the current record's */

/* Write the waiting entries from the oldest while their fate is known; cur is the
 * current record's line (for the entry with TT_NOLINE). */
static void
tt_flush(struct filter *f, const char *cur, size_t curlen)
{
	while (f->head < f->n) {
		struct fent *x = &f->e[f->head];
		const char *p;

		if (x->flags & FE_PENDING)
			break;
		p = x->off == TT_NOLINE ? cur : spool_get(f->sp, x->off, x->len);
		if (x->kind == FK_OTHER)
			write_line(f, p, x->len);
		else if (!(x->flags & FE_SKIP))
			emit(f, x, p, x->len);
		f->head++;
	}
	if (f->head == f->n) {
		f->base += f->n;
		f->n = f->head = 0;
		if (!f->replay && spool_size(f->sp) > (64u << 20))
			spool_reset(f->sp);
	} else if (f->head >= 4096 && f->head >= f->n / 2) {
		memmove(f->e, f->e + f->head, (f->n - f->head) * sizeof(*f->e));
		f->base += f->head;
		f->n -= f->head;
		f->head = 0;
	}
}

/* The window holds ndev devices, those in qdev[0..nq) with device ops: merge them (the
 * queues) or keep them apart, and say so. */
static void
tt_devices_say(struct filter *f, size_t ndev, const int64_t *qdev, size_t nq)
{
	if (f->o->no_merge && ndev > 1) {
		if (f->o->verbose)
			say("Detected data from %zu devices. Keeping separate device data...", ndev);
		return;
	}
	if (f->o->verbose)
		say("Detected data from %zu devices. Merging device data...", ndev);
	f->tt_merging = true;
	merge_init(&f->tt_m, qdev, nq, &f->nm);
}

/* The window holds a device op of every promised device: say what the end would have
 * said, then send the spooled entries through the merge; from now on records stream. */
static void
tt_start(struct filter *f)
{
	const struct filter_opts *o = f->o;
	size_t i;

	window_say(f->tt_sp, f->tt_nsp, &f->nm, &o->w, &f->tt_plan);
	tt_devices_say(f, f->tt_ndev, f->tt_devs, f->tt_ndev);
	f->tt_stream = true;
	f->head = 0;
	for (i = 0; i < f->n; i++)
		tt_admit(f, i);
	tt_flush(f, NULL, 0);
}

/* A record while streaming: out at once when nothing waits before it and its fate is
 * known, else queued (its line spooled) until it is. */
static void
tt_stream(struct filter *f, struct fent *x, const char *line, size_t len)
{
	if (f->head == f->n && (x->kind == FK_OTHER || (x->flags & FE_SKIP) ||
	    !f->tt_merging || !is_devop(x))) {
		if (x->kind == FK_OTHER)
			write_line(f, line, len);
		else if (!(x->flags & FE_SKIP))
			emit(f, x, line, len);
		return;
	}
	x->off = TT_NOLINE;
	x->len = (uint32_t)len;
	f->e = xgrow(f->e, &f->cap, f->n + 1, sizeof(*f->e));
	f->e[f->n++] = *x;
	tt_admit(f, f->n - 1);
	tt_flush(f, line, len);
	if (f->n > 0 && f->e[f->n - 1].off == TT_NOLINE)
		f->e[f->n - 1].off = spool_add(f->sp, line, len);
}

/* End of input while streaming: the last steps (devices that ran out of ops), the rest
 * of the waiting entries; then --id-range's message, which the reference prints after
 * the merge's warnings. */
static void
tt_finish(struct filter *f)
{
	uint64_t chosen;

	if (f->tt_merging) {
		while (merge_step(&f->tt_m, f->e, f->base, &chosen))
			;
		tt_flush(f, NULL, 0);
		merge_done(&f->tt_m);
	}
	range_message(f->o);
}

#define SPILL_AT (1u << 16)	/* summaries kept in memory before they are spilled */

/* What a replay at the end needs to know: the signposts in order, whether ids ascend. */
static void
note_entry(struct filter *f, const struct fent *x)
{
	if (x->kind == FK_OTHER)
		return;
	if (f->anyid && x->id <= f->lastid)
		f->asc = false;
	f->anyid = true;
	f->lastid = x->id;
	if (x->kind == FK_SIGNPOST) {
		f->sps = xgrow(f->sps, &f->capsps, f->nsps + 1, sizeof(*f->sps));
		f->sps[f->nsps++] = x->name;
	}
}

/* Keep the summary of a spooled record: in e[], or past SPILL_AT in fsp. */
static void
store(struct filter *f, const struct fent *x)
{
	if (f->fsp == NULL && f->n >= SPILL_AT && f->asc && !f->kineto && !f->may_stream) {
		f->fsp = spool_open();
		spool_add(f->fsp, (const char *)f->e, f->n * sizeof(*f->e));
		f->nspilled = f->n;
		f->n = f->cap = 0;
		free(f->e);
		f->e = NULL;
	}
	if (f->fsp != NULL) {
		spool_add(f->fsp, (const char *)x, sizeof(*x));
		f->nspilled++;
		return;
	}
	f->e = xgrow(f->e, &f->cap, f->n + 1, sizeof(*f->e));
	f->e[f->n++] = *x;
}

/* Spilled summary i. */
static void
fent_at(struct filter *f, size_t i, struct fent *x)
{
	memcpy(x, spool_get(f->fsp, (uint64_t)i * sizeof(*x), sizeof(*x)), sizeof(*x));
}

/* The spilled summaries back into e[], for finish(). */
static void
unspill(struct filter *f)
{
	size_t i;

	f->e = xgrow(f->e, &f->cap, f->nspilled ? f->nspilled : 1, sizeof(*f->e));
	for (i = 0; i < f->nspilled; i++)
		fent_at(f, i, &f->e[i]);
	f->n = f->nspilled;
	f->nspilled = 0;
	spool_close(f->fsp);
	f->fsp = NULL;
}

/* Spilled summary i, the next in stream order (0 starts over): whether it is in the
 * window. */
static bool
replay_entry(struct filter *f, size_t i, struct fent *x)
{
	if (i == 0) {
		f->tt_spi = 0;
		f->tt_inwin = false;
	}
	fent_at(f, i, x);
	if (x->kind == FK_SIGNPOST)
		f->tt_spi++;
	return tt_window(f, x);
}

/*
 * End of input with the summaries spilled and ids ascending: the window and the merge
 * in two passes over the spilled summaries, the second through the streaming merge (so
 * what stays in memory is what waits for a merge step). 1 when done; 0, with nothing
 * said, when the window holds no device op: finish() has the reference's answer and the
 * advice; -1 when a named signpost is not there.
 */
static int
replay(struct filter *f, struct error *err)
{
	const struct filter_opts *o = f->o;
	int64_t *dev = NULL, *qdev = NULL;
	size_t i, ndev = 0, nq = 0, capd = 0, capq = 0;
	struct fent x;

	if (window_plan(f->sps, f->nsps, &f->nm, &o->w, &f->tt_plan, err) < 0)
		return -1;
	/* pass 1: the window's devices, and those with device ops (the merge's queues) */
	for (i = 0; i < f->nspilled; i++) {
		if (!replay_entry(f, i, &x) || !(x.flags & FE_HASDEV))
			continue;
		sorted_add(&dev, &ndev, &capd, x.device);
		if (is_devop(&x))
			sorted_add(&qdev, &nq, &capq, x.device);
	}
	if (nq == 0) {
		free(dev);
		free(qdev);
		return 0;
	}
	window_say(f->sps, f->nsps, &f->nm, &o->w, &f->tt_plan);
	tt_devices_say(f, ndev, qdev, nq);
	free(dev);
	free(qdev);
	/* pass 2: in stream order through the merge's queues */
	f->replay = true;
	f->head = f->n = 0;
	f->base = 0;
	for (i = 0; i < f->nspilled; i++) {
		if (!replay_entry(f, i, &x) && x.kind != FK_OTHER)
			x.flags |= FE_SKIP;
		f->e = xgrow(f->e, &f->cap, f->n + 1, sizeof(*f->e));
		f->e[f->n++] = x;
		tt_admit(f, f->n - 1);
		tt_flush(f, NULL, 0);
	}
	tt_finish(f);
	return 1;
}

/* The end of input: the selections' checks, then what waits is selected and written. */
static int
filter_end(struct filter *f, struct error *err)
{
	const struct filter_opts *o = f->o;
	int rc;

	/* before any output when not streaming: a selection that can keep nothing */
	if (o->const_eval == FILTER_ONLY && !f->any_ce) {
		error_set(err, NULL, 0, -1, "--const-eval-only: no op has a \"const_eval\" key "
		    "(CONST_EVAL_OP of tt-mlir and tt-torch traces)");
		return -1;
	}
	if (o->layout_conv == FILTER_ONLY && !f->any_ilc) {
		error_set(err, NULL, 0, -1, "--input-layout-conversion-only: no op has an "
		    "\"input_layout_conversion\" key (INPUT_LAYOUT_CONVERSION_OP of tt-mlir "
		    "traces)");
		return -1;
	}
	if (seen_check(&f->progs, "--program", "program_index", o->program, err) < 0 ||
	    seen_check(&f->loops, "--loop", "loop_number", o->loop, err) < 0 ||
	    check_selections(f, err) < 0)
		return -1;
	if (f->tt_promise && f->tt_spi != f->tt_nsp) {
		error_set(err, NULL, 0, -1, "the trace record announced %zu signposts, the input "
		    "had %zu", f->tt_nsp, f->tt_spi);
		return -1;
	}
	if (f->tt_stream) {
		tt_finish(f);
	} else if (f->streaming) {
		if (o->verbose)
			say("Detected data from %zu devices. Keeping separate device data...", f->ndevs);
		range_message(o);
	} else if (f->may_stream) {
		/* said "Ignoring all signposts" at the start; select quietly */
		struct filter_opts o2 = *o;

		o2.w.ignore = true;
		o2.w.verbose = false;
		f->o = &o2;
		rc = finish(f, err);
		f->o = o;
		return rc;
	} else {
		rc = f->fsp == NULL || !f->asc || f->kineto ? 0 : replay(f, err);
		if (rc != 0)
			return rc < 0 ? -1 : 0;
		if (f->fsp != NULL)
			unspill(f);
		return finish(f, err);
	}
	return 0;
}

/* One record read, summarised (x) and found good: spool, stream or write it; -1 when a
 * trace record names a window that is not there. */
static int
filter_take(struct filter *f, struct rec *r, struct fent *x, const struct promise *pr,
    struct error *err)
{
	bool in, all;

	note_entry(f, x);
	if (pr != NULL) {
		if (f->tt_promise)	/* two traces in one input: the spool decides */
			tt_drop_promise(f);
		else if (tt_trace(f, pr, err) < 0)
			return -1;
	}
	if (f->tt_promise) {
		tt_take(f, x);
		in = tt_window(f, x);
		if (!in && x->kind != FK_OTHER)
			x->flags |= FE_SKIP;
		if (f->tt_stream) {
			tt_stream(f, x, f->line.p, f->line.len);
			return 0;
		}
		all = in && tt_see(f, x);
		f->e = xgrow(f->e, &f->cap, f->n + 1, sizeof(*f->e));
		x->off = spool_add(f->sp, f->line.p, f->line.len);
		x->len = (uint32_t)f->line.len;
		f->e[f->n++] = *x;
		if (all)	/* replay the spool through the merge, then stream */
			tt_start(f);
		return 0;
	}
	if (f->streaming) {
		if (x->flags & FE_HASDEV)
			see_device(f, x->device);
		if (x->kind == FK_OTHER)
			write_line(f, f->line.p, f->line.len);
		else
			emit(f, x, f->line.p, f->line.len);
		return 0;
	}
	x->off = spool_add(f->sp, f->line.p, f->line.len);
	x->len = (uint32_t)f->line.len;
	store(f, x);
	if (f->may_stream && (x->flags & FE_HASDEV) && see_device(f, x->device) > 1)
		start_streaming(f);
	return 0;
}

int
filter_run(struct rec_reader *rd, FILE *out, const struct filter_opts *o, struct error *err)
{
	struct badrec stop = BADREC_INIT, *bad = o->bad != NULL ? o->bad : &stop;
	struct promise pr;
	struct filter f;
	struct facts fa;
	struct rec *r;
	struct fent x;
	int rc = 0;

	memset(&f, 0, sizeof(f));
	f.o = o;
	f.out = out;
	names_init(&f.nm);
	f.sp = spool_open();
	f.op_matched = xcalloc(o->nops ? o->nops : 1, sizeof(*f.op_matched));
	f.may_stream = o->w.ignore && o->no_merge;
	f.asc = true;
	if (f.may_stream && o->verbose)
		say("Ignoring all signposts. Using the entire file for analysis.");

	while (rc == 0 && (r = badrec_next(bad, rd)) != NULL) {
		/* everything the record is read for, before the program judges it */
		bool use = summarise(&f, r, &x, &fa), trace = false;

		if (use && x.kind == FK_OTHER && (f.n == 0 || f.tt_promise) && !f.may_stream &&
		    tt_may_stream(o)) {
			if ((trace = rec_kind(r) == KIND_TRACE)) {
				if (f.tt_stream)
					rec_reject(r, "a second trace record, after the first trace's "
					    "window went out: filter each trace alone, or drop the trace "
					    "records (jq -c 'select(.kind != \"trace\")') to filter them "
					    "as one input");
				else if (!f.tt_promise)
					tt_read(r, &pr);
			}
		}
		if (use && f.tt_promise)
			tt_check(&f, r, &x);
		if (use) {
			buf_reset(&f.line);
			rec_format(r, &f.line);
			if (f.line.len > UINT32_MAX)
				rec_reject(r, "record too long");
		}
		if (badrec_check(bad, r))
			continue;
		admit(&f, &x, &fa);
		if (use)
			rc = filter_take(&f, r, &x, trace ? &pr : NULL, err);
	}
	if (rc == 0)
		rc = filter_end(&f, err);
	if (bad == &stop)
		badrec_end(&stop);
	merge_free(&f.tt_m);	/* an input that ended in an error while streaming */
	spool_close(f.sp);
	spool_close(f.fsp);
	free(f.sps);
	free(f.e);
	free(f.devs);
	free(f.tt_sp);
	free(f.tt_devs);
	free(f.tt_devseen);
	buf_free(&f.line);
	names_free(&f.nm);
	free(f.op_matched);
	free(f.op_casefold);
	seen_str_free(&f.phases);
	return rc;
}
