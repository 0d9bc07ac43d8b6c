/* SPDX-License-Identifier: ISC */
/*
 * fuzz_kineto: libFuzzer target for the PyTorch trace reader (lib/torch/kineto.c) and the
 * JSON tokenizer under it (lib/core/json.c). The input is read whole by kineto_parse (with
 * python functions and verbose notes as the option byte says), and tokenized twice, at
 * once and in small chunks: both must give the same tokens, texts, depths and offsets,
 * and end the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/json.h"
#include "torch/kineto.h"
#include "fuzz.h"

struct chunks {
	const uint8_t	*p;
	size_t		 n, off, chunk;
};

static size_t
read_chunks(void *ctx, char *b, size_t n)
{
	struct chunks *c = ctx;

	if (n > c->chunk)
		n = c->chunk;
	if (n > c->n - c->off)
		n = c->n - c->off;
	memcpy(b, c->p + c->off, n);
	c->off += n;
	return n;
}

/* Every token as text; skips and captures where the option byte says. */
static void
tokens(struct js_reader *rd, struct buf *out, unsigned opt)
{
	enum js_tok t;
	const char *s;
	size_t n, k = 0;

	do {
		t = js_next(rd);
		if (t == JS_OBJECT && (opt & 16) && (k++ & 3) == 1)
			t = js_skip(rd);
		else if (t == JS_ARRAY && (opt & 32) && (k++ & 3) == 2)
			t = js_capture(rd, out);
		else if (t == JS_KEY && (opt & 64) && (k++ & 7) == 3)
			t = js_skip_rest(rd);
		buf_printf(out, "%d@%llu/%d:", (int)t, (unsigned long long)js_offset(rd),
		    js_depth(rd));
		if (t == JS_ERROR) {
			buf_adds(out, js_error(rd));
			break;
		}
		if (t == JS_STRING || t == JS_KEY) {
			s = js_str(rd, &n);
			if (s == NULL || s[n] != '\0')
				abort();
			buf_add(out, s, n);
		} else if (t == JS_NUMBER) {
			s = js_text(rd, &n);
			if (js_number_len(s, n) != n)
				abort();
			buf_add(out, s, n);
		}
		buf_addc(out, '\n');
	} while (t != JS_END);
}

static void
tokenize_twice(const uint8_t *p, size_t n, unsigned opt)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	struct chunks c = { p, n, 0, 1 + (opt & 7) };
	struct js_reader *rd;

	rd = js_open_mem((const char *)p, n);
	js_set_limits(rd, 4096, 64);
	tokens(rd, &a, opt);
	js_close(rd);
	rd = js_open(read_chunks, &c);
	js_set_limits(rd, 4096, 64);
	tokens(rd, &b, opt);
	js_close(rd);
	if (a.len != b.len || memcmp(a.p, b.p, a.len) != 0)
		abort();
	buf_free(&a);
	buf_free(&b);
}

static void
run(void *arg)
{
	struct fuzz_job *jb = arg;
	struct kineto_opts o = { 0 };
	struct error err = ERROR_INIT;
	FILE *fp;

	o.python = jb->opt & 1;
	o.verbose = (jb->opt >> 1) & 1;
	if ((fp = fopen(fuzz_file(0, jb->p, jb->n), "r")) == NULL)
		abort();
	if (kineto_parse(fp, "fuzz", (jb->opt & 4) ? 1 : -1, &o, stdout, &err) != 0 &&
	    !error_is_set(&err))
		abort();
	error_free(&err);
	fclose(fp);
	fflush(stdout);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_job jb;

	fuzz_job_split(data, size, &jb);
	fuzz_strict(run, &jb);
	tokenize_twice(jb.p, jb.n, jb.opt);
	return 0;
}
