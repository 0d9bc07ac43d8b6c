/* SPDX-License-Identifier: ISC */
/*
 * stepwin: ttp-filter's window of inference steps (see stepwin.h). Per rank it keeps
 * the step numbers the window selects (decided from the trace record), the host-time
 * intervals of the selected steps seen so far, and the ids of the kept ops (for their
 * gpu records); everything else streams.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/badrec.h"
#include "core/diag.h"
#include "core/names.h"
#include "core/trace.h"
#include "core/rec.h"
#include "torch/step.h"
#include "phase/stepwin.h"

const char *
stepwin_parse(const char *s, struct stepwin_opts *o)
{
	const char *colon = strchr(s, ':'), *err;
	char a[32], b[32];
	size_t la;

	if (colon == NULL) {
		o->from = o->to = strtonum(s, 1, LLONG_MAX, &err);
		return err ? "--steps: a step number (from 1), or FROM:TO" : NULL;
	}
	la = (size_t)(colon - s);
	if (la >= sizeof(a) || strlen(colon + 1) >= sizeof(b))
		return "--steps: FROM:TO, step numbers from 1";
	memcpy(a, s, la);
	a[la] = '\0';
	strlcpy(b, colon + 1, sizeof(b));
	o->from = 1;
	o->to = -1;
	if (a[0] != '\0' && (o->from = strtonum(a, 1, LLONG_MAX, &err), err != NULL))
		return "--steps: FROM:TO, step numbers from 1";
	if (b[0] != '\0' && (o->to = strtonum(b, 1, LLONG_MAX, &err), err != NULL))
		return "--steps: FROM:TO, step numbers from 1";
	if (o->to != -1 && o->to < o->from)
		return "--steps: FROM:TO with FROM > TO";
	return NULL;
}

void
stepwin_steady(const long long *nreq, size_t n, long long num_steps, size_t *start,
    size_t *end, size_t *nregions)
{
	double thr = (long long)n >= num_steps ? 0.1 : 0.2, tol;
	long long max = nreq[0], count = 0;
	size_t i, s = 0, best_s = 0, best_e = 0, nreg = 0;
	bool started = false;

	for (i = 1; i < n; i++)
		if (nreq[i] > max)
			max = nreq[i];
	tol = thr * (double)max > 1 ? thr * (double)max : 1;
	for (i = 0; i < n; i++) {
		long long d = nreq[i] > max ? nreq[i] - max : max - nreq[i];

		if ((double)d <= tol) {
			if (!started)
				count++;
		} else if (started)
			count--;
		if (count > 5 && !started) {
			started = true;
			s = i + 1 - (size_t)count;
		}
		if (count <= 0 && started) {
			/* a region [s, i): TraceLens keeps the first of the largest */
			if (nreg == 0 || i - s > best_e - best_s)
				best_s = s, best_e = i;
			nreg++;
			started = false;
			count = 0;
		}
	}
	if (started) {
		/* open at the end: [s, n - 1), the last step left out as TraceLens does */
		if (nreg == 0 || n - 1 - s > best_e - best_s)
			best_s = s, best_e = n - 1;
		nreg++;
	}
	if (nreg == 0) {
		long long delta = num_steps - (long long)n > 8 ? num_steps - (long long)n : 8;

		if (delta > (long long)n)
			delta = (long long)n;
		best_s = (size_t)(delta / 2);
		best_e = n - (size_t)(delta / 2);
		if (best_e < best_s + 1)
			best_e = best_s + 1;
	}
	*start = best_s;
	*end = best_e;
	*nregions = nreg;
}

/* --- the stream ---------------------------------------------------------------------- */

struct interval {
	long long	start, end;
};

struct rankwin {
	long long	 rank;
	int		 tier;		/* the tier whose annotations are the steps; 0: none */
	long long	 nsteps;	/* steps in the trace record's list */
	long long	 lo, hi;	/* the selected steps, from 1, both included */
	long long	 seen;		/* step annotations of the tier seen so far */
	struct interval	*iv;		/* the selected steps seen so far */
	size_t		 niv, capiv;
	size_t		 nops, ngpus;	/* kept */
};

struct win {
	const struct stepwin_opts *o;
	FILE		*out;
	struct rankwin	*ranks;
	size_t		 nranks;
	struct names	 kept;		/* (rank, id) of the kept ops, as 16-byte keys */
};

