/* SPDX-License-Identifier: ISC */
/*
 * summary: the grouped summary (spec 19) and its outputs: text, CSV, SVG plot; and the
 * generic grouping by record keys (see summary.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "report/colour.h"
#include "core/diag.h"
#include "tt/metrics.h"
#include "core/numfmt.h"
#include "report/opcsv.h"
#include "report/plot.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/texttab.h"

/* An op name in a group, with its device time there. */
struct gop {
	strid	op;
	double	time;
	size_t	first;
};

struct group {
	strid		label, category;
	long long	device;		/* -1 when not per device */
	double		time;		/* Device Time Sum [us] */
	double		tcomp, fcomp;	/* Kahan compensations (pandas groupby sum/mean) */
	long		count;
	long		nf;		/* ops with a FLOPs % */
	double		fmin, fmax, fsum, fmean, fm2;	/* Welford mean and M2 */
	double		pct;
	int		has_wmean;
	double		wmean;
	size_t		first;		/* alphabetical rank, for stable ties */
	struct gop	*ops;		/* GROUP_KEYS: the op names in the group */
	size_t		 nops, capops;
};

struct summary {
	const struct table *t;
	struct group	*g;
	size_t		 ng;
	int		 group_by, per_device;
	const struct group_spec *spec;
	size_t		*print_order;	/* indices into g in printed order */
	/* spec 19 "Integer zeros": the CSV columns pandas holds as integers */
	int		 int_time;	/* no op has a duration: Device Time Sum prints 0 */
	int		 int_pct;	/* merged mode, grand total 0: Total % prints 0 */
};

static const char *const report_names[] = { "op", "memory", "category", "device", "phase" };

int
summary_parse_spec(const char *s, struct group_spec *g, const char **err)
{
	char *p, *next;
	size_t i;

	memset(g, 0, sizeof(*g));
	if (strlen(s) >= sizeof(g->copy)) {
		*err = "too long";
		return -1;
	}
	strcpy(g->text, s);
	strcpy(g->copy, s);
	for (p = g->copy; p != NULL; p = next) {
		if ((next = strchr(p, ',')) != NULL)
			*next++ = '\0';
		if (*p == '\0') {
			*err = "an empty name";
			return -1;
		}
		for (i = 0; i < 5 && strcmp(p, report_names[i]) != 0; i++)
			;
		if (g->nparts + (i == 5 && strcmp(p, "line") == 0 ? 2 : 1) > GROUP_MAXPARTS) {
			*err = "more than 4 parts";
			return -1;
		}
		if (i < 5) {
			g->part[g->nparts++] = (int)i;
		} else if (strcmp(p, "line") == 0) {
			/* the source line of tt-mlir and tt-torch traces */
			g->part[g->nparts++] = GROUP_KEY;
			g->keys[g->nkeys++] = "loc_file";
			g->part[g->nparts++] = GROUP_KEY;
			g->keys[g->nkeys++] = "loc_line";
		} else {
			g->part[g->nparts++] = GROUP_KEY;
			g->keys[g->nkeys++] = p;
		}
	}
	g->by = g->nparts == 1 && g->part[0] != GROUP_KEY ? g->part[0] : GROUP_KEYS;
	return 0;
}

void
summary_check_keys(const struct table *t, const struct group_spec *g)
{
	size_t k;

	for (k = 0; k < g->nkeys && k < t->ngkeys; k++) {
		const char *key = g->keys[k];

		if (t->gkey_ops[k] > 0 || t->ndevice + t->nhost == 0)
			continue;
		if (strncmp(key, "loc", 3) == 0)
			die(EXIT_DATA, "--group-by %s: no op has a \"%s\" key: source locations "
			    "come from the LOC column of tt-mlir (ttrt perf) and tt-torch traces, "
			    "which this trace does not have", g->text, key);
		if (strcmp(key, "iter") == 0)
			die(EXIT_DATA, "--group-by %s: no op has an \"iter\" key: add ttp-phase "
			    "before ttp-table", g->text);
		die(EXIT_DATA, "--group-by %s: no op has a \"%s\" key (the first op has: %s)",
		    g->text, key, t->op_keys ? t->op_keys : "");
	}
}

