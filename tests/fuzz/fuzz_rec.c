/* SPDX-License-Identifier: ISC */
/*
 * fuzz_rec: libFuzzer target for lib/rec.c. Every line of the input is parsed with
 * rec_parse; every key is read with every getter that fits its rec_type (and one that
 * does not, which must be a clean error), a few keys are set and deleted, the record
 * is duplicated and formatted, and the formatted line must parse again.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/rec.h"
#include "core/recjson.h"
#include "fuzz.h"

struct job {
	const char	*line;
	size_t		 len;
	unsigned	 opt;
};

static void
read_all(struct rec *r, unsigned opt)
{
	const char *k, *s, *raw;
	size_t i, len;
	long long iv;
	double dv;
	bool bv;
	json_t *j;
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
			if (!rec_int(r, k, &iv) || !rec_num(r, k, &dv))
				abort();
			break;
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
		default:
			break;
		}
		if ((j = rec_json(r, k)) != NULL)
			json_decref(j);
	}
	/* A getter of the wrong type on the first key: an error (exit), or missing. */
	if ((opt & 1) && (k = rec_key(r, 0)) != NULL) {
		switch (rec_type(r, k)) {
		case REC_STRING: (void)rec_int(r, k, &iv); break;
		case REC_INT: (void)rec_str(r, k, NULL); break;
		default: (void)rec_bool(r, k, &bv); break;
		}
	}
}

static void
run(void *arg)
{
	struct job *jb = arg;
	struct rec *r, *d, *r2;
	struct buf b = { 0 };
	const char *k;
	long long iv;

	r = rec_parse(jb->line, jb->len, "fuzz:1");
	read_all(r, jb->opt);
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
	read_all(d, 0);
	rec_format(r, &b);
	rec_format(d, &b);
	/* Both formatted lines are records again, equal to each other. */
	if (b.len % 2 != 0 || memcmp(b.p, b.p + b.len / 2, b.len / 2) != 0)
		abort();
	r2 = rec_parse(b.p, b.len / 2 - 1, "fuzz:2");
	read_all(r2, 0);
	if (rec_has(r, "id") && rec_type(r, "id") == REC_INT && !rec_int(r2, "id", &iv))
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
		fuzz_guard(run, &jb);
		free(copy);
		if (nl == NULL)
			break;
		in.n -= (size_t)(nl - in.p) + 1;
		in.p = nl + 1;
		jb.opt = (jb.opt * 33 + 7) & 0xff;
	}
	return 0;
}
