/* SPDX-License-Identifier: ISC */
/*
 * fuzz_rec: libFuzzer target for lib/core/rec.c. Every line of the input is parsed with
 * rec_parse, which returns its errors: under fuzz_strict (an exit is a finding) a bad
 * line must come back as NULL with the error set; a good one has every key read with
 * the getters that cannot fail on it, a few keys set and deleted, is duplicated and
 * formatted, and the formatted line must parse again; an array key is walked element
 * by element with every rec_elem_ getter (which never fail), its trees checked. Then,
 * also under fuzz_strict, every key is read with every getter that fits its rec_type;
 * rec_int of an integer too big for a long long, and one getter that does not fit, must
 * read as missing and mark the record bad (rec_bad), never end the process (rec.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/rec.h"
#include "fuzz.h"

struct job {
	const char	*line;
	size_t		 len;
	unsigned	 opt;
};

/* A tree's nodes: each one's size is itself and its children's sizes; the total n. */
static size_t
check_tree(const struct rec_node *t, size_t n)
{
	size_t i, size = 1;

	if (n == 0 || t->size > n)
		abort();
	for (i = 0; i < t->n; i++)
		size += check_tree(t + size, n - size);
	if (size != t->size || (t->type != REC_ARRAY && t->type != REC_OBJECT && t->n != 0))
		abort();
	return size;
}

/* An array key element by element: as many elements as rec_count says, every getter
 * on the element and on a member of it. */
static void
walk(struct rec *r, const char *key)
{
	static const char *members[] = { NULL, "shape", "name", "x" };
	struct rec_elems e;
	const struct rec_node *t;
	long long d[8], v;
	size_t k = 0, i, n, len;
	const char *s;

	if (!rec_elems(r, key, &e))
		abort();
	while (rec_elem_next(&e)) {
		k++;
		if (rec_elem_type(&e, NULL) == REC_ABSENT)
			abort();
		for (i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
			enum rec_type ty = rec_elem_type(&e, members[i]);

			s = rec_elem_str(&e, members[i], &len);
			if ((s != NULL) != (ty == REC_STRING) || (s != NULL && s[len] != '\0'))
				abort();
			if (rec_elem_int(&e, members[i], &v) != (ty == REC_INT))
				abort();
			if (rec_elem_dims(&e, members[i], d, 8) > 8)
				abort();
			t = rec_elem_tree(&e, members[i], &n);
			if ((t != NULL) != (ty != REC_ABSENT) || (t != NULL &&
			    (t->type != ty || check_tree(t, n) != n)))
				abort();
		}
	}
	if (k != rec_count(r, key) || rec_elem_next(&e))
		abort();
}

/* The getters that cannot fail on a key of the type rec_type gives. */
static void
read_safe(struct rec *r)
{
	const char *k, *s, *raw;
	size_t i, len;
	double dv;
	bool bv;
	enum rec_type t;

	for (i = 0; (k = rec_key(r, i)) != NULL; i++) {
		t = rec_type(r, k);
		(void)rec_has(r, k);
		raw = rec_raw(r, k, &len);
		if (raw == NULL && t != REC_ABSENT)
			abort();
		switch (t) {
		case REC_STRING:
			s = rec_str(r, k, &len);
			if (s == NULL || s[len] != '\0')
				abort();
			break;
		case REC_INT:
		case REC_REAL:
			if (!rec_num(r, k, &dv))
				abort();
			break;
		case REC_BOOL:
			if (!rec_bool(r, k, &bv))
				abort();
			break;
		case REC_NULL:
			if (rec_has(r, k) || rec_str(r, k, NULL) != NULL)
				abort();
			break;
		case REC_ARRAY:
			walk(r, k);
			break;
		default:
			break;
		}
	}
}

/* A bad line: NULL with the error set. */
static struct rec *
parse(const char *line, size_t len, const char *where)
{
	struct error err = ERROR_INIT;
	struct rec *r = rec_parse(line, len, where, &err);

	if ((r == NULL) != error_is_set(&err))
		abort();
	error_free(&err);
	return r;
}

