/* SPDX-License-Identifier: ISC */
/* xmeta: pass 1 over an XSpace plane: its id and name, event and stat metadata, its own
 * stats and its lines' heads, read in bounded windows (jax/xsrc.h; docs/jax.md §1). */
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/names.h"
#include "core/pb.h"
#include "xpriv.h"

static const char *const internal_names[] = {
	"MemoryAllocation", "MemoryDeallocation", "PrefetchProduce", "PrefetchConsume",
	"ParallelInterleaveProduce", "ParallelInterleaveConsume",
	"ParallelInterleaveInitializeInput", "ParallelMapProduce", "ParallelMapConsume",
	"MapAndBatchProduce", "MapAndBatchConsume", "ParseExampleProduce",
	"ParseExampleConsume"
};

/* An event's name, its gpu category and class (docs/jax.md §1.5, 2). */
void
xp_classify(const char *name, uint8_t *gpu, uint8_t *cls)
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

const unsigned char *
xp_load(struct xp *x, const struct pb_field *f)
{
	return xsrc_get(&x->src, f->at, f->v, x->err);
}

int
xp_fail(struct xp *x, uint64_t off, const char *what, const char *msg)
{
	error_set(x->err, x->name, 0, (long long)off, "%s: %s", what, msg);
	return -1;
}

static uint32_t
intern_field(struct xp *x, struct plane *pl, const struct pb_field *f, int *rc)
{
	const unsigned char *p;

	if (f->wt != PB_LEN) {
		*rc = xp_fail(x, f->off, "field", "expected a string");
		return NAME_NONE;
	}
	if (f->v > (1u << 30)) {
		*rc = xp_fail(x, f->off, "field", "a string of more than 1 GiB");
		return NAME_NONE;
	}
	if ((p = xp_load(x, f)) == NULL) {
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
	xp_classify(md.dname != NAME_NONE && *names_str(&pl->strs, md.dname) ?
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

/* Bytes of a line read at once by xp_walk_line (xsrc's window; TTP_WALK_CHUNK=N: N, for
 * tests of the fields cut by a window's end). */
#define WALK_CHUNK	((uint64_t)1 << 20)

uint64_t
xp_walk_chunk(void)
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
	uint64_t n = it->end - it->pos < xp_walk_chunk() ? it->end - it->pos : xp_walk_chunk();
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

/* A line's head: everything but its events (located by the caller's second pass). */
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
	/* an event's start is ts_ns + offset_ps / 1000 (offset_ps < 2^63): a timestamp
	 * within 2^62 ns of 0 keeps it in 64 bits */
	if (ln.ts_ns > XP_TS_MAX || ln.ts_ns < -XP_TS_MAX) {
		error_set(x->err, x->name, 0, (long long)lf->at, "XLine: timestamp_ns %lld "
		    "out of range (ttp holds times within 2^62 ns of 0)", (long long)ln.ts_ns);
		return -1;
	}
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

const struct evmd *
xp_find_evmd(const struct plane *pl, int64_t id)
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

const char *
xp_stat_name(const struct plane *pl, int64_t id)
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
int
xp_read_plane(struct xp *x, struct plane *pl)
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
				return xp_fail(x, f.off, "XPlane", "a plane name of more than 4096 bytes");
			if ((p = xp_load(x, &f)) == NULL)
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
