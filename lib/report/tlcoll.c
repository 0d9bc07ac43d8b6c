/* SPDX-License-Identifier: ISC */
/* tlcoll: coll_analysis (docs/tracelens.md §7.8). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/json.h"
#include "core/names.h"
#include "report/pyrepr.h"
#include "report/tab.h"
#include "report/tlsheets.h"
#include "report/tltree.h"
#include "tlcommon.h"

/* --- coll_analysis (§7.8) ------------------------------------------------------------ */

static const char *const coll_keys[] = {
	"Process Group Name", "Process Group Ranks", "Collective name", "Group size", "dtype",
	"In msg nelems", "Out msg nelems", "In split size", "Out split size", NULL
};

/* Bytes of an element of a collective's dtype; 0 when unknown (the size stays empty). */
static int
coll_dtype_bytes(const char *d)
{
	static const struct { const char *n; int b; } tb[] = {
		{ "Float", 4 }, { "Int", 4 }, { "Long", 8 }, { "BFloat16", 2 }, { "Bool", 1 },
		{ "Byte", 1 }, { "Double", 8 }, { "Half", 2 }, { "Short", 2 }, { NULL, 0 }
	};
	size_t i;

	for (i = 0; d != NULL && tb[i].n; i++)
		if (strcmp(d, tb[i].n) == 0)
			return tb[i].b;
	return 0;
}

#define NCOLL 9	/* coll_keys' count */

/* A collective's args as sheet_coll reads them: each coll_keys member's type (JS_NULL
 * when absent) and text in txt (a string decoded, a number's text, "true"/"false", an
 * array or object as compact JSON text as the record holds it). */
struct collv {
	struct buf	 txt;
	enum js_tok	 t[NCOLL];
	size_t		 at[NCOLL];
};

/* Read the "comm" object's text (the last value where a key repeats); false when it is
 * not an object or is one that jansson did not read without flags (an integer beyond long
 * long, a NUL in a string), as the sheet read it before. */
static bool
coll_read(const char *txt, struct collv *c)
{
	struct js_reader *rd;
	enum js_tok t;
	const char *x;
	size_t j, n, len = strlen(txt);
	bool ok = true;

	buf_reset(&c->txt);
	for (j = 0; j < NCOLL; j++)
		c->t[j] = JS_NULL;
	if (py_json_bigint(txt, len))
		return false;
	rd = js_open_mem(txt, len);
	if (js_next(rd) != JS_OBJECT) {
		js_close(rd);
		return false;
	}
	while (ok && (t = js_next(rd)) == JS_KEY) {
		x = js_str(rd, &n);
		ok = strlen(x) == n;
		for (j = 0; j < NCOLL && strcmp(x, coll_keys[j]) != 0; j++)
			;
		t = js_next(rd);
		if (j == NCOLL) {
			ok = ok && js_skip(rd) != JS_ERROR;
			continue;
		}
		c->t[j] = t;
		c->at[j] = c->txt.len;
		if (t == JS_STRING) {
			x = js_str(rd, &n);
			ok = ok && strlen(x) == n;
			buf_add(&c->txt, x, n);
		} else if (t == JS_NUMBER) {
			x = js_text(rd, &n);
			buf_add(&c->txt, x, n);
		} else if (t == JS_TRUE || t == JS_FALSE)
			buf_adds(&c->txt, t == JS_TRUE ? "true" : "false");
		else if (t == JS_OBJECT || t == JS_ARRAY)
			ok = ok && js_capture(rd, &c->txt) != JS_ERROR;
		buf_addc(&c->txt, '\0');
	}
	js_close(rd);
	return ok;
}

static const char *
coll_text(const struct collv *c, size_t j)
{
	return c->t[j] == JS_NULL ? NULL : c->txt.p + c->at[j];
}

/* Member j as a cell: integers and reals as numbers, strings as text, true, false, arrays
 * and objects as their JSON text (compact; no collective arg of a real trace is one). */