/* The op's category: ttp-roofline's, else looked up here as it would (spec 21). */
static strid
row_category(struct table *t, const struct row *w)
{
	const char *c;

	if (w->category)
		return w->category;
	c = metrics_category(table_str(t, w->label));
	return table_intern(t, c, strlen(c));
}

/* The grouping label of a row. The table is logically const; interning new label
 * strings only adds to its strings. */
static strid
group_label(struct table *t, const struct row *w, int by, struct buf *b)
{
	const char *label, *e, *mem, *p1, *p2, *q;
	size_t i;

	buf_reset(b);
	switch (by) {
	case GROUP_CATEGORY:
		return row_category(t, w);
	case GROUP_DEVICE:
		if (w->flags & ROW_DEVICE)
			buf_printf(b, "Dev %lld", w->device);
		else
			buf_adds(b, "(no device)");
		return table_intern(t, b->p, b->len);
	case GROUP_PHASE:
		if (w->phase)
			return w->phase;
		return table_intern(t, "(no phase)", 10);
	}
	label = table_str(t, w->label);
	while (*label == ' ' || *label == '\t')
		label++;
	for (e = label; *e && *e != ' ' && *e != '\t' && *e != '\n'; e++)
		;
	buf_add(b, label, (size_t)(e - label));
	if (by == GROUP_MEMORY && w->mem0 != 0 && *(mem = table_str(t, w->mem0)) != '\0') {
		/* the last two '_'-separated pieces, lower-cased */
		p2 = strrchr(mem, '_');
		if (p2 == NULL) {
			p1 = mem;
			q = NULL;
		} else {
			for (q = p2 - 1; q >= mem && *q != '_'; q--)
				;
			p1 = q >= mem ? q + 1 : mem;
		}
		buf_adds(b, " (in0:");
		i = strlen(p1);
		for (q = p1; q < p1 + i; q++)
			buf_addc(b, (*q >= 'A' && *q <= 'Z') ? (char)(*q - 'A' + 'a') : *q);
		buf_addc(b, ')');
	}
	return table_intern(t, b->p ? b->p : "", b->len);
}

/* pandas sums groups with Kahan compensation; so do we, so that the %.2f of a sum
 * such as 78.735 rounds the same way. */
static void
kahan_add(double *sum, double *comp, double v)
{
	double y = v - *comp, t = *sum + y;

	*comp = t - *sum - y;
	*sum = t;
}

/* GROUP_KEYS: the parts' texts joined by ':' (a missing key '?'); "(no TEXT)" when
 * every part is a record key and all are missing. */
static strid
keys_label(struct table *t, const struct row *w, const struct group_spec *g, struct buf *b,
    struct buf *tmp)
{
	const char *kv, *e;
	size_t i, k = 0, missing = 0;

	buf_reset(b);
	for (i = 0; i < g->nparts; i++) {
		size_t j;

		if (i > 0)
			buf_addc(b, ':');
		if (g->part[i] != GROUP_KEY) {
			strid id = group_label(t, w, g->part[i], tmp);

			buf_adds(b, table_str(t, id));
			continue;
		}
		/* field k of the row's key values (the pool may have moved: look again) */
		kv = table_str(t, w->gkey);
		for (j = 0; j < k; j++)
			kv = (e = strchr(kv, TABLE_KEYSEP)) != NULL ? e + 1 : kv + strlen(kv);
		k++;
		if ((e = strchr(kv, TABLE_KEYSEP)) == NULL)
			e = kv + strlen(kv);
		if (e == kv) {
			buf_addc(b, '?');
			missing++;
		} else
			buf_add(b, kv, (size_t)(e - kv));
	}
	if (missing == g->nparts) {
		buf_reset(b);
		buf_printf(b, "(no %s)", g->text);
	}
	return table_intern(t, b->p ? b->p : "", b->len);
}

/* GROUP_KEYS: count dt for op in the group's list of op names. */
static void
group_op(struct group *g, strid op, double dt)
{
	size_t i;

	for (i = 0; i < g->nops && g->ops[i].op != op; i++)
		;
	if (i == g->nops) {
		g->ops = xgrow(g->ops, &g->capops, g->nops + 1, sizeof(*g->ops));
		g->ops[i].op = op;
		g->ops[i].time = 0;
		g->ops[i].first = i;
		g->nops++;
	}
	g->ops[i].time += dt;
}

