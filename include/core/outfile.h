/* SPDX-License-Identifier: ISC */
/*
 * outfile: the output files a program names (CSV, SVG, xlsx), written whole or not at all.
 *
 * outfile_open makes a temporary file beside the target (same directory, so the final
 * rename is atomic); outfile_commit renames it into place, outfile_abort removes it. So:
 *   - a failed or interrupted run leaves the old file (or none), never a half-written one:
 *     temporaries still open at exit, or when HUP, INT, TERM or PIPE ends the process,
 *     are removed;
 *   - a symlink at the target is replaced, never written through (a link to a device or
 *     FIFO, /dev/stdout, is written directly, as is any target that is not a regular
 *     file: nothing is renamed over a device);
 *   - an output that is one of the run's inputs (the same file by device and inode, also
 *     through links) is refused before anything is written: io_open registers each input
 *     it opens; outfile_protect adds others (a driver's trace, read by an earlier stage).
 */
#ifndef TTP_OUTFILE_H
#define TTP_OUTFILE_H

#include <stdio.h>

struct error;
struct outfile;

/* No output may replace this file (an input of the run). Missing files are ignored. */
void outfile_protect(const char *path);
void outfile_protect_fd(int fd);
/* Whether path (links followed) is a protected file. */
int outfile_is_input(const char *path);

/* Whether path is written directly, not through a temporary: "-", a device, a FIFO or
 * a descriptor's alias (/dev/stdout, /dev/fd/N, /proc/self/fd/N, whatever it points to). */
int outfile_is_stream(const char *path);

/* A temporary file beside path for writing, or NULL with e set ("path: why"; an input
 * named as output: "path: is an input of this run: ..."). */
struct outfile *outfile_open(const char *path, struct error *e);
FILE *outfile_fp(struct outfile *f);
/* The temporary's name, for a library that opens the file itself by name (libxlsxwriter
 * writes it whole at close). Its stream (outfile_fp) is then left unused. */
const char *outfile_tmpname(const struct outfile *f);
/* The target's name, as given. */
const char *outfile_path(const struct outfile *f);
/* Close the stream (checking every write) and rename the temporary into place. 0, or -1
 * with e set and the temporary removed. f is freed either way. */
int outfile_commit(struct outfile *f, struct error *e);
/* Remove the temporary; f is freed. */
void outfile_abort(struct outfile *f);

#endif
