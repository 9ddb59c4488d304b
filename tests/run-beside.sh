#!/bin/sh
# run-beside.sh - the file-only work of 'make test' that runs in the integration
# runner's file-only lane (DB_LANE_EXTRA), beside the tests of the machine, one CPU's
# worth: the sanitizer's file-only part (its unit tests one at a time, damaged
# captures) and the fuzz smoke, built on one CPU. Fails if either fails.
cd "$(dirname "$0")/.." || exit 1
rc=0
UNIT_JOBS=1 tests/run-sanitized.sh --part files "${SAN_BUILD:-build-san}" || rc=1
${MAKE:-make} --no-print-directory NPROC=1 fuzz-smoke || rc=1
exit $rc
