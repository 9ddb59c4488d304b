# deferbench - measure softirq and workqueue latency.
#
#   make          install missing build dependencies (Debian/Ubuntu), build ./deferbench
#   make test     unit tests everywhere; integration tests when root with tracefs
#   make bench    the default benchmark scenario (QUICK=1 for a one-minute version)
#   make perf     offline analysis speed on a large raw capture (a benchmark, not a test)
#   make sanitize the unit tests, a short record + analyze and damaged captures, built
#                 with AddressSanitizer + UndefinedBehaviorSanitizer in build-san/
#                 (part of make test)
#   make fuzz     libFuzzer targets (clang) for the raw-capture reader and the scenario
#                 parser, FUZZ_SECONDS (default 60) each, seeded from tests/fuzz/
#   make install  copy deferbench to $(PREFIX)/bin

CC ?= gcc
PREFIX ?= /usr/local
BUILD ?= build
BIN ?= deferbench
PKGS := libtracefs libtraceevent json-c inih libnl-3.0 libnl-route-3.0

# SANITIZE=1 (make sanitize sets it, with BUILD=build-san): every report is fatal
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ifdef SANITIZE
CFLAGS := -O1 -g $(SAN_FLAGS)
LDFLAGS += $(SAN_FLAGS)
endif

# Recursively expanded on purpose: pkg-config runs after 'deps' installed the packages.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS = $(shell pkg-config --libs $(PKGS))

CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Wno-missing-field-initializers \
	  -Wformat=2 -Wshadow -fno-strict-aliasing -pthread
CPPFLAGS += -Ibench -Ianalysis -Iworkloads
LDLIBS += -lcsv -lm -pthread

SRCDIRS := bench analysis workloads
SRCS := $(foreach d,$(SRCDIRS),$(wildcard $(d)/*.c))
MAIN := bench/main.c
LIBSRCS := $(filter-out $(MAIN),$(SRCS))
OBJS := $(patsubst %.c,$(BUILD)/%.o,$(LIBSRCS))
LIB := $(BUILD)/libdeferbench.a

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
# Helper programs the integration tests run (test scaffolding, never installed).
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(TOOL_SRCS))
# Test-only code (temporary files, synthetic result files) linked into tests and tools.
TESTLIB_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/lib/*.c))

.PHONY: all deps test unit unit-bins integration sanitize bench perf fuzz fuzz-smoke install \
	clean

all: $(BIN)

deps:
	@ci/install-deps.sh

$(BIN): $(BUILD)/bench/main.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

$(LIB): $(OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(TESTLIB_OBJS) $(LIB) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/lib $(PKG_CFLAGS) $(CFLAGS) $(LDFLAGS) -MMD -MP -o $@ $< \
		$(TESTLIB_OBJS) $(LIB) $(shell pkg-config --libs cmocka) $(PKG_LIBS) $(LDLIBS)

$(BUILD)/tests/lib/%.o: tests/lib/%.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/lib $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/tools/%: tests/tools/%.c $(TESTLIB_OBJS) $(LIB) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/lib $(PKG_CFLAGS) $(CFLAGS) $(LDFLAGS) -MMD -MP -o $@ $< \
		$(TESTLIB_OBJS) $(LIB) $(PKG_LIBS) $(LDLIBS)

unit-bins: $(UNIT_BINS)

unit: $(UNIT_BINS)
	@tests/run-unit.sh $(UNIT_BINS)

integration: deferbench $(TOOL_BINS)
	@tests/run-integration.sh

# The sanitizer build lives in its own directory: its objects never mix with build/.
sanitize:
	@$(MAKE) --no-print-directory SANITIZE=1 BUILD=build-san BIN=build-san/deferbench \
		build-san/deferbench unit-bins
	@tests/run-sanitized.sh build-san

test: deferbench unit integration sanitize fuzz-smoke

bench: deferbench
	@ci/bench.sh

$(BUILD)/tests/evgen: tests/perf/evgen.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< -lutil

perf: deferbench $(BUILD)/tests/evgen
	@tests/perf.sh

install: deferbench
	install -D -m 0755 deferbench $(DESTDIR)$(PREFIX)/bin/deferbench

# libFuzzer targets: clang only; the library again, instrumented, in build-fuzz/.
FUZZ_SRCS := $(filter-out $(MAIN),$(SRCS))
FUZZ_OBJS := $(patsubst %.c,build-fuzz/%.o,$(FUZZ_SRCS))
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_BINS := build-fuzz/fuzz_capture build-fuzz/fuzz_scenario

build-fuzz/%.o: %.c | deps
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS) $(PKG_CFLAGS) -std=gnu11 -D_GNU_SOURCE -pthread $(FUZZ_FLAGS) \
		-MMD -MP -c -o $@ $<

build-fuzz/libdeferbench.a: $(FUZZ_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c build-fuzz/libdeferbench.a | deps
	clang $(CPPFLAGS) $(PKG_CFLAGS) -std=gnu11 -D_GNU_SOURCE -pthread $(FUZZ_FLAGS) \
		-fsanitize=fuzzer -o $@ $< build-fuzz/libdeferbench.a $(PKG_LIBS) $(LDLIBS)

fuzz:
	@if ! command -v clang >/dev/null; then \
		echo "fuzz: needs clang (apt-get install clang); nothing to do" >&2; exit 1; fi
	@$(MAKE) --no-print-directory $(FUZZ_BINS)
	@tests/fuzz/run.sh $(or $(FUZZ_SECONDS),60) $(FUZZ_BINS)

# make test: a few seconds of each target when clang is there
fuzz-smoke:
	@if command -v clang >/dev/null; then \
		mkdir -p build-fuzz; \
		$(MAKE) --no-print-directory $(FUZZ_BINS) > build-fuzz/build.log 2>&1 || \
			{ tail -20 build-fuzz/build.log; exit 1; }; \
		tests/fuzz/run.sh 5 $(FUZZ_BINS); \
	else \
		echo "== fuzz: skipped (no clang; make fuzz needs it)"; \
	fi

clean:
	rm -rf $(BUILD) build-san build-fuzz deferbench

-include $(patsubst %.o,%.d,$(OBJS) $(BUILD)/bench/main.o $(TESTLIB_OBJS)) \
	$(patsubst %,%.d,$(UNIT_BINS) $(TOOL_BINS)) $(wildcard build-fuzz/*/*.d)
