/* SPDX-License-Identifier: ISC */
/*
 * tltree: TraceLens's model of a PyTorch profiler trace, built from ttp-parse's records
 * (kind "gpu", kind "op", kind "trace"; ttp-roofline's keys when present): the GPU events
 * with their class, the op tree (parent links, children in TraceLens's ts order, cycles
 * cut), each op linked to the GPU events it launched, and the interval algebra over them
 * (busy time of a set of events, gpu_timeline's times). The sheets (tlsheets.h) read it;
 * it reads no trace file itself.
 *
 * Strings (names, categories, argument reprs) are interned: names and the like in
 * tl->str (memory), the argument and params reprs, which are many and long when every
 * op's arguments differ, in tl->ds (core/dstr.h: on disk), their indexes tagged with
 * TL_STR_DISK. Read either with tl_str: a string of tl->ds stays valid until DSTR_LIVE
 * more such reads, so use it at once (copy it to keep it). Ops and their events and
 * params are counted in 32 bits.
 */
#ifndef TTP_REPORT_TLTREE_H
#define TTP_REPORT_TLTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/dstr.h"
#include "core/names.h"

struct rec;
struct incache;
struct spool;
struct tl_opts;

#define TL_NONE SIZE_MAX	/* no op, no event */

/* A GPU event's kind (gpu) and class (cls: what gpu_timeline counts it as). */
enum { TL_GPU_KERNEL, TL_GPU_MEMCPY, TL_GPU_MEMSET };
enum { TL_CLS_COMP, TL_CLS_COMM, TL_CLS_MEMCPY };

/* One GPU event (64 bytes: 165k of them in the bench's 1 GB trace). s and dur are
 * TraceLens's doubles: ts and dur in µs; its end is s + dur. Until tl_link, by and via
 * hold its launched_by and launch_via ids (-1: none), which tl_link turns into op and
 * vop. */
struct gpuev {
	uint32_t	name;
	uint32_t	comm;				/* its collective's args (JSON), or NAME_NONE */
	uint8_t		gpu, cls;
	uint32_t	rank;				/* of its trace (ids are per trace):
							 * tl->ranks, read with tl_kev_rank */
	long long	stream;
	long long	id;				/* its event index, -1 if none */
	union {
		size_t		op;			/* index of the launching op, or NONE
							 * (unlinked) */
		long long	by;
	};
	union {
		size_t		vop;			/* the op of its launch_via (the record
							 * right above its launch, below op), or
							 * NONE */
		long long	via;
	};
	double		s, dur;
};

/* An op record not kept: it launches nothing and has no GPU work below it, no model and
 * nothing any sheet reads (tl_add). Kept until tl_link, which links the ops below it to
 * the op above it. */
struct tgone {
	long long	id, parent, rank;
	size_t		up;		/* tl_link: the kept op above it, or TL_NONE */
	int		state;		/* tl_link: 0 not resolved, 1 on the walk, 2 done */
};

/* ttp-roofline's figures of an op (struct top's mod; most ops have none: read them
 * with tl_mod, which gives tl_mod_none's for those). */
struct tmod {
	long long	bwd_of;			/* the forward op whose backward figures it
						 * carries, or -1 */
	double		flops, bytes, roof_us;	/* roof_us: NAN without a roofline */
	uint32_t	spec, params;
	uint32_t	sheet;			/* its roofline sheet: ttp-roofline's, then
						 * the one tlroof.c names, or NAME_NONE */
	uint32_t	bound;			/* COMPUTE_BOUND / MEMORY_BOUND */
	uint32_t	p0, np;			/* its np params: string p0 of tl->pset
						 * (tl_param) */
};
/* The most params an op has (add_params stops past it). */
#define TL_PARAMS_MAX	((uint32_t)1 << 24)

/* One op record (a CPU op or an orphan launch), 56 bytes: every op of the trace that a
 * sheet reads is one (the bench's 1 GB trace: 251,680). What few ops have (figures,
 * params, the roofline sheet) is in struct tmod, ttp-phase's tag in tl->phase, what ops
 * share (rank, process, label, thread) interned. */
struct top {
	long long	id, hs, he;
	uint32_t	up;			/* parent index, or TL_UP_NONE (read with UP) */
	uint32_t	name, cat;
	uint32_t	who : 28;		/* rank (ids are event indices per trace),
						 * process, label and thread: tl->who, read
						 * with tl_op_rank and tl_op_who */
	uint32_t	runtime : 1, model : 1;	/* model: ttp-roofline gave its figures */
	uint32_t	hasmodel : 1;		/* TraceLens has a perf model for it */
	uint32_t	python : 1;		/* a python function (ttp-parse -p); runtime too */
	uint32_t	mod;			/* its figures: tl->mod[mod], or TL_MOD_NONE */
	uint32_t	args;			/* its argument reprs (tl->argset, ARG), or
						 * NAME_NONE when it has no "in" or no sheet
						 * shows them */
	union {
		struct {
			uint32_t ev0;		/* own GPU events (all, comm included):
						 * tl->oev[ev0 .. ev0 + tl_op_nev) */
			uint32_t kid0;		/* children: tl->kids[kid0 ..
						 * kid0 + tl_op_nkid) */
		};
		long long	parent;		/* until tl_link: its parent's id or -1 */
	};
};
#define TL_WHO_MAX	(((uint32_t)1 << 28) - 1)
#define TL_MOD_NONE	UINT32_MAX
/* tl_op_who's j */
enum { TL_PROCESS, TL_LABEL, TL_THREAD };