static void
coll_val(const struct collv *c, size_t j, struct tl_val *out)
{
	const char *x = coll_text(c, j);
	long long v;

	if (x == NULL)
		return;
	if (c->t[j] == JS_NUMBER && js_number_int(x, strlen(x), &v))
		*out = (struct tl_val){ TAB_INT, v, 0, NULL };
	else if (c->t[j] == JS_NUMBER)
		*out = (struct tl_val){ TAB_NUM, 0, strtod(x, NULL), NULL };
	else
		*out = tl_val_str(x);
}

/* A communication kernel's collective args: each group key but the process group's
 * name is there (TraceLens's groupby drops a row with any key missing) and a stream. */
static int
coll_complete(const struct tl *tl, const struct gpuev *k, struct collv *c)
{
	size_t j;
	int ok = coll_read(tl_str(tl, k->comm), c) && k->stream >= 0;

	for (j = 1; ok && j < NCOLL; j++)
		ok = c->t[j] != JS_NULL;
	return ok;
}

/* The process group's name where the args have none: "Unknown_Group", or "all" when no
 * collective kernel names one and each rank runs them on one stream (TraceLens's
 * simplified inference mode). */
static const char *
coll_unnamed_group(const struct tl *tl)
{
	long long *rank = NULL, *stream = NULL;
	size_t n = 0, i, j;
	const char *name = "all", *v;
	struct collv c = { BUF_INIT, { 0 }, { 0 } };

	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];

		if (k->gpu != TL_GPU_KERNEL || k->cls != TL_CLS_COMM)
			continue;
		if (k->comm != NAME_NONE && coll_read(tl_str(tl, k->comm), &c) &&
		    (v = coll_text(&c, 0)) != NULL &&
		    !(c.t[0] == JS_STRING && strcmp(v, "Unknown_Group") == 0))
			name = "Unknown_Group";
		for (j = 0; j < n && rank[j] != tl_kev_rank(tl, k); j++)
			;
		if (j == n) {
			rank = xreallocarray(rank, n + 1, sizeof(*rank));
			stream = xreallocarray(stream, n + 1, sizeof(*stream));
			rank[n] = tl_kev_rank(tl, k);
			stream[n++] = k->stream;
		} else if (stream[j] != k->stream)
			name = "Unknown_Group";
	}
	free(rank);
	free(stream);
	buf_free(&c.txt);
	return name;
}

/* coll_analysis's sources: a group's first kernel and its collective's args (CO_ARG + j:
 * coll_keys[j]), its durations. */
enum { CO_DUR, CO_RANK, CO_STREAM, CO_IN_MB, CO_OUT_MB, CO_ARG };
enum { CC_RANK, CC_ARG, CC_STREAM = CC_ARG + NCOLL, CC_IN_MB, CC_OUT_MB, CC_SUM, CC_MEAN,
	CC_STD, CC_MIN, CC_MAX, CC_COUNT, CC_N };

/* The args' columns are named by coll_keys (tl_sheet_coll). */
#define CC_KEY(j)	[CC_ARG + (j)] = { NULL, CO_ARG + (j), TL_FIRST, TL_STR, 0, 0 }
static const struct tl_col cc_cols[CC_N] = {
	[CC_RANK] = { "rank", CO_RANK, TL_FIRST, TL_INT, 0, 0 },
	CC_KEY(0), CC_KEY(1), CC_KEY(2), CC_KEY(3), CC_KEY(4), CC_KEY(5), CC_KEY(6),
	CC_KEY(7), CC_KEY(8),
	[CC_STREAM] = { "stream", CO_STREAM, TL_FIRST, TL_INT, 0, 0 },
	[CC_IN_MB] = { "In msg size (MB)_first", CO_IN_MB, TL_FIRST, TL_NUM, 0, 0 },
	[CC_OUT_MB] = { "Out msg size (MB)_first", CO_OUT_MB, TL_FIRST, TL_NUM, 0, 0 },
	[CC_SUM] = { "dur_sum", CO_DUR, TL_SUM, TL_NUM, 0, 0 },
	[CC_MEAN] = { "dur_mean", CO_DUR, TL_MEAN, TL_NUM, 0, 0 },
	[CC_STD] = { "dur_std", CO_DUR, TL_STD, TL_NUM, 0, 0 },
	[CC_MIN] = { "dur_min", CO_DUR, TL_MIN, TL_NUM, 0, 0 },
	[CC_MAX] = { "dur_max", CO_DUR, TL_MAX, TL_NUM, 0, 0 },
	[CC_COUNT] = { "operation_count", CO_DUR, TL_COUNT, TL_INT, 0, 0 },
};
#undef CC_KEY