/* Every getter that fits each key's rec_type: read_safe's, rec_int. */
static void
read_all(struct rec *r, unsigned opt)
{
	const char *k;
	size_t i;
	long long iv;
	bool bv;

	read_safe(r);
	for (i = 0; (k = rec_key(r, i)) != NULL; i++) {
		/* an integer beyond long long: missing, and the record marked bad */
		if (rec_type(r, k) == REC_INT && !rec_int(r, k, &iv) && rec_bad(r) == NULL)
			abort();
	}
	/* A getter of the wrong type on the first key: missing, and the record bad. */
	if ((opt & 1) && (k = rec_key(r, 0)) != NULL) {
		switch (rec_type(r, k)) {
		case REC_STRING:
			if (rec_int(r, k, &iv) || rec_bad(r) == NULL)
				abort();
			break;
		case REC_INT:
			if (rec_str(r, k, NULL) != NULL || rec_bad(r) == NULL)
				abort();
			break;
		default:
			(void)rec_bool(r, k, &bv);
			break;
		}
	}
}

/* Under fuzz_strict too: the typed getters, which mark a record bad, never exit. */
static void
run_getters(void *arg)
{
	struct job *jb = arg;
	struct rec *r, *d;

	if ((r = parse(jb->line, jb->len, "fuzz:1")) == NULL)
		return;
	read_all(r, jb->opt);
	d = rec_dup(r);
	read_all(d, 0);
	rec_free(d);
	rec_free(r);
}

/* Under fuzz_strict: reading, changing and writing, which return their errors. */
static void
run(void *arg)
{
	struct job *jb = arg;
	struct rec *r, *d, *r2;
	struct buf b = { 0 };
	const char *k, *raw, *raw2;
	size_t len, len2;

	if ((r = parse(jb->line, jb->len, "fuzz:1")) == NULL)
		return;
	read_safe(r);
	if (jb->opt & 2)
		rec_set_str(r, "kind", "op");
	if (jb->opt & 4)
		rec_set_int(r, "id", (long long)jb->len);
	if (jb->opt & 8)
		rec_set_num(r, "device_ns", jb->len * 0.5);
	if (jb->opt & 16)
		rec_del(r, "id");
	if ((jb->opt & 32) && (k = rec_key(r, 0)) != NULL) {
		char key[64];
		strlcpy(key, k, sizeof(key));
		rec_del(r, key);
	}
	if (jb->opt & 64)
		rec_set_raw(r, "x", "[1,{\"a\":null}]", 14);
	if (jb->opt & 128) {
		rec_set_strn(r, "s", jb->line, jb->len > 16 ? 16 : jb->len);
		rec_set_null(r, "n");
		rec_set_bool(r, "b", true);
	}
	d = rec_dup(r);
	read_safe(d);
	rec_format(r, &b);
	rec_format(d, &b);
	/* Both formatted lines are records again, equal to each other. */
	if (b.len % 2 != 0 || memcmp(b.p, b.p + b.len / 2, b.len / 2) != 0)
		abort();
	if ((r2 = parse(b.p, b.len / 2 - 1, "fuzz:2")) == NULL)
		abort();
	read_safe(r2);
	/* the value of a key reads back as written */
	raw = rec_raw(r, "id", &len);
	raw2 = rec_raw(r2, "id", &len2);
	if ((raw == NULL) != (raw2 == NULL) ||
	    (raw != NULL && (len != len2 || memcmp(raw, raw2, len) != 0)))
		abort();
	rec_free(r2);
	rec_free(d);
	rec_free(r);
	buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct job jb;
	const uint8_t *nl;

	jb.opt = fuzz_byte(&in);
	while (in.n > 0) {
		nl = memchr(in.p, '\n', in.n);
		jb.line = (const char *)in.p;
		jb.len = nl != NULL ? (size_t)(nl - in.p) : in.n;
		/* rec_parse gets exactly len bytes: copy them so that ASan sees overreads. */
		char *copy = malloc(jb.len ? jb.len : 1);
		memcpy(copy, jb.line, jb.len);
		jb.line = copy;
		fuzz_strict(run, &jb);
		fuzz_strict(run_getters, &jb);
		free(copy);
		if (nl == NULL)
			break;
		in.n -= (size_t)(nl - in.p) + 1;
		in.p = nl + 1;
		jb.opt = (jb.opt * 33 + 7) & 0xff;
	}
	return 0;
}
