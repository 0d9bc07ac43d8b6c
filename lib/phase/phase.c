/* SPDX-License-Identifier: ISC */
/*
 * phase: tags op records with a phase and an iteration (ttp-phase; see phase.h).
 *
 * This module owns the phase methods, the choice among them (auto), and the spool
 * that lets the look-ahead methods tag a stream of any size in little memory: pass 1
 * keeps about 12 bytes of facts per op on a TT trace (a 4-byte symbol for its name and
 * own M class; one byte for its matmul class, heuristic label and flags; its id, host
 * start, rank and device time in packed columns, intcol.h: 2, 5, 0 and 0 bytes) and the
 * step annotations, and appends each record line to a spool; pass 2 reads the lines
 * back and appends the tags. The repeat method's search (period.h) adds about 12 bytes
 * an op at its peak, the tags 5 after it.
 *
 * Finding the repetition is lib/phase/period.c: the periodic stretch that covers the most
 * ops, in O(n log n) time. The step grammar is lib/torch/step.c, the heuristics lib/phase/guess.c.
 */
#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/badrec.h"
#include "core/buf.h"
#include "core/ckint.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/json.h"
#include "core/names.h"
#include "phase/guess.h"
#include "phase/intcol.h"
#include "phase/period.h"
#include "phase/phase.h"
#include "torch/step.h"
#include "core/rec.h"
#include "core/spool.h"
#include "core/tensor.h"
#include "core/trace.h"
#include "tt/opclass.h"

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
	{ "steps", PHASE_STEPS },
	{ "step", PHASE_STEPS },
	{ "gemm-params", PHASE_GEMM_PARAMS },
	{ "kernel-names", PHASE_KERNEL_NAMES },
	{ "attention", PHASE_ATTENTION },
	{ "framework", PHASE_FRAMEWORK },
	{ "frequency", PHASE_FREQUENCY },
	{ "hybrid", PHASE_HYBRID },
	{ "union", PHASE_UNION },
	/* TraceLens's --phase_detection_method names */
	{ "gemm_params", PHASE_GEMM_PARAMS },
	{ "kernel_names", PHASE_KERNEL_NAMES },
	{ "attention_patterns", PHASE_ATTENTION },
	{ "framework_apis", PHASE_FRAMEWORK },
	{ "operation_frequency", PHASE_FREQUENCY },
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
	size_t i;

	/* The first spelling of each method in bynames is its name. */
	for (i = 0; i < sizeof(bynames) / sizeof(bynames[0]); i++)
		if (bynames[i].by == by)
			return bynames[i].name;
	return "auto";
}

static bool
is_guess(enum phase_by by)
{
	return by >= PHASE_GEMM_PARAMS && by <= PHASE_UNION;
}

/* --- M of a matmul ------------------------------------------------------------------- */

/* The rows of a matmul operand: the product of its extents but the last (TT's W * Z * Y;
 * a lower rank reads as padded on the left with 1s). */
static long long
wzy(const struct dims *d)
{
	long long m = 1;
	int k;

	for (k = 0; k < d->rank - 1; k++)
		m = d->d[k] != 0 && m > LLONG_MAX / d->d[k] ? LLONG_MAX : m * d->d[k];
	return m;
}

long long
phase_m(const struct tensor *in0)
{
	if (in0 == NULL || !in0->present)
		return -1;
	if (in0->has_logical)
		return wzy(&in0->logical);
	if (in0->has_shape)
		return wzy(&in0->shape);
	return -1;
}

/* --- repetition ---------------------------------------------------------------------- */

/* The search itself is lib/phase/period.c (period_find). */

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

enum { T_START, T_PREFILL, T_DECODE, T_WARMUP, T_TAIL, T_UNKNOWN, T_MIXED, T_BEFORE,
	T_REPEAT, T_AFTER, T_NONE };
static const char *const tagname[] = {
	"start", "prefill", "decode", "warmup", "tail", "unknown", "mixed", "before",
	"repeat", "after"
};

/* Keys this program writes; an op's old values are dropped before it is tagged. */
static const char *const ourkeys[] = {
	"phase", "iter", "context_requests", "generation_requests", "context_tokens",
	"generation_tokens", "batch_size"
};

/* The label of an op that is in no step annotation. */
#define OUTSIDE "outside"

enum { F_LAUNCHER = 1, F_KINETO = 2, F_OTHERDEV = 4 };

/* An op's facts as pass 1 reads them; kept as its symbol (sym, a uint32) and one byte
 * (mm | guess << 2 | flags << 4; own is sym % 3). */
struct opfacts {
	uint32_t	sym;	/* op name and own M class as a small int */
	uint8_t		mm;	/* PM_* if a matmul with known M */
	uint8_t		own;	/* PM_* from its own in[0] M */
	uint8_t		guess;	/* GL_* of a launcher, for the heuristics */
	uint8_t		flags;	/* F_* */
};

struct hostfacts {
	long long	start;	/* host_start_ns, LLONG_MIN when absent */
	long long	rank;
	long long	dev_ns;	/* device_ns, 0 when absent */
};

/* A step annotation: a signpost record with a start and an end that step.h parses. */
struct stepiv {
	long long	rank, start, end;
	long long	maxend;	/* the latest end among the steps of its group up to it */
	long long	iter;
	long long	number;	/* its "step" key (ttp-filter --steps), or -1 */
	int		tier;
	struct step	st;
};

/* A gpu record's launcher: (rank, launched_by). */
struct gpufacts {
	long long	rank, id;
};