/* An op's parent index as a size_t: NONE at the root. (Ops and their events and
 * params are counted in 32 bits: add_op and add_gpu stop past TL_OP_MAX.) */
#define TL_UP_NONE		UINT32_MAX
#define TL_UP(o)		((o).up == TL_UP_NONE ? TL_NONE : (size_t)(o).up)
#define TL_OP_MAX		((size_t)UINT32_MAX - 1)

struct tl {
	struct gpuev	*k;
	size_t		 nk, capk;
	struct top	*op;
	size_t		 nop, capop;
	uint32_t	*phase;			/* per op: ttp-phase's tag, or NAME_NONE;
						 * NULL while no op has one */
	size_t		 capphase;
	struct tgone	*gone;			/* the ops not kept (tl_add), until
						 * tl_link: their links up (tlgone.c) */
	size_t		 ngone, capgone;
	struct spool	*gsp;			/* past gmem of them, the rest */
	size_t		 gmem;
	size_t		 nskip;			/* op records not kept, in all */
	struct tmod	*mod;
	size_t		 nmod, capmod;
	struct names	 ranks;			/* the GPU events' ranks: 8 bytes each */
	struct names	 who;			/* (rank, process, label, thread): a long
						 * long and 3 uint32 */
	struct names	 str;
	struct dstr	*ds;			/* the argument and params reprs */
	struct names	 gkey;			/* "group" records: (rank, name) to the ... */
	uint32_t	*granks;		/* ... process group's rank list (in str) */
	size_t		 capg;
	uint32_t	*oev;			/* the ops' own GPU events (tl_link) */
	struct dstr	*pset;			/* the ops' params: (name, value repr)
						 * pairs of uint32, one string an op */
	struct dstr	*argset;		/* distinct argument reprs: 4 uint32 each,
						 * on disk (read with tl_arg_repr) */
	struct buf	 list;			/* tl_arg_list's */
	struct incache	*inc;			/* recent "in" texts and their argset */
	uint32_t	*kids;			/* CSR children lists */
	uint32_t	*byid;			/* op indices sorted by id */
	long long	 maxid;
	int		 linked;		/* ops linked to parents and events */
	int		 roofline;		/* some op has a roofline time */
	int		 capture;		/* ttp-parse merged graph-capture traces */
	size_t		 ntraces, ngpuonly;	/* trace records; those that say gpu_only */
	long long	 rank0;			/* the first trace record's rank (-1: none) */
	size_t		 nrank;			/* trace records whose rank was taken */
	struct error	 refused;		/* the first trace refused: no GPU, a 2nd rank */
	uint32_t	 empty;
	const struct tl_opts *o;		/* of the tl_sheets call */
};

/* gpu_timeline's times in µs (docs/tracelens.md §2): computation, exposed communication and
 * memcpy (not under computation; memcpy not under communication either), busy, idle (split
 * at micro_idle_us into micro and macro), the span from the first start to the last end,
 * and all communication and memcpy time. */
struct tl_timeline {
	double	comp, xcomm, xmemcpy, busy, idle, micro, macro, total, comm, memcpy;
};

/* The walks down the op tree keep their own stack: the tree is as deep as the trace
 * nests its ops (a hostile trace: 100,000 levels), beyond what the C stack holds. */
struct tl_walk {
	size_t	*s;
	size_t	 n, cap;
};

struct tl *tl_new(void);
void tl_free(struct tl *tl);
/* Take a record: 1 if it is a Kineto record (kind trace, op, gpu, signpost), else 0. */
int tl_add(struct tl *tl, struct rec *r);
/* Whether the op name matters to the pseudo-op gates (tlpseudo.c): such an op is kept
 * whatever it launches. */
bool tl_pseudo_name(const char *name);
/* Number of op and gpu records taken (kept or not). */
size_t tl_count(const struct tl *tl);
/* Number of communication kernels (NCCL/RCCL) taken without their collective's args
 * ("comm"): coll_analysis leaves them out. */
size_t tl_comm_kernels(const struct tl *tl);
/* Whether the stream is GPU-only (docs/tracelens.md §1.4 item 7): only the GPU sheets. */
bool tl_gpu_only(const struct tl *tl);

/* Link the ops once all records are taken (again: nothing): parents, children, the
 * ops' own events (oev), each event's launching op. */
