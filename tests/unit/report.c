/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/report/report.c, colour.c, opcsv.c and summary.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "report/colour.h"
#include "core/numfmt.h"
#include "report/opcsv.h"
#include "core/rec.h"
#include "report/report.h"
#include "report/summary.h"
#include "tap.h"

static void
add(struct table *t, const char *json)
{
	struct rec *r = tap_rec(json, strlen(json), "test:1");

	table_add(t, r);
	rec_free(r);
}

static char *
slurp(FILE *fp)
{
	long n;
	char *s;

	fflush(fp);
	n = ftell(fp);
	rewind(fp);
	s = calloc(1, (size_t)n + 1);
	if (fread(s, 1, (size_t)n, fp) != (size_t)n)
		s[0] = '\0';
	return s;
}

static void
test_fixed(void)
{
	static const double v[] = {
		0, 6.5, 7.5, 0.25, 0.35, 2.675, 999.95, 999.5, 1000.5, 1234567.891, 0.05,
		-0.4, -1234.5, 9.995, 99999.995, 1e14 + 0.5, 1e15, 3e20, 0.045
	};
	char a[NUM_BUFSZ], b[NUM_BUFSZ];
	size_t i;
	int d, bad = 0;
	unsigned long long x = 88172645463325252ULL;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (d = 0; d <= 2; d++) {
			report_fixed(a, v[i], d);
			num_fixed(b, v[i], d, 1);
			if (strcmp(a, b) != 0) {
				printf("# %.17g/%d: %s != %s\n", v[i], d, a, b);
				bad++;
			}
		}
	ok(bad == 0, "report_fixed agrees with num_fixed on edge values");
	bad = 0;
	for (i = 0; i < 200000; i++) {
		double r;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		r = (double)(x >> 11) / (double)(1ULL << 53) * 2e6;
		if (i % 3 == 0)
			r = (double)(long long)(r * 1000) / 1000;	/* many ties */
		d = (int)(i % 3);
		report_fixed(a, r, d);
		num_fixed(b, r, d, 1);
		if (strcmp(a, b) != 0 && bad++ < 5)
			printf("# %.17g/%d: %s != %s\n", r, d, a, b);
	}
	ok(bad == 0, "report_fixed agrees with num_fixed on 200000 random values");
}

#define GREYCELL "\033[38;5;8m94\033[0m \033[38;5;8m\xce\xbcs\033[0m"

static void
test_colour(void)
{
	struct buf b = BUF_INIT;

	ok(colour_width(GREYCELL, strlen(GREYCELL)) == 5,
	    "colour_width skips escapes and counts code points");
	ok(colour_width("\xf0\x9f\xaa\xa7 x", 6) == 3, "the placard emoji counts 1 (Q12)");
	colour_add(&b, 1, COL_GREY, "", 0);
	is_str(b.p, "\033[38;5;8m\033[0m", "an empty string is still wrapped");
	buf_reset(&b);
	colour_add(&b, 0, COL_GREY, "x", 1);
	is_str(b.p, "x", "no colour when off");
	ok(colour_for_op("(torch) Matmul") == COL_RED, "(torch) wins over Matmul");
	ok(colour_for_op("Conv2dDeviceOperation 1 x 2") == COL_ORANGE, "conv is orange");
	ok(colour_for_op("Nothing") == COL_WHITE, "others are white");
	ok(colour_parse_mode("never") == COLOUR_NEVER && colour_parse_mode("x") == -1,
	    "colour modes");
	buf_free(&b);
}

