/* SPDX-License-Identifier: ISC */
/*
 * ttmetal: TT-Metal ops perf CSV rows to ttp records: column mapping by name for every
 * vintage (v1 plain shapes, v2 padded[logical] shapes, v2.1 arch and worker cores, the
 * newer and tt-mlir columns), strict cell typing, multi-file merging, format and arch
 * resolution with tt-perf-report's messages, and the (stable) HOST START TS order.
 *
 * Output strategy: a record is built whole in a buffer by the record builder (rec.h), so
 * an error in a row emits nothing of it, in two parts, head and tail, with the v2.1 "arch"/"worker_cores" pair
 * in between, since those are known only once a row says them. Records go straight to
 * the sink when the order is known to be right (a fast first pass over regular files, or
 * --no-sort) and the pair is resolved; otherwise to a spool file with a compact index
 * that is sorted (stably) and written out at the end.
 *
 * Errors: bad input found anywhere below ttm_parse (a cell, a header, the CSV reader's
 * own) goes through fail, which keeps it in the state and unwinds to ttm_parse with
 * longjmp; everything the run allocated hangs off the state, which ttm_parse frees before
 * it returns the error. No function between the two holds memory of its own.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/ckint.h"
#include "core/csvread.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/json.h"
#include "core/names.h"
#include "core/rec.h"
#include "core/numfmt.h"
#include "core/spool.h"
#include "tt/mlirloc.h"
#include "tt/ttmetal.h"

enum fmt { FMT_V1, FMT_V2, FMT_V21 };
static const char *const fmt_name[] = { "v1", "v2", "v2.1" };

struct tens {
	int	d[4];		/* W Z Y X column, -1 absent */
	int	pad[4];		/* column is *_PAD[LOGICAL] */
	int	layout, dtype, mem;
};

struct tfile {
	const char	*path;
	struct csvr	*r;
	char		*srcname;	/* "src" up to the line number: "<name>:" */
	int	c_op, c_type, c_call, c_dev, c_arch, c_wc, c_cores, c_fid, c_attrs;
	int	c_hs, c_he, c_dur, c_gap, c_tid, c_tsess, c_pmi, c_pmc, c_pmb;
	int	c_sub, c_loc, c_ceval, c_ilc, c_pmeta;
	struct tens	*in, *out;
	int		 nin, nout;
	unsigned char	*used;
	char		**ckey;		/* --all: each column's record key, or NULL */
	unsigned char	*strcol;	/* --all: always a string (hashes) */
	long long	 maxdev;	/* from the first pass */
	long long	*pdev;		/* the first pass: the distinct DEVICE IDs of ops, sorted */
	size_t		 npdev;
	int		 anydev;
	int		 scanned;
};

/* A list of signposts' names: id[i] is the i-th one's index in nm. */
struct sps {
	struct names	 nm;
	uint32_t	*id;
	size_t		 n, cap;
};

struct ent {
	long long	ts;
	uint64_t	off;
	uint32_t	hlen, tlen;
	unsigned char	hasts, isop;
};

struct st {
	const struct ttm_opts *o;
	struct tfile	*f;
	int		 nf;
	enum fmt	 fmt;
	int		 sorting;	/* sort by HOST START TS */
	int		 direct;	/* records go straight to the sink once resolved */
	FILE		*out;		/* the sink */

	/* v2.1 resolution */
	int		 arch_col, wc_col;	/* column present in some file */
	char		*arch;			/* resolved (normalised) */
	char		**arch_seen;		/* distinct raw values */
	int		 narch_seen;
	long long	 wc;
	long long	*wc_seen;
	int		 nwc_seen;
	int		 resolved;
	struct buf	 mid;			/* ,"arch":...,"worker_cores":N */

	/* merging */
	long long	 ndev;			/* device count of the first file */
	long		 id;

	/* records held back for the sort or for the arch pair */
	struct spool	*spool;
	struct ent	*ents;
	size_t		 nents, capents;

	struct buf	 head, tail;
	struct buf	 src;			/* a record's "src" */
	unsigned long	 nout;

	/* the leading "trace" record: written before the first record */
	int		 trace_done;
	int		 know_sp;		/* signposts and devices known before the first op */
	struct sps	 sp;			/* the signposts' names, in output order */
	long long	*devs;			/* distinct devices of ops (offset), sorted */
	size_t		 ndevs;
	int		 ids_asc;		/* ids ascend in output order */

	/* the tt-mlir columns */
	struct mlirloc	 loc;
	unsigned long	 nbadloc, nbadmeta;	/* warned about once, then counted */

	/* bad input: the error, and where ttm_parse waits for it */
	struct error	 err;
	jmp_buf		 fail;
};

/* Bad input at file:line (NULL, 0: none): back to ttm_parse, which returns it. */
static void __attribute__((noreturn, format(printf, 4, 5)))
fail(struct st *st, const char *file, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(&st->err, file, line, -1, fmt, ap);
	va_end(ap);
	longjmp(st->fail, 1);
}

/* The CSV reader's error, if it has one, as ours. */
static void
csv_check(struct st *st, const struct csvr *r)
{
	const struct error *e = csvr_error(r);

	if (e != NULL)
		fail(st, e->file, (long)e->line, "%s", e->msg);
}

/* --- cells ------------------------------------------------------------------------- */

struct cx {
	struct tfile		*tf;
	const struct csvr_row	*row;
	struct st		*st;
};

static void __attribute__((noreturn))
cell_fail(const struct cx *cx, int col, const char *what)
{
	const char *s = cx->row->f[col];
	size_t n = cx->row->len[col], show = n;
	const char *more = "";

	if (show > 60) {
		show = 60;
		while (show > 0 && ((unsigned char)s[show] & 0xC0) == 0x80)
			show--;
		more = "...";
	}
	fail(cx->st, csvr_name(cx->tf->r), cx->row->line, "%s: %s: \"%.*s%s\"",
	    csvr_colname(cx->tf->r, (size_t)col), what, (int)show, s, more);
}

enum { NUM_BAD, NUM_INT, NUM_REAL };

/* A cell's text as a JSON number (core/json.h's grammar): an integer when it is
 * digits after an optional '-', else real. */
static int
numclass(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || js_number_len(s, n) != n)
		return NUM_BAD;
	for (i = s[0] == '-'; i < n && isdigit((unsigned char)s[i]); i++)
		;
	return i == n ? NUM_INT : NUM_REAL;
}

/* Digits s[0..n) to a value; 0 on overflow. */
static int
digits(const char *s, size_t n, long long *v)
{
	unsigned long long u = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (u > (9223372036854775807ULL - d) / 10)
			return 0;
		u = u * 10 + d;
	}
	*v = (long long)u;
	return 1;
}

/* An integer cell (also "12.0"); nonneg: negative values are errors. */
static long long
cell_int(const struct cx *cx, int col, int nonneg)
{
	const char *s = cx->row->f[col];
	size_t n = cx->row->len[col], i, end;
	int k = numclass(s, n), neg;
	long long v;

	if (k == NUM_BAD)
		cell_fail(cx, col, "not a number");
	neg = s[0] == '-';
	i = neg;
	end = i;
	while (end < n && isdigit((unsigned char)s[end]))
		end++;
	if (k == NUM_REAL) {
		size_t j = end;

		if (s[j] != '.')
			cell_fail(cx, col, "not an integer");
		for (j++; j < n; j++)
			if (s[j] != '0')
				cell_fail(cx, col, "not an integer");
	}
	if (!digits(s + i, end - i, &v))
		cell_fail(cx, col, "out of range");
	if (neg) {
		if (nonneg && v != 0)
			cell_fail(cx, col, "negative value");
		v = -v;
	}
	return v;
}