struct state {
	const struct phase_opts *o;
	FILE		*out;
	enum phase_by	 mode;		/* PHASE_SIGNPOST once streaming */
	long long	 thr;		/* M threshold of matmul-m, repeat and own M classes */
	long long	 gthr;		/* M threshold of the heuristics */
	enum guess_method gm;		/* the heuristic pass 1 labels launchers with */
	bool		 guessing;	/* pass 1 labels launchers */
	/* spool (look-ahead methods) */
	struct spool	*spool;
	struct buf	 line, text;
	/* per op: the facts the methods need, about 11 bytes (see op_at); the ids,
	 * host facts and device times in columns of close values (intcol.h) */
	uint32_t	*sym;		/* the op's symbol (struct opfacts) */
	uint8_t		*fl;		/* the rest of its struct opfacts, packed */
	struct intcol	 id, start, rank, devns;
	size_t		 nops, capops, nkineto;
	struct names	 names;		/* op names: their index is the op's symbol / 3 */
	/* step annotations */
	struct stepiv	*steps;
	size_t		 nsteps, capsteps, nengine;
	int32_t		*opstep;	/* per op: its step, -1 outside (steps only) */
	/* gpu records: each takes the tags of the op that launched it */
	struct gpufacts	*gpus;
	size_t		 ngpus, capgpus;
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
	long long	 dev0;		/* the first op's device (repeat: per device) */
	bool		 have_dev0;
	bool		 disorder;
};

/* Op i's facts. */
static struct opfacts
op_at(const struct state *st, size_t i)
{
	struct opfacts f;
	uint8_t b = st->fl[i];

	f.sym = st->sym[i];
	f.own = (uint8_t)(f.sym % 3);
	f.mm = b & 3;
	f.guess = (uint8_t)(b >> 2 & 3);
	f.flags = (uint8_t)(b >> 4);
	return f;
}

static struct hostfacts
host_at(const struct state *st, size_t i)
{
	struct hostfacts h;

	h.start = intcol_get(&st->start, i);
	h.rank = intcol_get(&st->rank, i);
	h.dev_ns = intcol_get(&st->devns, i);
	return h;
}

/* Forget the ops (after a replay). */
static void
ops_free(struct state *st)
{
	free(st->sym);
	free(st->fl);
	st->sym = NULL;
	st->fl = NULL;
	st->nops = st->capops = 0;
	intcol_free(&st->id);
	intcol_free(&st->start);
	intcol_free(&st->rank);
	intcol_free(&st->devns);
}

/* The kinds of record this stage tells apart (core/trace.h's, strict as rec_str). */
enum { K_OTHER, K_OP, K_SIGNPOST, K_GPU };

static int
kind_of(struct rec *r)
{
	switch (rec_kind(r)) {
	case KIND_OP:
		return K_OP;
	case KIND_SIGNPOST:
		return K_SIGNPOST;
	case KIND_GPU:
		return K_GPU;
	default:
		return K_OTHER;
	}
}

static bool
is_kineto(struct rec *r)
{
	return rec_trace(r) == TRACE_KINETO;
}

/* Record r, an op or signpost of a TT trace, has id. */
static void
check_order(struct state *st, struct rec *r, long long id)
{
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

/*
 * An end marker ("PERF_DECODE_END", "integral_image_end", "OftNet finished", "block
 * ended") closes the segment a signpost opened rather than opening one of its own: its
 * last word is one of these.
 */
static bool
end_marker(const char *name, size_t len)
{
	static const char *const words[] = { "end", "ended", "finished", "done", "stop",
	    "stopped" };
	size_t e = len, b, i;

	while (e > 0 && !isalnum((unsigned char)name[e - 1]))
		e--;
	for (b = e; b > 0 && isalpha((unsigned char)name[b - 1]); b--)
		;
	if (b == e || (b > 0 && isdigit((unsigned char)name[b - 1])))
		return false;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == e - b && strncasecmp(name + b, words[i], e - b) == 0)
			return true;
	return false;
}

static const char outside_tag[] = OUTSIDE;

/* A signpost's name (its "name", else its "op", else "signpost"). */
static void
signpost_name(struct rec *r, const char **name, size_t *len)
{
	if ((*name = rec_str(r, "name", len)) == NULL)
		*name = rec_str(r, "op", len);
	if (*name == NULL) {
		*name = "signpost";
		*len = strlen(*name);
	}
}

/* Signpost method, one record (a signpost's name read by signpost_name): tag ops with
 * the current segment, follow signposts; after an end marker, ops are OUTSIDE any
 * segment until the next signpost. */
static void
stream_one(struct state *st, struct rec *r, int kind, const char *name, size_t len)
{
	if (kind == K_SIGNPOST) {
		uint32_t k = names_intern(&st->sps, name, len);

		if (k >= st->capspiter) {
			size_t cap = grow_cap(st->capspiter, (size_t)k + 1);

			st->spiter = xreallocarray(st->spiter, cap, sizeof(*st->spiter));
			memset(st->spiter + st->capspiter, 0,
			    (cap - st->capspiter) * sizeof(*st->spiter));
			st->capspiter = cap;
		}
		st->curiter = ++st->spiter[k];
		st->cur = names_str(&st->sps, k);
		st->curlen = len;
		if (end_marker(name, len)) {
			st->cur = outside_tag;
			st->curlen = strlen(outside_tag);
		}
		st->nsignposts++;
	} else if (kind == K_OP) {
		if (st->cur == NULL || st->cur == outside_tag) {
			rec_set_str(r, "phase", st->cur == NULL ? tagname[T_START] : outside_tag);
			rec_del(r, "iter");
		} else {
			rec_set_strn(r, "phase", st->cur, st->curlen);
			rec_set_int(r, "iter", st->curiter);
		}
	}
	rec_write(r, st->out);
}