void tl_link(struct tl *tl);
/* The op of (rank, id), or TL_NONE. */
size_t tl_find_op(const struct tl *tl, long long rank, long long id);
/* Op i's category: its record's, else TraceLens's guess from its name and first
 * kernel (interned on first use). */
uint32_t tl_op_category(struct tl *tl, size_t i);
/* The launcher of op i: up through "execute" wrappers. */
size_t tl_launcher_of(const struct tl *tl, size_t i);
/* Repr j of op o's arguments: 0-3 the tuple reprs of dims, types, strides and concrete
 * inputs (ops_unique_args); NAME_NONE: NaN. */
uint32_t tl_arg_repr(const struct tl *tl, const struct top *o, int j);
/* The list repr of the same (the roofline sheets'; py_tuple_list), valid until the next
 * call; NULL: NaN. */
const char *tl_arg_list(struct tl *tl, const struct top *o, int j);

/* ns as TraceLens's µs (the double strtod gives for the trace's text). */
double tl_ns_us(long long ns);
/* v (op indices of one parent, in record order): runs of ops whose ts tie as doubles
 * put in id order, as TraceLens's stable sort on ts leaves them. */
void tl_tie_runs(const struct tl *tl, size_t *v, size_t n);
/* Whether GPU event x comes before y in the trace (<0), by (rank, event index). */
int tl_kev_trace_cmp(const struct tl *tl, size_t x, size_t y);
/* GPU events ev sorted by start, ties in index order. */
void tl_sort_events(struct tl *tl, size_t *ev, size_t n);

/* Busy time of GPU events ev: the length of their union, in µs. */
double tl_busy(const struct tl *tl, const size_t *ev, size_t n);
/* gpu_timeline's times (after tl_link); include_unlinked counts events without a
 * launcher; gaps under micro_idle_us are micro idle time (NAN: none). */
void tl_timeline(const struct tl *tl, int include_unlinked, double micro_idle_us,
    struct tl_timeline *t);

/* Depth-first walks with their own stack (the tree may be 100,000 levels deep). */
void tl_walk_push(struct tl_walk *w, size_t i);
/* Op i's children onto the stack, the last first: they come off in their order. */
void tl_walk_push_kids(const struct tl *tl, struct tl_walk *w, size_t i);
/* Every GPU event of op i's subtree (its own and its descendants', in preorder),
 * appended to *v (*n of *cap used). */
void tl_subtree_events(const struct tl *tl, size_t i, size_t **v, size_t *n, size_t *cap);

/* The bit of a string index that says it is in tl->ds (index without it). */
#define TL_STR_DISK	((uint32_t)1 << 31)

static inline const char *
tl_str(const struct tl *tl, uint32_t id)
{
	if (id != NAME_NONE && (id & TL_STR_DISK) != 0)
		return dstr_get(tl->ds, id & ~TL_STR_DISK);
	return names_str(&tl->str, id);
}

/* Param j of figures m (j < m->np): its name (v 0) or its value's repr (v 1), as
 * string indexes (tl_str). */
uint32_t tl_param(const struct tl *tl, const struct tmod *m, size_t j, int v);

/* The figures of an op without any: bwd_of -1, NaN, NAME_NONE, no params. */
extern const struct tmod tl_mod_none;

static inline const struct tmod *
tl_mod(const struct tl *tl, const struct top *o)
{
	return o->mod == TL_MOD_NONE ? &tl_mod_none : &tl->mod[o->mod];
}

/* The long long at the start of an interned key (a rank). */
static inline long long
tl_key_ll(const char *key)
{
	long long r;

	memcpy(&r, key, sizeof(r));
	return r;
}

static inline long long
tl_op_rank(const struct tl *tl, const struct top *o)
{
	return tl_key_ll(tl->who.str[o->who]);
}

/* Op o's process name (TL_PROCESS), process label or thread name (interned). */
static inline uint32_t
tl_op_who(const struct tl *tl, const struct top *o, int j)
{
	uint32_t v;

	memcpy(&v, tl->who.str[o->who] + sizeof(long long) + 4 * j, sizeof(v));
	return v;
}

static inline long long
tl_kev_rank(const struct tl *tl, const struct gpuev *k)
{
	return tl_key_ll(tl->ranks.str[k->rank]);
}

/* After tl_link, op o's number of own GPU events and of children: up to the next op's
 * ev0 and kid0 (tl_link puts an op past the last one, tl->op[tl->nop], for them). */
static inline size_t
tl_op_nev(const struct top *o)
{
	return o[1].ev0 - o->ev0;
}

static inline size_t
tl_op_nkid(const struct top *o)
{
	return o[1].kid0 - o->kid0;
}

/* Op o's ttp-phase tag, or NAME_NONE. */
static inline uint32_t
tl_op_phase(const struct tl *tl, const struct top *o)
{
	return tl->phase != NULL ? tl->phase[o - tl->op] : NAME_NONE;
}
uint32_t tl_intern(struct tl *tl, const char *s);	/* NULL: "" */
struct buf;
uint32_t tl_intern_buf(struct tl *tl, struct buf *b);

#endif
