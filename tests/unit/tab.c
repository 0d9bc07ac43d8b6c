/* SPDX-License-Identifier: ISC */
/* Unit tests for tab (pandas' statistics, stable sorts with empty cells last, pandas'
 * unstable sort_values, CSV as pandas writes it, projection, late columns, column
 * formats in text, Markdown and CSV, a workbook's sheets past Excel's rows) and pyrepr
 * (Python's repr; py_tuple_list against py_json's list form). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "report/pyrepr.h"
#include "report/tab.h"
#include "tap.h"

static int
near(double a, double b)
{
	return fabs(a - b) < 1e-12;
}

static void
test_stats(void)
{
	struct vec v = VEC_INIT;

	ok(isnan(stat_mean(&v)) && isnan(stat_median(&v)) && stat_sum(&v) == 0,
	    "empty: mean and median NaN, sum 0");
	vec_add(&v, 3);
	ok(isnan(stat_std(&v, 1)) && stat_std(&v, 0) == 0, "one value: std NaN (ddof 1), 0 (ddof 0)");
	vec_add(&v, 1);
	vec_add(&v, NAN);
	vec_add(&v, 2);
	vec_add(&v, 10);
	ok(stat_mean(&v) == 4 && stat_sum(&v) == 16, "NaN skipped: mean 4, sum 16");
	ok(stat_median(&v) == 2.5, "median of an even count: mean of the middle two");
	ok(near(stat_std(&v, 1), sqrt(50.0 / 3)), "sample std (ddof 1)");
	ok(near(stat_std(&v, 0), sqrt(50.0 / 4)), "population std (ddof 0)");
	ok(stat_min(&v) == 1 && stat_max(&v) == 10, "min and max skip NaN");
	vec_free(&v);
}

/* Values by group: groups in order of first appearance, each with its values and the
 * item it first came with. */
static void
test_groups(void)
{
	struct tab_groups g;

	tab_groups_init(&g);
	ok(tab_groups_add(&g, "b", 1, 10, 1.5) == 0 && tab_groups_add(&g, "a", 1, 11, 2) == 1 &&
	    tab_groups_add(&g, "b", 1, 12, 3) == 0 && g.n == 2, "groups in order of first appearance");
	ok(g.first[0] == 10 && g.first[1] == 11 && g.vals[0].n == 2 && stat_sum(&g.vals[0]) == 4.5 &&
	    g.vals[1].n == 1, "each group's first item and values");
	tab_groups_free(&g);
	ok(g.n == 0 && g.vals == NULL, "freed");
}

/* The running aggregate: the same figures as over a vec, Kahan sums, Welford's std. */
static void
test_acc(void)
{
	struct stat_acc a, e;
	static const double x[] = { 3, 1, NAN, 2, 10 };
	size_t i;

	memset(&a, 0, sizeof(a));
	e = a;
	ok(isnan(stat_acc_mean(&a)) && isnan(stat_acc_min(&a)) && isnan(stat_acc_std(&a, 0)) &&
	    stat_acc_sum(&a) == 0, "empty: mean, min, std NaN, sum 0");
	for (i = 0; i < 5; i++)
		stat_acc_add(&a, x[i]);
	ok(a.n == 4 && a.plain == 16 && stat_acc_sum(&a) == 16 && stat_acc_mean(&a) == 4,
	    "NaN skipped: count 4, sums 16, mean 4");
	ok(near(stat_acc_std(&a, 1), sqrt(50.0 / 3)) && near(stat_acc_std(&a, 0), sqrt(12.5)),
	    "std (Welford) as the two-pass one, ddof 1 and 0");
	ok(stat_acc_min(&a) == 1 && stat_acc_max(&a) == 10, "min and max");
	stat_acc_add(&e, 7);
	ok(isnan(stat_acc_std(&e, 1)) && stat_acc_std(&e, 0) == 0, "one value: std NaN (ddof 1)");
	/* 1 + 1e-16 + 1e-16 - 1: a plain sum loses both small terms, Kahan keeps them (to
	 * an ulp of 1) */
	memset(&a, 0, sizeof(a));
	stat_acc_add(&a, 1);
	stat_acc_add(&a, 1e-16);
	stat_acc_add(&a, 1e-16);
	stat_acc_add(&a, -1);
	ok(a.plain == 0 && stat_acc_sum(&a) > 1e-16 && stat_acc_sum(&a) < 3e-16 &&
	    stat_acc_mean(&a) == stat_acc_sum(&a) / 4,
	    "groupby sum and mean: Kahan-compensated, as pandas' group_sum");
}

