/* SPDX-License-Identifier: ISC */
/*
 * hwspec: the one table of accelerator hardware specifications (architecture name,
 * worker-core budget, DRAM bandwidth, matmul throughput per core for each math
 * fidelity), the built-in entries of tt-perf-report (wormhole, blackhole, bh20, n1)
 * with the exact doubles its Python computes, and more entries or overrides loaded at
 * run time from a small JSON file (hwspec_load), so a new chip needs no rebuild.
 *
 * GPUs live in the same table as entries of kind HW_GPU: memory bandwidth (dram_gbps)
 * and peak TFLOP/s per compute spec ("matrix_bf16", "vector_fp32", ...; TraceLens's
 * names), from the vendors' datasheets (docs/tracelens.md §6.1) or from
 * TraceLens's arch JSON files. TT lookups (hwspec_find, hwspec_names) see only TT
 * chips; GPU lookups (hwspec_gpu_*) only GPUs.
 */
#ifndef TTP_HWSPEC_H
#define TTP_HWSPEC_H

#include <stddef.h>

/* Math fidelities, in the order of the spec file's "tflops_per_core" members. */
enum fidelity { FID_HIFI4, FID_HIFI2, FID_LOFI, FID_HIFI3, FID_N };

#define HWSPEC_NAMESZ 32
#define HWSPEC_SPECSZ 24	/* longest compute-spec name + 1 */
#define HWSPEC_MAXPEAKS 24

enum hwkind { HW_TT, HW_GPU };

struct hwpeak {
	char	 spec[HWSPEC_SPECSZ];	/* "matrix_bf16", "vector_fp32", ... */
	double	 tflops;
};

struct hwspec {
	char	 name[HWSPEC_NAMESZ];	/* lower case: "wormhole", "h100" */
	int	 worker_cores;		/* default worker-core budget (TT only) */
	double	 dram_gbps;		/* DRAM (HBM) bandwidth, GB/s */
	double	 tflops[FID_N];		/* TFLOP/s per core; 0 = fidelity not modelled */
	enum hwkind kind;
	/* GPUs only: */
	const char *model;		/* datasheet name: "NVIDIA H100 SXM" */
	const char *source;		/* "datasheet" or the arch file's path */
	size_t	 npeaks;
	struct hwpeak peaks[HWSPEC_MAXPEAKS];
};

/* The fidelity named s ("HiFi4", "HiFi2", "LoFi", "HiFi3"; exact spelling), or -1. */
int hwspec_fidelity(const char *s);
/* Name of a fidelity as written in traces. */
const char *hwspec_fidelity_name(int fid);

/* The architecture named name, case-insensitive; "wormhole_b0" is "wormhole".
 * NULL when unknown. */
const struct hwspec *hwspec_find(const char *name);
/* Known names, ", "-separated, in table order (for error messages). Static buffer. */
const char *hwspec_names(void);
/* Per-core TFLOP/s for fid, or 0 when the architecture does not model it. */
double hwspec_tflops(const struct hwspec *hw, int fid);

/* The GPU named name ("h100", "MI300X", "h100-pcie"; case-insensitive), or NULL. */
const struct hwspec *hwspec_gpu_find(const char *name);
/* The GPU whose model name a device name from a trace's deviceProperties contains
 * ("NVIDIA H100 80GB HBM3" is h100, "AMD Instinct MI300X VF" is mi300x; "H100" with
 * "PCIe" is h100-pcie), or NULL when none matches. */
const struct hwspec *hwspec_gpu_match(const char *device);
/* Known GPU names, ", "-separated. Static buffer. */
const char *hwspec_gpu_names(void);
/* Peak TFLOP/s of hw for a compute spec ("matrix_bf16"), or 0 when it has none. */
double hwspec_peak(const struct hwspec *hw, const char *spec);
/* The GPU most recently loaded from a TraceLens arch file, or NULL. */
const struct hwspec *hwspec_gpu_loaded(void);

/*
 * Load a spec file: one JSON object or an array of objects, each
 *   {"name": "quasar", "worker_cores": 32, "dram_gbps": 600,
 *    "tflops_per_core": {"HiFi4": 1.5, "HiFi2": 3, "LoFi": 6}, "aliases": ["qsr"]}
 * An entry whose name is known overrides the members it gives; a new name needs
 * worker_cores, dram_gbps and tflops_per_core.
 * A file in TraceLens's arch format instead,
 *   {"name": "MI300X", "mem_bw_gbps": 5300, "memory_gb": 192,
 *    "max_achievable_tflops": {"matrix_bf16": 708, "vector_fp32": 81, ...}}
 * loads a GPU: a known GPU name gets the file's bandwidth and peaks instead of the
 * datasheet's, a new name is added; hwspec_gpu_loaded returns it. Returns 0, or -1 with
 * err set ("file: what is wrong", "file:line: ..." for bad JSON); the entries before a
 * bad one stay loaded.
 */
struct error;
int hwspec_load(const char *path, struct error *err);

#endif
