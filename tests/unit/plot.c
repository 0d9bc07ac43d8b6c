/* SPDX-License-Identifier: ISC */
/* Unit tests of lib/report/plot.c: the SVG summary plot (structure, order, colours, labels). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"
#include "tap.h"

/* Render to a string (caller frees). */
static char *
render(const struct plot_bar *bars, size_t nbars, int flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (fp == NULL || plot_svg_fp(fp, bars, nbars, flags) != 0) {
		ok(0, "plot_svg_fp failed");
		exit(1);
	}
	fclose(fp);
	return buf;
}

static size_t
count(const char *s, const char *needle)
{
	size_t n = 0;

	for (; (s = strstr(s, needle)) != NULL; s += strlen(needle))
		n++;
	return n;
}

/* Crude well-formedness: every '<' closes with '>', element tags balance. */
static int
balanced(const char *s)
{
	int depth = 0;
	const char *p = s;

	while ((p = strchr(p, '<')) != NULL) {
		const char *e = strchr(p, '>');

		if (e == NULL)
			return 0;
		if (p[1] == '?' || p[1] == '!')
			;
		else if (p[1] == '/')
			depth--;
		else if (e[-1] != '/')
			depth++;
		if (depth < 0)
			return 0;
		p = e + 1;
	}
	return depth == 0;
}

/* Offset of the n-th (0-based) seg rect's title text. */
static const char *
seg_title(const char *svg, int n)
{
	const char *p = svg;

	for (int i = 0; i <= n; i++) {
		p = strstr(p, "class=\"seg\"");
		if (p == NULL)
			return NULL;
		p++;
	}
	return strstr(p, "<title>") + 7;
}

static const char *
seg_fill(const char *svg, int n)
{
	const char *p = svg;

	for (int i = 0; i <= n; i++) {
		p = strstr(p, "class=\"seg\"");
		if (p == NULL)
			return NULL;
		p++;
	}
	return strstr(p, "fill=\"") + 6;
}