/* A number cell written as it stands (validated, finite). */
static void
cell_num(struct rec_build *rb, const struct cx *cx, int col)
{
	const char *s = cx->row->f[col];
	size_t n = cx->row->len[col];
	int k = numclass(s, n);

	if (k == NUM_BAD)
		cell_fail(cx, col, "not a number");
	if (k == NUM_INT) {
		long long v;
		int neg = s[0] == '-';

		if (!digits(s + neg, n - neg, &v))
			cell_fail(cx, col, "out of range");
	} else {
		char *e;
		double d;

		errno = 0;
		d = strtod(s, &e);
		if (!isfinite(d))
			cell_fail(cx, col, "out of range");
	}
	rec_build_num(rb, s, n);
}

/* A shape cell: "P" or "P[L]" with non-negative integers. */
static void
cell_shape(const struct cx *cx, int col, long long *pad, long long *logical)
{
	const char *s = cx->row->f[col];
	size_t n = cx->row->len[col], i = 0, j;

	if (n > 0 && s[0] == '-' && n > 1 && isdigit((unsigned char)s[1]))
		cell_fail(cx, col, "negative value");
	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	if (i == 0 || (s[0] == '0' && i > 1))
		cell_fail(cx, col, "not a shape");
	if (!digits(s, i, pad))
		cell_fail(cx, col, "out of range");
	*logical = *pad;
	if (i == n)
		return;
	if (s[i] != '[' || s[n - 1] != ']')
		cell_fail(cx, col, "not a shape");
	i++;
	if (i < n && s[i] == '-')
		cell_fail(cx, col, "negative value");
	j = i;
	while (j < n && isdigit((unsigned char)s[j]))
		j++;
	if (j == i || j != n - 1 || (s[i] == '0' && j - i > 1))
		cell_fail(cx, col, "not a shape");
	if (!digits(s + i, j - i, logical))
		cell_fail(cx, col, "out of range");
}

static int
cell_bool(const struct cx *cx, int col)
{
	const char *s = cx->row->f[col];

	if (strcmp(s, "true") == 0 || strcmp(s, "True") == 0 || strcmp(s, "1") == 0)
		return 1;
	if (strcmp(s, "false") == 0 || strcmp(s, "False") == 0 || strcmp(s, "0") == 0)
		return 0;
	cell_fail(cx, col, "not a boolean");
}

#define HAS(cx, c) ((c) >= 0 && (cx)->row->len[(c)] > 0)

/* --- columns ----------------------------------------------------------------------- */

static const char *const contract_keys[] = {
	"kind", "id", "src", "op", "op_type", "call", "device", "fmt", "arch",
	"worker_cores", "cores", "fidelity", "attrs", "host_start_ns", "host_end_ns",
	"device_ns", "gap_ns", "in", "out", "trace_id", "trace_session", "pm_ideal_ns",
	"pm_compute_ns", "pm_bandwidth_ns", "sub_device", "loc", "loc_file", "loc_line",
	"loc_col", "loc_name", "loc_chain", "const_eval", "input_layout_conversion",
	"program_metadata", "program_index", "loop_number", "name", "message", NULL
};

static int
col(struct tfile *tf, const char *name)
{
	int c = csvr_col(tf->r, name);

	if (c >= 0)
		tf->used[c] = 1;
	return c;
}

static struct tens *
tens_at(struct tens **v, int *n, int idx)
{
	if (idx >= *n) {
		*v = xreallocarray(*v, (size_t)idx + 1, sizeof(**v));
		for (int i = *n; i <= idx; i++) {
			struct tens *t = &(*v)[i];

			for (int k = 0; k < 4; k++) {
				t->d[k] = -1;
				t->pad[k] = 0;
			}
			t->layout = t->dtype = t->mem = -1;
		}
		*n = idx + 1;
	}
	return &(*v)[idx];
}

/* INPUT_n_* / OUTPUT_n_* columns. */
static void
map_tensor(struct tfile *tf, int c, const char *name)
{
	struct tens **v;
	int *nv;
	const char *p;
	char *e;
	long idx;

	if (strncmp(name, "INPUT_", 6) == 0) {
		p = name + 6;
		v = &tf->in;
		nv = &tf->nin;
	} else if (strncmp(name, "OUTPUT_", 7) == 0) {
		p = name + 7;
		v = &tf->out;
		nv = &tf->nout;
	} else
		return;
	if (!isdigit((unsigned char)*p))
		return;
	errno = 0;
	idx = strtol(p, &e, 10);
	if (errno != 0 || idx > 1023 || *e != '_')
		return;
	e++;
	if (e[0] != '\0' && strchr("WZYX", e[0]) != NULL &&
	    (e[1] == '\0' || strcmp(e + 1, "_PAD[LOGICAL]") == 0)) {
		struct tens *t = tens_at(v, nv, (int)idx);
		int k = (int)(strchr("WZYX", e[0]) - "WZYX");

		t->d[k] = c;
		t->pad[k] = e[1] != '\0';
	} else if (strcmp(e, "LAYOUT") == 0)
		tens_at(v, nv, (int)idx)->layout = c;
	else if (strcmp(e, "DATATYPE") == 0 || strcmp(e, "DATA TYPE") == 0)
		tens_at(v, nv, (int)idx)->dtype = c;
	else if (strcmp(e, "MEMORY") == 0)
		tens_at(v, nv, (int)idx)->mem = c;
	else
		return;
	tf->used[c] = 1;
}

/* Whether cand is a contract key or the --all key of one of the first n columns. */
static int
key_taken(const struct tfile *tf, const char *cand, size_t n)
{
	for (int j = 0; contract_keys[j] != NULL; j++)
		if (strcmp(contract_keys[j], cand) == 0)
			return 1;
	for (size_t j = 0; j < n; j++)
		if (tf->ckey[j] != NULL && strcmp(tf->ckey[j], cand) == 0)
			return 1;
	return 0;
}

/* The --all key of column i, named name: keys stay unique, pandas-style ".1", ".2" for
 * repeats. */
static char *
unique_key(const struct tfile *tf, const char *name, size_t i)
{
	struct buf k = BUF_INIT;
	char *cand = xstrdup(name);

	for (int m = 1; key_taken(tf, cand, i); m++) {
		free(cand);
		buf_reset(&k);
		buf_printf(&k, "%s.%d", name, m);
		cand = xstrdup(k.p);
	}
	buf_free(&k);
	return cand;
}