/* --group-by values, and a summary by record keys. */
static void
test_spec(void)
{
	struct group_spec g;
	struct table t;
	struct summary *sm;
	const char *err = NULL;
	FILE *fp;
	char *s;

	ok(summary_parse_spec("phase", &g, &err) == 0 && g.by == GROUP_PHASE && g.nkeys == 0,
	    "a report name alone");
	ok(summary_parse_spec("loc_line", &g, &err) == 0 && g.by == GROUP_KEYS &&
	    g.nkeys == 1 && strcmp(g.keys[0], "loc_line") == 0, "a record key");
	ok(summary_parse_spec("phase,iter", &g, &err) == 0 && g.by == GROUP_KEYS &&
	    g.nparts == 2 && g.part[0] == GROUP_PHASE && g.part[1] == GROUP_KEY &&
	    g.nkeys == 1 && strcmp(g.keys[0], "iter") == 0, "a report name and a key");
	ok(summary_parse_spec("line", &g, &err) == 0 && g.nkeys == 2 &&
	    strcmp(g.keys[0], "loc_file") == 0 && strcmp(g.keys[1], "loc_line") == 0 &&
	    strcmp(g.text, "line") == 0, "line is loc_file,loc_line");
	ok(summary_parse_spec("a,,b", &g, &err) != 0 && strcmp(err, "an empty name") == 0,
	    "an empty part is an error");
	ok(summary_parse_spec("a,b,c,line", &g, &err) != 0 &&
	    strcmp(err, "more than 4 parts") == 0, "at most four parts");
	ok(summary_parse_spec("", &g, &err) != 0, "an empty value is an error");

	ok(summary_parse_spec("op,k,n", &g, &err) == 0, "op,k,n");
	table_init(&t);
	table_group_keys(&t, g.keys, g.nkeys);
	add(&t, "{\"kind\":\"op\",\"id\":2,\"op\":\"A\",\"device_ns\":3000,\"k\":\"x\",\"n\":1}");
	add(&t, "{\"kind\":\"op\",\"id\":3,\"op\":\"B\",\"device_ns\":1000,\"k\":\"x\"}");
	add(&t, "{\"kind\":\"op\",\"id\":4,\"op\":\"A\",\"device_ns\":5000,\"k\":\"x\",\"n\":1}");
	add(&t, "{\"kind\":\"op\",\"id\":5,\"op\":\"A\",\"device_ns\":500,\"n\":true}");
	table_finish(&t);
	ok(t.gkey_ops[0] == 3 && t.gkey_ops[1] == 3, "ops with each key counted");
	sm = summary_build(&t, &g, 0);
	fp = tmpfile();
	summary_markdown(fp, sm);
	s = slurp(fp);
	is_str(s, "| Total % | op,k,n | Device Time Sum | Op Count | Ops |\n"
	    "| ---: | :--- | ---: | ---: | :--- |\n"
	    "| 84.21 % | A:x:1 | 8.00 \xce\xbcs | 2 | A |\n"
	    "| 10.53 % | B:x:? | 1.00 \xce\xbcs | 1 | B |\n"
	    "| 5.26 % | A:?:true | 0.50 \xce\xbcs | 1 | A |\n", "labels join the parts");
	free(s);
	fclose(fp);
	summary_free(sm);
	table_free(&t);

	ok(summary_parse_spec("k", &g, &err) == 0, "k");
	table_init(&t);
	table_group_keys(&t, g.keys, g.nkeys);
	add(&t, "{\"kind\":\"op\",\"id\":2,\"op\":\"A\",\"device_ns\":1000,\"k\":\"x\"}");
	add(&t, "{\"kind\":\"op\",\"id\":3,\"op\":\"B\",\"device_ns\":3000}");
	add(&t, "{\"kind\":\"op\",\"id\":4,\"op\":\"C\",\"device_ns\":4000,\"k\":null}");
	add(&t, "{\"kind\":\"op\",\"id\":5,\"op\":\"D\",\"device_ns\":2000,\"k\":\"x\"}");
	table_finish(&t);
	sm = summary_build(&t, &g, 0);
	fp = tmpfile();
	summary_markdown(fp, sm);
	s = slurp(fp);
	is_str(s, "| Total % | k | Device Time Sum | Op Count | Ops |\n"
	    "| ---: | :--- | ---: | ---: | :--- |\n"
	    "| 70.00 % | (no k) | 7.00 \xce\xbcs | 2 | C, B |\n"
	    "| 30.00 % | x | 3.00 \xce\xbcs | 2 | D, A |\n",
	    "absent and null alike; op names the costliest first");
	free(s);
	fclose(fp);
	summary_free(sm);
	table_free(&t);
}

