/* SPDX-License-Identifier: ISC */
/*
 * kinpriv: the Kineto reader's state and the interfaces between its files, shared by
 * them and no one else. Internal to the torch reader: kineto.c owns the state and runs
 * the steps; kinread.c reads a trace into it (events, names, flows); kintree.c builds the
 * host tree and the output items, kinlink.c the GPU and forward/backward links,
 * kinwrite.c writes the records; capture.c grafts graph-capture traces into it
 * (--capture-folder) between the links and the records. Every other module goes through
 * torch/kineto.h. Private: it lives beside its sources, not under include/, and they
 * include it as "kinpriv.h" (found in the including file's folder), so nothing else can.
 */
#ifndef TTP_KINPRIV_H
#define TTP_KINPRIV_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"
#include "core/spool.h"

#define NOVAL	INT64_MIN		/* an absent integer */
#define STRVAL	(INT64_MIN + 1)		/* pid/tid/ids that are strings: STRVAL + index */
#define STRMAX	(STRVAL + (int64_t)UINT32_MAX)

enum cat {
	C_OTHER, C_CPU_OP, C_RUNTIME, C_DRIVER, C_PYTHON, C_KERNEL, C_MEMCPY, C_MEMSET,
	C_AC2G, C_ANNOT, C_META
};

#define IS_GPU(c)	((c) == C_KERNEL || (c) == C_MEMCPY || (c) == C_MEMSET)
#define IS_LAUNCH(c)	((c) == C_RUNTIME || (c) == C_DRIVER)

enum {
	F_REC = 1,		/* written as an op record */
	F_LAUNCHER = 2,		/* launches a non-comm GPU event (docs/tracelens.md §1.5) */
	F_COMM = 4,		/* GPU event: a communication kernel */
	F_HASCORR = 8,		/* args had "correlation" */
	F_DUR = 16		/* has a duration */
};

/*
 * One kept event of the in-memory path (with a capture folder; without one, the reader
 * streams struct xev records through sorts instead) (80 bytes; a trace keeps a few
 * million). Integers that are nearly
 * always small (a length, trace ids, a stream, a device) are kept as a kv code: the
 * value itself when it lies in [0, 2^31), KV_NONE for NOVAL, else KV_WIDE + its index in
 * kin.wide (kv_get reads any of them back). Codes of wide values are not shared: compare
 * values, not codes. The events live in chunks of KEV_CHUNK (KEV(k, i)), never moved.
 */
struct kev {
	int64_t		 ts;			/* ns */
	uint64_t	 in_off;		/* the spooled "in" array */
	uint32_t	 dur;			/* ns; kv codes: */
	uint32_t	 corr, ext, seq;
	uint32_t	 stream, device;
	uint32_t	 thr;			/* (pid, tid): its index in kin.thr_pid/tid */
	uint32_t	 in_len;
	uint32_t	 idx;			/* index in traceEvents */
	uint32_t	 name;
	uint32_t	 kname;			/* a launch's args.kernel, or NAME_NONE */
	int32_t		 parent;		/* host tree parent (kev index) */
	int32_t		 linker;		/* GPU: the launch event that linked it */
	int32_t		 launcher;		/* GPU: the op it is charged to */
	int32_t		 fwd;			/* backward op: its forward op */
	uint8_t		 cat, flags;
};

#define KV_NONE		UINT32_MAX
#define KV_WIDE		UINT32_C(0x80000000)

#define KEV_BITS	16
#define KEV_CHUNK	((size_t)1 << KEV_BITS)

/* An integer-keyed map over the interned-name table: keys are byte strings of int64s. */
struct imap {
	struct names	 nm;
	int64_t		*val;
	size_t		 cap;
};

static inline uint32_t
imap_slot(struct imap *m, const int64_t *key, int n)
{
	uint32_t i = names_intern(&m->nm, (const char *)key, (size_t)n * sizeof(*key));

	if (i >= m->cap) {
		m->val = xgrow(m->val, &m->cap, (size_t)i + 1, sizeof(*m->val));
	}
	return i;
}

static inline void
imap_put(struct imap *m, const int64_t *key, int n, int64_t v)
{
	uint32_t i = imap_slot(m, key, n);	/* may move m->val */

	m->val[i] = v;
}

static inline bool
imap_get(const struct imap *m, const int64_t *key, int n, int64_t *v)
{
	uint32_t i = names_lookup(&m->nm, (const char *)key, (size_t)n * sizeof(*key));

	if (i == NAME_NONE)
		return false;
	*v = m->val[i];
	return true;
}

static inline void
imap_free(struct imap *m)
{
	names_free(&m->nm);
	free(m->val);
}

/* An argument list captured element by element (Input Dims, Input type, ...). */
struct arglist {
	struct buf	 text;
	size_t		*start, *len;
	size_t		 n, cap;
	bool		 present;
};

