/* SPDX-License-Identifier: ISC */
/*
 * recjson: a record's values as jansson trees, for the modules that still walk whole
 * nested values that way (the PyTorch roofline and sheets). rec.h's typed access
 * (rec_str, rec_int, rec_strv, tensors through tensor.h, rec_set_raw with json.h's
 * writer) covers the rest without jansson, so rec.h does not include it.
 */
#ifndef TTP_RECJSON_H
#define TTP_RECJSON_H

#include <jansson.h>

struct rec;

/* Any value as a new jansson reference (caller decrefs); NULL when absent. */
json_t *rec_json(struct rec *r, const char *key);
/* Set key to v (not stolen). */
void rec_set_json(struct rec *r, const char *key, const json_t *v);

#endif