/* A PyTorch op's facts for the heuristics: its first input's leading dimension (when
 * it has at least two inputs and that dimension is a positive integer, as TraceLens
 * reads Input Dims[0][0]) and its kernels' names. */
static long long
lead_dim(struct rec *r)
{
	long long d[32];

	if (rec_count(r, "in") >= 2 && rec_dims(r, "in", 0, "shape", d, 32) >= 1 && d[0] > 0)
		return d[0];
	return -1;
}

/* The shape of input i of r's "in" as its dimensions (at most 8) in d; their count, or
 * -1 when it has no shape of positive integers. */
static int
in_dims(struct rec *r, size_t i, long long *d)
{
	int k, n = rec_dims(r, "in", i, "shape", d, 8);

	for (k = 0; k < n; k++)
		if (d[k] <= 0)
			return -1;
	return n > 0 ? n : -1;
}

/* The product of d[0..n-1), saturating. */
static long long
rows(const long long *d, int n)
{
	long long p = 1;
	int k;

	for (k = 0; k < n - 1; k++)
		p = p > LLONG_MAX / d[k] ? LLONG_MAX : p * d[k];
	return p;
}

static bool
named(const char *name, size_t len, const char *s)
{
	return strlen(s) == len && memcmp(name, s, len) == 0;
}

/* ttp's M of a PyTorch op for matmul-m and repeat, the tokens it works on, as TT's M
 * (W x Z x Y) is: for a GEMM with a weight (aten::mm, aten::linear, aten::_scaled_mm,
 * aten::matmul by a matrix, aten::addmm's second input) the product of all but the
 * last dimension of its input; for a batched one (aten::bmm, aten::baddbmm's second
 * input, aten::matmul of two batches) the rows of one matrix; for aten::embedding the
 * number of its indices; for any other op the product of all but the last dimension
 * of its first input of rank 2 or more; -1 when the shapes do not say. */
static long long
torch_m(struct rec *r, bool gemm, const char *name, size_t len)
{
	long long d[9], w[8], m = -1;
	bool batched;
	int n;
	size_t i;

	if (named(name, len, "aten::embedding")) {
		/* (weight, indices): one row per index */
		if ((n = in_dims(r, 1, d)) >= 1) {
			d[n] = 1;
			m = rows(d, n + 1);
		}
	} else if (!gemm) {
		for (i = 0; i < 4 && m < 0; i++)
			if ((n = in_dims(r, i, d)) >= 2)
				m = rows(d, n);
	} else {
		i = named(name, len, "aten::addmm") || named(name, len, "aten::baddbmm");
		if ((n = in_dims(r, i, d)) >= 2) {
			batched = named(name, len, "aten::bmm") ||
			    named(name, len, "aten::baddbmm") ||
			    (named(name, len, "aten::matmul") && n >= 3 &&
			    in_dims(r, 1, w) >= 3);
			m = batched ? d[n - 2] : rows(d, n);
		}
	}
	return m;
}

/* A PyTorch GEMM op (repeat and matmul-m treat it as TT's matmuls). */
static bool
is_gemm(const char *name, size_t len)
{
	static const char *const gemms[] = {
		"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul",
		"aten::linear", "aten::_scaled_mm"
	};
	size_t n = sizeof(gemms) / sizeof(gemms[0]);

	return names_in_list(gemms, n, name, len) < n;
}

static uint8_t
guess_op(struct state *st, struct rec *r, const char *name, size_t len, long long m)
{
	struct rec_strv ks;
	const char **names;
	size_t *lens, n = 1, i, total = len + 1;
	struct guess_row row;
	uint8_t g;

	rec_strv_of(r, "kernels", "name", &ks);
	names = xreallocarray(NULL, 1 + ks.n, sizeof(*names));
	lens = xreallocarray(NULL, 1 + ks.n, sizeof(*lens));
	names[0] = name;
	lens[0] = len;
	for (i = 0; i < ks.n; i++) {
		names[n] = ks.s[i];
		lens[n] = ks.len[i];
		total += lens[n] + 1;
		n++;
	}
	buf_reset(&st->text);
	buf_grow(&st->text, total);
	st->text.len = guess_text(st->text.p, names, lens, n);
	row.name = name;
	row.namelen = len;
	row.text = st->text.p;
	row.textlen = st->text.len;
	row.m = m;
	g = (uint8_t)guess_row(st->gm, &row, st->gthr);
	free(names);
	free(lens);
	return g;
}

/* A step annotation's facts, when the signpost r is one. */
static bool
read_step(struct rec *r, struct stepiv *s)
{
	const char *name;
	size_t len;

	if ((name = rec_str(r, "name", &len)) == NULL ||
	    !rec_int(r, "host_start_ns", &s->start) || !rec_int(r, "host_end_ns", &s->end) ||
	    !step_parse(name, len, &s->st))
		return false;
	if (!rec_int(r, "rank", &s->rank))
		s->rank = 0;
	if (!rec_int(r, "step", &s->number))
		s->number = -1;
	s->tier = step_tier(s->st.kind);
	s->iter = s->maxend = 0;
	return true;
}

/* What pass 1 keeps of a record, all read before any of it is kept: a bad record (one
 * that a read marked) is left out whole. */