/* --all: a key for each column that no key of the record reads, its header's name. */
static void
all_keys(struct tfile *tf)
{
	size_t nc = csvr_ncols(tf->r);

	tf->ckey = xcalloc(nc ? nc : 1, sizeof(*tf->ckey));
	tf->strcol = xcalloc(nc ? nc : 1, 1);
	for (size_t i = 0; i < nc; i++) {
		const char *name = csvr_colname(tf->r, i);

		if (tf->used[i])
			continue;
		tf->ckey[i] = unique_key(tf, name, i);
		/* hashes are names, not quantities: keep them text */
		tf->strcol[i] = strlen(name) >= 4 &&
		    strcmp(name + strlen(name) - 4, "HASH") == 0;
	}
}

static void
map_file(struct st *st, struct tfile *tf)
{
	struct csvr *r = tf->r;
	size_t nc = csvr_ncols(r);

	tf->used = xcalloc(nc ? nc : 1, 1);
	tf->c_op = col(tf, "OP CODE");
	tf->c_type = col(tf, "OP TYPE");
	if (tf->c_op < 0)
		fail(st, csvr_name(r), 1, "missing the 'OP CODE' column");
	if (tf->c_type < 0)
		fail(st, csvr_name(r), 1, "missing the 'OP TYPE' column");
	tf->c_dev = col(tf, "DEVICE ID");
	if (tf->c_dev < 0)
		fail(st, NULL, 0, "CSV '%s' is missing the 'DEVICE ID' column.", csvr_name(r));
	tf->c_call = col(tf, "GLOBAL CALL COUNT");
	tf->c_cores = col(tf, "CORE COUNT");
	tf->c_fid = col(tf, "MATH FIDELITY");
	tf->c_attrs = col(tf, "ATTRIBUTES");
	tf->c_hs = col(tf, "HOST START TS");
	tf->c_he = col(tf, "HOST END TS");
	tf->c_dur = col(tf, "DEVICE KERNEL DURATION [ns]");
	tf->c_gap = col(tf, "OP TO OP LATENCY [ns]");
	tf->c_tid = col(tf, "METAL TRACE ID");
	tf->c_tsess = col(tf, "METAL TRACE REPLAY SESSION ID");
	tf->c_pmi = col(tf, "PM IDEAL [ns]");
	tf->c_pmc = col(tf, "PM COMPUTE [ns]");
	tf->c_pmb = col(tf, "PM BANDWIDTH [ns]");
	tf->c_sub = col(tf, "SUB DEVICE ID");
	tf->c_loc = col(tf, "LOC");
	tf->c_ceval = col(tf, "CONST_EVAL_OP");
	tf->c_ilc = col(tf, "INPUT_LAYOUT_CONVERSION_OP");
	tf->c_pmeta = col(tf, "PROGRAM_METADATA");
	/* raw per-row values; the records carry the resolved ones */
	tf->c_arch = csvr_col(r, "DEVICE ARCH");
	tf->c_wc = csvr_col(r, "AVAILABLE WORKER CORE COUNT");
	for (size_t i = 0; i < nc; i++)
		map_tensor(tf, (int)i, csvr_colname(r, i));

	if (st->o->all)
		all_keys(tf);
	else {
		/* skip copying the cells nobody reads */
		for (size_t i = 0; i < nc; i++)
			csvr_want(r, i, tf->used[i] || (int)i == tf->c_arch ||
			    (int)i == tf->c_wc);
	}
	/* "src" is "<name>:<line>" */
	tf->srcname = xmalloc(strlen(csvr_name(r)) + 2);
	strcpy(tf->srcname, csvr_name(r));
	strcat(tf->srcname, ":");
}

/* --- v2.1 architecture and worker cores ---------------------------------------------- */

