/* SPDX-License-Identifier: ISC */
/* hlo: the HLO modules embedded in a JAX profile (jax/hlo.h). */
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/pb.h"
#include "jax/hlo.h"

struct hlo_key {
	uint32_t	comp;
	int64_t		id;
	uint32_t	ins;
};

static struct hlo_span
span_of(const struct hlo_module *m, const struct pb_field *f)
{
	struct hlo_span s;

	s.off = (uint32_t)(f->data - m->bytes);
	s.len = (uint32_t)f->v;
	return s;
}

const char *
hlo_str(const struct hlo_module *m, struct hlo_span s)
{
	return (const char *)m->bytes + s.off;
}

static int
bad(struct pb_iter *it, uint64_t base, const char *file, struct error *e, const char *what)
{
	error_set(e, file, 0, (long long)it->err_off, "%s: %s", what,
	    it->err != NULL ? it->err : "malformed");
	(void)base;
	return -1;
}

/* Operand or called-computation ids: packed (LEN) or one per field (VARINT). */
static int
add_ids(struct hlo_module *m, const struct pb_field *f, size_t *cap, struct pb_iter *err)
{
	struct pb_iter it;
	uint64_t v;
	int rc;

	if (f->wt == PB_VARINT) {
		m->opids = xgrow(m->opids, cap, m->nopids + 1, sizeof(*m->opids));
		m->opids[m->nopids++] = (int64_t)f->v;
		return 0;
	}
	if (f->wt != PB_LEN)
		return 0;
	pb_init(&it, f->data, (size_t)f->v, f->at);
	while ((rc = pb_next_varint(&it, &v)) == PB_OK) {
		m->opids = xgrow(m->opids, cap, m->nopids + 1, sizeof(*m->opids));
		m->opids[m->nopids++] = (int64_t)v;
	}
	if (rc == PB_ERR) {
		*err = it;
		return -1;
	}
	return 0;
}

static int
parse_instr(struct hlo_module *m, const struct pb_field *in, uint32_t comp, size_t *opcap,
    struct pb_iter *err)
{
	struct hlo_instr *ins = &m->ins[m->nins];
	struct pb_iter it;
	struct pb_field f;
	int rc;

	memset(ins, 0, sizeof(*ins));
	ins->self = span_of(m, in);
	ins->comp = comp;
	ins->ops = (uint32_t)m->nopids;
	pb_init(&it, in->data, (size_t)in->v, in->at);
	while ((rc = pb_next(&it, &f)) == PB_OK) {
		if (f.wt == PB_LEN)
			switch (f.num) {
			case 1: ins->name = span_of(m, &f); break;
			case 2: ins->opcode = span_of(m, &f); break;
			case 3: ins->shape = span_of(m, &f); break;
			case 7: ins->metadata = span_of(m, &f); break;
			case 11: ins->fusion_kind = span_of(m, &f); break;
			case 15: ins->window = span_of(m, &f); break;
			case 16: ins->conv = span_of(m, &f); break;
			case 28: ins->target = span_of(m, &f); break;
			case 30: ins->dot = span_of(m, &f); break;
			case 43: ins->config = span_of(m, &f); break;
			default: break;
			}
		if (f.num == 35 && f.wt == PB_VARINT)
			ins->id = (int64_t)f.v;
		else if (f.num == 50 && f.wt == PB_VARINT)
			ins->feature_groups = (int64_t)f.v;
		else if (f.num == 36 && add_ids(m, &f, opcap, err) != 0)
			return -1;
	}
	if (rc == PB_ERR) {
		*err = it;
		return -1;
	}
	ins->nops = (uint32_t)(m->nopids - ins->ops);
	/* called computations (38) are read again when asked for; not kept */
	return 0;
}

static int
cmp_key(const void *a, const void *b)
{
	const struct hlo_key *x = a, *y = b;

	if (x->comp != y->comp)
		return x->comp < y->comp ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->ins < y->ins ? -1 : x->ins > y->ins;
}

