/* SPDX-License-Identifier: ISC */
/*
 * kineto: PyTorch profiler traces to records (see torch/kineto.h). Three steps: read the
 * events into compact summaries (read_trace), build the host tree and the GPU links
 * (build_tree, link_gpu, find_launchers, link_fwd_bwd), write the records in time order
 * (write_records). The rules are TraceLens's (spec/tracelens.md §1.4-1.5).
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
#include <dirent.h>
#include <errno.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/json.h"
#include "core/names.h"
#include "core/rec.h"
#include "core/spool.h"
#include "phase/step.h"
#include "torch/kineto.h"
#include "torch/opclass.h"

#define NOVAL	INT64_MIN		/* an absent integer */
#define STRVAL	(INT64_MIN + 1)		/* pid/tid/ids that are strings: STRVAL + index */
#define STRMAX	(STRVAL + (int64_t)UINT32_MAX)

enum cat {
	C_OTHER, C_CPU_OP, C_RUNTIME, C_DRIVER, C_PYTHON, C_KERNEL, C_MEMCPY, C_MEMSET,
	C_AC2G, C_ANNOT, C_META
};

static const char *const catname[] = {
	"other", "cpu_op", "cuda_runtime", "cuda_driver", "python_function", "kernel",
	"gpu_memcpy", "gpu_memset", "ac2g", "user_annotation", "metadata"
};

#define IS_GPU(c)	((c) == C_KERNEL || (c) == C_MEMCPY || (c) == C_MEMSET)
#define IS_LAUNCH(c)	((c) == C_RUNTIME || (c) == C_DRIVER)

enum {
	F_REC = 1,		/* written as an op record */
	F_LAUNCHER = 2,		/* launches a non-communication GPU event (spec §1.5) */
	F_COMM = 4,		/* GPU event: a communication kernel */
	F_HASCORR = 8,		/* args had "correlation" */
	F_DUR = 16		/* has a duration */
};

/* One kept event. */
struct kev {
	int64_t		 ts, dur;		/* ns */
	int64_t		 pid, tid;
	int64_t		 corr, ext, seq;
	int64_t		 stream, device;
	uint64_t	 in_off;		/* the spooled "in" array */
	uint32_t	 in_len;
	uint32_t	 idx;			/* index in traceEvents */
	uint32_t	 name;
	uint32_t	 kname;			/* a launch's args.kernel, or NAME_NONE */
	int32_t		 parent;		/* host tree parent (kev index) */
	int32_t		 linker;		/* GPU: the launch event that linked it */
	int32_t		 launcher;		/* GPU: the op it is charged to */
	int32_t		 fwd;			/* backward op: its forward op */
	int32_t		 gnext;			/* GPU: next with the same linking id */
	uint8_t		 cat, flags;
};

/* An integer-keyed map over the interned-name table: keys are byte strings of int64s. */
struct imap {
	struct names	 nm;
	int64_t		*val;
	size_t		 cap;
};

/* An argument list captured element by element (Input Dims, Input type, ...). */
struct arglist {
	struct buf	 text;
	size_t		*start, *len;
	size_t		 n, cap;
	bool		 present;
};

enum { A_DIMS, A_TYPE, A_STRIDES, A_CONCRETE, NARGS };
static const char *const inkey[NARGS] = { "shape", "dtype", "strides", "value" };

/* The event being read. */
struct etmp {
	int		 cat;
	char		 ph;
	struct buf	 name;
	bool		 has_name, has_ts, has_dur;
	int64_t		 ts, dur, pid, tid, id, corr, ext, seq, stream, device;
	struct buf	 mname, labels;		/* metadata events' args */
	bool		 has_mname, has_labels;
	struct buf	 kern;			/* a launch's args.kernel */
	bool		 has_kern;
	struct arglist	 arg[NARGS];
	struct buf	 comm;			/* a collective's args (commkey[]), as JSON members */
	uint64_t	 off;			/* byte offset of the event */
};

struct kin {
	const struct kineto_opts *o;
	const char	*file;
	int		 rank;
	struct js_reader *rd;
	struct kev	*ev;
	size_t		 nev, capev;
	uint32_t	 nevents;		/* events in traceEvents */
	struct names	 names;			/* event names */
	struct names	 strs;			/* string ids */
	struct imap	 flow_s, flow_f;	/* ac2g flows by id; f: its (pid, tid) */
	int64_t		*f_pid, *f_tid;
	struct imap	 thread_name, process_name, process_label;
	int		 key_decided, key_corr;	/* the linking key (spec §1.4.1) */
	struct spool	*sp;
	struct buf	 devices;		/* deviceProperties as records' JSON */
	struct buf	 dist;			/* distributedInfo as written */
	bool		 has_events, has_dist, has_cpu_op;
	size_t		 n_ignored, n_flow_unpaired, n_gpu, n_unlinked, n_inexact;
	struct etmp	 t;
	struct buf	 tmp;
	int32_t		*own_tmp;		/* an op's non-communication GPU events */
	struct error	 err;			/* bad input, and where read_trace ... */
	jmp_buf		 fail;			/* ... returns it (kfail) */
	const char	*cap_folder;		/* captures merged from this folder */
	bool		 cap_classified;	/* ... which had no execution_details.json */
	size_t		 cap_events, cap_merged;
};

/* --- small helpers -------------------------------------------------------------------- */

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