int
main(void)
{
	/* Summary rows in table order (time descending), as lib/report/summary.c hands them over. */
	struct plot_seg segs[] = {
		{"Matmul (in0:dram_interleaved)", "Compute", 1611.8, 25, 18.5, 1,
		    1.9, 13.9, 7.2, 1, 4.4, 1, 8.1},
		{"HaloDeviceOperation (in0:height_sharded)", "DM", 556.8, 31, 6.4, 0,
		    0, 0, 0, 0, 0, 0, 0},
		{"Tiny <&> op", "Compute", 10.0, 1, 1.9, 0, 0, 0, 0, 0, 0, 0, 0},
		{"SliceDeviceOperation (in0:dram_interleaved)", "TM", 207.9, 12, 2.4, 0,
		    0, 0, 0, 0, 0, 0, 0},
		{"UnaryDeviceOperation", "Compute", 219.1, 19, 2.5, 1,
		    5.0, 5.0, 5.0, 0, 0, 0, 0},
		{"(torch)", "Host", 0.0, 3, 0.0, 0, 0, 0, 0, 0, 0, 0, 0},
	};
	struct plot_bar bar = {-1, segs, sizeof(segs) / sizeof(segs[0])};
	char *svg;

	svg = render(&bar, 1, 0);
	ok(strncmp(svg, "<?xml", 5) == 0, "starts with an XML declaration");
	ok(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"") != NULL, "svg root");
	ok(strstr(svg, "viewBox=\"0 0 1800 2400\"") != NULL, "6x8 in at 300 dpi");
	ok(balanced(svg), "tags balance");
	ok(count(svg, "class=\"seg\"") == 6, "one rect per segment (%zu)",
	    count(svg, "class=\"seg\""));
	/* order: Compute by time (Matmul, Unary, Tiny), TM, DM, then Host */
	ok(strncmp(seg_title(svg, 0), "Matmul", 6) == 0, "bottom segment is the largest Compute");
	ok(strncmp(seg_title(svg, 1), "Unary", 5) == 0, "then the next Compute");
	ok(strncmp(seg_title(svg, 2), "Tiny &lt;&amp;&gt; op", 21) == 0,
	    "labels are XML-escaped");
	ok(strncmp(seg_title(svg, 3), "Slice", 5) == 0, "TM after Compute");
	ok(strncmp(seg_title(svg, 4), "Halo", 4) == 0, "DM after TM");
	ok(strncmp(seg_title(svg, 5), "(torch)", 7) == 0, "Host after the palette categories");
	/* colours: Purples(1.0), Purples(0.95), Greens(1.0), Oranges(0.8), tab20[0] */
	ok(strncmp(seg_fill(svg, 0), "#3f007d", 7) == 0, "Compute #1 = Purples(1.00)");
	ok(strncmp(seg_fill(svg, 1), "#470f84", 7) == 0, "Compute #2 = Purples(0.95)");
	ok(strncmp(seg_fill(svg, 3), "#00441b", 7) == 0, "TM #1 = Greens(1.00)");
	ok(strncmp(seg_fill(svg, 4), "#c54102", 7) == 0, "DM #1 = Oranges(0.80)");
	ok(strncmp(seg_fill(svg, 5), "#1f77b4", 7) == 0, "Host = tab20[0]");
	/* labels: >= 2 % only */
	ok(count(svg, "class=\"seglabel\"") == 4, "4 segments of >= 2 %% get labels (%zu)",
	    count(svg, "class=\"seglabel\""));
	ok(strstr(svg, "(18.5 %) Matmul (in0:dram_interleaved) total=1611.8 \xce\xbcs; 25 ops")
	    != NULL, "merged label text");
	ok(strstr(svg, " Util [1.9 - 13.9] weighted_mean=8.1% (mean=7.2 \xc2\xb1 4.4%)") != NULL,
	    "Util line with weighted mean");
	ok(strstr(svg, " Util [5.0 - 5.0] 5.0 \xc2\xb1 nan %") != NULL,
	    "Util line without weighted mean, one value");
	ok(strstr(svg, "Tiny") != NULL && strstr(svg, "(1.9 %) Tiny") == NULL,
	    "no label under 2 %%");
	ok(strstr(svg, "Stacked Device Time (Total: 2605.6 \xce\xbcs)") != NULL, "merged title");
	ok(strstr(svg, "Device Time [\xce\xbcs]") != NULL, "y label");
	ok(count(svg, "class=\"cat\"") == 4, "one bracket per category (%zu)",
	    count(svg, "class=\"cat\""));
	ok(strstr(svg, "Compute(22.9%)") != NULL, "category label with its share");
	free(svg);

	/* classic colours: table order, tab20, no brackets */
	svg = render(&bar, 1, PLOT_CLASSIC);
	ok(strncmp(seg_title(svg, 1), "Halo", 4) == 0, "classic: table order");
	ok(strncmp(seg_fill(svg, 1), "#aec7e8", 7) == 0, "classic: tab20[1]");
	ok(count(svg, "class=\"cat\"") == 0 && count(svg, "catlabel") == 0,
	    "classic: no brackets, no category labels");
	free(svg);

	/* per device */
	{
		struct plot_seg d0[] = {
			{"A", "Compute", 100, 1, 48.5, 0, 0, 0, 0, 0, 0, 0, 0},
			{"B", "Other", 106, 2, 51.5, 0, 0, 0, 0, 0, 0, 0, 0},
		};
		struct plot_seg d1[] = {
			{"A", "Compute", 120, 1, 100.0, 0, 0, 0, 0, 0, 0, 0, 0},
		};
		struct plot_bar bars[] = {{0, d0, 2}, {1, d1, 1}};

		svg = render(bars, 2, 0);
		ok(balanced(svg), "per-device: tags balance");
		ok(strstr(svg, "Stacked Device Time per Device (100% per device)") != NULL,
		    "per-device title");
		ok(strstr(svg, ">Dev 0<") != NULL && strstr(svg, ">Dev 1<") != NULL,
		    "device tick labels");
		ok(strstr(svg, ">48.5 %</text>") != NULL &&
		    strstr(svg, ">100 \xce\xbcs<") != NULL, "per-device label lines");
		ok(count(svg, "class=\"seg\"") == 3, "3 segments");
		free(svg);

		{
			struct plot_bar four[] = {{0, d1, 1}, {1, d1, 1}, {2, d1, 1}, {3, d1, 1}};

			svg = render(four, 4, 0);
			ok(strstr(svg, "viewBox=\"0 0 2400 2400\"") != NULL,
			    "4 devices: 2 in per device");
			free(svg);
		}
	}

	/* category mode: first palette colour per category, labels, no brackets */
	{
		struct plot_seg c[] = {
			{"DM", "DM", 50, 3, 50, 0, 0, 0, 0, 0, 0, 0, 0},
			{"Compute", "Compute", 50, 2, 50, 0, 0, 0, 0, 0, 0, 0, 0},
		};
		struct plot_bar cb = {-1, c, 2};

		svg = render(&cb, 1, PLOT_CATEGORY);
		ok(strncmp(seg_title(svg, 0), "Compute", 7) == 0, "category: Compute first");
		ok(strncmp(seg_fill(svg, 1), "#c54102", 7) == 0, "category: DM = Oranges(0.80)");
		ok(count(svg, "class=\"cat\"") == 0, "category: no brackets");
		ok(count(svg, "catlabel") == 2, "category: vertical labels");
		free(svg);
	}

	/* file output and errors */
	ok(plot_svg("/nonexistent-dir/x.svg", &bar, 1, 0) == -1, "unwritable path fails");
	return tap_done();
}