struct spoolfacts {
	char		 type;		/* 'o' op, 'g' gpu record with a launcher, '-' other */
	struct opfacts	 f;		/* an op's, sym not yet set */
	struct hostfacts h;
	long long	 id;
	bool		 has_dev;	/* a TT op's device: dev */
	long long	 dev;
	const char	*name;		/* the op's name */
	size_t		 len;
	struct gpufacts	 g;		/* a gpu record's launcher */
	bool		 step;		/* a step annotation: s */
	struct stepiv	 s;
};

/* Look-ahead methods, pass 1, reading: the facts of r into sf. */
static void
spool_read(struct state *st, struct rec *r, int kind, bool kineto, struct spoolfacts *sf)
{
	sf->type = '-';
	sf->step = false;
	sf->has_dev = false;
	if (kind == K_GPU) {
		if (rec_int(r, "launched_by", &sf->g.id)) {
			if (!rec_int(r, "rank", &sf->g.rank))
				sf->g.rank = 0;
			sf->type = 'g';
		}
	} else if (kind == K_OP) {
		struct opfacts *f = &sf->f;
		struct hostfacts *h = &sf->h;
		const char *name;
		size_t len;
		long long m = -1;
		bool matmul = false, launcher = false;
		double dev;

		sf->type = 'o';
		if ((name = rec_str(r, "op", &len)) == NULL) {
			name = "";
			len = 0;
		}
		memset(f, 0, sizeof(*f));
		if (kineto) {
			f->flags |= F_KINETO;
			matmul = is_gemm(name, len);
			if (rec_bool(r, "launcher", &launcher) && launcher) {
				f->flags |= F_LAUNCHER;
				if (st->guessing)
					f->guess = guess_op(st, r, name, len, lead_dim(r));
			}
			m = torch_m(r, matmul, name, len);
		} else {
			struct tensor in0;

			matmul = opclass_matmul(name, len);
			if (tensor_read(r, "in", &in0, 1) == 1)
				m = phase_m(&in0);
			/* the repeat method looks at the first device's ops */
			sf->has_dev = rec_type(r, "device") == REC_INT &&
			    rec_int(r, "device", &sf->dev);
		}
		f->own = m < 0 ? PM_NONE : m <= st->thr ? PM_DECODE : PM_PREFILL;
		f->mm = matmul ? f->own : PM_NONE;
		sf->name = name;
		sf->len = len;
		if (!rec_int(r, "host_start_ns", &h->start))
			h->start = LLONG_MIN;
		if (!rec_int(r, "rank", &h->rank))
			h->rank = 0;
		/* device_ns only matters (and is only read) for the heuristics' summary */
		h->dev_ns = (f->flags & F_LAUNCHER) && rec_num(r, "device_ns", &dev) &&
		    dev > 0 && dev < 9e18 ? (long long)dev : 0;
		if (!rec_int(r, "id", &sf->id))
			sf->id = -1;
	} else if (kind == K_SIGNPOST)
		sf->step = read_step(r, &sf->s);
}

/* Look-ahead methods, pass 1, keeping: the facts that spool_read read of the good
 * record r, and its line ('o', 'g' or '-' first) in the spool. */
static void
spool_keep(struct state *st, struct rec *r, struct spoolfacts *sf)
{
	size_t i;

	if (sf->type == 'g') {
		st->gpus = xgrow(st->gpus, &st->capgpus, st->ngpus + 1, sizeof(*st->gpus));
		st->gpus[st->ngpus++] = sf->g;
	} else if (sf->type == 'o') {
		struct opfacts f = sf->f;
		uint32_t k;

		if (f.flags & F_KINETO)
			st->nkineto++;
		/* the repeat method looks at the first device's ops */
		if (sf->has_dev) {
			if (!st->have_dev0) {
				st->have_dev0 = true;
				st->dev0 = sf->dev;
			} else if (sf->dev != st->dev0)
				f.flags |= F_OTHERDEV;
		}
		k = names_intern(&st->names, sf->name, sf->len);
		if (k > UINT32_MAX / 3 - 1)
			die(EXIT_DATA, "too many distinct op names");
		f.sym = k * 3 + f.own;
		if (st->nops == UINT32_MAX)
			die(EXIT_DATA, "too many ops (%zu)", st->nops);
		if (st->nops == st->capops) {
			st->capops = grow_cap(st->capops, st->nops + 1);
			st->sym = xreallocarray(st->sym, st->capops, sizeof(*st->sym));
			st->fl = xreallocarray(st->fl, st->capops, sizeof(*st->fl));
		}
		st->sym[st->nops] = f.sym;
		st->fl[st->nops] = (uint8_t)(f.mm | f.guess << 2 | f.flags << 4);
		intcol_add(&st->id, sf->id);
		intcol_add(&st->start, sf->h.start);
		intcol_add(&st->rank, sf->h.rank);
		intcol_add(&st->devns, sf->h.dev_ns);
		st->nops++;
	} else if (sf->step) {
		st->steps = xgrow(st->steps, &st->capsteps, st->nsteps + 1, sizeof(*st->steps));
		st->steps[st->nsteps++] = sf->s;
		if (sf->s.tier <= 2)
			st->nengine++;
	}
	if (sf->type != '-')
		for (i = 0; i < sizeof(ourkeys) / sizeof(ourkeys[0]); i++)
			if (rec_type(r, ourkeys[i]) != REC_ABSENT)
				rec_del(r, ourkeys[i]);
	buf_reset(&st->line);
	buf_addc(&st->line, sf->type);
	rec_format(r, &st->line);
	if (st->spool == NULL)
		st->spool = spool_open();
	spool_add(st->spool, st->line.p, st->line.len);
}