/* numpy 1.24's np.sum / np.mean over 0.1i + 0.001(i mod 7) + (1e6 when 5 | i): the
 * expected values are numpy's own, printed with repr. */
static void
test_npstats(void)
{
	struct vec v = VEC_INIT;
	size_t i;

	for (i = 0; i < 300; i++) {
		vec_add(&v, 0.1 * (double)i + 1e-3 * (double)(i % 7) + (i % 5 ? 0 : 1e6));
		if (v.n == 5)
			ok(stat_npsum(&v) == 1000001.01, "np.sum below 8 values: left to right");
		if (v.n == 21) {
			ok(stat_npsum(&v) == 5000021.063000001 && stat_sum(&v) != stat_npsum(&v),
			    "np.sum of 21: eight running sums, then the rest (not left to right)");
			ok(stat_npmean(&v) == 238096.24109523813, "np.mean of 21");
			ok(fabs(stat_npstd(&v) - 425917.71000039135) < 1e-6, "np.std of 21");
		}
	}
	ok(stat_npsum(&v) == 60004485.897, "np.sum of 300: halves of 144 and 156, pairwise");
	vec_free(&v);
	for (i = 0; i < 10; i++)
		vec_add(&v, 0.1);
	ok(stat_sum(&v) == 1.0 && stat_mean(&v) == 0.1,
	    "groupby sum and mean compensated (Kahan): ten 0.1 sum to 1.0, not 0.9999999999999999");
	vec_free(&v);
}

static char *
csv_of(const struct tab *t)
{
	char *p = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&p, &n);

	tab_write_csv(t, fp);
	fclose(fp);
	return p;
}

static void
test_table(void)
{
	struct tab *t = tab_new("t"), *p;
	static const char *const cols[] = { "v", "nosuch", "k", NULL };
	struct tab_key keys[] = { { 1, 1 } };
	size_t r;
	char *s;

	tab_col(t, "k");
	tab_col(t, "v");
	r = tab_row(t); tab_set_str(t, r, 0, "a,b"); tab_set_num(t, r, 1, 1.0);
	r = tab_row(t); tab_set_str(t, r, 0, "say \"hi\""); tab_set_num(t, r, 1, NAN);
	r = tab_row(t); tab_set_str(t, r, 0, "c"); tab_set_int(t, r, 1, 5);
	r = tab_row(t); tab_set_bool(t, r, 0, 1); tab_set_num(t, r, 1, 1.0);
	tab_sort(t, keys, 1);
	s = csv_of(t);
	is_str(s, "k,v\nc,5\n\"a,b\",1.0\nTrue,1.0\n\"say \"\"hi\"\"\",\n",
	    "descending sort, stable, empty last; minimal quoting; True; NaN empty");
	free(s);
	p = tab_project(t, "p", cols);
	s = csv_of(p);
	is_str(s, "v,k\n5,c\n1.0,\"a,b\"\n1.0,True\n,\"say \"\"hi\"\"\"\n",
	    "projection keeps the named columns in the asked order");
	free(s);
	tab_free(p);
	tab_percentages(t, 1);
	s = csv_of(t);
	is_str(s, "k,v,Percentage (%),Cumulative Percentage (%)\nc,5,71.42857142857143,"
	    "71.42857142857143\n\"a,b\",1.0,14.285714285714285,85.71428571428572\n"
	    "True,1.0,14.285714285714285,100.0\n\"say \"\"hi\"\"\",,,\n",
	    "columns added after rows; percentages of the column's sum");
	free(s);
	tab_free(t);
}

