/* SPDX-License-Identifier: ISC */
/*
 * guess: the prefill/decode heuristics of TraceLens's unmerged inference-phase branch
 * (docs/tracelens.md §9.2), rule for rule and quirk for quirk, for traces without step
 * annotations. They label kernel-launcher ops from their names, their kernels' names,
 * the leading dimension of their first input and how often their name occurs. The spec
 * shows several of them mislabelling real traces; ttp-phase(1) says which.
 *
 * Two steps: guess_row labels one row from what the row holds; guess_finish then
 * applies the name-frequency rules (frequency, hybrid, union) over all rows.
 */
#ifndef TTP_GUESS_H
#define TTP_GUESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum guess_label { GL_MIXED = 0, GL_PREFILL = 1, GL_DECODE = 2 };

enum guess_method {
	GM_GEMM_PARAMS,		/* detect_inference_phase */
	GM_KERNEL_NAMES,	/* _detect_by_kernel_names */
	GM_ATTENTION,		/* _detect_by_attention_patterns */
	GM_FRAMEWORK,		/* _detect_by_framework_apis */
	GM_FREQUENCY,		/* _detect_by_operation_frequency */
	GM_HYBRID,		/* _detect_hybrid */
	GM_UNION		/* detect_inference_phase_union */
};

#define GUESS_THRESHOLD 10	/* TraceLens's --decode_threshold default */

/* One kernel-launcher row. text: the op name and its kernels' names, lower-cased and
 * joined with single spaces (guess_text builds it). m: the leading dimension of the
 * op's first input when the op has at least two inputs and that dimension is a
 * positive integer, else -1. */
struct guess_row {
	const char	*name;
	size_t		 namelen;
	const char	*text;
	size_t		 textlen;
	long long	 m;
};

/* Append the lower-cased names to b-like storage: dst must hold the sum of the lengths
 * plus one separator each; returns the length written (no NUL). */
size_t guess_text(char *dst, const char *const *names, const size_t *lens, size_t n);

/* The label of one row by the row alone. For GM_FREQUENCY it is always GL_MIXED; for
 * GM_HYBRID and GM_UNION GL_MIXED means "left to guess_finish". */
enum guess_label guess_row(enum guess_method m, const struct guess_row *r,
    long long threshold);

/* The frequency rules over all rows: sym[i] is row i's name as a small integer
 * (< nsym), label[i] its guess_row label, changed in place. No-op for the methods
 * without a frequency rule. */
void guess_finish(enum guess_method m, const uint32_t *sym, size_t n, size_t nsym,
    uint8_t *label);

/* pandas' Series.quantile(q) (linear interpolation) of v[0..n), which it sorts. */
double guess_quantile(double *v, size_t n, double q);

#endif
