# ttp: small, fast filters over accelerator profiler traces.
# User CFLAGS, CPPFLAGS, LDFLAGS and LDLIBS win; PREFIX and DESTDIR are honoured.

VERSION   = 0.1.0
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
SHARED   ?= ../shared
# The golden runner finds the real traces under SHARED; one named on the command line or
# in the environment must exist (no case is skipped in silence).
GOLDEN_ENV = SHARED="$(SHARED)" $(if $(filter file,$(origin SHARED)),,SHARED_REQUIRED=1)

CC       ?= cc
CFLAGS   ?= -O2 -g
WARN      = -std=c11 -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes \
            -Wstrict-prototypes -Wpointer-arith -Wno-unused-parameter
DEPS_CFLAGS != pkg-config --cflags jansson libbsd-overlay zlib xlsxwriter 2>/dev/null || echo "-isystem /usr/include/bsd -DLIBBSD_OVERLAY"
DEPS_LIBS   != pkg-config --libs jansson libbsd-overlay zlib xlsxwriter 2>/dev/null || echo "-ljansson -lbsd -lz -lxlsxwriter"
CSV_LIBS ?= -lcsv
# Charts: cairo (PNG, PDF) with the DejaVu Sans font loaded through fontconfig and FreeType.
CAIRO_CFLAGS != pkg-config --cflags cairo fontconfig freetype2 2>/dev/null || echo "-I/usr/include/cairo -I/usr/include/freetype2"
CAIRO_LIBS   != pkg-config --libs cairo fontconfig freetype2 2>/dev/null || echo "-lcairo -lfontconfig -lfreetype"
ALL_CPPFLAGS = -D_GNU_SOURCE -DTTP_VERSION='"$(VERSION)"' -Iinclude $(DEPS_CFLAGS) $(CAIRO_CFLAGS) $(CPPFLAGS)
ALL_CFLAGS   = $(WARN) $(CFLAGS)
ALL_LIBS     = $(CSV_LIBS) $(DEPS_LIBS) $(CAIRO_LIBS) -lm $(LDLIBS)