/* The order of rows whose "v" cells hold vals (NaN: empty) after tab_sort_pandas, each
 * row's original index joined with spaces. */
static void
pandas_order(const double *vals, size_t n, int desc, const char *want, const char *what)
{
	struct tab *t = tab_new("s");
	struct buf b = BUF_INIT;
	size_t i, r;

	tab_col(t, "v");
	tab_col(t, "i");
	for (i = 0; i < n; i++) {
		r = tab_row(t);
		tab_set_num(t, r, 0, vals[i]);
		tab_set_int(t, r, 1, (long long)i);
	}
	tab_sort_pandas(t, 0, desc);
	for (r = 0; r < n; r++)
		buf_printf(&b, "%s%lld", r ? " " : "", tab_cell(t, r, 1)->v.i);
	is_str(b.p, want, what);
	buf_free(&b);
	tab_free(t);
}

/* Orders pandas 1.5.3 / numpy 1.24 give (DataFrame.sort_values on one column). */
static void
test_sort_pandas(void)
{
	static const double zeros[17], v[40] = {
		3, 1, 4, 1, 5, NAN, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4,
		NAN, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8, 4, 1, 9, 7
	};

	pandas_order(zeros, 16, 0, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
	    "16 equal values: insertion sort, table order");
	pandas_order(zeros, 17, 0, "0 14 13 12 11 10 9 15 8 6 5 4 3 2 1 7 16",
	    "17 equal values: one partition, ties reordered");
	pandas_order(v, 40, 1, "12 38 30 14 26 18 34 35 11 29 13 39 7 22 10 8 31 4 36 19 "
	    "2 23 27 0 25 24 17 15 9 28 16 33 6 21 1 37 3 32 5 20",
	    "descending with ties and NaN: nargsort's reversals, NaN last in table order");
	pandas_order(v, 40, 0, "32 1 37 3 21 16 6 33 28 15 24 0 27 17 25 9 23 36 19 2 "
	    "4 10 31 8 22 7 39 13 29 35 34 18 11 26 12 14 38 30 5 20",
	    "ascending with ties and NaN");
}

static char *
print_of(const struct tab *t, int flags)
{
	char *p = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&p, &n);

	tab_print(t, fp, 0, 0, flags);
	fclose(fp);
	return p;
}

/* Column formats: decimals, units and thousands in text; integers stay integers in the
 * CSV; columns out of the text or the files; alignments; colours; trimming and rules. */
static void
test_formats(void)
{
	struct tab *t = tab_new("f");
	struct tab_fmt pct = TAB_FMT_INIT, name = TAB_FMT_INIT, cat = TAB_FMT_INIT;
	struct tab_fmt hid = TAB_FMT_INIT, csvonly = TAB_FMT_INIT;
	size_t r;
	char *s;

	pct.text = "Total";
	pct.dec = 2;
	pct.thousands = 1;
	pct.unit = " us";
	name.flags = TAB_COL_OPCOLOUR;
	cat.align = TAB_RIGHT;
	cat.mdalign = TAB_LEFT;
	hid.flags = TAB_COL_NOTEXT | TAB_COL_NOFILE;
	csvonly.flags = TAB_COL_NOTEXT;
	tab_format(t, tab_col(t, "Total [us]"), &pct);
	tab_format(t, tab_col(t, "Name"), &name);
	tab_format(t, tab_col(t, "Cat"), &cat);
	tab_format(t, tab_col(t, "rank"), &hid);
	tab_format(t, tab_col(t, "Note"), &csvonly);
	r = tab_row(t); tab_set_num(t, r, 0, 1234.565); tab_set_str(t, r, 1, "Matmul");
	tab_set_str(t, r, 2, "Compute"); tab_set_int(t, r, 3, 1); tab_set_str(t, r, 4, "x");
	r = tab_row(t); tab_set_int(t, r, 0, 0); tab_set_str(t, r, 1, "Softmax");
	tab_set_int(t, r, 3, 0);
	s = csv_of(t);
	is_str(s, "Total [us],Name,Cat,Note\n1234.57,Matmul,Compute,x\n0,Softmax,,\n",
	    "CSV: the column's decimals on numbers, an integer as an integer, no hidden column");
	free(s);
	s = print_of(t, TAB_PRINT_ENDRULE);
	is_str(s, "      Total  Name         Cat\n"
	    "-----------------------------\n"
	    "1,234.57 us  Matmul   Compute\n"
	    "    0.00 us  Softmax         \n"
	    "-----------------------------\n",
	    "text: header, decimals, thousands and unit; Cat right as asked; a closing rule");
	free(s);
	s = print_of(t, TAB_PRINT_TRIM | TAB_PRINT_COLOUR);
	ok(strstr(s, "  \033[38;5;") != NULL && strstr(s, "Softmax\033[0m\n") != NULL,
	    "text in colour: names in their op's colour; trimmed lines");
	free(s);
	s = print_of(t, TAB_PRINT_MD | TAB_PRINT_COLOUR);
	is_str(s, "| Total | Name | Cat |\n| ---: | :--- | :--- |\n"
	    "| 1,234.57 us | Matmul | Compute |\n| 0.00 us | Softmax |  |\n",
	    "Markdown: its own alignments, no colours");
	free(s);
	tab_free(t);
}

