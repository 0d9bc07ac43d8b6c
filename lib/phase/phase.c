/* SPDX-License-Identifier: ISC */
/*
 * phase: tags op records with a phase and an iteration (ttp-phase; see phase.h).
 *
 * This module owns the three phase methods, the choice among them (auto), and the
 * spool that lets the look-ahead methods tag a stream of any size in bounded memory:
 * pass 1 keeps 8 bytes of facts per op (a symbol for its name, its matmul class, its
 * own M class) plus its id, and appends each record line to a tmpfile(3); pass 2 reads
 * the lines back and appends the tags.
 *
 * Finding the repetition is lib/period.c: the periodic stretch that covers the most
 * ops, in O(n log n) time.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/names.h"
#include "phase/period.h"
#include "phase/phase.h"
#include "core/rec.h"
#include "core/tensor.h"

/* --- methods ------------------------------------------------------------------------ */

static const struct {
	const char	*name;
	enum phase_by	 by;
} bynames[] = {
	{ "auto", PHASE_AUTO },
	{ "signpost", PHASE_SIGNPOST },
	{ "signposts", PHASE_SIGNPOST },
	{ "matmul-m", PHASE_MATMUL_M },
	{ "matmul", PHASE_MATMUL_M },
	{ "repeat", PHASE_REPEAT },
};

bool
phase_by_parse(const char *s, enum phase_by *by)
{
	size_t i;

	for (i = 0; i < sizeof(bynames) / sizeof(bynames[0]); i++)
		if (strcmp(s, bynames[i].name) == 0) {
			*by = bynames[i].by;
			return true;
		}
	return false;
}

const char *
phase_by_name(enum phase_by by)
{
	switch (by) {
	case PHASE_SIGNPOST:
		return "signpost";
	case PHASE_MATMUL_M:
		return "matmul-m";
	case PHASE_REPEAT:
		return "repeat";
	default:
		return "auto";
	}
}

/* --- M of a matmul ------------------------------------------------------------------- */

static long long
wzy(const long long *d)
{
	long long m = 1;
	int k;

	for (k = 0; k < 3; k++)
		m = d[k] != 0 && m > LLONG_MAX / d[k] ? LLONG_MAX : m * d[k];
	return m;
}

long long
phase_m(const struct tensor *in0)
{
	if (in0 == NULL || !in0->present)
		return -1;
	if (in0->has_logical)
		return wzy(in0->logical);
	if (in0->has_shape)
		return wzy(in0->shape);
	return -1;
}

/* --- repetition ---------------------------------------------------------------------- */

/* The search itself is lib/period.c (period_find). */

/* --- matmul M ------------------------------------------------------------------------ */

bool
phase_split_matmul(const uint8_t *mm, const uint8_t *own, size_t n, uint8_t *out)
{
	size_t i, first = n, prev;

	for (i = 0; i < n; i++)
		if (mm[i] != PM_NONE) {
			first = i;
			break;
		}
	if (first == n)
		return false;
	for (i = 0; i <= first; i++)
		out[i] = mm[first];
	prev = first;
	for (i = first + 1; i < n; i++) {
		size_t k, best, j;
		long cost, bestcost;
		uint8_t a, b;

		if (mm[i] == PM_NONE)
			continue;
		a = mm[prev];
		b = mm[i];
		if (a == b) {
			for (j = prev + 1; j <= i; j++)
				out[j] = a;
			prev = i;
			continue;
		}
		/* Split (prev, i) at k: (prev, k) is a, [k, i) is b. Cost: ops whose own
		 * M says otherwise. Start with all in b, move k right. */
		cost = 0;
		for (j = prev + 1; j < i; j++)
			if (own[j] == a)
				cost++;
		best = prev + 1;
		bestcost = cost;
		for (k = prev + 1; k < i; k++) {
			if (own[k] == a)
				cost--;
			else if (own[k] == b)
				cost++;
			if (cost < bestcost) {
				bestcost = cost;
				best = k + 1;
			}
		}
		for (j = prev + 1; j < best; j++)
			out[j] = a;
		for (j = best; j <= i; j++)
			out[j] = b;
		prev = i;
	}
	for (i = prev + 1; i < n; i++)
		out[i] = mm[prev];
	return true;
}

/* --- the record stream --------------------------------------------------------------- */