static char *
norm_arch(const char *raw)
{
	char *s = xstrdup(raw);

	for (char *p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	if (strcmp(s, "wormhole_b0") == 0) {
		free(s);
		s = xstrdup("wormhole");
	}
	return s;
}

static void
set_mid(struct st *st)
{
	struct rec_build rb;

	buf_reset(&st->mid);
	if (st->fmt != FMT_V21)
		return;
	rec_build_more(&rb, &st->mid);
	rec_build_key(&rb, "arch");
	rec_build_strz(&rb, st->arch ? st->arch : "wormhole");
	rec_build_key(&rb, "worker_cores");
	rec_build_int(&rb, st->wc > 0 ? st->wc : 64);
}

static void
track_arch(struct st *st, const struct cx *cx)
{
	struct tfile *tf = cx->tf;

	if (HAS(cx, tf->c_arch)) {
		const char *v = cx->row->f[tf->c_arch];
		int i;

		for (i = 0; i < st->narch_seen; i++)
			if (strcmp(st->arch_seen[i], v) == 0)
				break;
		if (i == st->narch_seen && st->narch_seen < 64) {
			st->arch_seen = xreallocarray(st->arch_seen,
			    (size_t)st->narch_seen + 1, sizeof(char *));
			st->arch_seen[st->narch_seen++] = xstrdup(v);
		}
		if (st->arch == NULL)
			st->arch = norm_arch(v);
	}
	if (HAS(cx, tf->c_wc)) {
		long long v = cell_int(cx, tf->c_wc, 1);
		int i;

		if (v != 0) {
			for (i = 0; i < st->nwc_seen; i++)
				if (st->wc_seen[i] == v)
					break;
			if (i == st->nwc_seen && st->nwc_seen < 64) {
				st->wc_seen = xreallocarray(st->wc_seen,
				    (size_t)st->nwc_seen + 1, sizeof(long long));
				st->wc_seen[st->nwc_seen++] = v;
			}
			if (st->wc == 0)
				st->wc = v;
		}
	}
	if (!st->resolved && (st->arch != NULL || !st->arch_col) &&
	    (st->wc != 0 || !st->wc_col)) {
		st->resolved = 1;
		set_mid(st);
	}
}

/* The messages of tt-perf-report's format/arch detection, after the whole input. */
static void
messages_end(struct st *st)
{
	struct buf b = BUF_INIT;

	if (st->fmt == FMT_V21) {
		if (!st->arch_col)
			note("DEVICE ARCH column not found. Defaulting to 'wormhole'.");
		else if (st->narch_seen == 0)
			note("No DEVICE ARCH values found. Defaulting to 'wormhole'.");
		else if (st->narch_seen > 1) {
			buf_addc(&b, '[');
			for (int i = 0; i < st->narch_seen; i++)
				buf_printf(&b, "%s'%s'", i ? ", " : "", st->arch_seen[i]);
			buf_addc(&b, ']');
			warning("Warning: Multiple DEVICE ARCH values found: %s. Using first value: '%s'.",
			    b.p, st->arch_seen[0]);
		}
		if (st->o->verbose)
			say("Using architecture from CSV: %s", st->arch ? st->arch : "wormhole");
		if (!st->wc_col)
			note("AVAILABLE WORKER CORE COUNT column not found. Defaulting to 64 cores.");
		else if (st->nwc_seen == 0)
			note("No non-zero AVAILABLE WORKER CORE COUNT values found. Defaulting to 64 cores.");
		else if (st->nwc_seen > 1) {
			buf_reset(&b);
			buf_addc(&b, '[');
			for (int i = 0; i < st->nwc_seen; i++)
				buf_printf(&b, "%s%lld", i ? ", " : "", st->wc_seen[i]);
			buf_addc(&b, ']');
			warning("Warning: Multiple AVAILABLE WORKER CORE COUNT values found: %s. Using first value: %lld.",
			    b.p, st->wc_seen[0]);
		}
		if (st->o->verbose)
			say("Architecture: %s, Worker cores: %lld",
			    st->arch ? st->arch : "wormhole", st->wc > 0 ? st->wc : 64);
	}
	if (st->nbadloc > 1)
		note("warning: %lu more row%s with a LOC that is not an MLIR location",
		    st->nbadloc - 1, st->nbadloc > 2 ? "s" : "");
	if (st->nbadmeta > 1)
		note("warning: %lu more row%s with a PROGRAM_METADATA that is not a dict",
		    st->nbadmeta - 1, st->nbadmeta > 2 ? "s" : "");
	if (st->sorting) {
		if (st->o->verbose)
			say("Sorting CSV by 'HOST START TS' column...");
	} else if (!st->o->nosort)
		warning("Warning: 'HOST START TS' column not found. CSV will not be sorted.");
	buf_free(&b);
}

/* --- records ------------------------------------------------------------------------ */

/* Member key from the cell of column col, when the cell is not empty: as a JSON string,
 * an integer (nonneg: negative is an error) or a number. */
static void
kv_str(struct rec_build *rb, const struct cx *cx, const char *key, int col)
{
	if (HAS(cx, col)) {
		rec_build_key(rb, key);
		rec_build_str(rb, cx->row->f[col], cx->row->len[col]);
	}
}

static void
kv_int(struct rec_build *rb, const struct cx *cx, const char *key, int col, int nonneg)
{
	if (HAS(cx, col)) {
		rec_build_key(rb, key);
		rec_build_int(rb, cell_int(cx, col, nonneg));
	}
}

static void
kv_num(struct rec_build *rb, const struct cx *cx, const char *key, int col)
{
	if (HAS(cx, col)) {
		rec_build_key(rb, key);
		cell_num(rb, cx, col);
	}
}

static void
int4(struct rec_build *rb, const char *key, const long long v[4])
{
	rec_build_key(rb, key);
	rec_build_array(rb);
	for (int k = 0; k < 4; k++)
		rec_build_int(rb, v[k]);
	rec_build_end_array(rb);
}

/* The member key of the tensor array ("in", "out"): groups in index order, empty ones
 * null, trailing ones dropped; nothing when every group is empty. */
static void
tensors(struct rec_build *rb, const struct cx *cx, const char *key, const struct tens *tv,
    int nt)
{
	struct rec_build_mark start = rec_build_mark(rb), keep = start;

	rec_build_key(rb, key);
	rec_build_array(rb);
	for (int i = 0; i < nt; i++) {
		const struct tens *t = &tv[i];
		long long pad[4], lg[4];
		int nd = 0;
		struct rec_build_mark group = rec_build_mark(rb), empty;

		for (int k = 0; k < 4; k++)
			if (HAS(cx, t->d[k])) {
				cell_shape(cx, t->d[k], &pad[k], &lg[k]);
				nd++;
			}
		rec_build_object(rb);
		empty = rec_build_mark(rb);
		if (nd == 4) {
			/* As the record readers require (tensor.h): at most 2^53 elements. */
			long long e = 1, el = 1;

			for (int k = 0; k < 4; k++)
				if (__builtin_mul_overflow(e, pad[k], &e) || e > (1LL << 53) ||
				    __builtin_mul_overflow(el, lg[k], &el) || el > (1LL << 53))
					cell_fail(cx, t->d[3], "tensor of more than 2^53 elements");
			int4(rb, "shape", pad);
			/* the logical extents only where padding makes them differ */
			if (memcmp(pad, lg, sizeof(pad)) != 0)
				int4(rb, "logical", lg);
		}
		kv_str(rb, cx, "layout", t->layout);
		kv_str(rb, cx, "dtype", t->dtype);
		kv_str(rb, cx, "mem", t->mem);
		if (rec_build_mark(rb).len != empty.len) {
			rec_build_end_object(rb);
			keep = rec_build_mark(rb);
		} else {
			rec_build_rewind(rb, group);
			rec_build_null(rb);
		}
	}
	rec_build_rewind(rb, keep);
	if (keep.len != start.len)
		rec_build_end_array(rb);
}

static void
all_cols(struct rec_build *rb, const struct cx *cx)
{
	struct tfile *tf = cx->tf;
	size_t nc = csvr_ncols(tf->r);

	for (size_t i = 0; i < nc; i++) {
		const char *s;
		size_t n;
		int k;

		if (tf->ckey[i] == NULL || cx->row->len[i] == 0)
			continue;
		s = cx->row->f[i];
		n = cx->row->len[i];
		rec_build_keyn(rb, tf->ckey[i], strlen(tf->ckey[i]));
		k = tf->strcol[i] ? NUM_BAD : numclass(s, n);
		if (k == NUM_INT) {
			long long v;

			if (digits(s + (s[0] == '-'), n - (s[0] == '-'), &v)) {
				rec_build_num(rb, s, n);
				continue;
			}
		} else if (k == NUM_REAL && isfinite(strtod(s, NULL))) {
			rec_build_num(rb, s, n);
			continue;
		}
		rec_build_str(rb, s, n);
	}
}

/* A cell of a tt-mlir column that does not read: a warning for the first, then a
 * count (messages_end); the text itself stays in the record. */
static void
mlir_bad(unsigned long *count, const struct cx *cx, int col, const char *what,
    const char *err, size_t at)
{
	if ((*count)++ == 0)
		warn_at(csvr_name(cx->tf->r), cx->row->line, "warning: %s: not %s (byte %zu: "
		    "%s): \"%.60s%s\"; kept as text", csvr_colname(cx->tf->r, (size_t)col),
		    what, at, err, cx->row->f[col], cx->row->len[col] > 60 ? "..." : "");
}

/* LOC (tt-mlir): the text, unless loc(unknown), and its file, line, column, name and
 * chain of frames. */
static void
loc_keys(struct st *st, struct rec_build *rb, const struct cx *cx)
{
	struct mlirloc *l = &st->loc;
	int c = cx->tf->c_loc;
	const char *s = cx->row->f[c], *err;
	size_t n = cx->row->len[c], at;
	int ok = mlirloc_parse(l, s, n, &err, &at) == 0;

	if (!ok)
		mlir_bad(&st->nbadloc, cx, c, "an MLIR location", err, at);
	if (!ok || l->nframes > 0) {	/* loc(unknown): no keys */
		rec_build_key(rb, "loc");
		rec_build_str(rb, s, n);
	}
	if (!ok || l->nframes == 0)
		return;
	if (l->file != NULL) {
		rec_build_key(rb, "loc_file");
		rec_build_strz(rb, l->file);
		rec_build_key(rb, "loc_line");
		rec_build_int(rb, l->line);
		if (l->col >= 0) {
			rec_build_key(rb, "loc_col");
			rec_build_int(rb, l->col);
		}
	}
	if (l->name != NULL) {
		rec_build_key(rb, "loc_name");
		rec_build_strz(rb, l->name);
	}
	rec_build_key(rb, "loc_chain");
	rec_build_array(rb);
	for (size_t k = 0; k < l->nframes; k++)
		rec_build_strz(rb, l->frames[k]);
	rec_build_end_array(rb);
}

/* PROGRAM_METADATA (tt-mlir): the program's index and loop number, and the text. */
static void
program_keys(struct st *st, struct rec_build *rb, const struct cx *cx)
{
	int c = cx->tf->c_pmeta;
	const char *s = cx->row->f[c], *err;
	size_t n = cx->row->len[c], at;
	long long prog, loop;
	int ok = mlir_program_meta(s, n, &prog, &loop, &err, &at) == 0;

	if (!ok)
		mlir_bad(&st->nbadmeta, cx, c, "a dict", err, at);
	/* the text too, as for LOC: it may hold more than the two numbers */
	if (!ok || prog >= 0 || loop >= 0 || n > 2) {
		rec_build_key(rb, "program_metadata");
		rec_build_str(rb, s, n);
	}
	if (prog >= 0) {
		rec_build_key(rb, "program_index");
		rec_build_int(rb, prog);
	}
	if (loop >= 0) {
		rec_build_key(rb, "loop_number");
		rec_build_int(rb, loop);
	}
}

/* LOC, CONST_EVAL_OP, INPUT_LAYOUT_CONVERSION_OP, PROGRAM_METADATA (tt-mlir), as
 * members of the record being built. */
static void
mlir_cols(struct st *st, struct rec_build *rb, const struct cx *cx)
{
	const struct tfile *tf = cx->tf;

	if (HAS(cx, tf->c_loc))
		loc_keys(st, rb, cx);
	if (HAS(cx, tf->c_ceval)) {
		rec_build_key(rb, "const_eval");
		rec_build_bool(rb, cell_bool(cx, tf->c_ceval));
	}
	if (HAS(cx, tf->c_ilc)) {
		rec_build_key(rb, "input_layout_conversion");
		rec_build_bool(rb, cell_bool(cx, tf->c_ilc));
	}
	if (HAS(cx, tf->c_pmeta))
		program_keys(st, rb, cx);
}

static void
hold(struct st *st, int hasts, long long ts, int isop)
{
	struct ent *e;

	if (st->spool == NULL)
		st->spool = spool_open();
	if (st->head.len > UINT32_MAX || st->tail.len > UINT32_MAX)
		fail(st, NULL, 0, "record too large");
	st->ents = xgrow(st->ents, &st->capents, st->nents + 1, sizeof(*st->ents));
	e = &st->ents[st->nents++];
	e->ts = ts;
	e->hasts = (unsigned char)hasts;
	e->isop = (unsigned char)isop;
	e->off = spool_add(st->spool, st->head.p, st->head.len);
	if (st->tail.len)
		spool_add(st->spool, st->tail.p, st->tail.len);
	e->hlen = (uint32_t)st->head.len;
	e->tlen = (uint32_t)st->tail.len;
}

static void
out_write(struct st *st, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, st->out) != n)
		io_write_error(st->out, "stdout");
}

