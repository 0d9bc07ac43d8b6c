/* SPDX-License-Identifier: ISC */
/*
 * xpriv: the XSpace reader's state, shared by its files and no one else (jax/xplane.h is
 * the reader's contract). lib/jax/xplane.c runs the passes over the file (the planes,
 * the counting pass and its launch map, the events in xprof's order); xmeta.c reads a
 * plane's metadata, stats and lines' heads; xevents.c decodes and walks a line's
 * events; xhlo.c finds the HLO modules and builds a kernel's HLO members; xwrite.c
 * writes the records. Private: it lives beside its sources, not under include/, and
 * they include it as "xpriv.h", so nothing else can.
 */
#ifndef TTP_XPRIV_H
#define TTP_XPRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/names.h"
#include "core/pb.h"
#include "core/rec.h"
#include "jax/hlo.h"
#include "jax/xsrc.h"

enum pkind { P_OTHER, P_HOST, P_GPU, P_TPU, P_CUSTOM, P_META };

/* A stat value: a number or a string (interned in the plane's table). */
enum skind { S_NONE, S_DOUBLE, S_UINT, S_INT, S_STR, S_BYTES, S_REF, S_ESTR };
/* S_ESTR: an event's own string, copied into xp.estr (offset in u) for as long as the
 * event is being written; interning them would grow the plane's table per event. */

struct xstat {
	int64_t		md;	/* XStatMetadata id */
	uint8_t		kind;
	uint64_t	u;	/* uint, int (as bits), ref, double bits; bytes: file offset */
	uint64_t	len;	/* bytes: length */
	uint32_t	s;	/* str: string index */
};

struct evmd {
	int64_t		id;
	uint32_t	name, dname;
	uint32_t	st, nst;	/* its stats in plane.stats */
	bool		internal;
	uint8_t		gpu, cls;	/* as a device event: gpu_kinds[], classes[] */
};

struct stmd {
	int64_t		id;
	uint32_t	name;
};

struct line {
	uint64_t	off, len;
	int64_t		id, display_id, ts_ns;
	uint32_t	name, dname;
	uint32_t	tid;
	uint64_t	nev;		/* converted events */
	bool		kept, stream;
	bool		ops;		/* a TPU plane's XLA Ops or XLA Modules line */
};

struct plane {
	uint64_t	 off, len;
	int64_t		 id;
	char		*name;
	enum pkind	 kind;
	long		 ordinal;
	long long	 pid;
	struct line	*lines;
	size_t		 nlines, caplines;
	struct names	 strs;
	struct evmd	*evmd;
	size_t		 nevmd, capevmd;
	uint32_t	*evmd_at;	/* ids 0..nevmd_at-1 -> index + 1 (0: none), when dense */
	size_t		 nevmd_at;
	struct stmd	*stmd;
	size_t		 nstmd, capstmd;
	struct xstat	*stats;
	size_t		 nstats, capstats;
	uint32_t	 pst, npst;	/* the plane's own stats in stats */
	uint64_t	 nconv;		/* converted events */
	uint64_t	 base;		/* UID of its first converted event */
	bool		 subns;		/* some time is not whole ns */
	bool		 links_only;	/* counting pass: its counts do not matter, only
					 * its events that may carry a correlation_id */
	/* stat metadata ids of the stats read (-1: none) */
	int64_t		 s_corr, s_hlo_op, s_hlo_module, s_program_id, s_kdetails, s_tf_op,
			 s_name, s_hlo_proto, s_flops, s_bytes, s_category;
};

/* An event's sort key and place. */
struct ev {
	int64_t		start_ns;
	uint32_t	rem_ps;
	uint32_t	line;
	uint64_t	dur_ps;
	uint64_t	off;
	uint64_t	len;
};

struct link {
	uint64_t	corr;
	int64_t		start_ns;
	uint64_t	dur_ps;
	uint32_t	tid;
	uint16_t	rem_ps;
	bool		used;
};

struct module {
	char		*key;		/* "name(program_id)" */
	char		*name;
	long long	 program_id;
	uint64_t	 off, len;	/* the HloProto's bytes in the file */
	bool		 loaded, failed;
	struct hlo_module m;
	uint32_t	*hcache;	/* per instruction: offset + 1 of its members in
					 * xp.hcache, 0 when not built yet */
	uint32_t	*hcache_len;
};