enum { T_START, T_PREFILL, T_DECODE, T_WARMUP, T_TAIL, T_UNKNOWN };
static const char *const tagname[] = {
	"start", "prefill", "decode", "warmup", "tail", "unknown"
};

struct opfacts {
	uint32_t	sym;	/* op name and own M class as a small int */
	uint8_t		mm;	/* PM_* if a matmul with known M */
	uint8_t		own;	/* PM_* from its own in[0] M */
};

struct state {
	const struct phase_opts *o;
	FILE		*out;
	enum phase_by	 mode;		/* PHASE_SIGNPOST once streaming */
	/* spool (look-ahead methods) */
	FILE		*spool;
	struct buf	 line;
	struct opfacts	*ops;
	long long	*ids;
	size_t		 nops, capops;
	struct names	 names;		/* op names: their index is the op's symbol */
	/* signpost streaming */
	struct names	 sps;		/* signpost names */
	long long	*spiter;	/* per signpost name: its last iteration */
	size_t		 capspiter;
	const char	*cur;		/* current phase name, NULL: "start" */
	size_t		 curlen;
	long long	 curiter;
	size_t		 nsignposts;
	/* trace order check */
	long long	 lastid;
	bool		 disorder;
};

static bool
is_kind(struct rec *r, const char *kind)
{
	const char *k = rec_str(r, "kind", NULL);

	return k != NULL && strcmp(k, kind) == 0;
}

static void
check_order(struct state *st, struct rec *r)
{
	long long id;

	if (!rec_int(r, "id", &id))
		return;
	if (id < st->lastid && !st->disorder) {
		st->disorder = true;
		warning("%s: records are not in trace order (id %lld after id %lld); "
		    "phases follow the input order (for traces with replays, "
		    "ttp-parse --no-sort gives the execution order)",
		    rec_where(r), id, st->lastid);
	}
	if (id > st->lastid)
		st->lastid = id;
}

static void
writeout(struct state *st, const char *p, size_t n)
{
	if (n > 0 && fwrite(p, 1, n, st->out) != n)
		io_write_error(st->out, "stdout");
}

/* Signpost method, one record: tag ops with the current segment, follow signposts. */
static void
stream_one(struct state *st, struct rec *r)
{
	if (is_kind(r, "signpost")) {
		size_t len;
		uint32_t k;
		const char *name = rec_str(r, "name", &len);

		if (name == NULL)
			name = rec_str(r, "op", &len);
		if (name == NULL) {
			name = "signpost";
			len = strlen(name);
		}
		k = names_intern(&st->sps, name, len);
		if (k >= st->capspiter) {
			size_t cap = st->capspiter ? 2 * st->capspiter : 64;

			st->spiter = xreallocarray(st->spiter, cap, sizeof(*st->spiter));
			memset(st->spiter + st->capspiter, 0,
			    (cap - st->capspiter) * sizeof(*st->spiter));
			st->capspiter = cap;
		}
		st->curiter = ++st->spiter[k];
		st->cur = names_str(&st->sps, k);
		st->curlen = len;
		st->nsignposts++;
	} else if (is_kind(r, "op")) {
		if (st->cur == NULL) {
			rec_set_str(r, "phase", tagname[T_START]);
			rec_del(r, "iter");
		} else {
			rec_set_strn(r, "phase", st->cur, st->curlen);
			rec_set_int(r, "iter", st->curiter);
		}
	}
	rec_write(r, st->out);
}

