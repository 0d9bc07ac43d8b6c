/* SPDX-License-Identifier: ISC */
/*
 * phase: tagging op records with the phase of the run they belong to (ttp-phase).
 *
 * The methods, and "auto" that picks one:
 *   signpost  each op's phase is the name of the signpost that opened its segment of the
 *             stream ("start" before the first one); iter counts the occurrences of that
 *             name. Fully streaming.
 *   steps     each op's phase is that of the engine step annotation (step.h) enclosing
 *             its host start on its rank: prefill, decode, mixed, idle (and diffusion,
 *             capture, or "step" for profiler steps); iter numbers the steps; the
 *             step's request and token counts become keys. Ops in no step: "outside".
 *   matmul-m  a matmul whose logical M (in[0] W*Z*Y) is at most a threshold is "decode",
 *             a larger one "prefill"; other ops take the phase of the matmuls around them.
 *   repeat    the longest stretch of the op-name sequence that repeats with one period is
 *             "decode" with iter 1, 2, ...; what comes before it "prefill" (when it holds a
 *             large-M matmul) or "warmup", what comes after it "tail".
 *   gemm-params, kernel-names, attention, framework, frequency, hybrid, union
 *             TraceLens's heuristics (guess.h) on kernel-launcher ops: prefill, decode
 *             or mixed; other ops get no phase.
 * The methods that must see the whole stream keep a compact per-op array and spool the
 * record lines to a temporary file, then replay them with the tags added.
 * The algorithms are exposed separately so that they can be tested without records.
 */
#ifndef TTP_PHASE_H
#define TTP_PHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct badrec;
struct rec_reader;

enum phase_by {
	PHASE_AUTO, PHASE_SIGNPOST, PHASE_MATMUL_M, PHASE_REPEAT, PHASE_STEPS,
	/* TraceLens's heuristics, in the order of enum guess_method */
	PHASE_GEMM_PARAMS, PHASE_KERNEL_NAMES, PHASE_ATTENTION, PHASE_FRAMEWORK,
	PHASE_FREQUENCY, PHASE_HYBRID, PHASE_UNION
};

struct phase_opts {
	enum phase_by	by;
	long long	threshold;	/* largest M that is decode; -1: the method's default
					 * (32 for matmul-m and repeat, 10 for the heuristics) */
	int		verbose;	/* say what was found */
	int		quiet;		/* no note about the method auto chose */
	struct badrec	*bad;		/* the program's policy for bad records (NULL:
					 * stop at the first) */
};

#define PHASE_THRESHOLD 32

/* "auto", "signpost", "steps", "matmul-m", "repeat", "gemm-params", "kernel-names",
 * "attention", "framework", "frequency", "hybrid", "union" (also "signposts", "matmul",
 * "step"); false if unknown. */
bool phase_by_parse(const char *s, enum phase_by *by);
const char *phase_by_name(enum phase_by by);

/* Read every record of rd, write them to out in the same order, op records tagged. A
 * record that is bad (a bad line, a key of the wrong type) goes to o->bad: stop, or
 * leave it out of the output and of every method's view; badrec_end is the caller's. */
void phase_tag(struct rec_reader *rd, FILE *out, const struct phase_opts *o);

/* --- the algorithms ------------------------------------------------------------------ */

/* The logical M of an op from its first input (in[0], see tensor.h): W*Z*Y of its
 * logical shape, or of its shape when it has no logical one (saturating at LLONG_MAX).
 * -1 when unknown (no in[0], in[0] null, no shape). */
struct tensor;
long long phase_m(const struct tensor *in0);

/* matmul-m classes, per op */
enum { PM_NONE = 0, PM_DECODE = 1, PM_PREFILL = 2 };

/* mm[i]: the class of op i if it is a matmul with known M, else PM_NONE; own[i]: the
 * class its own in[0] M implies (PM_NONE when unknown). Writes PM_DECODE/PM_PREFILL
 * into out[i] for every op. Rule: ops before the first matmul take its class, ops after
 * the last one take its class, ops between two matmuls of one class take that class;
 * between a matmul of one class and a matmul of the other, the boundary goes where it
 * contradicts the fewest ops' own M (ties: the earliest place, so that ops without a
 * shape go with the matmul they lead to). False (out untouched) when there is no matmul. */
bool phase_split_matmul(const uint8_t *mm, const uint8_t *own, size_t n, uint8_t *out);

#endif
