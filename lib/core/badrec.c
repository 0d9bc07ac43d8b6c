/* SPDX-License-Identifier: ISC */
/*
 * badrec: stop at a bad record, or warn, count and skip it; the order a trace record
 * promises, judged with two records of look-ahead (core/badrec.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/badrec.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/rec.h"
#include "core/trace.h"

#define AHEAD	(REC_SLOTS - 2)	/* records read ahead of the one judged, for the next
				   two whose order is judged (a PyTorch op's gpu records
				   come between) */

enum order { ORD_NONE, ORD_IDS, ORD_TIME };	/* what must ascend */

struct badrec_order {
	struct rec	*q[AHEAD + 1];	/* read, not yet returned (reader slots) */
	/* per q[i], once looked at: 0 not yet, 1 no key, 2 key qkey[i], 3 a trace record */
	unsigned char	 qst[AHEAD + 1];
	long long	 qkey[AHEAD + 1];
	const char	*qkind[AHEAD + 1];	/* q[i]'s kind, read once (NULL: none) */
	size_t		 nq;
	struct error	 pend;		/* a bad line met while looking ahead */
	bool		 pend_final, eof;
	bool		 returned;	/* a record went out */

	bool		 trace;		/* a trace record came */
	char		*tname;		/* its "trace" string, or NULL (promises none) */
	struct buf	 ttext;		/* its line, to tell a copy of it */
	struct buf	 line;
	enum order	 how;
	bool		 have_last;
	long long	 last;		/* the last good record's id or time */
	char		**sp;		/* the announced signposts, when announced */
	size_t		 nsp, spi;
	bool		 has_sp;
};

/* A bad record under the policy: returns when it is skipped. */
static void
take(struct badrec *b, const struct error *e)
{
	if (!b->skip)
		error_die(e);
	if (b->n++ < BADREC_SHOWN)
		error_warn(e);
}

static const char *
kind_of(struct rec *r)
{
	return rec_type(r, "kind") == REC_STRING ? rec_str(r, "kind", NULL) : NULL;
}

static bool
is_kind(const char *k, const char *want)
{
	return k != NULL && strcmp(k, want) == 0;
}

/* The key that must ascend in r, when r is an op or signpost of the current trace and
 * has it as an integer; false otherwise (reads only: marks nothing). */
static bool
order_key(const struct badrec_order *o, struct rec *r, const char *k, long long *v)
{
	if (o->how == ORD_NONE || (!is_kind(k, "op") && !is_kind(k, "signpost")))
		return false;
	return rec_type(r, o->how == ORD_IDS ? "id" : "host_start_ns") == REC_INT &&
	    rec_int(r, o->how == ORD_IDS ? "id" : "host_start_ns", v);
}

/* The keys of the next two records in ahead[0..n) whose order is judged, up to the
 * first that is not a good record of the trace (a trace record); false if not two. */
static bool
next_keys(struct badrec_order *o, size_t n, long long *c, long long *d)
{
	long long *want[2] = { c, d };
	size_t i, k = 0;

	for (i = 0; i < n && k < 2; i++) {
		if (o->qst[i] == 0)
			o->qst[i] = is_kind(o->qkind[i], "trace") ? 3 :
			    order_key(o, o->q[i], o->qkind[i], &o->qkey[i]) ? 2 : 1;
		if (o->qst[i] == 3)
			return false;
		if (o->qst[i] == 2)
			*want[k++] = o->qkey[i];
	}
	return k == 2;
}

/* x then y is in order: ids strictly ascend, times never decrease. */
static bool
fits(const struct badrec_order *o, long long x, long long y)
{
	return o->how == ORD_IDS ? x < y : x <= y;
}

static void
forget_trace(struct badrec_order *o)
{
	size_t i;

	for (i = 0; i < o->nsp; i++)
		free(o->sp[i]);
	free(o->sp);
	o->sp = NULL;
	free(o->tname);
	o->tname = NULL;
	buf_reset(&o->ttext);
	o->nsp = o->spi = 0;
	o->has_sp = o->have_last = false;
	o->how = ORD_NONE;
}

/* A good trace record: what it promises about the records that follow. Keys of
 * unexpected types promise nothing (the stage judges those). */