/* Look-ahead methods, pass 1: keep the op's facts, spool its line ('o' or '-' first). */
static void
spool_one(struct state *st, struct rec *r)
{
	bool op = is_kind(r, "op");

	buf_reset(&st->line);
	buf_addc(&st->line, op ? 'o' : '-');
	if (op) {
		struct opfacts f;
		struct tensor in0;
		const char *name;
		size_t len;
		uint32_t k;
		long long m = -1, id;
		bool matmul;

		if ((name = rec_str(r, "op", &len)) == NULL) {
			name = "";
			len = 0;
		}
		matmul = memmem(name, len, "Matmul", 6) != NULL;
		if (tensor_read(r, "in", &in0, 1) == 1)
			m = phase_m(&in0);
		f.own = m < 0 ? PM_NONE : m <= st->o->threshold ? PM_DECODE : PM_PREFILL;
		f.mm = matmul ? f.own : PM_NONE;
		k = names_intern(&st->names, name, len);
		if (k > UINT32_MAX / 3 - 1)
			die(EXIT_DATA, "too many distinct op names");
		f.sym = k * 3 + f.own;
		if (st->nops == st->capops) {
			st->capops = st->capops ? st->capops * 2 : 4096;
			st->ops = xreallocarray(st->ops, st->capops, sizeof(*st->ops));
			st->ids = xreallocarray(st->ids, st->capops, sizeof(*st->ids));
		}
		st->ops[st->nops] = f;
		st->ids[st->nops] = rec_int(r, "id", &id) ? id : -1;
		st->nops++;
		if (rec_type(r, "phase") != REC_ABSENT)
			rec_del(r, "phase");
		if (rec_type(r, "iter") != REC_ABSENT)
			rec_del(r, "iter");
	}
	rec_format(r, &st->line);
	if (st->spool == NULL) {
		if ((st->spool = tmpfile()) == NULL)
			die(EXIT_DATA, "tmpfile: %s", strerror(errno));
		setvbuf(st->spool, NULL, _IOFBF, 1 << 20);
	}
	if (fwrite(st->line.p, 1, st->line.len, st->spool) != st->line.len)
		die(EXIT_DATA, "spool file: %s", strerror(errno));
}

/* Pass 2: write the spooled lines with the tags (tag[i], iter[i] for op i; tag NULL:
 * every op gets T_START and no iter). */
static void
replay(struct state *st, const uint8_t *tag, const uint32_t *iter)
{
	char *p = NULL, num[32];
	size_t cap = 0, i = 0;
	ssize_t n;

	if (st->spool == NULL)
		return;
	if (fflush(st->spool) == EOF || fseeko(st->spool, 0, SEEK_SET) == -1)
		die(EXIT_DATA, "spool file: %s", strerror(errno));
	while ((n = getline(&p, &cap, st->spool)) > 0) {
		size_t len = (size_t)n, end;
		int t;

		if (p[0] != 'o') {
			writeout(st, p + 1, len - 1);
			continue;
		}
		/* The line is a compact object ending in "}\n" with no phase/iter key. */
		end = len - 1;
		while (end > 1 && p[end] != '}')
			end--;
		writeout(st, p + 1, end - 1);
		if (end - 1 > 1)
			writeout(st, ",", 1);
		t = tag ? tag[i] : T_START;
		writeout(st, "\"phase\":\"", 9);
		writeout(st, tagname[t], strlen(tagname[t]));
		writeout(st, "\"", 1);
		if (iter != NULL && iter[i] != 0) {
			int k = snprintf(num, sizeof(num), ",\"iter\":%u", iter[i]);

			writeout(st, num, (size_t)k);
		}
		writeout(st, "}\n", 2);
		i++;
	}
	if (ferror(st->spool))
		die(EXIT_DATA, "spool file: %s", strerror(errno));
	free(p);
	fclose(st->spool);
	st->spool = NULL;
	st->nops = 0;
}

static const char *
plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* Repetition: tags from the best periodic stretch; false if none fits. */
static bool
by_repeat(struct state *st, uint8_t *tag, uint32_t *iter, bool strict, bool say_it)
{
	struct period pp;
	uint32_t *sym;
	size_t i, n = st->nops, full;
	bool found, prefill = false;

	sym = xreallocarray(NULL, n ? n : 1, sizeof(*sym));
	for (i = 0; i < n; i++)
		sym[i] = st->ops[i].sym;
	found = period_find(sym, n, &pp);
	free(sym);
	if (strict && (!found || 2 * pp.len < n))
		return false;
	if (!found)
		pp.start = n, pp.len = 0, pp.period = 1;
	for (i = 0; i < pp.start; i++)
		if (st->ops[i].mm == PM_PREFILL)
			prefill = true;
	for (i = 0; i < n; i++) {
		if (i < pp.start) {
			tag[i] = prefill ? T_PREFILL : T_WARMUP;
			iter[i] = 0;
		} else if (i < pp.start + pp.len) {
			tag[i] = T_DECODE;
			iter[i] = (uint32_t)((i - pp.start) / pp.period + 1);
		} else {
			tag[i] = T_TAIL;
			iter[i] = 0;
		}
	}
	if (!say_it)
		return true;
	if (!found) {
		note("phases by repeat: no op sequence repeats; all %zu op%s are %s",
		    n, plural(n), prefill ? "prefill" : "warmup");
		return true;
	}
	full = pp.len / pp.period;
	note("phases by repeat: %zu ops repeat with a period of %zu op%s: %zu "
	    "iteration%s%s, ids %lld-%lld (%zu op%s before, %zu after)",
	    pp.len, pp.period, plural(pp.period), full, plural(full),
	    pp.len % pp.period ? " and a partial one" : "",
	    st->ids[pp.start], st->ids[pp.start + pp.len - 1],
	    pp.start, plural(pp.start), n - pp.start - pp.len);
	return true;
}

