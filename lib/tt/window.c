/* SPDX-License-Identifier: ISC */
/*
 * window: tt-perf-report's signpost window over the per-record
 * summaries, and the --id-range / --device list parsers (see window.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "tt/window.h"

/* --- the signpost window ---------------------------------------------------------- */

/* D3: the message lists the distinct signpost names, in order of appearance. -1. */
static int
not_found(const uint32_t *sp, size_t nsp, const struct names *nm, const char *what,
    struct error *err)
{
	struct buf b = BUF_INIT;
	unsigned char *seen = xcalloc(nm->n + 1, 1);
	size_t i;

	for (i = 0; i < nsp; i++) {
		if (sp[i] == NAME_NONE || seen[sp[i]])
			continue;
		seen[sp[i]] = 1;
		buf_adds(&b, b.len ? ", " : "");
		buf_adds(&b, names_str(nm, sp[i]));
	}
	if (b.len == 0)
		error_set(err, NULL, 0, -1, "signpost '%s' not found; no signposts in the input",
		    what);
	else
		error_set(err, NULL, 0, -1, "signpost '%s' not found; signposts present: %s",
		    what, b.p);
	buf_free(&b);
	free(seen);
	return -1;
}

int
window_plan(const uint32_t *sp, size_t nsp, const struct names *nm,
    const struct wopts *o, struct wplan *p, struct error *err)
{
	uint32_t sname, ename;
	size_t i, count, want, at;

	memset(p, 0, sizeof(*p));
	p->last = NAME_NONE;
	p->keep_sp = o->print;
	if (o->ignore) {
		p->all = p->keep_sp = true;
		return 0;
	}
	if (o->start != NULL || o->end != NULL) {
		p->named = true;
		/* D3: check both names before anything is said */
		sname = o->start ? names_lookup(nm, o->start, strlen(o->start)) : NAME_NONE;
		ename = o->end ? names_lookup(nm, o->end, strlen(o->end)) : NAME_NONE;
		if (o->start != NULL) {
			for (i = 0; i < nsp && (sname == NAME_NONE || sp[i] != sname); i++)
				;
			if (i == nsp)
				return not_found(sp, nsp, nm, o->start, err);
			p->has_lo = true;
			p->lo = i;
		}
		if (o->end != NULL) {
			/* the second occurrence when the end is the start's name
			 * (docs/tt-perf-report.md §7) */
			want = o->start != NULL && strcmp(o->start, o->end) == 0;
			at = nsp;
			for (i = 0, count = 0; i < nsp && ename != NAME_NONE; i++) {
				if (sp[i] == ename) {
					if (count == want)
						at = i;
					count++;
				}
			}
			if (count == 0)
				return not_found(sp, nsp, nm, o->end, err);
			if (at < nsp) {
				p->has_hi = true;
				p->hi = at;
				p->multi_note = want == 1 && count > 2;
			} else
				p->not_enough_note = true;
		}
	} else if (nsp == 0) {
		p->no_sp_note = !o->whole;
		p->keep_sp = true;	/* there are none */
	} else if (!o->whole) {
		p->by_last = true;
		p->last = sp[nsp - 1];
	}
	return 0;
}

void
window_say(const uint32_t *sp, size_t nsp, const struct names *nm,
    const struct wopts *o, const struct wplan *p)
{
	struct buf b = BUF_INIT;
	size_t i;

	if (p->all) {
		if (o->verbose)
			say("Ignoring all signposts. Using the entire file for analysis.");
		return;
	}
	if (p->named) {
		if (p->has_lo && o->verbose)
			say("Using operations after '%s'.", o->start);
		if (p->has_hi && o->verbose)
			say("Using operations until '%s'.", o->end);
		if (p->multi_note)
			note("Multiple occurrences of signpost '%s' found. Using the second "
			    "occurrence for the end filter.", o->end);
		if (p->not_enough_note)
			note("Not enough occurrences of signpost '%s' to apply to both start and "
			    "end filters.", o->end);
		return;
	}
	if (p->no_sp_note)
		note("No signposts found in the file. Using the entire file for analysis.");
	if (p->by_last && o->verbose) {
		for (i = 0; i < nsp; i++) {
			buf_adds(&b, b.len ? ", " : "");
			buf_adds(&b, names_str(nm, sp[i]));
		}
		say("Detected signposts: %s", b.p);
		say("Using last signpost: %s for analysis.", names_str(nm, p->last));
		buf_free(&b);
	}
}

