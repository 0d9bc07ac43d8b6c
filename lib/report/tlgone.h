/* SPDX-License-Identifier: ISC */
/*
 * tlgone: the op records tltree does not keep, and the links through them (tlgone.c).
 * Private to lib/report: tltree.c's.
 */
#ifndef TTP_REPORT_TLGONE_H
#define TTP_REPORT_TLGONE_H

#include <stddef.h>

struct tl;

/* How many ops not kept stay in memory before the spool (TTP_TL_GONE_MEM, else 16,384). */
size_t tl_gone_mem(void);
/* An op record not kept: its id, its parent's id (-1: none) and its rank. */
void tl_gone_add(struct tl *tl, long long id, long long parent, long long rank);
/* Each kept op's parent link (up) from its parent id (struct top's parent), through the ops not
 * kept; then nothing of them is kept. Needs tl->byid. */
void tl_gone_link(struct tl *tl);
void tl_gone_free(struct tl *tl);

#endif