static void
by_matmul(struct state *st, uint8_t *tag, uint32_t *iter, bool say_it, const char *why)
{
	uint8_t *mm, *own;
	size_t i, n = st->nops, ndec = 0;

	mm = xmalloc(n ? n : 1);
	own = xmalloc(n ? n : 1);
	for (i = 0; i < n; i++) {
		mm[i] = st->ops[i].mm;
		own[i] = st->ops[i].own;
		iter[i] = 0;
	}
	if (!phase_split_matmul(mm, own, n, tag)) {
		memset(tag, T_UNKNOWN, n);
		if (say_it)
			note("%sphases by matmul-m: no matmul with a known M; all %zu op%s "
			    "are unknown", why, n, plural(n));
	} else {
		for (i = 0; i < n; i++) {
			tag[i] = tag[i] == PM_DECODE ? T_DECODE : T_PREFILL;
			if (tag[i] == T_DECODE)
				ndec++;
		}
		if (say_it)
			note("%sphases by matmul-m (M <= %lld is decode): %zu prefill op%s, "
			    "%zu decode op%s", why, st->o->threshold, n - ndec,
			    plural(n - ndec), ndec, plural(ndec));
	}
	free(mm);
	free(own);
}

/* End of input for the look-ahead methods: decide the tags and replay. */
static void
finish(struct state *st)
{
	size_t n = st->nops;
	uint8_t *tag = xmalloc(n ? n : 1);
	uint32_t *iter = xreallocarray(NULL, n ? n : 1, sizeof(*iter));
	/* Nothing to say about an input without ops. */
	bool loud = n > 0 &&
	    (st->o->verbose || (st->o->by == PHASE_AUTO && !st->o->quiet));

	switch (st->mode) {
	case PHASE_REPEAT:
		by_repeat(st, tag, iter, false, loud);
		break;
	case PHASE_MATMUL_M:
		by_matmul(st, tag, iter, loud, "");
		break;
	default:
		if (!by_repeat(st, tag, iter, true, loud))
			by_matmul(st, tag, iter, loud,
			    "no signposts and no repeating op sequence; ");
		break;
	}
	replay(st, tag, iter);
	free(tag);
	free(iter);
}

void
phase_tag(struct rec_reader *rd, FILE *out, const struct phase_opts *o)
{
	struct state st;
	struct rec *r;

	memset(&st, 0, sizeof(st));
	st.o = o;
	st.out = out;
	st.mode = o->by;
	st.lastid = -1;
	while ((r = rec_next(rd)) != NULL) {
		if (is_kind(r, "op") || is_kind(r, "signpost"))
			check_order(&st, r);
		if (st.mode == PHASE_AUTO && is_kind(r, "signpost")) {
			/* Signposts decide; what was held back is before the first one. */
			replay(&st, NULL, NULL);
			st.mode = PHASE_SIGNPOST;
		}
		if (st.mode == PHASE_SIGNPOST)
			stream_one(&st, r);
		else
			spool_one(&st, r);
	}
	if (st.mode == PHASE_SIGNPOST) {
		if (o->verbose || (o->by == PHASE_AUTO && !o->quiet))
			note("phases by signpost: %zu signpost%s, %zu name%s",
			    st.nsignposts, plural(st.nsignposts), st.sps.n,
			    plural(st.sps.n));
	} else
		finish(&st);
	names_free(&st.names);
	names_free(&st.sps);
	free(st.spiter);
	buf_free(&st.line);
	free(st.ops);
	free(st.ids);
}
