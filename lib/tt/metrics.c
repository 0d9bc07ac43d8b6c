/* SPDX-License-Identifier: ISC */
/*
 * metrics: tt-perf-report's per-op analysis (docs/tt-perf-report.md §9-§13, §17, §21): report
 * labels, Math Fidelity cells, matmul and conv throughput, halo labels, program-config
 * facts, Bound, the fidelity verdict, matmul advice and categories. Every figure is
 * computed with the reference's operations in the reference's order, so the doubles
 * are the same bits.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/ckint.h"
#include "core/diag.h"
#include "core/hwspec.h"
#include "tt/metrics.h"
#include "tt/opclass.h"

#define THRESHOLD	65	/* docs/tt-perf-report.md §13: Bound thresholds, >= */
#define FULL_GRID	64	/* §17.1, Q26: the reference's hard-coded grid */
#define DRAM_SHARDED_CORES 12	/* docs/tt-perf-report.md §10, Q15 */

void
metrics_init(struct mresult *m)
{
	memset(m, 0, sizeof(*m));
}

void
metrics_free(struct mresult *m)
{
	buf_free(&m->label);
	buf_free(&m->math);
	buf_free(&m->advbuf);
}

static void
reset(struct mresult *m)
{
	struct buf label = m->label, math = m->math, adv = m->advbuf;

	buf_reset(&label);
	buf_reset(&math);
	buf_reset(&adv);
	memset(m, 0, sizeof(*m));
	m->label = label;
	m->math = math;
	m->advbuf = adv;
	m->verdict_msg = "";
	m->category = "Other";
	/* buf_reset keeps memory but an untouched buf has p == NULL: make both "". */
	buf_adds(&m->label, "");
	buf_adds(&m->math, "");
}

/* --- names ---------------------------------------------------------------------- */

double
metrics_dtype_size(const char *dtype)
{
	const char *p;
	long v = 0;

	if (dtype == NULL)
		return 4;
	for (p = dtype; *p != '\0' && !isdigit((unsigned char)*p); p++)
		continue;
	if (*p == '\0')
		return 4;
	while (isdigit((unsigned char)*p) && v < 100000000)
		v = v * 10 + (*p++ - '0');
	return (double)v / 8;
}

const char *
metrics_dtype_short(const char *dtype)
{
	if (dtype == NULL)
		return "nan";
	if (strcmp(dtype, "FLOAT32") == 0)
		return "FP32";
	if (strcmp(dtype, "BFLOAT16") == 0)
		return "BF16";
	if (strcmp(dtype, "BFLOAT8_B") == 0)
		return "BFP8";
	if (strcmp(dtype, "BFLOAT4_B") == 0)
		return "BFP4";
	return dtype;
}

const char *
metrics_verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_SUFFICIENT:	return "sufficient";
	case VERDICT_TOO_HIGH:		return "too_high";
	case VERDICT_TOO_LOW:		return "too_low";
	case VERDICT_NOT_APPLICABLE:	return "not_applicable";
	case VERDICT_UNKNOWN:		return "unknown";
	default:			return NULL;
	}
}

const char *
metrics_bound_name(enum bound b)
{
	switch (b) {
	case BOUND_DRAM:	return "DRAM";
	case BOUND_FLOP:	return "FLOP";
	case BOUND_BOTH:	return "BOTH";
	case BOUND_SLOW:	return "SLOW";
	case BOUND_HOST:	return "HOST";
	default:		return NULL;
	}
}

/* --- fidelity verdict (§17.3) -------------------------------------------------- */

static int
mantissa_bits(const char *t)
{
	if (t == NULL)
		return -1;
	if (strcmp(t, "FLOAT32") == 0)
		return 23;
	if (strcmp(t, "BFLOAT16") == 0)
		return 8;
	if (strcmp(t, "BFLOAT8_B") == 0)
		return 7;
	if (strcmp(t, "BFLOAT4_B") == 0)
		return 3;
	return -1;
}

