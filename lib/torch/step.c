/* SPDX-License-Identifier: ISC */
/*
 * step: the step-annotation grammar (see step.h). A small hand-written matcher per
 * format, tried in TraceLens's priority order; no regular expressions, no allocation.
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "core/ckint.h"
#include "torch/step.h"

struct cur {
	const char	*p, *e;
};

static bool
isdig(char c)
{
	return c >= '0' && c <= '9';
}

static bool
isword(char c)
{
	return isdig(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
lit(struct cur *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->e - c->p) < n || memcmp(c->p, s, n) != 0)
		return false;
	c->p += n;
	return true;
}

/* Digits to a number, saturating at LLONG_MAX. */
static long long
digits(const char *p, const char *e)
{
	long long v = 0;

	for (; p < e; p++) {
		int d = *p - '0';

		v = v > (LLONG_MAX - d) / 10 ? LLONG_MAX : v * 10 + d;
	}
	return v;
}

/* One or more digits. */
static bool
num(struct cur *c, long long *v)
{
	const char *s = c->p;

	while (c->p < c->e && isdig(*c->p))
		c->p++;
	if (c->p == s)
		return false;
	*v = digits(s, c->p);
	return true;
}

static void
counts_phase(struct step *st)
{
	if (st->context_requests > 0 && st->generation_requests > 0)
		st->phase = SP_MIXED;
	else if (st->context_requests > 0)
		st->phase = SP_PREFILL;
	else if (st->generation_requests > 0)
		st->phase = SP_DECODE;
	else
		st->phase = SP_IDLE;
}

/* (sq<a>sk<b>sqsq<c>sqsk<d>): a is the token count; v[] gets a, b, c, d. */
static bool
sqsk(struct cur *c, long long *sq, long long *v)
{
	return lit(c, "(sq") && num(c, sq) && lit(c, "sk") && num(c, &v[1]) &&
	    lit(c, "sqsq") && num(c, &v[2]) && lit(c, "sqsk") && num(c, &v[3]) &&
	    lit(c, ")") && ((v[0] = *sq), true);
}

static bool
vllm_detailed(struct cur c, struct step *st)
{
	long long n, cv[4], gv[4];

	if (!(lit(&c, "execute_") && num(&c, &n) && lit(&c, "_context_") &&
	    num(&c, &st->context_requests) && sqsk(&c, &st->context_tokens, cv) &&
	    lit(&c, "_generation_") && num(&c, &st->generation_requests) &&
	    sqsk(&c, &st->generation_tokens, gv)))
		return false;
	st->sqsk = true;
	st->c_sq = cv[0];
	st->c_sk = cv[1];
	st->c_sqsq = cv[2];
	st->c_sqsk = cv[3];
	st->g_sq = gv[0];
	st->g_sk = gv[1];
	st->g_sqsq = gv[2];
	st->g_sqsk = gv[3];
	if (!ck_add_i64(st->context_tokens, st->generation_tokens, &st->batch))
		return false;	/* no step's token count */
	counts_phase(st);
	return true;
}

/* (<tok>) with tok one or more numbers joined by '_'; the first is the token count. */
static bool
tokens(struct cur *c, long long *tok)
{
	long long v;

	if (!lit(c, "(") || !num(c, tok))
		return false;
	while (lit(c, "_"))
		if (!num(c, &v))
			return false;
	return lit(c, ")");
}

static bool
vllm_native(struct cur c, struct step *st)
{
	if (!(lit(&c, "execute_context_") && num(&c, &st->context_requests) &&
	    tokens(&c, &st->context_tokens) && lit(&c, "_generation_") &&
	    num(&c, &st->generation_requests) && tokens(&c, &st->generation_tokens)))
		return false;
	if (!ck_add_i64(st->context_tokens, st->generation_tokens, &st->batch))
		return false;	/* no step's token count */
	counts_phase(st);
	return true;
}

enum { W_EXTEND = 1, W_DECODE, W_MIXED };

/* "step[" and the mode word, which must end at a word boundary. */
static int
sglang_mode(struct cur *c)
{
	int w;

	if (!lit(c, "step["))
		return 0;
	if (lit(c, "EXTEND"))
		w = W_EXTEND;
	else if (lit(c, "DECODE"))
		w = W_DECODE;
	else if (lit(c, "MIXED"))
		w = W_MIXED;
	else
		return 0;
	if (c->p < c->e && isword(*c->p))
		return 0;
	return w;
}

