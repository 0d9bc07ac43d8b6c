/* SPDX-License-Identifier: ISC */
/*
 * hwspec: the hardware-spec table (built-in entries of tt-perf-report plus entries
 * loaded from a JSON spec file) and fidelity names. The only place in ttp where
 * architecture numbers live.
 */
#include <ctype.h>
#include <errno.h>
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
	{ "wormhole", 64, 288, { 74.0 / 72, 148.0 / 72, 262.0 / 72, 0 } },
	{ "blackhole", 130, 512, { BH_TF(4), BH_TF(2), BH_TF(1), 0 } },
	{ "bh20", 20, 512, { BH_TF(4), BH_TF(2), BH_TF(1), 0 } },
	{ "n1", 20, 120, { N1_TF(4), N1_TF(2), N1_TF(1), 0 } },
};

struct alias {
	char	name[HWSPEC_NAMESZ];
	size_t	idx;
};

static struct hwspec	*table;		/* NULL until first use: then a copy of builtin */
static size_t		 ntable;
static struct alias	*aliases;
static size_t		 naliases;
static char		*namelist;

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
init(void)
{
	if (table != NULL)
		return;
	ntable = sizeof(builtin) / sizeof(builtin[0]);
	table = xreallocarray(NULL, ntable, sizeof(*table));
	memcpy(table, builtin, sizeof(builtin));
	add_alias("wormhole_b0", 0);
}

static struct hwspec *
lookup(const char *name)
{
	size_t i;

	init();
	for (i = 0; i < ntable; i++)
		if (strcasecmp(table[i].name, name) == 0)
			return &table[i];
	for (i = 0; i < naliases; i++)
		if (strcasecmp(aliases[i].name, name) == 0)
			return &table[aliases[i].idx];
	return NULL;
}

const struct hwspec *
hwspec_find(const char *name)
{
	return name != NULL ? lookup(name) : NULL;
}

const char *
hwspec_names(void)
{
	size_t i, n = 0;

	init();
	free(namelist);
	for (i = 0; i < ntable; i++)
		n += strlen(table[i].name) + 2;
	for (i = 0; i < naliases; i++)
		n += strlen(aliases[i].name) + 2;
	namelist = xmalloc(n + 1);
	namelist[0] = '\0';
	for (i = 0; i < ntable; i++) {
		if (i > 0)
			strlcat(namelist, ", ", n + 1);
		strlcat(namelist, table[i].name, n + 1);
	}
	for (i = 0; i < naliases; i++) {
		strlcat(namelist, ", ", n + 1);
		strlcat(namelist, aliases[i].name, n + 1);
	}
	return namelist;
}

double
hwspec_tflops(const struct hwspec *hw, int fid)
{
	if (hw == NULL || fid < 0 || fid >= FID_N)
		return 0;
	return hw->tflops[fid];
}

/* --- spec files ------------------------------------------------------------------- */

static int
positive(const json_t *v, double *out)
{
	if (!json_is_number(v))
		return 0;
	*out = json_number_value(v);
	return *out > 0 && *out < 1e12;
}

static void
load_entry(const char *path, size_t k, json_t *o)
{
	json_t *v, *tf;
	const char *name, *key;
	struct hwspec *hw, tmp;
	double d;
	size_t i;
	int fid, isnew;

	if (!json_is_object(o))
		die_at(path, 0, "entry %zu: expected an object", k + 1);
	json_object_foreach(o, key, v) {
		if (strcmp(key, "name") != 0 && strcmp(key, "worker_cores") != 0 &&
		    strcmp(key, "dram_gbps") != 0 && strcmp(key, "tflops_per_core") != 0 &&
		    strcmp(key, "aliases") != 0)
			die_at(path, 0, "entry %zu: unknown member \"%s\" (known: name, "
			    "worker_cores, dram_gbps, tflops_per_core, aliases)", k + 1, key);
	}
	name = json_string_value(json_object_get(o, "name"));
	if (name == NULL || *name == '\0' || strlen(name) >= HWSPEC_NAMESZ)
		die_at(path, 0, "entry %zu: \"name\" must be a string of 1 to %d bytes",
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
			die_at(path, 0, "%s: \"worker_cores\" must be a positive integer", name);
		tmp.worker_cores = (int)json_integer_value(v);
	} else if (isnew)
		die_at(path, 0, "%s: \"worker_cores\" missing", name);
	if ((v = json_object_get(o, "dram_gbps")) != NULL) {
		if (!positive(v, &d))
			die_at(path, 0, "%s: \"dram_gbps\" must be a positive number", name);
		tmp.dram_gbps = d;
	} else if (isnew)
		die_at(path, 0, "%s: \"dram_gbps\" missing", name);
	if ((tf = json_object_get(o, "tflops_per_core")) != NULL) {
		if (!json_is_object(tf) || json_object_size(tf) == 0)
			die_at(path, 0, "%s: \"tflops_per_core\" must be an object such as "
			    "{\"HiFi4\": 1.0, \"HiFi2\": 2.0, \"LoFi\": 4.0}", name);
		json_object_foreach(tf, key, v) {
			if ((fid = hwspec_fidelity(key)) < 0)
				die_at(path, 0, "%s: tflops_per_core: unknown fidelity \"%s\" "
				    "(known: HiFi4, HiFi2, LoFi, HiFi3)", name, key);
			if (!positive(v, &d))
				die_at(path, 0, "%s: tflops_per_core: %s must be a positive "
				    "number", name, key);
			tmp.tflops[fid] = d;
		}
	} else if (isnew)
		die_at(path, 0, "%s: \"tflops_per_core\" missing", name);

	if (isnew) {
		table = xreallocarray(table, ntable + 1, sizeof(*table));
		table[ntable++] = tmp;
		hw = &table[ntable - 1];
	} else
		*hw = tmp;

	if ((v = json_object_get(o, "aliases")) != NULL) {
		json_t *a;

		if (!json_is_array(v))
			die_at(path, 0, "%s: \"aliases\" must be an array of strings", name);
		json_array_foreach(v, i, a) {
			const char *s = json_string_value(a);
			const struct hwspec *other;

			if (s == NULL || *s == '\0' || strlen(s) >= HWSPEC_NAMESZ)
				die_at(path, 0, "%s: \"aliases\" must be an array of short "
				    "strings", name);
			other = lookup(s);
			if (other != NULL && other != hw)
				die_at(path, 0, "%s: alias \"%s\" is already the name of %s",
				    name, s, other->name);
			if (other == NULL)
				add_alias(s, (size_t)(hw - table));
		}
	}
}

void
hwspec_load(const char *path)
{
	json_error_t err;
	json_t *root, *o;
	FILE *fp;
	size_t i;

	init();
	fp = io_open(path);
	root = json_loadf(fp, JSON_REJECT_DUPLICATES, &err);
	io_close(fp);
	if (root == NULL)
		die_at(io_name(path), err.line, "%s", err.text);
	if (json_is_array(root)) {
		if (json_array_size(root) == 0)
			die_at(io_name(path), 0, "no entries");
		json_array_foreach(root, i, o)
			load_entry(io_name(path), i, o);
	} else
		load_entry(io_name(path), 0, root);
	json_decref(root);
}