/* Add d to the sorted set *v of *n values. */
static void
devset_add(long long **v, size_t *n, long long d)
{
	size_t lo = 0, hi = *n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if ((*v)[mid] == d)
			return;
		if ((*v)[mid] < d)
			lo = mid + 1;
		else
			hi = mid;
	}
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	memmove(*v + lo + 1, *v + lo, (*n - lo) * sizeof(**v));
	(*v)[lo] = d;
	(*n)++;
}

static void
sps_add(struct sps *l, const char *s, size_t n)
{
	l->id = xgrow(l->id, &l->cap, l->n + 1, sizeof(*l->id));
	l->id[l->n++] = names_intern(&l->nm, s, n);
}

/*
 * The leading "trace" record (ttp-record(5)): the input, its format and, when they are
 * known before the first record goes out (they are not when one file streams unread:
 * --no-sort, or no HOST START TS), its devices and its signposts in output order, so
 * that ttp-filter can stream; and whether ids ascend in output order.
 */
static void
trace_record(struct st *st)
{
	struct buf b = BUF_INIT;
	struct rec_build rb;

	st->trace_done = 1;
	rec_build_begin(&rb, &b);
	rec_build_key(&rb, "kind");
	rec_build_strz(&rb, "trace");
	rec_build_key(&rb, "trace");
	rec_build_strz(&rb, "ttmetal");
	if (st->nf == 1) {
		rec_build_key(&rb, "file");
		rec_build_strz(&rb, csvr_name(st->f[0].r));
	} else {
		rec_build_key(&rb, "files");
		rec_build_array(&rb);
		for (int k = 0; k < st->nf; k++)
			rec_build_strz(&rb, csvr_name(st->f[k].r));
		rec_build_end_array(&rb);
	}
	rec_build_key(&rb, "format");
	rec_build_strz(&rb, "ttmetal");
	rec_build_key(&rb, "fmt");
	rec_build_strz(&rb, fmt_name[st->fmt]);
	if (st->know_sp) {
		rec_build_key(&rb, "devices");
		rec_build_array(&rb);
		for (size_t i = 0; i < st->ndevs; i++)
			rec_build_int(&rb, st->devs[i]);
		rec_build_end_array(&rb);
		rec_build_key(&rb, "signposts");
		rec_build_array(&rb);
		for (size_t i = 0; i < st->sp.n; i++)
			rec_build_str(&rb, st->sp.nm.str[st->sp.id[i]],
			    st->sp.nm.len[st->sp.id[i]]);
		rec_build_end_array(&rb);
	}
	rec_build_key(&rb, "ids_ascending");
	rec_build_bool(&rb, st->ids_asc);
	rec_build_end(&rb);
	out_write(st, b.p, b.len);
	buf_free(&b);
}

/* A signpost's name, read back from its spooled record p[0..n) (a whole record: a
 * signpost has no middle part). */
static void
sp_add_spooled(struct sps *sp, const char *p, size_t n)
{
	struct error err = ERROR_INIT;
	struct rec *r = rec_parse(p, n - 1, "-", &err);
	const char *name;
	size_t len = 0;

	if (r == NULL)
		error_die(&err);
	if ((name = rec_str(r, "name", &len)) == NULL)
		name = "";
	sps_add(sp, name, len);
	rec_free(r);
}

static void
emit(struct st *st, const char *h, size_t hl, const char *t, size_t tl, int isop)
{
	if (!st->trace_done)
		trace_record(st);
	out_write(st, h, hl);
	if (isop && st->mid.len)
		out_write(st, st->mid.p, st->mid.len);
	out_write(st, t, tl);
	if ((++st->nout & 1023) == 0 && ferror(st->out))
		io_write_error(st->out, "stdout");
}

