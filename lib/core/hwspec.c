/* SPDX-License-Identifier: ISC */
/*
 * hwspec: the hardware-spec table (built-in entries of tt-perf-report plus entries
 * loaded from a JSON spec file) and fidelity names. The only place in ttp where
 * architecture numbers live.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "core/diag.h"
#include "core/hwspec.h"
#include "core/io.h"

/*
 * tt-perf-report's table, with its expressions kept as written so the compiler computes
 * the same doubles Python does (left to right, IEEE double): Wormhole 74/72, 148/72,
 * 262/72 TFLOP/s per core; Blackhole 4096 * 1.35 GHz / 1000 / {4, 2, 1}; N1 at 0.65 GHz.
 * HiFi3 is not modelled by the reference (it crashes on it): 0 here.
 */
#define BH_TF(div)	(4096 * 1.35 / 1000 / (div))
#define N1_TF(div)	(4096 * 0.65 / 1000 / (div))

static const struct hwspec builtin[] = {
#define TT(n, c, bw, t0, t1, t2) \
	{ .name = n, .worker_cores = c, .dram_gbps = bw, .tflops = { t0, t1, t2, 0 }, \
	  .kind = HW_TT }
	TT("wormhole", 64, 288, 74.0 / 72, 148.0 / 72, 262.0 / 72),
	TT("blackhole", 130, 512, BH_TF(4), BH_TF(2), BH_TF(1)),
	TT("bh20", 20, 512, BH_TF(4), BH_TF(2), BH_TF(1)),
	TT("n1", 20, 120, N1_TF(4), N1_TF(2), N1_TF(1)),
#undef TT
};

/*
 * GPUs: vendors' datasheet peaks, dense (no sparsity), TFLOP/s per GPU, HBM GB/s
 * (docs/tracelens.md §6.1). matrix_fp32 is TF32 on NVIDIA parts; a "-" of the
 * datasheet (no FP8 on A100 and MI210) is a peak the entry leaves out, so ops of that
 * compute spec get no roofline. match is the model name looked for in a trace's
 * deviceProperties name.
 */
struct gpurow {
	const char	*name, *match, *model;
	double		 bw, fp64, fp32, fp16, fp8, vfp32;
};

static const struct gpurow gpus[] = {
	{ "a100", "A100", "NVIDIA A100 SXM 80GB", 2039, 19.5, 156, 312, 0, 19.5 },
	{ "h100", "H100", "NVIDIA H100 SXM", 3350, 67, 494.7, 989.4, 1978.9, 66.9 },
	{ "h100-pcie", "H100", "NVIDIA H100 PCIe", 2000, 51, 378, 756, 1513, 51 },
	{ "h200", "H200", "NVIDIA H200 SXM", 4800, 67, 494.7, 989.4, 1978.9, 66.9 },
	{ "b200", "B200", "NVIDIA B200", 8000, 40, 1100, 2250, 4500, 80 },
	{ "mi210", "MI210", "AMD Instinct MI210", 1638, 45.3, 45.3, 181, 0, 22.6 },
	{ "mi300x", "MI300X", "AMD Instinct MI300X", 5300, 163.4, 163.4, 1307.4, 2614.9,
	    163.4 },
	{ "mi325x", "MI325X", "AMD Instinct MI325X", 6000, 163.4, 163.4, 1307.4, 2614.9,
	    163.4 },
	{ "mi355x", "MI355X", "AMD Instinct MI355X", 8000, 78.6, 157.3, 2516.6, 5033.2,
	    157.3 },
};

struct alias {
	char	name[HWSPEC_NAMESZ];
	size_t	idx;
};

static struct hwspec	*table;		/* NULL until first use: then a copy of builtin */
static size_t		 ntable;
static struct alias	*aliases;
static size_t		 naliases;
static char		*namelist, *gpunamelist;
static long		 loaded = -1;	/* index of the last GPU from an arch file */

static const char *fidnames[FID_N] = { "HiFi4", "HiFi2", "LoFi", "HiFi3" };

int
hwspec_fidelity(const char *s)
{
	int i;

	if (s == NULL)
		return -1;
	for (i = 0; i < FID_N; i++)
		if (strcmp(s, fidnames[i]) == 0)
			return i;
	return -1;
}

const char *
hwspec_fidelity_name(int fid)
{
	return fid >= 0 && fid < FID_N ? fidnames[fid] : "?";
}

