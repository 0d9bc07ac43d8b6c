/* SPDX-License-Identifier: ISC */
/* xplane: XSpace profiles to ttp records (jax/xplane.h; docs/jax.md §1, §10). */
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/ckint.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/names.h"
#include "core/pb.h"
#include "core/rec.h"
#include "jax/hlo.h"
#include "jax/xplane.h"
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

static const char *const gpu_kinds[] = { "kernel", "memcpy", "memset" };
static const char *const classes[] = { "comp", "comm", "memcpy" };

/* An event's name, its gpu category and class (docs/jax.md §1.5, 2). */
static void
classify(const char *name, uint8_t *gpu, uint8_t *cls)
{
	char lower[8];
	size_t i;

	for (i = 0; i < sizeof(lower) - 1 && name[i] != '\0'; i++)
		lower[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
	lower[i] = '\0';
	*gpu = strncmp(lower, "copy", 4) == 0 || strncmp(lower, "memcpy", 6) == 0 ? 1 :
	    strncmp(lower, "memset", 6) == 0 ? 2 : 0;
	*cls = *gpu != 0 ? 2 : strcasestr(name, "rccl") != NULL ||
	    strcasestr(name, "nccl") != NULL || strcasestr(name, "cross_device_reduce") != NULL;
}

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

/* The HLO members of a kernel record repeat for every run of its instruction (every
 * step): built once per instruction and copied, up to this many bytes in all. */
#define HCACHE_MAX	(16u << 20)
/* The members build_kdetails makes of a kernel_details text, kept the same way: texts
 * repeat per kernel and step. */
#define KDCACHE_MAX	(4u << 20)
#define KDCACHE_TEXTS	65536

static const char *const internal_names[] = {
	"MemoryAllocation", "MemoryDeallocation", "PrefetchProduce", "PrefetchConsume",
	"ParallelInterleaveProduce", "ParallelInterleaveConsume",
	"ParallelInterleaveInitializeInput", "ParallelMapProduce", "ParallelMapConsume",
	"MapAndBatchProduce", "MapAndBatchConsume", "ParseExampleProduce",
	"ParseExampleConsume"
};

int
xplane_sniff(const unsigned char *p, size_t n)
{
	struct pb_field f;
	const char *msg;
	size_t k = 0;
	int m;

	if (n < 2 || p[0] != 0x0a)
		return 0;
	if ((m = pb_head(p, n, 0, &f, &msg)) <= 0 || f.num != 1 || f.wt != PB_LEN)
		return 0;
	k = (size_t)m;
	if (k < n && p[k] == 0x08) {	/* the plane's id */
		if ((m = pb_head(p + k, n - k, 0, &f, &msg)) <= 0)
			return 0;
		k += (size_t)m;
	}
	if (k >= n || p[k] != 0x12 || (m = pb_head(p + k, n - k, 0, &f, &msg)) <= 0)
		return 0;
	k += (size_t)m;
	return (n - k >= 6 && memcmp(p + k, "/host:", 6) == 0) ||
	    (n - k >= 8 && memcmp(p + k, "/device:", 8) == 0);
}

/* --- reading ------------------------------------------------------------------------ */

static const unsigned char *
load(struct xp *x, const struct pb_field *f)
{
	return xsrc_get(&x->src, f->at, f->v, x->err);
}

static int
fail(struct xp *x, uint64_t off, const char *what, const char *msg)
{
	error_set(x->err, x->name, 0, (long long)off, "%s: %s", what, msg);
	return -1;
}

static uint32_t
intern_field(struct xp *x, struct plane *pl, const struct pb_field *f, int *rc)
{
	const unsigned char *p;

	if (f->wt != PB_LEN) {
		*rc = fail(x, f->off, "field", "expected a string");
		return NAME_NONE;
	}
	if (f->v > (1u << 30)) {
		*rc = fail(x, f->off, "field", "a string of more than 1 GiB");
		return NAME_NONE;
	}
	if ((p = load(x, f)) == NULL) {
		*rc = -1;
		return NAME_NONE;
	}
	return names_intern(&pl->strs, (const char *)p, (size_t)f->v);
}

/* One XStat at f (a LEN field), streamed: bytes values are only located. */
static int
read_stat(struct xp *x, struct plane *pl, const struct pb_field *sf)
{
	struct xsrc_it it;
	struct pb_field f;
	struct xstat st;
	int rc, r2 = 0;

	memset(&st, 0, sizeof(st));
	st.s = NAME_NONE;
	xsrc_it_init(&it, &x->src, sf->at, sf->v, "XStat");
	while ((rc = xsrc_next(&it, &f, x->err)) == PB_OK) {
		switch (f.num) {
		case 1: st.md = (int64_t)f.v; break;
		case 2: st.kind = S_DOUBLE; st.u = f.v; break;
		case 3: st.kind = S_UINT; st.u = f.v; break;
		case 4: st.kind = S_INT; st.u = f.v; break;
		case 5:
			st.kind = S_STR;
			st.s = intern_field(x, pl, &f, &r2);
			if (r2 != 0)
				return -1;
			break;
		case 6: st.kind = S_BYTES; st.u = f.at; st.len = f.wt == PB_LEN ? f.v : 0; break;
		case 7: st.kind = S_REF; st.u = f.v; break;
		default: break;
		}
	}
	if (rc == PB_ERR)
		return -1;
	pl->stats = xgrow(pl->stats, &pl->capstats, pl->nstats + 1, sizeof(*pl->stats));
	pl->stats[pl->nstats++] = st;
	return 0;
}

static int
read_evmd(struct xp *x, struct plane *pl, const struct pb_field *ef)
{
	struct xsrc_it it, vt;
	struct pb_field f, g;
	struct evmd md;
	int rc, r2 = 0;
	size_t i;

	memset(&md, 0, sizeof(md));
	md.name = md.dname = NAME_NONE;
	md.st = (uint32_t)pl->nstats;
	xsrc_it_init(&it, &x->src, ef->at, ef->v, "event metadata entry");
	while ((rc = xsrc_next(&it, &f, x->err)) == PB_OK) {
		if (f.num == 1 && f.wt == PB_VARINT)
			md.id = (int64_t)f.v;
		if (f.num != 2 || f.wt != PB_LEN)
			continue;
		xsrc_it_init(&vt, &x->src, f.at, f.v, "XEventMetadata");
		while ((rc = xsrc_next(&vt, &g, x->err)) == PB_OK) {
			if (g.num == 2)
				md.name = intern_field(x, pl, &g, &r2);
			else if (g.num == 4)
				md.dname = intern_field(x, pl, &g, &r2);
			else if (g.num == 5 && g.wt == PB_LEN)
				r2 = read_stat(x, pl, &g);
			if (r2 != 0)
				return -1;
		}
		if (rc == PB_ERR)
			return -1;
	}
	if (rc == PB_ERR)
		return -1;
	md.nst = (uint32_t)(pl->nstats - md.st);
	if (md.name != NAME_NONE) {
		const char *s = names_str(&pl->strs, md.name);
		for (i = 0; i < sizeof(internal_names) / sizeof(internal_names[0]); i++)
			if (strcmp(s, internal_names[i]) == 0)
				md.internal = true;
	}
	/* the name a device event shows: the display name when set */
	classify(md.dname != NAME_NONE && *names_str(&pl->strs, md.dname) ?
	    names_str(&pl->strs, md.dname) : md.name != NAME_NONE ?
	    names_str(&pl->strs, md.name) : "", &md.gpu, &md.cls);
	pl->evmd = xgrow(pl->evmd, &pl->capevmd, pl->nevmd + 1, sizeof(*pl->evmd));
	pl->evmd[pl->nevmd++] = md;
	return 0;
}

static int
read_stmd(struct xp *x, struct plane *pl, const struct pb_field *ef)
{
	struct xsrc_it it, vt;
	struct pb_field f, g;
	struct stmd md = { 0, NAME_NONE };
	int rc, r2 = 0;

	xsrc_it_init(&it, &x->src, ef->at, ef->v, "stat metadata entry");
	while ((rc = xsrc_next(&it, &f, x->err)) == PB_OK) {
		if (f.num == 1 && f.wt == PB_VARINT)
			md.id = (int64_t)f.v;
		if (f.num != 2 || f.wt != PB_LEN)
			continue;
		xsrc_it_init(&vt, &x->src, f.at, f.v, "XStatMetadata");
		while ((rc = xsrc_next(&vt, &g, x->err)) == PB_OK)
			if (g.num == 2 && (md.name = intern_field(x, pl, &g, &r2), r2 != 0))
				return -1;
		if (rc == PB_ERR)
			return -1;
	}
	if (rc == PB_ERR)
		return -1;
	pl->stmd = xgrow(pl->stmd, &pl->capstmd, pl->nstmd + 1, sizeof(*pl->stmd));
	pl->stmd[pl->nstmd++] = md;
	return 0;
}

/* A line's head: everything but its events (located by the caller's second pass). */
/* Bytes of a line read at once by walk_line (xsrc's window; TTP_WALK_CHUNK=N: N, for
 * tests of the fields cut by a window's end). */
#define WALK_CHUNK	((uint64_t)1 << 20)

static uint64_t
walk_chunk(void)
{
	static uint64_t n;
	const char *e;

	if (n == 0)
		n = (e = getenv("TTP_WALK_CHUNK")) != NULL && atol(e) > 0 ? (uint64_t)atol(e) :
		    WALK_CHUNK;
	return n;
}

/* After an event field of a line: the events that follow it in place, counted and
 * passed over (each a head of tag 4, LEN, and a length of at most five bytes, its
 * payload inside the window), up to the first other field, left to xsrc_next. */
static void
skip_events(struct xp *x, struct xsrc_it *it, uint64_t *nev)
{
	uint64_t n = it->end - it->pos < walk_chunk() ? it->end - it->pos : walk_chunk();
	struct error e = ERROR_INIT;
	const unsigned char *p, *q, *qe;

	if (n == 0 || (p = xsrc_get(&x->src, it->pos, n, &e)) == NULL) {
		error_free(&e);
		return;
	}
	for (q = p, qe = p + n; qe - q >= 2 && q[0] == (4 << 3 | PB_LEN);) {
		uint64_t v = 0;
		size_t i;

		for (i = 1; i <= 5 && q + i < qe; i++) {
			v |= (uint64_t)(q[i] & 0x7f) << (7 * (i - 1));
			if ((q[i] & 0x80) == 0)
				break;
		}
		if (i > 5 || q + i >= qe || v > (uint64_t)(qe - q - (ptrdiff_t)i - 1))
			break;
		q += i + 1 + v;
		(*nev)++;
	}
	it->pos += (uint64_t)(q - p);
}

static int
read_line(struct xp *x, struct plane *pl, const struct pb_field *lf)
{
	struct xsrc_it it;
	struct pb_field f;
	struct line ln;
	int rc, r2 = 0;

	memset(&ln, 0, sizeof(ln));
	ln.off = lf->at;
	ln.len = lf->v;
	ln.name = ln.dname = NAME_NONE;
	xsrc_it_init(&it, &x->src, lf->at, lf->v, "XLine");
	while ((rc = xsrc_next(&it, &f, x->err)) == PB_OK) {
		switch (f.num) {
		case 1: ln.id = (int64_t)f.v; break;
		case 10: ln.display_id = (int64_t)f.v; break;
		case 3: ln.ts_ns = (int64_t)f.v; break;
		case 2: ln.name = intern_field(x, pl, &f, &r2); break;
		case 11: ln.dname = intern_field(x, pl, &f, &r2); break;
		case 4:
			ln.nev++;
			if (f.wt == PB_LEN)
				skip_events(x, &it, &ln.nev);
			break;
		default: break;
		}
		if (r2 != 0)
			return -1;
	}
	if (rc == PB_ERR)
		return -1;
	pl->lines = xgrow(pl->lines, &pl->caplines, pl->nlines + 1, sizeof(*pl->lines));
	pl->lines[pl->nlines++] = ln;
	return 0;
}

static int
cmp_evmd(const void *a, const void *b)
{
	const struct evmd *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int
cmp_stmd(const void *a, const void *b)
{
	const struct stmd *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static const struct evmd *
find_evmd(const struct plane *pl, int64_t id)
{
	struct evmd key;

	if (pl->nevmd == 0)
		return NULL;
	if (pl->evmd_at != NULL) {
		if (id < 0 || (uint64_t)id >= pl->nevmd_at || pl->evmd_at[id] == 0)
			return NULL;
		return &pl->evmd[pl->evmd_at[id] - 1];
	}
	key.id = id;
	return bsearch(&key, pl->evmd, pl->nevmd, sizeof(key), cmp_evmd);
}

static const char *
stat_name(const struct plane *pl, int64_t id)
{
	struct stmd key, *hit;

	if (pl->nstmd == 0)
		return NULL;
	key.id = id;
	hit = bsearch(&key, pl->stmd, pl->nstmd, sizeof(key), cmp_stmd);
	return hit != NULL && hit->name != NAME_NONE ? names_str(&pl->strs, hit->name) : NULL;
}

static int64_t
stat_id(const struct plane *pl, const char *name)
{
	size_t i;

	for (i = 0; i < pl->nstmd; i++)
		if (pl->stmd[i].name != NAME_NONE &&
		    strcmp(names_str(&pl->strs, pl->stmd[i].name), name) == 0)
			return pl->stmd[i].id;
	return INT64_MIN;
}

static enum pkind
plane_kind(const char *name, long *ordinal)
{
	static const struct { const char *prefix; enum pkind k; } kinds[] = {
		{ "/device:GPU:", P_GPU }, { "/device:TPU:", P_TPU },
		{ "/device:CUSTOM:", P_CUSTOM }
	};
	size_t i, n;

	*ordinal = -1;
	if (strcmp(name, "/host:CPU") == 0)
		return P_HOST;
	if (strcmp(name, "/host:metadata") == 0)
		return P_META;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		n = strlen(kinds[i].prefix);
		if (strncmp(name, kinds[i].prefix, n) == 0) {
			char *end;
			long v = strtol(name + n, &end, 10);
			if (end != name + n && *end == '\0')
				*ordinal = v;
			return kinds[i].k;
		}
	}
	return P_OTHER;
}

/* Pass 1 over a plane: its id, name, maps and stats; its lines' heads. */
static int
read_plane(struct xp *x, struct plane *pl)
{
	struct xsrc_it it;
	struct pb_field f;
	const unsigned char *p;
	int rc;

	names_init(&pl->strs);
	pl->name = xstrdup("");
	xsrc_it_init(&it, &x->src, pl->off, pl->len, "XPlane");
	while ((rc = xsrc_next(&it, &f, x->err)) == PB_OK) {
		if (f.num == 1 && f.wt == PB_VARINT)
			pl->id = (int64_t)f.v;
		else if (f.num == 2 && f.wt == PB_LEN) {
			if (f.v > 4096)
				return fail(x, f.off, "XPlane", "a plane name of more than 4096 bytes");
			if ((p = load(x, &f)) == NULL)
				return -1;
			free(pl->name);
			pl->name = xstrndup((const char *)p, (size_t)f.v);
		} else if (f.num == 3 && f.wt == PB_LEN) {
			if (read_line(x, pl, &f) != 0)
				return -1;
		} else if (f.num == 4 && f.wt == PB_LEN) {
			if (read_evmd(x, pl, &f) != 0)
				return -1;
		} else if (f.num == 5 && f.wt == PB_LEN) {
			if (read_stmd(x, pl, &f) != 0)
				return -1;
		} else if (f.num == 6 && f.wt == PB_LEN) {
			if (pl->npst == 0)
				pl->pst = (uint32_t)pl->nstats;
			if (read_stat(x, pl, &f) != 0)
				return -1;
			pl->npst = (uint32_t)(pl->nstats - pl->pst);
		}
	}
	if (rc == PB_ERR)
		return -1;
	if (pl->nevmd > 0) {
		size_t i, j;

		qsort(pl->evmd, pl->nevmd, sizeof(*pl->evmd), cmp_evmd);
		/* event metadata ids are small and dense in every profile seen: a direct
		 * table when it costs at most four slots per entry (bsearch's branches
		 * cost a third of the reading time); of equal ids (a malformed map), one */
		if (pl->evmd[0].id >= 0 && (uint64_t)pl->evmd[pl->nevmd - 1].id <
		    4 * (uint64_t)pl->nevmd + 1024) {
			pl->nevmd_at = (size_t)pl->evmd[pl->nevmd - 1].id + 1;
			pl->evmd_at = xcalloc(pl->nevmd_at, sizeof(*pl->evmd_at));
			for (i = pl->nevmd; i-- > 0;) {
				j = (size_t)pl->evmd[i].id;
				pl->evmd_at[j] = (uint32_t)i + 1;
			}
		}
	}
	if (pl->nstmd > 0)
		qsort(pl->stmd, pl->nstmd, sizeof(*pl->stmd), cmp_stmd);
	pl->kind = plane_kind(pl->name, &pl->ordinal);
	pl->s_corr = stat_id(pl, "correlation_id");
	pl->s_hlo_op = stat_id(pl, "hlo_op");
	pl->s_hlo_module = stat_id(pl, "hlo_module");
	pl->s_program_id = stat_id(pl, "program_id");
	pl->s_kdetails = stat_id(pl, "kernel_details");
	pl->s_tf_op = stat_id(pl, "tf_op");
	pl->s_name = stat_id(pl, "name");
	pl->s_hlo_proto = stat_id(pl, "Hlo Proto");
	pl->s_flops = stat_id(pl, "flops");
	pl->s_bytes = stat_id(pl, "bytes_accessed");
	pl->s_category = stat_id(pl, "hlo_category");
	return 0;
}

/* --- events ------------------------------------------------------------------------- */

struct event {
	int64_t		 md;
	int64_t		 off_ps;
	uint64_t	 dur_ps;
	const struct evmd *meta;
	uint32_t	 st, nst;	/* its own stats, decoded into the scratch list */
};

/* pb_next, with the fields of events (a one-byte tag, a varint or a length of at most
 * nine bytes) decoded inline; anything else, errors included, goes to pb_next. Returns
 * the field's tag (number << 3 | wire type, from registers: reading f's members back
 * right after they are stored stalls), PB_END or PB_ERR. */
static inline long
fast_next(struct pb_iter *it, struct pb_field *f)
{
	const unsigned char *p = it->p, *end = it->end;
	uint64_t v = 0;
	unsigned t, i;
	int rc;

	if (it->err != NULL || end - p < 2)
		goto slow;
	t = p[0];
	if (t >= 0x80 || t < 8 || ((t & 7) != PB_VARINT && (t & 7) != PB_LEN))
		goto slow;
	for (i = 1;; i++) {
		if (i > 9 || p + i >= end)
			goto slow;
		v |= (uint64_t)(p[i] & 0x7f) << (7 * (i - 1));
		if ((p[i] & 0x80) == 0)
			break;
	}
	i++;
	if ((t & 7) == PB_LEN && v > (uint64_t)(end - p - i))
		goto slow;
	f->num = t >> 3;
	f->wt = (enum pb_wt)(t & 7);
	f->v = v;
	f->off = it->off + (uint64_t)(p - it->start);
	f->at = f->off + i;
	f->data = NULL;
	p += i;
	if ((t & 7) == PB_LEN) {
		f->data = p;
		p += v;
	}
	it->p = p;
	return (long)t;
slow:
	if ((rc = pb_next(it, f)) != PB_OK)
		return rc;
	return (long)f->num << 3 | (long)f->wt;
}

/* Decode the XEvent at [p, p+n) (file offset off); its stats into st. String values are
 * interned only when strings is set (the emitting pass), never while counting. */
static int
decode_event(struct xp *x, struct plane *pl, const unsigned char *p, uint64_t n,
    uint64_t off, struct event *e, struct xstat *st, size_t *nst, size_t maxst,
    bool strings)
{
	struct pb_iter it, si;
	struct pb_field f, g;
	long t, u;
	int rc;

	memset(e, 0, sizeof(*e));
	*nst = 0;
	if (strings)
		buf_reset(&x->estr);
	pb_init(&it, p, (size_t)n, off);
	while ((t = fast_next(&it, &f)) > 0) {
		if (t == (1 << 3 | PB_VARINT))
			e->md = (int64_t)f.v;
		else if (t == (2 << 3 | PB_VARINT))
			e->off_ps = (int64_t)f.v;
		else if (t == (3 << 3 | PB_VARINT))
			e->dur_ps = f.v;
		else if (t == (4 << 3 | PB_LEN) && *nst < maxst) {
			struct xstat *s = &st[*nst];

			memset(s, 0, sizeof(*s));
			s->s = NAME_NONE;
			pb_init(&si, f.data, (size_t)f.v, f.at);
			while ((u = fast_next(&si, &g)) > 0) {
				switch (u >> 3) {
				case 1: s->md = (int64_t)g.v; break;
				case 2: s->kind = S_DOUBLE; s->u = g.v; break;
				case 3: s->kind = S_UINT; s->u = g.v; break;
				case 4: s->kind = S_INT; s->u = g.v; break;
				case 5:
					if ((u & 7) != PB_LEN || !strings)
						break;
					s->kind = S_ESTR;
					s->u = x->estr.len;
					buf_add(&x->estr, (const char *)g.data, (size_t)g.v);
					buf_addc(&x->estr, '\0');
					break;
				case 6: s->kind = S_BYTES; s->u = g.at; s->len = g.v; break;
				case 7: s->kind = S_REF; s->u = g.v; break;
				default: break;
				}
			}
			if (u == PB_ERR) {
				error_set(x->err, x->name, 0, (long long)si.err_off, "XStat: %s",
				    si.err);
				return -1;
			}
			(*nst)++;
		}
	}
	rc = (int)t;
	if (rc == PB_ERR) {
		error_set(x->err, x->name, 0, (long long)it.err_off, "XEvent: %s", it.err);
		return -1;
	}
	if (e->off_ps < 0) {
		error_set(x->err, x->name, 0, (long long)off, "XEvent: negative offset_ps");
		return -1;
	}
	e->meta = find_evmd(pl, e->md);
	return 0;
}

#define MAXSTATS 64

/* The event's start as (ns, ps remainder). */
static void
event_start(const struct line *ln, const struct event *e, int64_t *ns, uint32_t *rem)
{
	*ns = ln->ts_ns + e->off_ps / 1000;
	*rem = (uint32_t)(e->off_ps % 1000);
}

/* Walk the events of line li: fn(x, pl, li, event, stats, nstats, file off, len). */
typedef int (*event_fn)(struct xp *, struct plane *, size_t, const struct event *,
    const struct xstat *, size_t, uint64_t, uint64_t, void *);

/* The fields of line li from file offset from on, one at a time through xsrc_it:
 * walk_line's way past anything out of the ordinary, and its messages. */
static int
walk_slow(struct xp *x, struct plane *pl, size_t li, uint64_t from, event_fn fn, void *arg,
    size_t maxst, struct xstat *st)
{
	struct line *ln = &pl->lines[li];
	struct xsrc_it it;
	struct pb_field f;
	struct event e;
	const unsigned char *p;
	size_t nst;
	int rc;

	xsrc_it_init(&it, &x->src, from, ln->off + ln->len - from, "XLine");
	while ((rc = xsrc_next(&it, &f, x->err)) == PB_OK) {
		if (f.num != 4 || f.wt != PB_LEN)
			continue;
		if (f.v > (1u << 24))
			return fail(x, f.off, "XLine", "an event of more than 16 MiB");
		if ((p = load(x, &f)) == NULL)
			return -1;
		if (decode_event(x, pl, p, f.v, f.at, &e, st, &nst, maxst, false) != 0)
			return -1;
		if (fn(x, pl, li, &e, st, nst, f.at, f.v, arg) != 0)
			return -1;
	}
	return rc == PB_ERR ? -1 : 0;
}

/*
 * An event the counting pass need not decode on a plane whose counts matter to no UID
 * (links_only): its fields but its metadata id, offset and duration, well-formed
 * varints of at most 9 bytes (an offset that is not negative), no stats of its own nor
 * by its metadata, so that it carries no correlation_id. Anything else is decoded, and
 * its errors reported, as always.
 */
/* The length of the varint at p, 8 bytes readable there: 1 to 8, 0 when longer. */
static inline unsigned
varint_len8(const unsigned char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w, m;

	memcpy(&w, p, 8);
	m = ~w & 0x8080808080808080ULL;
	return m ? (unsigned)(__builtin_ctzll(m) >> 3) + 1 : 0;
#else
	unsigned i;

	for (i = 0; i < 8; i++)
		if ((p[i] & 0x80) == 0)
			return i + 1;
	return 0;
#endif
}

static bool
plain_event(const struct plane *pl, const unsigned char *p, uint64_t n,
    const unsigned char *lim)
{
	const unsigned char *e = p + n;
	const struct evmd *m;
	int64_t md = 0;

	while (p < e) {
		unsigned t = *p++, i;
		uint64_t v = 0;

		if (t != (1 << 3) && t != (2 << 3) && t != (3 << 3))
			return false;
		if (t != (1 << 3) && lim - p >= 8 && (i = varint_len8(p)) != 0) {
			/* an offset or a duration: passed over */
			if (i > (uint64_t)(e - p))
				return false;
			p += i;
			continue;
		}
		for (i = 0;; i++) {
			if (i >= 9 || p + i >= e)
				return false;
			v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
			if ((p[i] & 0x80) == 0)
				break;
		}
		p += i + 1;
		if (t == (1 << 3))
			md = (int64_t)v;
	}
	m = find_evmd(pl, md);
	return m == NULL || m->nst == 0;
}

/* Walk the events of line li: fn(x, pl, li, event, stats, nstats, file off, len), which
 * must not read the file (the window stays in use). The
 * line's bytes come in windows of WALK_CHUNK, its fields read in place; from a field
 * that is not a plain event head (a long tag, a group, a length past the line's end, an
 * event over 16 MiB) walk_slow goes on, so that errors read as they always have. */
static int
walk_line(struct xp *x, struct plane *pl, size_t li, event_fn fn, void *arg, size_t maxst)
{
	struct line *ln = &pl->lines[li];
	struct xstat st[MAXSTATS];
	struct event e;
	uint64_t pos = ln->off, end = ln->off + ln->len;
	size_t nst;

	while (pos < end) {
		uint64_t n = end - pos < walk_chunk() ? end - pos : walk_chunk();
		const unsigned char *p = xsrc_get(&x->src, pos, n, x->err), *q, *qe;

		if (p == NULL)
			return -1;
		for (q = p, qe = p + n; q < qe;) {
			uint64_t v = 0, left = (uint64_t)(qe - q);
			unsigned t = q[0], i;

			/* a one-byte tag of a varint or LEN field, its value in place */
			if (t >= 0x80 || t < 8 || ((t & 7) != PB_VARINT && (t & 7) != PB_LEN))
				return walk_slow(x, pl, li, pos + (uint64_t)(q - p), fn, arg, maxst,
				    st);
			for (i = 1; i < left && i <= 10; i++) {
				v |= (uint64_t)(q[i] & 0x7f) << (7 * (i - 1));
				if ((q[i] & 0x80) == 0)
					break;
			}
			if (i >= left || i > 9) {
				if (i >= left && pos + n < end && q > p)
					break;		/* cut by the window: read on from q */
				return walk_slow(x, pl, li, pos + (uint64_t)(q - p), fn, arg, maxst,
				    st);
			}
			i++;
			if ((t & 7) == PB_VARINT) {
				q += i;
				continue;
			}
			if (v > left - i) {
				if (pos + n < end && q > p && v <= (1u << 24))
					break;		/* cut by the window */
				if (pos + n < end && v <= (1u << 24) && v + i <= end - pos) {
					/* one field larger than a window: read it whole */
					n = v + i;
					if ((p = xsrc_get(&x->src, pos, n, x->err)) == NULL)
						return -1;
					q = p;
					qe = p + n;
					continue;
				}
				return walk_slow(x, pl, li, pos + (uint64_t)(q - p), fn, arg, maxst,
				    st);
			}
			if ((t >> 3) == 4) {
				uint64_t at = pos + (uint64_t)(q - p) + i;

				if (v > (1u << 24))
					return walk_slow(x, pl, li, at - i, fn, arg, maxst, st);
				if (pl->links_only && plain_event(pl, q + i, v, qe)) {
					q += i + v;
					continue;
				}
				if (decode_event(x, pl, q + i, v, at, &e, st, &nst, maxst,
				    false) != 0)
					return -1;
				if (fn(x, pl, li, &e, st, nst, at, v, arg) != 0)
					return -1;
			}
			q += i + v;
		}
		pos += (uint64_t)(q - p);
	}
	return 0;
}

static const struct xstat *
find_stat(const struct plane *pl, const struct event *e, const struct xstat *st,
    size_t nst, int64_t md)
{
	size_t i;

	if (md == INT64_MIN)
		return NULL;
	for (i = nst; i-- > 0;)
		if (st[i].md == md)
			return &st[i];
	if (e->meta != NULL)
		for (i = e->meta->nst; i-- > 0;)
			if (pl->stats[e->meta->st + i].md == md)
				return &pl->stats[e->meta->st + i];
	return NULL;
}

static bool
stat_u64(const struct xstat *s, uint64_t *v)
{
	if (s == NULL)
		return false;
	if (s->kind == S_UINT || s->kind == S_INT) {
		*v = s->u;
		return true;
	}
	if (s->kind == S_DOUBLE) {
		double d = pb_double(s->u);
		if (!(d >= 0 && d < 1.8e19))
			return false;
		*v = (uint64_t)d;
		return true;
	}
	return false;
}

static const char *
stat_text(const struct xp *x, const struct plane *pl, const struct xstat *s)
{
	if (s == NULL)
		return NULL;
	if (s->kind == S_ESTR)
		return x->estr.p + s->u;
	if (s->kind == S_STR)
		return names_str(&pl->strs, s->s);
	if (s->kind == S_REF)
		return stat_name(pl, (int64_t)s->u);
	return NULL;
}

/* --- the launch map (host events with a correlation_id) -------------------------------- */

static uint64_t
hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return v;
}

static struct link *
link_slot(struct xp *x, uint64_t corr)
{
	size_t i, k, blocks = x->caplinks >> 6;

	if (x->caplinks == 0)
		return NULL;
	/* runs of 64 consecutive ids (launches are numbered in order) stay together in a
	 * block of 64 slots, the blocks scattered: lookups in kernel order walk the table,
	 * not jump. A probe moves on by a block, keeping the place in it (so that a run
	 * that meets another moves on whole, not slot by slot through it), and after every
	 * block to the next place: each slot once in caplinks probes. */
	i = ((hash64(corr >> 6) << 6) | (corr & 63)) & (x->caplinks - 1);
	for (k = 1; x->links[i].used; k++) {
		if (x->links[i].corr == corr)
			return &x->links[i];
		i = (i + 64 + (k % blocks == 0)) & (x->caplinks - 1);
	}
	return &x->links[i];
}

static void
link_add(struct xp *x, const struct link *l)
{
	struct link *s;
	size_t i, old;

	if ((x->nlinks + 1) * 2 > x->caplinks) {
		struct link *prev = x->links;

		old = x->caplinks;
		x->caplinks = old == 0 ? 1024 : old * 2;
		x->links = xcalloc(x->caplinks, sizeof(*x->links));
		for (i = 0; i < old; i++)
			if (prev[i].used)
				*link_slot(x, prev[i].corr) = prev[i];
		free(prev);
	}
	s = link_slot(x, l->corr);
	if (!s->used) {
		*s = *l;
		s->used = true;
		x->nlinks++;
		return;
	}
	/* the last in TraceLens's order (tid, start, longest first) wins */
	if (l->tid > s->tid || (l->tid == s->tid && (l->start_ns > s->start_ns ||
	    (l->start_ns == s->start_ns && (l->rem_ps > s->rem_ps ||
	    (l->rem_ps == s->rem_ps && l->dur_ps <= s->dur_ps)))))) {
		*s = *l;
		s->used = true;
	}
}

/* Counting pass: converted events per line; host links; kernels without one. */
static int
count_event(struct xp *x, struct plane *pl, size_t li, const struct event *e,
    const struct xstat *st, size_t nst, uint64_t off, uint64_t len, void *arg)
{
	struct line *ln = &pl->lines[li];
	struct link l;
	uint64_t corr;
	const struct link *hit;
	uint32_t rem;

	if (e->meta != NULL && e->meta->internal)
		return 0;
	ln->nev++;
	if ((e->off_ps % 1000) != 0 || (e->dur_ps % 1000) != 0)
		pl->subns = true;
	if (pl->kind == P_HOST && stat_u64(find_stat(pl, e, st, nst, pl->s_corr), &corr)) {
		memset(&l, 0, sizeof(l));
		l.corr = corr;
		l.tid = ln->tid;
		event_start(ln, e, &l.start_ns, &rem);
		l.rem_ps = (uint16_t)rem;
		l.dur_ps = e->dur_ps;
		link_add(x, &l);
	}
	if (pl->kind == P_GPU && ln->stream) {
		x->gpu_events++;
		hit = stat_u64(find_stat(pl, e, st, nst, pl->s_corr), &corr) ?
		    link_slot(x, corr) : NULL;
		if (hit == NULL || !hit->used)
			x->unlinked++;
	}
	return 0;
}

/* --- HLO modules ------------------------------------------------------------------- */

static struct module *
find_module(struct xp *x, const char *mod, const long long *program_id)
{
	struct module *hit = NULL;
	size_t i, n = 0;

	for (i = 0; i < x->nmods; i++) {
		if (strcmp(x->mods[i].name, mod) != 0)
			continue;
		if (program_id != NULL && x->mods[i].program_id == *program_id)
			return &x->mods[i];
		hit = &x->mods[i];
		n++;
	}
	return program_id == NULL && n == 1 ? hit : NULL;
}

static struct hlo_module *
module_hlo(struct xp *x, struct module *m)
{
	const unsigned char *p;
	unsigned char *copy;
	struct error e = ERROR_INIT;

	if (m->loaded)
		return &m->m;
	if (m->failed || m->len == 0 || m->len > ((uint64_t)1 << 31))
		return NULL;
	if ((p = xsrc_get(&x->src, m->off, m->len, &e)) == NULL) {
		error_warn(&e);
		error_free(&e);
		m->failed = true;
		return NULL;
	}
	copy = xmalloc((size_t)m->len + 1);
	memcpy(copy, p, (size_t)m->len);
	if (hlo_parse(&m->m, copy, (size_t)m->len, m->off, x->name, &e) != 0) {
		/* a module that does not parse: its kernels go without HLO facts */
		error_warn(&e);
		error_free(&e);
		hlo_free(&m->m);
		m->failed = true;
		return NULL;
	}
	m->loaded = true;
	return &m->m;
}

static void
collect_modules(struct xp *x, struct plane *pl)
{
	size_t i, k;
	const char *nm, *lp;
	char *end;

	for (i = 0; i < pl->nevmd; i++) {
		const struct evmd *md = &pl->evmd[i];
		struct module m;

		if (md->name == NAME_NONE)
			continue;
		memset(&m, 0, sizeof(m));
		for (k = 0; k < md->nst; k++) {
			const struct xstat *s = &pl->stats[md->st + k];
			if (s->kind == S_BYTES && s->md == pl->s_hlo_proto) {
				m.off = s->u;
				m.len = s->len;
			}
		}
		if (m.len == 0)
			continue;
		nm = names_str(&pl->strs, md->name);
		m.key = xstrdup(nm);
		m.program_id = -1;
		lp = strrchr(nm, '(');
		if (lp != NULL && lp != nm && nm[strlen(nm) - 1] == ')') {
			m.name = xstrndup(nm, (size_t)(lp - nm));
			m.program_id = strtoll(lp + 1, &end, 10);
			if (*end != ')')
				m.program_id = -1;
		} else
			m.name = xstrdup(nm);
		x->mods = xgrow(x->mods, &x->capmods, x->nmods + 1, sizeof(*x->mods));
		x->mods[x->nmods++] = m;
	}
}

/* --- writing -------------------------------------------------------------------------- */

static void
flush_out(struct xp *x)
{
	if (x->out.len >= (1u << 16)) {
		if (fwrite(x->out.p, 1, x->out.len, x->sink) != x->out.len)
			io_write_error(x->sink, "<stdout>");
		buf_reset(&x->out);
		if (ferror(x->sink))
			io_write_error(x->sink, "stdout");
	}
}

static void
build_u64(struct rec_build *rb, uint64_t v)
{
	char t[32];
	int n;

	if (v <= INT64_MAX) {
		rec_build_int(rb, (long long)v);
		return;
	}
	n = snprintf(t, sizeof(t), "%" PRIu64, v);
	rec_build_num(rb, t, (size_t)n);
}

static void
build_stat(struct rec_build *rb, const struct xp *x, const struct plane *pl,
    const struct xstat *s)
{
	const char *t;
	char num[40];
	int n;

	switch (s->kind) {
	case S_UINT:
		build_u64(rb, s->u);
		break;
	case S_INT:
		rec_build_int(rb, (long long)pb_sint(s->u));
		break;
	case S_DOUBLE:
		n = snprintf(num, sizeof(num), "%.17g", pb_double(s->u));
		if (pb_double(s->u) == pb_double(s->u) && strchr(num, 'n') == NULL &&
		    strchr(num, 'i') == NULL)
			rec_build_num(rb, num, (size_t)n);
		else
			rec_build_null(rb);
		break;
	default:
		if ((t = stat_text(x, pl, s)) != NULL)
			rec_build_strz(rb, t);
		else
			rec_build_null(rb);
	}
}

static void
write_trace(struct xp *x)
{
	static const struct { const char *stat, *key; } caps[] = {
		{ "device_vendor", "vendor" }, { "clock_rate", "clock_khz" },
		{ "core_count", "cores" }, { "memory_bandwidth", "bandwidth" },
		{ "memory_size", "memory" }, { "compute_cap_major", "compute_cap_major" },
		{ "compute_cap_minor", "compute_cap_minor" },
		{ "device_type_string", "device_type" },
		{ "peak_teraflops_per_second", "peak_tflops" },
		{ "peak_hbm_bw_gigabytes_per_second", "peak_hbm_gbps" }
	};
	struct rec_build rb;
	size_t i, k, j;

	rec_build_begin(&rb, &x->out);
	rec_build_key(&rb, "kind");
	rec_build_word(&rb, "trace");
	rec_build_key(&rb, "trace");
	rec_build_word(&rb, "xplane");
	rec_build_key(&rb, "file");
	rec_build_strz(&rb, x->name);
	rec_build_key(&rb, "format");
	rec_build_word(&rb, "xplane");
	rec_build_key(&rb, "hosts");
	rec_build_array(&rb);
	for (i = 0; i < x->nhosts; i++)
		rec_build_strz(&rb, x->hosts[i]);
	rec_build_end_array(&rb);
	rec_build_key(&rb, "devices");
	rec_build_array(&rb);
	for (i = 0; i < x->nplanes; i++) {
		const struct plane *pl = &x->planes[i];

		if (pl->kind != P_GPU && pl->kind != P_TPU && pl->kind != P_CUSTOM)
			continue;
		rec_build_object(&rb);
		rec_build_key(&rb, "id");
		rec_build_int(&rb, pl->ordinal);
		rec_build_key(&rb, "name");
		rec_build_strz(&rb, pl->name);
		rec_build_key(&rb, "type");
		rec_build_word(&rb, pl->kind == P_GPU ? "GPU" : pl->kind == P_TPU ? "TPU" :
		    "CUSTOM");
		rec_build_key(&rb, "plane_id");
		rec_build_int(&rb, pl->id);
		rec_build_key(&rb, "pid");
		if (pl->pid >= 0)
			rec_build_int(&rb, pl->pid);
		else
			rec_build_null(&rb);
		for (k = 0; k < sizeof(caps) / sizeof(caps[0]); k++)
			for (j = pl->pst; j < pl->pst + pl->npst; j++) {
				const char *sn = stat_name(pl, pl->stats[j].md);
				if (sn == NULL || strcmp(sn, caps[k].stat) != 0)
					continue;
				rec_build_key(&rb, caps[k].key);
				build_stat(&rb, x, pl, &pl->stats[j]);
				break;
			}
		rec_build_key(&rb, "lines");
		rec_build_int(&rb, (long long)pl->nlines);
		rec_build_end_object(&rb);
	}
	rec_build_end_array(&rb);
	rec_build_key(&rb, "modules");
	rec_build_array(&rb);
	for (i = 0; i < x->nmods; i++) {
		rec_build_object(&rb);
		rec_build_key(&rb, "name");
		rec_build_strz(&rb, x->mods[i].key);
		rec_build_key(&rb, "module");
		rec_build_strz(&rb, x->mods[i].name);
		rec_build_key(&rb, "program_id");
		if (x->mods[i].program_id >= 0)
			rec_build_int(&rb, x->mods[i].program_id);
		else
			rec_build_null(&rb);
		rec_build_key(&rb, "hlo_bytes");
		rec_build_int(&rb, (long long)x->mods[i].len);
		rec_build_end_object(&rb);
	}
	rec_build_end_array(&rb);
	rec_build_key(&rb, "gpu_events");
	rec_build_int(&rb, (long long)x->gpu_events);
	rec_build_key(&rb, "unlinked");
	rec_build_int(&rb, (long long)x->unlinked);
	rec_build_end(&rb);
	flush_out(x);
}

/* The shape of an HLO instruction as record members: text, dims, dtype, layout. */
static void
build_shape(struct rec_build *rb, struct xp *x, const struct hlo_module *m,
    struct hlo_span shape)
{
	int64_t d[64], l[64];
	int et, n, nl, i;
	const char *tn;

	buf_reset(&x->tmp);
	hlo_shape_text(m, shape, &x->tmp);
	rec_build_key(rb, "text");
	rec_build_str(rb, x->tmp.p != NULL ? x->tmp.p : "", x->tmp.len);
	n = hlo_shape_dims(m, shape, &et, d, 64, l, &nl);
	tn = hlo_type_name(et);
	rec_build_key(rb, "dtype");
	if (tn != NULL)
		rec_build_strz(rb, tn);
	else
		rec_build_null(rb);
	if (et == 13)
		return;
	rec_build_key(rb, "shape");
	rec_build_array(rb);
	for (i = 0; i < n; i++)
		rec_build_int(rb, d[i]);
	rec_build_end_array(rb);
	if (nl >= 0 && nl <= 64) {
		rec_build_key(rb, "layout");
		rec_build_array(rb);
		for (i = 0; i < nl; i++)
			rec_build_int(rb, l[i]);
		rec_build_end_array(rb);
	}
}

static void
build_ints(struct rec_build *rb, const struct hlo_module *m, struct hlo_span msg,
    unsigned num, const char *key)
{
	int64_t v[64];
	int n, i;

	n = hlo_ints(m, msg, num, v, 64);
	rec_build_key(rb, key);
	rec_build_array(rb);
	for (i = 0; i < n && i < 64; i++)
		rec_build_int(rb, v[i]);
	rec_build_end_array(rb);
}

/* The HLO facts of the instruction a kernel ran (docs/jax.md §10). */
static void
build_hlo(struct rec_build *rb, struct xp *x, const struct hlo_module *m,
    const struct hlo_instr *ins)
{
	static const struct { unsigned num; const char *key; } convdims[] = {
		{ 7, "input_batch" }, { 8, "input_feature" }, { 11, "input_spatial" },
		{ 3, "kernel_input_feature" }, { 4, "kernel_output_feature" },
		{ 6, "kernel_spatial" }, { 9, "output_batch" }, { 10, "output_feature" },
		{ 12, "output_spatial" }
	};
	const struct hlo_instr *op;
	const char *s;
	size_t k, n;
	long long line;
	struct hlo_span e;

	rec_build_key(rb, "opcode");
	rec_build_str(rb, hlo_str(m, ins->opcode), ins->opcode.len);
	if (ins->target.len > 0) {
		rec_build_key(rb, "custom_call_target");
		rec_build_str(rb, hlo_str(m, ins->target), ins->target.len);
	}
	if (ins->fusion_kind.len > 0) {
		rec_build_key(rb, "fusion_kind");
		rec_build_str(rb, hlo_str(m, ins->fusion_kind), ins->fusion_kind.len);
	}
	if ((s = hlo_metadata_str(m, ins, 1, &n)) != NULL) {
		rec_build_key(rb, "op_type");
		rec_build_str(rb, s, n);
	}
	if ((s = hlo_metadata_str(m, ins, 2, &n)) != NULL) {
		rec_build_key(rb, "op_name");
		rec_build_str(rb, s, n);
	}
	if ((s = hlo_metadata_str(m, ins, 3, &n)) != NULL) {
		buf_reset(&x->tmp);
		buf_add(&x->tmp, s, n);
		if ((line = hlo_metadata_line(m, ins)) != 0)
			buf_printf(&x->tmp, ":%lld", line);
		rec_build_key(rb, "source");
		rec_build_str(rb, x->tmp.p, x->tmp.len);
	}
	buf_reset(&x->tmp);
	hlo_metadata_text(m, ins, &x->tmp);
	if (x->tmp.len > 0) {
		rec_build_key(rb, "hlo_metadata");
		rec_build_str(rb, x->tmp.p, x->tmp.len);
	}
	rec_build_key(rb, "root");
	rec_build_bool(rb, ins->root);
	rec_build_key(rb, "in");
	rec_build_array(rb);
	for (k = 0; k < ins->nops; k++) {
		rec_build_object(rb);
		if ((op = hlo_operand(m, ins, k)) != NULL) {
			rec_build_key(rb, "name");
			rec_build_str(rb, hlo_str(m, op->name), op->name.len);
			build_shape(rb, x, m, op->shape);
			rec_build_key(rb, "listed");
			rec_build_bool(rb, hlo_tl_listed(m, op));
		}
		rec_build_end_object(rb);
	}
	rec_build_end_array(rb);
	rec_build_key(rb, "out");
	rec_build_array(rb);
	if ((e = hlo_tuple_elem(m, ins->shape, 0)).len == 0) {
		rec_build_object(rb);
		build_shape(rb, x, m, ins->shape);
		rec_build_end_object(rb);
	} else
		for (k = 0; (e = hlo_tuple_elem(m, ins->shape, k)).len > 0; k++) {
			rec_build_object(rb);
			build_shape(rb, x, m, e);
			rec_build_end_object(rb);
		}
	rec_build_end_array(rb);
	buf_reset(&x->tmp);
	hlo_shape_text(m, ins->shape, &x->tmp);
	rec_build_key(rb, "out_text");
	rec_build_str(rb, x->tmp.p != NULL ? x->tmp.p : "", x->tmp.len);
	if (ins->config.len > 0) {
		rec_build_key(rb, "backend_config");
		rec_build_str(rb, hlo_str(m, ins->config), ins->config.len);
	}
	if (ins->dot.len > 0) {
		rec_build_key(rb, "dot");
		rec_build_object(rb);
		build_ints(rb, m, ins->dot, 1, "lhs_contracting");
		build_ints(rb, m, ins->dot, 2, "rhs_contracting");
		build_ints(rb, m, ins->dot, 3, "lhs_batch");
		build_ints(rb, m, ins->dot, 4, "rhs_batch");
		rec_build_end_object(rb);
	}
	{
		/* a matrix multiplication's sizes by HLO's meaning */
		static const char *const keys[4] = { "B", "M", "N", "K" };
		const struct hlo_instr *dot;
		int64_t bmnk[4];

		if (hlo_gemm(m, ins, bmnk, &dot)) {
			for (k = 0; k < 4; k++) {
				rec_build_key(rb, keys[k]);
				rec_build_int(rb, bmnk[k]);
			}
			if (dot != ins) {
				/* the fusion's dot: its operands' dtypes */
				int et;
				int64_t d[1];

				rec_build_key(rb, "gemm_dtypes");
				rec_build_array(rb);
				for (k = 0; k < 2; k++) {
					const struct hlo_instr *o = hlo_operand(m, dot, k);
					const char *tn = NULL;

					if (o != NULL) {
						(void)hlo_shape_dims(m, o->shape, &et, d, 0, NULL,
						    NULL);
						tn = hlo_type_name(et);
					}
					if (tn != NULL)
						rec_build_strz(rb, tn);
					else
						rec_build_null(rb);
				}
				rec_build_end_array(rb);
			}
		}
	}
	if (ins->conv.len > 0) {
		rec_build_key(rb, "conv");
		rec_build_object(rb);
		for (k = 0; k < sizeof(convdims) / sizeof(convdims[0]); k++)
			build_ints(rb, m, ins->conv, convdims[k].num, convdims[k].key);
		rec_build_end_object(rb);
		if (ins->feature_groups > 0) {
			rec_build_key(rb, "feature_group_count");
			rec_build_int(rb, ins->feature_groups);
		}
		{
			/* the kernel's input features (C_in / groups) and spatial extents,
			 * by the dimension numbers: what each output element sums over */
			int64_t kif[2], ks[16], kd[16];
			const struct hlo_instr *kop = hlo_operand(m, ins, 1);
			int nkif = hlo_ints(m, ins->conv, 3, kif, 2);
			int nks = hlo_ints(m, ins->conv, 6, ks, 16), nkd = -1, et, j;
			bool ok;

			if (kop != NULL)
				nkd = hlo_shape_dims(m, kop->shape, &et, kd, 16, NULL, NULL);
			if (nkif == 0) {
				/* a proto3 int64 left out is 0 */
				kif[0] = 0;
				nkif = 1;
			}
			ok = nkif == 1 && nks >= 0 && nks <= 16 && nkd > 0 && kif[0] >= 0 &&
			    kif[0] < nkd;
			for (j = 0; ok && j < nks; j++)
				ok = ks[j] >= 0 && ks[j] < nkd;
			if (ok) {
				rec_build_key(rb, "conv_kernel");
				rec_build_array(rb);
				rec_build_int(rb, kd[kif[0]]);
				for (j = 0; j < nks; j++)
					rec_build_int(rb, kd[ks[j]]);
				rec_build_end_array(rb);
			}
		}
	}
	if (ins->window.len > 0) {
		static const char *const wkeys[] = { NULL, "size", "stride", "padding_low",
		    "padding_high", "window_dilation", "base_dilation" };
		struct pb_iter it;
		struct pb_field f;
		struct hlo_span d;
		unsigned w;

		rec_build_key(rb, "window");
		rec_build_array(rb);
		pb_init(&it, m->bytes + ins->window.off, ins->window.len, 0);
		while (pb_next(&it, &f) == PB_OK) {
			if (f.num != 1 || f.wt != PB_LEN)
				continue;
			d.off = (uint32_t)(f.data - m->bytes);
			d.len = (uint32_t)f.v;
			rec_build_object(rb);
			for (w = 1; w <= 6; w++) {
				int64_t v = 0;
				if (hlo_ints(m, d, w, &v, 1) > 0) {
					rec_build_key(rb, wkeys[w]);
					rec_build_int(rb, v);
				}
			}
			rec_build_end_object(rb);
		}
		rec_build_end_array(rb);
	}
}

/* The members of build_hlo, with "listed" first, from the cache when built before. */
static void
hlo_members(struct rec_build *rb, struct xp *x, struct module *mm,
    const struct hlo_instr *ins)
{
	const struct hlo_module *hm = &mm->m;
	size_t k = (size_t)(ins - hm->ins), start;

	if (mm->hcache == NULL && hm->nins > 0) {
		mm->hcache = xcalloc(hm->nins, sizeof(*mm->hcache));
		mm->hcache_len = xcalloc(hm->nins, sizeof(*mm->hcache_len));
	}
	if (mm->hcache != NULL && mm->hcache[k] != 0) {
		/* a member follows the module's name: the comma is due, and stays due */
		buf_add(&x->out, x->hcache.p + mm->hcache[k] - 1, mm->hcache_len[k]);
		return;
	}
	start = x->out.len;
	rec_build_key(rb, "listed");
	rec_build_bool(rb, hlo_tl_listed(hm, ins));
	build_hlo(rb, x, hm, ins);
	if (mm->hcache != NULL && x->hcache.len + (x->out.len - start) <= HCACHE_MAX) {
		mm->hcache[k] = (uint32_t)x->hcache.len + 1;
		mm->hcache_len[k] = (uint32_t)(x->out.len - start);
		buf_add(&x->hcache, x->out.p + start, x->out.len - start);
	}
}

/* "regs:38 grid:160,1,1 block:1024,1,1 ..." → grid, block arrays; shared bytes. */
static void
build_kdetails(struct rec_build *rb, const char *s)
{
	static const char *const keys[] = { "grid", "block" };
	static const char *const pats[] = { "grid:", "block:" };
	const char *p;
	size_t i;
	long long shared = 0;
	bool any = false;

	for (i = 0; i < 2; i++) {
		const char *pat = pats[i];
		long long v[3];
		int n = 0;

		for (p = s; (p = strstr(p, pat)) != NULL; p++)
			if (p == s || p[-1] == ' ')
				break;
		if (p == NULL)
			continue;
		p += strlen(pat);
		while (n < 3) {
			char *end;
			v[n] = strtoll(p, &end, 10);
			if (end == p)
				break;
			n++;
			p = end;
			if (*p != ',')
				break;
			p++;
		}
		if (n == 0)
			continue;
		rec_build_key(rb, keys[i]);
		rec_build_array(rb);
		for (int k = 0; k < n; k++)
			rec_build_int(rb, v[k]);
		rec_build_end_array(rb);
	}
	for (i = 0; i < 4; i++) {
		static const char *const sh[] = { "static_shared:", "dynamic_shared:", "shm:",
		    "group_mem:" };
		for (p = s; (p = strstr(p, sh[i])) != NULL; p++)
			if (p == s || p[-1] == ' ')
				break;
		if (p != NULL) {
			long long v1 = strtoll(p + strlen(sh[i]), NULL, 10);

			/* saturated, as strtoll saturates one size too large: no real
			 * kernel's shared memory comes near, the record still comes */
			if (!ck_add_i64(shared, v1, &shared))
				shared = v1 < 0 ? LLONG_MIN : LLONG_MAX;
			any = true;
		}
	}
	if (any) {
		rec_build_key(rb, "shared");
		rec_build_int(rb, shared);
	}
}

/* What xprof shows of an event: its metadata's display name when set and not empty,
 * else its name; "" when it has neither. */
/* build_kdetails of text t, its members kept for the next kernel of the same text (a
 * member precedes them, the comma is due and stays due). */
static void
kdetails(struct xp *x, struct rec_build *rb, const char *t)
{
	size_t start = x->out.len, len = strlen(t);
	uint32_t k;
	int added;

	if (x->kdn.n >= KDCACHE_TEXTS && names_lookup(&x->kdn, t, len) == NAME_NONE) {
		build_kdetails(rb, t);
		return;
	}
	k = names_add(&x->kdn, t, len, &added);
	if (added) {
		if ((size_t)k >= x->capkd) {
			size_t old = x->capkd;

			x->kd_at = xgrow(x->kd_at, &x->capkd, (size_t)k + 1, sizeof(*x->kd_at));
			x->kd_len = xreallocarray(x->kd_len, x->capkd, sizeof(*x->kd_len));
			memset(x->kd_at + old, 0, (x->capkd - old) * sizeof(*x->kd_at));
		}
		x->kd_at[k] = 0;
	} else if (x->kd_at[k] != 0) {
		buf_add(&x->out, x->kdcache.p + x->kd_at[k] - 1, x->kd_len[k]);
		return;
	}
	build_kdetails(rb, t);
	if (added && x->kdcache.len + (x->out.len - start) <= KDCACHE_MAX) {
		x->kd_at[k] = (uint32_t)x->kdcache.len + 1;
		x->kd_len[k] = (uint32_t)(x->out.len - start);
		buf_add(&x->kdcache, x->out.p + start, x->out.len - start);
	}
}

static const char *
event_name(const struct plane *pl, const struct event *e)
{
	if (e->meta == NULL)
		return "";
	if (e->meta->dname != NAME_NONE && *names_str(&pl->strs, e->meta->dname))
		return names_str(&pl->strs, e->meta->dname);
	return e->meta->name != NAME_NONE ? names_str(&pl->strs, e->meta->name) : "";
}

/* The keys every event record starts with: kind, trace, id and uid (TraceLens's UID). */
static void
build_event_head(struct rec_build *rb, const char *kind, uint64_t uid)
{
	rec_build_key(rb, "kind");
	rec_build_word(rb, kind);
	rec_build_key(rb, "trace");
	rec_build_word(rb, "xplane");
	rec_build_key(rb, "id");
	build_u64(rb, uid);
	rec_build_key(rb, "uid");
	build_u64(rb, uid);
}

/* One device event as a gpu record (docs/jax.md §10). */
static int
write_gpu(struct xp *x, struct plane *pl, const struct line *ln, const struct event *e,
    const struct xstat *st, size_t nst, uint64_t uid)
{
	struct rec_build rb;
	const char *name, *lname, *t, *mod, *op;
	const struct xstat *s;
	uint64_t corr, v;
	int64_t start_ns;
	uint32_t rem;
	long long pidv;
	bool has_pid;
	uint8_t gk, cl;
	struct module *mm;
	const struct hlo_module *hm;
	const struct hlo_instr *ins;

	name = event_name(pl, e);
	if (e->meta != NULL) {
		gk = e->meta->gpu;
		cl = e->meta->cls;
	} else
		classify(name, &gk, &cl);
	event_start(ln, e, &start_ns, &rem);
	rec_build_begin(&rb, &x->out);
	build_event_head(&rb, "gpu", uid);
	rec_build_key(&rb, "name");
	rec_build_strz(&rb, name);
	rec_build_key(&rb, "gpu");
	rec_build_word(&rb, gpu_kinds[gk]);
	rec_build_key(&rb, "class");
	rec_build_word(&rb, classes[cl]);
	rec_build_key(&rb, "device");
	rec_build_int(&rb, pl->ordinal);
	rec_build_key(&rb, "pid");
	rec_build_int(&rb, pl->pid);
	rec_build_key(&rb, "tid");
	rec_build_int(&rb, ln->tid);
	lname = ln->dname != NAME_NONE && *names_str(&pl->strs, ln->dname) ?
	    names_str(&pl->strs, ln->dname) : names_str(&pl->strs, ln->name);
	rec_build_key(&rb, "stream");
	rec_build_strz(&rb, ln->name == NAME_NONE && ln->dname == NAME_NONE ? "" : lname);
	rec_build_key(&rb, "start_ns");
	rec_build_int(&rb, start_ns);
	rec_build_key(&rb, "ns");
	build_u64(&rb, e->dur_ps / 1000);
	if (pl->subns) {
		char t2[64];
		int n = snprintf(t2, sizeof(t2), "%lld%03u", (long long)start_ns, rem);
		if (start_ns == 0)
			n = snprintf(t2, sizeof(t2), "%u", rem);
		rec_build_key(&rb, "start_ps");
		rec_build_num(&rb, t2, (size_t)n);
		rec_build_key(&rb, "ps");
		build_u64(&rb, e->dur_ps);
	}
	if (stat_u64(s = find_stat(pl, e, st, nst, pl->s_corr), &corr)) {
		const struct link *l = link_slot(x, corr);

		rec_build_key(&rb, "correlation_id");
		build_u64(&rb, corr);
		if (l != NULL && l->used) {
			rec_build_key(&rb, "launch_start_ns");
			rec_build_int(&rb, l->start_ns);
			if (l->rem_ps != 0 || pl->subns) {
				char t2[64];
				int n = snprintf(t2, sizeof(t2), "%lld%03u", (long long)l->start_ns,
				    l->rem_ps);
				rec_build_key(&rb, "launch_start_ps");
				rec_build_num(&rb, t2, (size_t)n);
			}
		}
	}
	mod = stat_text(x, pl, find_stat(pl, e, st, nst, pl->s_hlo_module));
	op = stat_text(x, pl, find_stat(pl, e, st, nst, pl->s_hlo_op));
	has_pid = stat_u64(find_stat(pl, e, st, nst, pl->s_program_id), &v);
	pidv = has_pid ? (long long)v : -1;
	if (mod != NULL) {
		rec_build_key(&rb, "hlo_module");
		rec_build_strz(&rb, mod);
	}
	if (has_pid) {
		rec_build_key(&rb, "program_id");
		build_u64(&rb, v);
	}
	if (op != NULL) {
		rec_build_key(&rb, "hlo_op");
		rec_build_strz(&rb, op);
	}
	if ((t = stat_text(x, pl, find_stat(pl, e, st, nst, pl->s_tf_op))) != NULL) {
		rec_build_key(&rb, "tf_op");
		rec_build_strz(&rb, t);
	}
	if ((t = stat_text(x, pl, find_stat(pl, e, st, nst, pl->s_name))) != NULL) {
		rec_build_key(&rb, "scope");
		rec_build_strz(&rb, t);
	}
	if ((t = stat_text(x, pl, find_stat(pl, e, st, nst, pl->s_kdetails))) != NULL) {
		rec_build_key(&rb, "kernel_details");
		rec_build_strz(&rb, t);
		kdetails(x, &rb, t);
	}
	if (mod != NULL && op != NULL &&
	    (mm = find_module(x, mod, has_pid ? &pidv : NULL)) != NULL) {
		rec_build_key(&rb, "module");
		rec_build_strz(&rb, mm->key);
		if ((hm = module_hlo(x, mm)) != NULL &&
		    (ins = hlo_find(hm, op, strlen(op))) != NULL)
			hlo_members(&rb, x, mm, ins);
	}
	rec_build_end(&rb);
	flush_out(x);
	return 0;
}

/* A time in ps as a JSON integer (ns * 1000 + rem, without 64-bit overflow). */
static void
build_ps(struct rec_build *rb, int64_t ns, uint32_t rem)
{
	char t[64];
	int n;

	if (ns == 0)
		n = snprintf(t, sizeof(t), "%u", rem);
	else
		n = snprintf(t, sizeof(t), "%lld%03u", (long long)ns, rem);
	rec_build_num(rb, t, (size_t)n);
}

/* Stats that op records leave out: xprof's internal ones, and long or binary ones. */
static bool
op_stat_skipped(const char *sn)
{
	static const char *const skip[] = { "_pt", "_ct", "_p", "_c", "_r", "symbol_id",
	    "source_stack", "memory_access_breakdown", "program_id", "flops",
	    "bytes_accessed", "hlo_category" };
	size_t i;

	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (strcmp(sn, skip[i]) == 0)
			return true;
	return false;
}

/* The stats st[0..nst) but those of an id that comes again later or in over[0..nover)
 * (the event's own stats override its metadata's): each key once. */
static void
build_op_stats(struct rec_build *rb, struct xp *x, const struct plane *pl,
    const struct xstat *st, size_t nst, const struct xstat *over, size_t nover)
{
	const struct xstat *s;
	const char *sn;
	size_t i, j;

	for (i = 0; i < nst; i++) {
		s = &st[i];
		for (j = i + 1; j < nst && st[j].md != s->md; j++)
			;
		if (j < nst)
			continue;
		for (j = 0; j < nover && over[j].md != s->md; j++)
			;
		if (j < nover)
			continue;
		if (s->kind == S_BYTES || s->kind == S_NONE ||
		    (sn = stat_name(pl, s->md)) == NULL || op_stat_skipped(sn))
			continue;
		rec_build_keyn(rb, sn, strlen(sn));
		build_stat(rb, x, pl, s);
	}
}

/* One event of a TPU plane's XLA Ops or XLA Modules line as an op record (docs/jax.md
 * §10, §11): its name as op (the core key of op records), its line, its duration as
 * device_ns and exactly in ps, and its metadata's cost stats. */
static int
write_op(struct xp *x, struct plane *pl, const struct line *ln, const struct event *e,
    const struct xstat *st, size_t nst, uint64_t uid)
{
	struct rec_build rb;
	const char *name, *lname, *t;
	const struct xstat *s;
	int64_t start_ns;
	uint32_t rem;
	uint64_t v;

	name = event_name(pl, e);
	lname = ln->dname != NAME_NONE && *names_str(&pl->strs, ln->dname) ?
	    names_str(&pl->strs, ln->dname) : names_str(&pl->strs, ln->name);
	event_start(ln, e, &start_ns, &rem);
	rec_build_begin(&rb, &x->out);
	build_event_head(&rb, "op", uid);
	rec_build_key(&rb, "op");
	rec_build_strz(&rb, name);
	rec_build_key(&rb, "line");
	rec_build_strz(&rb, lname);
	rec_build_key(&rb, "device");
	rec_build_int(&rb, pl->ordinal);
	rec_build_key(&rb, "pid");
	rec_build_int(&rb, pl->pid);
	rec_build_key(&rb, "tid");
	rec_build_int(&rb, ln->tid);
	rec_build_key(&rb, "start_ns");
	rec_build_int(&rb, start_ns);
	rec_build_key(&rb, "device_ns");
	build_u64(&rb, e->dur_ps / 1000);
	rec_build_key(&rb, "start_ps");
	build_ps(&rb, start_ns, rem);
	rec_build_key(&rb, "ps");
	build_u64(&rb, e->dur_ps);
	if ((t = stat_text(x, pl, find_stat(pl, e, st, nst, pl->s_category))) != NULL) {
		rec_build_key(&rb, "hlo_category");
		rec_build_strz(&rb, t);
	}
	if (strcmp(lname, "XLA Modules") == 0 && (t = strrchr(name, '(')) != NULL &&
	    t != name && name[strlen(name) - 1] == ')') {
		/* "module(program_id)" */
		rec_build_key(&rb, "module");
		rec_build_str(&rb, name, (size_t)(t - name));
	}
	if (e->meta != NULL && e->meta->name != NAME_NONE && e->meta->dname != NAME_NONE &&
	    *names_str(&pl->strs, e->meta->dname)) {
		/* the metadata's name: the HLO instruction's text, or "module(program)" */
		rec_build_key(&rb, "long_name");
		rec_build_strz(&rb, names_str(&pl->strs, e->meta->name));
	}
	if (stat_u64(s = find_stat(pl, e, st, nst, pl->s_program_id), &v)) {
		rec_build_key(&rb, "program_id");
		build_u64(&rb, v);
	}
	if (stat_u64(find_stat(pl, e, st, nst, pl->s_flops), &v)) {
		rec_build_key(&rb, "flops");
		build_u64(&rb, v);
	}
	if (stat_u64(find_stat(pl, e, st, nst, pl->s_bytes), &v)) {
		rec_build_key(&rb, "bytes");
		build_u64(&rb, v);
	}
	/* the other stats under their own names: the metadata's, then the event's */
	rec_build_key(&rb, "stats");
	rec_build_object(&rb);
	if (e->meta != NULL)
		build_op_stats(&rb, x, pl, pl->stats + e->meta->st, e->meta->nst, st, nst);
	build_op_stats(&rb, x, pl, st, nst, NULL, 0);
	rec_build_end_object(&rb);
	rec_build_end(&rb);
	flush_out(x);
	return 0;
}

/* --- the second pass: events in xprof's order ----------------------------------------- */

struct gather {
	struct ev	*evs;
	size_t		 n, cap;
	uint32_t	 tid;
};

static int
gather_event(struct xp *x, struct plane *pl, size_t li, const struct event *e,
    const struct xstat *st, size_t nst, uint64_t off, uint64_t len, void *arg)
{
	struct gather *g = arg;
	struct ev *v;

	if (e->meta != NULL && e->meta->internal)
		return 0;
	g->evs = xgrow(g->evs, &g->cap, g->n + 1, sizeof(*g->evs));
	v = &g->evs[g->n++];
	event_start(&pl->lines[li], e, &v->start_ns, &v->rem_ps);
	v->line = (uint32_t)li;
	v->dur_ps = e->dur_ps;
	v->off = off;
	v->len = len;
	return 0;
}

static int
cmp_ev(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->rem_ps != y->rem_ps)
		return x->rem_ps < y->rem_ps ? -1 : 1;
	if (x->dur_ps != y->dur_ps)
		return x->dur_ps > y->dur_ps ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int
cmp_line_tid(const void *a, const void *b)
{
	const struct line *x = *(const struct line *const *)a, *y = *(const struct line *const *)b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Emit the Stream events of a device plane, each tid's lines merged, in UID order. */
static int
emit_plane(struct xp *x, struct plane *pl)
{
	struct line **order;
	struct gather g = { NULL, 0, 0, 0 };
	struct xstat st[MAXSTATS];
	struct event e;
	uint64_t base = pl->base;
	size_t i, j, k, nst;
	bool stream;
	int rc = 0;

	order = xcalloc(pl->nlines + 1, sizeof(*order));
	for (i = 0; i < pl->nlines; i++)
		order[i] = &pl->lines[i];
	qsort(order, pl->nlines, sizeof(*order), cmp_line_tid);
	for (i = 0; i < pl->nlines && rc == 0; i = j) {
		uint64_t n = 0;

		stream = false;
		for (j = i; j < pl->nlines && order[j]->tid == order[i]->tid; j++)
			if (order[j]->kept) {
				n += order[j]->nev;
				stream = stream || (pl->kind == P_GPU && order[j]->stream) ||
				    order[j]->ops;
			}
		if (!stream) {
			base += n;
			continue;
		}
		g.n = 0;
		for (k = i; k < j && rc == 0; k++)
			if (order[k]->kept)
				rc = walk_line(x, pl, (size_t)(order[k] - pl->lines), gather_event,
				    &g, 0);
		if (rc != 0)
			break;
		/* a tid of one line comes in order, as a rule: sorted only when not */
		for (k = 1; k < g.n && cmp_ev(&g.evs[k - 1], &g.evs[k]) < 0; k++)
			;
		if (k < g.n)
			qsort(g.evs, g.n, sizeof(*g.evs), cmp_ev);
		for (k = 0; k < g.n && rc == 0; k++) {
			const struct ev *v = &g.evs[k];
			const struct line *ln = &pl->lines[v->line];
			const unsigned char *p;

			if (!(pl->kind == P_GPU && ln->stream) && !ln->ops)
				continue;
			if ((p = xsrc_get(&x->src, v->off, v->len, x->err)) == NULL ||
			    decode_event(x, pl, p, v->len, v->off, &e, st, &nst, MAXSTATS,
			    true) != 0)
				rc = -1;
			else if (ln->ops)
				rc = write_op(x, pl, ln, &e, st, nst, base + k);
			else
				rc = write_gpu(x, pl, ln, &e, st, nst, base + k);
		}
		base += g.n;
	}
	free(g.evs);
	free(order);
	return rc;
}

/* --- the whole file --------------------------------------------------------------- */

static int
cmp_plane_pid(const void *a, const void *b)
{
	const struct plane *x = *(const struct plane *const *)a;
	const struct plane *y = *(const struct plane *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void
free_all(struct xp *x)
{
	size_t i;

	for (i = 0; i < x->nplanes; i++) {
		struct plane *pl = &x->planes[i];
		free(pl->name);
		free(pl->lines);
		free(pl->evmd);
		free(pl->evmd_at);
		free(pl->stmd);
		free(pl->stats);
		names_free(&pl->strs);
	}
	free(x->planes);
	for (i = 0; i < x->nhosts; i++)
		free(x->hosts[i]);
	free(x->hosts);
	for (i = 0; i < x->nmods; i++) {
		free(x->mods[i].key);
		free(x->mods[i].name);
		if (x->mods[i].loaded)
			hlo_free(&x->mods[i].m);
		free(x->mods[i].hcache);
		free(x->mods[i].hcache_len);
	}
	free(x->mods);
	free(x->links);
	buf_free(&x->out);
	buf_free(&x->tmp);
	buf_free(&x->hcache);
	buf_free(&x->estr);
	names_free(&x->kdn);
	free(x->kd_at);
	free(x->kd_len);
	buf_free(&x->kdcache);
	xsrc_close(&x->src);
}

static int
run(struct xp *x)
{
	struct xsrc_it it;
	struct pb_field f;
	const unsigned char *p;
	struct plane **byp;
	bool gpu = false;
	size_t i, k;
	long long lastpid = -1;
	int rc;

	/* XSpace: its planes and host names */
	xsrc_it_init(&it, &x->src, 0, x->src.size, "XSpace");
	while ((rc = xsrc_next(&it, &f, x->err)) == PB_OK) {
		if (f.num == 1 && f.wt == PB_LEN) {
			x->planes = xgrow(x->planes, &x->capplanes, x->nplanes + 1,
			    sizeof(*x->planes));
			memset(&x->planes[x->nplanes], 0, sizeof(*x->planes));
			x->planes[x->nplanes].off = f.at;
			x->planes[x->nplanes].len = f.v;
			x->nplanes++;
		} else if (f.num == 4 && f.wt == PB_LEN && f.v <= 4096) {
			if ((p = load(x, &f)) == NULL)
				return -1;
			x->hosts = xgrow(x->hosts, &x->caphosts, x->nhosts + 1,
			    sizeof(*x->hosts));
			x->hosts[x->nhosts++] = xstrndup((const char *)p, (size_t)f.v);
		}
	}
	if (rc == PB_ERR)
		return -1;
	if (x->nplanes == 0)
		return fail(x, 0, "XSpace", "no planes: not a profile");
	for (i = 0; i < x->nplanes; i++)
		if (read_plane(x, &x->planes[i]) != 0)
			return -1;
	for (i = 0; i < x->nplanes; i++)
		gpu = gpu || x->planes[i].kind == P_GPU;
	/* xprof's pids (docs/jax.md §1.4): host 701, GPU (else TPU) 1 + id, custom 501 + id */
	for (i = 0; i < x->nplanes; i++) {
		struct plane *pl = &x->planes[i];

		pl->pid = -1;
		if (pl->kind == P_HOST)
			pl->pid = 701;
		else if (pl->kind == P_GPU || (pl->kind == P_TPU && !gpu))
			pl->pid = 1 + pl->id;
		else if (pl->kind == P_CUSTOM)
			pl->pid = 501 + pl->id;
		else if (pl->kind == P_META)
			collect_modules(x, pl);
		for (k = 0; k < pl->nlines; k++) {
			struct line *ln = &pl->lines[k];
			const char *dn = ln->dname != NAME_NONE ? names_str(&pl->strs, ln->dname) :
			    "";
			const char *nm = *dn ? dn : ln->name != NAME_NONE ?
			    names_str(&pl->strs, ln->name) : "";

			ln->tid = (uint32_t)(ln->display_id != 0 ? ln->display_id : ln->id);
			/* the line's display name: its display_name, else its name */
			ln->kept = pl->pid >= 0 && ln->nev > 0 && strcmp(nm, "Async XLA Ops") != 0;
			ln->stream = ln->kept && strncmp(nm, "Stream", 6) == 0 &&
			    (pl->kind == P_GPU || pl->kind == P_TPU);
			ln->ops = ln->kept && pl->kind == P_TPU && (strcmp(nm, "XLA Ops") == 0 ||
			    strcmp(nm, "XLA Modules") == 0);
			ln->nev = 0;
		}
	}
	/* counting pass, the host first: it links the device events. The UIDs number
	 * the planes' events in pid order, so that the counts of a plane after the last
	 * one written matter to none: of such a host plane only the events that may be
	 * launches are decoded, other planes there are passed over. */
	for (i = 0; i < x->nplanes; i++)
		if ((x->planes[i].kind == P_GPU || x->planes[i].kind == P_TPU) &&
		    x->planes[i].pid > lastpid)
			lastpid = x->planes[i].pid;
	for (i = 0; i < x->nplanes; i++)
		x->planes[i].links_only = x->planes[i].pid > lastpid;
	for (k = 0; k < 2; k++)
		for (i = 0; i < x->nplanes; i++) {
			struct plane *pl = &x->planes[i];
			size_t li;

			if ((pl->kind == P_HOST) != (k == 0) || pl->pid < 0 ||
			    (pl->links_only && pl->kind != P_HOST))
				continue;
			for (li = 0; li < pl->nlines; li++)
				if (pl->lines[li].kept &&
				    walk_line(x, pl, li, count_event, NULL, MAXSTATS) != 0)
					return -1;
			for (li = 0; li < pl->nlines; li++) {
				if (pl->lines[li].nev == 0)
					pl->lines[li].kept = false;
				pl->nconv += pl->lines[li].nev;
			}
		}
	byp = xcalloc(x->nplanes + 1, sizeof(*byp));
	for (i = 0; i < x->nplanes; i++)
		byp[i] = &x->planes[i];
	qsort(byp, x->nplanes, sizeof(*byp), cmp_plane_pid);
	{
		uint64_t base = 0;

		for (i = 0; i < x->nplanes; i++)
			if (byp[i]->pid >= 0) {
				byp[i]->base = base;
				base += byp[i]->nconv;
			}
	}
	write_trace(x);
	for (i = 0; i < x->nplanes; i++)
		if (byp[i]->pid >= 0 && (byp[i]->kind == P_GPU || byp[i]->kind == P_TPU) &&
		    emit_plane(x, byp[i]) != 0) {
			free(byp);
			return -1;
		}
	free(byp);
	if (x->out.len > 0 && fwrite(x->out.p, 1, x->out.len, x->sink) != x->out.len)
		io_write_error(x->sink, "<stdout>");
	buf_reset(&x->out);
	if (ferror(x->sink))
		io_write_error(x->sink, "stdout");
	if (x->verbose)
		note("%s: %llu device events, %llu without a host launch, %zu HLO modules",
		    x->name, (unsigned long long)x->gpu_events,
		    (unsigned long long)x->unlinked, x->nmods);
	return 0;
}

int
xplane_parse(const char *path, const char *name, int verbose, FILE *out, struct error *err)
{
	struct xp x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.sink = out;
	x.name = name;
	x.verbose = verbose;
	x.err = err;
	if (xsrc_open(&x.src, path, err) != 0)
		return -1;
	x.src.name = name;
	names_init(&x.kdn);
	rc = run(&x);
	free_all(&x);
	return rc;
}