struct cfirst {
	struct tl		*tl;
	const struct gpuev	*k;
	struct collv		 c;		/* k's collective args */
	const char		*unnamed;	/* coll_unnamed_group's, once asked for */
};

static void
cfirst(void *ctx, int src, struct tl_val *v)
{
	struct cfirst *f = ctx;
	const struct collv *c = &f->c;
	size_t j = src == CO_OUT_MB ? 6 : 5;	/* Out or In msg nelems */
	const char *x;
	int b;

	if (src == CO_RANK)	/* TraceLens's coll_analysis reads its one trace as rank 0
				 * (NcclAnalyser's list position), whatever rank it is */
		*v = (struct tl_val){ TAB_INT, 0, 0, NULL };
	else if (src == CO_STREAM && f->k->stream >= 0)
		*v = (struct tl_val){ TAB_INT, f->k->stream, 0, NULL };
	else if (src == CO_IN_MB || src == CO_OUT_MB) {
		/* the message's elements times the dtype's size */
		b = coll_dtype_bytes(c->t[4] == JS_STRING ? coll_text(c, 4) : NULL);
		if (b > 0 && c->t[j] == JS_NUMBER && (x = coll_text(c, j)) != NULL)
			*v = (struct tl_val){ TAB_NUM, 0,
			    strtod(x, NULL) * b / (1024.0 * 1024.0), NULL };
	} else if (src >= CO_ARG) {
		coll_val(c, (size_t)(src - CO_ARG), v);
		if (src == CO_ARG && v->kind == TAB_NONE) {
			if (f->unnamed == NULL)
				f->unnamed = coll_unnamed_group(f->tl);
			*v = tl_val_str(f->unnamed);
		}
	}
}

/* One row per (rank, process group, collective, sizes, dtype, stream) over the
 * communication kernels that carry their collective's args, in pandas' order: the
 * groups by key, then sorted on dur_sum descending. */
struct tab *
tl_sheet_coll(struct tl *tl)
{
	struct tab *t = tab_new("coll_analysis");
	struct tab_groups gr;
	size_t i, g, j, idx[CC_N];
	struct buf key = BUF_INIT;
	struct tab_key sk[CC_STREAM + 1];
	struct tl_col cols[CC_N];
	struct cfirst f = { tl, NULL, { BUF_INIT, { 0 }, { 0 } }, NULL };
	const struct vec *v[CO_DUR + 1];
	struct tl_group grp = { v, cfirst, &f, NULL };

	tab_groups_init(&gr);
	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];

		if (k->gpu != TL_GPU_KERNEL || k->cls != TL_CLS_COMM || k->comm == NAME_NONE ||
		    !coll_complete(tl, k, &f.c))
			continue;
		buf_reset(&key);
		buf_printf(&key, "%lld\x1f%u\x1f%lld", tl_kev_rank(tl, k), k->comm, k->stream);
		tab_groups_add(&gr, key.p, key.len, i, k->dur);
	}
	memcpy(cols, cc_cols, sizeof(cols));
	for (j = 0; j < NCOLL; j++)
		cols[CC_ARG + j].name = coll_keys[j];
	tl_cols_add(t, cols, CC_N, 0, idx);
	for (g = 0; g < gr.n; g++) {
		f.k = &tl->k[gr.first[g]];
		coll_read(tl_str(tl, f.k->comm), &f.c);	/* complete, so read */
		v[CO_DUR] = &gr.vals[g];
		tl_cols_row(t, tab_row(t), cols, CC_N, idx, &grp);
	}
	/* the group key: rank, the args, the stream */
	for (j = 0; j <= CC_STREAM; j++)
		sk[j] = (struct tab_key){ idx[j], 0 };
	tab_sort(t, sk, CC_STREAM + 1);
	tab_sort_pandas(t, idx[CC_SUM], 1);
	buf_free(&key);
	buf_free(&f.c.txt);
	tab_groups_free(&gr);
	return t;
}