int
hlo_parse(struct hlo_module *m, unsigned char *bytes, size_t len, uint64_t off,
    const char *file, struct error *e)
{
	struct pb_iter top, mod, comp, it;
	struct pb_field f, g, h;
	size_t inscap = 0, opcap = 0, compcap = 0, i;
	int64_t root;
	uint32_t c, first;
	int rc;

	memset(m, 0, sizeof(*m));
	m->bytes = bytes;
	m->len = len;
	names_init(&m->names);
	pb_init(&top, bytes, len, off);
	while ((rc = pb_next(&top, &f)) == PB_OK) {
		if (f.num != 1 || f.wt != PB_LEN)
			continue;
		pb_init(&mod, f.data, (size_t)f.v, f.at);
		while ((rc = pb_next(&mod, &g)) == PB_OK) {
			if (g.wt != PB_LEN)
				continue;
			if (g.num == 1)
				m->name = span_of(m, &g);
			else if (g.num == 2)
				m->entry = span_of(m, &g);
			if (g.num != 3)
				continue;
			c = (uint32_t)m->ncomps;
			m->comp_ids = xgrow(m->comp_ids, &compcap, m->ncomps + 1,
			    sizeof(*m->comp_ids));
			m->comp_first = xreallocarray(m->comp_first, m->ncomps + 2,
			    sizeof(*m->comp_first));
			m->comp_first[m->ncomps] = (uint32_t)m->nins;
			m->comp_ids[m->ncomps++] = -1;
			root = -1;
			first = (uint32_t)m->nins;
			pb_init(&comp, g.data, (size_t)g.v, g.at);
			while ((rc = pb_next(&comp, &h)) == PB_OK) {
				if (h.num == 2 && h.wt == PB_LEN) {
					m->ins = xgrow(m->ins, &inscap, m->nins + 1,
					    sizeof(*m->ins));
					if (parse_instr(m, &h, c, &opcap, &it) != 0)
						return bad(&it, off, file, e, "HLO instruction");
					m->nins++;
				} else if (h.num == 5 && h.wt == PB_VARINT)
					m->comp_ids[c] = (int64_t)h.v;
				else if (h.num == 6 && h.wt == PB_VARINT)
					root = (int64_t)h.v;
			}
			if (rc == PB_ERR)
				return bad(&comp, off, file, e, "HLO computation");
			for (i = first; i < m->nins; i++)
				if (m->ins[i].id == root)
					m->ins[i].root = true;
		}
		if (rc == PB_ERR)
			return bad(&mod, off, file, e, "HLO module");
	}
	if (rc == PB_ERR)
		return bad(&top, off, file, e, "HLO proto");
	m->comp_first = xreallocarray(m->comp_first, m->ncomps + 1, sizeof(*m->comp_first));
	m->comp_first[m->ncomps] = (uint32_t)m->nins;
	m->by_name = xcalloc(m->nins + 1, sizeof(*m->by_name));
	m->keys = xcalloc(m->nins + 1, sizeof(*m->keys));
	for (i = 0; i < m->nins; i++) {
		uint32_t k = names_intern(&m->names, hlo_str(m, m->ins[i].name),
		    m->ins[i].name.len);
		m->by_name[k] = (uint32_t)i;	/* a repeated name: the last one */
		m->keys[i].comp = m->ins[i].comp;
		m->keys[i].id = m->ins[i].id;
		m->keys[i].ins = (uint32_t)i;
	}
	qsort(m->keys, m->nins, sizeof(*m->keys), cmp_key);
	return 0;
}

void
hlo_free(struct hlo_module *m)
{
	free(m->bytes);
	free(m->ins);
	free(m->opids);
	free(m->comp_ids);
	free(m->comp_first);
	free(m->by_name);
	free(m->keys);
	names_free(&m->names);
	memset(m, 0, sizeof(*m));
}

const struct hlo_instr *
hlo_find(const struct hlo_module *m, const char *name, size_t n)
{
	uint32_t k = names_lookup(&m->names, name, n);

	return k == NAME_NONE ? NULL : &m->ins[m->by_name[k]];
}

