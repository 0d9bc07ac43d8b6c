/* SPDX-License-Identifier: ISC */
/*
 * kinread: the Kineto reader's first step, a trace's JSON text to kept events (the state
 * and the steps after it: kinpriv.h). One pass over the document (read_trace), one event
 * at a time through the core tokenizer: the event's keys into k->t (read_event,
 * read_args), its kind from its category, older Kineto's names included (cat_of), then
 * what the records need kept (keep_event): metadata as the names of threads and
 * processes, ac2g flows by id, every other event as a summary, a struct kev in k->evc
 * (the in-memory path, with a capture folder) or a struct xev in k->fsp and its linking
 * ids in k->lk (the streaming path); a CPU op's argument lists and a collective's args
 * as JSON text in k->sp. Also deviceProperties and distributedInfo, as written. Times
 * are exact nanoseconds, converted from the microseconds' decimal text (us_to_ns).
 *
 * Bad input is found only here: kfail keeps the error in the state and unwinds to
 * kin_read with longjmp; everything the read allocated hangs off the state, which the
 * caller frees (no record has been written then).
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
#include "core/json.h"
#include "core/names.h"
#include "core/spool.h"
#include "torch/kineto.h"
#include "kinpriv.h"

const char *const kin_catname[] = {
	"other", "cpu_op", "cuda_runtime", "cuda_driver", "python_function", "kernel",
	"gpu_memcpy", "gpu_memset", "ac2g", "user_annotation", "metadata"
};

static const char *const inkey[NARGS] = { "shape", "dtype", "strides", "value" };

/* --- small helpers ------------------------------------------------------------------ */

/* The times kept, ts and ts + dur in ns, lie within +-TMAX (146 years around 0): every
 * difference and every sum of a start and a length fits in 64 bits. */
#define TMAX	((int64_t)1 << 62)

/* Bad input at byte off (-1: no offset): back to kin_read, which returns it. */
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

/* --- reading events ----------------------------------------------------------------- */

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
		if (kin_catname[c][0] == s[0] && strlen(kin_catname[c]) == n &&
		    memcmp(kin_catname[c], s, n) == 0)
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

/* --- keeping events: in memory (struct kev) or streamed (struct xev) ---------------- */

static void check_event(struct kin *k, uint32_t idx);
static void spool_comm(struct kin *k, uint64_t *in_off, uint32_t *in_len);

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
		ignore_cat(k, kin_catname[C_AC2G], strlen(kin_catname[C_AC2G]));
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
		    kin_catname[e->cat]);
	if (!e->has_dur)
		kfail_at(k, (long long)e->off, "traceEvents[%u]: %s event without \"dur\"", idx,
		    kin_catname[e->cat]);
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

/* read_trace, its bad input caught: false when it failed (k->err). */
bool
kin_read(struct kin *k)
{
	if (setjmp(k->fail) != 0)
		return false;
	read_trace(k);
	return true;
}