static void
add_alias(const char *name, size_t idx)
{
	aliases = xreallocarray(aliases, naliases + 1, sizeof(*aliases));
	strlcpy(aliases[naliases].name, name, sizeof(aliases[naliases].name));
	aliases[naliases].idx = idx;
	naliases++;
}

static void
add_peak(struct hwspec *hw, const char *spec, double tflops)
{
	size_t i;

	if (tflops <= 0)
		return;
	for (i = 0; i < hw->npeaks; i++)
		if (strcmp(hw->peaks[i].spec, spec) == 0)
			break;
	if (i == HWSPEC_MAXPEAKS)
		return;
	strlcpy(hw->peaks[i].spec, spec, sizeof(hw->peaks[i].spec));
	hw->peaks[i].tflops = tflops;
	if (i == hw->npeaks)
		hw->npeaks++;
}

static void
init(void)
{
	size_t nb, i;

	if (table != NULL)
		return;
	nb = sizeof(builtin) / sizeof(builtin[0]);
	ntable = nb + sizeof(gpus) / sizeof(gpus[0]);
	table = xcalloc(ntable, sizeof(*table));
	memcpy(table, builtin, sizeof(builtin));
	for (i = nb; i < ntable; i++) {
		const struct gpurow *g = &gpus[i - nb];
		struct hwspec *hw = &table[i];

		strlcpy(hw->name, g->name, sizeof(hw->name));
		hw->kind = HW_GPU;
		hw->model = g->model;
		hw->source = "datasheet";
		hw->dram_gbps = g->bw;
		add_peak(hw, "matrix_fp64", g->fp64);
		add_peak(hw, "matrix_fp32", g->fp32);
		add_peak(hw, "matrix_fp16", g->fp16);
		add_peak(hw, "matrix_bf16", g->fp16);
		add_peak(hw, "matrix_fp8", g->fp8);
		add_peak(hw, "vector_fp32", g->vfp32);
	}
	add_alias("wormhole_b0", 0);
}

static struct hwspec *
lookup_kind(const char *name, enum hwkind kind)
{
	size_t i;

	init();
	for (i = 0; i < ntable; i++)
		if (table[i].kind == kind && strcasecmp(table[i].name, name) == 0)
			return &table[i];
	for (i = 0; i < naliases; i++)
		if (table[aliases[i].idx].kind == kind &&
		    strcasecmp(aliases[i].name, name) == 0)
			return &table[aliases[i].idx];
	return NULL;
}

static struct hwspec *
lookup(const char *name)
{
	return lookup_kind(name, HW_TT);
}

const struct hwspec *
hwspec_find(const char *name)
{
	return name != NULL ? lookup(name) : NULL;
}

static const char *
names_of(enum hwkind kind, char **list)
{
	size_t i, n = 0;

	init();
	free(*list);
	for (i = 0; i < ntable; i++)
		n += strlen(table[i].name) + 2;
	for (i = 0; i < naliases; i++)
		n += strlen(aliases[i].name) + 2;
	*list = xmalloc(n + 1);
	(*list)[0] = '\0';
	for (i = 0; i < ntable; i++) {
		if (table[i].kind != kind)
			continue;
		if ((*list)[0] != '\0')
			strlcat(*list, ", ", n + 1);
		strlcat(*list, table[i].name, n + 1);
	}
	for (i = 0; i < naliases; i++) {
		if (table[aliases[i].idx].kind != kind)
			continue;
		strlcat(*list, ", ", n + 1);
		strlcat(*list, aliases[i].name, n + 1);
	}
	return *list;
}

const char *
hwspec_names(void)
{
	return names_of(HW_TT, &namelist);
}

const char *
hwspec_gpu_names(void)
{
	return names_of(HW_GPU, &gpunamelist);
}

const struct hwspec *
hwspec_gpu_find(const char *name)
{
	return name != NULL ? lookup_kind(name, HW_GPU) : NULL;
}

const struct hwspec *
hwspec_gpu_match(const char *device)
{
	size_t i;

	if (device == NULL)
		return NULL;
	init();
	for (i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
		if (strcasestr(device, gpus[i].match) == NULL)
			continue;
		/* H100 is the SXM part unless the name says PCIe. */
		if (strcmp(gpus[i].name, "h100") == 0 && strcasestr(device, "pcie") != NULL)
			continue;
		return lookup_kind(gpus[i].name, HW_GPU);
	}
	return NULL;
}