const struct hlo_instr *
hlo_operand(const struct hlo_module *m, const struct hlo_instr *ins, size_t k)
{
	struct hlo_key key, *hit;

	if (k >= ins->nops)
		return NULL;
	key.comp = ins->comp;
	key.id = m->opids[ins->ops + k];
	key.ins = 0;
	/* the first of equal (comp, id) keys */
	{
		size_t lo = 0, hi = m->nins;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (cmp_key(&m->keys[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		hit = lo < m->nins ? &m->keys[lo] : NULL;
	}
	if (hit == NULL || hit->comp != key.comp || hit->id != key.id)
		return NULL;
	return &m->ins[hit->ins];
}

long
hlo_comp(const struct hlo_module *m, int64_t id)
{
	size_t i;

	for (i = 0; i < m->ncomps; i++)
		if (m->comp_ids[i] == id)
			return (long)i;
	return -1;
}

static const char *const type_names[] = {
	NULL, "pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "f16", "f32",
	"f64", "tuple", "opaque", "c64", "bf16", "token", "c128", "f8e5m2", "f8e4m3fn",
	"s4", "u4", "f8e4m3b11fnuz", "f8e5m2fnuz", "f8e4m3fnuz", "s2", "u2", "f8e4m3",
	"f8e3m4", "f4e2m1fn", "f8e8m0fnu", "s1", "u1"
};

const char *
hlo_type_name(int etype)
{
	if (etype < 0 || (size_t)etype >= sizeof(type_names) / sizeof(type_names[0]))
		return NULL;
	return type_names[etype];
}

int
hlo_ints(const struct hlo_module *m, struct hlo_span msg, unsigned num, int64_t *v,
    int max)
{
	struct pb_iter it, pk;
	struct pb_field f;
	uint64_t x;
	int n = 0;

	pb_init(&it, m->bytes + msg.off, msg.len, 0);
	while (pb_next(&it, &f) == PB_OK) {
		if (f.num != num)
			continue;
		if (f.wt == PB_VARINT) {
			if (n < max)
				v[n] = (int64_t)f.v;
			n++;
		} else if (f.wt == PB_LEN) {
			pb_init(&pk, f.data, (size_t)f.v, 0);
			while (pb_next_varint(&pk, &x) == PB_OK) {
				if (n < max)
					v[n] = (int64_t)x;
				n++;
			}
		}
	}
	return n;
}

static struct hlo_span
sub_span(const struct hlo_module *m, struct hlo_span msg, unsigned num, size_t k)
{
	struct pb_iter it;
	struct pb_field f;
	struct hlo_span s = { 0, 0 };

	pb_init(&it, m->bytes + msg.off, msg.len, 0);
	while (pb_next(&it, &f) == PB_OK)
		if (f.num == num && f.wt == PB_LEN && k-- == 0)
			return span_of(m, &f);
	return s;
}

static int
shape_type(const struct hlo_module *m, struct hlo_span shape)
{
	struct pb_iter it;
	struct pb_field f;

	pb_init(&it, m->bytes + shape.off, shape.len, 0);
	while (pb_next(&it, &f) == PB_OK)
		if (f.num == 2 && f.wt == PB_VARINT)
			return (int)(f.v > 1000 ? 1000 : f.v);
	return 0;
}

struct hlo_span
hlo_tuple_elem(const struct hlo_module *m, struct hlo_span shape, size_t k)
{
	return sub_span(m, shape, 4, k);
}

#define MAXDIMS 64

int
hlo_shape_dims(const struct hlo_module *m, struct hlo_span shape, int *etype,
    int64_t *d, int max, int64_t *l, int *nl)
{
	struct pb_iter it;
	struct pb_field f;
	int n;

	*etype = shape_type(m, shape);
	n = hlo_ints(m, shape, 3, d, max);
	if (nl != NULL) {
		*nl = -1;
		pb_init(&it, m->bytes + shape.off, shape.len, 0);
		while (pb_next(&it, &f) == PB_OK)
			if (f.num == 5 && f.wt == PB_LEN)
				*nl = hlo_ints(m, span_of(m, &f), 1, l, l != NULL ? max : 0);
	}
	return n > max ? -1 : n;
}

/* One array shape: "bf16[4,4]{1,0}". */
static void
array_shape_text(const struct hlo_module *m, struct hlo_span shape, struct buf *out)
{
	int64_t d[MAXDIMS], l[MAXDIMS];
	const char *tn;
	int et, n, nl, i;

	n = hlo_shape_dims(m, shape, &et, d, MAXDIMS, l, &nl);
	if ((tn = hlo_type_name(et)) != NULL)
		buf_adds(out, tn);
	else
		buf_printf(out, "type%d", et);
	buf_addc(out, '[');
	for (i = 0; i < n && i < MAXDIMS; i++)
		buf_printf(out, "%s%lld", i > 0 ? "," : "", (long long)d[i]);
	buf_addc(out, ']');
	if (n > 0 && nl >= 0) {
		buf_addc(out, '{');
		for (i = 0; i < nl && i < MAXDIMS; i++)
			buf_printf(out, "%s%lld", i > 0 ? "," : "", (long long)l[i]);
		buf_addc(out, '}');
	}
}

/*
 * A shape's text; tuples nest as deep as the profile makes them, so the walk keeps its own
 * stack of open tuples (each with the index of its next element) instead of recursing.
 */
void
hlo_shape_text(const struct hlo_module *m, struct hlo_span shape, struct buf *out)
{
	struct frame {
		struct hlo_span	tuple;
		size_t		next;
	} *st = NULL;
	size_t n = 0, cap = 0;
	struct hlo_span e;

	for (;;) {
		if (shape_type(m, shape) == 13) {	/* open a tuple */
			buf_addc(out, '(');
			st = xgrow(st, &cap, n + 1, sizeof(*st));
			st[n].tuple = shape;
			st[n].next = 0;
			n++;
		} else {
			array_shape_text(m, shape, out);
		}
		/* the next element of the innermost open tuple; close the finished ones */
		for (;;) {
			if (n == 0) {
				free(st);
				return;
			}
			e = hlo_tuple_elem(m, st[n - 1].tuple, st[n - 1].next);
			if (e.len > 0)
				break;
			buf_addc(out, ')');
			n--;
		}
		if (st[n - 1].next++ > 0)
			buf_adds(out, ", ");
		shape = e;
	}
}

/* absl::CEscape: \n \r \t \" \' \\ escaped, other bytes outside 0x20-0x7e in octal. */
static void
cescape(struct buf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '\n': buf_adds(out, "\\n"); break;
		case '\r': buf_adds(out, "\\r"); break;
		case '\t': buf_adds(out, "\\t"); break;
		case '"': buf_adds(out, "\\\""); break;
		case '\'': buf_adds(out, "\\'"); break;
		case '\\': buf_adds(out, "\\\\"); break;
		default:
			if (c < 0x20 || c >= 0x7f)
				buf_printf(out, "\\%03o", c);
			else
				buf_addc(out, (char)c);
		}
	}
}

const char *
hlo_metadata_str(const struct hlo_module *m, const struct hlo_instr *ins, int field,
    size_t *n)
{
	struct hlo_span s = sub_span(m, ins->metadata, (unsigned)field, 0);

	*n = s.len;
	return s.len > 0 ? hlo_str(m, s) : NULL;
}

long long
hlo_metadata_line(const struct hlo_module *m, const struct hlo_instr *ins)
{
	int64_t v = 0;

	if (ins->metadata.len == 0 || hlo_ints(m, ins->metadata, 4, &v, 1) < 1)
		return 0;
	return (long long)v;
}

void
hlo_metadata_text(const struct hlo_module *m, const struct hlo_instr *ins, struct buf *out)
{
	static const struct { int num; const char *key; } strs[] = {
		{ 1, "op_type" }, { 2, "op_name" }, { 3, "source_file" }
	};
	static const struct { int num; const char *key; } tail[] = {
		{ 12, "deduplicated_name" }, { 16, "scheduling_name" }
	};
	size_t start = out->len, i, n;
	int64_t pt[16];
	long long line;
	const char *s;
	int npt, k;

	if (ins->metadata.len == 0)
		return;
	buf_adds(out, "metadata={");
	for (i = 0; i < 3; i++)
		if ((s = hlo_metadata_str(m, ins, strs[i].num, &n)) != NULL && n > 0) {
			buf_printf(out, "%s%s=\"", out->p[out->len - 1] == '{' ? "" : " ",
			    strs[i].key);
			cescape(out, s, n);
			buf_addc(out, '"');
		}
	if ((line = hlo_metadata_line(m, ins)) != 0)
		buf_printf(out, "%ssource_line=%lld", out->p[out->len - 1] == '{' ? "" : " ",
		    line);
	if ((npt = hlo_ints(m, ins->metadata, 5, pt, 16)) > 0) {
		buf_printf(out, "%sprofile_type={", out->p[out->len - 1] == '{' ? "" : " ");
		for (k = 0; k < npt && k < 16; k++)
			buf_printf(out, "%s%lld", k > 0 ? "," : "", (long long)pt[k]);
		buf_addc(out, '}');
	}
	for (i = 0; i < 2; i++)
		if ((s = hlo_metadata_str(m, ins, tail[i].num, &n)) != NULL && n > 0) {
			buf_printf(out, "%s%s=\"", out->p[out->len - 1] == '{' ? "" : " ",
			    tail[i].key);
			cescape(out, s, n);
			buf_addc(out, '"');
		}
	if (out->p[out->len - 1] == '{') {	/* nothing printed: no attribute */
		out->len = start;
		out->p[start] = '\0';
		return;
	}
	buf_addc(out, '}');
}

bool
hlo_tl_listed(const struct hlo_module *m, const struct hlo_instr *ins)
{
	static const char *const subs[] = {
		"get-tuple-element", "bf16", "f8", "f16", "f32", "f64", "s32", "s64", "u32",
		"u64", "pred"
	};
	struct buf line = BUF_INIT;
	const struct hlo_instr *op;
	bool listed = false;
	size_t i, k;

	if (ins->root)
		return false;
	buf_addc(&line, '%');
	buf_add(&line, hlo_str(m, ins->name), ins->name.len);
	buf_adds(&line, " = ");
	hlo_shape_text(m, ins->shape, &line);
	buf_addc(&line, ' ');
	buf_add(&line, hlo_str(m, ins->opcode), ins->opcode.len);
	buf_addc(&line, '(');
	for (k = 0; k < ins->nops; k++)
		if ((op = hlo_operand(m, ins, k)) != NULL) {
			buf_adds(&line, k > 0 ? ", %" : "%");
			buf_add(&line, hlo_str(m, op->name), op->name.len);
		}
	buf_addc(&line, ')');
	if (ins->target.len > 0) {
		buf_adds(&line, ", custom_call_target=\"");
		cescape(&line, hlo_str(m, ins->target), ins->target.len);
		buf_addc(&line, '"');
	}
	k = line.len;
	hlo_metadata_text(m, ins, &line);
	if (line.len > k)
		listed = true;	/* ", metadata={...}" never ends in ')' */
	if (ins->config.len > 0)
		buf_add(&line, hlo_str(m, ins->config), ins->config.len);
	for (i = 0; !listed && i < sizeof(subs) / sizeof(subs[0]); i++)
		if (line.len > 0 && memmem(line.p, line.len, subs[i], strlen(subs[i])) != NULL)
			listed = true;
	buf_free(&line);
	return listed;
}

/* The ints of "key":[...] in a backend config's JSON (quoted or not), at most max. */
static int
config_ints(const char *s, size_t len, const char *key, int64_t *v, int max)
{
	const char *p = memmem(s, len, key, strlen(key)), *end = s + len;
	int n = 0;

	if (p == NULL)
		return -1;
	p += strlen(key);
	while (p < end && (*p == '"' || *p == ':' || *p == ' '))
		p++;
	if (p >= end || *p != '[')
		return -1;
	for (p++; p < end && *p != ']'; p++) {
		if (*p >= '0' && *p <= '9') {
			int64_t x = 0;

			while (p < end && *p >= '0' && *p <= '9') {
				if (x < (INT64_MAX - 9) / 10)
					x = x * 10 + (*p - '0');
				else
					x = INT64_MAX;	/* no dimension: fails below */
				p++;
			}
			if (n < max)
				v[n] = x;
			n++;
			p--;
		}
	}
	return p < end ? n : -1;
}

/* The product of the dims of s (nd of them) not listed in a or b. */
/* *p times d, false past 2^62 or for a negative d (a malformed shape). */
static bool
mul_dim(int64_t *p, int64_t d)
{
	if (d < 0 || (d > 0 && *p > ((int64_t)1 << 62) / d))
		return false;
	*p *= d;
	return true;
}

/* The product of the dims d[0..nd) not listed in a or b, into *p. */
static bool
free_prod(const int64_t *d, int nd, const int64_t *a, int na, const int64_t *b, int nb,
    int64_t *p)
{
	int i, k;

	*p = 1;
	for (i = 0; i < nd; i++) {
		for (k = 0; k < na && a[k] != i; k++)
			;
		if (k < na)
			continue;
		for (k = 0; k < nb && b[k] != i; k++)
			;
		if (k < nb)
			continue;
		if (!mul_dim(p, d[i]))
			return false;
	}
	return true;
}

static bool
dims_prod(const int64_t *d, int nd, const int64_t *idx, int n, int64_t *p)
{
	int i;

	*p = 1;
	for (i = 0; i < n; i++)
		if (idx[i] < 0 || idx[i] >= nd || !mul_dim(p, d[idx[i]]))
			return false;
	return true;
}

/* The first dot among the instructions of the computations ins calls. */
static const struct hlo_instr *
inner_dot(const struct hlo_module *m, const struct hlo_instr *ins)
{
	struct pb_iter it, pk;
	struct pb_field f;
	uint64_t id;
	long c;
	size_t i;

	pb_init(&it, m->bytes + ins->self.off, ins->self.len, 0);
	while (pb_next(&it, &f) == PB_OK) {
		if (f.num != 38)
			continue;
		if (f.wt == PB_VARINT)
			id = f.v;
		else if (f.wt == PB_LEN) {
			pb_init(&pk, f.data, (size_t)f.v, 0);
			if (pb_next_varint(&pk, &id) != PB_OK)
				continue;
		} else
			continue;
		if ((c = hlo_comp(m, (int64_t)id)) < 0)
			continue;
		for (i = m->comp_first[c]; i < m->comp_first[c + 1]; i++)
			if (m->ins[i].opcode.len == 3 &&
			    memcmp(hlo_str(m, m->ins[i].opcode), "dot", 3) == 0)
				return &m->ins[i];
	}
	return NULL;
}

static bool
span_is(const struct hlo_module *m, struct hlo_span s, const char *t)
{
	return s.len == strlen(t) && memcmp(hlo_str(m, s), t, s.len) == 0;
}

bool
hlo_gemm(const struct hlo_module *m, const struct hlo_instr *ins, int64_t bmnk[4],
    const struct hlo_instr **dot)
{
	int64_t lc[8], rc[8], lb[8], rb[8], ld[64], rd[64], k2;
	int nlc, nrc, nlb, nrb, nld, nrd, et;
	const struct hlo_instr *l, *r;
	const char *t;

	if (span_is(m, ins->opcode, "fusion")) {
		if ((ins = inner_dot(m, ins)) == NULL)
			return false;
	} else if (span_is(m, ins->opcode, "custom-call")) {
		t = hlo_str(m, ins->target);
		if (ins->target.len == 0 || (memmem(t, ins->target.len, "matmul", 6) == NULL &&
		    memmem(t, ins->target.len, "gemm", 4) == NULL &&
		    memmem(t, ins->target.len, "cublas", 6) == NULL))
			return false;
	} else if (!span_is(m, ins->opcode, "dot"))
		return false;
	if (ins->dot.len > 0) {
		nlc = hlo_ints(m, ins->dot, 1, lc, 8);
		nrc = hlo_ints(m, ins->dot, 2, rc, 8);
		nlb = hlo_ints(m, ins->dot, 3, lb, 8);
		nrb = hlo_ints(m, ins->dot, 4, rb, 8);
	} else if (ins->config.len > 0) {
		t = hlo_str(m, ins->config);
		nlc = config_ints(t, ins->config.len, "\"lhs_contracting_dimensions\"", lc, 8);
		nrc = config_ints(t, ins->config.len, "\"rhs_contracting_dimensions\"", rc, 8);
		nlb = config_ints(t, ins->config.len, "\"lhs_batch_dimensions\"", lb, 8);
		nrb = config_ints(t, ins->config.len, "\"rhs_batch_dimensions\"", rb, 8);
		if (nlb < 0)
			nlb = 0;
		if (nrb < 0)
			nrb = 0;
	} else
		return false;
	if (nlc < 1 || nrc != nlc || nlb != nrb || nlc > 8 || nlb > 8 || ins->nops < 2 ||
	    (l = hlo_operand(m, ins, 0)) == NULL || (r = hlo_operand(m, ins, 1)) == NULL)
		return false;
	nld = hlo_shape_dims(m, l->shape, &et, ld, 64, NULL, NULL);
	nrd = hlo_shape_dims(m, r->shape, &et, rd, 64, NULL, NULL);
	if (nld < 0 || nrd < 0 || !dims_prod(ld, nld, lb, nlb, &bmnk[0]) ||
	    !dims_prod(ld, nld, lc, nlc, &bmnk[3]) || !dims_prod(rd, nrd, rc, nrc, &k2) ||
	    k2 != bmnk[3])
		return false;
	if (!free_prod(ld, nld, lb, nlb, lc, nlc, &bmnk[1]) ||
	    !free_prod(rd, nrd, rb, nrb, rc, nrc, &bmnk[2]))
		return false;
	*dot = ins;
	return true;
}
