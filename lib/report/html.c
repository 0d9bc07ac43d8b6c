/* SPDX-License-Identifier: ISC */
/*
 * html: the reports as one self-contained HTML page (see html.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/numfmt.h"
#include "report/html.h"
#include "report/tab.h"

struct html {
	FILE		*fp;
	struct buf	 toc;		/* the contents: one link per section */
	size_t		 nsect;
	size_t		 nfig;
};

/* The style sheet: tables that scroll sideways in their box, a header row that stays
 * in view, numbers right-aligned, long cells cut until hovered; the contents (written
 * last) shown first. */
static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222;"
    "display:flex;flex-direction:column}\n"
    "nav{order:-1;margin-bottom:1em}nav a{margin-right:1em;white-space:nowrap}\n"
    "h1{font-size:1.4em;order:-2}h2{font-size:1.15em;margin:1.5em 0 .4em;"
    "border-bottom:1px solid #ccc}\n"
    ".box{overflow:auto;max-height:80vh;border:1px solid #ddd}\n"
    "table{border-collapse:collapse;font:12px/1.3 ui-monospace,monospace}\n"
    "th,td{padding:2px 8px;white-space:nowrap;text-align:left}\n"
    "th{position:sticky;top:0;background:#eef;cursor:pointer;user-select:none}\n"
    "th[data-dir=a]::after{content:\" \\25b2\"}th[data-dir=d]::after{content:\" \\25bc\"}\n"
    "tr:nth-child(even) td{background:#f7f7f7}\n"
    "td.n{text-align:right}td.s{max-width:36em;overflow:hidden;text-overflow:ellipsis}\n"
    "td.s:hover{white-space:normal;word-break:break-all}\n"
    "figure{margin:.5em 0}svg{max-width:100%;height:auto}\n"
    "p.more{color:#666;margin:.3em 0}\n";

/* Sorting: a click on a header sorts its table's rows by that column, ascending then
 * descending; cells with data-v by that number, the others by their text; empty
 * cells last either way. */
static const char script[] =
    "document.querySelectorAll('table.sheet th').forEach(function(th){\n"
    " th.addEventListener('click',function(){\n"
    "  var tb=th.closest('table').tBodies[0],i=th.cellIndex,"
    "d=th.dataset.dir==='a'?'d':'a';\n"
    "  th.parentNode.querySelectorAll('th').forEach(function(x){delete x.dataset.dir;});\n"
    "  th.dataset.dir=d;\n"
    "  function k(r){var c=r.cells[i];if(!c||c.textContent==='')return null;\n"
    "   return c.dataset.v!==undefined?parseFloat(c.dataset.v):c.textContent;}\n"
    "  var rows=Array.prototype.slice.call(tb.rows).map(function(r,j){return [k(r),j,r];});\n"
    "  rows.sort(function(a,b){if(a[0]===null||b[0]===null)\n"
    "    return a[0]===b[0]?a[1]-b[1]:a[0]===null?1:-1;\n"
    "   var c=typeof a[0]==='number'&&typeof b[0]==='number'?a[0]-b[0]:"
    "String(a[0]).localeCompare(String(b[0]));\n"
    "   return (d==='a'?c:-c)||a[1]-b[1];});\n"
    "  rows.forEach(function(x){tb.appendChild(x[2]);});\n"
    " });\n"
    "});\n"
    "document.body.dataset.ready='1';\n";

/* s[0..n) with &, <, >, " and ' as entities. */
static void
esc(FILE *fp, const char *s, size_t n)
{
	size_t i, from = 0;

	for (i = 0; i < n; i++) {
		const char *e;

		switch (s[i]) {
		case '&': e = "&amp;"; break;
		case '<': e = "&lt;"; break;
		case '>': e = "&gt;"; break;
		case '"': e = "&quot;"; break;
		case '\'': e = "&#39;"; break;
		default: continue;
		}
		fwrite(s + from, 1, i - from, fp);
		fputs(e, fp);
		from = i + 1;
	}
	fwrite(s + from, 1, n - from, fp);
}

static void
escs(FILE *fp, const char *s)
{
	esc(fp, s, strlen(s));
}

