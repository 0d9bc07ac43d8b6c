/* SPDX-License-Identifier: ISC */
/* jreader: JAX/TensorFlow profiles (XSpace protobuf, .xplane.pb) as a row of ttp-parse's
 * readers (core/reader.h): each file on its own, one host each (jax/xplane.h). */
#ifndef TTP_JREADER_H
#define TTP_JREADER_H

#include "core/reader.h"

extern const struct reader xplane_reader;

#endif