static void
take_trace(struct badrec_order *o, struct rec *r)
{
	struct trace_info t;
	size_t i;

	forget_trace(o);
	memset(o->qst, 0, sizeof(o->qst));
	o->trace = true;
	rec_format(r, &o->ttext);
	(void)trace_read(r, &t);
	if (rec_type(r, "trace") == REC_STRING) {
		size_t len;
		const char *s = rec_str(r, "trace", &len);

		o->tname = xstrndup(s, len);
	}
	if (t.trace == TRACE_TTMETAL && t.ids_ascending)
		o->how = ORD_IDS;
	else if (t.trace == TRACE_KINETO)
		o->how = ORD_TIME;
	/* an announced list that holds something else than names breaks the promise */
	if (rec_type(r, "signposts") == REC_ARRAY && !t.has_signposts)
		rec_reject(r, "key \"signposts\": expected an array of strings");
	if (t.has_signposts) {
		o->has_sp = true;
		o->sp = xreallocarray(NULL, t.signposts.n ? t.signposts.n : 1, sizeof(*o->sp));
		for (i = 0; i < t.signposts.n; i++)
			o->sp[i] = xstrndup(t.signposts.s[i], t.signposts.len[i]);
		o->nsp = t.signposts.n;
	}
}

/* A trace record: a copy of the current one is bad; any other sets the promise. */
static bool
judge_trace(struct badrec_order *o, struct rec *r, size_t nahead)
{
	long long c, d;

	buf_reset(&o->line);
	rec_format(r, &o->line);
	/* the same trace record again: a copy, unless the records after it start the
	 * trace over (the same trace twice in one input) */
	if (o->trace && o->line.len == o->ttext.len &&
	    memcmp(o->line.p, o->ttext.p, o->line.len) == 0 &&
	    (!o->have_last || !next_keys(o, nahead, &c, &d) || fits(o, o->last, c))) {
		rec_reject(r, "a copy of the trace record before it");
		return false;
	}
	take_trace(o, r);
	return rec_bad(r) == NULL;
}

/* An op or signpost (its id in *v when ids ascend) against the order of its key:
 * false, r marked, when it breaks it; *has_key when r has the key (in *v) and so
 * sets the bar if it is good. */
static bool
judge_order(struct badrec_order *o, struct rec *r, size_t nahead, long long *v,
    bool *has_key)
{
	const char *key = o->how == ORD_IDS ? "id" : "host_start_ns";
	long long c, d;

	if (o->how == ORD_NONE || (o->how != ORD_IDS && !rec_has(r, key)))
		return true;
	/* where ids ascend, v is the id read already */
	if (o->how != ORD_IDS && !rec_int(r, key, v))
		return false;	/* a wrong type: marked */
	*has_key = true;
	if (o->have_last && !fits(o, o->last, *v)) {
		if (o->how == ORD_IDS)
			rec_reject(r, "id %lld after id %lld, but the trace record says ids "
			    "ascend", *v, o->last);
		else
			rec_reject(r, "host_start_ns %lld before the last record's, %lld: a "
			    "PyTorch trace's ops and signposts come in host time order", *v,
			    o->last);
		return false;
	}
	/* a stray that sets the bar: the two after it fit without it */
	if (next_keys(o, nahead, &c, &d) && !fits(o, *v, c) &&
	    (!o->have_last || fits(o, o->last, c)) && fits(o, c, d) && !fits(o, *v, d)) {
		if (o->how == ORD_IDS)
			rec_reject(r, "id %lld before ids %lld and %lld, but the trace record "
			    "says ids ascend", *v, c, d);
		else
			rec_reject(r, "host_start_ns %lld after the next records' (%lld, %lld): "
			    "a PyTorch trace's ops and signposts come in host time order", *v,
			    c, d);
		return false;
	}
	return true;
}

/* A signpost against the trace record's list: in the announced order (a stage before
 * may have dropped some); false, r marked, when it is not one of those to come. */
static bool
judge_signpost(struct badrec_order *o, struct rec *r)
{
	size_t len = 0, j;
	const char *name = rec_type(r, "name") == REC_STRING ? rec_str(r, "name", &len) :
	    NULL;

	for (j = o->spi; j < o->nsp; j++)
		if (strlen(o->sp[j]) == (name ? len : 0) &&
		    (name == NULL || memcmp(o->sp[j], name, len) == 0))
			break;
	if (j == o->nsp) {
		if (rec_type(r, "name") != REC_STRING && rec_has(r, "name"))
			(void)rec_str(r, "name", NULL);	/* the type error */
		else
			rec_reject(r, "signpost '%s' is not the one the trace record announced "
			    "next", name != NULL ? name : "");
		return false;
	}
	o->spi = j + 1;
	return true;
}

/* An op, signpost or gpu record against the trace record's format: its "trace", when
 * it has one, is the trace record's; false, r marked, when it names another format or
 * is not a string. */
static bool
judge_format(struct badrec_order *o, struct rec *r, const char *k)
{
	size_t len = 0;
	const char *s;

	if (o->tname == NULL)
		return true;
	if (!rec_has(r, "trace"))
		return true;	/* the trace record's, as stages built by hand write */
	if ((s = rec_str(r, "trace", &len)) == NULL)
		return false;	/* a wrong type: marked */
	if (strlen(o->tname) == len && memcmp(o->tname, s, len) == 0)
		return true;
	rec_reject(r, "%s record of trace \"%.*s\" in a \"%s\" trace: a record's "
	    "\"trace\" is its trace record's", k, (int)(len > 64 ? 64 : len), s, o->tname);
	return false;
}