/* The tags of op i, as members through w (none: the op is written unchanged). */
typedef void tagfn(struct state *st, const void *ctx, size_t i, struct js_writer *w);

struct basic_tags {
	const uint8_t	*tag;	/* NULL: every op is T_START */
	const uint32_t	*iter;	/* NULL or 0: no iter */
};

static void
basic_tag(struct state *st, const void *ctx, size_t i, struct js_writer *w)
{
	const struct basic_tags *bt = ctx;
	int t = bt->tag ? bt->tag[i] : T_START;

	if (t == T_NONE)
		return;
	js_w_key(w, "phase");
	js_w_strz(w, tagname[t]);
	if (bt->iter != NULL && bt->iter[i] != 0) {
		js_w_key(w, "iter");
		js_w_int(w, bt->iter[i]);
	}
}

/* Op indices sorted by (rank, id), to find a gpu record's launcher. */
static const struct state *sortst;

static int
cmpopid(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	long long rx = intcol_get(&sortst->rank, x), ry = intcol_get(&sortst->rank, y);
	long long ix = intcol_get(&sortst->id, x), iy = intcol_get(&sortst->id, y);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (ix != iy)
		return ix < iy ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The index of the op (rank, id), or (size_t)-1. */
static size_t
find_op(const struct state *st, const size_t *byid, long long rank, long long id)
{
	size_t lo = 0, hi = st->nops;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, k = byid[mid];
		long long r = intcol_get(&st->rank, k);

		if (r < rank || (r == rank && intcol_get(&st->id, k) < id))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < st->nops && intcol_get(&st->rank, byid[lo]) == rank &&
	    intcol_get(&st->id, byid[lo]) == id)
		return byid[lo];
	return (size_t)-1;
}

/* Pass 2: write the spooled lines, each op with its tags, each gpu record with the
 * tags of the op that launched it. */
static void
replay(struct state *st, tagfn *fn, const void *ctx)
{
	const char *p;
	size_t len, i = 0, g = 0, *byid = NULL;
	uint64_t off = 0;

	if (st->spool == NULL)
		return;
	if (st->ngpus > 0) {
		byid = xreallocarray(NULL, st->nops ? st->nops : 1, sizeof(*byid));
		for (i = 0; i < st->nops; i++)
			byid[i] = i;
		sortst = st;
		qsort(byid, st->nops, sizeof(*byid), cmpopid);
		i = 0;
	}
	while ((p = spool_line(st->spool, &off, &len)) != NULL) {
		struct js_writer w;
		size_t k;

		if (p[0] == '-') {
			writeout(st, p + 1, len - 1);
			continue;
		}
		buf_reset(&st->text);
		js_w_init(&w, &st->text);
		if (p[0] == 'o')
			fn(st, ctx, i++, &w);
		else if ((k = find_op(st, byid, st->gpus[g].rank, st->gpus[g].id)) !=
		    (size_t)-1)
			fn(st, ctx, k, &w);
		if (p[0] == 'g')
			g++;
		if (st->text.len == 0) {
			writeout(st, p + 1, len - 1);
			continue;
		}
		/* the line has none of our keys (spool_keep deleted them) */
		buf_reset(&st->line);
		rec_line_add(&st->line, p + 1, len - 1, st->text.p, st->text.len);
		writeout(st, st->line.p, st->line.len);
	}
	free(byid);
	spool_close(st->spool);
	st->spool = NULL;
	ops_free(st);
	st->ngpus = 0;
}

static const char *
plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* The shortest stretch a period of one op must cover to count as a repetition. */
#define REPEAT_MIN_RUN1 8

/* The tag and iter arrays of the ops, allocated once the method knows it can tag. */
static void
tags_alloc(const struct state *st, uint8_t **tag, uint32_t **iter)
{
	size_t n = st->nops ? st->nops : 1;

	*tag = xmalloc(n);
	*iter = xreallocarray(NULL, n, sizeof(**iter));
}

/* Whether op i is one of the ops the period is looked for in: those of the first
 * device when the devices' ops are interleaved. */
static inline bool
selected(const struct state *st, bool interleaved, size_t i)
{
	return !interleaved || !(st->fl[i] >> 4 & F_OTHERDEV);
}

/* Whether the devices' ops are interleaved: files of one device each, given one after
 * the other, are one sequence. */
static bool
interleaved_devices(const struct state *st)
{
	bool other = false;
	size_t i;

	for (i = 0; i < st->nops; i++) {
		if (st->fl[i] >> 4 & F_OTHERDEV)
			other = true;
		else if (other)
			return true;
	}
	return false;
}

/* The period of the selected ops (*n of them) in *pp: true when there is one worth
 * the name; else *best is the longest stretch found, if any. */
static bool
find_repeat(const struct state *st, bool interleaved, struct period *pp,
    struct period *best, size_t *n)
{
	uint32_t *sym = st->sym;
	bool found;
	size_t i;

	/* the symbols of the selected ops: the state's own array when that is all ops */
	*n = 0;
	if (interleaved) {
		sym = xreallocarray(NULL, st->nops ? st->nops : 1, sizeof(*sym));
		for (i = 0; i < st->nops; i++)
			if (selected(st, interleaved, i))
				sym[(*n)++] = st->sym[i];
	} else
		*n = st->nops;
	found = period_find(sym, *n, pp);
	if (sym != st->sym)
		free(sym);
	/* A repetition worth the name: a real share of the ops (a quarter), and a period of
	 * more than one op unless that op repeats many times; two copies of one op in a
	 * trace that does not repeat are no period. */
	if (found && !(4 * pp->len >= *n && (pp->period > 1 || pp->len >= REPEAT_MIN_RUN1))) {
		*best = *pp;
		found = false;
	}
	return found;
}

