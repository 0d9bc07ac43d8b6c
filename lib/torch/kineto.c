/* SPDX-License-Identifier: ISC */
/*
 * kineto: PyTorch profiler traces to records (see torch/kineto.h). Three steps: read the
 * events into compact summaries (read_trace), build the host tree and the GPU links
 * (build_tree, link_gpu, find_launchers, link_fwd_bwd), write the records in time order
 * (write_records). The rules are TraceLens's (docs/tracelens.md §1.4-1.5). With a capture
 * folder, capture.c grafts the capture traces in between the links and the records
 * (merge_captures); torch/kinpriv.h holds the state the two files share. Without one
 * (the usual case) the summaries are not held: they go to a temporary file and the same
 * steps are made by external sorts (stream_records), in memory bounded whatever the
 * trace's length; the records are the same, byte for byte.
 *
 * Bad input is found only while reading: kfail keeps the error in the state and unwinds
 * to kineto_parse with longjmp; everything the read allocated hangs off the state, which
 * kineto_parse frees before it returns the error (no record has been written then).
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/ckint.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/json.h"
#include "core/names.h"
#include "core/rec.h"
#include "core/spool.h"
#include "torch/collect.h"
#include "torch/kineto.h"
#include "kinpriv.h"
#include "torch/opclass.h"

static const char *const catname[] = {
	"other", "cpu_op", "cuda_runtime", "cuda_driver", "python_function", "kernel",
	"gpu_memcpy", "gpu_memset", "ac2g", "user_annotation", "metadata"
};

static const char *const inkey[NARGS] = { "shape", "dtype", "strides", "value" };

/* --- small helpers -------------------------------------------------------------------- */

/* The times kept, ts and ts + dur in ns, lie within +-TMAX (146 years around 0): every
 * difference and every sum of a start and a length fits in 64 bits. */
#define TMAX	((int64_t)1 << 62)

/* Bad input at byte off (-1: no offset): back to kineto_parse, which returns it. */
static void __attribute__((noreturn, format(printf, 3, 4)))
kfail_at(struct kin *k, long long off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(&k->err, k->file, 0, off, fmt, ap);
	va_end(ap);
	longjmp(k->fail, 1);
}

/* The same at the current token. */
#define kfail(k, ...) kfail_at((k), (long long)js_offset((k)->rd), __VA_ARGS__)

static void __attribute__((noreturn))
kfail_json(struct kin *k)
{
	if (js_read_failed(k->rd))
		kfail_at(k, -1, "%s", js_error(k->rd));
	kfail(k, "%s", js_error(k->rd));
}

static enum js_tok
next(struct kin *k)
{
	enum js_tok t = js_next(k->rd);

	if (t == JS_ERROR)
		kfail_json(k);
	return t;
}

static void
skip(struct kin *k)
{
	if (js_skip(k->rd) == JS_ERROR)
		kfail_json(k);
}

static uint32_t
imap_slot(struct imap *m, const int64_t *key, int n)
{
	uint32_t i = names_intern(&m->nm, (const char *)key, (size_t)n * sizeof(*key));

	if (i >= m->cap) {
		m->val = xgrow(m->val, &m->cap, (size_t)i + 1, sizeof(*m->val));
	}
	return i;
}

static void
imap_put(struct imap *m, const int64_t *key, int n, int64_t v)
{
	uint32_t i = imap_slot(m, key, n);	/* may move m->val */

	m->val[i] = v;
}

static bool
imap_get(const struct imap *m, const int64_t *key, int n, int64_t *v)
{
	uint32_t i = names_lookup(&m->nm, (const char *)key, (size_t)n * sizeof(*key));

	if (i == NAME_NONE)
		return false;
	*v = m->val[i];
	return true;
}

static void
imap_free(struct imap *m)
{
	names_free(&m->nm);
	free(m->val);
}

uint32_t
kv_put(struct kin *k, int64_t v)
{
	if (v == NOVAL)
		return KV_NONE;
	if (v >= 0 && v < (int64_t)KV_WIDE)
		return (uint32_t)v;
	if (k->nwide >= KV_WIDE - 1)
		die(EXIT_DATA, "%s: more than %u large ids and lengths", k->file, KV_WIDE - 1);
	k->wide = xgrow(k->wide, &k->capwide, k->nwide + 1, sizeof(*k->wide));
	k->wide[k->nwide] = v;
	return KV_WIDE | (uint32_t)k->nwide++;
}

uint32_t
kin_thread(struct kin *k, int64_t pid, int64_t tid)
{
	int64_t key[2] = { pid, tid };
	size_t before = k->thr.nm.n;
	uint32_t i = imap_slot(&k->thr, key, 2);

	if (k->thr.nm.n > before) {
		k->thr_pid = xreallocarray(k->thr_pid, k->thr.cap, sizeof(*k->thr_pid));
		k->thr_tid = xreallocarray(k->thr_tid, k->thr.cap, sizeof(*k->thr_tid));
		k->thr_pid[i] = pid;
		k->thr_tid[i] = tid;
		k->thr.val[i] = i;
	}
	return i;
}

int32_t
kin_add_event(struct kin *k)
{
	size_t c = k->nev >> KEV_BITS;

	if (k->nev >= INT32_MAX / 2)
		die(EXIT_DATA, "%s: more than %d events to keep", k->file, INT32_MAX / 2);
	if (c == k->nevc) {
		k->evc = xreallocarray(k->evc, c + 1, sizeof(*k->evc));
		k->evc[c] = xreallocarray(NULL, KEV_CHUNK, sizeof(**k->evc));
		k->nevc = c + 1;
	}
	memset(KEV(k, k->nev), 0, sizeof(struct kev));
	return (int32_t)k->nev++;
}

/*
 * Microseconds as JSON number text to exact nanoseconds. Returns 0 when exact, 1 when
 * rounded (more than three decimals, or an exponent), -1 when out of range.
 */
static int
us_to_ns(const char *p, size_t n, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	int64_t v = 0;
	int frac = 0, inexact = 0;

	if (i < n && p[i] == '-') {
		neg = true;
		i++;
	}
	for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
		if (v > (INT64_MAX / 1000 - 9) / 10)
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	v *= 1000;
	if (i < n && p[i] == '.') {
		for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
			if (frac < 3) {
				static const int scale[3] = { 100, 10, 1 };

				v += (p[i] - '0') * scale[frac];
			} else if (p[i] != '0') {
				if (frac == 3 && p[i] >= '5')
					v++;	/* to the nearest ns, halves away from zero */
				inexact = 1;
			}
			frac++;
		}
	}
	if (i < n) {
		/* an exponent: go through a double (rare; Kineto never writes one) */
		double d = strtod(p, NULL) * 1000.0;

		if (!(d > -9.2e18 && d < 9.2e18))
			return -1;
		*out = (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
		return 1;
	}
	*out = neg ? -v : v;
	return inexact;
}

/* The current token as an integer; NOVAL for anything else (a value skipped). */
static int64_t
tok_int(struct kin *k, enum js_tok t)
{
	const char *s;
	size_t n;
	long long v;

	if (t == JS_NUMBER) {
		s = js_text(k->rd, &n);
		if (js_number_int(s, n, &v) && v > STRMAX)
			return v;
		return NOVAL;
	}
	if (t == JS_OBJECT || t == JS_ARRAY)
		skip(k);
	return NOVAL;
}

/* The current token as an id: an integer, or a string (or other number) interned. */
static int64_t
tok_id(struct kin *k, enum js_tok t)
{
	const char *s;
	size_t n;
	int64_t v;

	if (t != JS_NUMBER && t != JS_STRING)
		return tok_int(k, t);
	if ((v = tok_int(k, t)) != NOVAL)
		return v;
	s = t == JS_STRING ? js_str(k->rd, &n) : js_text(k->rd, &n);
	return STRVAL + names_intern(&k->strs, s, n);
}

static void
tok_copy(struct kin *k, enum js_tok t, struct buf *b, bool *has)
{
	const char *s;
	size_t n;

	if (t != JS_STRING) {
		if (t == JS_OBJECT || t == JS_ARRAY)
			skip(k);
		return;
	}
	s = js_str(k->rd, &n);
	buf_reset(b);
	buf_add(b, s, n);
	*has = true;
}

static int64_t
tok_time(struct kin *k, enum js_tok t, const char *what, uint32_t idx)
{
	const char *s;
	size_t n;
	int64_t v;
	int rc;

	if (t != JS_NUMBER)
		kfail(k, "traceEvents[%u]: \"%s\" is not a number", idx, what);
	s = js_text(k->rd, &n);
	if ((rc = us_to_ns(s, n, &v)) < 0)
		kfail(k, "traceEvents[%u]: \"%s\" out of range: %.*s", idx, what, (int)n, s);
	if (rc > 0)
		k->n_inexact++;
	return v;
}

/* --- reading events --------------------------------------------------------------------- */

/* An event of a kind ttp does not read, counted under its category's text ("" for an
 * event without one) for the trace record's ignored_cats. */
static void
ignore_cat(struct kin *k, const char *s, size_t n)
{
	int added;
	uint32_t i = names_add(&k->ign_cats, s, n, &added);

	if (i >= k->ign_cap)
		k->ign_n = xgrow(k->ign_n, &k->ign_cap, (size_t)i + 1, sizeof(*k->ign_n));
	if (added)
		k->ign_n[i] = 0;
	k->ign_n[i]++;
	k->n_ignored++;
}

/* The names older Kineto wrote (PyTorch 1.9: Operator ... Memset, flows "async"; about
 * 1.12: flows "async_cpu_to_gpu"), read as the modern ones. */
static const struct {
	const char	*name;
	int		 cat;
} catalias[] = {
	{ "Operator", C_CPU_OP }, { "Runtime", C_RUNTIME }, { "Kernel", C_KERNEL },
	{ "Memcpy", C_MEMCPY }, { "Memset", C_MEMSET }, { "async", C_AC2G },
	{ "async_cpu_to_gpu", C_AC2G }
};

static int
cat_of(struct kin *k)
{
	size_t n, i;
	const char *s = js_str(k->rd, &n);
	int c;

	for (c = C_CPU_OP; c <= C_ANNOT; c++)
		if (catname[c][0] == s[0] && strlen(catname[c]) == n &&
		    memcmp(catname[c], s, n) == 0)
			return c;
	for (i = 0; i < sizeof(catalias) / sizeof(catalias[0]); i++)
		if (catalias[i].name[0] == s[0] && strlen(catalias[i].name) == n &&
		    memcmp(catalias[i].name, s, n) == 0)
			return catalias[i].cat;
	return C_OTHER;
}

/* An argument list: each element's compact text. */
static void
read_arglist(struct kin *k, struct arglist *a)
{
	enum js_tok t;

	a->present = true;
	buf_reset(&a->text);
	a->n = 0;
	if (js_tok(k->rd) != JS_ARRAY) {
		skip(k);
		return;
	}
	while ((t = next(k)) != JS_ARRAY_END) {
		if (a->n == a->cap) {
			a->cap = grow_cap(a->cap, a->n + 1);
			a->start = xreallocarray(a->start, a->cap, sizeof(*a->start));
			a->len = xreallocarray(a->len, a->cap, sizeof(*a->len));
		}
		a->start[a->n] = a->text.len;
		if (js_capture(k->rd, &a->text) == JS_ERROR)
			kfail_json(k);
		(void)t;
		a->len[a->n] = a->text.len - a->start[a->n];
		a->n++;
	}
}

/* The keys the reader looks at, in events and in their args. */
enum key {
	K_OTHER, K_PH, K_CAT, K_NAME, K_PID, K_TID, K_TS, K_DUR, K_ID, K_ARGS,
	K_CORR, K_EXT, K_SEQ, K_STREAM, K_DEVICE, K_LABELS, K_KERNEL,
	K_ARG0		/* K_ARG0 + A_DIMS ...: the argument lists */
};

static const char *const keyname[] = {
	"", "ph", "cat", "name", "pid", "tid", "ts", "dur", "id", "args",
	"correlation", "External id", "Sequence number", "stream", "device", "labels",
	"kernel", "Input Dims", "Input type", "Input Strides", "Concrete Inputs"
};

