/* SPDX-License-Identifier: ISC */
/*
 * roofline: ttp's roofline extras for every op (bytes, FLOP model, intensity,
 * attainable and achieved throughput, bandwidth, PM efficiency, grid advice). These
 * keys sit beside tt-perf-report's figures and never change them. Also the record
 * side of ttp-roofline: reading an op record (a fast scanner for its tensor arrays,
 * jansson as the fallback), choosing its architecture, and writing the keys.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "diag.h"

#include "hwspec.h"
#include "metrics.h"
#include "rec.h"
#include "roofline.h"

#define MAXTENSORS 64

static double
elements(const struct mtensor *t)
{
	/* Exact in 64 bits for any real tensor; rounded once to a double. */
	return (double)(t->shape[0] * t->shape[1] * t->shape[2] * t->shape[3]);
}

static void
count_bytes(const struct rop *r, struct rextra *x)
{
	size_t i;

	for (i = 0; i < r->ntensors; i++) {
		const struct mtensor *t = &r->tensors[i];
		double b;

		if (!t->present || !t->has_shape || t->dtype == NULL || t->mem == NULL)
			continue;
		b = elements(t) * metrics_dtype_size(t->dtype);
		x->has_bytes = true;
		if (strstr(t->mem, "DRAM") != NULL)
			x->bytes += b;
		else if (strstr(t->mem, "L1") != NULL)
			x->l1_bytes += b;
	}
}

static void
count_flops(const struct rop *r, const struct mresult *m, struct rextra *x)
{
	const struct mop *op = r->mop;
	const char *label = m->label.p;
	double big = 0;
	size_t i;

	if (m->is_matmul || m->is_conv) {
		/* The compatible count: 2 * M * K * N * batch (exact product, rounded once). */
		if (m->has_mkn) {
			__extension__ unsigned __int128 p = (unsigned __int128)2 *
			    (unsigned long long)m->mkn[0];

			p = p * (unsigned long long)m->mkn[1] * (unsigned long long)m->mkn[2] *
			    (unsigned long long)m->batch;
			x->flops = (double)p;
			x->has_flops = true;
			x->flops_model = m->is_matmul ? "matmul" : "conv";
		}
		return;
	}
	if (strstr(label, "ScaledDotProductAttention") != NULL || strstr(label, "SDPA") != NULL) {
		/* Q [B, H, Sq, D] x K^T and P x V: 4 * B * H * Sq * Sk * D. */
		const struct mtensor *q = &op->in0, *k = &op->in1;

		if (q->has_shape && k->has_shape) {
			x->flops = 4.0 * q->shape[0] * q->shape[1] * q->shape[2] * k->shape[2] *
			    q->shape[3];
			x->has_flops = true;
			x->flops_model = "sdpa";
		}
		return;
	}
	if (strcmp(m->category, "DM") == 0 || strcmp(m->category, "TM") == 0) {
		x->flops = 0;
		x->has_flops = true;
		x->flops_model = "none";
		return;
	}
	if (strcmp(m->category, "Compute") != 0)
		return;
	/* Element-wise, normalisation, reduction, pooling: one operation per element of
	 * the largest tensor (a lower bound). */
	for (i = 0; i < r->ntensors; i++)
		if (r->tensors[i].present && r->tensors[i].has_shape &&
		    elements(&r->tensors[i]) > big)
			big = elements(&r->tensors[i]);
	if (big > 0) {
		x->flops = big;
		x->has_flops = true;
		x->flops_model = "elementwise";
	}
}