enum { A_DIMS, A_TYPE, A_STRIDES, A_CONCRETE, NARGS };

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
	struct buf	 comm;			/* a collective's args (commkey[]) as a JSON
						 * object, or empty when it has none */
	struct buf	 commval;		/* one of them, as captured */
	struct buf	 comm_nr;		/* comm without Process Group Ranks ... */
	struct buf	 pgname, pgranks;	/* ... and the group's name and ranks */
	bool		 has_pgname, has_pgranks;
	uint64_t	 off;			/* byte offset of the event */
};

struct kineto_opts;
struct js_reader;

struct kin {
	const struct kineto_opts *o;
	FILE		*out;			/* the sink: records go there */
	const char	*file;
	int		 rank;
	struct js_reader *rd;
	struct kev	**evc;			/* the events, in chunks of KEV_CHUNK */
	size_t		 nev, nevc;
	int64_t		*wide;			/* kv values that need 64 bits */
	size_t		 nwide, capwide;
	struct imap	 thr;			/* (pid, tid) to its index ... */
	int64_t		*thr_pid, *thr_tid;	/* ... and back */
	uint32_t	 nevents;		/* events in traceEvents */
	struct names	 names;			/* event names */
	struct names	 strs;			/* string ids */
	struct imap	 flow_s, flow_f;	/* ac2g flows by id; f: its (pid, tid) */
	int64_t		*f_pid, *f_tid;
	struct imap	 thread_name, process_name, process_label;
	int		 key_decided, key_corr;	/* the linking key (docs/tracelens.md §1.4.1) */
	struct spool	*sp;
	struct buf	 devices;		/* deviceProperties as records' JSON */
	struct buf	 dist;			/* distributedInfo as written */
	bool		 pg_records;		/* process groups as "group" records: */
	struct names	 pg;			/* their names (JSON text) ... */
	struct names	 pgr;			/* ... and rank lists (JSON text) */
	uint32_t	*pg_ranks;		/* group index to its pgr index */
	size_t		 pg_cap;
	bool		 has_events, has_dist, has_cpu_op;
	bool		 linked_by_corr;	/* no flow linked anything: correlation */
	size_t		 n_flow_links;		/* launches linked through their flow */
	struct names	 ign_cats;		/* categories of the events ignored ... */
	size_t		*ign_n, ign_cap;	/* ... and how many of each */
	size_t		 n_ignored, n_flow_unpaired, n_gpu, n_unlinked, n_inexact;
	struct etmp	 t;
	struct buf	 tmp;
	int32_t		*own_tmp;		/* an op's non-communication GPU events */
	struct error	 err;			/* bad input, and where read_trace ... */
	jmp_buf		 fail;			/* ... returns it (kfail) */
	bool		 stream;		/* no capture folder: the events go to fsp and
						 * the sorts (kin_stream_records), not evc */
	struct spool	*fsp;			/* the kept events (struct xev), in trace order */
	struct spsort	*lk;			/* events and flows by linking id */
	const char	*cap_folder;		/* captures merged from this folder */
	bool		 cap_classified;	/* ... which had no execution_details.json */
	size_t		 cap_events, cap_merged;
};

/* --- streaming: the records the sorts carry ----------------------------------------- */

/*
 * Without a capture folder the events are not held: each kept event is written to a
 * spool (k->fsp) as a struct xev, in trace order (its place there, its kept number kn),
 * and the host tree, the GPU links and the output order are computed by external sorts
 * (core/spool.h's spsort) of small fixed records, each pass joined to the next by a sort
 * key; see kin_stream_records (kintree.c). Memory: the sorts' runs, the open stacks and
 * the tables of names and threads, whatever the trace's length.
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

/* Their order: by linking id, then trace index (kinlink.c). */
int kin_by_lk(const void *a, const void *b);

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

/* A GPU event's link to the launch r: prio 0 through flows or a graph launch, 1 through
 * the correlation fallback (which has the last word). */
struct lr {
	int64_t		 r_ts, g_ts, g_dur;
	uint32_t	 g_kn, prio, r_kn, r_idx, r_thr, g_idx, g_name;
	uint8_t		 g_comm;
};

/* What the tree pass learnt of an event: a host event written as an op (frec), its
 * record parent; a linked GPU event, the op it is charged to and the launch's record. */
struct tr {
	int64_t		 parent, launcher, lts, via;	/* trace indexes; -1: none */
	uint32_t	 kn;
	uint8_t		 frec;
};

/* A GPU event below op p (by kept number): subtree_ns and subtree_kernels. */
struct sub {
	int64_t		 g_ts, g_end;
	uint32_t	 p_kn, p_name, g_idx, g_name;
};

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

/* Their order: by Sequence number, then trace index (kinlink.c). */
int kin_by_sq(const void *a, const void *b);

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

/* Their order: (t, grp, sub, t2, idx) (kinwrite.c). */
int kin_by_oi(const void *a, const void *b);

/* A signpost (a user annotation), for the trace record's list. */
struct an {
	int64_t		 ts;
	uint32_t	 idx, name;
};

/* Their order: by start, then trace index (kinwrite.c). */
int kin_by_an(const void *a, const void *b);

