/* SPDX-License-Identifier: ISC */
/*
 * opcsv: the reference-compatible op CSV (docs/tt-perf-report.md §18, D6): the columns of report.h's
 * tt_cols, each cell in Python's csv module's form.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/numfmt.h"
#include "report/opcsv.h"
#include "report/report.h"

void
csv_field(FILE *fp, const char *s, size_t n)
{
	size_t i;
	int need = 0;

	for (i = 0; i < n && !need; i++)
		need = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
	if (!need) {
		fwrite_unlocked(s, 1, n, fp);
		return;
	}
	putc_unlocked('"', fp);
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			putc_unlocked('"', fp);
		putc_unlocked(s[i], fp);
	}
	putc_unlocked('"', fp);
}

/*
 * A number as Python's repr writes it. An integer number of ns divided by 1000 (every
 * Device Time and gap, most figures) takes a shortcut: for 0 <= ns < 1e15 the shortest
 * round-trip text of the double ns / 1000.0 is the exact decimal ns/1000 (the double is
 * closer than 0.0005 to it and no shorter decimal is that close), so no float
 * formatting is needed when v is that double.
 */
static void
put_repr(FILE *fp, double v)
{
	char b[NUM_BUFSZ];
	long long ns, f;
	int n;

	if (!(v >= 0 && v < 1e12) || (double)(ns = llround(v * 1000)) / 1000 != v) {
		fwrite_unlocked(b, 1, num_shortest(b, v), fp);	/* NaN: "nan" */
		return;
	}
	f = ns % 1000;
	n = (int)num_int(b, ns / 1000, 0);
	b[n++] = '.';
	b[n++] = (char)('0' + f / 100);
	b[n++] = (char)('0' + f / 10 % 10);
	b[n++] = (char)('0' + f % 10);
	while (b[n - 1] == '0' && b[n - 2] != '.')
		n--;
	fwrite_unlocked(b, 1, (size_t)n, fp);
}

/* A list cell: its '\n'-separated items joined by " \u2022 ". */
static void
put_bullets(FILE *fp, const char *a)
{
	const char *p;
	size_t n = 0;
	char small[1024], *buf = small;

	for (p = a; *p; p++)
		n += *p == '\n' ? 5 : 1;
	if (n + 1 > sizeof(small))
		buf = xmalloc(n + 1);
	n = 0;
	for (p = a; *p; p++) {
		if (*p == '\n') {
			memcpy(buf + n, " \xe2\x80\xa2 ", 5);
			n += 5;
		} else
			buf[n++] = *p;
	}
	buf[n] = '\0';
	csv_field(fp, buf, n);
	if (buf != small)
		free(buf);
}

/* Cell f of row w in column c's CSV form. */
static void
put_cell(FILE *fp, const struct table *t, const struct row *w, const struct tt_col *c)
{
	char b[NUM_INTSZ];
	const char *s;
	int f = c->field;

	switch (w->kind[f]) {
	case TAB_INT:
		fwrite_unlocked(b, 1, num_int(b, row_int(w, f), 0), fp);
		break;
	case TAB_NUM:
		put_repr(fp, w->v[f].d);
		break;
	case TAB_BOOL:
		fputs_unlocked(row_int(w, f) ? "True" : "False", fp);
		break;
	case TAB_STR:
		s = table_str(t, row_str(w, f));
		if (c->flags & TTC_BULLETS)
			put_bullets(fp, s);
		else
			csv_field(fp, s, strlen(s));
		break;
	default:
		fputs_unlocked(c->csv_empty, fp);
		break;
	}
}

/* Whether column c is in a CSV written with flags. */
static int
shown(const struct tt_col *c, int flags)
{
	return (!(c->flags & TTC_ADVICE) || (flags & OPCSV_ADVICE)) &&
	    (!(c->flags & TTC_RAW) || (flags & OPCSV_RAW));
}

int
opcsv_write(FILE *fp, const struct table *t, int flags)
{
	size_t i, k, n;

	for (k = n = 0; k < tt_ncols; k++)
		if (shown(&tt_cols[k], flags)) {
			if (n++ > 0)
				putc_unlocked(',', fp);
			csv_field(fp, tt_cols[k].name, strlen(tt_cols[k].name));
		}
	fputs_unlocked("\r\n", fp);
	for (i = 0; i < t->nrows; i++) {
		const struct row *w = table_row(t, i);

		for (k = n = 0; k < tt_ncols; k++)
			if (shown(&tt_cols[k], flags)) {
				if (n++ > 0)
					putc_unlocked(',', fp);
				put_cell(fp, t, w, &tt_cols[k]);
			}
		fputs_unlocked("\r\n", fp);
	}
	if (fflush(fp) == EOF || ferror(fp)) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}