int
window_select(const struct fent *e, size_t n, const struct names *nm,
    const struct wopts *o, uint32_t *sel, size_t *nsel, struct error *err)
{
	size_t i, k = 0, nsp = 0, lo = 0, hi = 0;
	uint32_t *sp, *spat;
	bool has_lo = false, has_hi = false;
	int64_t idlo, idhi;
	struct wplan p;

	sp = xreallocarray(NULL, n ? n : 1, sizeof(*sp));
	spat = xreallocarray(NULL, n ? n : 1, sizeof(*spat));
	for (i = 0; i < n; i++) {
		if (e[i].kind == FK_SIGNPOST) {
			sp[nsp] = e[i].name;
			spat[nsp++] = (uint32_t)i;
		}
	}
	if (window_plan(sp, nsp, nm, o, &p, err) < 0) {
		free(sp);
		free(spat);
		return -1;
	}
	window_say(sp, nsp, nm, o, &p);
	if (p.named) {
		if ((has_lo = p.has_lo))
			lo = spat[p.lo];
		if ((has_hi = p.has_hi))
			hi = spat[p.hi];
	} else if (p.by_last) {
		/* Q1, Q2: after the first row of any kind whose name is the last signpost's */
		for (i = 0; i < n; i++)
			if (e[i].kind != FK_OTHER && e[i].name == p.last)
				break;
		if (i < n) {
			has_lo = true;
			lo = i;
		}
	}
	free(sp);
	free(spat);
	/* Named windows compare IDs, the default one stream positions
	 * (docs/tt-perf-report.md §7). */
	idlo = has_lo ? (p.named ? e[lo].id : (int64_t)lo) : 0;
	idhi = has_hi ? (p.named ? e[hi].id : (int64_t)hi) : 0;
	for (i = 0; i < n; i++) {
		int64_t at = p.named ? e[i].id : (int64_t)i;

		if (e[i].kind == FK_OTHER)
			continue;
		if (e[i].kind == FK_SIGNPOST && !p.keep_sp)
			continue;
		if (!p.all && ((has_lo && at <= idlo) || (has_hi && at >= idhi)))
			continue;
		sel[k++] = (uint32_t)i;
	}
	*nsel = k;
	return 0;
}

/* --- --id-range and --device --------------------------------------------------------- */

static char errmsg[512];

/* A non-negative decimal integer with optional surrounding blanks and '+', as Python's
 * int() takes it; "" is "none". Returns -1 on a bad number, 0 for none, 1 for a value. */
static int
parse_part(const char *s, size_t len, int64_t *v)
{
	char tmp[64], *end;
	size_t i, j = 0;
	long long x;

	while (len > 0 && isspace((unsigned char)*s))
		s++, len--;
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		return 0;
	if (*s == '+')
		s++, len--;
	if (len == 0 || len >= sizeof(tmp))
		return -1;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		tmp[j++] = s[i];
	}
	tmp[j] = '\0';
	errno = 0;
	x = strtoll(tmp, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*v = x;
	return 1;
}

const char *
idrange_parse(const char *s, struct idrange *r)
{
	char *t = xmalloc(strlen(s) + 1), *p = t, *dash;
	const char *q;
	int a, b;

	for (q = s; *q; q++)
		if (*q != ',')
			*p++ = *q;
	*p = '\0';
	memset(r, 0, sizeof(*r));
	dash = strchr(t, '-');
	if (dash == NULL || strchr(dash + 1, '-') != NULL ||
	    (a = parse_part(t, (size_t)(dash - t), &r->lo)) < 0 ||
	    (b = parse_part(dash + 1, strlen(dash + 1), &r->hi)) < 0) {
		free(t);
		snprintf(errmsg, sizeof(errmsg), "invalid --id-range '%s': use START-END, START- or -END "
		    "(e.g. 5-10, 1,000-1,100, 20-, -50)", s);
		return errmsg;
	}
	free(t);
	r->has_lo = a == 1;
	r->has_hi = b == 1;
	if (!r->has_lo && !r->has_hi) {
		snprintf(errmsg, sizeof(errmsg), "invalid --id-range '%s': give START, END or both", s);
		return errmsg;
	}
	if (r->has_lo && r->has_hi && r->lo > r->hi) {
		snprintf(errmsg, sizeof(errmsg), "invalid --id-range '%s': START %lld is greater than END %lld",
		    s, (long long)r->lo, (long long)r->hi);
		return errmsg;
	}
	return NULL;
}

const char *
devlist_parse(const char *s, struct devlist *dl)
{
	const char *p = s;

	memset(dl, 0, sizeof(*dl));
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const char *dash = memchr(p, '-', len);
		int64_t lo = 0, hi = INT64_MAX;
		int a, b;

		if (dash == NULL) {
			a = parse_part(p, len, &lo);
			if (a == 0)
				a = -1;	/* an empty item */
			hi = lo;
			b = a;
		} else {
			a = parse_part(p, (size_t)(dash - p), &lo);
			b = parse_part(dash + 1, len - (size_t)(dash - p) - 1, &hi);
			if (a == 0)
				lo = 0;
			if (b == 0)
				hi = INT64_MAX;
			if (a == 0 && b == 0)
				a = -1;
		}
		if (a < 0 || b < 0 || lo > hi) {
			devlist_free(dl);
			snprintf(errmsg, sizeof(errmsg), "invalid --device list '%s': use numbers and "
			    "ranges separated by commas (e.g. 0,2-3)", s);
			return errmsg;
		}
		dl->r = xreallocarray(dl->r, dl->n + 1, sizeof(*dl->r));
		dl->r[dl->n].lo = lo;
		dl->r[dl->n].hi = hi;
		dl->n++;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	return NULL;
}

bool
devlist_has(const struct devlist *dl, int64_t d)
{
	size_t i;

	for (i = 0; i < dl->n; i++)
		if (d >= dl->r[i].lo && d <= dl->r[i].hi)
			return true;
	return false;
}

void
devlist_free(struct devlist *dl)
{
	free(dl->r);
	dl->r = NULL;
	dl->n = 0;
}