static int
cmp_gop(const void *a, const void *b)
{
	const struct gop *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? 1 : -1;
	return (x->first > y->first) - (x->first < y->first);
}

static const struct table *sort_t;

static int
cmp_alpha(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	int c = strcmp(table_str(sort_t, x->label), table_str(sort_t, y->label));

	if (c != 0)
		return c;
	return (x->device > y->device) - (x->device < y->device);
}

static int
cmp_time(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? 1 : -1;
	return (x->first > y->first) - (x->first < y->first);
}

static const struct group *sort_g;

static int
cmp_print(const void *a, const void *b)
{
	const struct group *x = &sort_g[*(const size_t *)a], *y = &sort_g[*(const size_t *)b];

	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->pct != y->pct)
		return x->pct < y->pct ? 1 : -1;
	return (x->first > y->first) - (x->first < y->first);
}

struct wacc {
	strid	label;
	double	num, den;
	int	any;
};

/* The weighted mean is per label across devices (Q30), over every op of the label. */
static void
wacc_add(struct wacc **wa, size_t *nw, size_t *wcap, strid lab, double x, double dt)
{
	size_t j;

	for (j = 0; j < *nw && (*wa)[j].label != lab; j++)
		;
	if (j == *nw) {
		*wa = xgrow(*wa, wcap, *nw + 1, sizeof(**wa));
		(*wa)[j].label = lab;
		(*wa)[j].num = (*wa)[j].den = 0;
		(*wa)[j].any = 0;
		(*nw)++;
	}
	(*wa)[j].num += x * dt;
	(*wa)[j].den += dt;
	(*wa)[j].any = 1;
}

/* The slot of a group (label, device) in a hash of hcap (a power of two) slots. */
static size_t
group_hash(strid lab, long long dev, size_t hcap)
{
	return ((size_t)lab * 2654435761u ^ (size_t)(dev + 1) * 40503u) & (hcap - 1);
}