static void
test_table(void)
{
	struct table t;
	FILE *fp = tmpfile();
	char *s;
	struct summary *sm;
	struct group_spec gs;
	const char *err;

	table_init(&t);
	add(&t, "{\"kind\":\"signpost\",\"id\":2,\"name\":\"start\"}");
	add(&t, "{\"kind\":\"op\",\"id\":3,\"op\":\"Matmul\",\"call\":1024,\"device\":0,"
	    "\"cores\":64,\"device_ns\":3000,\"in\":[{\"dtype\":\"BFLOAT16\","
	    "\"mem\":\"DEV_0_DRAM_INTERLEAVED\"},{\"dtype\":\"BFLOAT8_B\"}],"
	    "\"out\":[{\"dtype\":\"BFLOAT16\"}],\"label\":\"Matmul 32 x 64 x 64\","
	    "\"math\":\"HiFi2 BF16 x BFP8 => BF16\",\"tflops\":1.5,\"flops_pct\":10.25,"
	    "\"advice\":[\"a, b\",\"c\"],\"category\":\"Compute\"}");
	add(&t, "{\"kind\":\"op\",\"id\":4,\"op\":\"(torch) aten::x\",\"gap_ns\":1000}");
	add(&t, "{\"kind\":\"op\",\"id\":5,\"op\":\"Unary\",\"gap_ns\":8500.5,"
	    "\"in\":[null,{\"dtype\":\"UINT32\"}],\"category\":\"Compute\"}");
	add(&t, "{\"kind\":\"other\",\"id\":6}");
	table_finish(&t);
	ok(t.nrows == 4, "signpost and ops become rows, other kinds do not");
	ok(t.ndevice == 2 && t.nhost == 1 && t.nsignpost == 1, "totals-line counts");
	ok(t.total == 3 + 1 + 8.5005, "total = device time + gaps");
	ok(!row_has(&t.rows[0], TF_PCT), "a signpost has no Total %%");
	ok(row_has(&t.rows[2], TF_PCT), "a host op with a gap has a Total %%");
	ok(t.rows[3].kind[TF_DEVTIME] == TAB_INT && row_int(&t.rows[3], TF_DEVTIME) == 0,
	    "a device op without a duration has Device Time the integer 0");
	ok(!row_has(&t.rows[2], TF_DEVTIME), "a host op has no Device Time");
	ok(row_has(&t.rows[1], TF_DRAM) == 0 && isnan(row_num(&t.rows[1], TF_DRAM)),
	    "an absent figure is an empty cell");
	is_str(table_str(&t, row_str(&t.rows[3], TF_MATH)), ", UINT32", "fallback Math Fidelity");
	is_str(table_str(&t, row_str(&t.rows[2], TF_BOUND)), "HOST", "host ops are HOST bound");

	opcsv_write(fp, &t, OPCSV_ADVICE | OPCSV_RAW);
	s = slurp(fp);
	ok(strstr(s, "\r\n2,,,start (signpost),,,,,,,,,,nan,nan,nan,False,,,,,nan,,start\r\n")
	    != NULL, "signpost CSV row");
	ok(strstr(s, ",1024,\"a, b \xe2\x80\xa2 c\",Matmul\r\n") != NULL,
	    "advice joined with a bullet and quoted");
	ok(strstr(s, "5,68.00127994880205,,Unary,,0,8.5005,") != NULL,
	    "Device Time 0 as an integer, Python repr floats");
	free(s);
	fclose(fp);

	ok(summary_parse_spec("memory", &gs, &err) == 0 && gs.by == GROUP_MEMORY,
	    "memory is the report's own grouping");
	sm = summary_build(&t, &gs, 0);
	ok(sm != NULL, "summary built");
	fp = tmpfile();
	summary_print(fp, sm, 0, 0);
	s = slurp(fp);
	ok(strstr(s, "Matmul (in0:dram_interleaved)") != NULL, "memory grouping label");
	ok(strstr(s, "10.25 %") != NULL, "FLOPs statistics");
	free(s);
	fclose(fp);
	summary_free(sm);
	table_free(&t);
}

/* Device Time in us from integer ns takes a shortcut in opcsv: check it against
 * num_shortest. */
static void
test_ns_shortcut(void)
{
	struct table t;
	FILE *fp = tmpfile();
	char *s, *line, want[NUM_BUFSZ], *save = NULL;
	unsigned long long x = 1234567;
	size_t i, n = 50000;
	int bad = 0;

	table_init(&t);
	t.rows = calloc(n, sizeof(*t.rows));
	t.nrows = t.caprows = n;
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		long long ns = (long long)(x % (i % 2 ? 1000000ULL : 999999999999999ULL));

		t.rows[i].kind[TF_ID] = TAB_INT;
		t.rows[i].v[TF_ID].i = (long long)i;
		t.rows[i].kind[TF_DEVTIME] = TAB_NUM;
		/* a third not an integer number of ns: the shortcut must see that */
		t.rows[i].v[TF_DEVTIME].d = (i % 3 ? (double)ns : (double)ns + 0.25) / 1000;
	}
	opcsv_write(fp, &t, 0);
	s = slurp(fp);
	line = strtok_r(s, "\n", &save);	/* header */
	for (i = 0; i < n && (line = strtok_r(NULL, "\n", &save)) != NULL; i++) {
		char *f = line;
		int k;

		for (k = 0; k < 5; k++)
			f = strchr(f, ',') + 1;
		*strchr(f, ',') = '\0';
		num_shortest(want, t.rows[i].v[TF_DEVTIME].d);
		if (strcmp(f, want) != 0 && bad++ < 5)
			printf("# %.17g us: %s != %s\n", t.rows[i].v[TF_DEVTIME].d, f, want);
	}
	ok(i == n && bad == 0, "integer ns / 1000 written as Python repr (%zu rows)", i);
	free(s);
	fclose(fp);
	table_free(&t);
}