void
roofline_analyse(const struct rop *r, const struct mresult *m, struct rextra *x)
{
	const struct mop *op = r->mop;
	const struct hwspec *hw = op->hw;
	double t = 0, cores, tf, peak, memroof, achieved, attain;
	bool timed = op->has_dur && op->dur_ns > 0;
	int fid;

	memset(x, 0, sizeof(*x));
	if (m->is_host || hw == NULL)
		return;
	if (timed)
		t = op->dur_ns * 1e-9;
	if (r->has_pm_ideal && r->pm_ideal_ns > 1 && timed) {
		x->has_pm_eff = true;
		x->pm_eff_pct = r->pm_ideal_ns / op->dur_ns * 100;
	}
	count_bytes(r, x);
	if (!x->has_bytes)
		return;
	if (timed && x->bytes > 0) {
		x->has_bw = true;
		x->bw_gbps = x->bytes / t / 1e9;
		x->bw_pct = x->bw_gbps / hw->dram_gbps * 100;
	}
	count_flops(r, m, x);
	if (!x->has_flops)
		return;
	if (x->bytes > 0) {
		x->has_intensity = true;
		x->intensity = x->flops / x->bytes;
	}

	/* The compute roof: the op's fidelity (HiFi4 when it has none the arch models)
	 * on the cores the op ran on (for matmul and conv: the cores the compatible
	 * FLOPs % uses). */
	fid = hwspec_fidelity(op->fidelity);
	if ((tf = hwspec_tflops(hw, fid)) <= 0)
		tf = hwspec_tflops(hw, FID_HIFI4);
	if (m->has_mm_cores)
		cores = (double)m->mm_cores;
	else if (op->has_cores)
		cores = (double)op->cores;
	else
		cores = op->worker_cores;
	if (tf <= 0 || cores <= 0)
		return;
	peak = tf * 1e12 * cores;
	x->has_roof = true;
	x->peak_tflops = peak / 1e12;
	if (x->bytes > 0) {
		memroof = x->intensity * hw->dram_gbps * 1e9;
		attain = memroof < peak ? memroof : peak;
		x->roof = memroof < peak ? "memory" : "compute";
	} else {
		attain = peak;
		x->roof = "compute";
	}
	x->roof_tflops = attain / 1e12;
	if (!timed)
		return;
	achieved = x->flops / t;
	if (attain > 0) {
		x->has_roof_pct = true;
		x->roof_pct = achieved / attain * 100;
	} else if (x->has_bw) {
		/* No FLOPs at all: on the memory roof, the share is the bandwidth's. */
		x->has_roof_pct = true;
		x->roof_pct = x->bw_pct;
	}

	if (m->is_matmul && m->bound == BOUND_FLOP && m->has_mm_cores &&
	    m->mm_cores < op->worker_cores) {
		x->has_grid = true;
		snprintf(x->grid_advice, sizeof(x->grid_advice),
		    "Increase grid size (currently using %lld of %d worker cores)",
		    m->mm_cores, op->worker_cores);
	}
}

/* --- records: reading an op record, writing the keys ------------------------------ */

/* One tensor from its JSON object (or null); strings point into the JSON value. */
static void
tensor(const char *where, json_t *j, struct mtensor *t)
{
	json_t *shape, *d;
	size_t i;

	memset(t, 0, sizeof(*t));
	if (j == NULL || json_is_null(j))
		return;
	if (!json_is_object(j))
		die_where(where, "tensor: expected an object");
	t->present = true;
	t->dtype = json_string_value(json_object_get(j, "dtype"));
	t->mem = json_string_value(json_object_get(j, "mem"));
	shape = json_object_get(j, "shape");
	if (shape == NULL || json_is_null(shape))
		return;
	if (!json_is_array(shape) || json_array_size(shape) != 4)
		die_where(where, "tensor shape: expected an array of 4 integers");
	json_array_foreach(shape, i, d) {
		if (!json_is_integer(d) || json_integer_value(d) < 0)
			die_where(where, "tensor shape: expected an array of 4 integers");
		t->shape[i] = json_integer_value(d);
	}
	t->has_shape = true;
}

static size_t
tensors(const char *where, json_t *arr, struct mtensor *t, size_t n, size_t max)
{
	json_t *j;
	size_t i;

	if (arr == NULL)
		return n;
	if (!json_is_array(arr))
		die_where(where, "in/out: expected an array of tensors");
	json_array_foreach(arr, i, j) {
		if (n >= max)
			break;
		tensor(where, j, &t[n++]);
	}
	return n;
}

/*
 * A fast path for the tensor arrays: a small scanner over the key's JSON text (already
 * validated by rec) into a scratch copy, NUL-terminating the strings in place. Anything
 * it does not expect (escaped strings, non-integer dims) returns -1 and the caller
 * uses jansson instead.
 */
