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
 * Finding the repetition (phase_find_period): every periodic stretch of length >= 2p
 * with period p contains a position i that is a multiple of p with sym[i..] agreeing
 * with sym[i+p..]; for each p we visit the multiples of p only, and extend each match
 * left and right with polynomial hashes (mod 2^61-1) and galloping search. That is
 * O(n/p log n) per p, O(n log^2 n) in all, and finds every maximal periodic stretch
 * ("run"); the one that covers the most ops wins.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "io.h"
#include "phase.h"
#include "rec.h"

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

/*
 * The "in" value is read from its JSON text (rec_raw), which the record reader has
 * already validated: a small scanner that only skips what it does not need is a third
 * of the cost of building a jansson tree for it, and this runs once per op.
 */
struct scan {
	const char	*p, *end;
};

static void
sk_ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' ||
	    *s->p == '\r'))
		s->p++;
}

/* Skip a string (at its opening quote); returns its raw content span. */
static void
sk_string(struct scan *s, const char **b, size_t *len)
{
	const char *q = ++s->p;

	while (s->p < s->end && *s->p != '"')
		s->p += *s->p == '\\' ? 2 : 1;
	if (b != NULL) {
		*b = q;
		*len = (size_t)(s->p - q);
	}
	if (s->p < s->end)
		s->p++;
}

/* Skip any value. */
static void
sk_value(struct scan *s)
{
	int depth = 0;

	sk_ws(s);
	do {
		if (s->p >= s->end)
			return;
		switch (*s->p) {
		case '"':
			sk_string(s, NULL, NULL);
			break;
		case '[':
		case '{':
			depth++;
			s->p++;
			break;
		case ']':
		case '}':
			depth--;
			s->p++;
			break;
		default:
			if (depth == 0) {	/* a scalar */
				while (s->p < s->end && *s->p != ',' && *s->p != ']' &&
				    *s->p != '}')
					s->p++;
				return;
			}
			s->p++;
			break;
		}
	} while (depth > 0);
}

/* W*Z*Y of a [W,Z,Y,X] array of non-negative integers, or -1. */
static long long
sk_dims(struct scan *s)
{
	long long m = 1;
	int k;

	sk_ws(s);
	if (s->p >= s->end || *s->p != '[')
		return -1;
	s->p++;
	for (k = 0; k < 4; k++) {
		long long v = 0;
		int digits = 0;

		sk_ws(s);
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
			if (v <= (LLONG_MAX - 9) / 10)
				v = v * 10 + (*s->p - '0');
			s->p++;
			digits++;
		}
		sk_ws(s);
		if (digits == 0 || s->p >= s->end ||
		    (*s->p != ',' && *s->p != ']') || (*s->p == ']') != (k == 3))
			return -1;
		s->p++;
		if (k < 3)
			m = v != 0 && m > LLONG_MAX / v ? LLONG_MAX : m * v;
	}
	return m;
}

long long
phase_m(const char *text, size_t len)
{
	struct scan s = { text, text + len };
	long long logical = -1, shape = -1;

	if (text == NULL)
		return -1;
	sk_ws(&s);
	if (s.p >= s.end || *s.p != '[')
		return -1;
	s.p++;
	sk_ws(&s);
	if (s.p >= s.end || *s.p != '{')
		return -1;
	s.p++;
	for (;;) {
		const char *k;
		size_t klen;

		sk_ws(&s);
		if (s.p >= s.end || *s.p != '"')
			break;
		sk_string(&s, &k, &klen);
		sk_ws(&s);
		if (s.p >= s.end || *s.p != ':')
			break;
		s.p++;
		if (klen == 7 && memcmp(k, "logical", 7) == 0)
			logical = sk_dims(&s);
		else if (klen == 5 && memcmp(k, "shape", 5) == 0)
			shape = sk_dims(&s);
		else
			sk_value(&s);
		sk_ws(&s);
		if (s.p >= s.end || *s.p != ',')
			break;
		s.p++;
	}
	return logical >= 0 ? logical : shape;
}

/* --- repetition ---------------------------------------------------------------------- */

#define HMOD	((1ULL << 61) - 1)
#define HBASE	1000003ULL

__extension__ typedef unsigned __int128 u128;

