# deferbench - measure softirq and workqueue latency.
#
#   make          build ./deferbench (changes nothing on the system; says what is missing)
#   make test     install what is missing for the tests, then unit tests and the golden
#                 outputs everywhere, integration tests when root with tracefs
#   make bench    install what a run needs (no test tool: the machine is measured), then
#                 the default scenario (QUICK=1: one minute; BLOCKS=N: N blocks of each
#                 segment)
#   make perf     offline analysis speed on a large raw capture (a benchmark, not a test)
#   make simulate the verdicts' error rates and power on synthetic data, through the
#                 project's own code (tests/sim): the full grid, written into
#                 docs/verdicts.md (SIMS=N runs a cell, default 1000; about 20 minutes);
#                 make test runs the small grid and asserts its rates
#   make sanitize the unit tests, damaged captures through analyze and a short record +
#                 analyze, built with AddressSanitizer + UndefinedBehaviorSanitizer in
#                 build-san/; any report fails (part of make test)
#   make fuzz     libFuzzer targets (clang) for the raw-capture reader and the scenario
#                 parser, FUZZ_SECONDS (default 60) each, seeded from tests/fuzz/corpus/
#   make install  copy deferbench to $(PREFIX)/bin

CC ?= gcc
PREFIX ?= /usr/local
BUILD ?= build
BIN ?= deferbench
PKGS := libtracefs libtraceevent libtracecmd json-c inih libnl-3.0 libnl-route-3.0 sqlite3

# SANITIZE=1 (make sanitize sets it, with BUILD=build-san): every report is fatal
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ifdef SANITIZE
CFLAGS := -O1 -g $(SAN_FLAGS)
LDFLAGS += $(SAN_FLAGS)
endif

CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Wno-missing-field-initializers \
	  -Wformat=2 -Wshadow -Werror=implicit-function-declaration -fno-strict-aliasing -pthread
LDLIBS += -lcsv -lm -pthread

# Layers, lowest first (docs/hacking.md, "Layers"). Each folder compiles with the include
# paths of its own layer and of the layers below it, and with nothing else: a file that
# includes a header of a higher layer does not compile.
LAYERS := bench/lib bench/match bench/decode bench/output bench/capture bench/knobs \
	  bench/scenario workloads/net workloads bench/rundir bench/run \
	  analysis/stats analysis/compare analysis/report analysis/history bench/cli
INC_bench/lib := bench/lib
INC_bench/match := bench/match bench/lib
INC_bench/decode := bench/decode bench/match bench/lib
INC_bench/output := bench/output bench/match bench/lib
INC_bench/capture := bench/capture bench/output bench/decode bench/match bench/lib
INC_bench/knobs := bench/knobs bench/lib
INC_bench/scenario := bench/scenario bench/capture bench/output bench/decode bench/match \
		      bench/knobs bench/lib
INC_workloads/net := workloads/net bench/lib
INC_workloads := workloads workloads/net bench/lib
INC_bench/rundir := bench/rundir workloads workloads/net bench/output bench/match bench/lib
INC_bench/run := bench/run bench/rundir bench/scenario bench/capture bench/output bench/decode \
		 bench/match bench/knobs workloads bench/lib
INC_analysis/stats := analysis/stats bench/lib
INC_analysis/compare := analysis/compare analysis/stats bench/lib
INC_analysis/report := analysis/report analysis/compare analysis/stats bench/lib
INC_analysis/history := analysis/history analysis/report analysis/compare analysis/stats bench/lib
INC_bench/cli := $(LAYERS)
# inc - the -I flags of the folder holding source $1
inc = $(addprefix -I,$(or $(INC_$(patsubst %/,%,$(dir $1))),$(error $1: its folder is no layer; add it to LAYERS and give it INC_ in the Makefile)))