static int
ent_cmp(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	if (x->hasts != y->hasts)
		return x->hasts ? -1 : 1;
	if (x->hasts && x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Write the records held back (sorted first if sort) and empty the spool. */
static void
release(struct st *st, int sort)
{
	if (st->nents == 0)
		return;
	if (sort)
		qsort(st->ents, st->nents, sizeof(*st->ents), ent_cmp);
	if (!st->trace_done && !st->direct) {
		/* the whole input is here: its signposts in output order */
		st->know_sp = 1;
		st->ids_asc = 1;
		for (size_t i = 0; i < st->nents; i++) {
			struct ent *e = &st->ents[i];

			if (i > 0 && e->off < st->ents[i - 1].off)
				st->ids_asc = 0;
			if (!e->isop)
				sp_add_spooled(&st->sp, spool_get(st->spool, e->off,
				    (size_t)e->hlen + e->tlen), (size_t)e->hlen + e->tlen);
		}
	}
	for (size_t i = 0; i < st->nents; i++) {
		struct ent *e = &st->ents[i];
		const char *p = spool_get(st->spool, e->off, (size_t)e->hlen + e->tlen);

		emit(st, p, e->hlen, p + e->hlen, e->tlen, e->isop);
	}
	st->nents = 0;
	spool_reset(st->spool);
}

/* The keys every record of a row begins with: kind, trace, id and src ("file:line"). */
static void
row_begin(struct rec_build *rb, const struct cx *cx, int isop)
{
	struct st *st = cx->st;

	rec_build_key(rb, "kind");
	rec_build_word(rb, isop ? "op" : "signpost");
	rec_build_key(rb, "trace");
	rec_build_word(rb, "ttmetal");
	rec_build_key(rb, "id");
	rec_build_int(rb, st->id);
	rec_build_key(rb, "src");
	buf_reset(&st->src);
	buf_adds(&st->src, cx->tf->srcname);
	buf_grow(&st->src, NUM_INTSZ);
	st->src.len += num_int(st->src.p + st->src.len, cx->row->line, 0);
	rec_build_str(rb, st->src.p, st->src.len);
}

static void
kv_host_start(struct rec_build *rb, int hasts, long long ts)
{
	if (hasts) {
		rec_build_key(rb, "host_start_ns");
		rec_build_int(rb, ts);
	}
}

/* The rest of a signpost's record: its name and message. */
static void
signpost_keys(struct rec_build *rb, const struct cx *cx, int hasts, long long ts)
{
	const struct tfile *tf = cx->tf;

	kv_str(rb, cx, "name", tf->c_op);
	kv_str(rb, cx, "message", tf->c_attrs);
	kv_host_start(rb, hasts, ts);
	if (cx->st->o->all)
		all_cols(rb, cx);
	rec_build_end(rb);
}

/* Device d of file k numbered after the devices of the files before it
 * (docs/tt-perf-report.md §3): d + k × ndev. False when that, or the device count d + 1, is
 * beyond 64 bits. */
static int
dev_number(const struct st *st, long long d, int k, long long *out)
{
	long long off, n;

	return ck_add_i64(d, 1, &n) && ck_mul_i64(k, st->ndev, &off) &&
	    ck_add_i64(d, off, out);
}

/* An op's DEVICE ID, numbered after the devices of the files before file k
 * (docs/tt-perf-report.md §3). */
static void
op_device(struct rec_build *rb, const struct cx *cx, int k)
{
	struct st *st = cx->st;
	struct tfile *tf = cx->tf;
	long long d = cell_int(cx, tf->c_dev, 1), num;

	if (!dev_number(st, d, k, &num))
		cell_fail(cx, tf->c_dev, k == 0 ? "out of range" :
		    "out of range when numbered after the devices of the files before");
	if (!tf->anydev || d > tf->maxdev)
		tf->maxdev = d;
	tf->anydev = 1;
	rec_build_key(rb, "device");
	rec_build_int(rb, num);
	if (!st->direct)
		devset_add(&st->devs, &st->ndevs, num);
}

/* The rest of an op's record: the head, then the tail (st->tail), since arch and
 * worker_cores go between them (st->mid); the format is the trace record's. */
static void
op_keys(struct rec_build *rb, const struct cx *cx, int k, int hasts, long long ts)
{
	const struct tfile *tf = cx->tf;

	kv_str(rb, cx, "op", tf->c_op);
	kv_str(rb, cx, "op_type", tf->c_type);
	kv_int(rb, cx, "call", tf->c_call, 1);
	if (HAS(cx, tf->c_dev))
		op_device(rb, cx, k);
	rec_build_more(rb, &cx->st->tail);
	kv_int(rb, cx, "cores", tf->c_cores, 1);
	kv_str(rb, cx, "fidelity", tf->c_fid);
	kv_str(rb, cx, "attrs", tf->c_attrs);
	kv_host_start(rb, hasts, ts);
	kv_int(rb, cx, "host_end_ns", tf->c_he, 0);
	kv_num(rb, cx, "device_ns", tf->c_dur);
	kv_num(rb, cx, "gap_ns", tf->c_gap);
	if (tf->nin)
		tensors(rb, cx, "in", tf->in, tf->nin);
	if (tf->nout)
		tensors(rb, cx, "out", tf->out, tf->nout);
	kv_int(rb, cx, "trace_id", tf->c_tid, 1);
	kv_int(rb, cx, "trace_session", tf->c_tsess, 1);
	kv_num(rb, cx, "pm_ideal_ns", tf->c_pmi);
	kv_num(rb, cx, "pm_compute_ns", tf->c_pmc);
	kv_num(rb, cx, "pm_bandwidth_ns", tf->c_pmb);
	kv_int(rb, cx, "sub_device", tf->c_sub, 1);
	mlir_cols(cx->st, rb, cx);
	if (cx->st->o->all)
		all_cols(rb, cx);
	rec_build_end(rb);
}

static void
do_row(struct st *st, struct tfile *tf, int k, const struct csvr_row *row)
{
	struct cx cx = { tf, row, st };
	struct buf *h = &st->head, *t = &st->tail;
	struct rec_build rb;
	int isop, hasts = 0;
	long long ts = 0;

	st->id++;
	if (st->fmt == FMT_V21)
		track_arch(st, &cx);
	buf_reset(h);
	buf_reset(t);
	isop = !(row->len[tf->c_type] == 8 && memcmp(row->f[tf->c_type], "signpost", 8) == 0);
	if (HAS(&cx, tf->c_hs)) {
		ts = cell_int(&cx, tf->c_hs, 0);
		hasts = 1;
	}
	rec_build_begin(&rb, h);
	row_begin(&rb, &cx, isop);
	if (isop)
		op_keys(&rb, &cx, k, hasts, ts);
	else
		signpost_keys(&rb, &cx, hasts, ts);
	if (st->direct && st->resolved) {
		if (st->nents)
			release(st, 0);
		emit(st, h->p, h->len, t->p, t->len, isop);
	} else
		hold(st, hasts, ts, isop);
}

/* --- first pass: is the input already in order? -------------------------------------- */

struct pscan {
	int		sorted, tsless, have_prev, stop_unsorted;
	long long	prev;
	struct sps	*sp;	/* the signposts' names, as for st.sp */
};

/* How a line of the first pass leaves it: go on, stop (the order is known to be wrong,
 * and that is all the caller asked), or fail (the pass cannot tell). */
enum pscan_how { PS_MORE, PS_STOP, PS_FAIL };

static int
simple_int(const char *s, size_t n, long long *v, int nonneg)
{
	int neg = n > 0 && s[0] == '-';

	if (numclass(s, n) != NUM_INT || (neg && nonneg))
		return 0;
	if (!digits(s + neg, n - neg, v))
		return 0;
	if (neg)
		*v = -*v;
	return 1;
}

/* The file of the first pass, open, when it is a regular file; else -1. */
static int
pscan_open(const char *path)
{
	struct stat sb;
	int fd;

	if (strcmp(path, "-") == 0)
		return -1;
	/* a FIFO must not be opened twice: look before opening */
	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
		return -1;
	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The first pass reads its file by lines with read(2) into one growing block: no stdio,
 * no copy of a line. */
struct plines {
	int	 fd, eof;
	int	 sniff;		/* the header is still to come: look for gzip's magic */
	char	*b;
	size_t	 cap, len, pos;
};

/* The next line of pl in *s and *n, without its LF or CR LF; *last when it is the text
 * after the file's last LF (maybe empty). Returns 0 on a read error or a gzip file. */
static int
plines_next(struct plines *pl, const char **s, size_t *n, int *last)
{
	char *nl;
	ssize_t m;

	while ((nl = memchr(pl->b + pl->pos, '\n', pl->len - pl->pos)) == NULL && !pl->eof) {
		memmove(pl->b, pl->b + pl->pos, pl->len - pl->pos);
		pl->len -= pl->pos;
		pl->pos = 0;
		pl->b = xgrow(pl->b, &pl->cap, pl->len + 1, 1);
		if ((m = read(pl->fd, pl->b + pl->len, pl->cap - pl->len)) < 0)
			return 0;
		if (m == 0)
			pl->eof = 1;
		if (pl->sniff && pl->len == 0 && m >= 2 &&
		    (unsigned char)pl->b[0] == 0x1f && (unsigned char)pl->b[1] == 0x8b)
			return 0;
		pl->len += (size_t)m;
	}
	*s = pl->b + pl->pos;
	*n = nl ? (size_t)(nl - *s) : pl->len - pl->pos;
	pl->pos = nl ? (size_t)(nl - pl->b) + 1 : pl->len;
	if (*n > 0 && (*s)[*n - 1] == '\r')
		(*n)--;
	*last = nl == NULL;
	return 1;
}

/* The columns the first pass looks at, and the fields of the line split last. */
struct pcols {
	int		 hs, dv, ty, oc;	/* HOST START TS, DEVICE ID, OP TYPE, OP CODE */
	size_t		 need;		/* a data line is split only as far as these */
	const char	**fs;
	size_t		*fl;
};

/* Find the columns in the header line s. Returns 0, with nothing found, for a blank line
 * before the header, unless it is the file's last. */
static int
pcols_header(struct pcols *pc, const char *s, size_t n, int last)
{
	size_t nf, nfl = 1;
	int i, max;

	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
		s += 3;
		n -= 3;
	}
	if (n == 0 && !last)
		return 0;
	for (const char *c = s; (c = memchr(c, ',', n - (size_t)(c - s))) != NULL; c++)
		nfl++;
	pc->fs = xreallocarray(NULL, nfl, sizeof(*pc->fs));
	pc->fl = xreallocarray(NULL, nfl, sizeof(*pc->fl));
	nf = csv_split_plain(s, n, nfl, pc->fs, pc->fl);
	for (i = (int)nf - 1; i >= 0; i--) {
		if (pc->fl[i] == 13 && memcmp(pc->fs[i], "HOST START TS", 13) == 0)
			pc->hs = i;
		if (pc->fl[i] == 9 && memcmp(pc->fs[i], "DEVICE ID", 9) == 0)
			pc->dv = i;
		if (pc->fl[i] == 7 && memcmp(pc->fs[i], "OP TYPE", 7) == 0)
			pc->ty = i;
		if (pc->fl[i] == 7 && memcmp(pc->fs[i], "OP CODE", 7) == 0)
			pc->oc = i;
	}
	max = pc->hs > pc->dv ? pc->hs : pc->dv;
	if (pc->ty > max)
		max = pc->ty;
	if (pc->oc > max)
		max = pc->oc;
	pc->need = (size_t)(1 + max);
	return 1;
}

/* Field col (-1: no such column) of a data line split into nf fields, if it has one. */
static int
pcols_cell(const struct pcols *pc, size_t nf, int col, const char **s, size_t *n)
{
	if (col < 0 || (size_t)col >= nf)
		return 0;
	*s = pc->fs[col];
	*n = pc->fl[col];
	return 1;
}

/* A data line: a signpost's name, the line's HOST START TS against the order so far, its
 * DEVICE ID against the largest. */
static enum pscan_how
pscan_row(struct tfile *tf, struct pscan *ps, const struct pcols *pc, const char *s,
    size_t n)
{
	size_t nf = csv_split_plain(s, n, pc->need, pc->fs, pc->fl), cn;
	const char *c;
	int isop = 1;
	long long v;

	if (pcols_cell(pc, nf, pc->ty, &c, &cn) && cn == 8 && memcmp(c, "signpost", 8) == 0) {
		isop = 0;
		if (pcols_cell(pc, nf, pc->oc, &c, &cn))
			sps_add(ps->sp, c, cn);
		else
			sps_add(ps->sp, "", 0);
	}
	if (!pcols_cell(pc, nf, pc->hs, &c, &cn) || cn == 0)
		ps->tsless = 1;
	else if (!simple_int(c, cn, &v, 0))
		return PS_FAIL;
	else {
		if (ps->tsless || (ps->have_prev && v < ps->prev))
			ps->sorted = 0;
		ps->prev = v;
		ps->have_prev = 1;
	}
	if (!ps->sorted && ps->stop_unsorted)
		return PS_STOP;
	if (pcols_cell(pc, nf, pc->dv, &c, &cn) && cn > 0) {
		/* the largest ID: its count overflows; the second pass says where */
		if (!simple_int(c, cn, &v, 1) || v == LLONG_MAX)
			return PS_FAIL;
		if (!tf->anydev || v > tf->maxdev)
			tf->maxdev = v;
		tf->anydev = 1;
		if (isop)
			devset_add(&tf->pdev, &tf->npdev, v);
	}
	return PS_MORE;
}

/* Scan a regular, uncompressed, unquoted file for its HOST START TS order and its
 * largest DEVICE ID. Returns 0 when the pass cannot tell (then the spool decides). */
static int
prescan(struct tfile *tf, struct pscan *ps)
{
	struct plines pl = { -1, 0, 1, NULL, 1 << 20, 0, 0 };
	struct pcols pc = { -1, -1, -1, -1, 0, NULL, NULL };
	enum pscan_how how = PS_MORE;
	const char *s;
	size_t n;
	int last = 0;

	if ((pl.fd = pscan_open(tf->path)) < 0)
		return 0;
	pl.b = xmalloc(pl.cap);
	tf->anydev = 0;
	tf->maxdev = 0;
	while (how == PS_MORE && !last) {
		if (!plines_next(&pl, &s, &n, &last))
			how = PS_FAIL;
		/* a quote (a cell may span lines) or a lone CR (it ends a row): libcsv's
		 * rows are not the lines; the spool decides */
		else if (memchr(s, '"', n) != NULL || memchr(s, '\r', n) != NULL)
			how = PS_FAIL;
		else if (pl.sniff) {
			if (pcols_header(&pc, s, n, last))
				pl.sniff = 0;
		} else if (n > 0)
			how = pscan_row(tf, ps, &pc, s, n);
	}
	free(pc.fs);
	free(pc.fl);
	free(pl.b);
	close(pl.fd);
	return how != PS_FAIL;
}

/* --- driver -------------------------------------------------------------------------- */

static void
check_devices(struct st *st, int k)
{
	struct tfile *tf = &st->f[k];
	/* maxdev < LLONG_MAX: op_device and pscan_row refuse the largest ID */
	long long n = tf->anydev ? tf->maxdev + 1 : 0;

	if (k == 0) {
		st->ndev = n;
		return;
	}
	if (n != st->ndev) {
		if (tf->anydev)
			fail(st, NULL, 0, "CSV '%s' reports max device ID %lld, expected %lld",
			    csvr_name(tf->r), tf->maxdev, st->ndev - 1);
		fail(st, NULL, 0, "CSV '%s' reports max device ID nan, expected %lld",
		    csvr_name(tf->r), st->ndev - 1);
	}
}

/* The same file named twice (a slip of the shell's history) merges a trace with itself:
 * every op counted twice. The reference does it silently; a warning says so. */
static void
same_files(char **paths, int npaths)
{
	struct stat a, b;

	for (int i = 0; i < npaths; i++) {
		if (strcmp(paths[i], "-") == 0 || stat(paths[i], &a) != 0)
			continue;
		for (int j = i + 1; j < npaths; j++) {
			if (strcmp(paths[j], "-") == 0 || stat(paths[j], &b) != 0)
				continue;
			if (a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
				warning("warning: %s and %s are the same file: it is merged with "
				    "itself and its ops are counted twice", paths[i], paths[j]);
				break;
			}
		}
	}
}

/* Everything st holds (a run that stopped half way included). */
static void
st_free(struct st *st)
{
	for (int k = 0; k < st->nf; k++) {
		struct tfile *tf = &st->f[k];

		if (tf->ckey)
			for (size_t i = 0; i < csvr_ncols(tf->r); i++)
				free(tf->ckey[i]);
		free(tf->ckey);
		free(tf->strcol);
		csvr_close(tf->r);
		free(tf->used);
		free(tf->in);
		free(tf->out);
		free(tf->srcname);
		free(tf->pdev);
	}
	free(st->f);
	spool_close(st->spool);
	free(st->ents);
	free(st->arch);
	for (int i = 0; i < st->narch_seen; i++)
		free(st->arch_seen[i]);
	free(st->arch_seen);
	free(st->wc_seen);
	buf_free(&st->head);
	buf_free(&st->tail);
	buf_free(&st->mid);
	buf_free(&st->src);
	names_free(&st->sp.nm);
	free(st->sp.id);
	free(st->devs);
	mlirloc_free(&st->loc);
	error_free(&st->err);
}

/* Open every file and map its columns: all headers first, since the format is decided
 * over the union of columns. Returns whether any file has HOST START TS. */
static int
open_files(struct st *st, char **paths, int npaths)
{
	int anyhs = 0, anypad = 0;

	for (int k = 0; k < npaths; k++) {
		struct tfile *tf = &st->f[k];

		tf->path = paths[k];
		tf->r = csvr_open(paths[k]);
		csv_check(st, tf->r);
		map_file(st, tf);
		if (tf->c_arch >= 0)
			st->arch_col = 1;
		if (tf->c_wc >= 0)
			st->wc_col = 1;
		if (tf->c_hs >= 0)
			anyhs = 1;
		for (size_t i = 0; i < csvr_ncols(tf->r); i++)
			if (strstr(csvr_colname(tf->r, i), "_PAD[LOGICAL]") != NULL)
				anypad = 1;
	}
	st->fmt = (st->arch_col || st->wc_col) ? FMT_V21 : anypad ? FMT_V2 : FMT_V1;
	if (st->o->verbose)
		say("Detected CSV format: %s", st->fmt == FMT_V21 ?
		    "v2.1 (with device arch and worker core count)" :
		    st->fmt == FMT_V2 ? "v2" : "v1 (legacy format)");
	return anyhs;
}

/* Can the records go straight out? Yes for one file not sorted; else when the first
 * pass finds the files in order, and then it has their devices and signposts too. */
static void
plan_output(struct st *st, int npaths)
{
	struct pscan ps = { 1, 0, 0, st->sorting, 0, &st->sp };
	int ok = 1;

	if (npaths == 1 && !st->sorting) {
		st->direct = 1;
		return;
	}
	for (int k = 0; k < npaths && ok; k++) {
		ok = prescan(&st->f[k], &ps);
		if (ok && !ps.sorted && st->sorting)
			break;
		st->f[k].scanned = ok;
	}
	if (!ok || (st->sorting && !ps.sorted)) {
		st->sp.n = 0;	/* the spool will tell, in output order */
		return;
	}
	for (int k = 0; k < npaths; k++) {
		check_devices(st, k);
		for (size_t i = 0; i < st->f[k].npdev; i++) {
			long long d;

			if (!dev_number(st, st->f[k].pdev[i], k, &d)) {
				/* the second pass says where */
				st->ndevs = 0;
				st->sp.n = 0;
				return;
			}
			devset_add(&st->devs, &st->ndevs, d);
		}
	}
	st->direct = 1;
	st->know_sp = 1;
}

/* Every row of every file, in file order, to do_row. */
static void
read_rows(struct st *st, int npaths)
{
	for (int k = 0; k < npaths; k++) {
		struct tfile *tf = &st->f[k];
		const struct csvr_row *row;

		if (!st->direct) {
			tf->anydev = 0;
			tf->maxdev = 0;
		}
		while ((row = csvr_next(tf->r)) != NULL)
			do_row(st, tf, k, row);
		csv_check(st, tf->r);
		if (!st->direct)
			check_devices(st, k);
	}
}

static void
run(struct st *st, char **paths, int npaths)
{
	int anyhs;

	same_files(paths, npaths);
	anyhs = open_files(st, paths, npaths);
	st->resolved = st->fmt != FMT_V21 || (!st->arch_col && !st->wc_col);
	set_mid(st);
	st->sorting = !st->o->nosort && anyhs;
	plan_output(st, npaths);
	st->ids_asc = 1;		/* unless the sort reorders rows (release) */
	read_rows(st, npaths);
	if (!st->resolved) {
		st->resolved = 1;
		set_mid(st);
	}
	messages_end(st);
	release(st, !st->direct && st->sorting);
	if (!st->trace_done) {	/* no record at all */
		st->know_sp = 1;
		trace_record(st);
	}
}

/* run, or st->err set. */
static void
guarded(struct st *st, char **paths, int npaths)
{
	if (setjmp(st->fail) == 0)
		run(st, paths, npaths);
}

int
ttm_parse(char **paths, int npaths, const struct ttm_opts *o, FILE *out, struct error *err)
{
	static char *stdin_path[] = { "-" };
	struct st *st;
	int rc;

	if (npaths == 0) {
		paths = stdin_path;
		npaths = 1;
	}
	st = xcalloc(1, sizeof(*st));
	st->o = o;
	st->out = out;
	st->id = 1;		/* the first data row is spreadsheet row 2 */
	st->nf = npaths;
	st->f = xcalloc((size_t)npaths, sizeof(*st->f));
	st->err = (struct error)ERROR_INIT;
	names_init(&st->sp.nm);
	guarded(st, paths, npaths);
	rc = error_is_set(&st->err) ? -1 : 0;
	if (rc != 0)
		error_move(err, &st->err);
	st_free(st);
	free(st);
	return rc;
}
