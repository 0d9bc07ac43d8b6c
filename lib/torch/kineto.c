/* SPDX-License-Identifier: ISC */
/*
 * kineto: PyTorch profiler traces to records (see torch/kineto.h): the reader's state
 * (kinpriv.h: its tables, their lifetime) and the order of its steps. Read the events
 * into compact summaries (kinread.c), build the host tree and the GPU links (kintree.c,
 * kinlink.c), write the records in time order (kinwrite.c). The rules are TraceLens's
 * (docs/tracelens.md §1.4-1.5). With a capture folder the events are held in memory
 * and capture.c grafts the capture traces in between the links and the records
 * (merge_captures). Without one (the usual case) the summaries are not held: they go to
 * a temporary file and the same steps are made by external sorts (kintree.c's
 * kin_stream_records), in memory bounded whatever the trace's length; the records are
 * the same, byte for byte.
 *
 * Bad input is found only while reading (kin_read): the state then holds the error and
 * everything the read allocated, which kineto_parse frees before it returns the error
 * (no record has been written then).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/json.h"
#include "core/names.h"
#include "core/spool.h"
#include "torch/collect.h"
#include "torch/kineto.h"
#include "kinpriv.h"

/* --- the state --- ------------------------------------------------------------------ */

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

/* --- the whole job ------------------------------------------------------------------ */

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
	if (!kin_read(k)) {
		error_move(err, &k->err);
		kin_free(k);
		free(k);
		io_close(fp);
		return NULL;
	}
	js_close(k->rd);
	k->rd = NULL;
	io_close(fp);
	kin_build_tree(k);
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
		k.lk = spsort_new(sizeof(struct lk), kin_by_lk);
	}
	if (!kin_read(&k)) {
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
		kin_stream_records(&k);
		goto done;
	}
	kin_build_tree(&k);
	kin_link_gpu(&k);
	kin_link_fwd_bwd(&k);
	if (o->capture != NULL && merge_captures(&k, o->capture) != 0) {
		error_move(err, &k.err);
		kin_free(&k);
		return -1;
	}
	kin_find_launchers(&k);
	kin_write_records(&k);
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