static int
is_int_type(const char *t)
{
	return t != NULL && (strcmp(t, "UINT8") == 0 || strcmp(t, "UINT16") == 0 ||
	    strcmp(t, "INT32") == 0 || strcmp(t, "UINT32") == 0);
}

static const char MSG_INT[] = "Fidelity evaluation is not applicable for integer datatypes "
    "(UINT8, UINT16, INT32, UINT32).";
static const char MSG_HIFI2_MAY[] = "HiFi2 may also work, it discards the lowest bit of the "
    "activations and has 2x the throughput of HiFi4";
static const char MSG_USE_HIFI4[] = "If your matmuls are not FLOP-bound use HiFi4 with BF16 "
    "activations for full accuracy";
static const char MSG_USE_HIFI2_OR_4[] = "Use HiFi2 or HiFi4 with BF16 activations for "
    "improved accuracy";
static const char MSG_HIFI2_BFP8_OUT[] = "HiFi2 is very likely to work for BFP8 output; it "
    "discards the lowest bit of the activations and has 2x the throughput of HiFi4";
static const char MSG_LOFI_BFP4_OUT[] = "LoFi might also be sufficient with BFP4 output and "
    "has almost 2x the throughput of HiFi2";
static const char MSG_HIFI2_BETTER[] = "HiFi2 may give better accuracy for large matmuls "
    "with many intermediate accumulations";
static const char MSG_HIFI2_BFP8_MUL[] = "HiFi2 is sufficient for BFP8 multiplication and "
    "has 2x the throughput of HiFi4";
static const char MSG_HIFI2_RECOMMENDED[] = "HiFi2 is recommended for accuracy; LoFi "
    "discards the lowest 2 bits of the weights";
static const char MSG_HIFI2_SLIGHTLY[] = "HiFi2 may give slightly better accuracy for large "
    "matmuls with many intermediate accumulations";
static const char MSG_LOFI_BFP4_W[] = "LoFi is sufficient with BFP4 weights, use it for much "
    "higher throughput";

enum verdict
metrics_fidelity_verdict(const char *in0, const char *in1, const char *out,
    const char *fid, const char **msg)
{
	static char unsupported[160];
	const char *types[3] = { in0, in1, out };
	int bits[3], i, f;

	*msg = "";
	if (is_int_type(in0) || is_int_type(in1) || is_int_type(out)) {
		*msg = MSG_INT;
		return VERDICT_NOT_APPLICABLE;
	}
	for (i = 0; i < 3; i++) {
		if ((bits[i] = mantissa_bits(types[i])) < 0) {
			snprintf(unsupported, sizeof(unsupported), "Datatype %.100s is not "
			    "supported for fidelity evaluation.",
			    types[i] != NULL ? types[i] : "nan");
			*msg = unsupported;
			return VERDICT_UNKNOWN;
		}
	}
	f = hwspec_fidelity(fid);
	if (f != FID_HIFI4 && f != FID_HIFI2 && f != FID_LOFI)
		return VERDICT_UNKNOWN;
	if (bits[0] == 8 && bits[2] >= 7) {
		switch (f) {
		case FID_HIFI4: *msg = MSG_HIFI2_MAY; return VERDICT_SUFFICIENT;
		case FID_HIFI2: *msg = MSG_USE_HIFI4; return VERDICT_TOO_LOW;
		default: *msg = MSG_USE_HIFI2_OR_4; return VERDICT_TOO_LOW;
		}
	}
	if (bits[0] == 8 && bits[2] == 3) {
		switch (f) {
		case FID_HIFI4: *msg = MSG_HIFI2_BFP8_OUT; return VERDICT_TOO_HIGH;
		case FID_HIFI2: *msg = MSG_LOFI_BFP4_OUT; return VERDICT_SUFFICIENT;
		default: *msg = MSG_HIFI2_BETTER; return VERDICT_TOO_LOW;
		}
	}
	if (bits[1] >= 7 && bits[2] >= 7) {
		switch (f) {
		case FID_HIFI4: *msg = MSG_HIFI2_BFP8_MUL; return VERDICT_TOO_HIGH;
		case FID_HIFI2: return VERDICT_SUFFICIENT;
		default: *msg = MSG_HIFI2_RECOMMENDED; return VERDICT_TOO_LOW;
		}
	}
	if (bits[1] >= 7 && bits[2] == 3) {
		switch (f) {
		case FID_HIFI4: *msg = MSG_HIFI2_BFP8_MUL; return VERDICT_TOO_HIGH;
		case FID_HIFI2: *msg = MSG_LOFI_BFP4_OUT; return VERDICT_SUFFICIENT;
		default: *msg = MSG_HIFI2_SLIGHTLY; return VERDICT_TOO_LOW;
		}
	}
	if (bits[1] == 3) {
		switch (f) {
		case FID_HIFI4:
		case FID_HIFI2: *msg = MSG_LOFI_BFP4_W; return VERDICT_TOO_HIGH;
		default: return VERDICT_SUFFICIENT;
		}
	}
	return VERDICT_UNKNOWN;	/* unreachable for the four known types */
}