/* A table past TABLE_MEMROWS under table_spool keeps its rows in a spool file: the same
 * rows, Total %, CSV and summary as the table kept in memory, and table_top on it. */
static void
test_table_spool(void)
{
	static struct table m, d;
	struct table *t[2] = { &m, &d };
	struct group_spec gs;
	const char *err;
	char json[512], *s[2], *u[2];
	size_t i, k, n = TABLE_MEMROWS + 1000;
	int bad = 0;

	table_init(&m);
	table_init(&d);
	table_spool(&d);
	for (i = 0; i < n; i++) {
		snprintf(json, sizeof(json), "{\"kind\":\"op\",\"id\":%zu,\"op\":\"Op%zu\","
		    "\"device\":0,\"device_ns\":%zu,\"gap_ns\":%zu.5,\"label\":\"Op%zu\","
		    "\"category\":\"Compute\"}", i + 2, i % 7, 1000 + i % 13, i % 5, i % 7);
		for (k = 0; k < 2; k++)
			add(t[k], json);
	}
	ok(m.rows != NULL && d.rows == NULL && d.sp != NULL, "the spooled table's rows left memory");
	(void)summary_parse_spec("op", &gs, &err);
	for (k = 0; k < 2; k++) {
		FILE *fp = tmpfile();
		struct summary *sm;

		table_finish(t[k]);
		opcsv_write(fp, t[k], 0);
		s[k] = slurp(fp);
		fclose(fp);
		fp = tmpfile();
		sm = summary_build(t[k], &gs, 0);
		summary_print(fp, sm, 0, 0);
		u[k] = slurp(fp);
		fclose(fp);
		summary_free(sm);
	}
	for (i = 0; i < n; i++) {
		const struct row *a = table_row(&m, i), *b = table_row(&d, i);

		if (memcmp(a, b, sizeof(*a)) != 0 && bad++ < 3)
			printf("# row %zu differs\n", i);
	}
	ok(bad == 0 && m.total == d.total, "the same rows and total, Total %% included");
	ok(strlen(s[0]) > 1000 && strcmp(s[0], s[1]) == 0, "the same CSV");
	ok(strlen(u[0]) > 50 && strcmp(u[0], u[1]) == 0, "the same summary");
	table_top(&d, 10, 1);
	ok(d.nrows == 10 && d.ndevice == 10 && row_int(table_row(&d, 9), TF_ID) == 11 &&
	    row_num(table_row(&d, 9), TF_PCT) > 5,
	    "--top 10 --percent-shown: Total %% of the ten rows");
	for (k = 0; k < 2; k++) {
		free(s[k]);
		free(u[k]);
		table_free(t[k]);
	}
}

/* tab_layout (the TT report's blocks at a width): every block fits, each after the
 * first is led by column 0, every other column shows once, numbers are never cut, and
 * headers cut alike are kept apart. */
static void
test_layout(void)
{
	static const struct tab_lcol c[] = {
		{ "ID", 4, 4, 1 }, { "Total %", 7, 6, 1 }, { "OP Code", 40, 0, 0 },
		{ "Device Time", 11, 9, 1 }, { "total_direct_kernel_time_sum", 28, 0, 0 },
		{ "total_direct_kernel_time_mean", 29, 0, 0 }, { "FLOPs", 11, 11, 1 },
		{ "Math Fidelity", 25, 0, 0 }
	};
	size_t n = sizeof(c) / sizeof(c[0]), widths[] = { 40, 60, 80, 132, 200 };
	size_t wi, i, k, j;

	for (wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++) {
		struct tab_layout l;
		size_t seen[8] = { 0 }, width = widths[wi];
		int fits = 1, led = 1, nums = 1, apart = 1, once = 1;

		tab_layout(&l, c, n, width);
		for (i = 0; i < l.n; i++) {
			const struct tab_block *b = &l.b[i];
			size_t total = 0;

			led &= i == 0 || b->col[0] == 0;
			for (k = 0; k < b->n; k++) {
				total += b->w[k] + (k ? 2 : 0);
				seen[b->col[k]]++;
				nums &= b->w[k] >= c[b->col[k]].numw;
				for (j = 0; j < k; j++)
					apart &= strcmp(b->hdr[j], b->hdr[k]) != 0;
			}
			fits &= total <= width;
		}
		for (k = 1; k < n; k++)
			once &= seen[k] == 1;
		ok(l.n >= 1 && fits && led && nums && apart && once,
		    "tab_layout at %zu: %zu blocks that fit, led by column 0", width, l.n);
		tab_layout_free(&l);
	}
}

int
main(void)
{
	test_layout();
	test_ns_shortcut();
	test_table_spool();
	test_fixed();
	test_colour();
	test_table();
	test_spec();
	return tap_done();
}
