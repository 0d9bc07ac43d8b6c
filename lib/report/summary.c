/* SPDX-License-Identifier: ISC */
/*
 * summary: the grouped summary (docs/tt-perf-report.md §19) and its outputs: text, CSV, SVG
 * plot; and the generic grouping by record keys (see summary.h). The summary is a tab
 * (tab.h): its groups come from tab_group, its figures from the stat_* functions, its
 * orders from tab_sort and its text, Markdown and CSV from tab's printers.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/outfile.h"
#include "tt/metrics.h"
#include "report/chart.h"
#include "report/plot.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/tab.h"

/* The summary's columns, in this order: those of the text table and of the CSV, which
 * show some of them as the grouping says, and the groups' alphabetical rank (pandas'
 * groupby order, for the ties of the sorts). */
enum scol {
	S_PCT, S_LABEL, S_DEVICE, S_TIME, S_COUNT, S_CAT, S_MIN, S_MAX, S_MEAN, S_STD,
	S_WMEAN, S_OPS, S_RANK, NSCOLS
};

struct summary {
	struct tab	*tab;		/* one row per group, in the CSV's order */
	int		 group_by, per_device;
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

int
summary_spec_torch(struct group_spec *g, const char **err)
{
	const char *keys[GROUP_MAXPARTS];
	size_t i, k = 0;

	for (i = 0; i < g->nparts; i++) {
		switch (g->part[i]) {
		case GROUP_KEY:
			keys[i] = g->keys[k++];
			continue;
		case GROUP_MEMORY:
			*err = "memory is the memory of a TT-Metal op's first input, which "
			    "PyTorch ops do not have";
			return -1;
		case GROUP_DEVICE:
			*err = "PyTorch ops have no device key (their kernels run on one)";
			return -1;
		}
		keys[i] = report_names[g->part[i]];
		g->part[i] = GROUP_KEY;
	}
	memcpy(g->keys, keys, g->nparts * sizeof(*keys));
	g->nkeys = g->nparts;
	g->by = GROUP_KEYS;
	return 0;
}

int
summary_check_keys(const struct table *t, const struct group_spec *g, struct error *err)
{
	size_t k;

	for (k = 0; k < g->nkeys && k < t->ngkeys; k++) {
		const char *key = g->keys[k];

		if (t->gkey_ops[k] > 0 || t->ndevice + t->nhost == 0)
			continue;
		if (strncmp(key, "loc", 3) == 0)
			error_set(err, NULL, 0, -1, "--group-by %s: no op has a \"%s\" key: "
			    "source locations come from the LOC column of tt-mlir (ttrt perf) "
			    "and tt-torch traces, which this trace does not have", g->text, key);
		else if (strcmp(key, "iter") == 0 || strcmp(key, "phase") == 0)
			error_set(err, NULL, 0, -1, "--group-by %s: no op has a%s \"%s\" key: "
			    "add ttp-phase before ttp-table", g->text, *key == 'i' ? "n" : "", key);
		else if (strcmp(key, "category") == 0)
			error_set(err, NULL, 0, -1, "--group-by %s: no op has a \"category\" "
			    "key: add ttp-roofline before ttp-table", g->text);
		else
			error_set(err, NULL, 0, -1, "--group-by %s: no op has a \"%s\" key (the "
			    "first op has: %s)", g->text, key, t->op_keys ? t->op_keys : "");
		return -1;
	}
	return 0;
}

/* The op's category: ttp-roofline's, else looked up here as it would (§21). */
static const char *
row_category(const struct table *t, const struct row *w)
{
	if (row_str(w, TF_CATEGORY))
		return table_str(t, row_str(w, TF_CATEGORY));
	return metrics_category(table_str(t, row_str(w, TF_LABEL)));
}

/* Append the grouping label of a row (one report grouping) to b. */
static void
group_label(const struct table *t, const struct row *w, int by, struct buf *b)
{
	const char *label, *e, *mem, *p1, *p2, *q;

	switch (by) {
	case GROUP_CATEGORY:
		buf_adds(b, row_category(t, w));
		return;
	case GROUP_DEVICE:
		if (row_has(w, TF_DEVICE))
			buf_printf(b, "Dev %lld", row_int(w, TF_DEVICE));
		else
			buf_adds(b, "(no device)");
		return;
	case GROUP_PHASE:
		buf_adds(b, row_str(w, TF_PHASE) ? table_str(t, row_str(w, TF_PHASE)) :
		    "(no phase)");
		return;
	}
	label = table_str(t, row_str(w, TF_LABEL));
	while (*label == ' ' || *label == '\t')
		label++;
	for (e = label; *e && *e != ' ' && *e != '\t' && *e != '\n'; e++)
		;
	buf_add(b, label, (size_t)(e - label));
	if (by == GROUP_MEMORY && row_str(w, TF_MEM0) != 0 &&
	    *(mem = table_str(t, row_str(w, TF_MEM0))) != '\0') {
		/* the last two '_'-separated pieces, lower-cased */
		p2 = strrchr(mem, '_');
		if (p2 == NULL) {
			p1 = mem;
		} else {
			for (q = p2 - 1; q >= mem && *q != '_'; q--)
				;
			p1 = q >= mem ? q + 1 : mem;
		}
		buf_adds(b, " (in0:");
		for (q = p1; *q; q++)
			buf_addc(b, (*q >= 'A' && *q <= 'Z') ? (char)(*q - 'A' + 'a') : *q);
		buf_addc(b, ')');
	}
}

/* GROUP_KEYS: the parts' texts joined by ':' (a missing key '?'); "(no TEXT)" when
 * every part is a record key and all are missing. */
static void
keys_label(const struct table *t, const struct row *w, const struct group_spec *g,
    struct buf *b)
{
	const char *kv, *e;
	size_t i, k = 0, missing = 0;