struct summary *
summary_build(const struct table *ct, const struct group_spec *spec, int per_device)
{
	struct table *t = (struct table *)ct;
	struct summary *s;
	struct buf b = BUF_INIT, tmp = BUF_INIT;
	int group_by = spec->by;
	size_t *hash, hcap = 64, i, j, nw = 0, wcap = 0;
	struct wacc *wa = NULL;
	size_t ndev = 0, k, gcap = 0;
	long long *devs = NULL;
	double *devtot = NULL;

	s = xcalloc(1, sizeof(*s));
	s->t = ct;
	s->group_by = group_by;
	s->spec = spec;
	s->per_device = per_device;
	s->int_time = 1;
	hash = xcalloc(hcap, sizeof(*hash));	/* group index + 1; grows with the groups */
	for (i = 0; i < t->nrows; i++) {
		const struct row *w = table_row(t, i);
		strid lab;
		long long dev = -1;
		size_t h;
		struct group *g;
		double dt;
		int has_f;

		if (w->flags & ROW_SIGNPOST)
			continue;
		if (group_by == GROUP_KEYS)
			lab = keys_label(t, w, spec, &b, &tmp);
		else
			lab = group_label(t, w, group_by, &b);
		dt = (w->flags & ROW_DEV_US) ? w->dev_us : 0;
		/* host ops and ops without a duration have the integer Device Time 0 */
		if ((w->flags & ROW_DEV_US) && !(w->flags & ROW_DEV_ZERO))
			s->int_time = 0;
		has_f = (w->flags & ROW_FLOPS_PCT) && !isnan(w->flops_pct);
		if (has_f)
			wacc_add(&wa, &nw, &wcap, lab, w->flops_pct, dt);
		if (per_device) {
			/* pandas' groupby drops a group key that is NaN: per device,
			 * ops without a device (host ops) are left out */
			if (!(w->flags & ROW_DEVICE))
				continue;
			dev = w->device;
		}
		if (2 * (s->ng + 1) > hcap) {	/* at most half full: grow, rehash */
			free(hash);
			hcap *= 2;
			hash = xcalloc(hcap, sizeof(*hash));
			for (k = 0; k < s->ng; k++) {
				h = group_hash(s->g[k].label, s->g[k].device, hcap);
				while (hash[h] != 0)
					h = (h + 1) & (hcap - 1);
				hash[h] = k + 1;
			}
		}
		h = group_hash(lab, dev, hcap);
		while (hash[h] != 0) {
			g = &s->g[hash[h] - 1];
			if (g->label == lab && g->device == dev)
				break;
			h = (h + 1) & (hcap - 1);
		}
		if (hash[h] == 0) {
			s->g = xgrow(s->g, &gcap, s->ng + 1, sizeof(*s->g));
			g = &s->g[s->ng++];
			memset(g, 0, sizeof(*g));
			g->label = lab;
			g->device = dev;
			if (group_by == GROUP_CATEGORY)
				g->category = lab;
			else if (group_by != GROUP_KEYS)	/* not shown */
				g->category = row_category(t, w);
			hash[h] = s->ng;
		}
		g = &s->g[hash[h] - 1];
		kahan_add(&g->time, &g->tcomp, dt);
		g->count++;
		if (group_by == GROUP_KEYS)
			group_op(g, w->op, dt);
		/* a NaN FLOPs % (spec 10.1) is left out like an empty one */
		if (has_f) {
			double x = w->flops_pct, d;

			if (g->nf == 0 || x < g->fmin)
				g->fmin = x;
			if (g->nf == 0 || x > g->fmax)
				g->fmax = x;
			g->nf++;
			kahan_add(&g->fsum, &g->fcomp, x);
			d = x - g->fmean;
			g->fmean += d / (double)g->nf;
			g->fm2 += d * (x - g->fmean);
		}
	}
	free(hash);
	buf_free(&b);
	buf_free(&tmp);
	if (s->ng == 0) {
		free(wa);
		summary_free(s);
		return NULL;
	}
	for (i = 0; i < s->ng; i++) {
		struct group *g = &s->g[i];

		for (j = 0; j < nw && wa[j].label != g->label; j++)
			;
		if (j < nw && wa[j].any && wa[j].den != 0) {
			g->has_wmean = 1;
			g->wmean = wa[j].num / wa[j].den;
		}
		if (g->nf > 0)
			g->fmean = g->fsum / (double)g->nf;
		if (g->nops > 1)
			qsort(g->ops, g->nops, sizeof(*g->ops), cmp_gop);
	}
	free(wa);

	/* pandas groupby order (sorted keys), then a stable sort by time descending */
	sort_t = ct;
	qsort(s->g, s->ng, sizeof(*s->g), cmp_alpha);
	for (i = 0; i < s->ng; i++)
		s->g[i].first = i;
	qsort(s->g, s->ng, sizeof(*s->g), cmp_time);

	/* Total % over all groups, or per device */
	for (i = 0; i < s->ng; i++) {
		for (k = 0; k < ndev && devs[k] != s->g[i].device; k++)
			;
		if (k == ndev) {
			devs = xreallocarray(devs, ndev + 1, sizeof(*devs));
			devtot = xreallocarray(devtot, ndev + 1, sizeof(*devtot));
			devs[ndev] = s->g[i].device;
			devtot[ndev++] = 0;
		}
		devtot[k] += s->g[i].time;
	}
	for (i = 0; i < s->ng; i++) {
		for (k = 0; devs[k] != s->g[i].device; k++)
			;
		s->g[i].pct = devtot[k] != 0 ? s->g[i].time / devtot[k] * 100 : 0;
	}
	s->int_pct = !per_device && ndev == 1 && devtot[0] == 0;
	free(devs);
	free(devtot);

	s->print_order = xreallocarray(NULL, s->ng, sizeof(size_t));
	for (i = 0; i < s->ng; i++)
		s->print_order[i] = i;
	if (per_device) {
		sort_g = s->g;
		qsort(s->print_order, s->ng, sizeof(size_t), cmp_print);
	}
	return s;
}

