/* SPDX-License-Identifier: ISC */
/*
 * fuzz: what every libFuzzer target of ttp shares (tests/fuzz/fuzz_exit.c).
 *
 * The readers (csvread, ttmetal, kineto, json, mlirloc, and rec's rec_parse and
 * rec_next) return their errors, and the record stages (rec's typed getters, filter,
 * window, stepwin, roofline, phase, table) mark the records they cannot use bad and
 * return the run's errors: every target runs under fuzz_strict, for which an exit is a
 * finding, the stages with the skip policy (badrec.h). Before that, the stages reported
 * bad input by printing a message and calling exit(1) (diag.h), and a
 * real exit would end the whole fuzzing run. The targets are therefore linked with
 * -Wl,--wrap=exit: every exit() in the library lands in __wrap_exit, which longjmps
 * back into fuzz_guard(). What the aborted run had allocated is then unreachable by
 * design (the program would have ended), so fuzz_guard closes the streams (fopen,
 * fdopen, tmpfile, fopencookie are wrapped too) and descriptors opened during that run,
 * frees its big blocks (reader buffers; without that the fuzzer runs out of memory in
 * minutes) and tells LeakSanitizer to ignore the rest of what it allocated. Runs that
 * return normally get no such help: a block they leave unreachable is a finding
 * (checked by fuzz_guard; libFuzzer's own -detect_leaks is off, it would flag every
 * exited run).
 */
#ifndef TTP_FUZZ_H
#define TTP_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Run fn(arg) as one program run. Returns -1 when it returned, else the exit status
 * it tried to exit with. */
int fuzz_guard(void (*fn)(void *), void *arg);
/* Called by the first fuzz_guard (after libFuzzer has set up its descriptors): stdout goes to
 * /dev/null, fuzz_null is a FILE on /dev/null, and the baseline of open fds is taken. */
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
/* Split data into jb and run fn(jb) under fuzz_guard. */
void fuzz_run_job(const uint8_t *data, size_t size, void (*fn)(void *), struct fuzz_job *jb);
/* Run fn(arg) for code that returns its errors (the readers: csvread, ttmetal, kineto,
 * json, mlirloc, rec): an exit is a finding (abort), a leak too. */
void fuzz_strict(void (*fn)(void *), void *arg);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
#endif
