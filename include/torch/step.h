/* SPDX-License-Identifier: ISC */
/*
 * step: the grammar of the step annotations that inference engines and the PyTorch
 * profiler write into traces (user annotations, profiler steps), and the phase each one
 * names. TraceLens's annotation_utils reads the same strings (docs/tracelens.md §9.1);
 * the formats, their priority and the counts they carry are its, with the differences
 * listed at step_parse.
 *
 *   vLLM detailed   execute_<n>_context_<Rc>(sq<a>sk<b>sqsq<c>sqsk<d>)
 *                       _generation_<Rg>(sq<e>sk<f>sqsq<g>sqsk<h>)
 *   vLLM native     execute_context_<Rc>(<tok>)_generation_<Rg>(<tok>)
 *   SGLang detailed step[EXTEND|DECODE|MIXED ... c_sq=.. c_sqsq=.. g_sq=.. ...]
 *   SGLang native   step[EXTEND|DECODE|MIXED bs=<N>[ toks=<T>]]
 *   ATOM            prefill[bs=<N> tok=<T> ...] / decode[bs=<N>[/<pad>] tok=<T> ...]
 *                   (detailed when the body holds sqsq=)
 *   diffusion       execute_diffusion_<bs>_<W>x<H>
 *   capture         capture_<bs>_<mode>            (a CUDA/HIP graph capture)
 *   profiler step   ProfilerStep#<N>
 *
 * An engine step is prefill when it runs context (prompt) requests only, decode when it
 * runs generation requests only, mixed when both, idle when neither.
 */
#ifndef TTP_STEP_H
#define TTP_STEP_H

#include <stdbool.h>
#include <stddef.h>

enum step_kind {
	STEP_NONE,		/* not a step annotation */
	STEP_VLLM_DETAILED,
	STEP_VLLM_NATIVE,
	STEP_SGLANG_DETAILED,
	STEP_SGLANG_NATIVE,
	STEP_ATOM_DETAILED,
	STEP_ATOM_NATIVE,
	STEP_DIFFUSION,
	STEP_CAPTURE,
	STEP_PROFILER
};

enum step_phase {
	SP_PREFILL, SP_DECODE, SP_MIXED, SP_IDLE,	/* engine steps */
	SP_DIFFUSION, SP_CAPTURE, SP_PROFILER		/* the others */
};

struct step {
	enum step_kind	kind;
	enum step_phase	phase;
	/* Requests and tokens as TraceLens counts them (0 when the format has none);
	 * batch: TraceLens's batch_size (tokens in the step, or the batch given). */
	long long	context_requests, generation_requests;
	long long	context_tokens, generation_tokens;
	long long	batch;
	long long	number;		/* ProfilerStep#<N>; -1 for the others */
	/* The attention counts of the detailed formats (TraceLens's chunk_stats): sums
	 * over the context (c_) and generation (g_) requests of the query length sq, the
	 * key length sk and their products; sqsk says the format carries them. */
	bool		sqsk;
	long long	c_sq, c_sk, c_sqsq, c_sqsk, g_sq, g_sk, g_sqsq, g_sqsk;
};

/* Parse the annotation s[0..n) (not NUL-terminated). False (st->kind = STEP_NONE) when
 * it is none of the formats. Like TraceLens, a format matches at the start of the
 * string and text after the match is allowed; numbers saturate at LLONG_MAX.
 * Differences from TraceLens: the vLLM native token count may be several numbers
 * joined by '_' ("execute_context_1(888_788544)_generation_0(0)", as vLLM writes it in
 * a shared B200 trace; the first is the token count), and SGLang's native
 * step[MIXED ...] is phase mixed (TraceLens counts its requests as context only, which
 * makes it prefill). */
bool step_parse(const char *s, size_t n, struct step *st);

/* "prefill", "decode", "mixed", "idle", "diffusion", "capture", "step". */
const char *step_phase_name(enum step_phase p);
/* "vllm-detailed", ..., "profiler"; "none" for STEP_NONE. */
const char *step_kind_name(enum step_kind k);
/* Which annotation decides when several enclose an op: 1 for the detailed engine
 * formats, 2 for the native ones and diffusion, 3 for captures, 4 for profiler steps,
 * 0 for STEP_NONE (TraceLens's tiers: detailed annotations are the steps when a trace
 * has any, native ones otherwise). */
int step_tier(enum step_kind k);

#endif