/*
 * LLM names only on evidence: decode-sized matmuls in the repeating stretch pp, and
 * either prefill-sized ones before it or decode and KV-cache ops in it (an encoder
 * over a short padded sequence has small M too). Encoders' repeated blocks are
 * neither prefill nor decode. PyTorch traces: decode when every GEMM in the stretch
 * is decode-sized (M is the batch's tokens, so the layers of a prefill pass repeat
 * too, with a large M). One scan of the selected ops: *prefill when prefill-sized
 * matmuls come before the stretch; *first and *last the indices of its first op and
 * of the last op scanned.
 */
static bool
repeat_is_llm(const struct state *st, bool interleaved, const struct period *pp,
    bool *prefill, size_t *first, size_t *last)
{
	bool small = false, large = false, cache = false, kineto = false;
	size_t i, k;

	for (i = 0, k = 0; i < st->nops && k < pp->start + pp->len; i++) {
		struct opfacts f;

		if (!selected(st, interleaved, i))
			continue;
		f = op_at(st, i);
		if (k == pp->start)
			*first = i;
		*last = i;
		if (k < pp->start) {
			if (f.mm == PM_PREFILL)
				*prefill = true;
		} else {
			const char *nm = names_str(&st->names, f.sym / 3);

			if (f.flags & F_KINETO)
				kineto = true;
			if (f.mm == PM_DECODE)
				small = true;
			else if (f.mm == PM_PREFILL)
				large = true;
			if (opkind_flags(nm, OPK_CSTR, OPC_DECODE) != 0)
				cache = true;
		}
		k++;
	}
	return kineto ? small && !large : small && (*prefill || cache);
}

/* Every op's tag and iteration from the stretch pp of the selected ops. */
static void
repeat_tags(const struct state *st, bool interleaved, const struct period *pp, bool llm,
    bool prefill, uint8_t *tag, uint32_t *iter)
{
	size_t i, k, seen;

	/* k: the position among the first device's ops of the last one at or before op i
	 * (0 before the first one) */
	for (i = 0, seen = 0; i < st->nops; i++) {
		if (selected(st, interleaved, i))
			seen++;
		k = seen > 0 ? seen - 1 : 0;
		if (k < pp->start) {
			tag[i] = !llm ? T_BEFORE : prefill ? T_PREFILL : T_WARMUP;
			iter[i] = 0;
		} else if (k < pp->start + pp->len) {
			tag[i] = llm ? T_DECODE : T_REPEAT;
			iter[i] = (uint32_t)((k - pp->start) / pp->period + 1);
		} else {
			tag[i] = llm ? T_TAIL : T_AFTER;
			iter[i] = 0;
		}
	}
}

/* What the repetition search found (n selected ops; first and last: the indices of
 * the stretch's first op and of its last), as a note. */
static void
repeat_say(const struct state *st, bool found, const struct period *pp,
    const struct period *best, size_t n, size_t first, size_t last, const uint8_t *tag)
{
	size_t full;

	if (!found && best->len > 0) {
		note("phases by repeat: no repetition found (the longest, %zu op%s%s with a "
		    "period of %zu op%s, is too short); all %zu op%s are %s",
		    best->len, plural(best->len), n < st->nops ? " of the first device" : "",
		    best->period, plural(best->period),
		    st->nops, plural(st->nops), tagname[st->nops ? tag[0] : T_BEFORE]);
		return;
	}
	if (!found) {
		note("phases by repeat: no op sequence repeats; all %zu op%s are %s",
		    st->nops, plural(st->nops), tagname[st->nops ? tag[0] : T_BEFORE]);
		return;
	}
	full = pp->len / pp->period;
	note("phases by repeat: %zu ops%s repeat with a period of %zu op%s: %zu "
	    "iteration%s%s, ids %lld-%lld (%zu op%s before, %zu after)",
	    pp->len, n < st->nops ? " of the first device" : "", pp->period,
	    plural(pp->period), full, plural(full),
	    pp->len % pp->period ? " and a partial one" : "",
	    intcol_get(&st->id, first), intcol_get(&st->id, last),
	    pp->start, plural(pp->start), n - pp->start - pp->len);
}

/* Repetition: tags from the best periodic stretch (tag and iter allocated here); false
 * (nothing allocated) if none fits. On a trace of several devices each op appears once
 * per device, one copy after the other: the period is looked for in the ops of one
 * device (the first seen), and the other devices' ops take the tags of the op of that
 * device before them.
 * Memory: the search's (period.h: about 12 bytes an op at its peak) beside the symbols
 * the state keeps; no per-op index of the first device's ops (sequential scans find
 * them), and the tags only after the search. */
static bool
by_repeat(struct state *st, uint8_t **tagp, uint32_t **iterp, bool strict, bool say_it)
{
	struct period pp, best = { 0, 0, 0 };
	size_t n, first = 0, last = 0;
	bool interleaved = interleaved_devices(st), found, prefill = false, llm;

	found = find_repeat(st, interleaved, &pp, &best, &n);
	if (strict && (!found || 2 * pp.len < n))
		return false;
	if (!found)
		pp.start = n, pp.len = 0, pp.period = 1;
	llm = repeat_is_llm(st, interleaved, &pp, &prefill, &first, &last);
	tags_alloc(st, tagp, iterp);
	repeat_tags(st, interleaved, &pp, llm, prefill, *tagp, *iterp);
	if (say_it)
		repeat_say(st, found, &pp, &best, n, first, last, *tagp);
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
		mm[i] = st->fl[i] & 3;
		own[i] = (uint8_t)(st->sym[i] % 3);
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
			    "%zu decode op%s", why, st->thr, n - ndec,
			    plural(n - ndec), ndec, plural(ndec));
	}
	free(mm);
	free(own);
}

