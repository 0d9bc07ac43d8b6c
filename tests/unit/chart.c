/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for chart: formats from names and extensions; the SVG surface's exact text
 * (escaped, control characters dropped, rotation and clip groups closed); text measured
 * with the pinned font the same in every format; PNG and PDF files written, and an
 * unwritable path an error with errno.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "report/chart.h"
#include "tap.h"

static char *
slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	char *p = NULL;
	long len;

	if (fp == NULL)
		return NULL;
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	p = xmalloc((size_t)len + 1);
	*n = fread(p, 1, (size_t)len, fp);
	p[*n] = '\0';
	fclose(fp);
	return p;
}

static const char want_svg[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2.00in\" height=\"1.00in\" "
    "viewBox=\"0 0 200 100\" font-family=\"DejaVu Sans\">\n"
    "<rect x=\"0.00\" y=\"0.00\" width=\"200.00\" height=\"100.00\" fill=\"#ffffff\"/>\n"
    "<rect x=\"1.00\" y=\"2.00\" width=\"3.00\" height=\"4.00\" fill=\"none\" "
    "stroke=\"#102030\" stroke-width=\"1.50\" stroke-opacity=\"0.80\"/>\n"
    "<g transform=\"rotate(-90 10.00 20.00)\">\n"
    "<text x=\"10.00\" y=\"20.00\" font-size=\"12.00\" text-anchor=\"end\" "
    "font-weight=\"bold\" fill=\"#ff0000\" xml:space=\"preserve\">a&lt;b&amp;c d</text>\n"
    "</g>\n"
    "<clipPath id=\"clip1\"><rect x=\"0.00\" y=\"0.00\" width=\"5.00\" height=\"5.00\"/>"
    "</clipPath>\n<g clip-path=\"url(#clip1)\">\n"
    "<circle cx=\"1.00\" cy=\"1.00\" r=\"2.00\" fill=\"#00ff00\" fill-opacity=\"0.50\"/>\n"
    "<line x1=\"0.00\" y1=\"0.00\" x2=\"9.00\" y2=\"9.00\" stroke=\"#000000\" "
    "stroke-width=\"1.00\" stroke-dasharray=\"2.00 2.00\"/>\n"
    "</g>\n"
    "</svg>\n";

static void
draw(struct chart *c)
{
	chart_rect(c, 1, 2, 3, 4, CHART_NONE, 0x102030, 1.5, 0.8);
	chart_rotate(c, -90, 10, 20);
	chart_text(c, 10, 20, 12, CHART_END, 1, 0xff0000, "a<b&c\td");
	chart_unrotate(c);
	chart_clip(c, 0, 0, 5, 5);
	chart_circle(c, 1, 1, 2, 0x00ff00, 0.5, CHART_NONE, 0);
	chart_line(c, 0, 0, 9, 9, 0x000000, 1, 2);
	chart_unclip(c);
}

int
main(void)
{
	struct error err = ERROR_INIT;
	char dir[] = "/tmp/ttp-chart-unit.XXXXXX", path[256];
	struct chart *c;
	double w_svg, w_png;
	size_t n;
	char *s;
	int f;

	ok(chart_format_of_path("a/b.png") == CHART_PNG, "png by extension");
	ok(chart_format_of_path("B.PDF") == CHART_PDF, "extension in capitals");
	ok(chart_format_of_path("x.svg") == CHART_SVG, "svg by extension");
	ok(chart_format_of_path("x.svgz") == -1, "a longer extension is none");
	ok(chart_format_of_path("dir.png/x") == -1, "a dot in a folder name is no extension");
	ok(chart_format_of_path("png") == -1, "no extension");
	ok(chart_format_parse("pdf") == CHART_PDF && chart_format_parse("PNG") == -1,
	    "format words are lower case");
	is_str(chart_format_name(CHART_PNG), "png", "name of a format");

	if (mkdtemp(dir) == NULL)
		die(EXIT_DATA, "mkdtemp: %s", strerror(errno));
	c = chart_new(CHART_SVG, 200, 100, 100, &err);
	if (!ok(c != NULL, "an SVG chart (the font is there)")) {
		printf("# %s\n", err.msg);
		return tap_done();
	}
	w_svg = chart_text_width(c, 20, 0, "Roofline");
	draw(c);
	snprintf(path, sizeof(path), "%s/a.svg", dir);
	ok(chart_write(c, path, &err) == 0, "SVG written");
	s = slurp(path, &n);
	is_str(s, want_svg, "the SVG text");
	free(s);

	for (f = CHART_PNG; f <= CHART_PDF; f++) {
		c = chart_new(f, 200, 100, 100, &err);
		w_png = chart_text_width(c, 20, 0, "Roofline");
		ok(w_png == w_svg && w_svg > 50 && w_svg < 120, "%s: text measures %.3f as in SVG",
		    chart_format_name(f), w_png);
		draw(c);
		snprintf(path, sizeof(path), "%s/a.%s", dir, chart_format_name(f));
		ok(chart_write(c, path, &err) == 0, "%s written", chart_format_name(f));
		s = slurp(path, &n);
		ok(s != NULL && n > 8 && memcmp(s, f == CHART_PNG ? "\x89PNG" : "%PDF", 4) == 0,
		    "%s: its signature", chart_format_name(f));
		free(s);
		unlink(path);
	}
	c = chart_new(CHART_PNG, 10, 10, 100, &err);
	snprintf(path, sizeof(path), "%s/no/such/dir.png", dir);
	ok(chart_write(c, path, &err) == -1 && err.msg != NULL && strstr(err.msg,
	    "No such file or directory") != NULL, "an unwritable path: -1, the reason");
	error_free(&err);
	snprintf(path, sizeof(path), "%s/a.svg", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