void
summary_free(struct summary *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->ng; i++)
		free(s->g[i].ops);
	free(s->g);
	free(s->print_order);
	free(s);
}

void
summary_top(struct summary *s, size_t n)
{
	unsigned char *keep;
	size_t i, k = 0;

	if (n >= s->ng)
		return;
	keep = xcalloc(s->ng, 1);
	for (i = 0; i < n; i++)
		keep[s->print_order[i]] = 1;
	for (i = 0; i < s->ng; i++) {
		if (keep[i])
			s->g[k++] = s->g[i];
		else
			free(s->g[i].ops);
	}
	free(keep);
	s->ng = k;
	for (i = 0; i < s->ng; i++)
		s->print_order[i] = i;
	if (s->per_device) {
		sort_g = s->g;
		qsort(s->print_order, s->ng, sizeof(size_t), cmp_print);
	}
}

size_t
summary_ndevices(const struct summary *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->ng; i++) {
		size_t j;

		for (j = 0; j < i && s->g[j].device != s->g[i].device; j++)
			;
		if (j == i)
			n++;
	}
	return n;
}

/* --- text ------------------------------------------------------------------------ */

enum scol {
	S_PCT, S_OPCODE, S_DEVICE, S_TIME, S_COUNT, S_CAT, S_MIN, S_MAX, S_MEAN, S_STD,
	S_WMEAN, S_OPS, NSCOLS
};

static const char *const sheaders[NSCOLS] = {
	"Total %", "Op Code", "Device", "Device Time Sum", "Op Count", "Op Category",
	"Min FLOPs", "Max FLOPs", "Mean FLOPs", "Std FLOPs", "Weighted Mean FLOPs", "Ops"
};

/* The group column's header: what the groups are. */
static const char *
group_header(const struct summary *s)
{
	switch (s->group_by) {
	case GROUP_KEYS:
		return s->spec->text;
	case GROUP_PHASE:
		return "Phase";
	case GROUP_DEVICE:
		return "Device";
	default:
		return "Op Code";	/* the reference's, also for memory and category */
	}
}

static int
col_shown(const struct summary *s, int col)
{
	if (col == S_DEVICE)
		return s->per_device;
	/* a phase or a device has ops of every category: no one category to show */
	if (col == S_CAT && (s->group_by == GROUP_PHASE || s->group_by == GROUP_DEVICE))
		return 0;
	if (s->group_by == GROUP_KEYS)
		return col == S_PCT || col == S_OPCODE || col == S_TIME || col == S_COUNT ||
		    col == S_OPS;
	if (col == S_OPS)
		return 0;
	if (s->group_by == GROUP_CATEGORY)
		return col == S_PCT || col == S_OPCODE || col == S_TIME || col == S_COUNT ||
		    col == S_DEVICE;
	return 1;
}

static void
pct_cell(struct buf *b, int has, double v)
{
	char nb[NUM_BUFSZ];

	if (!has)
		return;
	num_fixed(nb, v, 2, 1);
	buf_printf(b, "%s %%", nb);
}

/* The op names of a group, the costliest first. */
static void
ops_cell(struct buf *b, const struct table *t, const struct group *g)
{
	for (size_t i = 0; i < g->nops; i++) {
		if (i > 0)
			buf_adds(b, ", ");
		buf_adds(b, table_str(t, g->ops[i].op));
	}
}

static void
scell(struct buf *b, const struct summary *s, const struct group *g, int col, int on)
{
	const struct table *t = s->t;
	char nb[NUM_BUFSZ];
	const char *lab;

	switch (col) {
	case S_PCT:
		pct_cell(b, 1, g->pct);
		break;
	case S_OPCODE:
		lab = table_str(t, g->label);
		if (s->group_by == GROUP_KEYS)
			buf_adds(b, lab);
		else
			colour_add(b, on, colour_for_op(lab), lab, strlen(lab));
		break;
	case S_DEVICE:
		if (g->device >= 0)
			buf_printf(b, "%lld", g->device);
		break;
	case S_TIME:
		num_fixed(nb, g->time, 2, 1);
		buf_printf(b, "%s \xce\xbcs", nb);
		break;
	case S_COUNT:
		buf_printf(b, "%ld", g->count);
		break;
	case S_CAT:
		buf_adds(b, table_str(t, g->category));
		break;
	case S_MIN:
		pct_cell(b, g->nf > 0, g->fmin);
		break;
	case S_MAX:
		pct_cell(b, g->nf > 0, g->fmax);
		break;
	case S_MEAN:
		pct_cell(b, g->nf > 0, g->fmean);
		break;
	case S_STD:
		pct_cell(b, g->nf > 1, sqrt(g->fm2 / (double)(g->nf - 1)));
		break;
	case S_WMEAN:
		pct_cell(b, g->has_wmean, g->wmean);
		break;
	case S_OPS:
		ops_cell(b, t, g);
		break;
	}
}

