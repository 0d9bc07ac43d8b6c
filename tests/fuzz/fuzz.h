/* SPDX-License-Identifier: ISC */
/*
 * fuzz: what every libFuzzer target of ttp shares (tests/fuzz/fuzz.c).
 *
 * The readers (csvread, ttmetal, kineto, json, mlirloc, and rec's rec_parse and
 * rec_next) return their errors, and the record stages (rec's typed getters, filter,
 * window, stepwin, roofline, phase, table) mark the records they cannot use bad and
 * return the run's errors, so no library code ends the process on any input: every
 * target runs its input under fuzz_strict, the stages with the skip policy
 * (core/badrec.h). A run that calls exit() is a finding (libFuzzer reports a target
 * that exits and keeps the input), and so is a block a run leaves unreachable
 * (libFuzzer's -detect_leaks, on: blocks still reachable, such as caches, are fine).
 */
#ifndef TTP_FUZZ_H
#define TTP_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Called by the first fuzz_strict (after libFuzzer has set up its descriptors): stdout
 * goes to /dev/null, fuzz_null is a FILE on /dev/null. */
void fuzz_setup(void);
extern FILE *fuzz_null;
/* Write data to this process's scratch file number n (0..3) and return its path. */
const char *fuzz_file(int n, const uint8_t *data, size_t size);
/* Split the input at the first line "\x1e" or similar: a cursor over the bytes. */
struct fuzz_in {
	const uint8_t	*p;
	size_t		 n;
};
/* Take one byte of options from the front (0 when empty). */
unsigned fuzz_byte(struct fuzz_in *in);

/* The usual job: one byte of options, then the bytes a target reads as records. */
struct fuzz_job {
	const uint8_t	*p;
	size_t		 n;
	unsigned	 opt;
};
/* Split data into jb: the options byte, the rest. */
void fuzz_job_split(const uint8_t *data, size_t size, struct fuzz_job *jb);
/* Run fn(arg) as one program run: an exit is a finding, a leak too. */
void fuzz_strict(void (*fn)(void *), void *arg);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
#endif