double
hwspec_peak(const struct hwspec *hw, const char *spec)
{
	size_t i;

	if (hw == NULL || spec == NULL)
		return 0;
	for (i = 0; i < hw->npeaks; i++)
		if (strcmp(hw->peaks[i].spec, spec) == 0)
			return hw->peaks[i].tflops;
	return 0;
}

const struct hwspec *
hwspec_gpu_loaded(void)
{
	return loaded >= 0 ? &table[loaded] : NULL;
}

double
hwspec_tflops(const struct hwspec *hw, int fid)
{
	if (hw == NULL || fid < 0 || fid >= FID_N)
		return 0;
	return hw->tflops[fid];
}

/* --- spec files ------------------------------------------------------------------- */

/* Bad content in spec file path: err set, -1. */
static int __attribute__((format(printf, 3, 4)))
bad(struct error *err, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err, path, 0, -1, fmt, ap);
	va_end(ap);
	return -1;
}

static int
positive(const json_t *v, double *out)
{
	if (!json_is_number(v))
		return 0;
	*out = json_number_value(v);
	return *out > 0 && *out < 1e12;
}

static int
load_entry(const char *path, size_t k, json_t *o, struct error *err)
{
	json_t *v, *tf;
	const char *name, *key;
	struct hwspec *hw, tmp;
	double d;
	size_t i;
	int fid, isnew;

	if (!json_is_object(o))
		return bad(err, path, "entry %zu: expected an object", k + 1);
	json_object_foreach(o, key, v) {
		if (strcmp(key, "name") != 0 && strcmp(key, "worker_cores") != 0 &&
		    strcmp(key, "dram_gbps") != 0 && strcmp(key, "tflops_per_core") != 0 &&
		    strcmp(key, "aliases") != 0)
			return bad(err, path, "entry %zu: unknown member \"%s\" (known: name, "
			    "worker_cores, dram_gbps, tflops_per_core, aliases)", k + 1, key);
	}
	name = json_string_value(json_object_get(o, "name"));
	if (name == NULL || *name == '\0' || strlen(name) >= HWSPEC_NAMESZ)
		return bad(err, path, "entry %zu: \"name\" must be a string of 1 to %d bytes",
		    k + 1, HWSPEC_NAMESZ - 1);
	hw = lookup(name);
	isnew = hw == NULL;
	if (isnew) {
		memset(&tmp, 0, sizeof(tmp));
		for (i = 0; name[i] != '\0'; i++)
			tmp.name[i] = (char)tolower((unsigned char)name[i]);
	} else
		tmp = *hw;

	if ((v = json_object_get(o, "worker_cores")) != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > 1000000)
			return bad(err, path, "%s: \"worker_cores\" must be a positive integer", name);
		tmp.worker_cores = (int)json_integer_value(v);
	} else if (isnew)
		return bad(err, path, "%s: \"worker_cores\" missing", name);
	if ((v = json_object_get(o, "dram_gbps")) != NULL) {
		if (!positive(v, &d))
			return bad(err, path, "%s: \"dram_gbps\" must be a positive number", name);
		tmp.dram_gbps = d;
	} else if (isnew)
		return bad(err, path, "%s: \"dram_gbps\" missing", name);
	if ((tf = json_object_get(o, "tflops_per_core")) != NULL) {
		if (!json_is_object(tf) || json_object_size(tf) == 0)
			return bad(err, path, "%s: \"tflops_per_core\" must be an object such as "
			    "{\"HiFi4\": 1.0, \"HiFi2\": 2.0, \"LoFi\": 4.0}", name);
		json_object_foreach(tf, key, v) {
			if ((fid = hwspec_fidelity(key)) < 0)
				return bad(err, path, "%s: tflops_per_core: unknown fidelity \"%s\" "
				    "(known: HiFi4, HiFi2, LoFi, HiFi3)", name, key);
			if (!positive(v, &d))
				return bad(err, path, "%s: tflops_per_core: %s must be a positive "
				    "number", name, key);
			tmp.tflops[fid] = d;
		}
	} else if (isnew)
		return bad(err, path, "%s: \"tflops_per_core\" missing", name);

	if (isnew) {
		table = xreallocarray(table, ntable + 1, sizeof(*table));
		table[ntable++] = tmp;
		hw = &table[ntable - 1];
	} else
		*hw = tmp;

	if ((v = json_object_get(o, "aliases")) != NULL) {
		json_t *a;

		if (!json_is_array(v))
			return bad(err, path, "%s: \"aliases\" must be an array of strings", name);
		json_array_foreach(v, i, a) {
			const char *s = json_string_value(a);
			const struct hwspec *other;

			if (s == NULL || *s == '\0' || strlen(s) >= HWSPEC_NAMESZ)
				return bad(err, path, "%s: \"aliases\" must be an array of short "
				    "strings", name);
			other = lookup(s);
			if (other != NULL && other != hw)
				return bad(err, path, "%s: alias \"%s\" is already the name of %s",
				    name, s, other->name);
			if (other == NULL)
				add_alias(s, (size_t)(hw - table));
		}
	}
	return 0;
}

