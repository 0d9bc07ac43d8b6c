/* SPDX-License-Identifier: ISC */
/* kreader: PyTorch profiler traces (Kineto JSON) as a row of ttp-parse's readers
 * (core/reader.h): a JSON document; several traces are ranks (torch/kineto.h). */
#ifndef TTP_KREADER_H
#define TTP_KREADER_H

#include "core/reader.h"

extern const struct reader kineto_reader;

#endif