static struct rankwin *
rank_of(struct win *w, long long rank, bool create)
{
	size_t i;

	for (i = 0; i < w->nranks; i++)
		if (w->ranks[i].rank == rank)
			return &w->ranks[i];
	if (!create)
		return NULL;
	w->ranks = xreallocarray(w->ranks, w->nranks + 1, sizeof(*w->ranks));
	memset(&w->ranks[w->nranks], 0, sizeof(w->ranks[0]));
	w->ranks[w->nranks].rank = rank;
	return &w->ranks[w->nranks++];
}

static long long
rec_rank(struct rec *r)
{
	long long rank;

	return rec_int(r, "rank", &rank) ? rank : 0;
}

/* An error of the run found at record r (an option the trace cannot serve): -1. */
static int __attribute__((format(printf, 3, 4)))
run_error(struct rec *r, struct error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err, rec_where(r), 0, -1, fmt, ap);
	va_end(ap);
	return -1;
}

/* The trace record: choose the tier and the selected steps of its rank. 0, or 0 with r
 * bad (no signpost list, a key of the wrong type), or -1 when the option asks for
 * steps the trace has none of (err). Nothing is kept of a bad record. */
static int
plan(struct win *w, struct rec *r, struct error *err)
{
	const char *opt = w->o->steady ? "steady-state" : "steps";
	long long rank = rec_rank(r);
	struct rankwin *rw;
	struct trace_info t;
	const struct rec_strv *names = &t.signposts;
	long long *nreq = NULL;
	size_t i, k = 0;
	int best = 0;

	(void)trace_read(r, &t);
	if (!t.has_signposts && rec_has(r, "signposts"))
		rec_reject(r, "key \"signposts\": expected an array of strings");
	else if (!t.has_signposts)
		rec_reject(r, "--%s: the trace record has no signpost list (ttp-parse writes "
		    "one)", opt);
	if (rec_bad(r) != NULL)
		return 0;
	for (i = 0; i < names->n; i++) {
		struct step st;

		if (step_parse(names->s[i], names->len[i], &st) && (st.kind != STEP_CAPTURE) &&
		    (best == 0 || step_tier(st.kind) < best))
			best = step_tier(st.kind);
	}
	if (w->o->steady && best != 1 && best != 2)
		return run_error(r, err, "--steady-state: no engine step annotations "
		    "(vLLM, SGLang or ATOM) in this trace");
	if (!w->o->steady && best == 0)
		return run_error(r, err, "--steps: no step annotations in this trace");
	rw = rank_of(w, rank, true);
	rw->tier = best;
	nreq = xreallocarray(NULL, names->n + 1, sizeof(*nreq));
	for (i = 0; i < names->n; i++) {
		struct step st;

		if (step_parse(names->s[i], names->len[i], &st) && step_tier(st.kind) == best)
			nreq[k++] = st.context_requests + st.generation_requests;
	}
	rw->nsteps = (long long)k;
	rw->seen = 0;
	rw->niv = 0;
	if (w->o->steady) {
		size_t s, e, nreg;

		stepwin_steady(nreq, k, w->o->num_steps, &s, &e, &nreg);
		rw->lo = (long long)s + 1;
		rw->hi = (long long)e;
		if (nreg == 0)
			note("rank %lld: no steady-state region in %zu step%s; steps %lld-%lld, "
			    "the middle of the run", rw->rank, k, k == 1 ? "" : "s", rw->lo,
			    rw->hi);
		else if (w->o->verbose)
			note("rank %lld: steady state: steps %lld-%lld of %zu (the largest of "
			    "%zu region%s)", rw->rank, rw->lo, rw->hi, k, nreg,
			    nreg == 1 ? "" : "s");
	} else {
		rw->lo = w->o->from;
		rw->hi = w->o->to < 0 || w->o->to > rw->nsteps ? rw->nsteps : w->o->to;
		if (rw->lo > rw->nsteps)
			note("rank %lld: --steps %lld: the trace has %lld step%s; nothing kept",
			    rw->rank, rw->lo, rw->nsteps, rw->nsteps == 1 ? "" : "s");
	}
	free(nreq);
	return 0;
}

static bool
inside(const struct rankwin *rw, long long t)
{
	size_t i;

	for (i = 0; i < rw->niv; i++)
		if (t >= rw->iv[i].start && t < rw->iv[i].end)
			return true;
	return false;
}