/* Strings kept for the life of the process (the table points at them). */
static const char *
keep(const char *s)
{
	return xstrdup(s);
}

/* A GPU from TraceLens's arch format: name, mem_bw_gbps, max_achievable_tflops; the
 * simulator's members (memory_gb, freq_mhz, num_cus, ...) are accepted and unused. */
static int
load_arch(const char *path, json_t *o, struct error *err)
{
	json_t *v, *tf;
	const char *name, *key;
	struct hwspec *hw, tmp;
	double d;
	size_t i;

	name = json_string_value(json_object_get(o, "name"));
	if (name == NULL || *name == '\0' || strlen(name) >= HWSPEC_NAMESZ)
		return bad(err, path, "\"name\" must be a string of 1 to %d bytes",
		    HWSPEC_NAMESZ - 1);
	v = json_object_get(o, "mem_bw_gbps");
	if (!positive(v, &d))
		return bad(err, path, "%s: \"mem_bw_gbps\" must be a positive number", name);
	tf = json_object_get(o, "max_achievable_tflops");
	if (!json_is_object(tf) || json_object_size(tf) == 0)
		return bad(err, path, "%s: \"max_achievable_tflops\" must be an object such as "
		    "{\"matrix_bf16\": 708, \"vector_fp32\": 81}", name);
	memset(&tmp, 0, sizeof(tmp));
	for (i = 0; name[i] != '\0'; i++)
		tmp.name[i] = (char)tolower((unsigned char)name[i]);
	tmp.kind = HW_GPU;
	tmp.dram_gbps = d;
	json_object_foreach(tf, key, v) {
		double t;

		if (strlen(key) >= HWSPEC_SPECSZ || strchr(key, '_') == NULL)
			return bad(err, path, "%s: max_achievable_tflops: \"%s\" is not a compute "
			    "spec such as matrix_bf16", name, key);
		if (!positive(v, &t))
			return bad(err, path, "%s: max_achievable_tflops: %s must be a positive "
			    "number", name, key);
		if (tmp.npeaks == HWSPEC_MAXPEAKS)
			return bad(err, path, "%s: more than %d compute specs", name,
			    HWSPEC_MAXPEAKS);
		add_peak(&tmp, key, t);
	}
	hw = lookup_kind(name, HW_GPU);
	tmp.model = hw != NULL ? hw->model : keep(name);
	tmp.source = keep(path);
	if (hw == NULL) {
		table = xreallocarray(table, ntable + 1, sizeof(*table));
		table[ntable++] = tmp;
		hw = &table[ntable - 1];
	} else
		*hw = tmp;
	loaded = (long)(hw - table);
	return 0;
}

static int
is_arch_format(json_t *o)
{
	return json_is_object(o) && (json_object_get(o, "mem_bw_gbps") != NULL ||
	    json_object_get(o, "max_achievable_tflops") != NULL);
}

int
hwspec_load(const char *path, struct error *err)
{
	json_error_t jerr;
	json_t *root, *o;
	FILE *fp;
	size_t i;
	int rc = 0;

	init();
	if ((fp = io_open_error(path, err)) == NULL)
		return -1;
	root = json_loadf(fp, JSON_REJECT_DUPLICATES, &jerr);
	io_close(fp);
	if (root == NULL) {
		error_set(err, io_name(path), jerr.line, -1, "%s", jerr.text);
		return -1;
	}
	if (is_arch_format(root))
		rc = load_arch(io_name(path), root, err);
	else if (json_is_array(root)) {
		if (json_array_size(root) == 0)
			rc = bad(err, io_name(path), "no entries");
		json_array_foreach(root, i, o)
			if (rc == 0)
				rc = load_entry(io_name(path), i, o, err);
	} else
		rc = load_entry(io_name(path), 0, root, err);
	json_decref(root);
	return rc;
}