/* --- bound (§13) -------------------------------------------------------------- */

enum bound
metrics_bound(bool has_dram, double dram_pct, bool has_flops, double flops_pct)
{
	/* Python truthiness: an empty value and exactly 0.0 both mean "no bound" (Q14). */
	if (!has_dram || !has_flops || dram_pct == 0 || flops_pct == 0)
		return BOUND_NONE;
	if (dram_pct >= THRESHOLD && flops_pct >= THRESHOLD)
		return BOUND_BOTH;
	if (dram_pct >= THRESHOLD)
		return BOUND_DRAM;
	if (flops_pct >= THRESHOLD)
		return BOUND_FLOP;
	return BOUND_SLOW;
}

/* --- categories (§21) --------------------------------------------------------- */

/* The categories are the op-kind table's (tt/opclass.h): a label's first word names one. */

static int category_notes;

void
metrics_category_notes(int on)
{
	category_notes = on;
}

const char *
metrics_category(const char *label)
{
	const char *w, *cat;
	char key[200];
	size_t n;

	if (label == NULL)
		return "Other";
	/* Python str.split(): the first run of non-whitespace. */
	for (w = label; *w != '\0' && isspace((unsigned char)*w); w++)
		continue;
	for (n = 0; w[n] != '\0' && !isspace((unsigned char)w[n]); n++)
		continue;
	if (n == 0)
		return "Other";
	if ((cat = opkind_category(w, n)) != NULL)
		return cat;
	snprintf(key, sizeof(key), "category:%.*s", (int)(n < 180 ? n : 180), w);
	if (category_notes)
		note_once(key, "'%.*s' is in none of tt-perf-report's op categories; "
		    "counted as Other", (int)n, w);
	return "Other";
}

/* --- attribute parsing ------------------------------------------------------------ */

static void
warn_once(const struct mop *op, const char *reason)
{
	char key[300];

	snprintf(key, sizeof(key), "%s\x1f%.200s", reason, op->op ? op->op : "");
	if (op->where != NULL)
		warning_once(key, "warning: %s: %s: %s", op->where, op->op ? op->op : "op",
		    reason);
	else
		warning_once(key, "warning: %s: %s", op->op ? op->op : "op", reason);
}

/* First "key(\d+)" match (Python re.search), value in *v. */
static bool
regex_int(const char *s, const char *key, long long *v)
{
	size_t k = strlen(key);
	const char *p;

	for (p = s; (p = strstr(p, key)) != NULL; p++) {
		const char *d = p + k;
		long long x = 0;

		if (!isdigit((unsigned char)*d))
			continue;
		for (; isdigit((unsigned char)*d); d++)
			x = x > LLONG_MAX / 10 - 10 ? LLONG_MAX : x * 10 + (*d - '0');
		*v = x;
		return true;
	}
	return false;
}

/*
 * Python int() of s[0..n): spaces, sign, digits with single '_' between. 1 with the value
 * in *v; 2 when the integer is beyond 64 bits (*v not set: Python's ints have no limit);
 * 0 when s is not one. text, when not NULL, then gets str(int(s)): the digits without
 * '_' and leading zeros, '-' unless the value is 0.
 */