/* The args of a communication kernel that coll_analysis reads (docs/tracelens.md §1.3,
 * §7.8), and Kineto's Seq, Comms Id, Src Rank and Dst Rank (the collective's sequence
 * number in its process group, its id, a point-to-point's peers; issue 27): kept
 * verbatim in the gpu record's "comm" object. */
static const char *const commkey[] = {
	"Process Group Name", "Process Group Description", "Process Group Ranks",
	"Collective name", "Group size", "dtype", "In msg nelems", "Out msg nelems",
	"In split size", "Out split size", "Seq", "Comms Id", "Src Rank", "Dst Rank"
};
#define NCOMMKEY	(sizeof(commkey) / sizeof(commkey[0]))

static const char *
comm_key(struct kin *k)
{
	size_t n, i;
	const char *s = js_str(k->rd, &n);

	i = names_in_list(commkey, NCOMMKEY, s, n);
	return i < NCOMMKEY ? commkey[i] : NULL;
}

/* The current key's code; read before the value, which may move the key's text. */
static int
key_of(struct kin *k)
{
	size_t n, i;
	const char *s = js_str(k->rd, &n);

	if (n > 15 || n < 2)
		return K_OTHER;
	for (i = 1; i < sizeof(keyname) / sizeof(keyname[0]); i++)
		if (keyname[i][0] == s[0] && keyname[i][1] == s[1] &&
		    strlen(keyname[i]) == n && memcmp(keyname[i], s, n) == 0)
			return (int)i;
	return K_OTHER;
}

static void
read_args(struct kin *k)
{
	struct etmp *e = &k->t;
	struct js_writer w, w2;
	bool comm = false;
	enum js_tok t;

	if (js_tok(k->rd) != JS_OBJECT) {
		skip(k);
		return;
	}
	buf_reset(&e->comm);
	buf_reset(&e->comm_nr);
	js_w_init(&w, &e->comm);
	js_w_init(&w2, &e->comm_nr);
	while ((t = next(k)) == JS_KEY) {
		int key = key_of(k);
		const char *ck = key == K_OTHER ? comm_key(k) : NULL;

		t = next(k);
		if (ck != NULL) {
			if (!comm) {
				js_w_object(&w);
				js_w_object(&w2);
			}
			comm = true;
			js_w_key(&w, ck);
			buf_reset(&e->commval);
			if (js_capture(k->rd, &e->commval) == JS_ERROR)
				kfail_json(k);
			js_w_raw(&w, e->commval.p, e->commval.len);
			/* the group's ranks: once, in its "group" record (write_groups) */
			if (ck == commkey[2]) {
				buf_reset(&e->pgranks);
				buf_add(&e->pgranks, e->commval.p, e->commval.len);
				e->has_pgranks = true;
				continue;
			}
			/* a group record's key: a name as PyTorch writes it (a string); a
			 * kernel whose name is anything else keeps its ranks inline */
			if (ck == commkey[0]) {
				buf_reset(&e->pgname);
				buf_add(&e->pgname, e->commval.p, e->commval.len);
				e->has_pgname = e->commval.len > 0 && e->commval.p[0] == '"';
			}
			js_w_key(&w2, ck);
			js_w_raw(&w2, e->commval.p, e->commval.len);
			continue;
		}
		switch (key) {
		case K_CORR:
			e->corr = tok_id(k, t);
			break;
		case K_EXT:
			e->ext = tok_id(k, t);
			break;
		case K_SEQ:
			e->seq = tok_int(k, t);
			break;
		case K_STREAM:
			e->stream = tok_int(k, t);
			break;
		case K_DEVICE:
			e->device = tok_int(k, t);
			break;
		case K_NAME:
			tok_copy(k, t, &e->mname, &e->has_mname);
			break;
		case K_LABELS:
			tok_copy(k, t, &e->labels, &e->has_labels);
			break;
		case K_KERNEL:
			tok_copy(k, t, &e->kern, &e->has_kern);
			break;
		case K_ARG0 + A_DIMS: case K_ARG0 + A_TYPE: case K_ARG0 + A_STRIDES:
		case K_ARG0 + A_CONCRETE:
			read_arglist(k, &e->arg[key - K_ARG0]);
			break;
		default:
			if (t == JS_OBJECT || t == JS_ARRAY)
				skip(k);
		}
	}
	if (comm) {
		js_w_end_object(&w);
		js_w_end_object(&w2);
	}
}

static void
reset_tmp(struct etmp *e)
{
	int a;

	e->cat = C_OTHER;
	e->ph = 0;
	e->has_name = e->has_ts = e->has_dur = false;
	e->has_mname = e->has_labels = e->has_kern = false;
	e->ts = e->dur = 0;
	e->pid = e->tid = e->id = e->corr = e->ext = e->seq = NOVAL;
	e->stream = e->device = NOVAL;
	buf_reset(&e->comm);
	e->has_pgname = e->has_pgranks = false;
	for (a = 0; a < NARGS; a++)
		e->arg[a].present = false;
}

/* The "in" array of a CPU op: one object per argument, zipped from the four lists. */
static void
spool_in(struct kin *k, uint64_t *in_off, uint32_t *in_len)
{
	struct etmp *e = &k->t;
	struct js_writer w;
	size_t i, n = 0;
	int a;

	if (!e->arg[A_DIMS].present && !e->arg[A_TYPE].present)
		return;
	for (a = 0; a < NARGS; a++)
		if (e->arg[a].present && e->arg[a].n > n)
			n = e->arg[a].n;
	buf_reset(&k->tmp);
	js_w_init(&w, &k->tmp);
	js_w_array(&w);
	for (i = 0; i < n; i++) {
		js_w_object(&w);
		for (a = 0; a < NARGS; a++) {
			struct arglist *l = &e->arg[a];

			if (!l->present || i >= l->n)
				continue;
			js_w_key(&w, inkey[a]);
			js_w_raw(&w, l->text.p + l->start[i], l->len[i]);
		}
		js_w_end_object(&w);
	}
	js_w_end_array(&w);
	*in_off = spool_add(k->sp, k->tmp.p, k->tmp.len);
	*in_len = (uint32_t)k->tmp.len;
}

static bool
has_launch(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 6 <= n; i++)
		if (tolower((unsigned char)s[i]) == 'l' && strncasecmp(s + i, "launch", 6) == 0)
			return true;
	return false;
}

/* A metadata event: the name of a thread, a process or its labels. */
static void
keep_meta(struct kin *k)
{
	struct etmp *e = &k->t;
	int64_t key[2];

	if (!e->has_name || e->pid == NOVAL)
		return;
	key[0] = e->pid;
	key[1] = e->tid;
	if (e->name.len == 11 && memcmp(e->name.p, "thread_name", 11) == 0 && e->has_mname)
		imap_put(&k->thread_name, key, 2,
		    names_intern(&k->names, e->mname.p, e->mname.len));
	else if (e->name.len == 12 && memcmp(e->name.p, "process_name", 12) == 0 &&
	    e->has_mname)
		imap_put(&k->process_name, key, 1,
		    names_intern(&k->names, e->mname.p, e->mname.len));
	else if (e->name.len == 14 && memcmp(e->name.p, "process_labels", 14) == 0 &&
	    e->has_labels)
		imap_put(&k->process_label, key, 1,
		    names_intern(&k->names, e->labels.p, e->labels.len));
}

/* --- streaming: the records the sorts carry --------------------------------------------- */

static void check_event(struct kin *k, uint32_t idx);
static void spool_comm(struct kin *k, uint64_t *in_off, uint32_t *in_len);

/*
 * Without a capture folder the events are not held: each kept event is written to a
 * spool (k->fsp) as a struct xev, in trace order (its place there, its kept number kn),
 * and the host tree, the GPU links and the output order are computed by external sorts
 * (core/spool.h's spsort) of small fixed records, each pass joined to the next by a sort
 * key; see stream_records. Memory: the sorts' runs, the open stacks and the tables of
 * names and threads, whatever the trace's length.
 */
struct xev {
	int64_t		 ts, dur;		/* ns */
	int64_t		 corr, ext, seq, stream, device;	/* NOVAL: absent */
	uint64_t	 in_off;		/* "in" (or a collective's args) in k->sp */
	uint32_t	 in_len, idx, name, thr;
	uint8_t		 cat, flags;
};

/* By linking id (or, in the fallback, correlation): events and ac2g flows. */
enum { LK_EV, LK_S, LK_F };

struct lk {
	int64_t		 lv;
	int64_t		 ts, dur;
	int64_t		 pid, tid;		/* a flow finish's thread */
	uint32_t	 idx, kn, thr, name;
	uint8_t		 kind, cat, graph, pidok;
};

