/* SPDX-License-Identifier: ISC */
/*
 * opclass: what kind of TT-Metal op a name or op type says, the one place for the
 * substring rules of tt-perf-report (spec 9, 13, 16, 21) that the filter, the
 * metrics, the merge, the report and the phases share. The op's category (Compute,
 * DM, TM, ...) is metrics_category's; its colour in the report is colour.c's.
 */
#ifndef TTP_OPCLASS_H
#define TTP_OPCLASS_H

#include <stdbool.h>
#include <stddef.h>

/* A host fallback: "(torch)" in the name (or in the label the report shows). */
bool opclass_host(const char *name);
/* A matmul: "Matmul" in the name or label; n bytes, not NUL-terminated. */
bool opclass_matmul(const char *name, size_t n);
/* A convolution: "OptimizedConvNew" or "Conv2d". */
bool opclass_conv(const char *name);
/* The halo exchange of a convolution. */
bool opclass_halo(const char *name);
/* A collective (AllGather, ReduceScatter, AllReduce): devices need not agree on it. */
bool opclass_collective(const char *name);
/* OP TYPE of an op that ran on the device ("tt_dnn_device"); NULL is not one. */
bool opclass_device_type(const char *op_type);

/*
 * What tt-perf-report's report makes of an op by its OP Code cell (spec 9, 13, 16, 17): a
 * host op, a matmul (Bound, advice, the Matmul Optimization list), an OptimizedConvNew (its
 * Math Fidelity cell coloured as a matmul's). ttp-roofline computes them on the label and
 * writes them as the booleans host, matmul and conv_new (ttp-record(5)); ttp-table reads
 * those, and calls this only for records without them (no ttp-roofline ran: on the op
 * name; records of an older ttp-roofline: on their label).
 */
enum { OPC_HOST = 1, OPC_MATMUL = 2, OPC_CONV_NEW = 4 };
unsigned opclass_report(const char *label, size_t n);

#endif
