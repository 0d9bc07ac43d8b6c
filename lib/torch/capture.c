/* SPDX-License-Identifier: ISC */
/*
 * capture: the graph-capture merge of the Kineto reader (docs/tracelens.md §8;
 * TraceLens's --capture_folder), between the reader's links and records: merge_captures
 * reads the folder, pairs each engine step's graph launches with a capture trace, aligns
 * the capture's launches with the replayed GPU events and grafts the capture's host tree
 * under the launch (kinpriv.h holds the state the reader's files share).
 *
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
 *
 * Bad input in the folder (a trace or execution_details.json that cannot be read) ends
 * the merge: capfail keeps the error in the capture set and unwinds to merge_captures
 * with longjmp; everything the merge holds hangs off the set, which merge_captures frees
 * (capset_free, on every path) before it returns the error. What TraceLens skips (an
 * entry not valid, a step without its capture, launches that do not align) is warned.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/json.h"
#include "core/names.h"
#include "core/rec.h"
#include "core/spool.h"
#include "torch/kineto.h"
#include "torch/step.h"

#include "kinpriv.h"

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
	size_t		 n, capc;
	struct names	 keys;		/* c[i]'s key is keys' name i */
	struct loaded {
		char		*path;
		struct kin	*k;
	}		*ld;		/* capture traces read to classify them */
	size_t		 nld;
	bool		 classified;	/* no execution_details.json: classified here */
	long long	*bs;		/* the valid entries' batch sizes (files or not), */
	size_t		 nbs, capbs;	/* ascending once the folder is read */
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

/* The same for an error made elsewhere (e is left empty). */
static void __attribute__((noreturn))
capfail_error(struct capset *cs, struct error *e)
{
	error_move(&cs->err, e);
	longjmp(cs->fail, 1);
}

static bool
name_has(const struct kin *k, uint32_t name, const char *sub, bool nocase)
{
	const char *s = names_str(&k->names, name);

	return nocase ? strcasestr(s, sub) != NULL : strstr(s, sub) != NULL;
}