static int
py_int(const char *s, size_t n, long long *v, struct buf *text)
{
	size_t i = 0, end = n, first;
	int neg = 0, digits = 0, big = 0;
	long long x = 0;

	while (i < end && isspace((unsigned char)s[i]))
		i++;
	while (end > i && isspace((unsigned char)s[end - 1]))
		end--;
	if (i < end && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	first = i;
	for (; i < end; i++) {
		if (s[i] == '_' && digits > 0 && i + 1 < end && isdigit((unsigned char)s[i + 1]))
			continue;
		if (!isdigit((unsigned char)s[i]))
			return 0;
		if (!big && !(ck_mul_i64(x, 10, &x) && (neg ? ck_sub_i64(x, s[i] - '0', &x) :
		    ck_add_i64(x, s[i] - '0', &x))))
			big = 1;
		digits++;
	}
	if (digits == 0)
		return 0;
	if (text != NULL) {
		for (i = first; i < end && (s[i] == '0' || s[i] == '_'); i++)
			;
		if (i == end)
			buf_addc(text, '0');
		else if (neg)
			buf_addc(text, '-');
		for (; i < end; i++)
			if (s[i] != '_')
				buf_addc(text, s[i]);
	}
	if (big)
		return 2;
	*v = x;
	return 1;
}

/* The piece of s after the first key and skip more characters, up to stop (or end). */
static const char *
after(const char *s, const char *key, size_t skip, const char *stop, size_t *n)
{
	const char *p, *e;

	if (s == NULL || (p = strstr(s, key)) == NULL)
		return NULL;
	p += strlen(key);
	if (strlen(p) < skip)
		return NULL;
	p += skip;
	e = stop != NULL ? strstr(p, stop) : NULL;
	*n = e != NULL ? (size_t)(e - p) : strlen(p);
	return p;
}

/* Conv config value: integer after key + one character, up to ';', as Python prints it
 * (every digit), else "x". */
static void
conv_value(struct buf *b, const char *attrs, const char *key)
{
	const char *p;
	long long v;
	size_t n;

	p = after(attrs, key, 1, ";", &n);
	if (p == NULL || py_int(p, n, &v, b) == 0)
		buf_addc(b, 'x');
}

/* Conv flag: false only when "<key>': '<v>'" exists with v != "true" (Q17). */
static bool
conv_flag(const char *attrs, const char *key)
{
	char pat[64];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), "%s': '", key);
	if ((p = after(attrs, pat, 0, "'", &n)) == NULL)
		return true;
	return n == 4 && memcmp(p, "true", 4) == 0;
}

/* Halo item: the first npieces ';'-pieces of the text after key, joined with ','. */
static void
halo_item(struct buf *b, const char *attrs, const char *key, int npieces)
{
	const char *p, *q;
	size_t n, start = b->len;
	int i;

	if ((p = after(attrs, key, 0, NULL, &n)) == NULL) {
		buf_addc(b, 'x');
		return;
	}
	for (i = 0; i < npieces; i++) {
		if (i > 0) {
			if (*p != ';')
				goto missing;
			p++;
			buf_addc(b, ',');
		}
		q = strchr(p, ';');
		n = q != NULL ? (size_t)(q - p) : strlen(p);
		buf_add(b, p, n);
		p += n;
	}
	return;
missing:
	b->len = start;
	b->p[start] = '\0';
	buf_addc(b, 'x');
}

static void
halo_layout(struct buf *b, const char *attrs)
{
	const char *p, *c;
	size_t n;

	if ((p = after(attrs, "memory_layout=", 0, ";", &n)) == NULL) {
		buf_addc(b, 'x');
		return;
	}
	for (c = p; c + 1 < p + n; c++)
		if (c[0] == ':' && c[1] == ':') {
			const char *e = c + 2, *f;

			/* Python split("::")[1]: up to the next "::" if any. */
			for (f = e; f + 1 < p + n; f++)
				if (f[0] == ':' && f[1] == ':')
					break;
			buf_add(b, e, (f + 1 < p + n) ? (size_t)(f - e) : (size_t)(p + n - e));
			return;
		}
	buf_addc(b, 'x');
}

