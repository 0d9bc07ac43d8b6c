/* SPDX-License-Identifier: ISC */
/*
 * xplane: a JAX / TensorFlow profile (an XSpace protobuf, "*.xplane.pb", plain or gzip)
 * to ttp records (docs/jax.md §1, §10; ttp-record(5), JAX section): one "trace" record
 * (hosts, devices with their capability stats, the HLO modules), then one "gpu" record
 * per event of a device plane's "Stream" lines, in xprof's order (pid, tid, start,
 * longest first), each with xprof's pid and tid, its UID as TraceLens numbers it (spec
 * §1.4, without xprof's derived lines), its stats, the start of the host event that
 * launched it (same correlation_id), and the facts of its HLO instruction (opcode,
 * shapes, metadata, custom-call target) from the module embedded in the file under
 * "<hlo_module>(<program_id>)".
 *
 * The file is read in bounded windows (jax/xsrc.h): each plane twice, its metadata maps
 * first (protobuf writes them after the lines), then its lines; only per-event sort
 * keys, the launch map and the HLO modules that kernels name are held.
 */
#ifndef TTP_XPLANE_H
#define TTP_XPLANE_H

#include <stddef.h>
#include <stdio.h>

struct error;

/* Whether the n bytes at p (a file's beginning) look like an XSpace: field 1 (planes),
 * whose first fields are the plane's id and a name starting "/host:" or "/device:". */
int xplane_sniff(const unsigned char *p, size_t n);

/* Read path ("-": standard input; named name in messages) and write its records to
 * out (the sink: the standard output, or a memory stream). 0, or -1 with err set
 * ("file: byte N: what is wrong"). */
int xplane_parse(const char *path, const char *name, int verbose, FILE *out,
    struct error *err);

#endif