struct html *
html_new(FILE *fp, const char *title)
{
	struct html *h = xcalloc(1, sizeof(*h));

	h->fp = fp;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width\">\n<title>", fp);
	escs(fp, title);
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	escs(fp, title);
	fputs("</h1>\n", fp);
	return h;
}

void
html_section(struct html *h, const char *title)
{
	const char *s;

	h->nsect++;
	fprintf(h->fp, "<h2 id=\"s%zu\">", h->nsect);
	escs(h->fp, title);
	fputs("</h2>\n", h->fp);
	buf_printf(&h->toc, "<a href=\"#s%zu\">", h->nsect);
	for (s = title; *s != '\0'; s++)
		if (*s == '&' || *s == '<' || *s == '>' || *s == '"' || *s == '\'')
			buf_printf(&h->toc, "&#%d;", *s);
		else
			buf_addc(&h->toc, *s);
	buf_adds(&h->toc, "</a>\n");
}

void
html_note(struct html *h, const char *text)
{
	fputs("<p class=\"more\">", h->fp);
	escs(h->fp, text);
	fputs("</p>\n", h->fp);
}

/* A cell: numbers right-aligned and sorted by value (data-v), long text cut. */
static void
cell(FILE *fp, const char *s, size_t n, int numeric, const char *v)
{
	if (numeric && v != NULL) {
		fputs("<td class=\"n\" data-v=\"", fp);
		escs(fp, v);
		fputs("\">", fp);
	} else
		fputs(n > 40 ? "<td class=\"s\">" : "<td>", fp);
	esc(fp, s, n);
	fputs("</td>", fp);
}