/* The plan of r's rank; NULL, r bad, when its trace record has not come. */
static struct rankwin *
planned(struct win *w, struct rec *r, const char *kind)
{
	struct rankwin *rw = rank_of(w, rec_rank(r), false);

	if (rw == NULL)
		rec_reject(r, "--%s: a %s record before its trace record (records of PyTorch "
		    "traces from ttp-parse)", w->o->steady ? "steady-state" : "steps", kind);
	return rw;
}

static void
key(char k[16], long long rank, long long id)
{
	memcpy(k, &rank, 8);
	memcpy(k + 8, &id, 8);
}

/* One record: 1 when the window keeps it, 0 when not; -1 on an error of the run (err).
 * What it reads is read first: a bad record (rec_bad) changes nothing. */
static int
keep(struct win *w, struct rec *r, struct error *err)
{
	enum rec_kind kind = rec_kind(r);
	const char *name;
	struct rankwin *rw;
	long long t, id, end;
	bool has_end, has_id;
	size_t len;
	char k[16];

	if (kind == KIND_NONE)
		return 1;
	if (kind == KIND_TRACE)
		return plan(w, r, err) < 0 ? -1 : 1;
	if (kind == KIND_SIGNPOST) {
		struct step st;

		if ((rw = planned(w, r, rec_kind_name(kind))) == NULL || !rec_int(r, "host_start_ns", &t))
			return 0;
		name = rec_str(r, "name", &len);
		has_end = name != NULL && rec_int(r, "host_end_ns", &end);
		if (rec_bad(r) != NULL)
			return 0;
		if (has_end && step_parse(name, len, &st) && step_tier(st.kind) == rw->tier) {
			rw->seen++;
			if (rw->seen < rw->lo || rw->seen > rw->hi)
				return 0;
			rw->iv = xgrow(rw->iv, &rw->capiv, rw->niv + 1, sizeof(*rw->iv));
			rw->iv[rw->niv].start = t;
			rw->iv[rw->niv++].end = end;
			/* its number in the whole run, for ttp-phase's iter */
			rec_set_int(r, "step", rw->seen);
			return 1;
		}
		return inside(rw, t);
	}
	if (kind == KIND_OP) {
		if ((rw = planned(w, r, rec_kind_name(kind))) == NULL || !rec_int(r, "host_start_ns", &t) ||
		    !inside(rw, t))
			return 0;
		has_id = rec_int(r, "id", &id);
		if (rec_bad(r) != NULL)
			return 0;
		if (has_id) {
			key(k, rw->rank, id);
			names_intern(&w->kept, k, sizeof(k));
		}
		rw->nops++;
		return 1;
	}
	if (kind == KIND_GPU) {
		if ((rw = planned(w, r, rec_kind_name(kind))) == NULL || !rec_int(r, "launched_by", &id) ||
		    rec_bad(r) != NULL)
			return 0;
		key(k, rw->rank, id);
		if (names_lookup(&w->kept, k, sizeof(k)) == NAME_NONE)
			return 0;
		rw->ngpus++;
		return 1;
	}
	return 1;
}

int
stepwin_run(struct rec_reader *rd, FILE *out, const struct stepwin_opts *o,
    struct error *err)
{
	struct badrec stop = BADREC_INIT, *bad = o->bad != NULL ? o->bad : &stop;
	struct win w;
	struct rec *r;
	size_t i;
	int rc = 0;

	memset(&w, 0, sizeof(w));
	w.o = o;
	w.out = out;
	while ((r = badrec_next(bad, rd)) != NULL) {
		int k = keep(&w, r, err);

		if (k < 0) {
			rc = -1;
			break;
		}
		if (!badrec_check(bad, r) && k)
			rec_write(r, out);
	}
	for (i = 0; i < w.nranks; i++) {
		struct rankwin *rw = &w.ranks[i];

		if (rc == 0 && o->verbose)
			note("rank %lld: steps %lld-%lld of %lld: %zu op%s, %zu gpu record%s",
			    rw->rank, rw->lo, rw->hi, rw->nsteps, rw->nops,
			    rw->nops == 1 ? "" : "s", rw->ngpus, rw->ngpus == 1 ? "" : "s");
		if (rc == 0 && rw->seen != rw->nsteps)
			warn_at(NULL, 0, "rank %lld: the trace record lists %lld step%s, the "
			    "stream held %lld", rw->rank, rw->nsteps, rw->nsteps == 1 ? "" : "s",
			    rw->seen);
		free(rw->iv);
	}
	free(w.ranks);
	names_free(&w.kept);
	if (bad == &stop)
		badrec_end(&stop);
	return rc;
}