SRCS := $(foreach d,$(LAYERS),$(wildcard $(d)/*.c))
# Every header is also compiled alone with its own layer's include paths, so that a
# header no source of its layer includes cannot reach up either.
HDR_OKS := $(patsubst %.h,$(BUILD)/%.h.ok,$(foreach d,$(LAYERS),$(wildcard $(d)/*.h)))
MAIN := bench/cli/main.c
OBJS := $(patsubst %.c,$(BUILD)/%.o,$(filter-out $(MAIN),$(SRCS)))
LIB := $(BUILD)/libdeferbench.a

# Tests and their helpers see every layer.
TEST_INC := $(addprefix -I,$(LAYERS) tests/lib)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
# Helper programs the integration tests run (test scaffolding, never installed).
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(TOOL_SRCS))
# The simulation harness: synthetic data through the verdict code (tests/sim/README).
SIM_SRCS := $(wildcard tests/sim/*.c)
SIM_BIN := $(BUILD)/tests/simulate
# Test-only code (temporary files, synthetic result files) linked into tests and tools.
TESTLIB_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/lib/*.c))
# kept between makes: as intermediates of a pattern rule make deleted them after each
# one, and the next make (make test runs four) compiled them again and relinked every
# test and tool (a minute of a fresh make test)
.SECONDARY: $(TESTLIB_OBJS)
# Library functions a unit test replaces by its own __wrap_NAME (ld --wrap=NAME):
# test_runner runs scenarios with knobs against a machine made of variables.
WRAP_test_runner := knob_check knobs_check_set knob_resolve knob_target_read knob_target_write \
	knob_target_restore
WRAP_test_history_race := sqlite3_prepare_v2 sqlite3_exec
comma := ,
wraps = $(addprefix -Wl$(comma)--wrap=,$(WRAP_$1))

# Missing build dependencies, found without installing anything: pkg-config for the
# libraries that have a .pc file, the compiler for libcsv's header (it has none).
MISSING = $(strip $(foreach p,$(PKGS),$(shell pkg-config --exists $(p) || echo $(p))) \
	  $(shell echo '\#include <csv.h>' | $(CC) -E -x c - >/dev/null 2>&1 || echo libcsv))
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS = $(shell pkg-config --libs $(PKGS))

.PHONY: all check-deps check-test-deps install-deps install-test-deps test unit unit-bins \
	golden golden-update doc-tables check-names \
	integration sanitize bench perf observer fuzz fuzz-smoke install clean simulate \
	simulate-small

all: $(BIN) $(HDR_OKS)

check-deps:
	@missing="$(MISSING)"; if [ -n "$$missing" ]; then \
		echo "deferbench: missing build dependencies: $$missing" >&2; \
		echo "deferbench: install them with 'sudo ci/install-deps.sh' (Debian/Ubuntu), or run 'make test' or 'make bench', which do it first" >&2; \
		exit 1; fi

check-test-deps:
	@pkg-config --exists cmocka || { echo "deferbench: the unit tests need cmocka: install it with 'sudo ci/install-deps.sh --test', or run 'make test', which does it first" >&2; exit 1; }

# what a run needs (make bench), and that with what the tests need (make test)
install-deps:
	@ci/install-deps.sh

install-test-deps:
	@ci/install-deps.sh --test

$(BIN): $(BUILD)/bench/cli/main.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

$(LIB): $(OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/%.o: %.c | check-deps
	@mkdir -p $(dir $@)
	$(CC) $(call inc,$<) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# (a private header, NAME_int.h, is compiled as its module's files include it: allowed)
$(BUILD)/%.h.ok: %.h | check-deps
	@mkdir -p $(dir $@)
	$(CC) $(call inc,$<) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -fsyntax-only -MMD -MP \
		-DDEFERBENCH_ALLOW_$(shell echo $(notdir $<) | tr a-z. A-Z_) \
		-MF $@.d -MT $@ -x c $< && touch $@

$(BUILD)/tests/%: tests/unit/%.c $(TESTLIB_OBJS) $(LIB) | check-deps check-test-deps
	@mkdir -p $(dir $@)
	$(CC) $(TEST_INC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) $(LDFLAGS) -MMD -MP -o $@ $< \
		$(TESTLIB_OBJS) $(LIB) $(call wraps,$*) $(shell pkg-config --libs cmocka) \
		$(PKG_LIBS) $(LDLIBS)

$(SIM_BIN): $(SIM_SRCS) tests/sim/sim.h $(LIB) | check-deps
	@mkdir -p $(dir $@)
	$(CC) $(TEST_INC) -Itests/sim $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ \
		$(SIM_SRCS) $(LIB) $(PKG_LIBS) $(LDLIBS)

$(BUILD)/tests/lib/%.o: tests/lib/%.c | check-deps
	@mkdir -p $(dir $@)
	$(CC) $(TEST_INC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/tools/%: tests/tools/%.c $(TESTLIB_OBJS) $(LIB) | check-deps
	@mkdir -p $(dir $@)
	$(CC) $(TEST_INC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) $(LDFLAGS) -MMD -MP -o $@ $< \
		$(TESTLIB_OBJS) $(LIB) $(PKG_LIBS) $(LDLIBS)

unit-bins: $(UNIT_BINS)

unit: $(HDR_OKS) $(UNIT_BINS)
	@tests/run-unit.sh $(UNIT_BINS)

integration: deferbench $(TOOL_BINS)
	@tests/run-integration.sh

# analyze, report and compare of the recorded fixtures and of the synthesized captures
# (tests/synth/*.ev, written by synth-capture) against tests/golden/
golden: deferbench $(BUILD)/tests/tools/synth-capture
	@SYNTH=$(BUILD)/tests/tools/synth-capture tests/golden.sh

golden-update: deferbench $(BUILD)/tests/tools/synth-capture
	@SYNTH=$(BUILD)/tests/tools/synth-capture tests/golden.sh --update

# every file exports only the names its file name announces, and arrays grow through
# grow.h only
check-names: $(OBJS)
	@tests/check-names.sh $(BUILD)
	@if grep -rn 'realloc(' --include='*.[ch]' bench workloads analysis | \
		grep -v '^bench/lib/grow.h:'; then \
		echo "check-names: arrays grow through bench/lib/grow.h (GROW, grow_array), never realloc() of their own" >&2; \
		exit 1; fi

# the tables of settings in docs/, written anew from the option tables (test_doc_tables
# checks them)
doc-tables: $(BUILD)/tests/tools/doc-tables
	@$(BUILD)/tests/tools/doc-tables

# The README's two commands install what is missing first, then build in a new make
# (so that pkg-config sees what was just installed).
# Everything is built first on every CPU (a fresh clone compiles three builds: half the
# time of a serial make test), then the suites run one after another.
NPROC := $(shell nproc 2>/dev/null || echo 1)
# The sanitizer's file-only part (its unit tests, damaged captures) and the fuzz smoke
# (its build too, on one CPU) run in the integration runner's file-only lane, beside the
# tests of the machine; the sanitizer's machine part after them.
test: install-test-deps
	@$(MAKE) --no-print-directory -j$(NPROC) deferbench $(HDR_OKS) $(UNIT_BINS) $(TOOL_BINS) \
		$(SIM_BIN)
	@$(MAKE) --no-print-directory -j$(NPROC) SANITIZE=1 BUILD=build-san \
		BIN=build-san/deferbench build-san/deferbench unit-bins
	@$(MAKE) --no-print-directory unit check-names golden simulate-small
	@DB_LANE_EXTRA=tests/run-beside.sh MAKE="$(MAKE)" $(MAKE) --no-print-directory integration
	@tests/run-sanitized.sh --part machine build-san

# the simulation harness: the small grid asserts its rates (make test), the full grid
# writes its tables into docs/verdicts.md
simulate-small: $(SIM_BIN)
	@$(SIM_BIN) small

simulate: $(SIM_BIN)
	@$(SIM_BIN) full --sims $(or $(SIMS),1000) --doc docs/verdicts.md
	@echo "simulate: docs/verdicts.md's tables rewritten; review 'git diff docs/verdicts.md'"

# The sanitizer build lives in its own directory: its objects never mix with build/.
sanitize:
	@$(MAKE) --no-print-directory -j$(NPROC) SANITIZE=1 BUILD=build-san \
		BIN=build-san/deferbench build-san/deferbench unit-bins
	@tests/run-sanitized.sh build-san

# libFuzzer targets: clang only; the library again, instrumented, in build-fuzz/, each
# folder with its own layer's include paths (the targets, like tests, see every layer).
FUZZ_OBJS := $(patsubst %.c,build-fuzz/%.o,$(filter-out $(MAIN),$(SRCS)))
FUZZ_FLAGS := -O1 -g -std=gnu11 -D_GNU_SOURCE -pthread \
	      -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_BINS := build-fuzz/fuzz_capture build-fuzz/fuzz_scenario

build-fuzz/%.o: %.c | check-deps
	@mkdir -p $(dir $@)
	clang $(call inc,$<) $(CPPFLAGS) $(PKG_CFLAGS) $(FUZZ_FLAGS) -MMD -MP -c -o $@ $<

build-fuzz/libdeferbench.a: $(FUZZ_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c build-fuzz/libdeferbench.a | check-deps
	clang $(TEST_INC) $(CPPFLAGS) $(PKG_CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer -MMD -MP \
		-o $@ $< build-fuzz/libdeferbench.a $(PKG_LIBS) $(LDLIBS)

fuzz:
	@if ! command -v clang >/dev/null; then \
		echo "fuzz: needs clang (apt-get install clang); nothing to do" >&2; exit 1; fi
	@$(MAKE) --no-print-directory $(FUZZ_BINS)
	@tests/fuzz/run.sh $(or $(FUZZ_SECONDS),60) $(FUZZ_BINS)

# make test: 5000 inputs of each target from a fixed seed when clang is there (make fuzz
# runs each for a minute)
fuzz-smoke:
	@if command -v clang >/dev/null; then \
		mkdir -p build-fuzz; \
		$(MAKE) --no-print-directory -j$(NPROC) $(FUZZ_BINS) > build-fuzz/build.log 2>&1 || \
			{ tail -20 build-fuzz/build.log; exit 1; }; \
		FUZZ_RUNS=5000 tests/fuzz/run.sh 5 $(FUZZ_BINS); \
	else \
		echo "== fuzz: skipped (no clang; make fuzz needs it)"; \
	fi

bench: install-deps
	@$(MAKE) --no-print-directory deferbench
	@ci/bench.sh

$(BUILD)/tests/evgen: tests/perf/evgen.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< -lutil

$(BUILD)/tests/evtoggle: tests/perf/evtoggle.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(shell pkg-config --cflags libtracefs) -o $@ $< $(shell pkg-config --libs libtracefs)

perf: deferbench $(BUILD)/tests/evgen
	@tests/perf.sh

# where the capture's disturbance comes from, event group by event group (root)
observer: deferbench $(BUILD)/tests/evgen $(BUILD)/tests/evtoggle
	@tests/perf/observer.sh

install: deferbench $(HDR_OKS)
	install -D -m 0755 deferbench $(DESTDIR)$(PREFIX)/bin/deferbench

clean:
	rm -rf $(BUILD) build-san build-fuzz deferbench

-include $(patsubst %.o,%.d,$(OBJS) $(BUILD)/bench/cli/main.o $(TESTLIB_OBJS)) \
	$(patsubst %,%.d,$(UNIT_BINS) $(TOOL_BINS) $(HDR_OKS)) \
	$(patsubst %.o,%.d,$(wildcard build-fuzz/*/*.o build-fuzz/*/*/*.o))