/* Microseconds with three decimals, for messages. */
static void
us(char *dst, size_t size, long long ns)
{
	snprintf(dst, size, "%lld.%03lld", ns / 1000, ns % 1000);
}

/* TraceLens's heuristics: launchers get their label, other ops no phase. */
static void
by_guess(struct state *st, uint8_t *tag, uint32_t *iter, bool say_it, const char *why)
{
	static const uint8_t totag[] = { T_MIXED, T_PREFILL, T_DECODE };
	size_t i, k, n = st->nops, nl = 0, count[3] = { 0, 0, 0 };
	long long ns[3] = { 0, 0, 0 };
	uint32_t *sym = xreallocarray(NULL, n ? n : 1, sizeof(*sym));
	uint8_t *label = xmalloc(n ? n : 1);
	size_t *row = xreallocarray(NULL, n ? n : 1, sizeof(*row));
	char a[32], b[32], c[32];

	for (i = 0; i < n; i++) {
		tag[i] = T_NONE;
		iter[i] = 0;
		struct opfacts f = op_at(st, i);

		if (f.flags & F_LAUNCHER) {
			row[nl] = i;
			sym[nl] = f.sym / 3;
			label[nl++] = f.guess;
		}
	}
	guess_finish(st->gm, sym, nl, st->names.n, label);
	for (k = 0; k < nl; k++) {
		tag[row[k]] = totag[label[k]];
		count[label[k]]++;
		/* saturated: each device_ns is under 9e18, but a note's sum of many may not
		 * fit; the note still comes */
		if (!ck_add_i64(ns[label[k]], intcol_get(&st->devns, row[k]), &ns[label[k]]))
			ns[label[k]] = LLONG_MAX;
	}
	if (say_it) {
		char m[48] = "";

		if (st->gm == GM_GEMM_PARAMS || st->gm == GM_UNION)
			snprintf(m, sizeof(m), ", M <= %lld is decode", st->gthr);
		us(a, sizeof(a), ns[GL_PREFILL]);
		us(b, sizeof(b), ns[GL_DECODE]);
		us(c, sizeof(c), ns[GL_MIXED]);
		note("%sphases by %s (a heuristic%s): %zu kernel launcher%s: prefill %zu "
		    "(%s us), decode %zu (%s us), mixed %zu (%s us); %zu other op%s "
		    "untagged", why, phase_by_name((enum phase_by)(st->gm +
		    PHASE_GEMM_PARAMS)), m, nl, plural(nl), count[GL_PREFILL], a,
		    count[GL_DECODE], b, count[GL_MIXED], c, n - nl, plural(n - nl));
	}
	free(sym);
	free(label);
	free(row);
}

/* --- steps --------------------------------------------------------------------------- */

static int
cmpstep(const void *a, const void *b)
{
	const struct stepiv *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->tier != y->tier)
		return x->tier < y->tier ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* the outer of two steps that start together first */
	return x->end > y->end ? -1 : x->end < y->end;
}