/* The kept event kn, from the spool. */
static inline void
xev_get(struct kin *k, uint64_t kn, struct xev *x)
{
	memcpy(x, spool_get(k->fsp, kn * sizeof(*x), sizeof(*x)), sizeof(*x));
}

/* kineto.c: the state */

/* Event i of k. */
static inline struct kev *
kev_at(const struct kin *k, size_t i)
{
	return &k->evc[i >> KEV_BITS][i & (KEV_CHUNK - 1)];
}
#define KEV(k, i)	kev_at((k), (size_t)(i))

/* The value of kv code c. */
static inline int64_t
kv_get(const struct kin *k, uint32_t c)
{
	if (c == KV_NONE)
		return NOVAL;
	return c & KV_WIDE ? k->wide[c & ~KV_WIDE] : (int64_t)c;
}

/* The kv code of v (a wide value stored in k). */
uint32_t kv_put(struct kin *k, int64_t v);
/* The index of thread (pid, tid) in k, interned. */
uint32_t kin_thread(struct kin *k, int64_t pid, int64_t tid);
#define KEV_PID(k, v)	((k)->thr_pid[(v)->thr])
#define KEV_TID(k, v)	((k)->thr_tid[(v)->thr])
#define KEV_DUR(k, v)	kv_get((k), (v)->dur)
/* A new zeroed event at the end of k; its index. Too many events: die. */
int32_t kin_add_event(struct kin *k);

/* A capture trace read (opts o) and its host tree built, in a new state; NULL on bad
 * input (an unreadable file, a trace that is not one): then *err says where and what. */
struct kin *kin_load(const char *path, const struct kineto_opts *o, struct error *err);
/* Everything k holds (not k itself). */
void kin_free(struct kin *k);

/* kinread.c: the events */

/* The category names, by enum cat: the trace's text of each. */
extern const char *const kin_catname[];
/* The trace of k->rd read into k: false on bad input (k->err says where and what). */
bool kin_read(struct kin *k);

/* kintree.c: the host tree and the output items */

/* Events v[0..n) of k in TraceLens's time order: by start, then by trace index. */
void kin_sort_by_ts(const struct kin *k, int32_t *v, size_t n);
/* The host tree's events (CPU ops, runtime and driver calls, python frames) into h
 * (room for k->nev), in the order kin_build_tree attaches them: kin_sort_by_ts's.
 * Returns how many. */
size_t kin_host_events(const struct kin *k, int32_t *h);

/* The host tree: each host event's parent (docs/tracelens.md §1.4.3). */
void kin_build_tree(struct kin *k);
/* Each linked GPU event's launcher (the op it is charged to, docs/tracelens.md §1.5),
 * the op records' flags (F_REC, F_LAUNCHER). */
void kin_find_launchers(struct kin *k);
/* The in-memory path's records: its output items, written by kin_write_stream. */
void kin_write_records(struct kin *k);
/* The streaming path's records (k->fsp, k->lk read and freed): the same records as
 * kin_write_records', in the same order. */
void kin_stream_records(struct kin *k);

/* kinlink.c: the links */

/* The name matches rccl|nccl|cross_device_reduce, case-insensitively
 * (docs/tracelens.md §1.5). */
bool kin_is_comm(const char *s);
/* Each GPU event's linker (the launch that launched it), the F_COMM flags, the counts
 * in k (docs/tracelens.md §1.4.4). */
void kin_link_gpu(struct kin *k);
/* Each backward op's forward op (docs/tracelens.md §1.4.6). */
void kin_link_fwd_bwd(struct kin *k);
/* The struct lk of kept event x (number kn) under linking id lv. */
void kin_lk_of(struct kin *k, const struct xev *x, uint32_t kn, int64_t lv, struct lk *o);
/* The links of the events and flows in k->lk (which it frees), per linking id, then by
 * correlation when no flow linked anything: each GPU event's links (struct lr) to its
 * launches, sorted by GPU event, the one that counts last. k->n_gpu: the GPU events
 * kept. */
struct spsort *kin_link_stream(struct kin *k);
/* sqs (sorted by kin_by_sq) to each backward op's forward (struct fw) into fws. */
void kin_fwd_stream(struct kin *k, struct spsort *sqs, struct spsort *fws);

/* kinwrite.c: the records */

/* The streaming path's output items (struct oi) into out, the signposts into ans: the
 * kept events joined with trs, fws and res (each sorted by kept number). */
void kin_join_stream(struct kin *k, struct spsort *trs, struct spsort *fws,
    struct spsort *res, struct spsort *out, struct spsort *ans);
/* The records: the trace record (its signposts from ans), the groups', then the items of
 * out; txt holds the ops' subtree_kernels. */
void kin_write_stream(struct kin *k, struct spsort *out, struct spsort *ans,
    struct spool *txt);

/* capture.c */

/* The graph-capture traces of folder grafted under k's graph launches (TraceLens's
 * --capture_folder). Returns 0 (also when a launch could not be merged: warned), or -1
 * on bad input in the folder: then k->err says where and what. */
int merge_captures(struct kin *k, const char *folder);

#endif