struct xp {
	FILE		*sink;		/* where the records go */
	struct xsrc	 src;
	const char	*name;
	int		 verbose;
	struct error	*err;
	struct plane	*planes;
	size_t		 nplanes, capplanes;
	char		**hosts;
	size_t		 nhosts, caphosts;
	struct link	*links;		/* open addressing on corr */
	size_t		 caplinks, nlinks;
	struct module	*mods;
	size_t		 nmods, capmods;
	uint64_t	 gpu_events, unlinked;
	struct buf	 out, tmp;
	struct buf	 hcache;	/* the HLO members of the instructions seen */
	struct buf	 estr;		/* the strings of the event being written */
	struct names	 kdn;		/* the kernel_details texts met */
	uint32_t	*kd_at;		/* per text: offset + 1 of its members in kdcache, 0
					 * when not kept */
	uint32_t	*kd_len;
	size_t		 capkd;
	struct buf	 kdcache;
};


/* The stats an event carries of its own, at most (the rest are not read). */
#define MAXSTATS 64
#define XP_TS_MAX	((int64_t)1 << 62)	/* |XLine timestamp_ns| at most (xmeta.c) */

/* A decoded XEvent. */
struct event {
	int64_t		 md;
	int64_t		 off_ps;
	uint64_t	 dur_ps;
	const struct evmd *meta;
	uint32_t	 st, nst;	/* its own stats, decoded into the scratch list */
};

/* Walk the events of line li: fn(x, pl, li, event, stats, nstats, file off, len). */
typedef int (*event_fn)(struct xp *, struct plane *, size_t, const struct event *,
    const struct xstat *, size_t, uint64_t, uint64_t, void *);

/* xmeta.c: a plane's heads (pass 1), its maps and what they answer. */
/* The bytes of LEN field f, in the file's window until the next read; NULL, err set. */
const unsigned char *xp_load(struct xp *x, const struct pb_field *f);
/* err set to "what: msg" at byte off; returns -1. */
int xp_fail(struct xp *x, uint64_t off, const char *what, const char *msg);
/* An event's name, its gpu category (gpu_kinds[]) and class (classes[]). */
void xp_classify(const char *name, uint8_t *gpu, uint8_t *cls);
/* Bytes of a line read at once (TTP_WALK_CHUNK=N: N, for the tests of a field cut by a
 * window's end). */
uint64_t xp_walk_chunk(void);
/* Pass 1 over plane pl (its off and len set): its id, name, maps, stats, lines' heads
 * and the stat ids the later passes ask for. 0, or -1 with err set. */
int xp_read_plane(struct xp *x, struct plane *pl);
const struct evmd *xp_find_evmd(const struct plane *pl, int64_t id);
const char *xp_stat_name(const struct plane *pl, int64_t id);

/* xevents.c: a line's events. */
/* The XEvent at [p, p+n) (file offset off) into e, its own stats into st (at most
 * maxst); string values kept (in xp.estr) only when strings is set. 0, or -1. */
int xp_decode_event(struct xp *x, struct plane *pl, const unsigned char *p, uint64_t n,
    uint64_t off, struct event *e, struct xstat *st, size_t *nst, size_t maxst,
    bool strings);
void xp_event_start(const struct line *ln, const struct event *e, int64_t *ns,
    uint32_t *rem);
/* fn on each event of line li in file order; fn must not read the file. 0, or -1. */
int xp_walk_line(struct xp *x, struct plane *pl, size_t li, event_fn fn, void *arg,
    size_t maxst);
/* The event's stat of metadata id md: its own (the last), else its metadata's. */
const struct xstat *xp_find_stat(const struct plane *pl, const struct event *e,
    const struct xstat *st, size_t nst, int64_t md);
bool xp_stat_u64(const struct xstat *s, uint64_t *v);
const char *xp_stat_text(const struct xp *x, const struct plane *pl,
    const struct xstat *s);

/* xplane.c: the launch map. */
struct link *xp_link_slot(struct xp *x, uint64_t corr);

/* xhlo.c: the HLO modules (the metadata plane's "Hlo Proto" stats). */
void xp_collect_modules(struct xp *x, struct plane *pl);
struct module *xp_find_module(struct xp *x, const char *mod, const long long *program_id);
struct hlo_module *xp_module_hlo(struct xp *x, struct module *m);
void xp_hlo_members(struct rec_build *rb, struct xp *x, struct module *mm,
    const struct hlo_instr *ins);

/* xwrite.c: the records. */
void xp_write_trace(struct xp *x);
int xp_write_gpu(struct xp *x, struct plane *pl, const struct line *ln,
    const struct event *e, const struct xstat *st, size_t nst, uint64_t uid);
int xp_write_op(struct xp *x, struct plane *pl, const struct line *ln,
    const struct event *e, const struct xstat *st, size_t nst, uint64_t uid);

#endif