/* Does s[0..n) hold "sqsq=" and a digit? */
static bool
has_sqsq(const char *s, const char *e)
{
	for (; e - s >= 6; s++)
		if (memcmp(s, "sqsq=", 5) == 0 && isdig(s[5]))
			return true;
	return false;
}

static const char *
lastbracket(const char *s, const char *e)
{
	while (e > s && e[-1] != ']')
		e--;
	return e > s ? e - 1 : NULL;
}

/* SGLang's key=number pairs, as re.findall(r"(\w+)=(\d+)") finds them; the last
 * occurrence of a key wins. */
struct sgkv {
	long long	bs, toks, c, g, c_sq, g_sq, c_sk, c_sqsq, c_sqsk, g_sk, g_sqsq, g_sqsk;
};

static void
sglang_pairs(const char *s, const char *e, struct sgkv *kv)
{
	static const struct {
		const char	*key;
		size_t		 off;
	} keys[] = {
		{ "bs", offsetof(struct sgkv, bs) },
		{ "toks", offsetof(struct sgkv, toks) },
		{ "c", offsetof(struct sgkv, c) },
		{ "g", offsetof(struct sgkv, g) },
		{ "c_sq", offsetof(struct sgkv, c_sq) },
		{ "g_sq", offsetof(struct sgkv, g_sq) },
		{ "c_sk", offsetof(struct sgkv, c_sk) },
		{ "c_sqsq", offsetof(struct sgkv, c_sqsq) },
		{ "c_sqsk", offsetof(struct sgkv, c_sqsk) },
		{ "g_sk", offsetof(struct sgkv, g_sk) },
		{ "g_sqsq", offsetof(struct sgkv, g_sqsq) },
		{ "g_sqsk", offsetof(struct sgkv, g_sqsk) },
	};

	while (s < e) {
		const char *w = s, *d;
		size_t i;

		if (!isword(*s)) {
			s++;
			continue;
		}
		while (s < e && isword(*s))
			s++;
		if (s + 1 >= e || *s != '=' || !isdig(s[1]))
			continue;
		d = ++s;
		while (s < e && isdig(*s))
			s++;
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strlen(keys[i].key) == (size_t)(d - 1 - w) &&
			    memcmp(keys[i].key, w, (size_t)(d - 1 - w)) == 0)
				*(long long *)(void *)((char *)kv + keys[i].off) = digits(d, s);
	}
}

static bool
sglang_detailed(struct cur c, struct step *st)
{
	struct sgkv kv;
	const char *close, *body;
	int w;

	if ((w = sglang_mode(&c)) == 0)
		return false;
	/* [^\]]*sqsq=\d+[^\]]*\] : sqsq= before the first ']' */
	body = c.p;
	close = memchr(c.p, ']', (size_t)(c.e - c.p));
	if (close == NULL || !has_sqsq(body, close))
		return false;
	/* TraceLens reads the pairs up to the last ']' of the string. */
	memset(&kv, 0, sizeof(kv));
	sglang_pairs(body, lastbracket(body, c.e), &kv);
	if (w == W_DECODE) {
		st->generation_requests = kv.bs;
		st->generation_tokens = kv.g_sq;
	} else if (w == W_EXTEND) {
		st->context_requests = kv.bs;
		st->context_tokens = kv.c_sq;
	} else {
		st->context_requests = kv.c;
		st->generation_requests = kv.g;
		st->context_tokens = kv.c_sq;
		st->generation_tokens = kv.g_sq;
	}
	if (!ck_add_i64(kv.c_sq, kv.g_sq, &st->batch))
		return false;	/* no step's token count */
	if (st->batch == 0)
		st->batch = kv.toks ? kv.toks : kv.bs;
	st->sqsk = true;
	st->c_sq = kv.c_sq;
	st->c_sk = kv.c_sk;
	st->c_sqsq = kv.c_sqsq;
	st->c_sqsk = kv.c_sqsk;
	st->g_sq = kv.g_sq;
	st->g_sk = kv.g_sk;
	st->g_sqsq = kv.g_sqsq;
	st->g_sqsk = kv.g_sqsk;
	counts_phase(st);
	if (w == W_MIXED && st->context_requests == 0 && st->generation_requests == 0)
		st->phase = SP_MIXED;
	return true;
}