static void
repr(const char *json, int flags, const char *want)
{
	struct buf b = BUF_INIT;

	ok(py_json(&b, json, strlen(json), flags), "valid: %s", json);
	is_str(b.p, want, json);
	buf_free(&b);
}

/* json's repr without PY_TUPLE, and its PY_TUPLE repr through py_tuple_list: the same. */
static void
tuple_list(const char *json)
{
	struct buf l = BUF_INIT, t = BUF_INIT, c = BUF_INIT;

	py_json(&l, json, strlen(json), 0);
	py_json(&t, json, strlen(json), PY_TUPLE);
	py_tuple_list(&c, t.p, t.len);
	buf_addc(&c, '\0');
	is_str(c.p, l.p, json);
	buf_free(&l);
	buf_free(&t);
	buf_free(&c);
}

static void
test_pyrepr(void)
{
	tuple_list("[[768], [788, 768], []]");
	tuple_list("[[[1]], [[]], [[2, 3]]]");
	tuple_list("[\"(a,)\", \",)\", \"it's (1,)\", \"q'\\\"(\", \"\\\\\", [\")\"]]");
	tuple_list("[{\"k(\": [1], \"v\": [\"'\"]}, null, true, 1e300, -0.0]");
	tuple_list("[\"\\u0001\\n(\", [[\"\\\\'\"]]]");
	tuple_list("[]");
	tuple_list("[[]]");
	repr("[[768], [788, 768], []]", 0, "[[768], [788, 768], []]");
	repr("[[768], [788, 768], []]", PY_TUPLE, "((768,), (788, 768), ())");
	repr("{\"M\": 4, \"bias\": true, \"s\": [1, 2], \"d\": null, \"x\": 0.5}", PY_TUPLE,
	    "{'M': 4, 'bias': True, 's': (1, 2), 'd': None, 'x': 0.5}");
	repr("[\"it's\", \"a\\\\b\", \"q'\\\"\", 1.0]", 0,
	    "[\"it's\", 'a\\\\b', 'q\\'\"', 1.0]");
	/* an integer beyond long long makes every one a float, as jansson's fallback did */
	repr("[1, 99999999999999999999, 2.5]", 0, "[1.0, 1e+20, 2.5]");
	repr("[1, 2]", PY_REAL, "[1.0, 2.0]");
	repr("{\"a\": [1e3, -0]}", PY_TUPLE, "{'a': (1000.0, 0)}");
}

/* The first match of pattern (an extended regex) in the file member of the workbook
 * path, through unzip -p and grep -o; "" when none. */
static const char *
zip_grep(const char *path, const char *member, const char *pattern)
{
	static char line[256];
	char cmd[1024];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "unzip -p '%s' '%s' | grep -Eo '%s' | head -n 1", path,
	    member, pattern);
	line[0] = '\0';
	if ((p = popen(cmd, "r")) != NULL) {
		if (fgets(line, sizeof(line), p) == NULL)
			line[0] = '\0';
		line[strcspn(line, "\n")] = '\0';
		pclose(p);
	}
	return line;
}