void
html_tab(struct html *h, const struct tab *t, size_t top)
{
	FILE *fp = h->fp;
	size_t nr = top && top < t->nrows ? top : t->nrows, i, j;
	struct buf b = BUF_INIT;
	char nb[NUM_BUFSZ];

	fputs("<div class=\"box\"><table class=\"sheet\">\n<thead><tr>", fp);
	for (j = 0; j < t->ncols; j++) {
		if (t->fmts[j].flags & TAB_COL_NOTEXT)
			continue;
		fputs("<th>", fp);
		escs(fp, tab_header(t, j));
		fputs("</th>", fp);
	}
	fputs("</tr></thead>\n<tbody>\n", fp);
	for (i = 0; i < nr; i++) {
		fputs("<tr>", fp);
		for (j = 0; j < t->ncols; j++) {
			const struct tab_cell *c = tab_cell(t, i, j);
			const char *v = NULL;

			if (t->fmts[j].flags & TAB_COL_NOTEXT)
				continue;
			buf_reset(&b);
			tab_show(t, i, j, &b);
			if (c->kind == TAB_INT) {
				nb[num_int(nb, c->v.i, 0)] = '\0';
				v = nb;
			} else if (c->kind == TAB_NUM && isfinite(c->v.d)) {
				nb[num_shortest(nb, c->v.d)] = '\0';
				v = nb;
			}
			cell(fp, b.p, b.len, c->kind == TAB_INT || c->kind == TAB_NUM, v);
		}
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table></div>\n", fp);
	if (nr < t->nrows) {
		buf_reset(&b);
		buf_printf(&b, "... %zu more rows", t->nrows - nr);
		html_note(h, b.p);
	}
	buf_free(&b);
}

/* The next CSV field of s[*pos..n) into f (quotes undone); *end set at the end of its
 * line. Returns 0 at the end of the text. */
static int
csv_next(const char *s, size_t n, size_t *pos, struct buf *f, int *end)
{
	size_t i = *pos;

	buf_reset(f);
	buf_adds(f, "");
	*end = 0;
	if (i >= n)
		return 0;
	if (s[i] == '"') {
		for (i++; i < n; i++) {
			if (s[i] == '"') {
				if (i + 1 < n && s[i + 1] == '"') {
					buf_addc(f, '"');
					i++;
					continue;
				}
				i++;
				break;
			}
			buf_addc(f, s[i]);
		}
	} else
		for (; i < n && s[i] != ',' && s[i] != '\n' && s[i] != '\r'; i++)
			buf_addc(f, s[i]);
	if (i < n && s[i] == ',')
		i++;
	else {
		if (i < n && s[i] == '\r')
			i++;
		if (i < n && s[i] == '\n')
			i++;
		*end = 1;
	}
	*pos = i;
	return 1;
}

/* A cell of a CSV: a number when the whole text is one (strtod, finite). */
static int
csv_number(const char *s)
{
	char *e;
	double d;

	if (*s == '\0')
		return 0;
	d = strtod(s, &e);
	return *e == '\0' && isfinite(d);
}

void
html_csv(struct html *h, const char *csv, size_t n)
{
	FILE *fp = h->fp;
	struct buf f = BUF_INIT;
	char nb[NUM_BUFSZ];
	const char *dot;
	size_t pos = 0;
	int end, row = 0, open = 0;

	fputs("<div class=\"box\"><table class=\"sheet\">\n<thead><tr>", fp);
	while (csv_next(csv, n, &pos, &f, &end)) {
		if (row == 0) {
			fputs("<th>", fp);
			esc(fp, f.p, f.len);
			fputs("</th>", fp);
		} else {
			if (!open)
				fputs("<tr>", fp);
			open = 1;
			if (csv_number(f.p) && (dot = strchr(f.p, '.')) != NULL &&
			    strlen(dot + 1) > 3 && strpbrk(f.p, "eE") == NULL) {
				/* shown with three decimals, sorted by the whole value */
				size_t k = num_fixed(nb, strtod(f.p, NULL), 3, 0);

				cell(fp, nb, k, 1, f.p);
			} else
				cell(fp, f.p, f.len, csv_number(f.p), csv_number(f.p) ? f.p : NULL);
		}
		if (end) {
			fputs(row == 0 ? "</tr></thead>\n<tbody>\n" : "</tr>\n", fp);
			row++;
			open = 0;
		}
	}
	if (row == 0)
		fputs("</tr></thead>\n<tbody>\n", fp);
	fputs("</tbody></table></div>\n", fp);
	buf_free(&f);
}

void
html_svg(struct html *h, const char *svg, size_t n)
{
	const char *p = memmem(svg, n, "<svg", 4);

	if (p == NULL)
		return;
	h->nfig++;
	fputs("<figure>\n", h->fp);
	fwrite(p, 1, n - (size_t)(p - svg), h->fp);
	fputs("</figure>\n", h->fp);
}

void
html_bars(struct html *h, const char *const *labels, const double *v, size_t n,
    const char *unit)
{
	FILE *fp = h->fp;
	const double lw = 260, bw = 420, rh = 18, pad = 4;
	double max = 0, height = n * (rh + pad) + pad;
	char nb[NUM_BUFSZ];
	size_t i, k;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]) && v[i] > max)
			max = v[i];
	h->nfig++;
	fprintf(fp, "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bars\" "
	    "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	    "font-family=\"sans-serif\" font-size=\"12\">\n", lw + bw + 90, height,
	    lw + bw + 90, height);
	for (i = 0; i < n; i++) {
		double y = pad + i * (rh + pad);
		double w = isfinite(v[i]) && max > 0 ? v[i] / max * bw : 0;

		fprintf(fp, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", lw - 6,
		    y + rh - 5);
		escs(fp, labels[i]);
		fprintf(fp, "</text><rect x=\"%.0f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" "
		    "fill=\"#4878d0\"/>", lw, y, w < 0 ? 0 : w, rh);
		k = num_fixed(nb, isfinite(v[i]) ? v[i] : 0, 2, 0);
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\">%.*s", lw + (w < 0 ? 0 : w) + 4,
		    y + rh - 5, (int)k, nb);
		if (unit != NULL)
			escs(fp, unit);
		fputs("</text>\n", fp);
	}
	fputs("</svg>\n</figure>\n", fp);
}

int
html_end(struct html *h)
{
	FILE *fp = h->fp;
	int r;

	if (h->nsect > 1) {
		fputs("<nav>", fp);
		fwrite(h->toc.p, 1, h->toc.len, fp);
		fputs("</nav>\n", fp);
	}
	fprintf(fp, "<script>\n%s</script>\n</body>\n</html>\n", script);
	buf_free(&h->toc);
	free(h);
	r = fflush(fp) != 0 || ferror(fp) ? -1 : 0;
	if (r != 0 && errno == 0)
		errno = EIO;
	return r;
}