	for (i = 0; i < g->nparts; i++) {
		size_t j;

		if (i > 0)
			buf_addc(b, ':');
		if (g->part[i] != GROUP_KEY) {
			group_label(t, w, g->part[i], b);
			continue;
		}
		/* field k of the row's key values */
		kv = table_str(t, row_str(w, TF_GKEY));
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
}

/* The group column's header: what the groups are. */
static const char *
group_header(int by, const struct group_spec *spec)
{
	switch (by) {
	case GROUP_KEYS:
		return spec->text;
	case GROUP_PHASE:
		return "Phase";
	case GROUP_DEVICE:
		return "Device";
	default:
		return "Op Code";	/* the reference's, also for memory and category */
	}
}

/* Where a summary column shows (struct scol_def.show). */
enum {
	SH_ALL,		/* always */
	SH_PERDEV,	/* per device only */
	SH_FLOPS,	/* not when grouped by record keys or by category */
	SH_CAT,		/* as SH_FLOPS; the text leaves it out by phase or device: they
			 * have ops of every category (the CSV keeps the first op's) */
	SH_KEYS,	/* grouped by record keys only */
	SH_NEVER	/* a sort key */
};

#define SFMT(text, dec, unit, al, md)	{ text, dec, dec >= 0, unit, al, md, 0 }
#define SPCT(text)		SFMT(text, 2, " %", TAB_RIGHT, TAB_RIGHT)
#define SNUM(text)		SFMT(text, -1, NULL, TAB_RIGHT, TAB_RIGHT)

/* The columns, declared once: the CSV's header (with units; NULL: the grouping's,
 * group_header), the text's header and format (figures "12.34 %", "1,234.50 μs"; the
 * CSV writes them %.2f), and where each shows. */
static const struct scol_def {
	const char	*csv;
	struct tab_fmt	 fmt;
	int		 show;
} scols[NSCOLS] = {
	[S_PCT] =	{ "Total % [%]",	SPCT("Total %"),	SH_ALL },
	[S_LABEL] =	{ NULL,		SFMT(NULL, -1, NULL, TAB_LEFT, TAB_LEFT), SH_ALL },
	[S_DEVICE] =	{ "Device",		SNUM("Device"),		SH_PERDEV },
	[S_TIME] =	{ "Device Time Sum [\xce\xbcs]",
	    SFMT("Device Time Sum", 2, " \xce\xbcs", TAB_RIGHT, TAB_RIGHT),	SH_ALL },
	[S_COUNT] =	{ "Op Count",		SNUM("Op Count"),	SH_ALL },
	[S_CAT] =	{ "Op Category",
	    SFMT("Op Category", -1, NULL, TAB_RIGHT, TAB_LEFT),			SH_CAT },
	[S_MIN] =	{ "Min FLOPs [%]",	SPCT("Min FLOPs"),	SH_FLOPS },
	[S_MAX] =	{ "Max FLOPs [%]",	SPCT("Max FLOPs"),	SH_FLOPS },
	[S_MEAN] =	{ "Mean FLOPs [%]",	SPCT("Mean FLOPs"),	SH_FLOPS },
	[S_STD] =	{ "Std FLOPs [%]",	SPCT("Std FLOPs"),	SH_FLOPS },
	[S_WMEAN] =	{ "Weighted Mean FLOPs [%]", SPCT("Weighted Mean FLOPs"), SH_FLOPS },
	[S_OPS] =	{ "Ops",	SFMT("Ops", -1, NULL, TAB_LEFT, TAB_LEFT), SH_KEYS },
	[S_RANK] =	{ "rank",		SNUM(NULL),		SH_NEVER },
};

/* The TAB_COL_* flags that hide column col of a summary grouped by by. */
static unsigned
shide(int col, int by, int per_device)
{
	int keys = by == GROUP_KEYS, cat = by == GROUP_CATEGORY;
	unsigned none = TAB_COL_NOTEXT | TAB_COL_NOFILE;

	switch (scols[col].show) {
	case SH_PERDEV:
		return per_device ? 0 : none;
	case SH_FLOPS:
		return keys || cat ? none : 0;
	case SH_CAT:
		return keys || cat ? none : by == GROUP_PHASE || by == GROUP_DEVICE ?
		    TAB_COL_NOTEXT : 0;
	case SH_KEYS:
		return keys ? 0 : none;
	case SH_NEVER:
		return none;
	}
	return 0;
}

/* The summary's columns from scols: op names in their colours but for record keys. */
static void
scolumns(struct summary *s, const struct group_spec *spec)
{
	int col, by = s->group_by;

	for (col = 0; col < NSCOLS; col++) {
		struct tab_fmt f = scols[col].fmt;

		if (col == S_LABEL && by != GROUP_KEYS)
			f.flags |= TAB_COL_OPCOLOUR;
		f.flags |= shide(col, by, s->per_device);
		tab_format(s->tab, tab_col(s->tab, scols[col].csv ? scols[col].csv :
		    group_header(by, spec)), &f);
	}
}

/* Sort keys: the CSV's order (Device Time Sum descending, pandas' groupby order for
 * ties) and the text's order per device (device, Total % descending; D2). */
static const struct tab_key by_time[] = { { S_TIME, 1 }, { S_RANK, 0 } };
static const struct tab_key by_device[] = { { S_DEVICE, 0 }, { S_PCT, 1 }, { S_RANK, 0 } };
static const struct tab_key by_label[] = { { S_LABEL, 0 }, { S_DEVICE, 0 } };

/* Append an empty aggregate to the array a of *n (capacity *cap). */
static struct stat_acc *
acc_new(struct stat_acc *a, size_t *n, size_t *cap)
{
	a = xgrow(a, cap, *n + 1, sizeof(*a));
	memset(&a[(*n)++], 0, sizeof(*a));
	return a;
}

/* GROUP_KEYS: the op names of each group, the costliest first (in order of appearance
 * for equal times), joined by ", " into the Ops cells. pair[] holds each (group, op)
 * pair's group and op, time[] its device time. */
static void
ops_cells(struct summary *s, const struct table *t, const uint32_t (*pair)[2],
    const struct stat_acc *time, size_t np)
{
	struct tab *o = tab_new("ops");
	static const struct tab_key keys[] = { { 0, 0 }, { 1, 1 } };
	struct buf b = BUF_INIT;
	size_t i, r;

	tab_col(o, "group");
	tab_col(o, "time");
	tab_col(o, "op");
	for (i = 0; i < np; i++) {
		r = tab_row(o);
		tab_set_int(o, r, 0, pair[i][0]);
		tab_set_num(o, r, 1, time[i].plain);
		tab_set_int(o, r, 2, pair[i][1]);
	}
	tab_sort(o, keys, 2);
	for (i = 0; i < o->nrows; i = r) {
		long long g = tab_cell(o, i, 0)->v.i;

		buf_reset(&b);
		for (r = i; r < o->nrows && tab_cell(o, r, 0)->v.i == g; r++) {
			if (r > i)
				buf_adds(&b, ", ");
			buf_adds(&b, table_str(t, (strid)tab_cell(o, r, 2)->v.i));
		}
		tab_set_strn(s->tab, (size_t)g, S_OPS, b.p, b.len);
	}
	buf_free(&b);
	tab_free(o);
}

/* The group number of a device cell (empty: devices merged) in devs. */
static uint32_t
device_group(struct names *devs, const struct tab_cell *c)
{
	return tab_group(devs, (const char *)&c->v.i, c->kind == TAB_INT ? sizeof(c->v.i) : 0);
}

/*
 * What summary_build gathers, the rows being streamed: running aggregates per group
 * (its device times and FLOPs %), per label across devices (FLOPs % x time and time,
 * for the weighted mean, Q30) and per (group, op) pair (its device time, for the Ops
 * cells). A group is a label, or per device a (label, device) pair.
 */
struct agg {
	const struct table	*t;
	const struct group_spec	*spec;
	struct summary		*s;
	struct names		 groups, labels, pairs;
	struct buf		 label;		/* the current row's label */
	struct buf		 key;		/* the current row's (label, device) */
	struct stat_acc		*time, *flops;	/* per group */
	struct stat_acc		*wnum, *wden;	/* per label */
	struct stat_acc		*ptime;		/* per pair */
	uint32_t		*glabel;	/* per group: its label */
	uint32_t		(*pair)[2];	/* per pair: its group and op */
	size_t			 ng, nf, nl, nw, np;
	size_t			 gcap, fcap, lcap, wcap, pcap, glcap, pc;
	int			 int_time;	/* every Device Time the integer 0 */
};

static void
agg_init(struct agg *a, const struct table *t, const struct group_spec *spec,
    struct summary *s)
{
	*a = (struct agg){ .t = t, .spec = spec, .s = s, .label = BUF_INIT, .key = BUF_INIT,
	    .int_time = 1 };
	names_init(&a->groups);
	names_init(&a->labels);
	names_init(&a->pairs);
}

static void
agg_free(struct agg *a)
{
	free(a->time);
	free(a->flops);
	free(a->wnum);
	free(a->wden);
	free(a->ptime);
	free(a->glabel);
	free(a->pair);
	names_free(&a->groups);
	names_free(&a->labels);
	names_free(&a->pairs);
	buf_free(&a->label);
	buf_free(&a->key);
}

/* The row's label, in a->label (never a NULL pointer, even when empty). */
static void
row_label(struct agg *a, const struct row *w)
{
	buf_reset(&a->label);
	buf_adds(&a->label, "");
	if (a->s->group_by == GROUP_KEYS)
		keys_label(a->t, w, a->spec, &a->label);
	else
		group_label(a->t, w, a->s->group_by, &a->label);
}

/* The number of a->label, a new label getting its sums; the row's FLOPs % x time and
 * time added to them when it has a FLOPs % (has_f). */
static uint32_t
add_label(struct agg *a, const struct row *w, double dt, int has_f)
{
	uint32_t l;

	if ((l = tab_group(&a->labels, a->label.p, a->label.len)) == a->nl) {
		a->wnum = acc_new(a->wnum, &a->nl, &a->lcap);
		a->wden = acc_new(a->wden, &a->nw, &a->wcap);
	}
	if (has_f) {
		stat_acc_add(&a->wnum[l], row_num(w, TF_FLOPSPCT) * dt);
		stat_acc_add(&a->wden[l], dt);
	}
	return l;
}

/* The group of a row of label l in *g: the label's, or per device the (label,
 * device) pair's. Returns 0 when the row is in no group. */
static int
row_group(struct agg *a, const struct row *w, uint32_t l, uint32_t *g)
{
	if (!a->s->per_device) {
		*g = l;
		return 1;
	}
	/* pandas' groupby drops a group key that is NaN: per device, ops without a
	 * device (host ops) are left out */
	long long dev = row_int(w, TF_DEVICE);

	if (!row_has(w, TF_DEVICE))
		return 0;
	buf_reset(&a->key);
	buf_add(&a->key, &l, sizeof(l));
	buf_add(&a->key, &dev, sizeof(dev));
	*g = tab_group(&a->groups, a->key.p, a->key.len);
	return 1;
}

/* A new group g of label l, w its first row: its row in the table (label, device,
 * category) and its aggregates. */
static void
new_group(struct agg *a, const struct row *w, uint32_t g, uint32_t l)
{
	struct tab *tb = a->s->tab;
	size_t r = tab_row(tb);

	tab_set_strn(tb, r, S_LABEL, a->label.p, a->label.len);
	if (a->s->per_device)
		tab_set_int(tb, r, S_DEVICE, row_int(w, TF_DEVICE));
	if (a->s->group_by == GROUP_CATEGORY)
		tab_set_strn(tb, r, S_CAT, a->label.p, a->label.len);
	else if (a->s->group_by != GROUP_KEYS)	/* not shown */
		tab_set_str(tb, r, S_CAT, row_category(a->t, w));
	a->time = acc_new(a->time, &a->ng, &a->gcap);
	a->flops = acc_new(a->flops, &a->nf, &a->fcap);
	a->glabel = xgrow(a->glabel, &a->glcap, a->ng, sizeof(*a->glabel));
	a->glabel[g] = l;
}

/* GROUP_KEYS: dt added to the device time of the pair (group g, op). */
static void
add_pair(struct agg *a, uint32_t g, strid op, double dt)
{
	uint32_t p, pk[2] = { g, op };

	if ((p = tab_group(&a->pairs, (const char *)pk, sizeof(pk))) == a->np) {
		a->ptime = acc_new(a->ptime, &a->np, &a->pcap);
		a->pair = xgrow(a->pair, &a->pc, a->np, sizeof(*a->pair));
		a->pair[p][0] = g;
		a->pair[p][1] = op;
	}
	stat_acc_add(&a->ptime[p], dt);
}

/* One op (not a signpost) into the aggregates of its label and its group. */
static void
add_row(struct agg *a, const struct row *w)
{
	double dt = row_has(w, TF_DEVTIME) ? row_num(w, TF_DEVTIME) : 0;
	/* a NaN FLOPs % (§10.1) is left out like an empty one */
	int has_f = !isnan(row_num(w, TF_FLOPSPCT));
	uint32_t l, g;

	/* host ops and ops without a duration have the integer Device Time 0 */
	if (w->kind[TF_DEVTIME] == TAB_NUM)
		a->int_time = 0;
	row_label(a, w);
	l = add_label(a, w, dt, has_f);
	if (!row_group(a, w, l, &g))
		return;
	if (g == a->ng)
		new_group(a, w, g, l);
	stat_acc_add(&a->time[g], dt);
	if (has_f)
		stat_acc_add(&a->flops[g], row_num(w, TF_FLOPSPCT));
	if (a->s->group_by == GROUP_KEYS)
		add_pair(a, g, row_str(w, TF_OP), dt);
}

/* Each group's figures, from its aggregates and its label's: Device Time Sum, Op
 * Count, the FLOPs % statistics and their weighted mean (none when no op of the label
 * has both a FLOPs % and a device time). */
static void
set_figures(const struct agg *a)
{
	struct tab *tb = a->s->tab;
	size_t i;

	for (i = 0; i < a->ng; i++) {
		const struct stat_acc *f = &a->flops[i], *wd = &a->wden[a->glabel[i]];

		if (a->int_time)
			tab_set_int(tb, i, S_TIME, 0);
		else
			tab_set_num(tb, i, S_TIME, stat_acc_sum(&a->time[i]));
		tab_set_int(tb, i, S_COUNT, (long long)a->time[i].n);
		tab_set_num(tb, i, S_MIN, stat_acc_min(f));
		tab_set_num(tb, i, S_MAX, stat_acc_max(f));
		tab_set_num(tb, i, S_MEAN, stat_acc_mean(f));
		tab_set_num(tb, i, S_STD, stat_acc_std(f, 1));
		if (wd->n > 0 && wd->plain != 0)
			tab_set_num(tb, i, S_WMEAN, a->wnum[a->glabel[i]].plain / wd->plain);
	}
}

/* The CSV's order: pandas' groupby order (sorted keys) kept as the rank of ties, then
 * a stable sort by time descending. */
static void
order_groups(struct tab *tb, size_t ng)
{
	size_t i;

	tab_sort(tb, by_label, 2);
	for (i = 0; i < ng; i++)
		tab_set_int(tb, i, S_RANK, (long long)i);
	tab_sort(tb, by_time, 2);
}

/* Total %: each group's share of all groups' time, or per device of its device's,
 * the totals summed in the CSV's order. */
static void
set_percent(struct tab *tb, size_t ng, int per_device)
{
	struct names devices;
	struct stat_acc *devtot = NULL;
	size_t i, ndev = 0, dcap = 0;

	names_init(&devices);
	for (i = 0; i < ng; i++) {
		uint32_t d = device_group(&devices, tab_cell(tb, i, S_DEVICE));

		if (d == ndev)
			devtot = acc_new(devtot, &ndev, &dcap);
		stat_acc_add(&devtot[d], tab_num(tb, i, S_TIME));
	}
	for (i = 0; i < ng; i++) {
		double tot = devtot[device_group(&devices, tab_cell(tb, i, S_DEVICE))].plain;

		/* §19 (integer zeros): merged, a grand total of 0 is pandas' integer 0 */
		if (!per_device && tot == 0)
			tab_set_int(tb, i, S_PCT, 0);
		else
			tab_set_num(tb, i, S_PCT, tot != 0 ? tab_num(tb, i, S_TIME) / tot * 100 : 0);
	}
	free(devtot);
	names_free(&devices);
}

struct summary *
summary_build(const struct table *t, const struct group_spec *spec, int per_device)
{
	struct summary *s;
	struct agg a;
	size_t i;

	s = xcalloc(1, sizeof(*s));
	s->group_by = spec->by;
	s->per_device = per_device;
	s->tab = tab_new("summary");
	scolumns(s, spec);
	agg_init(&a, t, spec, s);
	for (i = 0; i < t->nrows; i++) {
		const struct row *w = table_row(t, i);

		if (!(w->cls & ROW_SIGNPOST))
			add_row(&a, w);
	}
	if (a.ng == 0) {
		summary_free(s);
		s = NULL;
	} else {
		set_figures(&a);
		if (s->group_by == GROUP_KEYS)
			ops_cells(s, t, (const uint32_t (*)[2])a.pair, a.ptime, a.np);
		order_groups(s->tab, a.ng);
		set_percent(s->tab, a.ng, per_device);
	}
	agg_free(&a);
	return s;
}

void
summary_free(struct summary *s)
{
	if (s == NULL)
		return;
	tab_free(s->tab);
	free(s);
}

void
summary_top(struct summary *s, size_t n)
{
	if (n >= s->tab->nrows)
		return;
	/* the first n groups as they print, kept in the CSV's order */
	if (s->per_device)
		tab_sort(s->tab, by_device, 3);
	tab_truncate(s->tab, n);
	if (s->per_device)
		tab_sort(s->tab, by_time, 2);
}

size_t
summary_ndevices(const struct summary *s)
{
	struct names d;
	size_t i, n;

	names_init(&d);
	for (i = 0; i < s->tab->nrows; i++) {
		const struct tab_cell *c = tab_cell(s->tab, i, S_DEVICE);

		tab_group(&d, (const char *)&c->v.i, c->kind == TAB_INT ? sizeof(c->v.i) : 0);
	}
	n = d.n;
	names_free(&d);
	return n;
}

/* --- text, Markdown, CSV ---------------------------------------------------------- */

/* The table as it prints: per device, in the text's order. */
static void
sprint(FILE *fp, const struct summary *s, size_t width, int flags)
{
	struct tab *p = s->tab;

	if (s->per_device) {
		p = tab_copy(s->tab, "summary");
		tab_sort(p, by_device, 3);
	}
	if (s->group_by == GROUP_KEYS)
		flags |= TAB_PRINT_TRIM;
	tab_print(p, fp, 0, width, flags);
	if (p != s->tab)
		tab_free(p);
}

void
summary_print(FILE *fp, const struct summary *s, int colour, size_t width)
{
	fputs("\n\xf0\x9f\x93\x8a Stacked report \xf0\x9f\x93\x8a\n====================\n\n", fp);
	sprint(fp, s, width, TAB_PRINT_ENDRULE | (colour ? TAB_PRINT_COLOUR : 0));
}

const struct tab *
summary_tab(const struct summary *s)
{
	return s->tab;
}

void
summary_markdown(FILE *fp, const struct summary *s)
{
	sprint(fp, s, 0, TAB_PRINT_MD);
}

int
summary_write_csv(const char *path, const struct summary *s)
{
	struct error err = ERROR_INIT;
	struct outfile *f;
	int e;

	/* through a temporary renamed into place: never half-written, never through a link */
	if ((f = outfile_open(path, &err)) == NULL) {
		error_free(&err);
		return -1;
	}
	if (tab_write_csv(s->tab, outfile_fp(f)) != 0) {
		e = errno ? errno : EIO;
		outfile_abort(f);
		errno = e;
		return -1;
	}
	e = outfile_commit(f, &err);
	error_free(&err);
	return e;
}

/* --- the plot -------------------------------------------------------------------- */

static long
row_device(const struct summary *s, size_t i)
{
	const struct tab_cell *c = tab_cell(s->tab, i, S_DEVICE);

	return c->kind == TAB_INT ? (long)c->v.i : -1;
}

/* The plot's segment of summary row j. */
static void
plot_seg_of(const struct summary *s, size_t j, struct plot_seg *p)
{
	const struct tab *t = s->tab;

	p->label = tab_str(t, j, S_LABEL);
	p->category = tab_str(t, j, S_CAT);
	p->time_us = tab_num(t, j, S_TIME);
	p->count = (long)tab_num(t, j, S_COUNT);
	p->pct = tab_num(t, j, S_PCT);
	p->has_flops = !isnan(tab_num(t, j, S_MIN));
	p->fmin = tab_num(t, j, S_MIN);
	p->fmax = tab_num(t, j, S_MAX);
	p->fmean = tab_num(t, j, S_MEAN);
	p->has_std = !isnan(tab_num(t, j, S_STD));
	p->fstd = p->has_std ? tab_num(t, j, S_STD) : 0;
	p->has_wmean = !isnan(tab_num(t, j, S_WMEAN));
	p->fwmean = tab_num(t, j, S_WMEAN);
}

/* The bars (one per device, in order of first appearance) and their segments, each
 * bar's in the table's order (time descending); segs has room for every row. Returns
 * the number of bars. */
static size_t
plot_bars_of(const struct summary *s, struct plot_seg *segs, struct plot_bar *bars)
{
	size_t nbars = 0, i, j, n = 0;

	for (i = 0; i < s->tab->nrows; i++) {
		long dev = row_device(s, i);

		for (j = 0; j < nbars && bars[j].device != dev; j++)
			;
		if (j < nbars)
			continue;
		bars[nbars].device = dev;
		bars[nbars].segs = segs + n;
		for (j = i; j < s->tab->nrows; j++)
			if (row_device(s, j) == dev)
				plot_seg_of(s, j, &segs[n++]);
		bars[nbars].nsegs = (size_t)(segs + n - bars[nbars].segs);
		nbars++;
	}
	return nbars;
}

int
summary_write_svg(const char *path, const struct summary *s, int classic)
{
	return summary_write_plot(path, s, classic, CHART_SVG);
}

int
summary_write_plot(const char *path, const struct summary *s, int classic, int fmt)
{
	const struct tab *t = s->tab;
	struct plot_seg *segs;
	struct plot_bar *bars;
	size_t nbars, i, j;
	int rv, flags = 0;

	segs = xcalloc(t->nrows ? t->nrows : 1, sizeof(*segs));
	bars = xcalloc(t->nrows ? t->nrows : 1, sizeof(*bars));
	nbars = plot_bars_of(s, segs, bars);
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
	rv = fmt == CHART_SVG ? plot_svg(path, bars, nbars, flags) :
	    plot_chart(path, bars, nbars, flags, fmt);
	free(segs);
	free(bars);
	return rv;
}
