# SPDX-License-Identifier: ISC
# fuzz.mk: libFuzzer targets for ttp (tests/fuzz/fuzz_*.c). Included by the Makefile
# (`include tests/fuzz/fuzz.mk`) or run on its own (`make -f tests/fuzz/fuzz.mk fuzz`).
#
#   make fuzz                   build every target, seed, run each FUZZ_SECONDS (60)
#   make fuzz FUZZ_SECONDS=600 FUZZ_TARGETS="fuzz_rec fuzz_csv"
#   make -j2 fuzz               two targets at a time
#   make fuzz-build             only build build/fuzz/fuzz_*
#
# Every library file is compiled again with clang -fsanitize=fuzzer-no-link,address,
# undefined into build/fuzz/obj/ (the normal build is not touched). An exit() during a
# run is a finding, a leak too (tests/fuzz/fuzz.h). The corpora live in
# build/fuzz/corpus/<target>/ and grow from run to run; they are seeded from the real
# traces ($(SHARED)/data/ttmetal, extra/: their first lines), tests/data, the golden
# cases' inputs and ttp-parse/ttp-roofline/ttp-phase output of tests/data/sample.csv.
# A crash, a leak or any sanitizer report fails the run (libFuzzer exits non-zero) and
# leaves the input in build/fuzz/crash/; replay one with build/fuzz/<target> FILE.

FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS  ?= -O1 -g -fno-omit-frame-pointer
FUZZ_FLAGS   ?= -detect_leaks=1 -max_len=65536 -timeout=30 -rss_limit_mb=2048 -close_fd_mask=3 \
                -print_final_stats=1
SHARED       ?= ../shared
FUZZ_DEPS_CFLAGS != pkg-config --cflags jansson libbsd-overlay zlib xlsxwriter 2>/dev/null || echo "-isystem /usr/include/bsd -DLIBBSD_OVERLAY"
FUZZ_DEPS_LIBS   != pkg-config --libs jansson libbsd-overlay zlib xlsxwriter 2>/dev/null || echo "-ljansson -lbsd -lz -lxlsxwriter"
FUZZ_CPPFLAGS = -D_GNU_SOURCE -DTTP_VERSION='"fuzz"' -Iinclude -Itests/fuzz $(FUZZ_DEPS_CFLAGS) $(CAIRO_CFLAGS)
FUZZ_LIBS     = -lcsv $(FUZZ_DEPS_LIBS) $(CAIRO_LIBS) -lm

FUZZ_ALL      = fuzz_csv fuzz_rec fuzz_filter fuzz_roofline fuzz_phase fuzz_table fuzz_kineto \
                fuzz_mlirloc fuzz_steps fuzz_xplane fuzz_tltree
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_LIB_OBJ  = $(patsubst lib/%.c,build/fuzz/obj/%.o,$(sort $(wildcard lib/*/*.c)))
FUZZ_HDRS     = $(wildcard include/*/*.h) tests/fuzz/fuzz.h

fuzz: $(FUZZ_TARGETS:%=fuzz-run-%)

fuzz-build: $(FUZZ_ALL:%=build/fuzz/%)

# clang and its libFuzzer runtime, installed when missing (Debian/Ubuntu).
fuzz-deps:
	@sh scripts/deps.sh --check-only --fuzz || sh scripts/deps.sh --fuzz

build/fuzz/obj/%.o: lib/%.c $(FUZZ_HDRS) | fuzz-deps
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_SAN) -c -o $@ $<

# The harness itself is not instrumented.
build/fuzz/obj/fuzz.o: tests/fuzz/fuzz.c $(FUZZ_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) -O2 -g -c -o $@ $<

build/fuzz/libttp-fuzz.a: $(FUZZ_LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $(FUZZ_LIB_OBJ)

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c build/fuzz/obj/fuzz.o build/fuzz/libttp-fuzz.a $(FUZZ_HDRS)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) \
	    -o $@ $< build/fuzz/obj/fuzz.o build/fuzz/libttp-fuzz.a $(FUZZ_LIBS)

# Seeds: rebuilt when missing. The record seeds need bin/ttp-parse etc. (make all).
build/fuzz/seed/.done:
	sh tests/fuzz/seed.sh "$(SHARED)" build/fuzz/seed
	@touch $@

fuzz-run-%: build/fuzz/% build/fuzz/seed/.done
	@mkdir -p build/fuzz/corpus/$* build/fuzz/crash
	@echo "fuzz: $* for $(FUZZ_SECONDS) s"
	@ASAN_OPTIONS=quarantine_size_mb=32:$(ASAN_OPTIONS) nice sh tests/fuzz/run.sh $< $(FUZZ_SECONDS) \
	    build/fuzz/$*.log $(FUZZ_FLAGS) -artifact_prefix=build/fuzz/crash/$*- \
	    build/fuzz/corpus/$* build/fuzz/seed/$*

fuzz-clean:
	rm -rf build/fuzz

.PHONY: fuzz fuzz-build fuzz-clean fuzz-deps
