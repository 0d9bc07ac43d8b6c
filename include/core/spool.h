/* SPDX-License-Identifier: ISC */
/*
 * spool: an append-only temporary file of record lines, read back by offset.
 *
 * A stage that must look ahead (ttp-filter's default signpost window, device merging,
 * ttp-parse's sort, ttp-phase's look-ahead methods) writes every record line here and keeps only a compact summary per record in memory;
 * it then replays the lines it selects, in the order it chooses. The file is created in
 * $TMPDIR (default /tmp) and unlinked at once, so it vanishes when closed or at exit. Reads go
 * through a window buffer, so replaying in (nearly) file order costs one pass.
 * I/O errors are one message and exit 1.
 */
#ifndef TTP_SPOOL_H
#define TTP_SPOOL_H

#include <stddef.h>
#include <stdint.h>

struct spool;

struct spool *spool_open(void);
/* Append len bytes; returns the offset at which they start. */
uint64_t spool_add(struct spool *sp, const char *p, size_t len);
/* Total bytes appended so far. */
uint64_t spool_size(const struct spool *sp);
/* The len bytes at off, valid until the next spool call (not NUL-terminated). A read
 * that continues the last one fills the whole window; one elsewhere reads len bytes. */
const char *spool_get(struct spool *sp, uint64_t off, size_t len);
/* The line at *off (through its '\n', or to the end), its length in *len, *off moved
 * past it; NULL at the end. Valid until the next spool call. */
const char *spool_line(struct spool *sp, uint64_t *off, size_t *len);
/* Copy the len bytes at off into dst (any length; the window is left alone). */
void spool_pread(struct spool *sp, uint64_t off, void *dst, size_t len);
/* Empty the spool, for reuse. */
void spool_reset(struct spool *sp);
void spool_close(struct spool *sp);

/*
 * spsort: an external sort of fixed-size binary records. Records are added in any order;
 * every SPSORT_RUN bytes of them are sorted in memory and written to a spool as a run;
 * spsort_next then merges the runs (or walks the one run still in memory). Memory: one
 * run plus a read buffer per run, whatever the count. cmp must be a total order (ties
 * broken by a unique field): the runs are not merged stably. The environment variable
 * TTP_SPSORT_RUN=N (N records per run) forces small runs, for tests.
 */
#define SPSORT_RUN	((size_t)4 << 20)

struct spsort;

struct spsort *spsort_new(size_t recsz, int (*cmp)(const void *, const void *));
void spsort_add(struct spsort *s, const void *rec);
/* The records added so far. */
uint64_t spsort_count(const struct spsort *s);
/* After the last add: the next record in order, NULL after the last one. Valid until the
 * next call. */
const void *spsort_next(struct spsort *s);
/* The runs written so far (0 when everything fits in memory). */
size_t spsort_runs(const struct spsort *s);
void spsort_free(struct spsort *s);

/* The spool's file alone: an unlinked temporary file in $TMPDIR, open for reading and
 * writing (its descriptor; failure is one message and exit 1), and a write of all of n
 * bytes to it (0, or -1 with errno set). */
int spool_tmpfd(void);
int spool_writefd(int fd, const char *p, size_t n);

#endif