static int
cat_of(struct kin *k)
{
	size_t n;
	const char *s = js_str(k->rd, &n);
	int c;

	for (c = C_CPU_OP; c <= C_ANNOT; c++)
		if (catname[c][0] == s[0] && strlen(catname[c]) == n &&
		    memcmp(catname[c], s, n) == 0)
			return c;
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

/* The args of a communication kernel that coll_analysis reads (spec tracelens.md §1.3,
 * §7.8): kept verbatim in the gpu record's "comm" object. */
static const char *const commkey[] = {
	"Process Group Name", "Process Group Description", "Process Group Ranks",
	"Collective name", "Group size", "dtype", "In msg nelems", "Out msg nelems",
	"In split size", "Out split size", NULL
};

static const char *
comm_key(struct kin *k)
{
	size_t n, i;
	const char *s = js_str(k->rd, &n);

	for (i = 0; commkey[i]; i++)
		if (strlen(commkey[i]) == n && memcmp(commkey[i], s, n) == 0)
			return commkey[i];
	return NULL;
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
	enum js_tok t;

	if (js_tok(k->rd) != JS_OBJECT) {
		skip(k);
		return;
	}
	buf_reset(&e->comm);
	while ((t = next(k)) == JS_KEY) {
		int key = key_of(k);
		const char *ck = key == K_OTHER ? comm_key(k) : NULL;

		t = next(k);
		if (ck != NULL) {
			struct js_writer w;

			if (e->comm.len > 0)
				buf_add(&e->comm, ",", 1);
			js_w_init(&w, &e->comm);
			js_w_strz(&w, ck);
			buf_add(&e->comm, ":", 1);
			if (js_capture(k->rd, &e->comm) == JS_ERROR)
				kfail_json(k);
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
	for (a = 0; a < NARGS; a++)
		e->arg[a].present = false;
}

/* The "in" array of a CPU op: one object per argument, zipped from the four lists. */
static void
spool_in(struct kin *k, struct kev *v)
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
	v->in_off = spool_add(k->sp, k->tmp.p, k->tmp.len);
	v->in_len = (uint32_t)k->tmp.len;
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

/* The event just read: keep what the records need. */
static void
keep_event(struct kin *k, uint32_t idx)
{
	struct etmp *e = &k->t;
	struct kev *v;
	int64_t key[3];

	if (e->ph == 'M') {
		if (!e->has_name || e->pid == NOVAL)
			return;
		key[0] = e->pid;
		key[1] = e->tid;
		if (e->name.len == 11 && memcmp(e->name.p, "thread_name", 11) == 0 &&
		    e->has_mname)
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
		return;
	}
	if (e->cat == C_AC2G) {
		if (e->id == NOVAL || (e->ph != 's' && e->ph != 'f')) {
			k->n_ignored++;
			return;
		}
		key[0] = e->id;
		if (e->ph == 's')
			imap_put(&k->flow_s, key, 1, 1);
		else {
			uint32_t i = imap_slot(&k->flow_f, key, 1);

			/* the finish's (pid, tid), beside the map */
			k->f_pid = xreallocarray(k->f_pid, k->flow_f.cap, sizeof(*k->f_pid));
			k->f_tid = xreallocarray(k->f_tid, k->flow_f.cap, sizeof(*k->f_tid));
			k->f_pid[i] = e->pid;
			k->f_tid[i] = e->tid;
		}
		return;
	}
	if (e->cat == C_OTHER || (e->cat == C_PYTHON && !k->o->python)) {
		k->n_ignored++;
		return;
	}
	if (!e->has_ts)
		kfail_at(k, (long long)e->off, "traceEvents[%u]: %s event without \"ts\"", idx,
		    catname[e->cat]);
	if (!e->has_dur)
		kfail_at(k, (long long)e->off, "traceEvents[%u]: %s event without \"dur\"", idx,
		    catname[e->cat]);
	if (e->dur < 0)
		kfail_at(k, (long long)e->off, "traceEvents[%u]: negative \"dur\"", idx);
	if (k->nev == k->capev) {
		if (k->nev >= INT32_MAX / 2)
			kfail(k, "more than %d events to keep", INT32_MAX / 2);
		k->ev = xgrow(k->ev, &k->capev, k->nev + 1, sizeof(*k->ev));
	}
	v = &k->ev[k->nev++];
	memset(v, 0, sizeof(*v));
	v->ts = e->ts;
	v->dur = e->dur;
	v->pid = e->pid;
	v->tid = e->tid;
	v->corr = e->corr;
	v->ext = e->ext;
	v->seq = e->seq;
	v->stream = e->stream;
	v->device = e->device;
	v->idx = idx;
	v->name = names_intern(&k->names, e->has_name ? e->name.p : "", e->has_name ?
	    e->name.len : 0);
	v->parent = v->linker = v->launcher = v->fwd = v->gnext = -1;
	v->kname = IS_LAUNCH(e->cat) && e->has_kern ? names_intern(&k->names, e->kern.p,
	    e->kern.len) : NAME_NONE;
	v->cat = (uint8_t)e->cat;
	if (e->corr != NOVAL)
		v->flags |= F_HASCORR;
	if (e->cat == C_CPU_OP) {
		k->has_cpu_op = true;
		spool_in(k, v);
	} else if (IS_GPU(e->cat) && e->comm.len > 0) {
		/* a GPU event has no "in": the same slot keeps its collective's args */
		buf_reset(&k->tmp);
		buf_add(&k->tmp, "{", 1);
		buf_add(&k->tmp, e->comm.p, e->comm.len);
		buf_add(&k->tmp, "}", 1);
		v->in_off = spool_add(k->sp, k->tmp.p, k->tmp.len);
		v->in_len = (uint32_t)k->tmp.len;
	}
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
				/* not wanted: the rest of the event is only read past */
				if (js_skip_rest(k->rd) == JS_ERROR)
					kfail_json(k);
				k->n_ignored++;
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

/* --- the host tree (spec §1.4.3) ----------------------------------------------------------- */

static double
t0(const struct kev *v)
{
	return (double)v->ts / 1000.0;
}

/* TraceLens's t_end: ts + dur in double precision on the absolute microseconds. */
static double
t1(const struct kev *v)
{
	return (double)v->ts / 1000.0 + (double)v->dur / 1000.0;
}

static struct kev *cmp_ev;

static int
by_ts(const void *a, const void *b)
{
	const struct kev *x = &cmp_ev[*(const int32_t *)a], *y = &cmp_ev[*(const int32_t *)b];

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct stack {
	int32_t	*v;
	size_t	 n, cap;
};

static void
build_tree(struct kin *k)
{
	int32_t *h = xreallocarray(NULL, k->nev + 1, sizeof(*h));
	struct imap sm = { 0 };
	struct stack *st = NULL;
	size_t nh = 0, nst = 0, i;

	for (i = 0; i < k->nev; i++) {
		int c = k->ev[i].cat;

		if (c == C_CPU_OP || IS_LAUNCH(c) || c == C_PYTHON)
			h[nh++] = (int32_t)i;
	}
	cmp_ev = k->ev;
	qsort(h, nh, sizeof(*h), by_ts);
	for (i = 0; i < nh; i++) {
		struct kev *e = &k->ev[h[i]];
		int64_t key[2] = { e->pid, e->tid }, si;
		struct stack *s;
		double ts = t0(e), te = t1(e);

		if (!imap_get(&sm, key, 2, &si)) {
			si = (int64_t)nst++;
			imap_put(&sm, key, 2, si);
			st = xreallocarray(st, nst, sizeof(*st));
			memset(&st[si], 0, sizeof(*st));
		}
		s = &st[si];
		while (s->n > 0 && ts >= t1(&k->ev[s->v[s->n - 1]]))
			s->n--;
		if (s->n > 0 && te > t1(&k->ev[s->v[s->n - 1]])) {
			/* the "bleed" rule: a small overlap moves the event up a level */
			if (t1(&k->ev[s->v[s->n - 1]]) - ts < 1.0 && s->n >= 2)
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
	imap_free(&sm);
	free(h);
}

/* --- GPU links (spec §1.4.4, §1.5) ------------------------------------------------------------ */

static int64_t
linkval(const struct kin *k, const struct kev *v)
{
	return k->key_corr ? v->corr : v->ext;
}

/* The name matches rccl|nccl|cross_device_reduce, case-insensitively (spec §1.5). */
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
	if (k->ev[g].linker < 0)
		k->n_unlinked--;
	k->ev[g].linker = r;
}

static void
link_gpu(struct kin *k)
{
	struct imap pt = { 0 }, graph = { 0 };
	int32_t *gtail = NULL;
	size_t i;

	k->n_gpu = k->n_unlinked = 0;
	for (i = 0; i < k->nev; i++) {
		struct kev *v = &k->ev[i];
		int64_t lv = linkval(k, v), key[3] = { v->pid, v->tid, lv };

		if (IS_GPU(v->cat)) {
			k->n_gpu++;
			k->n_unlinked++;
			if (is_comm(names_str(&k->names, v->name)))
				v->flags |= F_COMM;
			if (lv != NOVAL) {
				size_t before = graph.nm.n;
				uint32_t s = imap_slot(&graph, &lv, 1);

				gtail = xreallocarray(gtail, graph.cap, sizeof(*gtail));
				if (graph.nm.n > before)
					graph.val[s] = (int64_t)i;	/* the first */
				else
					k->ev[gtail[s]].gnext = (int32_t)i;
				gtail[s] = (int32_t)i;
			}
		}
		if (lv != NOVAL && v->pid != NOVAL && v->tid != NOVAL)
			imap_put(&pt, key, 3, (int64_t)i);
	}
	for (i = 0; i < k->nev; i++) {
		struct kev *r = &k->ev[i];
		int64_t lv = linkval(k, r), g;

		if (!IS_LAUNCH(r->cat) || lv == NOVAL)
			continue;
		if (is_graph_launch(names_str(&k->names, r->name))) {
			if (imap_get(&graph, &lv, 1, &g))
				for (; g >= 0; g = k->ev[g].gnext)
					link(k, (int32_t)g, (int32_t)i);
			continue;
		}
		{
			int64_t one, key[3];
			uint32_t fi;

			if (!imap_get(&k->flow_s, &lv, 1, &one))
				continue;
			fi = names_lookup(&k->flow_f.nm, (const char *)&lv, sizeof(lv));
			if (fi == NAME_NONE) {
				k->n_flow_unpaired++;
				continue;
			}
			key[0] = k->f_pid[fi];
			key[1] = k->f_tid[fi];
			key[2] = lv;
			if (imap_get(&pt, key, 3, &g) && IS_GPU(k->ev[g].cat))
				link(k, (int32_t)g, (int32_t)i);
		}
	}
	imap_free(&pt);
	imap_free(&graph);
	free(gtail);
}

/* The op a linked GPU event is charged to: the first CPU op above its launch, python
 * functions skipped, "execute" passed through, the walk stopped by any other kind of
 * event (a merged capture's root); else the launch itself (spec §1.5). */
static void
find_launchers(struct kin *k)
{
	size_t i;

	for (i = 0; i < k->nev; i++) {
		struct kev *v = &k->ev[i];
		int32_t p, l = -1;

		if (v->cat == C_CPU_OP || v->cat == C_PYTHON)
			v->flags |= F_REC;
		if (!IS_GPU(v->cat) || v->linker < 0)
			continue;
		for (p = k->ev[v->linker].parent; p >= 0; p = k->ev[p].parent) {
			if (k->ev[p].cat == C_PYTHON)
				continue;
			if (k->ev[p].cat != C_CPU_OP)
				break;
			if (strcmp(names_str(&k->names, k->ev[p].name), "execute") == 0)
				continue;
			l = p;
			break;
		}
		if (l < 0) {
			l = v->linker;
			k->ev[l].flags |= F_REC;
		}
		v->launcher = l;
		if (!(v->flags & F_COMM))
			k->ev[l].flags |= F_LAUNCHER;
	}
}

/* spec §1.4.6: per Sequence number, the first autograd::engine::evaluate_function: event is
 * the backward op; its forward op is the latest one with that number on another thread. */
static const struct kev *cmp_seq;

static int
by_seq(const void *a, const void *b)
{
	const struct kev *x = &cmp_seq[*(const int32_t *)a], *y = &cmp_seq[*(const int32_t *)b];

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void
link_fwd_bwd(struct kin *k)
{
	static const char pre[] = "autograd::engine::evaluate_function:";
	int32_t *s = xreallocarray(NULL, k->nev + 1, sizeof(*s));
	size_t n = 0, i, j, m;

	for (i = 0; i < k->nev; i++)
		if (k->ev[i].seq != NOVAL)
			s[n++] = (int32_t)i;
	cmp_seq = k->ev;
	qsort(s, n, sizeof(*s), by_seq);
	for (i = 0; i < n; i = j) {
		struct kev *bwd = NULL;
		int32_t fwd = -1;

		for (j = i; j < n && k->ev[s[j]].seq == k->ev[s[i]].seq; j++)
			;
		for (m = i; m < j && bwd == NULL; m++)
			if (strncmp(names_str(&k->names, k->ev[s[m]].name), pre,
			    sizeof(pre) - 1) == 0)
				bwd = &k->ev[s[m]];
		if (bwd == NULL)
			continue;
		for (m = i; m < j; m++) {
			struct kev *e = &k->ev[s[m]];

			if (e->pid == bwd->pid && e->tid == bwd->tid)
				continue;
			if (fwd < 0 || e->ts > k->ev[fwd].ts)
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

	L->own_at = xcalloc(n + 1, sizeof(size_t));
	L->sub_at = xcalloc(n + 1, sizeof(size_t));
	for (pass = 0; pass < 2; pass++) {
		size_t *oc = NULL, *sc = NULL;

		if (pass == 1) {
			for (i = 0; i < n; i++) {
				L->own_at[i + 1] += L->own_at[i];
				L->sub_at[i + 1] += L->sub_at[i];
			}
			L->own = xreallocarray(NULL, L->own_at[n] + 1, sizeof(int32_t));
			L->sub = xreallocarray(NULL, L->sub_at[n] + 1, sizeof(int32_t));
			oc = xcalloc(n + 1, sizeof(size_t));
			sc = xcalloc(n + 1, sizeof(size_t));
		}
		for (i = 0; i < n; i++) {
			struct kev *g = &k->ev[i];
			int32_t p;

			if (!IS_GPU(g->cat) || g->launcher < 0)
				continue;
			if (pass == 0)
				L->own_at[g->launcher + 1]++;
			else
				L->own[L->own_at[g->launcher] + oc[g->launcher]++] = (int32_t)i;
			for (p = g->linker; p >= 0; p = k->ev[p].parent) {
				if (!(k->ev[p].flags & F_REC))
					continue;
				if (pass == 0)
					L->sub_at[p + 1]++;
				else
					L->sub[L->sub_at[p] + sc[p]++] = (int32_t)i;
			}
		}
		free(oc);
		free(sc);
	}
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

/* Busy time: the length of the union of the events' intervals (spec §2). */
static int64_t
busy_ns(struct kin *k, const int32_t *g, size_t n, struct span **tmp, size_t *cap)
{
	size_t i;
	int64_t sum = 0, a, b;

	if (n == 0)
		return 0;
	*tmp = xgrow(*tmp, cap, n, sizeof(**tmp));
	for (i = 0; i < n; i++) {
		(*tmp)[i].a = k->ev[g[i]].ts;
		(*tmp)[i].b = k->ev[g[i]].ts + k->ev[g[i]].dur;
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

static struct rec *
new_rec(struct kin *k, const char *kind, const struct kev *v)
{
	struct rec *r = rec_new();

	rec_set_str(r, "kind", kind);
	rec_set_str(r, "trace", "kineto");
	rec_set_int(r, "id", v->idx);
	if (k->rank >= 0)
		rec_set_int(r, "rank", k->rank);
	return r;
}

static void
set_name(struct kin *k, struct rec *r, const char *key, uint32_t name)
{
	rec_set_strn(r, key, k->names.str[name], k->names.len[name]);
}

static void
set_thread(struct kin *k, struct rec *r, const struct kev *v)
{
	int64_t key[2] = { v->pid, v->tid }, x;

	set_id(k, r, "pid", v->pid);
	set_id(k, r, "tid", v->tid);
	if (imap_get(&k->thread_name, key, 2, &x))
		set_name(k, r, "thread", (uint32_t)x);
	if (imap_get(&k->process_name, key, 1, &x))
		set_name(k, r, "process", (uint32_t)x);
	if (imap_get(&k->process_label, key, 1, &x))
		set_name(k, r, "process_label", (uint32_t)x);
}

static const char *
gpu_class(const struct kin *k, const struct kev *g)
{
	const char *s = names_str(&k->names, g->name);
	size_t n = strlen(s);

	if (g->cat == C_MEMCPY)
		return "memcpy";
	if (g->cat == C_KERNEL) {
		/* ROCm's legacy copy and fill kernels (spec §2) */
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
	return (g->flags & F_COMM) ? "comm" : "comp";
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

	for (p = v->parent; p >= 0; p = k->ev[p].parent)
		if (k->ev[p].flags & F_REC)
			return p;
	return -1;
}

/*
 * TraceLens's GEMM models read the transpose flags from the first kernel name that
 * parses among the op's whole subtree's GPU events by start time (compute_perf_metrics
 * sets kernel_details before the model reads it): for a GEMM-family op whose children
 * launch its kernels (aiter::gemm_a16w16 over aten::mm), "subtree_kernels" names them.
 */
static void
subtree_kernels(struct kin *k, const struct kev *v, const struct lists *L, struct rec *r)
{
	size_t vi = (size_t)(v - k->ev), ns = L->sub_at[vi + 1] - L->sub_at[vi], i;
	const struct opclass *oc = opclass_find(k->names.str[v->name]);
	struct js_writer w;

	if (oc == NULL || oc->family == NULL || strcmp(oc->family, "GEMM") != 0)
		return;
	memcpy(k->own_tmp, L->sub + L->sub_at[vi], ns * sizeof(*k->own_tmp));
	cmp_ev = k->ev;
	qsort(k->own_tmp, ns, sizeof(*k->own_tmp), by_ts);
	buf_reset(&k->tmp);
	js_w_init(&w, &k->tmp);
	js_w_array(&w);
	for (i = 0; i < ns; i++) {
		const struct kev *g = &k->ev[k->own_tmp[i]];

		js_w_str(&w, k->names.str[g->name], k->names.len[g->name]);
	}
	js_w_end_array(&w);
	rec_set_raw(r, "subtree_kernels", k->tmp.p, k->tmp.len);
}

static void
write_op(struct kin *k, const struct kev *v, const struct lists *L, struct span **tmp,
    size_t *cap)
{
	size_t vi = (size_t)(v - k->ev), no = L->own_at[vi + 1] - L->own_at[vi];
	size_t ns = L->sub_at[vi + 1] - L->sub_at[vi], i;
	struct rec *r = new_rec(k, "op", v);
	int32_t p = rec_parent(k, v);

	set_name(k, r, "op", v->name);
	rec_set_str(r, "cat", catname[v->cat]);
	if (p >= 0)
		rec_set_int(r, "parent", k->ev[p].idx);
	rec_set_bool(r, "launcher", (v->flags & F_LAUNCHER) != 0);
	rec_set_int(r, "host_start_ns", v->ts);
	rec_set_int(r, "host_end_ns", v->ts + v->dur);
	if (no > 0) {
		/* TraceLens's direct kernel time: communication kernels are not counted */
		size_t nc = 0;

		for (i = 0; i < no; i++)
			if (!(k->ev[L->own[L->own_at[vi] + i]].flags & F_COMM))
				k->own_tmp[nc++] = L->own[L->own_at[vi] + i];
		if (nc > 0)
			rec_set_int(r, "device_ns", busy_ns(k, k->own_tmp, nc, tmp, cap));
	}
	if (ns > 0)
		rec_set_int(r, "subtree_ns", busy_ns(k, L->sub + L->sub_at[vi], ns, tmp, cap));
	if (no > 1) {	/* in GPU time order (spec §1.5: kernel_details sorted by ts) */
		cmp_ev = k->ev;
		qsort(L->own + L->own_at[vi], no, sizeof(*L->own), by_ts);
	}
	if (no > 0) {
		struct js_writer w;

		buf_reset(&k->tmp);
		js_w_init(&w, &k->tmp);
		js_w_array(&w);
		for (i = 0; i < no; i++) {
			const struct kev *g = &k->ev[L->own[L->own_at[vi] + i]];

			js_w_object(&w);
			js_w_key(&w, "id");
			js_w_int(&w, g->idx);
			js_w_key(&w, "name");
			js_w_str(&w, k->names.str[g->name], k->names.len[g->name]);
			if (g->stream != NOVAL) {
				js_w_key(&w, "stream");
				js_w_int(&w, g->stream);
			}
			js_w_key(&w, "start_ns");
			js_w_int(&w, g->ts);
			js_w_key(&w, "ns");
			js_w_int(&w, g->dur);
			js_w_key(&w, "class");
			js_w_strz(&w, gpu_class(k, g));
			js_w_end_object(&w);
		}
		js_w_end_array(&w);
		rec_set_raw(r, "kernels", k->tmp.p, k->tmp.len);
	}
	if (ns > no)
		subtree_kernels(k, v, L, r);
	if (v->in_len > 0)
		rec_set_raw(r, "in", spool_get(k->sp, v->in_off, v->in_len), v->in_len);
	set_thread(k, r, v);
	if (v->seq != NOVAL)
		rec_set_int(r, "seq", v->seq);
	if (v->fwd >= 0)
		rec_set_int(r, "fwd", k->ev[v->fwd].idx);
	set_id(k, r, "ext", v->ext);
	rec_write(r, stdout);
	rec_free(r);
}

static void
write_gpu(struct kin *k, const struct kev *g)
{
	struct rec *r = new_rec(k, "gpu", g);

	set_name(k, r, "name", g->name);
	rec_set_str(r, "gpu", gpu_kind(g->cat));
	rec_set_str(r, "class", gpu_class(k, g));
	if (g->stream != NOVAL)
		rec_set_int(r, "stream", g->stream);
	if (g->device != NOVAL)
		rec_set_int(r, "device", g->device);
	rec_set_int(r, "start_ns", g->ts);
	rec_set_int(r, "ns", g->dur);
	if (g->launcher >= 0) {
		int32_t via = g->linker;

		rec_set_int(r, "launched_by", k->ev[g->launcher].idx);
		/* python frames between the launching op and the launch */
		if (!(k->ev[via].flags & F_REC))
			via = rec_parent(k, &k->ev[via]);
		if (via >= 0 && via != g->launcher)
			rec_set_int(r, "launch_via", k->ev[via].idx);
	}
	set_id(k, r, "correlation", g->corr);
	if (g->in_len > 0)
		rec_set_raw(r, "comm", spool_get(k->sp, g->in_off, g->in_len), g->in_len);
	rec_write(r, stdout);
	rec_free(r);
}

static void
write_signpost(struct kin *k, const struct kev *v)
{
	struct rec *r = new_rec(k, "signpost", v);

	set_name(k, r, "name", v->name);
	rec_set_int(r, "host_start_ns", v->ts);
	rec_set_int(r, "host_end_ns", v->ts + v->dur);
	set_thread(k, r, v);
	rec_write(r, stdout);
	rec_free(r);
}

/* Output order: by time; a linked GPU event right after the op it is charged to. */
struct oitem {
	int64_t		t, t2;
	uint32_t	grp, idx;
	int32_t		ev;
	uint8_t		sub;
};

static int
by_out(const void *a, const void *b)
{
	const struct oitem *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->grp != y->grp)
		return x->grp < y->grp ? -1 : 1;
	if (x->sub != y->sub)
		return x->sub < y->sub ? -1 : 1;
	if (x->t2 != y->t2)
		return x->t2 < y->t2 ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void
write_trace_rec(struct kin *k, const struct oitem *o, size_t n)
{
	struct rec *r = rec_new();
	struct js_writer w;
	size_t i;

	rec_set_str(r, "kind", "trace");
	rec_set_str(r, "trace", "kineto");
	if (k->rank >= 0)
		rec_set_int(r, "rank", k->rank);
	rec_set_str(r, "file", k->file);
	rec_set_str(r, "format", "kineto");
	if (k->devices.len > 0)
		rec_set_raw(r, "devices", k->devices.p, k->devices.len);
	buf_reset(&k->tmp);
	js_w_init(&w, &k->tmp);
	js_w_array(&w);
	for (i = 0; i < n; i++)
		if (k->ev[o[i].ev].cat == C_ANNOT)
			js_w_str(&w, k->names.str[k->ev[o[i].ev].name],
			    k->names.len[k->ev[o[i].ev].name]);
	js_w_end_array(&w);
	rec_set_raw(r, "signposts", k->tmp.p, k->tmp.len);
	if (k->has_dist)
		rec_set_raw(r, "distributed", k->dist.p, k->dist.len);
	rec_set_int(r, "events", k->nevents);
	rec_set_str(r, "linking_key", k->key_corr ? "correlation" : "External id");
	rec_set_int(r, "gpu_events", (long long)k->n_gpu);
	rec_set_int(r, "unlinked", (long long)k->n_unlinked);
	rec_set_bool(r, "gpu_only", !k->has_cpu_op);
	rec_set_int(r, "ignored", (long long)k->n_ignored);
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
	rec_write(r, stdout);
	rec_free(r);
}

static void
write_records(struct kin *k)
{
	struct oitem *o = xreallocarray(NULL, k->nev + 1, sizeof(*o));
	struct lists L;
	struct span *tmp = NULL;
	size_t n = 0, i, cap = 0;

	build_lists(k, &L);
	k->own_tmp = xreallocarray(NULL, k->nev + 1, sizeof(*k->own_tmp));
	for (i = 0; i < k->nev; i++) {
		struct kev *v = &k->ev[i];
		struct oitem *x = &o[n];

		if (!(v->flags & F_REC) && !IS_GPU(v->cat) && v->cat != C_ANNOT)
			continue;
		x->ev = (int32_t)i;
		x->idx = v->idx;
		x->sub = 0;
		x->t = v->ts;
		x->grp = v->idx;
		x->t2 = 0;
		if (IS_GPU(v->cat) && v->launcher >= 0) {
			x->t = k->ev[v->launcher].ts;
			x->grp = k->ev[v->launcher].idx;
			x->sub = 1;
			x->t2 = v->ts;
		}
		n++;
	}
	qsort(o, n, sizeof(*o), by_out);
	write_trace_rec(k, o, n);
	for (i = 0; i < n; i++) {
		struct kev *v = &k->ev[o[i].ev];

		if (IS_GPU(v->cat))
			write_gpu(k, v);
		else if (v->cat == C_ANNOT)
			write_signpost(k, v);
		else
			write_op(k, v, &L, &tmp, &cap);
	}
	free(tmp);
	free(k->own_tmp);
	free_lists(&L);
	free(o);
}

/* --- graph-capture merge (spec tracelens.md §8; TraceLens's --capture_folder) ----------- */

/*
 * A graph-replay trace shows each replayed kernel under its graph launch only. The
 * capture trace of that graph (profiled while the engine captured it) holds the CPU ops,
 * shapes and python frames that launched each kernel. TraceLens's
 * trace_capture_merge_experimental grafts the capture under the launch, and so does this:
 *   - execution_details.json in the folder lists the capture traces {file, batch_size,
 *     mode}; each engine step (the iteration annotations of the first tier that has any:
 *     detailed vLLM/SGLang/ATOM formats, else native ones) takes the capture of the
 *     smallest batch size at least its own, FULL or PIECEWISE (PIECEWISE when both exist
 *     and the step has several graph launches);
 *   - a capture root is the span between a StreamBeginCapture's end and the next
 *     StreamEndCapture: the CPU ops and python frames in it whose parent is outside it,
 *     under a new runtime event "CaptureRoot";
 *   - each graph launch inside the step is paired with a capture root (one root serves
 *     every launch, else one each); the root's launches (runtime events named with
 *     Launch, Memcpy or Memset) are aligned with the launch's GPU events by time, by
 *     kernel name (args.kernel) when the counts or names differ, per stream when the
 *     graph ran on several;
 *   - the capture's subtree is appended to the trace as new events, numbered on from the
 *     last event (breadth first, then by capture time), every one at the graph launch's
 *     start and duration, under the graph launch; each GPU event's launch becomes its
 *     capture launch, so the kernels get the captured CPU ops as launchers.
 */

struct cap {
	char		*path;		/* the capture trace */
	char		*key;		/* "<batch size>_<mode>" */
	struct kin	*k;		/* loaded when first needed */
	int32_t		*kids;		/* the host tree's children, TraceLens's order */
	size_t		*kid_at;
	int32_t		*roots;		/* CaptureRoot children (capture events) per root */
	size_t		*root_at;
	int64_t		*root_ts, *root_dur;
	size_t		 nroots;
};

struct capset {
	struct cap	*c;
	size_t		 n;
	struct loaded {
		char		*path;
		struct kin	*k;
	}		*ld;		/* capture traces read to classify them */
	size_t		 nld;
	bool		 classified;	/* no execution_details.json: classified here */
	long long	*bs;		/* the valid entries' batch sizes (files or not) */
	size_t		 nbs;
	const char	*folder;
	size_t		 merged, events;
	/* What the merge holds while it runs, freed by capset_free: also when bad input
	 * ends it (capfail, back to merge_captures, which returns the error). */
	struct capent	*ents;		/* execution_details.json's entries */
	size_t		 nents, capents;
	char		**files;	/* the folder's capture traces (classification) */
	size_t		 nfiles;
	struct js_reader *drd;		/* execution_details.json being read */
	FILE		*dfp;
	struct buf	 path, where;
	int32_t		*steps, *gl, *roots, *lk0;
	int64_t		*corr0;
	struct error	 err;
	jmp_buf		 fail;
};

/* Bad input in a capture folder (file, byte off or -1): back to merge_captures. */
static void __attribute__((noreturn, format(printf, 4, 5)))
capfail(struct capset *cs, const char *file, long long off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(&cs->err, file, 0, off, fmt, ap);
	va_end(ap);
	longjmp(cs->fail, 1);
}

static bool
name_has(const struct kin *k, uint32_t name, const char *sub, bool nocase)
{
	const char *s = names_str(&k->names, name);

	return nocase ? strcasestr(s, sub) != NULL : strstr(s, sub) != NULL;
}

/* Children in TraceLens's order: as build_tree attaches them, by (ts, index). */
static void
cap_children(struct kin *k, struct cap *c)
{
	int32_t *h = xreallocarray(NULL, k->nev + 1, sizeof(*h));
	size_t nh = 0, i, *fill;

	for (i = 0; i < k->nev; i++) {
		int ca = k->ev[i].cat;

		if (ca == C_CPU_OP || IS_LAUNCH(ca) || ca == C_PYTHON)
			h[nh++] = (int32_t)i;
	}
	cmp_ev = k->ev;
	qsort(h, nh, sizeof(*h), by_ts);
	c->kid_at = xcalloc(k->nev + 2, sizeof(size_t));
	for (i = 0; i < nh; i++)
		if (k->ev[h[i]].parent >= 0)
			c->kid_at[k->ev[h[i]].parent + 1]++;
	for (i = 0; i < k->nev; i++)
		c->kid_at[i + 1] += c->kid_at[i];
	c->kids = xreallocarray(NULL, c->kid_at[k->nev] + 1, sizeof(*c->kids));
	fill = xcalloc(k->nev + 1, sizeof(size_t));
	for (i = 0; i < nh; i++) {
		int32_t p = k->ev[h[i]].parent;

		if (p >= 0)
			c->kids[c->kid_at[p] + fill[p]++] = h[i];
	}
	free(fill);
	free(h);
}

/* find_capture_roots: StreamBeginCapture and StreamEndCapture paired in order. */
static void
cap_roots(struct kin *k, struct cap *c)
{
	int32_t *beg = NULL, *end = NULL;
	size_t nb = 0, ne = 0, cb = 0, ce = 0, i, r, n = 0, cap = 0;
	char *in = xcalloc(k->nev + 1, 1);

	for (i = 0; i < k->nev; i++) {
		if (k->ev[i].cat != C_RUNTIME)
			continue;
		if (name_has(k, k->ev[i].name, "StreamBeginCapture", false)) {
			beg = xgrow(beg, &cb, nb + 1, sizeof(*beg));
			beg[nb++] = (int32_t)i;
		} else if (name_has(k, k->ev[i].name, "StreamEndCapture", false)) {
			end = xgrow(end, &ce, ne + 1, sizeof(*end));
			end[ne++] = (int32_t)i;
		}
	}
	c->nroots = nb < ne ? nb : ne;
	c->root_at = xcalloc(c->nroots + 1, sizeof(size_t));
	c->root_ts = xcalloc(c->nroots + 1, sizeof(int64_t));
	c->root_dur = xcalloc(c->nroots + 1, sizeof(int64_t));
	for (r = 0; r < c->nroots; r++) {
		int64_t ts = k->ev[beg[r]].ts + k->ev[beg[r]].dur, te = k->ev[end[r]].ts;

		c->root_ts[r] = ts;
		c->root_dur[r] = te - ts;
		for (i = 0; i < k->nev; i++)
			in[i] = k->ev[i].ts >= ts && k->ev[i].ts + k->ev[i].dur <= te;
		for (i = 0; i < k->nev; i++) {
			const struct kev *v = &k->ev[i];

			if (!in[i] || v->parent < 0 || in[v->parent] ||
			    (v->cat != C_CPU_OP && v->cat != C_PYTHON))
				continue;
			c->roots = xgrow(c->roots, &cap, n + 1, sizeof(*c->roots));
			c->roots[n++] = (int32_t)i;
		}
		c->root_at[r + 1] = n;
	}
	free(in);
	free(beg);
	free(end);
}

static struct kin *kin_load(struct capset *cs, const char *path,
    const struct kineto_opts *o);
static void kin_free(struct kin *k);

static void
cap_load(struct capset *cs, struct cap *c, const struct kineto_opts *o)
{
	size_t i;

	if (c->k != NULL)
		return;
	for (i = 0; i < cs->nld && strcmp(cs->ld[i].path, c->path) != 0; i++)
		;
	if (i < cs->nld) {
		c->k = cs->ld[i].k;	/* read when the folder was classified */
		cs->ld[i].k = NULL;
	} else
		c->k = kin_load(cs, c->path, o);
	cap_children(c->k, c);
	cap_roots(c->k, c);
}

static bool
readable(const char *path)
{
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return false;
	fclose(f);
	return true;
}

static int
by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The most common first dimension of the CPU ops' argument shapes (TraceLens's
 * infer_batch_size_from_cpu_ops: ties to the first seen), or -1 when there is none. */
static long long
common_first_dim(struct kin *k)
{
	struct names seen;
	size_t *count = NULL, cap = 0, i, best = 0;
	long long v = -1;

	names_init(&seen);
	for (i = 0; i < k->nev; i++) {
		const struct kev *e = &k->ev[i];
		struct rec_elems a;
		struct rec *r;

		if (e->cat != C_CPU_OP || e->in_len == 0)
			continue;
		r = rec_new();
		rec_set_raw(r, "in", spool_get(k->sp, e->in_off, e->in_len), e->in_len);
		(void)rec_elems(r, "in", &a);
		while (rec_elem_next(&a)) {
			const struct rec_node *sh = rec_elem_tree(&a, "shape", NULL);
			char num[32];
			size_t n0 = seen.n;
			uint32_t x;

			/* shape[0], an integer */
			if (sh == NULL || sh->type != REC_ARRAY || sh->n == 0 ||
			    sh[1].type != REC_INT)
				continue;
			snprintf(num, sizeof(num), "%lld", sh[1].i);
			x = names_intern(&seen, num, strlen(num));
			if (seen.n > n0) {
				count = xgrow(count, &cap, seen.n, sizeof(*count));
				count[x] = 0;
			}
			count[x]++;
		}
		rec_free(r);
	}
	for (i = 0; i < seen.n; i++)
		if (count[i] > count[best])
			best = i;
	if (seen.n > 0)
		v = strtoll(seen.str[best], NULL, 10);
	free(count);
	names_free(&seen);
	return v;
}

/* An entry of execution_details.json: file, batch_size, mode (NULL or false when not
 * there or not of that type). */
struct capent {
	char		*file, *mode;
	long long	 bs;
	bool		 has_bs;
};

static void
capents_free(struct capent *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].file);
		free(v[i].mode);
	}
	free(v);
}

/* classify_graph_capture_trace, without writing the file: per capture trace (.json or
 * .json.gz, by name), the batch size and mode of its capture annotation when it has as
 * many as vLLM _dummy_run frames, else FULL for at most one StreamBeginCapture and
 * PIECEWISE for more, with the most common first dimension as the batch size. The
 * entries execution_details.json would have, one per file (*n). */
static void
capset_classify(struct capset *cs, const char *folder, const struct kineto_opts *o)
{
	static const char dummy[] = "vllm/v1/worker/gpu_model_runner.py(";
	struct capent *ents;
	char **files;
	size_t nf, i, j;
	DIR *d = opendir(folder);
	struct dirent *de;

	if (d == NULL)
		capfail(cs, folder, -1, "%s", strerror(errno));
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);

		if ((n > 5 && strcmp(de->d_name + n - 5, ".json") == 0) ||
		    (n > 8 && strcmp(de->d_name + n - 8, ".json.gz") == 0)) {
			cs->files = xreallocarray(cs->files, cs->nfiles + 1, sizeof(*cs->files));
			cs->files[cs->nfiles++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	files = cs->files;
	nf = cs->nfiles;
	if (nf == 0)
		capfail(cs, folder, -1, "no execution_details.json and no capture trace (.json, "
		    ".json.gz) to classify");
	qsort(files, nf, sizeof(*files), by_str);
	ents = cs->ents = xcalloc(nf, sizeof(*ents));
	cs->nents = nf;
	for (i = 0; i < nf; i++) {
		struct buf *path = &cs->path;
		struct kin *k;
		size_t ndummy = 0, nann = 0, nbeg = 0;
		int32_t ann = -1;
		long long bs = -1;
		const char *mode = NULL, *how = "inferred";
		struct capent *x = &ents[i];

		buf_reset(path);
		buf_printf(path, "%s/%s", folder, files[i]);
		k = kin_load(cs, path->p, o);
		for (j = 0; j < k->nev; j++) {
			const struct kev *v = &k->ev[j];
			const char *nm = names_str(&k->names, v->name), *p;
			struct step st;

			if (strncmp(nm, dummy, sizeof(dummy) - 1) == 0) {
				for (p = nm + sizeof(dummy) - 1; *p >= '0' && *p <= '9'; p++)
					;
				if (p > nm + sizeof(dummy) - 1 && strncmp(p, "): _dummy_run", 13) == 0)
					ndummy++;
			}
			if (v->cat == C_RUNTIME && strstr(nm, "StreamBeginCapture") != NULL)
				nbeg++;
			if (v->cat == C_ANNOT && step_parse(nm, strlen(nm), &st) &&
			    st.kind == STEP_CAPTURE) {
				nann++;
				if (ann < 0 || v->ts < k->ev[ann].ts)
					ann = (int32_t)j;
			}
		}
		if (nann > 0 && nann == ndummy) {
			/* capture_<bs>_<mode>: the mode is the rest of the name */
			const char *nm = names_str(&k->names, k->ev[ann].name);
			struct step st;

			(void)step_parse(nm, strlen(nm), &st);
			bs = st.batch;
			mode = strchr(nm + 8, '_') + 1;
			how = "from its annotation";
			x->has_bs = true;
		} else {
			mode = nbeg <= 1 ? "FULL" : "PIECEWISE";
			bs = common_first_dim(k);
			x->has_bs = bs >= 0;	/* none inferred: null */
		}
		x->bs = bs;
		x->mode = xstrdup(mode);
		note("%s: batch size %lld, mode %s (%s; TraceLens would write them to "
		    "execution_details.json)", path->p, bs, mode, how);
		cs->ld = xreallocarray(cs->ld, cs->nld + 1, sizeof(*cs->ld));
		cs->ld[cs->nld].path = xstrdup(path->p);
		cs->ld[cs->nld++].k = k;
		x->file = xstrdup(files[i]);
	}
	cs->classified = true;
}

/* The string value the reader is at, as a new string; NULL for any other value. */
static char *
js_strdup(struct js_reader *rd)
{
	return js_tok(rd) == JS_STRING ? xstrdup(js_str(rd, NULL)) : NULL;
}

/* execution_details.json read whole into cs->ents, the last of a repeated member
 * counting; false when it is not a list. Bad JSON: capfail (file and byte). */
static bool
capset_details(struct capset *cs, const char *path)
{
	struct error e = ERROR_INIT;
	struct js_reader *rd;
	struct capent *x;
	size_t len;
	enum js_tok t;
	const char *num;
	bool list;

	if ((cs->dfp = io_open_error(path, &e)) == NULL) {
		error_move(&cs->err, &e);
		longjmp(cs->fail, 1);
	}
	rd = cs->drd = js_open_fp(cs->dfp);
	list = js_next(rd) == JS_ARRAY;
	while (list && (t = js_next(rd)) != JS_ARRAY_END && t != JS_ERROR) {
		cs->ents = xgrow(cs->ents, &cs->capents, cs->nents + 1, sizeof(*cs->ents));
		x = &cs->ents[cs->nents++];
		memset(x, 0, sizeof(*x));
		if (t != JS_OBJECT) {
			js_skip(rd);
			continue;
		}
		while (js_next(rd) == JS_KEY) {
			if (js_is(rd, "file")) {
				free(x->file);
				js_next(rd);
				x->file = js_strdup(rd);
			} else if (js_is(rd, "mode")) {
				free(x->mode);
				js_next(rd);
				x->mode = js_strdup(rd);
			} else if (js_is(rd, "batch_size")) {
				js_next(rd);
				num = js_text(rd, &len);
				x->has_bs = js_tok(rd) == JS_NUMBER &&
				    js_number_int(num, len, &x->bs);
			} else
				js_next(rd);
			js_skip(rd);
		}
	}
	if (!list)
		js_skip(rd);
	if (js_tok(rd) != JS_ERROR)
		js_next(rd);		/* the end of the document */
	if (js_tok(rd) == JS_ERROR)
		capfail(cs, path, js_read_failed(rd) ? -1 : (long long)js_offset(rd), "%s",
		    js_error(rd));
	js_close(rd);
	io_close(cs->dfp);
	cs->drd = NULL;
	cs->dfp = NULL;
	return list;
}

/* execution_details.json: [{file, batch_size, mode}, ...] (load_capture_folder); when
 * the folder has none, the traces are classified as TraceLens classifies them. */
static void
capset_read(struct capset *cs, const char *folder, const struct kineto_opts *o)
{
	struct capent *ents;
	size_t n, i, j;

	cs->folder = folder;
	buf_printf(&cs->where, "%s/execution_details.json", folder);
	if (!readable(cs->where.p)) {
		capset_classify(cs, folder, o);
		buf_reset(&cs->where);
		buf_printf(&cs->where, "%s (classified)", folder);
	} else if (!capset_details(cs, cs->where.p))
		capfail(cs, cs->where.p, -1, "not a list of capture traces");
	ents = cs->ents;
	n = cs->nents;
	for (i = 0; i < n; i++) {
		const char *file = ents[i].file, *mode = ents[i].mode;
		long long bs = ents[i].bs;
		struct buf key = BUF_INIT, path = BUF_INIT;

		if (file == NULL)
			capfail(cs, cs->where.p, -1, "entry %zu: no \"file\"", i);
		if (mode == NULL || (strcmp(mode, "FULL") != 0 &&
		    strcmp(mode, "PIECEWISE") != 0) || !ents[i].has_bs) {
			warning("%s: entry %zu (%s): batch size or mode not valid: skipped",
			    cs->where.p, i, file);
			continue;
		}
		cs->bs = xreallocarray(cs->bs, cs->nbs + 1, sizeof(*cs->bs));
		cs->bs[cs->nbs++] = bs;
		buf_printf(&path, "%s/%s", folder, file);
		if (!readable(path.p)) {
			warning("%s: capture trace not found: skipped", path.p);
			buf_free(&path);
			continue;
		}
		buf_printf(&key, "%lld_%s", bs, mode);
		for (j = 0; j < cs->n && strcmp(cs->c[j].key, key.p) != 0; j++)
			;
		if (j == cs->n) {
			cs->c = xreallocarray(cs->c, cs->n + 1, sizeof(*cs->c));
			memset(&cs->c[cs->n++], 0, sizeof(*cs->c));
		} else {
			free(cs->c[j].key);
			free(cs->c[j].path);
		}
		cs->c[j].key = xstrdup(key.p);
		cs->c[j].path = xstrdup(path.p);
		buf_free(&key);
		buf_free(&path);
	}
	capents_free(ents, n);
	cs->ents = NULL;
	cs->nents = 0;
}

static struct cap *
capset_find(struct capset *cs, long long bs, const char *mode)
{
	struct buf key = BUF_INIT;
	size_t j;

	buf_printf(&key, "%lld_%s", bs, mode);
	for (j = 0; j < cs->n && strcmp(cs->c[j].key, key.p) != 0; j++)
		;
	buf_free(&key);
	return j < cs->n ? &cs->c[j] : NULL;
}

/* --- alignment (verify_subtree_events, align_streams) --- */

struct align {
	struct kin	*ck, *gk;
	const int32_t	*c, *g;		/* capture launches, graph GPU events */
	size_t		 nc, ng;
	int32_t		*out;		/* per graph event (in *g order), its capture launch */
	int32_t		*gperm;		/* the graph events, reordered (group alignment) */
};

static const char *
cap_kname(const struct kin *k, const struct kev *v)
{
	return names_str(&k->names, v->kname != NAME_NONE ? v->kname : v->name);
}

static bool
names_match(const struct align *a, int32_t c, int32_t g)
{
	const struct kev *cv = &a->ck->ev[c];
	const char *cn = names_str(&a->ck->names, cv->name);
	const char *gn = names_str(&a->gk->names, a->gk->ev[g].name);

	if ((strstr(cn, "Memcpy") && strstr(gn, "Memcpy")) || (strstr(cn, "Memset") &&
	    (strstr(gn, "Memset") || strstr(gn, "fillBuffer"))))
		return true;
	return strcmp(cap_kname(a->ck, cv), gn) == 0;
}

/* _align_capture_to_graph: for each graph event, the next capture launch that matches. */
static bool
align_greedy(struct align *a)
{
	size_t ci = 0, gi;

	for (gi = 0; gi < a->ng; gi++) {
		bool hit = false;

		while (ci < a->nc) {
			int32_t c = a->c[ci++];

			if (names_match(a, c, a->g[gi])) {
				a->out[gi] = c;
				hit = true;
				break;
			}
		}
		if (!hit)
			return false;
	}
	return true;
}

/* _align_graph_to_capture_by_group: the n-th launch of a kernel name with the n-th
 * graph event of that name; the counts of every name must agree. */
static bool
align_groups(struct align *a)
{
	struct names nm;
	size_t *cc, *gc, *seen, i, j, n;
	bool ok = true;

	names_init(&nm);
	for (i = 0; i < a->nc; i++) {
		const char *s = cap_kname(a->ck, &a->ck->ev[a->c[i]]);

		(void)names_intern(&nm, s, strlen(s));
	}
	for (i = 0; i < a->ng; i++) {
		const char *s = names_str(&a->gk->names, a->gk->ev[a->g[i]].name);

		(void)names_intern(&nm, s, strlen(s));
	}
	n = nm.n;
	cc = xcalloc(n + 1, sizeof(size_t));
	gc = xcalloc(n + 1, sizeof(size_t));
	seen = xcalloc(n + 1, sizeof(size_t));
	for (i = 0; i < a->nc; i++) {
		const char *s = cap_kname(a->ck, &a->ck->ev[a->c[i]]);

		cc[names_lookup(&nm, s, strlen(s))]++;
	}
	for (i = 0; i < a->ng; i++) {
		const char *s = names_str(&a->gk->names, a->gk->ev[a->g[i]].name);

		gc[names_lookup(&nm, s, strlen(s))]++;
	}
	for (i = 0; i < n; i++)
		if (cc[i] != gc[i])
			ok = false;
	for (i = 0; ok && i < a->nc; i++) {
		const char *s = cap_kname(a->ck, &a->ck->ev[a->c[i]]);
		uint32_t x = names_lookup(&nm, s, strlen(s));
		size_t want = seen[x]++, m = 0;

		for (j = 0; j < a->ng; j++) {
			const char *gs = names_str(&a->gk->names, a->gk->ev[a->g[j]].name);

			if (strcmp(gs, s) == 0 && m++ == want) {
				a->gperm[i] = a->g[j];
				a->out[i] = a->c[i];
				break;
			}
		}
	}
	free(cc);
	free(gc);
	free(seen);
	names_free(&nm);
	return ok;
}

/* verify_subtree_events: 1 (in order), 2 (greedy), 3 (by group), 0 (failed). */
static int
align_single(struct align *a)
{
	size_t i;

	if (a->nc != a->ng)
		return align_greedy(a) ? 2 : 0;
	for (i = 0; i < a->ng; i++) {
		const struct kev *cv = &a->ck->ev[a->c[i]];

		a->out[i] = a->c[i];
		if (cv->kname == NAME_NONE)
			continue;	/* TraceLens: "alignment has not been verified" */
		if (strcmp(names_str(&a->ck->names, cv->kname),
		    names_str(&a->gk->names, a->gk->ev[a->g[i]].name)) != 0)
			return align_groups(a) ? 3 : 0;
	}
	return 1;
}

/* align_streams: capture launches (program order) to graph events (GPU order per
 * stream) through one FIFO per stream; ties go to the stream whose queue matches the
 * longest run of the following launches. */
static bool
align_streams(struct align *a)
{
	int64_t *st = xreallocarray(NULL, a->ng + 1, sizeof(*st));
	size_t *head = xcalloc(a->ng + 1, sizeof(size_t)), ns = 0, ci, s, i;
	size_t **q = xcalloc(a->ng + 1, sizeof(*q)), *qn = xcalloc(a->ng + 1, sizeof(size_t));
	bool ok = true;

	for (i = 0; i < a->ng; i++)
		a->out[i] = -1;
	for (i = 0; i < a->ng; i++) {
		int64_t v = a->gk->ev[a->g[i]].stream;

		for (s = 0; s < ns && st[s] != v; s++)
			;
		if (s == ns)
			st[ns++] = v;
		q[s] = xreallocarray(q[s], qn[s] + 1, sizeof(**q));
		q[s][qn[s]++] = i;
	}
	for (ci = 0; ci < a->nc; ci++) {
		size_t best = ns, ncand = 0;
		long bestrun = -1;

		for (s = 0; s < ns; s++)
			if (head[s] < qn[s] && names_match(a, a->c[ci], a->g[q[s][head[s]]])) {
				ncand++;
				if (best == ns)
					best = s;
			}
		if (ncand > 1)	/* _best_stream_by_run: the first longest run */
			for (s = 0; s < ns; s++) {
				long run = 0;

				if (!(head[s] < qn[s] && names_match(a, a->c[ci],
				    a->g[q[s][head[s]]])))
					continue;
				while (head[s] + (size_t)run < qn[s] && ci + (size_t)run < a->nc &&
				    names_match(a, a->c[ci + run], a->g[q[s][head[s] + run]]))
					run++;
				if (run > bestrun) {
					bestrun = run;
					best = s;
				}
			}
		if (best == ns)
			continue;
		a->out[q[best][head[best]++]] = a->c[ci];
	}
	for (i = 0; i < a->ng; i++)
		if (a->out[i] < 0)
			ok = false;
	for (s = 0; s < ns; s++)
		free(q[s]);
	free(q);
	free(qn);
	free(head);
	free(st);
	return ok;
}

/* --- grafting --- */

static int64_t
remap_id(struct kin *to, const struct kin *from, int64_t v)
{
	uint32_t i;

	if (v == NOVAL || v < STRVAL || v > STRMAX)
		return v;
	i = (uint32_t)(v - STRVAL);
	return STRVAL + names_intern(&to->strs, from->strs.str[i], from->strs.len[i]);
}

static int32_t
add_event(struct kin *k)
{
	if (k->nev >= INT32_MAX / 2)
		die(EXIT_DATA, "%s: more than %d events to keep", k->file, INT32_MAX / 2);
	k->ev = xgrow(k->ev, &k->capev, k->nev + 1, sizeof(*k->ev));
	memset(&k->ev[k->nev], 0, sizeof(*k->ev));
	return (int32_t)k->nev++;
}

/* Capture root r of c grafted under graph launch g of k, and the graph's GPU events
 * (gs[0..ng), in time order) relinked to their capture launches. */
static int
graft(struct kin *k, struct capset *cs, struct cap *c, size_t r, int32_t g,
    const int32_t *gs, size_t ng)
{
	int rc = 0;
	struct kin *ck = c->k;
	int32_t *bfs = NULL, *launch = NULL, *map;
	size_t nb = 0, cb = 0, nl = 0, cl = 0, i, head;
	struct align a;
	int how;
	const char *gname = names_str(&k->names, k->ev[g].name);

	/* the subtree, breadth first from the root (-1 stands for CaptureRoot) */
	bfs = xgrow(bfs, &cb, 1, sizeof(*bfs));
	bfs[nb++] = -1;
	for (head = 0; head < nb; head++) {
		int32_t x = bfs[head];
		const int32_t *kid = x < 0 ? c->roots + c->root_at[r] : c->kids + c->kid_at[x];
		size_t n = x < 0 ? c->root_at[r + 1] - c->root_at[r] :
		    c->kid_at[x + 1] - c->kid_at[x];

		bfs = xgrow(bfs, &cb, nb + n, sizeof(*bfs));
		for (i = 0; i < n; i++)
			bfs[nb++] = kid[i];
	}
	/* then by capture time, ties in breadth-first order (a stable sort) */
	{
		struct oitem *o = xreallocarray(NULL, nb, sizeof(*o));

		for (i = 0; i < nb; i++) {
			memset(&o[i], 0, sizeof(o[i]));
			o[i].t = bfs[i] < 0 ? c->root_ts[r] : ck->ev[bfs[i]].ts;
			o[i].idx = (uint32_t)i;
			o[i].ev = bfs[i];
		}
		qsort(o, nb, sizeof(*o), by_out);
		for (i = 0; i < nb; i++)
			bfs[i] = o[i].ev;
		free(o);
	}
	for (i = 0; i < nb; i++) {
		const struct kev *v = bfs[i] < 0 ? NULL : &ck->ev[bfs[i]];

		if (v == NULL || !IS_LAUNCH(v->cat) || !(name_has(ck, v->name, "launch", true) ||
		    name_has(ck, v->name, "memcpy", true) || name_has(ck, v->name, "memset", true)))
			continue;
		launch = xgrow(launch, &cl, nl + 1, sizeof(*launch));
		launch[nl++] = bfs[i];
	}
	memset(&a, 0, sizeof(a));
	a.ck = ck;
	a.gk = k;
	a.c = launch;
	a.nc = nl;
	a.g = gs;
	a.ng = ng;
	a.out = xreallocarray(NULL, (ng > nl ? ng : nl) + 1, sizeof(int32_t));
	a.gperm = xreallocarray(NULL, (ng > nl ? ng : nl) + 1, sizeof(int32_t));
	memcpy(a.gperm, gs, ng * sizeof(*gs));
	{
		bool multi = false;

		for (i = 1; i < ng; i++)
			if (k->ev[gs[i]].stream != k->ev[gs[0]].stream)
				multi = true;
		if (multi) {
			for (i = 0; i < nl; i++) {
				const struct kev *v = &ck->ev[launch[i]];

				if (v->kname == NAME_NONE &&
				    !name_has(ck, v->name, "Memcpy", false) &&
				    !name_has(ck, v->name, "Memset", false))
					break;
			}
			if (i < nl) {
				warning("%s: %s: the graph ran on several streams and the capture's "
				    "launches name no kernels: no capture is merged", c->path,
				    gname);
				rc = -1;
				goto out;
			} else
				how = align_streams(&a) ? 4 : 0;
		} else
			how = align_single(&a);
	}
	if (how == 0) {
		warning("%s: the launches of %s (%zu) do not align with the %zu GPU events of "
		    "%s (event %u): not merged", c->path, c->nroots > 1 ? "its capture root" :
		    "the capture", nl, ng, gname, k->ev[g].idx);
		goto out;
	}
	/* append the subtree: CaptureRoot, then every event at the launch's time */
	map = xreallocarray(NULL, ck->nev + 1, sizeof(*map));
	for (i = 0; i < ck->nev; i++)
		map[i] = -1;
	{
		uint32_t base = k->nevents + (uint32_t)cs->events;
		int32_t root = -1;

		for (i = 0; i < nb; i++) {
			int32_t x = add_event(k);
			struct kev *v = &k->ev[x];

			v->idx = base + (uint32_t)i;
			v->ts = k->ev[g].ts;
			v->dur = k->ev[g].dur;
			v->parent = v->linker = v->launcher = v->fwd = v->gnext = -1;
			v->kname = NAME_NONE;
			if (bfs[i] < 0) {
				v->name = names_intern(&k->names, "CaptureRoot", 11);
				v->cat = C_RUNTIME;
				v->pid = v->tid = v->corr = v->ext = v->seq = NOVAL;
				v->stream = v->device = NOVAL;
				v->parent = g;
				root = x;
				continue;
			}
			{
				const struct kev *cv = &ck->ev[bfs[i]];
				const char *nm = ck->names.str[cv->name];

				map[bfs[i]] = x;
				v->name = names_intern(&k->names, nm, ck->names.len[cv->name]);
				v->cat = cv->cat;
				v->pid = remap_id(k, ck, cv->pid);
				v->tid = remap_id(k, ck, cv->tid);
				v->corr = remap_id(k, ck, cv->corr);
				v->ext = remap_id(k, ck, cv->ext);
				v->seq = cv->seq;
				v->stream = cv->stream;
				v->device = cv->device;
				if (cv->in_len > 0) {
					v->in_off = spool_add(k->sp, spool_get(ck->sp, cv->in_off,
					    cv->in_len), cv->in_len);
					v->in_len = cv->in_len;
				}
				if (cv->cat == C_CPU_OP)
					k->has_cpu_op = true;
			}
		}
		for (i = 0; i < nb; i++) {
			int32_t p;

			if (bfs[i] < 0)
				continue;
			p = ck->ev[bfs[i]].parent;
			k->ev[map[bfs[i]]].parent = p >= 0 && map[p] >= 0 ? map[p] : root;
		}
		for (i = 0; i < ng; i++) {
			struct kev *gv = &k->ev[a.gperm[i]];

			gv->linker = map[a.out[i]];
			gv->corr = k->ev[gv->linker].corr;
		}
		cs->events += nb;
		cs->merged++;
	}
	free(map);
out:
	free(a.out);
	free(a.gperm);
	free(launch);
	free(bfs);
	return rc;
}

/* The GPU events of graph launch g: those linked to it or to an event below it. */
static size_t
graph_events(struct kin *k, int32_t g, int32_t **out)
{
	size_t n = 0, i;
	int32_t p;

	*out = xreallocarray(NULL, k->nev + 1, sizeof(**out));
	for (i = 0; i < k->nev; i++) {
		if (!IS_GPU(k->ev[i].cat) || k->ev[i].linker < 0)
			continue;
		for (p = k->ev[i].linker; p >= 0 && p != g; p = k->ev[p].parent)
			;
		if (p == g)
			(*out)[n++] = (int32_t)i;
	}
	cmp_ev = k->ev;
	qsort(*out, n, sizeof(**out), by_ts);
	return n;
}

/* Everything cs holds, and cs. */
static void
capset_free(struct capset *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		struct cap *c = &cs->c[i];

		if (c->k != NULL) {
			kin_free(c->k);
			free(c->k);
		}
		free(c->path);
		free(c->key);
		free(c->kids);
		free(c->kid_at);
		free(c->roots);
		free(c->root_at);
		free(c->root_ts);
		free(c->root_dur);
	}
	for (i = 0; i < cs->nld; i++) {
		if (cs->ld[i].k != NULL) {
			kin_free(cs->ld[i].k);
			free(cs->ld[i].k);
		}
		free(cs->ld[i].path);
	}
	capents_free(cs->ents, cs->nents);
	for (i = 0; i < cs->nfiles; i++)
		free(cs->files[i]);
	free(cs->files);
	if (cs->drd != NULL)
		js_close(cs->drd);
	if (cs->dfp != NULL)
		io_close(cs->dfp);
	buf_free(&cs->path);
	buf_free(&cs->where);
	free(cs->steps);
	free(cs->gl);
	free(cs->roots);
	free(cs->lk0);
	free(cs->corr0);
	free(cs->ld);
	free(cs->c);
	free(cs->bs);
	error_free(&cs->err);
	free(cs);
}

static int
merge_captures(struct kin *k, const char *folder)
{
	struct capset *cs = xcalloc(1, sizeof(*cs));
	int32_t *steps, *gl, *lk0;
	int64_t *corr0;
	size_t ns = 0, ngl = 0, i, j, tier;
	struct kineto_opts co = { 1, 0, NULL };
	size_t nev0 = k->nev;
	bool failed = false;

	cs->err = (struct error)ERROR_INIT;
	if (setjmp(cs->fail) != 0) {
		/* bad input in the folder: what the merge holds is in cs */
		error_move(&k->err, &cs->err);
		capset_free(cs);
		return -1;
	}
	lk0 = cs->lk0 = xreallocarray(NULL, k->nev + 1, sizeof(*lk0));
	corr0 = cs->corr0 = xreallocarray(NULL, k->nev + 1, sizeof(*corr0));
	for (i = 0; i < k->nev; i++) {
		lk0[i] = k->ev[i].linker;
		corr0[i] = k->ev[i].corr;
	}
	capset_read(cs, folder, &co);
	/* the engine steps: iteration annotations of the first tier that has any */
	steps = cs->steps = xreallocarray(NULL, k->nev + 1, sizeof(*steps));
	for (tier = 1; tier <= 2 && ns == 0; tier++)
		for (i = 0; i < k->nev; i++) {
			struct step st;
			const char *s = k->names.str[k->ev[i].name];

			if (k->ev[i].cat == C_ANNOT && step_parse(s, k->names.len[k->ev[i].name],
			    &st) && step_tier(st.kind) == (int)tier)
				steps[ns++] = (int32_t)i;
		}
	cmp_ev = k->ev;
	qsort(steps, ns, sizeof(*steps), by_ts);
	gl = cs->gl = xreallocarray(NULL, k->nev + 1, sizeof(*gl));
	for (i = 0; i < k->nev; i++)
		if (name_has(k, k->ev[i].name, "graphlaunch", true))
			gl[ngl++] = (int32_t)i;
	qsort(gl, ngl, sizeof(*gl), by_ts);
	for (i = 0; i < ns; i++) {
		const struct kev *x = &k->ev[steps[i]];
		int64_t xs = x->ts, xe = x->ts + x->dur;
		int32_t *roots;
		size_t nr = 0, r;
		long long want = -1, bs = -1;
		struct step st;
		struct cap *c, *full, *piece;
		const char *sname = k->names.str[x->name];

		roots = cs->roots = xreallocarray(cs->roots, ngl + 1, sizeof(*roots));
		for (j = 0; j < ngl; j++)
			if (k->ev[gl[j]].ts >= xs && k->ev[gl[j]].ts + k->ev[gl[j]].dur <= xe)
				roots[nr++] = gl[j];
		if (nr == 0)
			continue;
		(void)step_parse(sname, strlen(sname), &st);
		want = st.batch;
		for (j = 0; j < cs->nbs; j++)
			if (cs->bs[j] >= want && (bs < 0 || cs->bs[j] < bs))
				bs = cs->bs[j];
		full = bs >= 0 ? capset_find(cs, bs, "FULL") : NULL;
		piece = bs >= 0 ? capset_find(cs, bs, "PIECEWISE") : NULL;
		c = full && piece ? (nr != 1 ? piece : full) : full ? full : piece;
		if (c == NULL) {
			warning("%s: no capture trace for the batch size %lld of step %s: its "
			    "graph launches are not merged", folder, bs >= 0 ? bs : want, sname);
			continue;
		}
		cap_load(cs, c, &co);
		if (c->nroots != 1 && c->nroots != nr) {
			warning("%s: %zu capture roots for %zu graph launches in step %s: not "
			    "merged", c->path, c->nroots, nr, sname);
			continue;
		}
		for (r = 0; r < nr; r++) {
			int32_t *gs;
			size_t ng = graph_events(k, roots[r], &gs);

			if (ng > 0 && graft(k, cs, c, c->nroots == 1 ? 0 : r, roots[r], gs,
			    ng) < 0)
				failed = true;
			else if (ng == 0)
				warning("%s: graph launch %u has no GPU events: not merged",
				    k->file, k->ev[roots[r]].idx);
			free(gs);
		}
	}
	if (failed) {
		/* TraceLens: "Graph capture merge failed", the report is unaugmented */
		k->nev = nev0;
		for (i = 0; i < nev0; i++) {
			k->ev[i].linker = lk0[i];
			k->ev[i].corr = corr0[i];
		}
	} else {
		k->cap_folder = folder;
		k->cap_classified = cs->classified;
		k->cap_events = cs->events;
		k->cap_merged = cs->merged;
	}
	if (k->o->verbose)
		note("%s: %zu graph launches merged with their capture (%zu events added)",
		    k->file, cs->merged, cs->events);
	capset_free(cs);
	return 0;
}

/* --- the whole job ------------------------------------------------------------------------- */

static void
kin_free(struct kin *k)
{
	int a;

	if (k->rd != NULL)
		js_close(k->rd);
	free(k->ev);
	names_free(&k->names);
	names_free(&k->strs);
	imap_free(&k->flow_s);
	imap_free(&k->flow_f);
	free(k->f_pid);
	free(k->f_tid);
	imap_free(&k->thread_name);
	imap_free(&k->process_name);
	imap_free(&k->process_label);
	spool_close(k->sp);
	buf_free(&k->devices);
	buf_free(&k->dist);
	buf_free(&k->tmp);
	buf_free(&k->t.name);
	buf_free(&k->t.mname);
	buf_free(&k->t.labels);
	buf_free(&k->t.kern);
	buf_free(&k->t.comm);
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

/* A capture trace, read and its host tree built. */
static struct kin *
kin_load(struct capset *cs, const char *path, const struct kineto_opts *o)
{
	struct error e = ERROR_INIT;
	struct kin *k;
	FILE *fp = io_open_error(path, &e);

	if (fp == NULL) {
		error_move(&cs->err, &e);
		longjmp(cs->fail, 1);
	}
	k = xcalloc(1, sizeof(*k));
	k->err = (struct error)ERROR_INIT;
	k->o = o;
	k->file = path;
	k->rank = -1;
	k->rd = js_open_fp(fp);
	k->sp = spool_open();
	names_init(&k->names);
	names_init(&k->strs);
	if (!read_guarded(k)) {
		error_move(&cs->err, &k->err);
		kin_free(k);
		free(k);
		io_close(fp);
		longjmp(cs->fail, 1);
	}
	js_close(k->rd);
	k->rd = NULL;
	io_close(fp);
	build_tree(k);
	return k;
}

int
kineto_parse(FILE *fp, const char *name, int rank, const struct kineto_opts *o,
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
	k.file = name;
	k.rank = rank;
	k.rd = js_open_fp(fp);
	k.sp = spool_open();
	names_init(&k.names);
	names_init(&k.strs);
	if (!read_guarded(&k)) {
		error_move(err, &k.err);
		kin_free(&k);
		return -1;
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
	if (o->verbose)
		note("%s: %u events; %zu GPU events, %zu unlinked; %zu events of other kinds "
		    "ignored; %zu flows without their finish", name, k.nevents, k.n_gpu,
		    k.n_unlinked, k.n_ignored, k.n_flow_unpaired);
	kin_free(&k);
	return 0;
}
