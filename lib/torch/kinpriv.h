/* SPDX-License-Identifier: ISC */
/*
 * kinpriv: the Kineto reader's state, shared by its two files and no one else. Internal
 * to the torch reader: lib/torch/kineto.c reads a trace into it (events, host tree, GPU
 * links) and writes the records; lib/torch/capture.c grafts graph-capture traces into it
 * (--capture-folder) between the two. Every other module goes through torch/kineto.h.
 * Private: it lives beside its sources, not under include/, and they include it as
 * "kinpriv.h" (found in the including file's folder), so nothing else can.
 */
#ifndef TTP_KINPRIV_H
#define TTP_KINPRIV_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"

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
 * One kept event of the in-memory path (with a capture folder; without one, kineto.c
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
struct spool;
struct spsort;

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
						 * the sorts (kineto.c's stream_records), not evc */
	struct spool	*fsp;			/* the kept events (struct xev), in trace order */
	struct spsort	*lk;			/* events and flows by linking id */
	const char	*cap_folder;		/* captures merged from this folder */
	bool		 cap_classified;	/* ... which had no execution_details.json */
	size_t		 cap_events, cap_merged;
};

/* kineto.c */

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
/* Events v[0..n) of k in TraceLens's time order: by start, then by trace index. */
void kin_sort_by_ts(const struct kin *k, int32_t *v, size_t n);
/* The host tree's events (CPU ops, runtime and driver calls, python frames) into h
 * (room for k->nev), in the order build_tree attaches them: kin_sort_by_ts's. Returns
 * how many. */
size_t kin_host_events(const struct kin *k, int32_t *h);

/* capture.c */

/* The graph-capture traces of folder grafted under k's graph launches (TraceLens's
 * --capture_folder). Returns 0 (also when a launch could not be merged: warned), or -1
 * on bad input in the folder: then k->err says where and what. */
int merge_captures(struct kin *k, const char *folder);

#endif