/* The innermost step of (rank, tier) that holds time t (start <= t < end), or -1. */
static long
find_step(const struct state *st, long long rank, int tier, long long t)
{
	size_t lo = 0, hi = st->nsteps;
	long i;

	/* the first step after (rank, tier, t) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct stepiv *s = &st->steps[mid];

		if (s->rank < rank || (s->rank == rank && (s->tier < tier ||
		    (s->tier == tier && s->start <= t))))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = (long)lo - 1; i >= 0; i--) {
		const struct stepiv *s = &st->steps[i];

		if (s->rank != rank || s->tier != tier || s->maxend <= t)
			break;
		if (s->end > t)
			return i;
	}
	return -1;
}

static void
wint(struct js_writer *w, const char *key, long long v)
{
	js_w_key(w, key);
	js_w_int(w, v);
}

static void
steps_tag(struct state *st, const void *ctx, size_t i, struct js_writer *w)
{
	const struct stepiv *s;
	const struct step *p;

	(void)ctx;
	js_w_key(w, "phase");
	if (st->opstep[i] < 0) {
		js_w_strz(w, OUTSIDE);
		return;
	}
	s = &st->steps[st->opstep[i]];
	p = &s->st;
	js_w_strz(w, step_phase_name(p->phase));
	wint(w, "iter", s->iter);
	if (s->tier <= 2 && p->kind != STEP_DIFFUSION) {
		wint(w, "context_requests", p->context_requests);
		wint(w, "generation_requests", p->generation_requests);
		wint(w, "context_tokens", p->context_tokens);
		wint(w, "generation_tokens", p->generation_tokens);
	}
	if (s->tier <= 3)
		wint(w, "batch_size", p->batch);
}

static void
by_steps(struct state *st, bool say_it)
{
	size_t i, n = st->nops, outside = 0, count[SP_PROFILER + 1];
	int tier;

	memset(count, 0, sizeof(count));
	if (st->nsteps > 0)
		qsort(st->steps, st->nsteps, sizeof(*st->steps), cmpstep);
	for (i = 0; i < st->nsteps; i++) {
		struct stepiv *s = &st->steps[i];
		bool same = i > 0 && s[-1].rank == s->rank && s[-1].tier == s->tier;

		s->maxend = same && s[-1].maxend > s->end ? s[-1].maxend : s->end;
		s->iter = s->st.kind == STEP_PROFILER ? s->st.number :
		    s->number > 0 ? s->number : same ? s[-1].iter + 1 : 1;
	}
	st->opstep = xreallocarray(NULL, n ? n : 1, sizeof(*st->opstep));
	for (i = 0; i < n; i++) {
		struct hostfacts h = host_at(st, i);
		long k = -1;

		if (h.start != LLONG_MIN)
			for (tier = 1; tier <= 4 && k < 0; tier++)
				k = find_step(st, h.rank, tier, h.start);
		st->opstep[i] = (int32_t)k;
		if (k < 0)
			outside++;
		else
			count[st->steps[k].st.phase]++;
	}
	if (say_it) {
		struct buf m = BUF_INIT;
		int p;

		for (p = 0; p <= SP_PROFILER; p++)
			if (count[p] > 0)
				buf_printf(&m, ", %s %zu", step_phase_name(p), count[p]);
		note("phases by steps: %zu step annotation%s (%zu from an engine); ops: "
		    "%s%s" OUTSIDE " any step %zu", st->nsteps, plural(st->nsteps),
		    st->nengine, m.len ? m.p + 2 : "", m.len ? ", " : "", outside);
		buf_free(&m);
	}
	replay(st, steps_tag, NULL);
	free(st->opstep);
	st->opstep = NULL;
}

/* End of input for the look-ahead methods: decide the tags and replay. */
static void
finish(struct state *st)
{
	size_t n = st->nops;
	uint8_t *tag = NULL;
	uint32_t *iter = NULL;
	struct basic_tags bt;
	/* Nothing to say about an input without ops. */
	bool loud = n > 0 &&
	    (st->o->verbose || (st->o->by == PHASE_AUTO && !st->o->quiet));

	if (st->mode == PHASE_STEPS || (st->mode == PHASE_AUTO && st->nengine > 0)) {
		by_steps(st, loud);
		return;
	}
	if (st->mode == PHASE_REPEAT)
		by_repeat(st, &tag, &iter, false, loud);
	else if (st->mode != PHASE_MATMUL_M && !is_guess(st->mode) && st->nkineto == 0 &&
	    by_repeat(st, &tag, &iter, true, loud))
		;
	else {
		tags_alloc(st, &tag, &iter);
		if (st->mode == PHASE_MATMUL_M)
			by_matmul(st, tag, iter, loud, "");
		else if (is_guess(st->mode))
			by_guess(st, tag, iter, loud, "");
		else if (st->nkineto > 0)
			by_guess(st, tag, iter, loud, "no step annotations; ");
		else
			by_matmul(st, tag, iter, loud,
			    "no signposts and no repeating op sequence; ");
	}
	bt.tag = tag;
	bt.iter = iter;
	replay(st, basic_tag, &bt);
	free(tag);
	free(iter);
}

void
phase_tag(struct rec_reader *rd, FILE *out, const struct phase_opts *o)
{
	struct badrec stop = BADREC_INIT, *bad = o->bad != NULL ? o->bad : &stop;
	struct state st;
	struct rec *r;

	memset(&st, 0, sizeof(st));
	st.o = o;
	st.out = out;
	st.mode = o->by;
	st.lastid = -1;
	st.thr = o->threshold < 0 ? PHASE_THRESHOLD : o->threshold;
	st.gthr = o->threshold < 0 ? GUESS_THRESHOLD : o->threshold;
	st.guessing = is_guess(o->by) || o->by == PHASE_AUTO;
	st.gm = is_guess(o->by) ? (enum guess_method)(o->by - PHASE_GEMM_PARAMS) :
	    GM_GEMM_PARAMS;
	while ((r = badrec_next(bad, rd)) != NULL) {
		int kind = kind_of(r);
		bool kineto = is_kineto(r);
		/* the first signpost of a TT trace decides auto: signpost, streaming */
		bool opens = st.mode == PHASE_AUTO && !kineto && kind == K_SIGNPOST;
		bool has_id = false;
		struct spoolfacts sf;
		const char *name = NULL;
		size_t len = 0;
		long long id;

		/* everything this stage reads of r, then the policy, then what it keeps */
		if (!kineto && (kind == K_OP || kind == K_SIGNPOST))
			has_id = rec_int(r, "id", &id);
		if (st.mode == PHASE_SIGNPOST || opens) {
			if (kind == K_SIGNPOST)
				signpost_name(r, &name, &len);
		} else
			spool_read(&st, r, kind, kineto, &sf);
		if (badrec_check(bad, r))
			continue;
		if (has_id)
			check_order(&st, r, id);
		if (opens) {
			/* Signposts decide; what was held back is before the first one. */
			struct basic_tags bt = { NULL, NULL };

			replay(&st, basic_tag, &bt);
			st.mode = PHASE_SIGNPOST;
		}
		if (st.mode == PHASE_SIGNPOST)
			stream_one(&st, r, kind, name, len);
		else
			spool_keep(&st, r, &sf);
	}
	if (st.mode == PHASE_SIGNPOST) {
		if (o->verbose || (o->by == PHASE_AUTO && !o->quiet))
			note("phases by signpost: %zu signpost%s, %zu name%s",
			    st.nsignposts, plural(st.nsignposts), st.sps.n,
			    plural(st.sps.n));
	} else
		finish(&st);
	if (bad == &stop)
		badrec_end(&stop);
	names_free(&st.names);
	names_free(&st.sps);
	free(st.spiter);
	buf_free(&st.line);
	buf_free(&st.text);
	ops_free(&st);
	free(st.steps);
	free(st.gpus);
}
