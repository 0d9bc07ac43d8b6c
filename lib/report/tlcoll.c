/* SPDX-License-Identifier: ISC */
/* tlcoll: coll_analysis (spec tracelens.md §7.8). */
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
coll_cell(struct tab *t, size_t r, size_t col, const struct collv *c, size_t j)
{
	const char *x = coll_text(c, j);
	long long v;

	if (x == NULL)
		return;
	if (c->t[j] == JS_NUMBER && js_number_int(x, strlen(x), &v))
		tab_set_int(t, r, col, v);
	else if (c->t[j] == JS_NUMBER)
		tab_set_num(t, r, col, strtod(x, NULL));
	else
		tab_set_str(t, r, col, x);
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
		for (j = 0; j < n && rank[j] != k->rank; j++)
			;
		if (j == n) {
			rank = xreallocarray(rank, n + 1, sizeof(*rank));
			stream = xreallocarray(stream, n + 1, sizeof(*stream));
			rank[n] = k->rank;
			stream[n++] = k->stream;
		} else if (stream[j] != k->stream)
			name = "Unknown_Group";
	}
	free(rank);
	free(stream);
	buf_free(&c.txt);
	return name;
}

/* One row per (rank, process group, collective, sizes, dtype, stream) over the
 * communication kernels that carry their collective's args, in pandas' order: the
 * groups by key, then sorted on dur_sum descending. */
struct tab *
tl_sheet_coll(struct tl *tl)
{
	struct tab *t = tab_new("coll_analysis");
	struct tab_groups gr;
	size_t i, g, j;
	struct buf key = BUF_INIT;
	struct tab_key sk[11];
	const char *unnamed = NULL, *v;
	struct collv c = { BUF_INIT, { 0 }, { 0 } };

	tab_groups_init(&gr);
	for (i = 0; i < tl->nk; i++) {
		const struct gpuev *k = &tl->k[i];

		if (k->gpu != TL_GPU_KERNEL || k->cls != TL_CLS_COMM || k->comm == NAME_NONE ||
		    !coll_complete(tl, k, &c))
			continue;
		buf_reset(&key);
		buf_printf(&key, "%lld\x1f%u\x1f%lld", k->rank, k->comm, k->stream);
		tab_groups_add(&gr, key.p, key.len, i, k->dur);
	}
	tab_col(t, "rank");
	for (j = 0; coll_keys[j]; j++)
		tab_col(t, coll_keys[j]);
	tab_col(t, "stream");
	tab_col(t, "In msg size (MB)_first");
	tab_col(t, "Out msg size (MB)_first");
	tab_col(t, "dur_sum");
	tab_col(t, "dur_mean");
	tab_col(t, "dur_std");
	tab_col(t, "dur_min");
	tab_col(t, "dur_max");
	tab_col(t, "operation_count");
	for (g = 0; g < gr.n; g++) {
		const struct gpuev *k = &tl->k[gr.first[g]];
		size_t r = tab_row(t), c0 = 1 + j;
		int b;

		tab_set_int(t, r, 0, k->rank);
		coll_read(tl_str(tl, k->comm), &c);	/* complete, so read */
		for (j = 0; coll_keys[j]; j++)
			coll_cell(t, r, 1 + j, &c, j);
		if (tab_cell(t, r, 1)->kind == TAB_NONE) {
			if (unnamed == NULL)
				unnamed = coll_unnamed_group(tl);
			tab_set_str(t, r, 1, unnamed);
		}
		c0 = 1 + j;
		if (k->stream >= 0)
			tab_set_int(t, r, c0, k->stream);
		b = coll_dtype_bytes(c.t[4] == JS_STRING ? coll_text(&c, 4) : NULL);
		for (j = 0; j < 2; j++)		/* In and Out msg nelems */
			if (b > 0 && c.t[5 + j] == JS_NUMBER &&
			    (v = coll_text(&c, 5 + j)) != NULL)
				tab_set_num(t, r, c0 + 1 + j,
				    strtod(v, NULL) * b / (1024.0 * 1024.0));
		tab_set_num(t, r, c0 + 3, stat_sum(&gr.vals[g]));
		tab_set_num(t, r, c0 + 4, stat_mean(&gr.vals[g]));
		tab_set_num(t, r, c0 + 5, stat_std(&gr.vals[g], 1));
		tab_set_num(t, r, c0 + 6, stat_min(&gr.vals[g]));
		tab_set_num(t, r, c0 + 7, stat_max(&gr.vals[g]));
		tab_set_int(t, r, c0 + 8, (long long)gr.vals[g].n);
	}
	for (j = 0; j < 11; j++)
		sk[j] = (struct tab_key){ j, 0 };
	tab_sort(t, sk, 11);
	tab_sort_pandas(t, tab_find(t, "dur_sum"), 1);
	buf_free(&key);
	buf_free(&c.txt);
	tab_groups_free(&gr);
	return t;
}
