/* SPDX-License-Identifier: ISC */
/*
 * roofline (torch): ttp-roofline for PyTorch records ("trace":"kineto"): the op
 * category of every op (opclass), the perf model's figures where TraceLens has one
 * (perfmodel), the achieved TFLOP/s and TB/s over the busy time of the op's whole
 * subtree, and, when the GPU is known, the roofline of docs/tracelens.md §6.
 * Backward ops linked to a modelled forward op ("fwd") get that model's backward
 * figures. The GPU comes from --arch, else a TraceLens arch file (--spec), else the
 * trace record's device names. The keys are documented in ttp-record(5).
 */
#ifndef TTP_TORCH_ROOFLINE_H
#define TTP_TORCH_ROOFLINE_H

#include <stdbool.h>

struct hwspec;
struct rec;
struct troof;

/* arch: a GPU named by --arch, or NULL; spec: a GPU from a TraceLens arch file, or
 * NULL. Either wins over the trace's devices (arch first). */
struct troof *troof_new(const struct hwspec *arch, const struct hwspec *spec);
/* One record of a Kineto trace: a "trace" record sets the GPU; an "op" record gets its
 * keys. Other records are left alone. A record it cannot use (an "in" that is not an
 * array of objects, a key of the wrong type) is marked bad (rec_bad) for the program
 * to decide, and a bad signpost or op adds nothing to what later ops read. */
void troof_record(struct troof *t, struct rec *r);
/* TraceLens's inference-report behaviour. pseudo_ops (--enable_pseudo_ops): a CPU op
 * named sglang_profiler::NAME_<digits> becomes NAME before it is categorised and
 * modelled. step_counts (the default; TraceLens's training report reads none): the
 * InferenceAttention ops read the attention counts of the step annotation (signpost)
 * that encloses them. */
void troof_inference(struct troof *t, bool pseudo_ops, bool step_counts);
/* verbose (-v): a note for each op name a model failed on, where it is first met;
 * else one note per cause, at the end. */
void troof_verbose(struct troof *t, bool verbose);
/* Notes on what was not modelled (one line per cause, on stderr), then free. */
void troof_free(struct troof *t);

#endif