/* A tab over Excel's 1,048,576 rows (header included) goes on in a second sheet named
 * "NAME (2)", its name cut to 31 characters, with the header row again; nothing lost. */
static void
test_book_rows(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[512];
	struct tab *t = tab_new("kernel_summary_with_a_long_name");	/* 31 characters */
	struct tab_book *bk;
	size_t c = tab_col(t, "n"), i, n = 1048575 + 5;

	for (i = 0; i < n; i++)
		tab_set_int(t, tab_row(t), c, (long long)i);
	snprintf(path, sizeof(path), "%s/ttp-unit-tab.%ld.xlsx",
	    tmp != NULL && *tmp ? tmp : "/tmp", (long)getpid());
	bk = tab_book_new(path);
	ok(bk != NULL, "book: created");
	if (bk == NULL)
		return;
	ok(tab_book_add(bk, t) == 0, "book: a tab of %zu rows added", n);
	ok(tab_book_close(bk) == 0, "book: written");
	is_str(zip_grep(path, "xl/workbook.xml", "<sheet name=\"[^\"]*\" sheetId=\"2\""),
	    "<sheet name=\"kernel_summary_with_a_long_ (2)\" sheetId=\"2\"",
	    "book: the second sheet's name");
	is_str(zip_grep(path, "xl/worksheets/sheet1.xml", "<dimension ref=\"[^\"]*\""),
	    "<dimension ref=\"A1:A1048576\"", "book: the first sheet full");
	is_str(zip_grep(path, "xl/worksheets/sheet2.xml", "<dimension ref=\"[^\"]*\""),
	    "<dimension ref=\"A1:A6\"", "book: the second sheet: header and 5 rows");
	is_str(zip_grep(path, "xl/worksheets/sheet2.xml", "<c r=\"A6\"><v>[0-9]*</v>"),
	    "<c r=\"A6\"><v>1048579</v>", "book: the last row's value");
	remove(path);
	tab_free(t);
}

/* Text fitted to a width: blocks of columns led by the first; cut headers keep head
 * and tail and differ; equal (multibyte) names end the widening (a fuzz input hung). */
static void
test_fit(void)
{
	struct tab *t = tab_new("w");
	char *p = NULL;
	size_t n = 0, r, c;
	FILE *fp;

	tab_col(t, "name");
	tab_col(t, "total_direct_kernel_time_sum");
	tab_col(t, "total_subtree_kernel_time_sum");
	tab_col(t, "Kernel Time (\u00b5s)_sum");
	tab_col(t, "Kernel Time (\u00b5s)_sum");
	r = tab_row(t);
	tab_set_str(t, r, 0, "aten::_scaled_dot_product_flash_attention");
	for (c = 1; c < 5; c++)
		tab_set_num(t, r, c, 1.5);
	fp = open_memstream(&p, &n);
	tab_print(t, fp, 0, 60, 0);
	fclose(fp);
	is_str(p,
	    "name                      total_d\u2026time_sum  total_s\u2026time_sum\n"
	    "------------------------------------------------------------\n"
	    "aten::_scal\u2026sh_attention             1.500             1.500\n"
	    "\n"
	    "name                                    Kernel Time (\u00b5s)_sum\n"
	    "------------------------------------------------------------\n"
	    "aten::_scaled_dot_\u2026uct_flash_attention                 1.500\n"
	    "\n"
	    "name                                    Kernel Time (\u00b5s)_sum\n"
	    "------------------------------------------------------------\n"
	    "aten::_scaled_dot_\u2026uct_flash_attention                 1.500\n",
	    "blocks led by the name; headers cut apart; equal names end");
	free(p);
	tab_free(t);
}

int
main(void)
{
	test_fit();
	test_stats();
	test_acc();
	test_groups();
	test_npstats();
	test_table();
	test_sort_pandas();
	test_formats();
	test_pyrepr();
	test_book_rows();
	return tap_done();
}