/* The summary's columns, those the grouping shows. */
static void
scolumns(struct ttab *tb, const struct summary *s, int flags)
{
	int col;

	ttab_init(tb, NSCOLS, flags | (s->group_by == GROUP_KEYS ? TTAB_TRIM : 0));
	for (col = 0; col < NSCOLS; col++) {
		int left = col == S_OPCODE || col == S_OPS;

		ttab_column(tb, col, col == S_OPCODE ? group_header(s) : sheaders[col],
		    left ? TTAB_LEFT : TTAB_RIGHT,
		    left || col == S_CAT ? TTAB_LEFT : TTAB_RIGHT);
		ttab_hide(tb, col, !col_shown(s, col));
	}
}

static void
srows(FILE *fp, struct ttab *tb, const struct summary *s, int colour)
{
	struct buf cb = BUF_INIT;
	size_t i;
	int col;

	for (i = 0; i < s->ng; i++) {
		const struct group *g = &s->g[s->print_order[i]];

		for (col = 0; col < NSCOLS; col++) {
			buf_reset(&cb);
			if (col_shown(s, col))
				scell(&cb, s, g, col, colour);
			ttab_cell(tb, cb.p ? cb.p : "", cb.len);
		}
		ttab_row(tb, fp);
	}
	buf_free(&cb);
}

void
summary_print(FILE *fp, const struct summary *s, int colour)
{
	struct ttab tb;
	struct buf cb = BUF_INIT;
	size_t i;
	int col;

	scolumns(&tb, s, TTAB_TEXT);
	for (col = 0; col < NSCOLS; col++) {
		if (!col_shown(s, col))
			continue;
		for (i = 0; i < s->ng; i++) {
			buf_reset(&cb);
			scell(&cb, s, &s->g[i], col, 0);
			ttab_fit(&tb, col, cb.p ? cb.p : "", cb.len);
		}
	}
	buf_free(&cb);
	fputs("\n\xf0\x9f\x93\x8a Stacked report \xf0\x9f\x93\x8a\n====================\n\n", fp);
	ttab_header(&tb, fp);
	ttab_rule(&tb, fp);
	srows(fp, &tb, s, colour);
	ttab_rule(&tb, fp);
	ttab_free(&tb);
}

/* --- CSV ------------------------------------------------------------------------- */

static void
csv_pct(FILE *fp, int has, double v)
{
	fputc(',', fp);
	if (has)
		fprintf(fp, "%.2f", v);
}