static bool
spaces(struct cur *c)
{
	const char *s = c->p;

	while (c->p < c->e && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' ||
	    *c->p == '\r' || *c->p == '\f' || *c->p == '\v'))
		c->p++;
	return c->p > s;
}

static bool
sglang_native(struct cur c, struct step *st)
{
	struct cur t;
	long long bs, toks = 0;
	int w;

	if ((w = sglang_mode(&c)) == 0 || lastbracket(c.p, c.e) == NULL)
		return false;
	/* step\[(\w+)\s+bs=(\d+)(?:\s+toks=(\d+))?\] */
	if (!spaces(&c) || !lit(&c, "bs=") || !num(&c, &bs))
		return false;
	t = c;
	if (spaces(&t) && lit(&t, "toks=") && num(&t, &toks))
		c = t;
	else
		toks = 0;
	if (!lit(&c, "]"))
		return false;
	if (w == W_DECODE) {
		st->generation_requests = st->generation_tokens = bs;
		st->batch = bs;
	} else {
		st->context_requests = bs;
		st->context_tokens = toks;
		st->batch = toks ? toks : bs;
	}
	counts_phase(st);
	if (w == W_MIXED)
		st->phase = SP_MIXED;
	return true;
}

/* ATOM's key=value pairs (a value is a [list] with an optional "...+N", or a run of
 * non-spaces); bs is its first number, tok a plain number (else 0). */
struct atkv {
	long long	bs, tok, sk, sqsq, sqsk;
	bool		has_sqsq, has_sqsk;
};

/* A plain number (TraceLens's _safe_int), else 0. */
static long long
safe_int(const char *v, const char *ve)
{
	const char *d;

	for (d = v; d < ve && isdig(*d); d++)
		;
	return d == ve ? digits(v, ve) : 0;
}

static void
atom_pairs(const char *s, const char *e, struct atkv *kv)
{
	while (s < e) {
		const char *w = s, *v, *ve;
		size_t wl;

		if (!isword(*s)) {
			s++;
			continue;
		}
		while (s < e && isword(*s))
			s++;
		if (s + 1 >= e || *s != '=')
			continue;
		wl = (size_t)(s - w);
		v = ++s;
		if (*v == '[' && (ve = memchr(v, ']', (size_t)(e - v))) != NULL) {
			ve++;
			if (e - ve >= 5 && memcmp(ve, "...+", 4) == 0 && isdig(ve[4]))
				for (ve += 4; ve < e && isdig(*ve); ve++)
					;
		} else {
			for (ve = v; ve < e && *ve != ' ' && *ve != '\t' && *ve != '\n' &&
			    *ve != '\r' && *ve != '\f' && *ve != '\v'; ve++)
				;
			if (ve == v)
				continue;
		}
		s = ve;
		if (wl == 2 && memcmp(w, "bs", 2) == 0) {
			const char *d = v, *de;

			while (d < ve && !isdig(*d))
				d++;
			for (de = d; de < ve && isdig(*de); de++)
				;
			kv->bs = digits(d, de);
		} else if (wl == 3 && memcmp(w, "tok", 3) == 0)
			kv->tok = safe_int(v, ve);
		else if (wl == 2 && memcmp(w, "sk", 2) == 0)
			kv->sk = safe_int(v, ve);
		else if (wl == 4 && memcmp(w, "sqsq", 4) == 0) {
			kv->sqsq = safe_int(v, ve);
			kv->has_sqsq = true;
		} else if (wl == 4 && memcmp(w, "sqsk", 4) == 0) {
			kv->sqsk = safe_int(v, ve);
			kv->has_sqsk = true;
		}
	}
}

