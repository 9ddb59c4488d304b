# deferbench - measure softirq and workqueue latency.
#
#   make          install missing build dependencies (Debian/Ubuntu), build ./deferbench
#   make test     unit tests everywhere; integration tests when root with tracefs
#   make bench    the default benchmark scenario (QUICK=1 for a one-minute version)
#   make perf     offline analysis speed on a large raw capture (a benchmark, not a test)
#   make install  copy deferbench to $(PREFIX)/bin

CC ?= gcc
PREFIX ?= /usr/local
BUILD := build
PKGS := libtracefs libtraceevent json-c inih libnl-3.0 libnl-route-3.0 sqlite3

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

.PHONY: all deps test unit integration bench perf install clean

all: deferbench

deps:
	@ci/install-deps.sh

deferbench: $(BUILD)/bench/main.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

$(LIB): $(OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(TESTLIB_OBJS) $(LIB) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/lib $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -o $@ $< \
		$(TESTLIB_OBJS) $(LIB) $(shell pkg-config --libs cmocka) $(PKG_LIBS) $(LDLIBS)

$(BUILD)/tests/lib/%.o: tests/lib/%.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/lib $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/tools/%: tests/tools/%.c $(TESTLIB_OBJS) $(LIB) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/lib $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -o $@ $< \
		$(TESTLIB_OBJS) $(LIB) $(PKG_LIBS) $(LDLIBS)

unit: $(UNIT_BINS)
	@tests/run-unit.sh $(UNIT_BINS)

integration: deferbench $(TOOL_BINS)
	@tests/run-integration.sh

test: deferbench unit integration

bench: deferbench
	@ci/bench.sh

$(BUILD)/tests/evgen: tests/perf/evgen.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< -lutil

perf: deferbench $(BUILD)/tests/evgen
	@tests/perf.sh

install: deferbench
	install -D -m 0755 deferbench $(DESTDIR)$(PREFIX)/bin/deferbench

clean:
	rm -rf $(BUILD) deferbench

-include $(patsubst %.o,%.d,$(OBJS) $(BUILD)/bench/main.o $(TESTLIB_OBJS)) \
	$(patsubst %,%.d,$(UNIT_BINS) $(TOOL_BINS))