static uint64_t
mulmod(uint64_t a, uint64_t b)
{
	u128 p = (u128)a * b;
	uint64_t r = (uint64_t)(p & HMOD) + (uint64_t)(p >> 61);

	return r >= HMOD ? r - HMOD : r;
}

struct hseq {
	const uint32_t	*s;
	size_t		 n;
	uint64_t	*h;	/* h[i]: hash of s[0..i) */
	uint64_t	*pw;	/* pw[i]: HBASE^i */
};

static uint64_t
hget(const struct hseq *q, size_t i, size_t len)
{
	uint64_t a = q->h[i + len], b = mulmod(q->h[i], q->pw[len]);

	return a >= b ? a - b : a + HMOD - b;
}

/* Longest l <= max with s[i..i+l) == s[j..j+l). */
static size_t
lcp(const struct hseq *q, size_t i, size_t j, size_t max)
{
	size_t lo, hi, step;

	if (max == 0 || q->s[i] != q->s[j])
		return 0;
	lo = 1;				/* known equal */
	step = 1;
	for (;;) {			/* gallop: find hi > lo that differs, or max */
		hi = lo + step;
		if (hi >= max) {
			if (hget(q, i, max) == hget(q, j, max))
				return max;
			hi = max;
			break;
		}
		if (hget(q, i, hi) != hget(q, j, hi))
			break;
		lo = hi;
		step *= 2;
	}
	while (hi - lo > 1) {		/* lo equal, hi differs */
		size_t mid = lo + (hi - lo) / 2;

		if (hget(q, i, mid) == hget(q, j, mid))
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Longest l <= max with s[i-l..i) == s[j-l..j). */
static size_t
lcs(const struct hseq *q, size_t i, size_t j, size_t max)
{
	size_t lo, hi, step;

	if (max == 0 || q->s[i - 1] != q->s[j - 1])
		return 0;
	lo = 1;
	step = 1;
	for (;;) {
		hi = lo + step;
		if (hi >= max) {
			if (hget(q, i - max, max) == hget(q, j - max, max))
				return max;
			hi = max;
			break;
		}
		if (hget(q, i - hi, hi) != hget(q, j - hi, hi))
			break;
		lo = hi;
		step *= 2;
	}
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (hget(q, i - mid, mid) == hget(q, j - mid, mid))
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

bool
phase_find_period(const uint32_t *sym, size_t n, struct phase_period *pp)
{
	struct hseq q;
	struct phase_period best = { 0, 0, 0 };
	size_t i, p;

	if (n < 2)
		return false;
	q.s = sym;
	q.n = n;
	q.h = xreallocarray(NULL, n + 1, sizeof(*q.h));
	q.pw = xreallocarray(NULL, n + 1, sizeof(*q.pw));
	q.h[0] = 0;
	q.pw[0] = 1;
	for (i = 0; i < n; i++) {
		q.h[i + 1] = mulmod(q.h[i], HBASE) + (uint64_t)sym[i] + 1;
		if (q.h[i + 1] >= HMOD)
			q.h[i + 1] -= HMOD;
		q.pw[i + 1] = mulmod(q.pw[i], HBASE);
	}
	for (p = 1; 2 * p <= n; p++) {
		if (best.len == n)
			break;		/* nothing longer; larger periods lose ties */
		for (i = 0; i + p < n;) {
			size_t e, l, a, b, next;

			if (sym[i] != sym[i + p]) {
				i += p;
				continue;
			}
			e = lcp(&q, i, i + p, n - i - p);
			l = lcs(&q, i, i + p, i);
			a = i - l;
			b = i + p + e;
			if (b - a >= 2 * p && (b - a > best.len ||
			    (b - a == best.len && a < best.start &&
			    p == best.period))) {
				best.start = a;
				best.len = b - a;
				best.period = p;
			}
			/* The multiples of p whose pair lies inside [a, b) give the same run. */
			next = (i + e + p - 1) / p * p;
			i = next > i ? next : i + p;
		}
	}
	free(q.h);
	free(q.pw);
	if (best.len == 0)
		return false;
	*pp = best;
	return true;
}

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

/* A string-to-index table (open addressing); used for op names and signpost names. */
struct strtab {
	char		**key;
	size_t		 *klen;
	long long	 *val;
	size_t		  n, cap;
};

static uint64_t
strhash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	while (len-- > 0)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static void strtab_grow(struct strtab *t);

/* The slot of key s: its value is t->val[slot]; a new key gets value -1. */
static size_t
strtab_slot(struct strtab *t, const char *s, size_t len)
{
	size_t i;

	if (2 * (t->n + 1) > t->cap)
		strtab_grow(t);
	for (i = strhash(s, len) & (t->cap - 1); t->key[i] != NULL;
	    i = (i + 1) & (t->cap - 1))
		if (t->klen[i] == len && memcmp(t->key[i], s, len) == 0)
			return i;
	t->key[i] = xmalloc(len + 1);
	memcpy(t->key[i], s, len);
	t->key[i][len] = '\0';
	t->klen[i] = len;
	t->val[i] = -1;
	t->n++;
	return i;
}

static void
strtab_grow(struct strtab *t)
{
	struct strtab old = *t;
	size_t i, j;

	t->cap = old.cap ? old.cap * 2 : 64;
	t->key = xcalloc(t->cap, sizeof(*t->key));
	t->klen = xcalloc(t->cap, sizeof(*t->klen));
	t->val = xcalloc(t->cap, sizeof(*t->val));
	for (i = 0; i < old.cap; i++) {
		if (old.key[i] == NULL)
			continue;
		for (j = strhash(old.key[i], old.klen[i]) & (t->cap - 1);
		    t->key[j] != NULL; j = (j + 1) & (t->cap - 1))
			;
		t->key[j] = old.key[i];
		t->klen[j] = old.klen[i];
		t->val[j] = old.val[i];
	}
	free(old.key);
	free(old.klen);
	free(old.val);
}

static void
strtab_free(struct strtab *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free(t->key[i]);
	free(t->key);
	free(t->klen);
	free(t->val);
	memset(t, 0, sizeof(*t));
}

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
	struct strtab	 names;
	/* signpost streaming */
	struct strtab	 sps;
	char		*cur;		/* current phase name, NULL: "start" */
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
		note("%s: records are not in trace order (id %lld after id %lld); "
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
		size_t len, slot;
		const char *name = rec_str(r, "name", &len);

		if (name == NULL)
			name = rec_str(r, "op", &len);
		if (name == NULL) {
			name = "signpost";
			len = strlen(name);
		}
		slot = strtab_slot(&st->sps, name, len);
		st->curiter = st->sps.val[slot] < 0 ? 1 : st->sps.val[slot] + 1;
		st->sps.val[slot] = st->curiter;
		st->cur = st->sps.key[slot];
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
		const char *name;
		size_t len, slot;
		long long m = -1, id;
		bool matmul;

		if ((name = rec_str(r, "op", &len)) == NULL) {
			name = "";
			len = 0;
		}
		matmul = memmem(name, len, "Matmul", 6) != NULL;
		if (rec_type(r, "in") == REC_ARRAY) {
			size_t ilen;
			const char *in = rec_raw(r, "in", &ilen);

			m = phase_m(in, ilen);
		}
		f.own = m < 0 ? PM_NONE : m <= st->o->threshold ? PM_DECODE : PM_PREFILL;
		f.mm = matmul ? f.own : PM_NONE;
		slot = strtab_slot(&st->names, name, len);
		if (st->names.val[slot] < 0)
			st->names.val[slot] = (long long)st->names.n - 1;
		if (st->names.val[slot] > (long long)(UINT32_MAX / 3 - 1))
			die(EXIT_DATA, "too many distinct op names");
		f.sym = (uint32_t)st->names.val[slot] * 3 + f.own;
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
	struct phase_period pp;
	uint32_t *sym;
	size_t i, n = st->nops, full;
	bool found, prefill = false;

	sym = xreallocarray(NULL, n ? n : 1, sizeof(*sym));
	for (i = 0; i < n; i++)
		sym[i] = st->ops[i].sym;
	found = phase_find_period(sym, n, &pp);
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
	strtab_free(&st.names);
	strtab_free(&st.sps);
	buf_free(&st.line);
	free(st.ops);
	free(st.ids);
}