static const char *
skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* A string without escapes: *s = its text, NUL-terminated in place. */
static char *
scan_str(char *p, char **s)
{
	char *e;

	if (*p != '"')
		return NULL;
	for (e = p + 1; *e != '"'; e++)
		if (*e == '\\' || *e == '\0')
			return NULL;
	*e = '\0';
	*s = p + 1;
	return e + 1;
}

/* Skip any JSON value (valid by contract). */
static char *
skip_value(char *p)
{
	int depth = 0;

	do {
		p = (char *)skip_ws(p);
		switch (*p) {
		case '"':
			for (p++; *p != '"'; p++)
				if (*p == '\\' && p[1] != '\0')
					p++;
				else if (*p == '\0')
					return NULL;
			p++;
			break;
		case '[': case '{':
			depth++;
			p++;
			continue;
		case ']': case '}':
			depth--;
			p++;
			break;
		case ',': case ':':
			p++;
			continue;
		case '\0':
			return NULL;
		default:
			while (*p != '\0' && strchr(",]} \t\r\n", *p) == NULL)
				p++;
			break;
		}
	} while (depth > 0);
	return p;
}

static char *
scan_shape(char *p, struct mtensor *t)
{
	int i;

	p = (char *)skip_ws(p);
	if (*p == 'n')
		return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
	if (*p++ != '[')
		return NULL;
	for (i = 0; i < 4; i++) {
		long long v = 0;
		int nd = 0;

		p = (char *)skip_ws(p);
		if (i > 0) {
			if (*p++ != ',')
				return NULL;
			p = (char *)skip_ws(p);
		}
		for (; *p >= '0' && *p <= '9' && nd < 18; p++, nd++)
			v = v * 10 + (*p - '0');
		if (nd == 0 || (*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E')
			return NULL;
		t->shape[i] = v;
	}
	p = (char *)skip_ws(p);
	if (*p++ != ']')
		return NULL;
	t->has_shape = true;
	return p;
}

static char *
scan_tensor(char *p, struct mtensor *t)
{
	char *key, *v;

	memset(t, 0, sizeof(*t));
	p = (char *)skip_ws(p);
	if (*p == 'n')
		return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
	if (*p++ != '{')
		return NULL;
	t->present = true;
	for (;;) {
		p = (char *)skip_ws(p);
		if (*p == '}')
			return p + 1;
		if (*p == ',')
			p = (char *)skip_ws(p + 1);
		if ((p = scan_str(p, &key)) == NULL)
			return NULL;
		p = (char *)skip_ws(p);
		if (*p++ != ':')
			return NULL;
		p = (char *)skip_ws(p);
		if (strcmp(key, "shape") == 0)
			p = scan_shape(p, t);
		else if (strcmp(key, "dtype") == 0 || strcmp(key, "mem") == 0) {
			if (*p == 'n' && strncmp(p, "null", 4) == 0)
				p += 4;
			else if ((p = scan_str(p, &v)) != NULL) {
				if (key[0] == 'd')
					t->dtype = v;
				else
					t->mem = v;
			}
		} else
			p = skip_value(p);
		if (p == NULL)
			return NULL;
	}
}

/* Tensors of one key into t[n..max); returns the new n, or -1 to fall back. */
static long
scan_tensors(struct rec *r, const char *key, struct buf *scratch, size_t off,
    struct mtensor *t, size_t n, size_t max)
{
	const char *raw;
	char *p;
	size_t len;

	if ((raw = rec_raw(r, key, &len)) == NULL)
		return (long)n;
	if (scratch->len > off)
		return -1;	/* strings of an earlier key would move: caller sized it */
	buf_add(scratch, raw, len);
	p = scratch->p + off;
	p = (char *)skip_ws(p);
	if (*p == 'n')
		return (long)n;
	if (*p++ != '[')
		return -1;
	for (;;) {
		p = (char *)skip_ws(p);
		if (*p == ']')
			return (long)n;
		if (*p == ',')
			p++;
		if (n >= max) {
			if ((p = skip_value(p)) == NULL)
				return -1;
			continue;
		}
		if ((p = scan_tensor(p, &t[n++])) == NULL)
			return -1;
	}
}

/* The architecture for one record, with the reference's messages once. */
static const struct hwspec *
resolve_arch(struct rec *r, const struct roofline_opts *o, int *worker)
{
	static const char *last_arch;
	static const struct hwspec *last_hw;
	const struct hwspec *hw;
	const char *arch;
	long long wc;

	if (o->override != NULL) {
		*worker = o->override->worker_cores;
		return o->override;
	}
	arch = rec_str(r, "arch", NULL);
	if (arch == NULL) {
		static bool said;

		if (o->arch == NULL)
			die(EXIT_USAGE, "unknown architecture: %s (known: %s)", o->arch_arg,
			    hwspec_names());

		if (o->verbose && !said) {
			say("Architecture: %s, Worker cores: %d", o->arch->name,
			    o->arch->worker_cores);
			said = true;
		}
		*worker = o->arch->worker_cores;
		return o->arch;
	}
	if (last_arch != NULL && strcmp(arch, last_arch) == 0)
		hw = last_hw;
	else {
		if ((hw = hwspec_find(arch)) == NULL)
			die_where(rec_where(r), "unknown architecture: %s (known: %s; "
			    "--spec FILE adds one)", arch, hwspec_names());
		free((void *)last_arch);
		last_arch = xstrdup(arch);
		last_hw = hw;
	}
	if (o->arch_arg != NULL) {
		char key[128];

		snprintf(key, sizeof(key), "arch-ignored:%.100s", arch);
		note_once(key, "Warning: Ignoring user-specified architecture: %s, CSV "
		    "detected %s architecture", o->arch_arg, arch);
	}
	*worker = hw->worker_cores;
	if (rec_int(r, "worker_cores", &wc) && wc > 0 && wc < 1000000)
		*worker = (int)wc;
	return hw;
}

static void
set_opt_num(struct rec *r, const char *key, bool has, double v)
{
	if (has)
		rec_set_num(r, key, v);
	else
		rec_del(r, key);
}

static void
set_opt_int(struct rec *r, const char *key, bool has, long long v)
{
	if (has)
		rec_set_int(r, key, v);
	else
		rec_del(r, key);
}

/* Byte and FLOP counts: integers when they are exact integers. */
static void
set_count(struct rec *r, const char *key, bool has, double v)
{
	if (has && v == (double)(long long)v && v < 9007199254740992.0)
		rec_set_int(r, key, (long long)v);
	else
		set_opt_num(r, key, has, v);
}

static void
write_metrics(struct rec *r, const struct mresult *m)
{
	const char *s;
	int i;

	rec_set_str(r, "label", m->label.p);
	if (m->math.len > 0)
		rec_set_str(r, "math", m->math.p);
	else
		rec_del(r, "math");
	set_opt_num(r, "dram_gbps", m->has_dram, m->dram_gbps);
	set_opt_num(r, "dram_pct", m->has_dram, m->dram_pct);
	set_opt_num(r, "tflops", m->has_tflops, m->tflops);
	set_opt_num(r, "flops_pct", m->has_flops_pct, m->flops_pct);
	if ((s = metrics_bound_name(m->bound)) != NULL)
		rec_set_str(r, "bound", s);
	else
		rec_del(r, "bound");
	rec_set_bool(r, "dram_sharded", m->dram_sharded);
	set_opt_int(r, "in0_block_w", m->has_in0_block_w, m->in0_block_w);
	set_opt_int(r, "out_subblock_h", m->has_sub_h, m->sub_h);
	set_opt_int(r, "out_subblock_w", m->has_sub_w, m->sub_w);
	set_opt_int(r, "report_cores", m->has_report_cores, m->report_cores);
	if ((s = metrics_verdict_name(m->verdict)) != NULL)
		rec_set_str(r, "fidelity_verdict", s);
	else
		rec_del(r, "fidelity_verdict");
	if (m->has_advice) {
		json_t *a = json_array();

		for (i = 0; i < m->nadvice; i++)
			json_array_append_new(a, json_string(m->advice[i]));
		rec_set_json(r, "advice", a);
		json_decref(a);
	} else
		rec_del(r, "advice");
	rec_set_str(r, "category", m->category);
}

static void
write_extras(struct rec *r, const struct rextra *x, const struct mop *op, bool host)
{
	if (host) {
		rec_del(r, "hw");
		rec_del(r, "hw_cores");
	} else {
		rec_set_str(r, "hw", op->hw->name);
		rec_set_int(r, "hw_cores", op->worker_cores);
	}
	set_count(r, "bytes", x->has_bytes, x->bytes);
	set_count(r, "l1_bytes", x->has_bytes, x->l1_bytes);
	set_count(r, "flops", x->has_flops, x->flops);
	if (x->has_flops)
		rec_set_str(r, "flops_model", x->flops_model);
	else
		rec_del(r, "flops_model");
	set_opt_num(r, "intensity", x->has_intensity, x->intensity);
	set_opt_num(r, "roof_tflops", x->has_roof, x->roof_tflops);
	if (x->has_roof)
		rec_set_str(r, "roof", x->roof);
	else
		rec_del(r, "roof");
	set_opt_num(r, "roof_pct", x->has_roof_pct, x->roof_pct);
	set_opt_num(r, "bw_gbps", x->has_bw, x->bw_gbps);
	set_opt_num(r, "pm_eff_pct", x->has_pm_eff, x->pm_eff_pct);
	if (x->has_grid)
		rec_set_str(r, "grid_advice", x->grid_advice);
	else
		rec_del(r, "grid_advice");
}

void
roofline_record(struct rec *r, const struct roofline_opts *o, struct mresult *m)
{
	struct mtensor t[MAXTENSORS];
	struct mop op;
	struct rop rop;
	struct rextra x;
	json_t *in, *out;
	const char *where = rec_where(r);
	double d;
	size_t nin, n;

	memset(&op, 0, sizeof(op));
	/* Warnings name the trace row (src) when the record has one. */
	op.where = rec_str(r, "src", NULL);
	if (op.where == NULL)
		op.where = where;
	op.op = rec_str(r, "op", NULL);
	op.attrs = rec_str(r, "attrs", NULL);
	op.fidelity = rec_str(r, "fidelity", NULL);
	op.has_dur = rec_num(r, "device_ns", &op.dur_ns);
	if (rec_num(r, "cores", &d)) {
		if (d != (double)(long long)d)
			die_where(where, "key \"cores\": expected an integer");
		op.has_cores = true;
		op.cores = (long long)d;
	}
	op.hw = resolve_arch(r, o, &op.worker_cores);

	/* One scratch buffer holds both keys' text, sized first so it does not move. */
	{
		static struct buf scratch = BUF_INIT;
		size_t lin = 0, lout = 0;
		long k = -1;

		in = out = NULL;
		rec_raw(r, "in", &lin);
		rec_raw(r, "out", &lout);
		buf_reset(&scratch);
		buf_grow(&scratch, lin + lout + 2);
		k = scan_tensors(r, "in", &scratch, 0, t, 0, MAXTENSORS / 2);
		nin = k >= 0 ? (size_t)k : 0;
		if (k >= 0) {
			buf_addc(&scratch, '\0');
			k = scan_tensors(r, "out", &scratch, scratch.len, t, nin, MAXTENSORS);
		}
		if (k >= 0)
			n = (size_t)k;
		else {
			in = rec_json(r, "in");
			out = rec_json(r, "out");
			nin = tensors(where, in, t, 0, MAXTENSORS / 2);
			n = tensors(where, out, t, nin, MAXTENSORS);
		}
	}
	if (nin > 0)
		op.in0 = t[0];
	if (nin > 1)
		op.in1 = t[1];
	if (n > nin)
		op.out0 = t[nin];

	metrics_analyse(&op, m);
	write_metrics(r, m);
	if (o->extras) {
		memset(&rop, 0, sizeof(rop));
		rop.mop = &op;
		rop.tensors = t;
		rop.ntensors = n;
		rop.has_pm_ideal = rec_num(r, "pm_ideal_ns", &rop.pm_ideal_ns);
		roofline_analyse(&rop, m, &x);
		write_extras(r, &x, &op, m->is_host);
	}
	json_decref(in);
	json_decref(out);
}