LAYERS   = core tt torch jax report phase
LIB_SRC  = $(sort $(foreach l,$(LAYERS),$(wildcard lib/$(l)/*.c)))
LIB_OBJ  = $(LIB_SRC:lib/%.c=build/lib/%.o)
CMD_SRC  = $(sort $(wildcard cmd/ttp-*.c))
PROGS    = $(CMD_SRC:cmd/%.c=bin/%)
SCRIPTS  = $(patsubst cmd/%.sh,bin/%,$(sort $(wildcard cmd/ttp-*.sh)))
UNIT_SRC = $(sort $(wildcard tests/unit/*.c))
UNITS    = $(UNIT_SRC:tests/unit/%.c=build/unit/%)
MANS     = $(sort $(wildcard man/*.[1-9]))

all: deps-check $(PROGS) $(SCRIPTS)
.DEFAULT_GOAL := all

# make fuzz [FUZZ_SECONDS=N]: libFuzzer targets (clang), see tests/fuzz/fuzz.mk. Included
# here, before check-run names the replay builds of its targets (FUZZ_ALL).
include tests/fuzz/fuzz.mk

# Plain make installs nothing: a missing library is named with the command that installs it.
# make demo and make check set up a fresh Debian/Ubuntu machine by themselves (make deps).

# Each object depends on the headers it includes (-MMD -MP writes build/**/*.d), and on
# the Makefile (flags; an object built before the .d files existed).
build/lib/%.o: lib/%.c Makefile
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

build/libttp.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

bin/%: cmd/%.c build/libttp.a Makefile
	@mkdir -p $(@D) build/cmd
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -MF build/cmd/$*.d $(LDFLAGS) -o $@ $< build/libttp.a $(ALL_LIBS)

# A driver gets cmd/driver.sh at its line '#include driver.sh', so that it stands alone.
bin/%: cmd/%.sh cmd/driver.sh
	@mkdir -p $(@D)
	sed -e 's/@VERSION@/$(VERSION)/g' -e '/^#include driver\.sh$$/{r cmd/driver.sh' -e 'd;}' $< > $@.tmp && chmod +x $@.tmp && mv $@.tmp $@

build/unit/%: tests/unit/%.c build/libttp.a Makefile
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -MF $@.d $(LDFLAGS) -o $@ $< build/libttp.a $(ALL_LIBS)

# The fuzz targets built with $(CC) and tests/fuzz/replay.c instead of libFuzzer: make
# check replays tests/fuzz/regress/ through them (the plain or sanitized build's flags).
FUZZ_REPLAY = $(FUZZ_ALL:%=build/fuzz-replay/%)
build/fuzz-replay/%: tests/fuzz/%.c tests/fuzz/fuzz.c tests/fuzz/replay.c build/libttp.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) -Itests/fuzz $(ALL_CFLAGS) -MMD -MP -MF $@.d $(LDFLAGS) -o $@ $< tests/fuzz/fuzz.c tests/fuzz/replay.c build/libttp.a $(ALL_LIBS)

# Installs the libraries a fresh Debian or Ubuntu machine lacks (says so first).
deps:
	@sh scripts/deps.sh

# The build needs the libraries' headers and archives, wherever they are: the compiler is
# asked; the Debian package names are only a hint when it cannot find one.
deps-check:
	@CC="$(CC)" CPPFLAGS="$(ALL_CPPFLAGS)" LDFLAGS="$(LDFLAGS)" LIBS="$(ALL_LIBS)" sh scripts/deps.sh --probe

check: deps
	@$(MAKE) --no-print-directory check-run

check-run: all $(UNITS) $(FUZZ_REPLAY)
	@sh scripts/layers.sh
	@sh scripts/funclen.sh
	@mandoc -Tlint -Wwarning $(MANS) && echo "lint: man pages clean"
	@sh tests/run-units.sh $(UNITS)
	@sh tests/run-fuzz-regress.sh
	@$(GOLDEN_ENV) sh tests/run-golden.sh
	@sh tests/browser-check.sh
	@sh tests/run-conformance.sh "$(SHARED)"
	@sh tests/merge/identity.sh "$(SHARED)"

# Regenerates the expected output of golden cases (all, or CASES=pattern); review the diff.
bless: all
	@BLESS=1 $(GOLDEN_ENV) sh tests/run-golden.sh $(CASES)

conformance: all
	@sh tests/run-conformance.sh "$(SHARED)"

# The HTML pages in headless Chromium (skipped with a notice when it is not installed;
# make deps does not install it): screenshots in build/browser/.
browser-check: all
	@sh tests/browser-check.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@sh scripts/demo.sh

bench: all
	@sh tests/bench/bench.sh "$(SHARED)"

# make bench-compare BASE=REV [NEW=REV] [ROUNDS=N]: make bench's stages (no scale runs) for
# revision BASE and NEW (default: the working tree), both built aside, alternating.
bench-compare:
	@test -n "$(BASE)" || { echo "usage: make bench-compare BASE=REV [NEW=REV]" >&2; exit 2; }
	@SHARED="$(SHARED)" ROUNDS="$(or $(ROUNDS),3)" sh tests/bench/compare.sh "$(BASE)" $(NEW)

lint:
	mandoc -Tlint -Wwarning $(MANS)
	@sh scripts/layers.sh
	@sh scripts/funclen.sh

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	cp $(PROGS) $(SCRIPTS) $(DESTDIR)$(BINDIR)/
	for m in $(MANS); do s=$${m##*.}; mkdir -p $(DESTDIR)$(MANDIR)/man$$s; cp $$m $(DESTDIR)$(MANDIR)/man$$s/; done

uninstall:
	for p in $(PROGS) $(SCRIPTS); do rm -f $(DESTDIR)$(BINDIR)/$${p##*/}; done
	for m in $(MANS); do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done

clean:
	rm -rf build bin


.PHONY: all deps deps-check check check-run bless conformance browser-check demo bench bench-compare lint install uninstall clean
.SECONDARY: $(LIB_OBJ)

-include $(LIB_OBJ:.o=.d) $(CMD_SRC:cmd/%.c=build/cmd/%.d) $(UNITS:=.d) $(FUZZ_REPLAY:=.d)