/*
 * Judge r (the next record in stream order; ahead: the records after it) against the
 * order promised; false, with r marked bad (rec_reject), when it breaks it. A good
 * record moves the promise on.
 */
static bool
judge(struct badrec_order *o, struct rec *r, const char *k, size_t nahead)
{
	long long v;
	bool has_key = false;

	if (is_kind(k, "trace"))
		return judge_trace(o, r, nahead);
	if (!o->trace) {
		/* a record before the input's first trace record */
		size_t i;

		for (i = 0; i < nahead && !o->returned; i++)
			if (is_kind(o->qkind[i], "trace")) {
				rec_reject(r, "a %s record before the trace record", k != NULL ?
				    k : "kindless");
				return false;
			}
		return true;
	}
	if (!is_kind(k, "op") && !is_kind(k, "signpost") && !is_kind(k, "gpu"))
		return true;	/* kinds the promise says nothing of pass */
	if (!judge_format(o, r, k))
		return false;
	/* an id of another type is bad wherever it is; a missing one where ids ascend */
	if (!rec_int(r, "id", &v) && (rec_bad(r) != NULL || (o->how == ORD_IDS &&
	    !is_kind(k, "gpu")))) {
		if (rec_bad(r) == NULL)
			rec_reject(r, "%s record without \"id\"", k);
		return false;
	}
	if (is_kind(k, "gpu"))
		return true;
	if (!judge_order(o, r, nahead, &v, &has_key))
		return false;
	if (is_kind(k, "signpost") && o->has_sp && !judge_signpost(o, r))
		return false;
	if (has_key) {
		o->last = v;
		o->have_last = true;
	}
	return true;
}

/* Read one line into the queue: false at the end of input or at a bad line (kept in
 * pend, for after the records before it). */
static bool
read_one(struct badrec_order *o, struct rec_reader *rd)
{
	const struct error *e;
	struct rec *r;

	if (o->eof || error_is_set(&o->pend))
		return false;
	if ((r = rec_next(rd)) != NULL) {
		o->qst[o->nq] = 0;
		o->qkind[o->nq] = kind_of(r);
		o->q[o->nq++] = r;
		return true;
	}
	if ((e = rec_error(rd)) == NULL) {
		o->eof = true;
		return false;
	}
	error_set(&o->pend, e->file, e->line, e->off, "%s", e->msg);
	o->pend_final = rec_error_final(rd);
	return false;
}

struct rec *
badrec_next(struct badrec *b, struct rec_reader *rd)
{
	struct badrec_order *o;
	struct rec *r;
	const char *k;

	if (b->ord == NULL) {
		b->ord = xcalloc(1, sizeof(*b->ord));
		b->ord->pend = (struct error)ERROR_INIT;
	}
	o = b->ord;
	for (;;) {
		if (o->nq == 0 && !read_one(o, rd)) {
			if (!error_is_set(&o->pend))
				return NULL;
			if (o->pend_final)
				error_die(&o->pend);
			take(b, &o->pend);
			error_free(&o->pend);
			continue;
		}
		while (o->nq < AHEAD + 1 && read_one(o, rd))
			;
		r = o->q[0];
		k = o->qkind[0];
		--o->nq;
		memmove(o->q, o->q + 1, o->nq * sizeof(*o->q));
		memmove(o->qst, o->qst + 1, o->nq * sizeof(*o->qst));
		memmove(o->qkey, o->qkey + 1, o->nq * sizeof(*o->qkey));
		memmove(o->qkind, o->qkind + 1, o->nq * sizeof(*o->qkind));
		if (!judge(o, r, k, o->nq) && rec_bad(r) != NULL) {
			take(b, rec_bad(r));
			continue;
		}
		o->returned = true;
		return r;
	}
}

bool
badrec_check(struct badrec *b, struct rec *r)
{
	const struct error *e = rec_bad(r);

	if (e == NULL)
		return false;
	take(b, e);
	return true;
}

void
badrec_end(struct badrec *b)
{
	if (b->n > BADREC_SHOWN)
		warning("skipped %llu bad records (the first %d shown)", b->n, BADREC_SHOWN);
	else if (b->n > 0)
		warning("skipped %llu bad record%s", b->n, b->n == 1 ? "" : "s");
	if (b->ord != NULL) {
		forget_trace(b->ord);
		buf_free(&b->ord->ttext);
		buf_free(&b->ord->line);
		error_free(&b->ord->pend);
		free(b->ord);
		b->ord = NULL;
	}
}