int
summary_write_csv(const char *path, const struct summary *s)
{
	FILE *fp;
	size_t i;
	int cat = s->group_by == GROUP_CATEGORY, keys = s->group_by == GROUP_KEYS, e;
	struct buf cb = BUF_INIT;

	if ((fp = fopen(path, "w")) == NULL)
		return -1;
	fputs("Total % [%],", fp);
	csv_field(fp, group_header(s), strlen(group_header(s)));
	fputc(',', fp);
	if (s->per_device)
		fputs("Device,", fp);
	fputs("Device Time Sum [\xce\xbcs],Op Count", fp);
	if (keys)
		fputs(",Ops", fp);
	else if (!cat)
		fputs(",Op Category,Min FLOPs [%],Max FLOPs [%],Mean FLOPs [%],Std FLOPs [%],"
		    "Weighted Mean FLOPs [%]", fp);
	fputc('\n', fp);
	for (i = 0; i < s->ng; i++) {
		const struct group *g = &s->g[i];
		const char *lab = table_str(s->t, g->label);

		if (s->int_pct)
			fputs("0,", fp);
		else
			fprintf(fp, "%.2f,", g->pct);
		csv_field(fp, lab, strlen(lab));
		if (s->per_device) {
			fputc(',', fp);
			if (g->device >= 0)
				fprintf(fp, "%lld", g->device);
		}
		if (s->int_time)
			fprintf(fp, ",0,%ld", g->count);
		else
			fprintf(fp, ",%.2f,%ld", g->time, g->count);
		if (keys) {
			buf_reset(&cb);
			ops_cell(&cb, s->t, g);
			fputc(',', fp);
			csv_field(fp, cb.p ? cb.p : "", cb.len);
		} else if (!cat) {
			const char *c = table_str(s->t, g->category);

			fputc(',', fp);
			csv_field(fp, c, strlen(c));
			csv_pct(fp, g->nf > 0, g->fmin);
			csv_pct(fp, g->nf > 0, g->fmax);
			csv_pct(fp, g->nf > 0, g->fmean);
			csv_pct(fp, g->nf > 1, g->nf > 1 ? sqrt(g->fm2 / (double)(g->nf - 1)) : 0);
			csv_pct(fp, g->has_wmean, g->wmean);
		}
		fputc('\n', fp);
	}
	buf_free(&cb);
	if (ferror(fp)) {
		e = errno ? errno : EIO;
		fclose(fp);
		errno = e;
		return -1;
	}
	return fclose(fp) == 0 ? 0 : -1;
}

/* --- the plot -------------------------------------------------------------------- */

int
summary_write_svg(const char *path, const struct summary *s, int classic)
{
	struct plot_seg *segs;
	struct plot_bar *bars;
	size_t nbars = 0, i, j, n;
	int rv, flags = 0;

	segs = xcalloc(s->ng, sizeof(*segs));
	bars = xcalloc(s->ng, sizeof(*bars));
	/* segments grouped by bar (device), each bar in time-descending order */
	n = 0;
	for (i = 0; i < s->ng; i++) {
		long long dev = s->g[i].device;

		for (j = 0; j < nbars && bars[j].device != (long)dev; j++)
			;
		if (j < nbars)
			continue;
		bars[nbars].device = s->per_device ? (long)dev : -1;
		bars[nbars].segs = segs + n;
		for (j = i; j < s->ng; j++) {
			const struct group *g = &s->g[j];
			struct plot_seg *p;

			if (g->device != dev)
				continue;
			p = &segs[n++];
			p->label = table_str(s->t, g->label);
			p->category = table_str(s->t, g->category);
			p->time_us = g->time;
			p->count = g->count;
			p->pct = g->pct;
			p->has_flops = g->nf > 0;
			p->fmin = g->fmin;
			p->fmax = g->fmax;
			p->fmean = g->fmean;
			p->has_std = g->nf > 1;
			p->fstd = g->nf > 1 ? sqrt(g->fm2 / (double)(g->nf - 1)) : 0;
			p->has_wmean = g->has_wmean;
			p->fwmean = g->wmean;
		}
		bars[nbars].nsegs = (size_t)(segs + n - bars[nbars].segs);
		nbars++;
	}
	/* per-device bars in device order */
	for (i = 1; i < nbars; i++)
		for (j = i; j > 0 && bars[j - 1].device > bars[j].device; j--) {
			struct plot_bar tmp = bars[j];

			bars[j] = bars[j - 1];
			bars[j - 1] = tmp;
		}
	if (classic)
		flags |= PLOT_CLASSIC;
	if (s->group_by == GROUP_CATEGORY)
		flags |= PLOT_CATEGORY;
	rv = plot_svg(path, bars, nbars, flags);
	free(segs);
	free(bars);
	return rv;
}

/* --- Markdown -------------------------------------------------------------------- */

void
summary_markdown(FILE *fp, const struct summary *s)
{
	struct ttab tb;

	scolumns(&tb, s, TTAB_MARKDOWN);
	ttab_header(&tb, fp);
	srows(fp, &tb, s, 0);
	ttab_free(&tb);
}