/* --- advice ----------------------------------------------------------------------- */

static void
advise(struct mresult *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
advise(struct mresult *m, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;

	if (m->nadvice >= MADVICE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	/* Offsets first: advbuf may move while it grows; pointers are fixed at the end. */
	m->advoff[m->nadvice++] = m->advbuf.len;
	buf_add(&m->advbuf, tmp, strlen(tmp) + 1);
}

static void
fix_advice(struct mresult *m)
{
	int i;

	for (i = 0; i < m->nadvice; i++)
		m->advice[i] = m->advbuf.p + m->advoff[i];
}

static void
matmul_advice(const struct mop *op, struct mresult *m)
{
	const char *msg = m->verdict_msg;
	enum verdict v = m->verdict;

	switch (m->bound) {
	case BOUND_DRAM:
	case BOUND_BOTH:
		if (!m->dram_sharded)
			advise(m, "Try a DRAM-sharded program config "
			    "(MatmulMultiCoreReuseMultiCastDRAMShardedProgramConfig) to "
			    "improve throughput further");
		if (v == VERDICT_TOO_LOW && m->has_flops_pct && m->flops_pct < 40)
			advise(m, "%s", msg);
		if (v == VERDICT_TOO_HIGH)
			advise(m, "%s", msg);
		break;
	case BOUND_FLOP:
		if (m->has_mm_cores && m->mm_cores < FULL_GRID)
			advise(m, "Increase grid size (currently using %lld)", m->mm_cores);
		if (v == VERDICT_TOO_HIGH)
			advise(m, "%s", msg);
		break;
	case BOUND_SLOW: {
		const char *mem = op->in0.mem;
		bool fired = false;

		if (mem != NULL && *mem != '\0' && strstr(mem, "L1") == NULL)
			advise(m, "If possible place input 0 in L1 (currently in %s)", mem);
		if (!m->has_in0_block_w && !m->has_sub_h && !m->has_sub_w) {
			advise(m, "No program_config specified, try using one to override "
			    "in0_block_w and out_subblock_h/w");
			break;
		}
		if (!m->has_in0_block_w) {
			advise(m, "No inner dim block size found");
			fired = true;
		} else if (m->in0_block_w < 2) {
			advise(m, "in0_block_w=%lld is small, try in0_block_w=2 or above",
			    m->in0_block_w);
			fired = true;
		}
		if (m->has_sub_h && m->has_sub_w) {
			long long area;

			/* both >= 0 (digits); a product beyond 64 bits is not small */
			if (ck_mul_i64(m->sub_h, m->sub_w, &area) && area < 2) {
				advise(m, "Output subblock %lldx%lld is small, try "
				    "out_subblock_h * out_subblock_w >= 2 if possible",
				    m->sub_h, m->sub_w);
				fired = true;
			}
		} else {
			advise(m, "No output subblock size found");
			fired = true;
		}
		if (!fired)
			advise(m, "in0_block_w=%lld and output subblock %lldx%lld look good "
			    "\xf0\x9f\xa4\xb7", m->in0_block_w, m->sub_h, m->sub_w);
		if (*msg != '\0')
			advise(m, "%s", msg);
		break;
	}
	default:
		break;
	}
}

/* --- the analyses ----------------------------------------------------------------- */

static void
math_mm(const struct mop *op, struct mresult *m)
{
	if (op->fidelity != NULL && *op->fidelity != '\0')
		buf_printf(&m->math, "%s ", op->fidelity);
	buf_printf(&m->math, "%s x %s => %s", metrics_dtype_short(op->in0.dtype),
	    metrics_dtype_short(op->in1.dtype), metrics_dtype_short(op->out0.dtype));
}

static void
math_plain(const struct mop *op, struct mresult *m)
{
	metrics_math_plain(&m->math, op->in0.dtype, op->in1.dtype, op->out0.dtype);
}

void
metrics_math_plain(struct buf *b, const char *in0, const char *in1, const char *out)
{
	size_t i, j;

	if (in0 != NULL)
		buf_adds(b, metrics_dtype_short(in0));
	if (in1 != NULL)
		buf_printf(b, ", %s", metrics_dtype_short(in1));
	if (out != NULL)
		buf_printf(b, " => %s", metrics_dtype_short(out));
	if (b->p == NULL)
		return;
	/* Python str.strip() */
	for (i = 0; i < b->len && isspace((unsigned char)b->p[i]); i++)
		continue;
	for (j = b->len; j > i && isspace((unsigned char)b->p[j - 1]); j--)
		continue;
	memmove(b->p, b->p + i, j - i);
	b->len = j - i;
	b->p[b->len] = '\0';
}

/*
 * t = duration * 1e-9 seconds; false (with a warning) when it cannot divide. A missing
 * duration (trace-capture rows) is NaN, as in the reference (§10.1): the figures
 * that depend on it apply but cannot be computed.
 */
static bool
duration(const struct mop *op, double *t)
{
	if (!op->has_dur) {
		*t = NAN;
		return true;
	}
	if (!(op->dur_ns > 0)) {
		warn_once(op, "DEVICE KERNEL DURATION is not positive: throughput figures "
		    "left empty");
		return false;
	}
	*t = op->dur_ns * 1e-9;
	return true;
}

/* Peak FLOP/s for fidelity and cores; false (with a warning) when unknown. */
static bool
peak(const struct mop *op, double cores, double *pk)
{
	int fid = hwspec_fidelity(op->fidelity);
	double tf = hwspec_tflops(op->hw, fid);

	if (op->hw == NULL || tf <= 0) {
		if (op->fidelity == NULL)
			warn_once(op, "no MATH FIDELITY: FLOPs % left empty");
		else
			warn_once(op, "math fidelity not modelled for this architecture: "
			    "FLOPs % left empty");
		return false;
	}
	*pk = tf * 1e12 * cores;
	return true;
}

bool
metrics_mkn_flops(const struct mresult *m, double *flops)
{
	ck_u128 p = 2;
	long long f[4] = { m->mkn[0], m->mkn[1], m->mkn[2], m->batch };

	for (int i = 0; i < 4; i++)
		if (f[i] < 0 || !ck_mul_u128(p, (ck_u128)f[i], &p))
			return false;
	*flops = (double)p;
	return true;
}

static void
analyse_matmul(const struct mop *op, struct mresult *m)
{
	const struct mtensor *a = &op->in0, *b = &op->in1, *o = &op->out0;
	const struct mtensor *all[3] = { a, b, o };
	long long M, K, N, W, Z, cores;
	double t, bytes = 0, flops, pk;
	bool bytes_ok = true, have_cores;
	int i;

	m->dram_sharded = op->attrs != NULL &&
	    strstr(op->attrs, "MatmulMultiCoreReuseMultiCastDRAMShardedProgramConfig") != NULL;
	have_cores = op->has_cores;
	cores = op->cores;
	if (m->dram_sharded) {
		if (!have_cores || cores != DRAM_SHARDED_CORES) {
			m->has_report_cores = true;
			m->report_cores = DRAM_SHARDED_CORES;
		}
		have_cores = true;
		cores = DRAM_SHARDED_CORES;
	} else if (!have_cores) {
		/* §10.1: an empty CORE COUNT is NaN in the Cores cell and the peak */
		m->has_report_cores = true;
		m->report_cores = NAN;
	}
	m->has_mm_cores = have_cores;
	m->mm_cores = cores;
	math_mm(op, m);
	m->verdict = metrics_fidelity_verdict(a->dtype, b->dtype, o->dtype, op->fidelity,
	    &m->verdict_msg);
	m->has_advice = true;

	if (!a->has_shape || !b->has_shape) {
		warn_once(op, "matmul without input shapes: size and throughput left empty");
		buf_adds(&m->label, op->op ? op->op : "");
		return;
	}
	M = a->shape[2];
	K = a->shape[3];
	N = b->shape[3];
	W = a->shape[0] > b->shape[0] ? a->shape[0] : b->shape[0];
	Z = a->shape[1] > b->shape[1] ? a->shape[1] : b->shape[1];
	if (W != 0 && Z > (1LL << 53) / W) {
		/* Each tensor holds at most 2^53 elements (tensor.h), but W and Z come
		 * from different tensors. */
		warn_once(op, "matmul batch out of range: size and throughput left empty");
		buf_adds(&m->label, op->op ? op->op : "");
		return;
	}
	m->has_mkn = true;
	m->mkn[0] = M;
	m->mkn[1] = K;
	m->mkn[2] = N;
	m->batch = W * Z;
	if (W * Z > 1)
		buf_printf(&m->label, "%s b={%lld} x %lld x %lld x %lld", op->op ? op->op : "",
		    W * Z, M, K, N);
	else
		buf_printf(&m->label, "%s %lld x %lld x %lld", op->op ? op->op : "", M, K, N);

	if (!duration(op, &t))
		return;
	for (i = 0; i < 3; i++) {
		const struct mtensor *x = all[i];

		if (!x->present && i == 2)
			continue;
		if (x->mem == NULL) {
			warn_once(op, "matmul tensor without MEMORY: DRAM figures left empty");
			bytes_ok = false;
			break;
		}
		if (strstr(x->mem, "DRAM") == NULL)
			continue;
		if (!x->has_shape || x->dtype == NULL) {
			warn_once(op, "DRAM tensor without shape or datatype: DRAM figures "
			    "left empty");
			bytes_ok = false;
			break;
		}
		bytes += (double)(x->shape[0] * x->shape[1] * x->shape[2] * x->shape[3]) *
		    metrics_dtype_size(x->dtype);
	}
	if (bytes_ok && bytes != 0) {
		m->has_dram = true;
		m->dram_gbps = bytes / t / 1e9;
		m->dram_pct = m->dram_gbps / op->hw->dram_gbps * 100;
	}
	/* Python ints are exact: the product is exact, then rounded once to a double.
	 * Each of M, K, N, W, Z is an extent of a or b (at most 2^53 elements each): the
	 * product is below 2^107, always counted. */
	if (!metrics_mkn_flops(m, &flops)) {
		warn_once(op, "matmul size out of range: throughput left empty");
		return;
	}
	flops /= t;
	/* A NaN FLOP/s leaves the FLOPs cell empty but FLOPs % NaN (§10.1). */
	m->has_tflops = !isnan(flops);
	m->tflops = flops / 1e12;
	if (peak(op, have_cores ? (double)cores : NAN, &pk)) {
		m->has_flops_pct = true;
		m->flops_pct = flops / pk * 100;
	}
}

static void
analyse_conv(const struct mop *op, struct mresult *m)
{
	const char *p;
	size_t n;
	long long kh = 0, kw = 0, M, K, N;
	double t, flops, pk;
	const char *semi;
	int rh = 0, rw = 0;

	math_mm(op, m);
	if (opkind_flags(op->op, OPK_CSTR, OPC_CONV_NEW) != 0)
		m->verdict = metrics_fidelity_verdict(op->in0.dtype, op->in1.dtype,
		    op->out0.dtype, op->fidelity, &m->verdict_msg);
	/* window_hw: text after it up to "; ", minus its first 2 and last character. */
	p = after(op->attrs, "window_hw", 0, "; ", &n);
	if (p == NULL || n < 3 || (semi = memchr(p + 2, ';', n - 3)) == NULL ||
	    (rh = py_int(p + 2, (size_t)(semi - (p + 2)), &kh, NULL)) == 0 ||
	    (rw = py_int(semi + 1, (size_t)(p + n - 1 - (semi + 1)), &kw, NULL)) == 0 ||
	    memchr(semi + 1, ';', (size_t)(p + n - 1 - (semi + 1))) != NULL) {
		warn_once(op, "conv without a usable window_hw attribute: size and "
		    "throughput left empty");
		buf_adds(&m->label, op->op);
		return;
	}
	if (!op->out0.has_shape || !op->in0.has_shape || !op->in1.has_shape) {
		warn_once(op, "conv without tensor shapes: size and throughput left empty");
		buf_adds(&m->label, op->op);
		return;
	}
	M = op->out0.shape[2];
	if (rh != 1 || rw != 1 || kh < 0 || kw < 0 || !ck_mul_i64(op->in0.shape[3], kh, &K) ||
	    !ck_mul_i64(K, kw, &K)) {
		warn_once(op, "conv window out of range: size and throughput left empty");
		buf_adds(&m->label, op->op);
		return;
	}
	N = op->in1.shape[3];
	m->has_mkn = true;
	m->mkn[0] = M;
	m->mkn[1] = K;
	m->mkn[2] = N;
	m->batch = 1;
	buf_printf(&m->label, "%s %lld x %lld x %lld [ABH=", op->op, M, K, N);
	conv_value(&m->label, op->attrs, "per_core_out_matrix_height_ntile");
	buf_addc(&m->label, '|');
	conv_value(&m->label, op->attrs, "act_block_h_ntiles");
	if (conv_flag(op->attrs, "enable_act_double_buffer"))
		buf_adds(&m->label, " ADB");
	if (conv_flag(op->attrs, "enable_split_reader"))
		buf_adds(&m->label, " SR");
	buf_addc(&m->label, ']');

	m->has_mm_cores = true;
	m->mm_cores = op->worker_cores;
	if (!duration(op, &t))
		return;
	/* K is the input's extent times the window's: up to 2^63, and the count with it
	 * may be beyond 128 bits. */
	if (!metrics_mkn_flops(m, &flops)) {
		warn_once(op, "conv size out of range: throughput left empty");
		return;
	}
	m->has_tflops = !isnan(t);
	m->tflops = flops / t / 1e12;
	if (peak(op, (double)op->worker_cores, &pk)) {
		m->has_flops_pct = true;
		m->flops_pct = flops / t / pk * 100;
	}
}

static void
analyse_halo(const struct mop *op, struct mresult *m)
{
	struct buf *b = &m->label;

	math_plain(op, m);
	buf_printf(b, "%s w=", op->op);
	halo_item(b, op->attrs, "window_hw=", 2);
	buf_adds(b, " s=");
	halo_item(b, op->attrs, "stride_hw=", 2);
	buf_adds(b, " p=");
	halo_item(b, op->attrs, "padding=", 4);
	buf_adds(b, " d=");
	halo_item(b, op->attrs, "dilation_hw=", 2);
	buf_adds(b, " | ");
	halo_layout(b, op->attrs);
}

void
metrics_analyse(const struct mop *op, struct mresult *m)
{
	const char *name = op->op != NULL ? op->op : "";
	unsigned kind = opkind_flags(name, OPK_CSTR, OPC_MATMUL | OPC_CONV | OPC_HALO);

	reset(m);
	if (op->attrs != NULL && strstr(op->attrs, "program_config") != NULL) {
		m->has_in0_block_w = regex_int(op->attrs, "in0_block_w=", &m->in0_block_w);
		m->has_sub_h = regex_int(op->attrs, "out_subblock_h=", &m->sub_h);
		m->has_sub_w = regex_int(op->attrs, "out_subblock_w=", &m->sub_w);
	}
	if (kind & OPC_MATMUL) {
		m->is_matmul = true;
		analyse_matmul(op, m);
	} else if (kind & OPC_CONV) {
		m->is_conv = true;
		analyse_conv(op, m);
	} else if (kind & OPC_HALO) {
		m->is_halo = true;
		analyse_halo(op, m);
	} else {
		buf_adds(&m->label, name);
		math_plain(op, m);
	}
	m->opc = opclass_report(m->label.p, m->label.len);
	if (m->opc & OPC_HOST) {
		m->is_host = true;
		m->bound = BOUND_HOST;
	} else if (m->opc & OPC_MATMUL)
		m->bound = metrics_bound(m->has_dram, m->dram_pct, m->has_flops_pct,
		    m->flops_pct);
	if (m->is_matmul)
		matmul_advice(op, m);
	fix_advice(m);
	m->category = metrics_category(m->label.p);
}