static int
by_lk(const void *a, const void *b)
{
	const struct lk *x = a, *y = b;

	if (x->lv != y->lv)
		return x->lv < y->lv ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void
stream_flow(struct kin *k, uint32_t idx)
{
	struct etmp *e = &k->t;
	struct lk r;

	memset(&r, 0, sizeof(r));
	r.lv = e->id;
	r.idx = idx;
	r.kind = e->ph == 's' ? LK_S : LK_F;
	r.pid = e->pid;
	r.tid = e->tid;
	spsort_add(k->lk, &r);
}

static void
keep_xev(struct kin *k, uint32_t idx)
{
	struct etmp *e = &k->t;
	struct xev x;

	check_event(k, idx);
	memset(&x, 0, sizeof(x));
	x.ts = e->ts;
	x.dur = e->dur;
	x.thr = kin_thread(k, e->pid, e->tid);
	x.corr = e->corr;
	x.ext = e->ext;
	x.seq = e->seq;
	x.stream = e->stream;
	x.device = e->device;
	x.idx = idx;
	x.name = names_intern(&k->names, e->has_name ? e->name.p : "", e->has_name ?
	    e->name.len : 0);
	x.cat = (uint8_t)e->cat;
	if (e->corr != NOVAL)
		x.flags |= F_HASCORR;
	if (e->cat == C_CPU_OP)
		spool_in(k, &x.in_off, &x.in_len);
	else if (IS_GPU(e->cat) && e->comm.len > 0)
		spool_comm(k, &x.in_off, &x.in_len);
	spool_add(k->fsp, (const char *)&x, sizeof(x));
	k->nev++;
}

/* An ac2g flow event: its start by id, or its finish's (pid, tid) beside the map. */
static void
keep_flow(struct kin *k, uint32_t idx)
{
	struct etmp *e = &k->t;
	int64_t key[1];
	uint32_t i;

	if (e->id == NOVAL || (e->ph != 's' && e->ph != 'f')) {
		ignore_cat(k, catname[C_AC2G], strlen(catname[C_AC2G]));
		return;
	}
	if (k->stream) {
		stream_flow(k, idx);
		return;
	}
	key[0] = e->id;
	if (e->ph == 's') {
		imap_put(&k->flow_s, key, 1, 1);
		return;
	}
	i = imap_slot(&k->flow_f, key, 1);
	k->f_pid = xreallocarray(k->f_pid, k->flow_f.cap, sizeof(*k->f_pid));
	k->f_tid = xreallocarray(k->f_tid, k->flow_f.cap, sizeof(*k->f_tid));
	k->f_pid[i] = e->pid;
	k->f_tid[i] = e->tid;
}

/* The event just read (index idx) appended to k->ev as a summary, unlinked. Bad input
 * (no ts or dur, a negative dur, too many events): kfail. */
static void
check_event(struct kin *k, uint32_t idx)
{
	struct etmp *e = &k->t;
	long long end;

	if (!e->has_ts)
		kfail_at(k, (long long)e->off, "traceEvents[%u]: %s event without \"ts\"", idx,
		    catname[e->cat]);
	if (!e->has_dur)
		kfail_at(k, (long long)e->off, "traceEvents[%u]: %s event without \"dur\"", idx,
		    catname[e->cat]);
	if (e->dur < 0)
		kfail_at(k, (long long)e->off, "traceEvents[%u]: negative \"dur\"", idx);
	if (!ck_add_i64(e->ts, e->dur, &end) || e->ts < -TMAX || e->ts > TMAX || end > TMAX)
		kfail_at(k, (long long)e->off, "traceEvents[%u]: \"ts\" + \"dur\" out of range "
		    "(%lld + %lld ns; ttp holds times within 2^62 ns of 0)", idx,
		    (long long)e->ts, (long long)e->dur);
	if (k->nev >= INT32_MAX / 2)
		kfail(k, "more than %d events to keep", INT32_MAX / 2);
}

static struct kev *
new_kev(struct kin *k, uint32_t idx)
{
	struct etmp *e = &k->t;
	struct kev *v;

	check_event(k, idx);
	v = KEV(k, kin_add_event(k));
	v->ts = e->ts;
	v->dur = kv_put(k, e->dur);
	v->thr = kin_thread(k, e->pid, e->tid);
	v->corr = kv_put(k, e->corr);
	v->ext = kv_put(k, e->ext);
	v->seq = kv_put(k, e->seq);
	v->stream = kv_put(k, e->stream);
	v->device = kv_put(k, e->device);
	v->idx = idx;
	v->name = names_intern(&k->names, e->has_name ? e->name.p : "", e->has_name ?
	    e->name.len : 0);
	v->parent = v->linker = v->launcher = v->fwd = -1;
	v->kname = IS_LAUNCH(e->cat) && e->has_kern ? names_intern(&k->names, e->kern.p,
	    e->kern.len) : NAME_NONE;
	v->cat = (uint8_t)e->cat;
	if (e->corr != NOVAL)
		v->flags |= F_HASCORR;
	return v;
}

/* A GPU event has no "in": the same slot keeps its collective's args, without the
 * process group's ranks when its group (by name) has them in its "group" record: the
 * first rank list a name comes with is the group's, another stays on its kernel. */
static void
spool_comm(struct kin *k, uint64_t *in_off, uint32_t *in_len)
{
	struct etmp *e = &k->t;
	const struct buf *b = &e->comm;

	if (k->pg_records && e->has_pgname && e->has_pgranks) {
		int added;
		uint32_t g = names_add(&k->pg, e->pgname.p, e->pgname.len, &added);
		uint32_t rl = names_intern(&k->pgr, e->pgranks.p, e->pgranks.len);

		if (added) {
			k->pg_ranks = xgrow(k->pg_ranks, &k->pg_cap, (size_t)g + 1,
			    sizeof(*k->pg_ranks));
			k->pg_ranks[g] = rl;
		}
		if (k->pg_ranks[g] == rl)
			b = &e->comm_nr;
	}
	*in_off = spool_add(k->sp, b->p, b->len);
	*in_len = (uint32_t)b->len;
}

/* The event just read: keep what the records need. */
static void
keep_event(struct kin *k, uint32_t idx)
{
	struct etmp *e = &k->t;
	struct kev *v;

	if (e->ph == 'M') {
		keep_meta(k);
		return;
	}
	if (e->cat == C_AC2G) {
		keep_flow(k, idx);
		return;
	}
	if (e->cat == C_OTHER || (e->cat == C_PYTHON && !k->o->python)) {
		/* (an event with a category of either kind has been read past already) */
		ignore_cat(k, "", 0);
		return;
	}
	if (k->stream)
		keep_xev(k, idx);
	else {
		v = new_kev(k, idx);
		if (e->cat == C_CPU_OP)
			spool_in(k, &v->in_off, &v->in_len);
		else if (IS_GPU(e->cat) && e->comm.len > 0)
			spool_comm(k, &v->in_off, &v->in_len);
	}
	if (e->cat == C_CPU_OP)
		k->has_cpu_op = true;
	/* the linking key: the first launch's (docs/tracelens.md §1.4.1) */
	if (IS_LAUNCH(e->cat) && !k->key_decided && e->has_name &&
	    has_launch(e->name.p, e->name.len)) {
		k->key_decided = 1;
		k->key_corr = e->corr != NOVAL;
	}
}

static void
read_event(struct kin *k, uint32_t idx)
{
	struct etmp *e = &k->t;
	enum js_tok t;

	reset_tmp(e);
	e->off = js_offset(k->rd);
	while ((t = next(k)) == JS_KEY) {
		int key = key_of(k);

		t = next(k);
		switch (key) {
		case K_PH:
			if (t == JS_STRING) {
				size_t n;
				const char *p = js_str(k->rd, &n);

				e->ph = n == 1 ? p[0] : '?';
			} else if (t == JS_OBJECT || t == JS_ARRAY)
				skip(k);
			break;
		case K_CAT:
			if (t == JS_STRING)
				e->cat = cat_of(k);
			else if (t == JS_OBJECT || t == JS_ARRAY)
				skip(k);
			if (e->cat == C_OTHER || (e->cat == C_PYTHON && !k->o->python)) {
				/* not wanted: counted, the rest of the event only read past */
				size_t n = 0;
				const char *c = t == JS_STRING ? js_str(k->rd, &n) : "";

				ignore_cat(k, c, n);
				if (js_skip_rest(k->rd) == JS_ERROR)
					kfail_json(k);
				return;
			}
			break;
		case K_NAME:
			tok_copy(k, t, &e->name, &e->has_name);
			break;
		case K_PID:
			e->pid = tok_id(k, t);
			break;
		case K_TID:
			e->tid = tok_id(k, t);
			break;
		case K_TS:
			e->ts = tok_time(k, t, "ts", idx);
			e->has_ts = true;
			break;
		case K_DUR:
			e->dur = tok_time(k, t, "dur", idx);
			e->has_dur = true;
			break;
		case K_ID:
			e->id = tok_id(k, t);
			break;
		case K_ARGS:
			read_args(k);
			break;
		default:
			if (t == JS_OBJECT || t == JS_ARRAY)
				skip(k);
		}
	}
	keep_event(k, idx);
}

static void
read_events(struct kin *k)
{
	enum js_tok t;

	if (js_tok(k->rd) != JS_ARRAY)
		kfail(k, "\"traceEvents\" is not an array");
	k->has_events = true;
	while ((t = next(k)) != JS_ARRAY_END) {
		if (t != JS_OBJECT)
			kfail(k, "traceEvents[%u]: not an object", k->nevents);
		if (k->nevents == UINT32_MAX - 1)
			kfail(k, "more than %u events", UINT32_MAX - 1);
		read_event(k, k->nevents++);
	}
}

/* deviceProperties: [{"id": 0, "name": "NVIDIA H100 80GB HBM3", ...}, ...] */
static void
read_devices(struct kin *k)
{
	struct js_writer w;
	enum js_tok t;

	if (js_tok(k->rd) != JS_ARRAY) {
		skip(k);
		return;
	}
	buf_reset(&k->devices);
	js_w_init(&w, &k->devices);
	js_w_array(&w);
	while ((t = next(k)) != JS_ARRAY_END) {
		if (t != JS_OBJECT) {
			skip(k);
			continue;
		}
		js_w_object(&w);
		while ((t = next(k)) == JS_KEY) {
			bool id = js_is(k->rd, "id"), name = js_is(k->rd, "name");

			t = next(k);
			if (id && t == JS_NUMBER) {
				size_t n;
				const char *s = js_text(k->rd, &n);

				js_w_key(&w, "id");
				js_w_raw(&w, s, n);
			} else if (name && t == JS_STRING) {
				size_t n;
				const char *s = js_str(k->rd, &n);

				js_w_key(&w, "name");
				js_w_str(&w, s, n);
			} else if (t == JS_OBJECT || t == JS_ARRAY)
				skip(k);
		}
		js_w_end_object(&w);
	}
	js_w_end_array(&w);
}

static void
read_trace(struct kin *k)
{
	enum js_tok t = next(k);

	if (t != JS_OBJECT)
		kfail(k, "not a PyTorch profiler trace: the document is not a JSON object");
	while ((t = next(k)) == JS_KEY) {
		bool ev = js_is(k->rd, "traceEvents"), dev = js_is(k->rd, "deviceProperties");
		bool dist = js_is(k->rd, "distributedInfo");

		next(k);
		if (ev)
			read_events(k);
		else if (dev)
			read_devices(k);
		else if (dist) {
			buf_reset(&k->dist);
			if (js_capture(k->rd, &k->dist) == JS_ERROR)
				kfail_json(k);
			k->has_dist = true;
		} else
			skip(k);
	}
	if (next(k) != JS_END)
		kfail(k, "content after the trace");
	if (!k->has_events)
		kfail_at(k, -1, "not a PyTorch profiler trace: no \"traceEvents\"");
}

/* --- the host tree (§1.4.3) ----------------------------------------------------------- */

/*
 * Nanoseconds as the double TraceLens holds for the microseconds of the JSON text
 * (docs/tracelens.md §1.1 and its erratum). Whole and fractional microseconds
 * apart: (double)ns / 1000 rounds ns itself once it passes 2^53 (epoch timestamps,
 * about 1.6e18 ns), the sum of the two is the correctly rounded quotient (the fraction
 * is never within rounding distance of a midpoint), which is what strtod gives for the
 * text, and exact for integer microseconds (Python's ints).
 */
static double
us_of(int64_t ns)
{
	return (double)(ns / 1000) + (double)(ns % 1000) / 1000.0;
}

static double
t0(const struct kev *v)
{
	return us_of(v->ts);
}

static int64_t
dur_of(const struct kin *k, const struct kev *v)
{
	return KEV_DUR(k, v);
}

/* TraceLens's t_end: ts + dur, each as its text's double, added in double precision
 * (exact when both are integers, as Python's int sum is). */
static double
t1(const struct kin *k, const struct kev *v)
{
	return us_of(v->ts) + us_of(dur_of(k, v));
}

static const struct kin *cmp_k;

static int
by_ts(const void *a, const void *b)
{
	const struct kev *x = KEV(cmp_k, *(const int32_t *)a);
	const struct kev *y = KEV(cmp_k, *(const int32_t *)b);

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void
kin_sort_by_ts(const struct kin *k, int32_t *v, size_t n)
{
	cmp_k = k;
	qsort(v, n, sizeof(*v), by_ts);
}

size_t
kin_host_events(const struct kin *k, int32_t *h)
{
	size_t nh = 0, i;

	for (i = 0; i < k->nev; i++) {
		int c = KEV(k, i)->cat;

		if (c == C_CPU_OP || IS_LAUNCH(c) || c == C_PYTHON)
			h[nh++] = (int32_t)i;
	}
	kin_sort_by_ts(k, h, nh);
	return nh;
}

struct stack {
	int32_t	*v;
	size_t	 n, cap;
};

static void
build_tree(struct kin *k)
{
	int32_t *h = xreallocarray(NULL, k->nev + 1, sizeof(*h));
	size_t nst = k->thr.nm.n, nh = kin_host_events(k, h), i;
	struct stack *st = xcalloc(nst + 1, sizeof(*st));	/* one per thread */

	for (i = 0; i < nh; i++) {
		struct kev *e = KEV(k, h[i]);
		struct stack *s = &st[e->thr];
		double ts = t0(e), te = t1(k, e);

		while (s->n > 0 && ts >= t1(k, KEV(k, s->v[s->n - 1])))
			s->n--;
		if (s->n > 0 && te > t1(k, KEV(k, s->v[s->n - 1]))) {
			/* the "bleed" rule: a small overlap moves the event up a level */
			if (t1(k, KEV(k, s->v[s->n - 1])) - ts < 1.0 && s->n >= 2)
				s->n--;
			else
				continue;
		}
		if (s->n > 0)
			e->parent = s->v[s->n - 1];
		s->v = xgrow(s->v, &s->cap, s->n + 1, sizeof(*s->v));
		s->v[s->n++] = h[i];
	}
	for (i = 0; i < nst; i++)
		free(st[i].v);
	free(st);
	free(h);
}

/* --- GPU links (§1.4.4, §1.5) ------------------------------------------------------------ */

static int64_t
linkval(const struct kin *k, const struct kev *v)
{
	return kv_get(k, k->key_corr ? v->corr : v->ext);
}

/* The name matches rccl|nccl|cross_device_reduce, case-insensitively (§1.5). */
static bool
is_comm(const char *s)
{
	for (; *s != '\0'; s++) {
		int c = tolower((unsigned char)*s);

		if (c == 'r' && strncasecmp(s, "rccl", 4) == 0)
			return true;
		if (c == 'n' && strncasecmp(s, "nccl", 4) == 0)
			return true;
		if (c == 'c' && strncasecmp(s, "cross_device_reduce", 19) == 0)
			return true;
	}
	return false;
}

static bool
is_graph_launch(const char *s)
{
	return strcmp(s, "cudaGraphLaunch") == 0 || strcmp(s, "hipGraphLaunch") == 0;
}

static void
link(struct kin *k, int32_t g, int32_t r)
{
	if (KEV(k, g)->linker < 0)
		k->n_unlinked--;
	KEV(k, g)->linker = r;
}

/* Pass one of link_gpu: the GPU events counted (all unlinked yet), communication kernels
 * marked and, per linking id, chained in trace order (graph: the first, gnext[]: the
 * next); every event with a linking id and a thread indexed by (thread, id) in pt. */
static void
index_events(struct kin *k, struct imap *pt, struct imap *graph, int32_t *gnext)
{
	int32_t *gtail = NULL;
	size_t i;

	k->n_gpu = k->n_unlinked = 0;
	for (i = 0; i < k->nev; i++) {
		struct kev *v = KEV(k, i);
		int64_t lv = linkval(k, v), key[2] = { v->thr, lv };

		gnext[i] = -1;
		if (IS_GPU(v->cat)) {
			k->n_gpu++;
			k->n_unlinked++;
			if (is_comm(names_str(&k->names, v->name)))
				v->flags |= F_COMM;
			if (lv != NOVAL) {
				size_t before = graph->nm.n;
				uint32_t s = imap_slot(graph, &lv, 1);

				gtail = xreallocarray(gtail, graph->cap, sizeof(*gtail));
				if (graph->nm.n > before)
					graph->val[s] = (int64_t)i;	/* the first */
				else
					gnext[gtail[s]] = (int32_t)i;
				gtail[s] = (int32_t)i;
			}
		}
		if (lv != NOVAL && KEV_PID(k, v) != NOVAL && KEV_TID(k, v) != NOVAL)
			imap_put(pt, key, 2, (int64_t)i);
	}
	free(gtail);
}

/* Launch r (linking id lv) linked through its ac2g flow: to the GPU event with that id
 * on the flow finish's (pid, tid). */
static void
link_by_flow(struct kin *k, const struct imap *pt, int32_t r, int64_t lv)
{
	int64_t one, key[2], g;
	uint32_t fi;

	if (!imap_get(&k->flow_s, &lv, 1, &one))
		return;
	fi = names_lookup(&k->flow_f.nm, (const char *)&lv, sizeof(lv));
	if (fi == NAME_NONE) {
		k->n_flow_unpaired++;
		return;
	}
	key[0] = k->f_pid[fi];
	key[1] = k->f_tid[fi];
	if (!imap_get(&k->thr, key, 2, &key[0]))
		return;		/* no kept event on that thread */
	key[1] = lv;
	if (imap_get(pt, key, 2, &g) && IS_GPU(KEV(k, g)->cat)) {
		link(k, (int32_t)g, r);
		k->n_flow_links++;
	}
}

/*
 * A trace whose flows link nothing (it has none, or none that ends on a GPU event):
 * each launch linked to the GPU event with its args.correlation, as Kineto pairs them
 * (the last such event in the trace, as TraceLens would find it given one ac2g pair per
 * launch and GPU event). Graph launches keep their own rule.
 */
static void
link_by_corr(struct kin *k)
{
	struct imap byc = { 0 };
	int64_t g, c;
	size_t i;

	for (i = 0; i < k->nev; i++)
		if (IS_GPU(KEV(k, i)->cat) && (c = kv_get(k, KEV(k, i)->corr)) != NOVAL)
			imap_put(&byc, &c, 1, (int64_t)i);
	for (i = 0; i < k->nev; i++) {
		struct kev *r = KEV(k, i);

		c = kv_get(k, r->corr);
		if (!IS_LAUNCH(r->cat) || c == NOVAL ||
		    is_graph_launch(names_str(&k->names, r->name)))
			continue;
		if (imap_get(&byc, &c, 1, &g)) {
			link(k, (int32_t)g, (int32_t)i);
			k->linked_by_corr = true;
		}
	}
	imap_free(&byc);
}

static void
link_gpu(struct kin *k)
{
	struct imap pt = { 0 }, graph = { 0 };
	int32_t *gnext = xreallocarray(NULL, k->nev + 1, sizeof(*gnext));
	size_t i;

	index_events(k, &pt, &graph, gnext);
	for (i = 0; i < k->nev; i++) {
		struct kev *r = KEV(k, i);
		int64_t lv = linkval(k, r), g;

		if (!IS_LAUNCH(r->cat) || lv == NOVAL)
			continue;
		if (!is_graph_launch(names_str(&k->names, r->name)))
			link_by_flow(k, &pt, (int32_t)i, lv);
		else if (imap_get(&graph, &lv, 1, &g))
			for (; g >= 0; g = gnext[g])
				link(k, (int32_t)g, (int32_t)i);
	}
	if (k->n_flow_links == 0 && k->n_unlinked > 0)
		link_by_corr(k);
	free(gnext);
	imap_free(&pt);
	imap_free(&graph);
}

/* The op a linked GPU event is charged to: the first CPU op above its launch, python
 * functions skipped, "execute" passed through, the walk stopped by any other kind of
 * event (a merged capture's root); else the launch itself (docs/tracelens.md §1.5). */
static void
find_launchers(struct kin *k)
{
	size_t i;

	for (i = 0; i < k->nev; i++) {
		struct kev *v = KEV(k, i);
		int32_t p, l = -1;

		if (v->cat == C_CPU_OP || v->cat == C_PYTHON)
			v->flags |= F_REC;
		if (!IS_GPU(v->cat) || v->linker < 0)
			continue;
		for (p = KEV(k, v->linker)->parent; p >= 0; p = KEV(k, p)->parent) {
			if (KEV(k, p)->cat == C_PYTHON)
				continue;
			if (KEV(k, p)->cat != C_CPU_OP)
				break;
			if (strcmp(names_str(&k->names, KEV(k, p)->name), "execute") == 0)
				continue;
			l = p;
			break;
		}
		if (l < 0) {
			l = v->linker;
			KEV(k, l)->flags |= F_REC;
		}
		v->launcher = l;
		if (!(v->flags & F_COMM))
			KEV(k, l)->flags |= F_LAUNCHER;
	}
}

/* §1.4.6: per Sequence number, the first autograd::engine::evaluate_function: event is
 * the backward op; its forward op is the latest one with that number on another thread. */
static int
by_seq(const void *a, const void *b)
{
	const struct kev *x = KEV(cmp_k, *(const int32_t *)a);
	const struct kev *y = KEV(cmp_k, *(const int32_t *)b);
	int64_t xs = kv_get(cmp_k, x->seq), ys = kv_get(cmp_k, y->seq);

	if (xs != ys)
		return xs < ys ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void
link_fwd_bwd(struct kin *k)
{
	static const char pre[] = "autograd::engine::evaluate_function:";
	int32_t *s = xreallocarray(NULL, k->nev + 1, sizeof(*s));
	size_t n = 0, i, j, m;

	for (i = 0; i < k->nev; i++)
		if (KEV(k, i)->seq != KV_NONE)
			s[n++] = (int32_t)i;
	cmp_k = k;
	qsort(s, n, sizeof(*s), by_seq);
	for (i = 0; i < n; i = j) {
		struct kev *bwd = NULL;
		int32_t fwd = -1;

		for (j = i; j < n && kv_get(k, KEV(k, s[j])->seq) == kv_get(k, KEV(k, s[i])->seq); j++)
			;
		for (m = i; m < j && bwd == NULL; m++)
			if (strncmp(names_str(&k->names, KEV(k, s[m])->name), pre,
			    sizeof(pre) - 1) == 0)
				bwd = KEV(k, s[m]);
		if (bwd == NULL)
			continue;
		for (m = i; m < j; m++) {
			struct kev *e = KEV(k, s[m]);

			if (e->thr == bwd->thr)
				continue;
			if (fwd < 0 || e->ts > KEV(k, fwd)->ts)
				fwd = s[m];
		}
		bwd->fwd = fwd;
	}
	free(s);
}

/* --- writing ------------------------------------------------------------------------------ */

/* GPU events per op, as index lists: own (charged to it) and subtree (below it). */
struct lists {
	size_t	*own_at, *sub_at;	/* nev + 1 offsets */
	int32_t	*own, *sub;
};

static void
build_lists(struct kin *k, struct lists *L)
{
	size_t i, n = k->nev;
	int pass;

	L->own = L->sub = NULL;
	L->own_at = xcalloc(n + 1, sizeof(size_t));
	L->sub_at = xcalloc(n + 1, sizeof(size_t));
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			/* each at[x] the start of x's list, then its fill cursor */
			for (i = 0; i < n; i++) {
				L->own_at[i + 1] += L->own_at[i];
				L->sub_at[i + 1] += L->sub_at[i];
			}
			L->own = xreallocarray(NULL, L->own_at[n] + 1, sizeof(int32_t));
			L->sub = xreallocarray(NULL, L->sub_at[n] + 1, sizeof(int32_t));
		}
		for (i = 0; i < n; i++) {
			struct kev *g = KEV(k, i);
			int32_t p;

			if (!IS_GPU(g->cat) || g->launcher < 0)
				continue;
			if (pass == 0)
				L->own_at[g->launcher + 1]++;
			else
				L->own[L->own_at[g->launcher]++] = (int32_t)i;
			for (p = g->linker; p >= 0; p = KEV(k, p)->parent) {
				if (!(KEV(k, p)->flags & F_REC))
					continue;
				if (pass == 0)
					L->sub_at[p + 1]++;
				else
					L->sub[L->sub_at[p]++] = (int32_t)i;
			}
		}
	}
	/* the cursors stopped at the next list's start: back by one list */
	for (i = n; i > 0; i--) {
		L->own_at[i] = L->own_at[i - 1];
		L->sub_at[i] = L->sub_at[i - 1];
	}
	L->own_at[0] = L->sub_at[0] = 0;
}

static void
free_lists(struct lists *L)
{
	free(L->own_at);
	free(L->sub_at);
	free(L->own);
	free(L->sub);
}

struct span {
	int64_t	a, b;
};

static int
by_start(const void *x, const void *y)
{
	const struct span *p = x, *q = y;

	return p->a < q->a ? -1 : p->a > q->a;
}

/* Busy time: the length of the union of the events' intervals (docs/tracelens.md §2). */
static int64_t
busy_ns(struct kin *k, const int32_t *g, size_t n, struct span **tmp, size_t *cap)
{
	size_t i;
	int64_t sum = 0, a, b;

	if (n == 0)
		return 0;
	*tmp = xgrow(*tmp, cap, n, sizeof(**tmp));
	for (i = 0; i < n; i++) {
		(*tmp)[i].a = KEV(k, g[i])->ts;
		(*tmp)[i].b = KEV(k, g[i])->ts + KEV_DUR(k, KEV(k, g[i]));
	}
	qsort(*tmp, n, sizeof(**tmp), by_start);
	a = (*tmp)[0].a;
	b = (*tmp)[0].b;
	for (i = 1; i < n; i++) {
		if ((*tmp)[i].a <= b) {
			if ((*tmp)[i].b > b)
				b = (*tmp)[i].b;
			continue;
		}
		sum += b - a;
		a = (*tmp)[i].a;
		b = (*tmp)[i].b;
	}
	return sum + (b - a);
}

static void
set_id(struct kin *k, struct rec *r, const char *key, int64_t v)
{
	if (v == NOVAL)
		return;
	if (v >= STRVAL && v <= STRMAX) {
		uint32_t i = (uint32_t)(v - STRVAL);

		rec_set_strn(r, key, k->strs.str[i], k->strs.len[i]);
	} else
		rec_set_int(r, key, v);
}

/* A new record of kind for the event at traceEvents[idx]. */
static struct rec *
new_rec_idx(struct kin *k, const char *kind, uint32_t idx)
{
	struct rec *r = rec_new();

	rec_set_str(r, "kind", kind);
	rec_set_str(r, "trace", "kineto");
	rec_set_int(r, "id", idx);
	if (k->rank >= 0)
		rec_set_int(r, "rank", k->rank);
	return r;
}

static void
set_name(struct kin *k, struct rec *r, const char *key, uint32_t name)
{
	rec_set_strn(r, key, k->names.str[name], k->names.len[name]);
}

/* pid, tid and the names of the thread, the process and its labels, for thread thr. */
static void
set_thread_thr(struct kin *k, struct rec *r, uint32_t thr)
{
	int64_t key[2] = { k->thr_pid[thr], k->thr_tid[thr] }, x;

	set_id(k, r, "pid", key[0]);
	set_id(k, r, "tid", key[1]);
	if (imap_get(&k->thread_name, key, 2, &x))
		set_name(k, r, "thread", (uint32_t)x);
	if (imap_get(&k->process_name, key, 1, &x))
		set_name(k, r, "process", (uint32_t)x);
	if (imap_get(&k->process_label, key, 1, &x))
		set_name(k, r, "process_label", (uint32_t)x);
}

/* A GPU event's class, from its name, category and flags (F_COMM). */
static const char *
gpu_class_of(const struct kin *k, uint32_t name, int cat, int flags)
{
	const char *s = names_str(&k->names, name);
	size_t n = strlen(s);

	if (cat == C_MEMCPY)
		return "memcpy";
	if (cat == C_KERNEL) {
		/* ROCm's legacy copy and fill kernels (docs/tracelens.md §2) */
		if (n > 3 && strcmp(s + n - 3, ".kd") == 0)
			n -= 3;
		if (n > 12 && strncmp(s, "MEMORY_COPY_", 12) == 0 &&
		    ((n - 12 == 14 && (strncmp(s + 12, "HOST_TO_DEVICE", 14) == 0 ||
		    strncmp(s + 12, "DEVICE_TO_HOST", 14) == 0)) ||
		    (n - 12 == 16 && strncmp(s + 12, "DEVICE_TO_DEVICE", 16) == 0)))
			return "memcpy";
		if (strncmp(s, "__amd_rocclr_copyBuffer", 23) == 0) {
			size_t i = 23;

			if (n - i >= 4 && strncmp(s + i, "Rect", 4) == 0)
				i += 4;
			if (n - i >= 7 && strncmp(s + i, "Aligned", 7) == 0)
				i += 7;
			if (i == n)
				return "memcpy";
		}
		if (strncmp(s, "__amd_rocclr_fillBuffer", 23) == 0 &&
		    (n == 23 || (n == 30 && strncmp(s + 23, "Aligned", 7) == 0)))
			return "comp";
	}
	return (flags & F_COMM) ? "comm" : "comp";
}

static const char *
gpu_kind(int cat)
{
	return cat == C_KERNEL ? "kernel" : cat == C_MEMCPY ? "memcpy" : "memset";
}

/* The nearest ancestor written as a record. */
static int32_t
rec_parent(const struct kin *k, const struct kev *v)
{
	int32_t p;

	for (p = v->parent; p >= 0; p = KEV(k, p)->parent)
		if (KEV(k, p)->flags & F_REC)
			return p;
	return -1;
}

static const struct kin *cmp_ign;

static int
by_ignored(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	size_t nx = cmp_ign->ign_n[x], ny = cmp_ign->ign_n[y];

	if (nx != ny)
		return nx > ny ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* "ignored_cats": each category of the events not read, with its count, most first
 * (ties in the order met). */
static void
set_ignored_cats(struct kin *k, struct rec *r)
{
	size_t n = k->ign_cats.n, i;
	uint32_t *v = xreallocarray(NULL, n + 1, sizeof(*v));
	struct js_writer w;

	for (i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	cmp_ign = k;
	qsort(v, n, sizeof(*v), by_ignored);
	buf_reset(&k->tmp);
	js_w_init(&w, &k->tmp);
	js_w_array(&w);
	for (i = 0; i < n; i++) {
		js_w_object(&w);
		js_w_key(&w, "cat");
		js_w_str(&w, k->ign_cats.str[v[i]], k->ign_cats.len[v[i]]);
		js_w_key(&w, "n");
		js_w_int(&w, (long long)k->ign_n[v[i]]);
		js_w_end_object(&w);
	}
	js_w_end_array(&w);
	rec_set_raw(r, "ignored_cats", k->tmp.p, k->tmp.len);
	free(v);
}

/* The trace record; sig: its "signposts", a JSON array. */
static void
write_trace_rec(struct kin *k, const struct buf *sig)
{
	struct rec *r = rec_new();

	rec_set_str(r, "kind", "trace");
	rec_set_str(r, "trace", "kineto");
	if (k->rank >= 0)
		rec_set_int(r, "rank", k->rank);
	rec_set_str(r, "file", k->file);
	rec_set_str(r, "format", "kineto");
	if (k->devices.len > 0)
		rec_set_raw(r, "devices", k->devices.p, k->devices.len);
	rec_set_raw(r, "signposts", sig->p, sig->len);
	if (k->has_dist) {
		rec_set_raw(r, "distributed", k->dist.p, k->dist.len);
		/* TraceLens's gpus_per_node: the GPUs the rank's node shows */
		if (k->rank >= 0 && rec_count(r, "devices") > 0)
			rec_set_int(r, "gpus_per_node", (long long)rec_count(r, "devices"));
	}
	rec_set_int(r, "events", k->nevents);
	rec_set_str(r, "linking_key", k->key_corr ? "correlation" : "External id");
	rec_set_str(r, "linked_by", k->linked_by_corr ? "correlation" : "flow");
	rec_set_int(r, "gpu_events", (long long)k->n_gpu);
	rec_set_int(r, "unlinked", (long long)k->n_unlinked);
	rec_set_bool(r, "gpu_only", !k->has_cpu_op);
	rec_set_int(r, "ignored", (long long)k->n_ignored);
	set_ignored_cats(k, r);
	rec_set_int(r, "flows_unpaired", (long long)k->n_flow_unpaired);
	if (k->n_inexact > 0)
		rec_set_int(r, "times_rounded", (long long)k->n_inexact);	/* to whole ns */
	if (k->cap_folder != NULL) {
		rec_set_str(r, "capture_folder", k->cap_folder);
		rec_set_int(r, "capture_merged", (long long)k->cap_merged);
		rec_set_int(r, "capture_events", (long long)k->cap_events);
		if (k->cap_classified)
			rec_set_bool(r, "capture_classified", true);
	}
	rec_write(r, k->out);
	rec_free(r);
}

/* One "group" record per process group its collective kernels name: its name and its
 * rank list as the kernels' args write them (Process Group Name, Process Group Ranks),
 * which their gpu records leave out: at 1,024 ranks the list would be most of them. */
static void
write_groups(struct kin *k)
{
	size_t i;

	for (i = 0; i < k->pg.n; i++) {
		struct rec *r = rec_new();
		uint32_t rl = k->pg_ranks[i];

		rec_set_str(r, "kind", "group");
		rec_set_str(r, "trace", "kineto");
		if (k->rank >= 0)
			rec_set_int(r, "rank", k->rank);
		rec_set_raw(r, "group", k->pg.str[i], k->pg.len[i]);
		rec_set_raw(r, "group_ranks", k->pgr.str[rl], k->pgr.len[rl]);
		rec_write(r, k->out);
		rec_free(r);
	}
}

/* --- streaming: the passes ----------------------------------------------------------------- */

/* Tree order, per thread: a host event (sub 0), then the GPU events it launched (sub 1,
 * by trace index), attached to it by the links. */
struct tn {
	int64_t		 ts;			/* the host event's */
	int64_t		 dur;			/* host: its; attached GPU event: its */
	int64_t		 gts;			/* attached GPU event: its start */
	uint32_t	 thr, idx;		/* the host event's */
	uint32_t	 gidx;			/* attached GPU event: its trace index */
	uint32_t	 kn;			/* the event's (host or GPU) kept number */
	uint32_t	 name;			/* the event's */
	uint8_t		 sub, cat, comm;
};

static int
by_tn(const void *a, const void *b)
{
	const struct tn *x = a, *y = b;

	if (x->thr != y->thr)
		return x->thr < y->thr ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	if (x->sub != y->sub)
		return x->sub < y->sub ? -1 : 1;
	return x->gidx < y->gidx ? -1 : x->gidx > y->gidx;
}

/* A GPU event's link to the launch r: prio 0 through flows or a graph launch, 1 through
 * the correlation fallback (which has the last word). */
struct lr {
	int64_t		 r_ts, g_ts, g_dur;
	uint32_t	 g_kn, prio, r_kn, r_idx, r_thr, g_idx, g_name;
	uint8_t		 g_comm;
};

static int
by_lr(const void *a, const void *b)
{
	const struct lr *x = a, *y = b;

	if (x->g_kn != y->g_kn)
		return x->g_kn < y->g_kn ? -1 : 1;
	return x->prio < y->prio ? -1 : x->prio > y->prio;
}

/* What the tree pass learnt of an event: a host event written as an op (frec), its
 * record parent; a linked GPU event, the op it is charged to and the launch's record. */
struct tr {
	int64_t		 parent, launcher, lts, via;	/* trace indexes; -1: none */
	uint32_t	 kn;
	uint8_t		 frec;
};

static int
by_kn(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int
by_tr(const void *a, const void *b)
{
	const struct tr *x = a, *y = b;

	return x->kn < y->kn ? -1 : x->kn > y->kn;
}

/* A GPU event below op p (by kept number): subtree_ns and subtree_kernels. */
struct sub {
	int64_t		 g_ts, g_end;
	uint32_t	 p_kn, p_name, g_idx, g_name;
};

static int
by_sub(const void *a, const void *b)
{
	const struct sub *x = a, *y = b;

	if (x->p_kn != y->p_kn)
		return x->p_kn < y->p_kn ? -1 : 1;
	if (x->g_ts != y->g_ts)
		return x->g_ts < y->g_ts ? -1 : 1;
	return x->g_idx < y->g_idx ? -1 : x->g_idx > y->g_idx;
}

/* An op's subtree: its kept number first (sorted by it). */
struct subres {
	uint32_t	 kn, ns;		/* ns: GPU events below it */
	int64_t		 busy;
	uint64_t	 off;			/* subtree_kernels in the text spool ... */
	uint32_t	 len;			/* ... (0: none) */
};

/* By Sequence number (docs/tracelens.md §1.4.6). */
struct sq {
	int64_t		 seq, ts;
	uint32_t	 idx, kn, thr;
	uint8_t		 bwd;
};

static int
by_sq(const void *a, const void *b)
{
	const struct sq *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct fw {
	uint32_t	 kn;			/* the backward op's */
	uint32_t	 fwd;			/* its forward op's trace index */
};

/* An output record. Output order: by time; a linked GPU event right after the op it is
 * charged to (its launcher's start and index, then its own start), ties by trace index:
 * (t, grp, sub, t2, idx). */
struct oi {
	int64_t		 t, t2;
	struct xev	 e;
	int64_t		 parent, fwd, launcher, via;	/* trace indexes; -1: none */
	int64_t		 busy;				/* subtree_ns */
	uint64_t	 soff;				/* subtree_kernels */
	uint32_t	 slen, ns;
	uint32_t	 grp;
	uint8_t		 sub;
};

static int
by_oi(const void *a, const void *b)
{
	const struct oi *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->grp != y->grp)
		return x->grp < y->grp ? -1 : 1;
	if (x->sub != y->sub)
		return x->sub < y->sub ? -1 : 1;
	if (x->t2 != y->t2)
		return x->t2 < y->t2 ? -1 : 1;
	return x->e.idx < y->e.idx ? -1 : x->e.idx > y->e.idx;
}

struct an {
	int64_t		 ts;
	uint32_t	 idx, name;
};

static int
by_an(const void *a, const void *b)
{
	const struct an *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The kept event kn, from the spool. */
static void
xev_get(struct kin *k, uint64_t kn, struct xev *x)
{
	memcpy(x, spool_get(k->fsp, kn * sizeof(*x), sizeof(*x)), sizeof(*x));
}

static bool
name_is(const struct kin *k, uint32_t name, const char *s)
{
	return strcmp(names_str(&k->names, name), s) == 0;
}

/* TraceLens's GEMM models read the transpose flags from the first kernel name that
 * parses among the op's whole subtree's GPU events by start time (compute_perf_metrics
 * sets kernel_details before the model reads it): for a GEMM-family op whose children
 * launch its kernels (aiter::gemm_a16w16 over aten::mm), "subtree_kernels" names them. */
static bool
is_gemm(const struct kin *k, uint32_t name)
{
	const struct opclass *oc = opclass_find(names_str(&k->names, name));

	return oc != NULL && oc->family != NULL && strcmp(oc->family, "GEMM") == 0;
}

static bool
is_host(int cat)
{
	return cat == C_CPU_OP || IS_LAUNCH(cat) || cat == C_PYTHON;
}

/* A group of records with one key (linking id, correlation, Sequence number): the
 * records that share it, held while it is read. */
struct group {
	void	*v;
	size_t	 n, cap, sz;
};

static void
group_add(struct group *g, const void *r)
{
	g->v = xgrow(g->v, &g->cap, g->n + 1, g->sz);
	memcpy((char *)g->v + g->n * g->sz, r, g->sz);
	g->n++;
}

/* One linking id's events and flows (§1.4.4): each GPU event linked to the last
 * launch (in trace order) that links it, through its flow or as a graph launch, as
 * link_gpu does. Returns how many GPU events it linked. */
static size_t
link_group(struct kin *k, const struct lk *g, size_t n, struct spsort *lr, int32_t **lnk,
    size_t *lcap)
{
	const struct lk *f = NULL, *last = NULL;
	bool has_s = false;
	int64_t tf = -1, t;
	size_t i, j, nl = 0;

	*lnk = xgrow(*lnk, lcap, n, sizeof(**lnk));
	for (i = 0; i < n; i++) {
		(*lnk)[i] = -1;
		if (g[i].kind == LK_S)
			has_s = true;
		else if (g[i].kind == LK_F)
			f = &g[i];
	}
	if (f != NULL) {
		int64_t key[2] = { f->pid, f->tid };

		if (imap_get(&k->thr, key, 2, &t))
			tf = t;
	}
	for (i = 0; i < n && tf >= 0; i++)
		if (g[i].kind == LK_EV && g[i].thr == (uint32_t)tf && g[i].pidok)
			last = &g[i];
	for (i = 0; i < n; i++) {
		if (g[i].kind != LK_EV || !IS_LAUNCH(g[i].cat))
			continue;
		if (!g[i].graph) {
			if (!has_s)
				continue;
			if (f == NULL) {
				k->n_flow_unpaired++;
				continue;
			}
			if (last != NULL && IS_GPU(last->cat)) {
				(*lnk)[last - g] = (int32_t)i;
				k->n_flow_links++;
			}
		} else
			for (j = 0; j < n; j++)
				if (g[j].kind == LK_EV && IS_GPU(g[j].cat))
					(*lnk)[j] = (int32_t)i;
	}
	for (j = 0; j < n; j++) {
		const struct lk *r, *x = &g[j];
		struct lr o;

		if ((*lnk)[j] < 0)
			continue;
		r = &g[(*lnk)[j]];
		memset(&o, 0, sizeof(o));
		o.g_kn = x->kn;
		o.g_ts = x->ts;
		o.g_dur = x->dur;
		o.g_idx = x->idx;
		o.g_name = x->name;
		o.g_comm = is_comm(names_str(&k->names, x->name));
		o.r_kn = r->kn;
		o.r_idx = r->idx;
		o.r_thr = r->thr;
		o.r_ts = r->ts;
		spsort_add(lr, &o);
		nl++;
	}
	return nl;
}

static void
lk_of(struct kin *k, const struct xev *x, uint32_t kn, int64_t lv, struct lk *o)
{
	memset(o, 0, sizeof(*o));
	o->lv = lv;
	o->ts = x->ts;
	o->dur = x->dur;
	o->idx = x->idx;
	o->kn = kn;
	o->thr = x->thr;
	o->name = x->name;
	o->kind = LK_EV;
	o->cat = x->cat;
	o->graph = IS_LAUNCH(x->cat) && is_graph_launch(names_str(&k->names, x->name));
	o->pidok = k->thr_pid[x->thr] != NOVAL && k->thr_tid[x->thr] != NOVAL;
}

/* No flow linked anything: the correlation fallback (link_by_corr), per correlation id
 * the last GPU event linked to the last launch. */
static void
link_corr_stream(struct kin *k, struct spsort *lr)
{
	struct spsort *cr = spsort_new(sizeof(struct lk), by_lk);
	const struct lk *p;
	struct lk o, g, r;
	struct xev x;
	uint64_t kn;
	bool hg = false, hr = false, any = false;
	int64_t cur = NOVAL;

	memset(&g, 0, sizeof(g));
	memset(&r, 0, sizeof(r));
	for (kn = 0; kn < k->nev; kn++) {
		xev_get(k, kn, &x);
		if (x.corr == NOVAL)
			continue;
		lk_of(k, &x, (uint32_t)kn, x.corr, &o);
		if (IS_GPU(x.cat) || (IS_LAUNCH(x.cat) && !o.graph))
			spsort_add(cr, &o);
	}
	for (;;) {
		p = spsort_next(cr);
		if ((p == NULL || !any || p->lv != cur) && hg && hr) {
			struct lr l;

			memset(&l, 0, sizeof(l));
			l.prio = 1;
			l.g_kn = g.kn;
			l.g_ts = g.ts;
			l.g_dur = g.dur;
			l.g_idx = g.idx;
			l.g_name = g.name;
			l.g_comm = is_comm(names_str(&k->names, g.name));
			l.r_kn = r.kn;
			l.r_idx = r.idx;
			l.r_thr = r.thr;
			l.r_ts = r.ts;
			spsort_add(lr, &l);
			k->linked_by_corr = true;
		}
		if (p == NULL)
			break;
		if (!any || p->lv != cur)
			hg = hr = false;
		any = true;
		cur = p->lv;
		if (IS_GPU(p->cat)) {
			g = *p;
			hg = true;
		} else {
			r = *p;
			hr = true;
		}
	}
	spsort_free(cr);
}

/* An entry of the per-thread stack of open host events. */
struct sent {
	int64_t		 ts;
	double		 t1;
	int64_t		 near;		/* the nearest op record at or below it (-1: none) */
	uint32_t	 idx, kn, name;
	uint8_t		 cat, frec;
};

/* The host event the tree pass read last, while its attached GPU events are read. */
struct cur {
	bool		 on;
	bool		 pushed;	/* it is the stack's top */
	bool		 charged;	/* its launcher is known */
	uint32_t	 kn, idx, name;
	int64_t		 ts;
	uint8_t		 cat, frec;
	int64_t		 rp;		/* its record parent */
	int64_t		 l, lts, via;
};

static void
cur_done(struct cur *c, struct spsort *trs)
{
	struct tr t;

	if (c->on && c->frec) {
		memset(&t, 0, sizeof(t));
		t.kn = c->kn;
		t.frec = 1;
		t.parent = c->rp;
		t.launcher = t.lts = t.via = -1;
		spsort_add(trs, &t);
	}
	c->on = false;
}

/* The host tree (build_tree's rules), per thread, and what find_launchers and
 * build_lists derive from it: each GPU event's op and launch, each op's subtree. */
static void
tree_stream(struct kin *k, struct spsort *tree, struct spsort *trs, struct spsort *subs)
{
	struct sent *st = NULL;
	size_t n = 0, cap = 0;
	struct cur c;
	const struct tn *p;
	uint32_t thr = UINT32_MAX;

	memset(&c, 0, sizeof(c));
	while ((p = spsort_next(tree)) != NULL) {
		if (p->thr != thr) {
			cur_done(&c, trs);
			n = 0;
			thr = p->thr;
		}
		if (p->sub == 0) {
			double ts = us_of(p->ts), te = us_of(p->ts) + us_of(p->dur);
			bool push = true;

			cur_done(&c, trs);
			while (n > 0 && ts >= st[n - 1].t1)
				n--;
			if (n > 0 && te > st[n - 1].t1) {
				if (st[n - 1].t1 - ts < 1.0 && n >= 2)
					n--;
				else
					push = false;
			}
			memset(&c, 0, sizeof(c));
			c.on = true;
			c.kn = p->kn;
			c.idx = p->idx;
			c.name = p->name;
			c.ts = p->ts;
			c.cat = p->cat;
			c.frec = p->cat == C_CPU_OP || p->cat == C_PYTHON;
			c.rp = push && n > 0 ? st[n - 1].near : -1;
			c.pushed = push;
			if (push) {
				struct sent *e;

				st = xgrow(st, &cap, n + 1, sizeof(*st));
				e = &st[n++];
				e->ts = p->ts;
				e->t1 = te;
				e->idx = p->idx;
				e->kn = p->kn;
				e->name = p->name;
				e->cat = p->cat;
				e->frec = c.frec;
				e->near = c.frec ? (int64_t)p->idx : c.rp;
			}
			continue;
		}
		/* a GPU event launched by c */
		if (!c.on || p->idx != c.idx || p->ts != c.ts)
			die(EXIT_DATA, "%s: internal error: a GPU event's launch out of order",
			    k->file);
		if (!c.charged) {
			size_t base = c.pushed ? n - 1 : 0, i;

			c.l = -1;
			for (i = base; i-- > 0;) {
				if (st[i].cat == C_PYTHON)
					continue;
				if (st[i].cat != C_CPU_OP)
					break;
				if (name_is(k, st[i].name, "execute"))
					continue;
				c.l = st[i].idx;
				c.lts = st[i].ts;
				break;
			}
			if (c.l < 0) {
				c.l = c.idx;
				c.lts = c.ts;
				c.frec = 1;
				if (c.pushed) {
					st[n - 1].frec = 1;
					st[n - 1].near = c.idx;
				}
			}
			c.via = c.frec ? (int64_t)c.idx : c.rp;
			if (c.via == c.l)
				c.via = -1;
			c.charged = true;
		}
		{
			struct tr t;
			struct sub s;
			size_t i;

			memset(&t, 0, sizeof(t));
			t.kn = p->kn;
			t.parent = -1;
			t.launcher = c.l;
			t.lts = c.lts;
			t.via = c.via;
			spsort_add(trs, &t);
			memset(&s, 0, sizeof(s));
			s.g_ts = p->gts;
			s.g_end = p->gts + p->dur;
			s.g_idx = p->gidx;
			s.g_name = p->name;
			if (c.frec) {
				s.p_kn = c.kn;
				s.p_name = c.name;
				spsort_add(subs, &s);
			}
			for (i = c.pushed ? n - 1 : 0; i-- > 0;)
				if (st[i].frec) {
					s.p_kn = st[i].kn;
					s.p_name = st[i].name;
					spsort_add(subs, &s);
				}
		}
	}
	cur_done(&c, trs);
	free(st);
}

/* Each op's subtree: the busy time of the GPU events below it and, for a GEMM-family op,
 * their names in time order (subtree_kernels). */
static void
sub_stream(struct kin *k, struct spsort *subs, struct spsort *res, struct spool *txt)
{
	const struct sub *p;
	struct subres r;
	struct js_writer w;
	int64_t a = 0, b = 0;
	bool on = false, gemm = false;

	memset(&r, 0, sizeof(r));
	for (;;) {
		p = spsort_next(subs);
		if (on && (p == NULL || p->p_kn != r.kn)) {
			r.busy += b - a;
			if (gemm) {
				js_w_end_array(&w);
				r.off = spool_add(txt, k->tmp.p, k->tmp.len);
				r.len = (uint32_t)k->tmp.len;
			}
			spsort_add(res, &r);
			on = false;
		}
		if (p == NULL)
			break;
		if (!on) {
			memset(&r, 0, sizeof(r));
			r.kn = p->p_kn;
			a = p->g_ts;
			b = p->g_end;
			on = true;
			gemm = is_gemm(k, p->p_name);
			if (gemm) {
				buf_reset(&k->tmp);
				js_w_init(&w, &k->tmp);
				js_w_array(&w);
			}
		} else if (p->g_ts <= b) {
			if (p->g_end > b)
				b = p->g_end;
		} else {
			r.busy += b - a;
			a = p->g_ts;
			b = p->g_end;
		}
		r.ns++;
		if (gemm)
			js_w_str(&w, k->names.str[p->g_name], k->names.len[p->g_name]);
	}
}

/* §1.4.6, as link_fwd_bwd: per Sequence number, the backward op and its forward. */
static void
fwd_stream(struct kin *k, struct spsort *sqs, struct spsort *fws)
{
	struct group g = { NULL, 0, 0, sizeof(struct sq) };
	const struct sq *p;
	size_t i;

	for (;;) {
		p = spsort_next(sqs);
		if (g.n > 0 && (p == NULL || p->seq != ((struct sq *)g.v)[0].seq)) {
			const struct sq *v = g.v, *bwd = NULL, *fwd = NULL;

			for (i = 0; i < g.n && bwd == NULL; i++)
				if (v[i].bwd)
					bwd = &v[i];
			for (i = 0; bwd != NULL && i < g.n; i++) {
				if (v[i].thr == bwd->thr)
					continue;
				if (fwd == NULL || v[i].ts > fwd->ts)
					fwd = &v[i];
			}
			if (fwd != NULL) {
				struct fw f = { bwd->kn, fwd->idx };

				spsort_add(fws, &f);
			}
			g.n = 0;
		}
		if (p == NULL)
			break;
		group_add(&g, p);
	}
	free(g.v);
}

/* "kernels" of an op: its GPU events g[0..n), in time order. */
static void
set_kernels(struct kin *k, struct rec *r, const struct oi *g, size_t n)
{
	struct js_writer w;
	size_t i;

	buf_reset(&k->tmp);
	js_w_init(&w, &k->tmp);
	js_w_array(&w);
	for (i = 0; i < n; i++) {
		const struct xev *e = &g[i].e;

		js_w_object(&w);
		js_w_key(&w, "id");
		js_w_int(&w, e->idx);
		js_w_key(&w, "name");
		js_w_str(&w, k->names.str[e->name], k->names.len[e->name]);
		if (e->stream != NOVAL) {
			js_w_key(&w, "stream");
			js_w_int(&w, e->stream);
		}
		js_w_key(&w, "start_ns");
		js_w_int(&w, e->ts);
		js_w_key(&w, "ns");
		js_w_int(&w, e->dur);
		js_w_key(&w, "class");
		js_w_strz(&w, gpu_class_of(k, e->name, e->cat, e->flags));
		js_w_end_object(&w);
	}
	js_w_end_array(&w);
	rec_set_raw(r, "kernels", k->tmp.p, k->tmp.len);
}

/* An op's record from its output item and its GPU events g[0..n) (time order): own
 * kernels, device_ns and the launcher flag from them, the rest from the item. */
static void
write_op(struct kin *k, const struct oi *o, const struct oi *g, size_t n,
    struct spool *txt)
{
	const struct xev *v = &o->e;
	struct rec *r = new_rec_idx(k, "op", v->idx);
	int64_t a = 0, b = 0, busy = 0;
	size_t i, nc = 0;

	set_name(k, r, "op", v->name);
	rec_set_str(r, "cat", catname[v->cat]);
	if (o->parent >= 0)
		rec_set_int(r, "parent", o->parent);
	for (i = 0; i < n; i++) {	/* busy time of the non-communication ones */
		const struct xev *e = &g[i].e;

		if (e->flags & F_COMM)
			continue;
		if (nc++ == 0) {
			a = e->ts;
			b = e->ts + e->dur;
		} else if (e->ts <= b) {
			if (e->ts + e->dur > b)
				b = e->ts + e->dur;
		} else {
			busy += b - a;
			a = e->ts;
			b = e->ts + e->dur;
		}
	}
	rec_set_bool(r, "launcher", nc > 0);
	rec_set_int(r, "host_start_ns", v->ts);
	rec_set_int(r, "host_end_ns", v->ts + v->dur);
	if (nc > 0)
		rec_set_int(r, "device_ns", busy + (b - a));
	if (o->ns > 0)
		rec_set_int(r, "subtree_ns", o->busy);
	if (n > 0)
		set_kernels(k, r, g, n);
	if (o->ns > n && o->slen > 0)
		rec_set_raw(r, "subtree_kernels", spool_get(txt, o->soff, o->slen), o->slen);
	if (v->in_len > 0)
		rec_set_raw(r, "in", spool_get(k->sp, v->in_off, v->in_len), v->in_len);
	set_thread_thr(k, r, v->thr);
	if (v->seq != NOVAL)
		rec_set_int(r, "seq", v->seq);
	if (o->fwd >= 0)
		rec_set_int(r, "fwd", o->fwd);
	set_id(k, r, "ext", v->ext);
	rec_write(r, k->out);
	rec_free(r);
}

static void
write_gpu(struct kin *k, const struct oi *o)
{
	const struct xev *g = &o->e;
	struct rec *r = new_rec_idx(k, "gpu", g->idx);

	set_name(k, r, "name", g->name);
	rec_set_str(r, "gpu", gpu_kind(g->cat));
	rec_set_str(r, "class", gpu_class_of(k, g->name, g->cat, g->flags));
	if (g->stream != NOVAL)
		rec_set_int(r, "stream", g->stream);
	if (g->device != NOVAL)
		rec_set_int(r, "device", g->device);
	rec_set_int(r, "start_ns", g->ts);
	rec_set_int(r, "ns", g->dur);
	if (o->launcher >= 0) {
		rec_set_int(r, "launched_by", o->launcher);
		if (o->via >= 0)
			rec_set_int(r, "launch_via", o->via);
	}
	set_id(k, r, "correlation", g->corr);
	if (g->in_len > 0)
		rec_set_raw(r, "comm", spool_get(k->sp, g->in_off, g->in_len), g->in_len);
	rec_write(r, k->out);
	rec_free(r);
}

static void
write_signpost(struct kin *k, const struct oi *o)
{
	const struct xev *v = &o->e;
	struct rec *r = new_rec_idx(k, "signpost", v->idx);

	set_name(k, r, "name", v->name);
	rec_set_int(r, "host_start_ns", v->ts);
	rec_set_int(r, "host_end_ns", v->ts + v->dur);
	set_thread_thr(k, r, v->thr);
	rec_write(r, k->out);
	rec_free(r);
}

/* The events joined with what the passes learnt of them (all sorted by kept number),
 * each record to write as an output item; the signposts apart. */
static void
join_stream(struct kin *k, struct spsort *trs, struct spsort *fws, struct spsort *res,
    struct spsort *out, struct spsort *ans)
{
	const struct tr *t = spsort_next(trs);
	const struct fw *f = spsort_next(fws);
	const struct subres *s = spsort_next(res);
	uint64_t kn;
	struct oi o;

	for (kn = 0; kn < k->nev; kn++) {
		bool frec = false;

		memset(&o, 0, sizeof(o));
		xev_get(k, kn, &o.e);
		o.parent = o.fwd = o.launcher = o.via = -1;
		while (t != NULL && t->kn < kn)
			t = spsort_next(trs);
		while (f != NULL && f->kn < kn)
			f = spsort_next(fws);
		while (s != NULL && s->kn < kn)
			s = spsort_next(res);
		if (t != NULL && t->kn == kn) {
			frec = t->frec;
			o.parent = t->parent;
			o.launcher = t->launcher;
			o.via = t->via;
			if (t->launcher >= 0) {
				o.t = t->lts;
				o.grp = (uint32_t)t->launcher;
				o.sub = 1;
				o.t2 = o.e.ts;
			}
		}
		if (IS_GPU(o.e.cat)) {
			if (is_comm(names_str(&k->names, o.e.name)))
				o.e.flags |= F_COMM;
			if (o.launcher < 0) {
				o.t = o.e.ts;
				o.grp = o.e.idx;
			}
			spsort_add(out, &o);
			continue;
		}
		if (o.e.cat == C_ANNOT) {
			struct an a = { o.e.ts, o.e.idx, o.e.name };

			o.t = o.e.ts;
			o.grp = o.e.idx;
			spsort_add(out, &o);
			spsort_add(ans, &a);
			continue;
		}
		if (!frec)
			continue;
		o.t = o.e.ts;
		o.grp = o.e.idx;
		if (f != NULL && f->kn == kn)
			o.fwd = f->fwd;
		if (s != NULL && s->kn == kn) {
			o.ns = s->ns;
			o.busy = s->busy;
			o.soff = s->off;
			o.slen = s->len;
		}
		spsort_add(out, &o);
	}
}

static void
write_stream(struct kin *k, struct spsort *out, struct spsort *ans, struct spool *txt)
{
	struct buf sig = BUF_INIT;
	struct js_writer w;
	const struct an *a;
	const struct oi *p;
	struct oi *g = NULL, cur;
	size_t ng, cap = 0, i;

	js_w_init(&w, &sig);
	js_w_array(&w);
	while ((a = spsort_next(ans)) != NULL)
		js_w_str(&w, k->names.str[a->name], k->names.len[a->name]);
	js_w_end_array(&w);
	write_trace_rec(k, &sig);
	write_groups(k);
	buf_free(&sig);
	p = spsort_next(out);
	while (p != NULL) {
		cur = *p;
		if (IS_GPU(cur.e.cat)) {
			write_gpu(k, &cur);
			p = spsort_next(out);
			continue;
		}
		if (cur.e.cat == C_ANNOT) {
			write_signpost(k, &cur);
			p = spsort_next(out);
			continue;
		}
		/* an op: its own GPU events follow it */
		ng = 0;
		while ((p = spsort_next(out)) != NULL && p->sub == 1 && p->grp == cur.e.idx) {
			g = xgrow(g, &cap, ng + 1, sizeof(*g));
			g[ng++] = *p;
		}
		write_op(k, &cur, g, ng, txt);
		for (i = 0; i < ng; i++)
			write_gpu(k, &g[i]);
	}
	free(g);
}

/*
 * The in-memory path's records (with a capture folder): each op, GPU event and
 * annotation an output item with what the tree and the lists say of it, written by
 * write_stream as the streaming path's are.
 */
static void
write_records(struct kin *k)
{
	struct spsort *out = spsort_new(sizeof(struct oi), by_oi);
	struct spsort *ans = spsort_new(sizeof(struct an), by_an);
	struct spool *txt = spool_open();
	struct span *tmp = NULL;
	struct lists L;
	size_t i, cap = 0;

	build_lists(k, &L);
	k->own_tmp = xreallocarray(NULL, k->nev + 1, sizeof(*k->own_tmp));
	for (i = 0; i < k->nev; i++) {
		const struct kev *v = KEV(k, i);
		struct oi o;

		if (!(v->flags & F_REC) && !IS_GPU(v->cat) && v->cat != C_ANNOT)
			continue;
		memset(&o, 0, sizeof(o));
		o.e.ts = v->ts;
		o.e.dur = KEV_DUR(k, v);
		o.e.corr = kv_get(k, v->corr);
		o.e.ext = kv_get(k, v->ext);
		o.e.seq = kv_get(k, v->seq);
		o.e.stream = kv_get(k, v->stream);
		o.e.device = kv_get(k, v->device);
		o.e.in_off = v->in_off;
		o.e.in_len = v->in_len;
		o.e.idx = v->idx;
		o.e.name = v->name;
		o.e.thr = v->thr;
		o.e.cat = v->cat;
		o.e.flags = v->flags;
		o.parent = o.fwd = o.launcher = o.via = -1;
		o.t = v->ts;
		o.grp = v->idx;
		if (IS_GPU(v->cat)) {
			if (v->launcher >= 0) {
				const struct kev *l = KEV(k, v->launcher);
				int32_t via = v->linker;

				o.t = l->ts;
				o.grp = l->idx;
				o.sub = 1;
				o.t2 = v->ts;
				o.launcher = l->idx;
				/* python frames between the launching op and the launch */
				if (!(KEV(k, via)->flags & F_REC))
					via = rec_parent(k, KEV(k, via));
				if (via >= 0 && via != v->launcher)
					o.via = KEV(k, via)->idx;
			}
		} else if (v->cat == C_ANNOT) {
			struct an a;

			memset(&a, 0, sizeof(a));
			a.ts = v->ts;
			a.idx = v->idx;
			a.name = v->name;
			spsort_add(ans, &a);
		} else {
			int32_t p = rec_parent(k, v);
			size_t ns = L.sub_at[i + 1] - L.sub_at[i];

			if (p >= 0)
				o.parent = KEV(k, p)->idx;
			if (v->fwd >= 0)
				o.fwd = KEV(k, v->fwd)->idx;
			o.ns = (uint32_t)ns;
			if (ns > 0)
				o.busy = busy_ns(k, L.sub + L.sub_at[i], ns, &tmp, &cap);
			if (ns > 0 && is_gemm(k, v->name)) {
				struct js_writer w;
				size_t j;

				memcpy(k->own_tmp, L.sub + L.sub_at[i], ns * sizeof(*k->own_tmp));
				kin_sort_by_ts(k, k->own_tmp, ns);
				buf_reset(&k->tmp);
				js_w_init(&w, &k->tmp);
				js_w_array(&w);
				for (j = 0; j < ns; j++) {
					const struct kev *g = KEV(k, k->own_tmp[j]);

					js_w_str(&w, k->names.str[g->name], k->names.len[g->name]);
				}
				js_w_end_array(&w);
				o.soff = spool_add(txt, k->tmp.p, k->tmp.len);
				o.slen = (uint32_t)k->tmp.len;
			}
		}
		spsort_add(out, &o);
	}
	free(tmp);
	free(k->own_tmp);
	k->own_tmp = NULL;
	free_lists(&L);
	write_stream(k, out, ans, txt);
	spsort_free(out);
	spsort_free(ans);
	spool_close(txt);
}

/*
 * The records of a trace read into k->fsp and k->lk (no capture folder), by external
 * sorts: the links by linking id (and correlation), the tree per thread with each
 * launch's GPU events attached, the subtrees by op, the Sequence numbers, then every
 * output record in by_oi's order. The same records as the in-memory path's
 * (write_records), in the same order.
 */
static void
stream_records(struct kin *k)
{
	struct spsort *tree = spsort_new(sizeof(struct tn), by_tn);
	struct spsort *sqs = spsort_new(sizeof(struct sq), by_sq);
	struct spsort *lr, *trs, *subs, *res, *fws, *out, *ans;
	struct spool *txt;
	struct group grp = { NULL, 0, 0, sizeof(struct lk) };
	int32_t *lnk = NULL;
	size_t lcap = 0, nlinked = 0;
	const struct lk *q;
	const struct lr *l;
	struct xev x;
	uint64_t kn;

	/* the events by linking id, by thread and time, by Sequence number */
	k->n_gpu = 0;
	for (kn = 0; kn < k->nev; kn++) {
		int64_t lv;

		xev_get(k, kn, &x);
		lv = k->key_corr ? x.corr : x.ext;
		if (IS_GPU(x.cat))
			k->n_gpu++;
		if (lv != NOVAL) {
			struct lk o;

			lk_of(k, &x, (uint32_t)kn, lv, &o);
			spsort_add(k->lk, &o);
		}
		if (is_host(x.cat)) {
			struct tn t;

			memset(&t, 0, sizeof(t));
			t.thr = x.thr;
			t.ts = x.ts;
			t.idx = x.idx;
			t.kn = (uint32_t)kn;
			t.dur = x.dur;
			t.name = x.name;
			t.cat = x.cat;
			spsort_add(tree, &t);
		}
		if (x.seq != NOVAL) {
			static const char pre[] = "autograd::engine::evaluate_function:";
			struct sq o;

			memset(&o, 0, sizeof(o));
			o.seq = x.seq;
			o.ts = x.ts;
			o.idx = x.idx;
			o.kn = (uint32_t)kn;
			o.thr = x.thr;
			o.bwd = strncmp(names_str(&k->names, x.name), pre, sizeof(pre) - 1) == 0;
			spsort_add(sqs, &o);
		}
	}
	/* the links, per linking id */
	lr = spsort_new(sizeof(struct lr), by_lr);
	for (;;) {
		q = spsort_next(k->lk);
		if (grp.n > 0 && (q == NULL || q->lv != ((struct lk *)grp.v)[0].lv)) {
			nlinked += link_group(k, grp.v, grp.n, lr, &lnk, &lcap);
			grp.n = 0;
		}
		if (q == NULL)
			break;
		group_add(&grp, q);
	}
	free(grp.v);
	free(lnk);
	spsort_free(k->lk);
	k->lk = NULL;
	if (k->n_flow_links == 0 && k->n_gpu > nlinked)
		link_corr_stream(k, lr);
	/* each GPU event's final link, attached to its launch in the tree order */
	nlinked = 0;
	l = spsort_next(lr);
	while (l != NULL) {
		struct lr keep = *l;
		struct tn t;

		while ((l = spsort_next(lr)) != NULL && l->g_kn == keep.g_kn)
			keep = *l;
		memset(&t, 0, sizeof(t));
		t.thr = keep.r_thr;
		t.ts = keep.r_ts;
		t.idx = keep.r_idx;
		t.sub = 1;
		t.gidx = keep.g_idx;
		t.kn = keep.g_kn;
		t.dur = keep.g_dur;
		t.gts = keep.g_ts;
		t.name = keep.g_name;
		t.comm = keep.g_comm;
		spsort_add(tree, &t);
		nlinked++;
	}
	spsort_free(lr);
	k->n_unlinked = k->n_gpu - nlinked;
	/* the tree */
	trs = spsort_new(sizeof(struct tr), by_tr);
	subs = spsort_new(sizeof(struct sub), by_sub);
	tree_stream(k, tree, trs, subs);
	spsort_free(tree);
	res = spsort_new(sizeof(struct subres), by_kn);
	txt = spool_open();
	sub_stream(k, subs, res, txt);
	spsort_free(subs);
	fws = spsort_new(sizeof(struct fw), by_kn);
	fwd_stream(k, sqs, fws);
	spsort_free(sqs);
	/* the records, in output order */
	out = spsort_new(sizeof(struct oi), by_oi);
	ans = spsort_new(sizeof(struct an), by_an);
	join_stream(k, trs, fws, res, out, ans);
	spsort_free(trs);
	spsort_free(fws);
	spsort_free(res);
	write_stream(k, out, ans, txt);
	spsort_free(out);
	spsort_free(ans);
	spool_close(txt);
}

/* --- the whole job ------------------------------------------------------------------------- */

void
kin_free(struct kin *k)
{
	size_t c;
	int a;

	if (k->rd != NULL)
		js_close(k->rd);
	for (c = 0; c < k->nevc; c++)
		free(k->evc[c]);
	free(k->evc);
	free(k->wide);
	imap_free(&k->thr);
	free(k->thr_pid);
	free(k->thr_tid);
	names_free(&k->names);
	names_free(&k->strs);
	names_free(&k->ign_cats);
	free(k->ign_n);
	imap_free(&k->flow_s);
	imap_free(&k->flow_f);
	free(k->f_pid);
	free(k->f_tid);
	imap_free(&k->thread_name);
	imap_free(&k->process_name);
	imap_free(&k->process_label);
	spool_close(k->sp);
	spool_close(k->fsp);
	spsort_free(k->lk);
	buf_free(&k->devices);
	buf_free(&k->dist);
	buf_free(&k->tmp);
	buf_free(&k->t.name);
	buf_free(&k->t.mname);
	buf_free(&k->t.labels);
	buf_free(&k->t.kern);
	buf_free(&k->t.comm);
	buf_free(&k->t.commval);
	buf_free(&k->t.comm_nr);
	buf_free(&k->t.pgname);
	buf_free(&k->t.pgranks);
	names_free(&k->pg);
	names_free(&k->pgr);
	free(k->pg_ranks);
	for (a = 0; a < NARGS; a++) {
		buf_free(&k->t.arg[a].text);
		free(k->t.arg[a].start);
		free(k->t.arg[a].len);
	}
	error_free(&k->err);
}

/* read_trace; false when it failed (k->err). */
static bool
read_guarded(struct kin *k)
{
	if (setjmp(k->fail) != 0)
		return false;
	read_trace(k);
	return true;
}

struct kin *
kin_load(const char *path, const struct kineto_opts *o, struct error *err)
{
	struct kin *k;
	FILE *fp = io_open_error(path, err);

	if (fp == NULL)
		return NULL;
	k = xcalloc(1, sizeof(*k));
	k->err = (struct error)ERROR_INIT;
	k->o = o;
	k->file = path;
	k->rank = -1;
	k->rd = js_open_fp(fp);
	k->sp = spool_open();
	names_init(&k->pg);
	names_init(&k->pgr);
	names_init(&k->names);
	names_init(&k->strs);
	names_init(&k->ign_cats);
	if (!read_guarded(k)) {
		error_move(err, &k->err);
		kin_free(k);
		free(k);
		io_close(fp);
		return NULL;
	}
	js_close(k->rd);
	k->rd = NULL;
	io_close(fp);
	build_tree(k);
	return k;
}

/* The trace's rank (kineto.h): set k->rank, or an error when another trace has it. */
static int
resolve_rank(struct kin *k, int pos, struct error *err)
{
	struct kineto_ranks *c = k->o->claimed;
	long long r = coll_trace_rank(k->has_dist ? k->dist.p : NULL, k->dist.len,
	    k->o->has_rank ? k->o->rank : -1, k->file, NULL);
	size_t i;

	if (r < 0)
		r = pos;
	k->rank = (int)r;
	if (r < 0 || c == NULL)
		return 0;
	for (i = 0; i < c->n; i++)
		if (c->rank[i] == r) {
			error_set(err, k->file, 0, -1, "rank %lld again: %s is rank %lld "
			    "already (one trace per rank; give each its own --rank, or "
			    "parse them apart)", r, c->file[i], r);
			return -1;
		}
	c->rank = xgrow(c->rank, &c->cap, c->n + 1, sizeof(*c->rank));
	c->file = xreallocarray(c->file, c->cap, sizeof(*c->file));
	c->rank[c->n] = r;
	c->file[c->n++] = xstrdup(k->file);
	return 0;
}

void
kineto_ranks_free(struct kineto_ranks *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->file[i]);
	free(c->rank);
	free(c->file);
	memset(c, 0, sizeof(*c));
}

int
kineto_parse(FILE *fp, const char *name, int pos, const struct kineto_opts *o, FILE *out,
    struct error *err)
{
	struct kin k;
	struct kineto_opts po = *o;

	if (o->capture != NULL)
		po.python = 1;	/* TraceLens merges with python frames in both trees */
	o = &po;
	memset(&k, 0, sizeof(k));
	k.err = (struct error)ERROR_INIT;
	k.o = o;
	k.out = out;
	k.file = name;
	k.rank = -1;
	k.pg_records = true;
	k.rd = js_open_fp(fp);
	k.sp = spool_open();
	names_init(&k.pg);
	names_init(&k.pgr);
	names_init(&k.names);
	names_init(&k.strs);
	names_init(&k.ign_cats);
	if (o->capture == NULL) {
		k.stream = true;
		k.fsp = spool_open();
		k.lk = spsort_new(sizeof(struct lk), by_lk);
	}
	if (!read_guarded(&k)) {
		error_move(err, &k.err);
		kin_free(&k);
		return -1;
	}
	if (resolve_rank(&k, pos, err) != 0) {
		kin_free(&k);
		return -1;
	}
	if (k.stream) {
		js_close(k.rd);
		k.rd = NULL;
		stream_records(&k);
		goto done;
	}
	build_tree(&k);
	link_gpu(&k);
	link_fwd_bwd(&k);
	if (o->capture != NULL && merge_captures(&k, o->capture) != 0) {
		error_move(err, &k.err);
		kin_free(&k);
		return -1;
	}
	find_launchers(&k);
	write_records(&k);
done:
	if (o->verbose)
		note("%s: %u events; %zu GPU events, %zu unlinked (linked by %s); %zu events "
		    "of other kinds ignored; %zu flows without their finish", name, k.nevents,
		    k.n_gpu, k.n_unlinked, k.linked_by_corr ? "correlation: the trace has no "
		    "flow that reaches a GPU event" : "flows and graph launches", k.n_ignored,
		    k.n_flow_unpaired);
	kin_free(&k);
	return 0;
}