/* Children in TraceLens's order: as kin_build_tree attaches them, by (ts, index). */
static void
cap_children(struct kin *k, struct cap *c)
{
	int32_t *h = xreallocarray(NULL, k->nev + 1, sizeof(*h));
	size_t nh = kin_host_events(k, h), i, *fill;

	c->kid_at = xcalloc(k->nev + 2, sizeof(size_t));
	for (i = 0; i < nh; i++)
		if (KEV(k, h[i])->parent >= 0)
			c->kid_at[KEV(k, h[i])->parent + 1]++;
	for (i = 0; i < k->nev; i++)
		c->kid_at[i + 1] += c->kid_at[i];
	c->kids = xreallocarray(NULL, c->kid_at[k->nev] + 1, sizeof(*c->kids));
	fill = xcalloc(k->nev + 1, sizeof(size_t));
	for (i = 0; i < nh; i++) {
		int32_t p = KEV(k, h[i])->parent;

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
		if (KEV(k, i)->cat != C_RUNTIME)
			continue;
		if (name_has(k, KEV(k, i)->name, "StreamBeginCapture", false)) {
			beg = xgrow(beg, &cb, nb + 1, sizeof(*beg));
			beg[nb++] = (int32_t)i;
		} else if (name_has(k, KEV(k, i)->name, "StreamEndCapture", false)) {
			end = xgrow(end, &ce, ne + 1, sizeof(*end));
			end[ne++] = (int32_t)i;
		}
	}
	c->nroots = nb < ne ? nb : ne;
	c->root_at = xcalloc(c->nroots + 1, sizeof(size_t));
	c->root_ts = xcalloc(c->nroots + 1, sizeof(int64_t));
	c->root_dur = xcalloc(c->nroots + 1, sizeof(int64_t));
	for (r = 0; r < c->nroots; r++) {
		int64_t ts = KEV(k, beg[r])->ts + KEV_DUR(k, KEV(k, beg[r])), te = KEV(k, end[r])->ts;

		c->root_ts[r] = ts;
		c->root_dur[r] = te - ts;
		for (i = 0; i < k->nev; i++)
			in[i] = KEV(k, i)->ts >= ts && KEV(k, i)->ts + KEV_DUR(k, KEV(k, i)) <= te;
		for (i = 0; i < k->nev; i++) {
			const struct kev *v = KEV(k, i);

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

/* A capture trace read (kin_load); bad input: back to merge_captures. */
static struct kin *
cap_trace(struct capset *cs, const char *path, const struct kineto_opts *o)
{
	struct error e = ERROR_INIT;
	struct kin *k = kin_load(path, o, &e);

	if (k == NULL)
		capfail_error(cs, &e);
	return k;
}

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
		c->k = cap_trace(cs, c->path, o);
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
		const struct kev *e = KEV(k, i);
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

/* The folder's capture traces (.json or .json.gz, by name), sorted, into cs->files. */
static void
list_traces(struct capset *cs, const char *folder)
{
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
	if (cs->nfiles == 0)
		capfail(cs, folder, -1, "no execution_details.json and no capture trace (.json, "
		    ".json.gz) to classify");
	qsort(cs->files, cs->nfiles, sizeof(*cs->files), by_str);
}

/* What a capture trace shows of how it was captured. */
struct capmarks {
	size_t	 ndummy;	/* vLLM _dummy_run frames */
	size_t	 nann;		/* capture_<bs>_<mode> annotations ... */
	int32_t	 ann;		/* ... and the first of them */
	size_t	 nbeg;		/* StreamBeginCapture calls */
};

/* A python frame "vllm/v1/worker/gpu_model_runner.py(<line>): _dummy_run". */
static bool
is_dummy_run(const char *nm)
{
	static const char dummy[] = "vllm/v1/worker/gpu_model_runner.py(";
	const char *p;

	if (strncmp(nm, dummy, sizeof(dummy) - 1) != 0)
		return false;
	for (p = nm + sizeof(dummy) - 1; *p >= '0' && *p <= '9'; p++)
		;
	return p > nm + sizeof(dummy) - 1 && strncmp(p, "): _dummy_run", 13) == 0;
}

static void
capture_marks(const struct kin *k, struct capmarks *m)
{
	size_t j;

	memset(m, 0, sizeof(*m));
	m->ann = -1;
	for (j = 0; j < k->nev; j++) {
		const struct kev *v = KEV(k, j);
		const char *nm = names_str(&k->names, v->name);
		struct step st;

		if (is_dummy_run(nm))
			m->ndummy++;
		if (v->cat == C_RUNTIME && strstr(nm, "StreamBeginCapture") != NULL)
			m->nbeg++;
		if (v->cat == C_ANNOT && step_parse(nm, strlen(nm), &st) &&
		    st.kind == STEP_CAPTURE) {
			m->nann++;
			if (m->ann < 0 || v->ts < KEV(k, m->ann)->ts)
				m->ann = (int32_t)j;
		}
	}
}

/* x's batch size and mode as classify_graph_capture_trace finds them in capture trace
 * k: its capture annotation's when it has as many as _dummy_run frames, else FULL for
 * at most one StreamBeginCapture and PIECEWISE for more, with the most common first
 * dimension as the batch size (none: null). Returns how, for the note. */
static const char *
classify_trace(struct kin *k, struct capent *x)
{
	struct capmarks m;

	capture_marks(k, &m);
	if (m.nann > 0 && m.nann == m.ndummy) {
		/* capture_<bs>_<mode>: the mode is the rest of the name */
		const char *nm = names_str(&k->names, KEV(k, m.ann)->name);
		struct step st;

		(void)step_parse(nm, strlen(nm), &st);
		x->bs = st.batch;
		x->has_bs = true;
		x->mode = xstrdup(strchr(nm + 8, '_') + 1);
		return "from its annotation";
	}
	x->bs = common_first_dim(k);
	x->has_bs = x->bs >= 0;
	x->mode = xstrdup(m.nbeg <= 1 ? "FULL" : "PIECEWISE");
	return "inferred";
}

/* classify_graph_capture_trace, without writing the file: the entries
 * execution_details.json would have, one per capture trace of the folder, in cs->ents;
 * the traces read stay in cs->ld for the merge. */
static void
capset_classify(struct capset *cs, const char *folder, const struct kineto_opts *o)
{
	size_t i;

	list_traces(cs, folder);
	cs->ents = xcalloc(cs->nfiles, sizeof(*cs->ents));
	cs->nents = cs->nfiles;
	for (i = 0; i < cs->nfiles; i++) {
		struct capent *x = &cs->ents[i];
		struct kin *k;
		const char *how;

		buf_reset(&cs->path);
		buf_printf(&cs->path, "%s/%s", folder, cs->files[i]);
		k = cap_trace(cs, cs->path.p, o);
		how = classify_trace(k, x);
		note("%s: batch size %lld, mode %s (%s; TraceLens would write them to "
		    "execution_details.json)", cs->path.p, x->bs, x->mode, how);
		cs->ld = xreallocarray(cs->ld, cs->nld + 1, sizeof(*cs->ld));
		cs->ld[cs->nld].path = xstrdup(cs->path.p);
		cs->ld[cs->nld++].k = k;
		x->file = xstrdup(cs->files[i]);
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

	if ((cs->dfp = io_open_error(path, &e)) == NULL)
		capfail_error(cs, &e);
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

static int
by_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* execution_details.json: [{file, batch_size, mode}, ...] (load_capture_folder); when
 * the folder has none, the traces are classified as TraceLens classifies them. */
static void
capset_read(struct capset *cs, const char *folder, const struct kineto_opts *o)
{
	struct capent *ents;
	size_t n, i, j;
	int added;

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
		cs->bs = xgrow(cs->bs, &cs->capbs, cs->nbs + 1, sizeof(*cs->bs));
		cs->bs[cs->nbs++] = bs;
		buf_printf(&path, "%s/%s", folder, file);
		if (!readable(path.p)) {
			warning("%s: capture trace not found: skipped", path.p);
			buf_free(&path);
			continue;
		}
		buf_printf(&key, "%lld_%s", bs, mode);
		j = names_add(&cs->keys, key.p, key.len, &added);
		if (added) {
			cs->c = xgrow(cs->c, &cs->capc, cs->n + 1, sizeof(*cs->c));
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
	if (cs->nbs > 1)
		qsort(cs->bs, cs->nbs, sizeof(*cs->bs), by_ll);
}

static struct cap *
capset_find(struct capset *cs, long long bs, const char *mode)
{
	struct buf key = BUF_INIT;
	uint32_t j;

	buf_printf(&key, "%lld_%s", bs, mode);
	j = names_lookup(&cs->keys, key.p, key.len);
	buf_free(&key);
	return j != NAME_NONE ? &cs->c[j] : NULL;
}

/* --- alignment (verify_subtree_events, align_streams) --- */

struct align {
	struct kin	*ck, *gk;
	const int32_t	*c, *g;		/* capture launches, graph GPU events */
	size_t		 nc, ng;
	int32_t		*out;		/* per graph event (in *g order), its capture launch */
	int32_t		*gperm;		/* the graph events, reordered (group alignment) */
};

/* a set up for capture launches c[0..nc) of ck and graph GPU events g[0..ng) of gk. */
static void
align_init(struct align *a, struct kin *ck, const int32_t *c, size_t nc, struct kin *gk,
    const int32_t *g, size_t ng)
{
	size_t n = (ng > nc ? ng : nc) + 1;

	memset(a, 0, sizeof(*a));
	a->ck = ck;
	a->gk = gk;
	a->c = c;
	a->nc = nc;
	a->g = g;
	a->ng = ng;
	a->out = xreallocarray(NULL, n, sizeof(int32_t));
	a->gperm = xreallocarray(NULL, n, sizeof(int32_t));
	memcpy(a->gperm, g, ng * sizeof(*g));
}

static void
align_free(struct align *a)
{
	free(a->out);
	free(a->gperm);
}

static const char *
cap_kname(const struct kin *k, const struct kev *v)
{
	return names_str(&k->names, v->kname != NAME_NONE ? v->kname : v->name);
}

static bool
names_match(const struct align *a, int32_t c, int32_t g)
{
	const struct kev *cv = KEV(a->ck, c);
	const char *cn = names_str(&a->ck->names, cv->name);
	const char *gn = names_str(&a->gk->names, KEV(a->gk, g)->name);

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
		const char *s = cap_kname(a->ck, KEV(a->ck, a->c[i]));

		(void)names_intern(&nm, s, strlen(s));
	}
	for (i = 0; i < a->ng; i++) {
		const char *s = names_str(&a->gk->names, KEV(a->gk, a->g[i])->name);

		(void)names_intern(&nm, s, strlen(s));
	}
	n = nm.n;
	cc = xcalloc(n + 1, sizeof(size_t));
	gc = xcalloc(n + 1, sizeof(size_t));
	seen = xcalloc(n + 1, sizeof(size_t));
	for (i = 0; i < a->nc; i++) {
		const char *s = cap_kname(a->ck, KEV(a->ck, a->c[i]));

		cc[names_lookup(&nm, s, strlen(s))]++;
	}
	for (i = 0; i < a->ng; i++) {
		const char *s = names_str(&a->gk->names, KEV(a->gk, a->g[i])->name);

		gc[names_lookup(&nm, s, strlen(s))]++;
	}
	for (i = 0; i < n; i++)
		if (cc[i] != gc[i])
			ok = false;
	for (i = 0; ok && i < a->nc; i++) {
		const char *s = cap_kname(a->ck, KEV(a->ck, a->c[i]));
		uint32_t x = names_lookup(&nm, s, strlen(s));
		size_t want = seen[x]++, m = 0;

		for (j = 0; j < a->ng; j++) {
			const char *gs = names_str(&a->gk->names, KEV(a->gk, a->g[j])->name);

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
		const struct kev *cv = KEV(a->ck, a->c[i]);

		a->out[i] = a->c[i];
		if (cv->kname == NAME_NONE)
			continue;	/* TraceLens: "alignment has not been verified" */
		if (strcmp(names_str(&a->ck->names, cv->kname),
		    names_str(&a->gk->names, KEV(a->gk, a->g[i])->name)) != 0)
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
		int64_t v = kv_get(a->gk, KEV(a->gk, a->g[i])->stream);

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

static bool
several_streams(const struct kin *k, const int32_t *gs, size_t ng)
{
	size_t i;

	for (i = 1; i < ng; i++)
		if (kv_get(k, KEV(k, gs[i])->stream) != kv_get(k, KEV(k, gs[0])->stream))
			return true;
	return false;
}

/* A launch that names no kernel (no args.kernel) and is no Memcpy or Memset: one that
 * the per-stream alignment cannot place. */
static bool
launches_unnamed(const struct kin *ck, const int32_t *launch, size_t nl)
{
	size_t i;

	for (i = 0; i < nl; i++) {
		const struct kev *v = KEV(ck, launch[i]);

		if (v->kname == NAME_NONE && !name_has(ck, v->name, "Memcpy", false) &&
		    !name_has(ck, v->name, "Memset", false))
			return true;
	}
	return false;
}

/* The capture launches aligned with graph launch g's GPU events: align_single's 1 to 3,
 * 4 per stream, 0 when they do not align; -1 (warned, path the capture trace) when the
 * graph ran on several streams and the launches name no kernels. */
static int
align_launches(struct align *a, const char *path, int32_t g)
{
	if (!several_streams(a->gk, a->g, a->ng))
		return align_single(a);
	if (launches_unnamed(a->ck, a->c, a->nc)) {
		warning("%s: %s: the graph ran on several streams and the capture's launches "
		    "name no kernels: no capture is merged", path,
		    names_str(&a->gk->names, KEV(a->gk, g)->name));
		return -1;
	}
	return align_streams(a) ? 4 : 0;
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

/* A subtree event in grafting order: by capture time, ties in breadth-first order. */
struct gitem {
	int64_t		t;
	uint32_t	pos;		/* breadth-first position */
	int32_t		ev;
};

static int
by_capture_time(const void *a, const void *b)
{
	const struct gitem *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The subtree of capture root r, breadth first from the root (-1 stands for
 * CaptureRoot, the kids in TraceLens's order); *nb: how many events. */
static int32_t *
subtree_bfs(const struct cap *c, size_t r, size_t *nb)
{
	int32_t *bfs = NULL;
	size_t n = 0, cb = 0, head, i;

	bfs = xgrow(bfs, &cb, 1, sizeof(*bfs));
	bfs[n++] = -1;
	for (head = 0; head < n; head++) {
		int32_t x = bfs[head];
		const int32_t *kid = x < 0 ? c->roots + c->root_at[r] : c->kids + c->kid_at[x];
		size_t nk = x < 0 ? c->root_at[r + 1] - c->root_at[r] :
		    c->kid_at[x + 1] - c->kid_at[x];

		bfs = xgrow(bfs, &cb, n + nk, sizeof(*bfs));
		for (i = 0; i < nk; i++)
			bfs[n++] = kid[i];
	}
	*nb = n;
	return bfs;
}

/* The subtree bfs[0..nb) of root r by capture time, ties in breadth-first order (a
 * stable sort): the order the grafted events are numbered in. */
static void
sort_by_capture_time(const struct cap *c, size_t r, int32_t *bfs, size_t nb)
{
	struct gitem *o = xreallocarray(NULL, nb, sizeof(*o));
	size_t i;

	for (i = 0; i < nb; i++) {
		o[i].t = bfs[i] < 0 ? c->root_ts[r] : KEV(c->k, bfs[i])->ts;
		o[i].pos = (uint32_t)i;
		o[i].ev = bfs[i];
	}
	qsort(o, nb, sizeof(*o), by_capture_time);
	for (i = 0; i < nb; i++)
		bfs[i] = o[i].ev;
	free(o);
}

/* The subtree's launches, in its order: runtime or driver events named with launch,
 * memcpy or memset (any case); *nl: how many. */
static int32_t *
subtree_launches(const struct kin *ck, const int32_t *bfs, size_t nb, size_t *nl)
{
	int32_t *launch = NULL;
	size_t n = 0, cl = 0, i;

	for (i = 0; i < nb; i++) {
		const struct kev *v = bfs[i] < 0 ? NULL : KEV(ck, bfs[i]);

		if (v == NULL || !IS_LAUNCH(v->cat) || !(name_has(ck, v->name, "launch", true) ||
		    name_has(ck, v->name, "memcpy", true) || name_has(ck, v->name, "memset", true)))
			continue;
		launch = xgrow(launch, &cl, n + 1, sizeof(*launch));
		launch[n++] = bfs[i];
	}
	*nl = n;
	return launch;
}

/* v made the subtree's root: a runtime event "CaptureRoot" of no thread, under g. */
static void
set_capture_root(struct kin *k, struct kev *v, int32_t g)
{
	v->name = names_intern(&k->names, "CaptureRoot", 11);
	v->cat = C_RUNTIME;
	v->thr = kin_thread(k, NOVAL, NOVAL);
	v->corr = v->ext = v->seq = KV_NONE;
	v->stream = v->device = KV_NONE;
	v->parent = g;
}

/* v made a copy of capture event cv: its name and string ids interned in k, its "in"
 * spooled in k's spool. */
static void
copy_event(struct kin *k, struct kin *ck, const struct kev *cv, struct kev *v)
{
	v->name = names_intern(&k->names, ck->names.str[cv->name], ck->names.len[cv->name]);
	v->cat = cv->cat;
	v->thr = kin_thread(k, remap_id(k, ck, KEV_PID(ck, cv)), remap_id(k, ck, KEV_TID(ck, cv)));
	v->corr = kv_put(k, remap_id(k, ck, kv_get(ck, cv->corr)));
	v->ext = kv_put(k, remap_id(k, ck, kv_get(ck, cv->ext)));
	v->seq = kv_put(k, kv_get(ck, cv->seq));
	v->stream = kv_put(k, kv_get(ck, cv->stream));
	v->device = kv_put(k, kv_get(ck, cv->device));
	if (cv->in_len > 0) {
		v->in_off = spool_add(k->sp, spool_get(ck->sp, cv->in_off, cv->in_len),
		    cv->in_len);
		v->in_len = cv->in_len;
	}
	if (cv->cat == C_CPU_OP)
		k->has_cpu_op = true;
}

/* The subtree bfs[0..nb) appended to k as new events numbered on from idx, each at
 * graph launch g's start and duration, unlinked; map[capture event] is its new event.
 * Returns the CaptureRoot's. */
static int32_t
append_subtree(struct kin *k, struct kin *ck, int32_t g, uint32_t idx, const int32_t *bfs,
    size_t nb, int32_t *map)
{
	int32_t root = -1;
	size_t i;

	for (i = 0; i < nb; i++) {
		int32_t x = kin_add_event(k);
		struct kev *v = KEV(k, x);

		v->idx = idx + (uint32_t)i;
		v->ts = KEV(k, g)->ts;
		v->dur = KEV(k, g)->dur;
		v->parent = v->linker = v->launcher = v->fwd = -1;
		v->kname = NAME_NONE;
		if (bfs[i] < 0) {
			set_capture_root(k, v, g);
			root = x;
		} else {
			map[bfs[i]] = x;
			copy_event(k, ck, KEV(ck, bfs[i]), v);
		}
	}
	return root;
}

/* The aligned subtree bfs[0..nb) grafted under graph launch g: appended, each event
 * under its capture parent's copy (the CaptureRoot when that is outside the subtree),
 * and each graph GPU event linked to the copy of its capture launch. */
static void
graft_aligned(struct kin *k, struct capset *cs, struct kin *ck, int32_t g,
    const int32_t *bfs, size_t nb, const struct align *a)
{
	int32_t *map = xreallocarray(NULL, ck->nev + 1, sizeof(*map)), root;
	size_t i;

	for (i = 0; i < ck->nev; i++)
		map[i] = -1;
	root = append_subtree(k, ck, g, k->nevents + (uint32_t)cs->events, bfs, nb, map);
	for (i = 0; i < nb; i++) {
		int32_t p;

		if (bfs[i] < 0)
			continue;
		p = KEV(ck, bfs[i])->parent;
		KEV(k, map[bfs[i]])->parent = p >= 0 && map[p] >= 0 ? map[p] : root;
	}
	for (i = 0; i < a->ng; i++) {
		struct kev *gv = KEV(k, a->gperm[i]);

		gv->linker = map[a->out[i]];
		gv->corr = KEV(k, gv->linker)->corr;
	}
	cs->events += nb;
	cs->merged++;
	free(map);
}

/* Capture root r of c grafted under graph launch g of k, and the graph's GPU events
 * (gs[0..ng), in time order) relinked to their capture launches. Launches that do not
 * align are warned and not merged (0); -1 when the merge cannot be made at all. */
static int
graft(struct kin *k, struct capset *cs, struct cap *c, size_t r, int32_t g,
    const int32_t *gs, size_t ng)
{
	struct align a;
	size_t nb, nl;
	int32_t *bfs = subtree_bfs(c, r, &nb), *launch;
	int how;

	sort_by_capture_time(c, r, bfs, nb);
	launch = subtree_launches(c->k, bfs, nb, &nl);
	align_init(&a, c->k, launch, nl, k, gs, ng);
	how = align_launches(&a, c->path, g);
	if (how == 0)
		warning("%s: the launches of %s (%zu) do not align with the %zu GPU events of "
		    "%s (event %u): not merged", c->path, c->nroots > 1 ? "its capture root" :
		    "the capture", nl, ng, names_str(&k->names, KEV(k, g)->name), KEV(k, g)->idx);
	else if (how > 0)
		graft_aligned(k, cs, c->k, g, bfs, nb, &a);
	align_free(&a);
	free(launch);
	free(bfs);
	return how < 0 ? -1 : 0;
}

/* The GPU events of graph launch g: those linked to it or to an event below it. */
static size_t
graph_events(struct kin *k, int32_t g, int32_t **out)
{
	size_t n = 0, i;
	int32_t p;

	*out = xreallocarray(NULL, k->nev + 1, sizeof(**out));
	for (i = 0; i < k->nev; i++) {
		if (!IS_GPU(KEV(k, i)->cat) || KEV(k, i)->linker < 0)
			continue;
		for (p = KEV(k, i)->linker; p >= 0 && p != g; p = KEV(k, p)->parent)
			;
		if (p == g)
			(*out)[n++] = (int32_t)i;
	}
	kin_sort_by_ts(k, *out, n);
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
	names_free(&cs->keys);
	error_free(&cs->err);
	free(cs);
}

/* The trace's GPU links as they are before the merge, for undoing it (restore_links). */
static void
save_links(struct capset *cs, const struct kin *k)
{
	size_t i;

	cs->lk0 = xreallocarray(NULL, k->nev + 1, sizeof(*cs->lk0));
	cs->corr0 = xreallocarray(NULL, k->nev + 1, sizeof(*cs->corr0));
	for (i = 0; i < k->nev; i++) {
		cs->lk0[i] = KEV(k, i)->linker;
		cs->corr0[i] = KEV(k, i)->corr;
	}
}

/* The merge undone: the events it appended dropped (nev0 were there before), the GPU
 * links back as save_links found them. */
static void
restore_links(struct kin *k, const struct capset *cs, size_t nev0)
{
	size_t i;

	k->nev = nev0;
	for (i = 0; i < nev0; i++) {
		KEV(k, i)->linker = cs->lk0[i];
		KEV(k, i)->corr = cs->corr0[i];
	}
}

/* The engine steps, into cs->steps by time: the iteration annotations of the first tier
 * that has any. Returns how many. */
static size_t
engine_steps(struct capset *cs, const struct kin *k)
{
	size_t ns = 0, i, tier;

	cs->steps = xreallocarray(NULL, k->nev + 1, sizeof(*cs->steps));
	for (tier = 1; tier <= 2 && ns == 0; tier++)
		for (i = 0; i < k->nev; i++) {
			struct step st;
			const char *s = k->names.str[KEV(k, i)->name];

			if (KEV(k, i)->cat == C_ANNOT && step_parse(s, k->names.len[KEV(k, i)->name],
			    &st) && step_tier(st.kind) == (int)tier)
				cs->steps[ns++] = (int32_t)i;
		}
	kin_sort_by_ts(k, cs->steps, ns);
	return ns;
}

/* The graph launches (events named with graphlaunch, any case), into cs->gl by time.
 * Returns how many. */
static size_t
graph_launches(struct capset *cs, const struct kin *k)
{
	size_t ngl = 0, i;

	cs->gl = xreallocarray(NULL, k->nev + 1, sizeof(*cs->gl));
	for (i = 0; i < k->nev; i++)
		if (name_has(k, KEV(k, i)->name, "graphlaunch", true))
			cs->gl[ngl++] = (int32_t)i;
	kin_sort_by_ts(k, cs->gl, ngl);
	return ngl;
}

/* The graph launches cs->gl[0..ngl) that lie inside step x, into cs->roots. Returns how
 * many. */
static size_t
step_launches(struct capset *cs, const struct kin *k, const struct kev *x, size_t ngl)
{
	int64_t xs = x->ts, xe = x->ts + KEV_DUR(k, x);
	size_t nr = 0, j;

	cs->roots = xreallocarray(cs->roots, ngl + 1, sizeof(*cs->roots));
	for (j = 0; j < ngl; j++)
		if (KEV(k, cs->gl[j])->ts >= xs && KEV(k, cs->gl[j])->ts + KEV_DUR(k, KEV(k, cs->gl[j])) <= xe)
			cs->roots[nr++] = cs->gl[j];
	return nr;
}

/* The capture for step sname of batch size want with nr graph launches: of the
 * smallest batch size at least want, FULL or PIECEWISE (PIECEWISE when both exist and
 * the step has several launches). NULL (warned) when there is none. */
static struct cap *
step_capture(struct capset *cs, long long want, size_t nr, const char *sname)
{
	long long bs = -1;
	struct cap *full, *piece;
	size_t lo = 0, hi = cs->nbs;

	while (lo < hi) {	/* the first at least want, and not negative (ascending) */
		size_t mid = lo + (hi - lo) / 2;

		if (cs->bs[mid] < want || cs->bs[mid] < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < cs->nbs)
		bs = cs->bs[lo];
	full = bs >= 0 ? capset_find(cs, bs, "FULL") : NULL;
	piece = bs >= 0 ? capset_find(cs, bs, "PIECEWISE") : NULL;
	if (full == NULL && piece == NULL)
		warning("%s: no capture trace for the batch size %lld of step %s: its graph "
		    "launches are not merged", cs->folder, bs >= 0 ? bs : want, sname);
	return full && piece ? (nr != 1 ? piece : full) : full ? full : piece;
}

/* Graph launches roots[0..nr) of k grafted with the capture roots of c (one serves
 * every launch, else one each). Returns false when a graft could not be made at all. */
static bool
graft_launches(struct kin *k, struct capset *cs, struct cap *c, const int32_t *roots,
    size_t nr)
{
	bool ok = true;
	size_t r;

	for (r = 0; r < nr; r++) {
		int32_t *gs;
		size_t ng = graph_events(k, roots[r], &gs);

		if (ng > 0 && graft(k, cs, c, c->nroots == 1 ? 0 : r, roots[r], gs, ng) < 0)
			ok = false;
		else if (ng == 0)
			warning("%s: graph launch %u has no GPU events: not merged", k->file,
			    KEV(k, roots[r])->idx);
		free(gs);
	}
	return ok;
}

/* The graph launches of engine step k->ev[step] merged with the capture of its batch
 * size (read with options co). Returns false when a graft could not be made at all. */
static bool
merge_step(struct kin *k, struct capset *cs, const struct kineto_opts *co, int32_t step,
    size_t ngl)
{
	const struct kev *x = KEV(k, step);
	const char *sname = k->names.str[x->name];
	size_t nr = step_launches(cs, k, x, ngl);
	struct step st;
	struct cap *c;

	if (nr == 0)
		return true;
	(void)step_parse(sname, strlen(sname), &st);
	if ((c = step_capture(cs, st.batch, nr, sname)) == NULL)
		return true;
	cap_load(cs, c, co);
	if (c->nroots != 1 && c->nroots != nr) {
		warning("%s: %zu capture roots for %zu graph launches in step %s: not merged",
		    c->path, c->nroots, nr, sname);
		return true;
	}
	return graft_launches(k, cs, c, cs->roots, nr);
}

/* The merge kept for the trace record, or undone when a graft failed (TraceLens: "Graph
 * capture merge failed", the report is unaugmented). */
static void
merge_done(struct kin *k, const struct capset *cs, bool failed, size_t nev0)
{
	if (failed)
		restore_links(k, cs, nev0);
	else {
		k->cap_folder = cs->folder;
		k->cap_classified = cs->classified;
		k->cap_events = cs->events;
		k->cap_merged = cs->merged;
	}
	if (k->o->verbose && failed)
		note("%s: the capture merge failed: undone, no graph launch merged", k->file);
	else if (k->o->verbose)
		note("%s: %zu graph launches merged with their capture (%zu events added)",
		    k->file, cs->merged, cs->events);
}

int
merge_captures(struct kin *k, const char *folder)
{
	struct capset *cs = xcalloc(1, sizeof(*cs));
	struct kineto_opts co = { 1, 0, NULL, 0, 0, NULL };
	size_t nev0 = k->nev, ns, ngl, i;
	bool failed = false;

	cs->err = (struct error)ERROR_INIT;
	names_init(&cs->keys);
	if (setjmp(cs->fail) != 0) {
		/* bad input in the folder: what the merge holds is in cs */
		error_move(&k->err, &cs->err);
		capset_free(cs);
		return -1;
	}
	save_links(cs, k);
	capset_read(cs, folder, &co);
	ns = engine_steps(cs, k);
	ngl = graph_launches(cs, k);
	for (i = 0; i < ns; i++)
		if (!merge_step(k, cs, &co, cs->steps[i], ngl))
			failed = true;
	merge_done(k, cs, failed, nev0);
	capset_free(cs);
	return 0;
}