static bool
atom(struct cur c, struct step *st, bool want_detailed)
{
	const char *close;
	struct atkv kv;
	bool prefill;

	if (lit(&c, "prefill["))
		prefill = true;
	else if (lit(&c, "decode["))
		prefill = false;
	else
		return false;
	if ((close = lastbracket(c.p, c.e)) == NULL)
		return false;
	if (want_detailed && !has_sqsq(c.p, close))
		return false;
	memset(&kv, 0, sizeof(kv));
	atom_pairs(c.p, close, &kv);
	if (prefill) {
		st->context_requests = kv.bs;
		st->context_tokens = kv.tok;
		st->c_sq = kv.tok;
		st->c_sk = kv.sk;
		st->c_sqsq = kv.sqsq;
		st->c_sqsk = kv.sqsk;
	} else {
		st->generation_requests = kv.bs;
		st->generation_tokens = kv.tok;
		st->g_sq = kv.tok;
		st->g_sk = kv.sk;
		st->g_sqsq = kv.sqsq;
		st->g_sqsk = kv.sqsk;
	}
	st->sqsk = kv.has_sqsq && kv.has_sqsk;
	st->batch = kv.tok;
	counts_phase(st);
	return true;
}

static bool
atom_detailed(struct cur c, struct step *st)
{
	return atom(c, st, true);
}

static bool
atom_native(struct cur c, struct step *st)
{
	return atom(c, st, false);
}

static bool
diffusion(struct cur c, struct step *st)
{
	long long w, h;

	if (!(lit(&c, "execute_diffusion_") && num(&c, &st->batch) && lit(&c, "_") &&
	    num(&c, &w) && lit(&c, "x") && num(&c, &h)))
		return false;
	st->phase = SP_DIFFUSION;
	return true;
}

static bool
capture(struct cur c, struct step *st)
{
	if (!(lit(&c, "capture_") && num(&c, &st->batch) && lit(&c, "_")))
		return false;
	st->phase = SP_CAPTURE;
	return true;
}

static bool
profiler(struct cur c, struct step *st)
{
	if (!(lit(&c, "ProfilerStep#") && num(&c, &st->number)))
		return false;
	st->phase = SP_PROFILER;
	return true;
}

typedef bool (*matcher)(struct cur, struct step *);

/* TraceLens's priority order; each matcher fills counts and phase. */
static const struct {
	enum step_kind	kind;
	matcher		fn;
} formats[] = {
	{ STEP_VLLM_DETAILED, vllm_detailed },
	{ STEP_VLLM_NATIVE, vllm_native },
	{ STEP_SGLANG_DETAILED, sglang_detailed },
	{ STEP_SGLANG_NATIVE, sglang_native },
	{ STEP_ATOM_DETAILED, atom_detailed },
	{ STEP_ATOM_NATIVE, atom_native },
	{ STEP_DIFFUSION, diffusion },
	{ STEP_CAPTURE, capture },
	{ STEP_PROFILER, profiler },
};

bool
step_parse(const char *s, size_t n, struct step *st)
{
	struct cur c = { s, s + n };
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		memset(st, 0, sizeof(*st));
		st->number = -1;
		if (formats[i].fn(c, st)) {
			st->kind = formats[i].kind;
			return true;
		}
	}
	memset(st, 0, sizeof(*st));
	st->number = -1;
	st->kind = STEP_NONE;
	return false;
}

const char *
step_phase_name(enum step_phase p)
{
	static const char *const names[] = {
		"prefill", "decode", "mixed", "idle", "diffusion", "capture", "step"
	};

	return (unsigned)p < sizeof(names) / sizeof(names[0]) ? names[p] : "idle";
}

const char *
step_kind_name(enum step_kind k)
{
	static const char *const names[] = {
		"none", "vllm-detailed", "vllm-native", "sglang-detailed", "sglang-native",
		"atom-detailed", "atom-native", "diffusion", "capture", "profiler"
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "none";
}

int
step_tier(enum step_kind k)
{
	switch (k) {
	case STEP_VLLM_DETAILED:
	case STEP_SGLANG_DETAILED:
	case STEP_ATOM_DETAILED:
		return 1;
	case STEP_VLLM_NATIVE:
	case STEP_SGLANG_NATIVE:
	case STEP_ATOM_NATIVE:
	case STEP_DIFFUSION:
		return 2;
	case STEP_CAPTURE:
		return 3;
	case STEP_PROFILER:
		return 4;
	default:
		return 0;
	}
}
