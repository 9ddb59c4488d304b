#!/bin/sh
# kernel-regression.sh - is the running kernel slower at deferred work than the baseline?
#
# Builds deferbench, runs SCENARIO (default ci/regression.ini) on the running kernel with
# 'run --until-decided --against BASELINE' (repetitions are added only where a primary
# verdict is still open, within BUDGET), writes the run's report, compares the run with
# this host's stored baseline (the runs as the unit, against the spread between runs the
# host's calibration measured) and exits with compare's status:
#   0  every primary metric decided, none worse     1  regression
#   2  error (build, run, input, no baseline)     3  undecided: a primary metric could not be
#      decided (or was not judged at all): no clean bill of health, see compare.md
#
# Set up a host once, on the reference kernel: SAVE_BASELINE=1 runs the scenario, stores
# it as the baseline and calibrates the host's noise floors (CALIBRATE_RUNS runs of the
# scenario, nothing changed); then every later job compares against it.
#
# Needs what the suite needs (root, tracefs). Environment:
#   DEFERBENCH_BASELINE_DIR  baseline store (default /var/lib/deferbench/baselines)
#   BASELINE_NAME            which baseline of this host (default: default)
#   SAVE_BASELINE=1          no baseline yet: store this run, calibrate, exit 0
#   CALIBRATE_RUNS           runs for the spread between runs (default 5; 0: do not calibrate)
#   SCENARIO                 the scenario (default ci/regression.ini)
#   BUDGET                   time for the whole run, planned and added repetitions
#                            (default 10m; 0: the planned repetitions only)
#   QUICK=1                  the one-minute smoke suite instead (make bench QUICK=1): one
#                            repetition per cell, it can show that things run, never decide
#   COMPARE_ARGS             extra options for compare, e.g. "--threshold 15"
#   ARTIFACTS                copy report, plots, tables, compare.md, junit.xml here
#   RUN_DIR                  skip building and running; use this finished run
#   STORE                    also add the run to this results store (deferbench history)
#   SET_DIR                  also copy the run into this directory: the set of runs of
#                            the running kernel, for a kernel A/B across boots (no
#                            baseline needed then)
#   COMPARE_SETS="DIR_A DIR_B"
#                            run nothing: compare the runs of two set directories (the
#                            runs the unit, paired when their boots alternated) and exit
#                            with compare's status; ci/README.md has the boot recipe
set -u
cd "$(dirname "$0")/.." || exit 2

NAME=${BASELINE_NAME:-default}
SCENARIO=${SCENARIO:-ci/regression.ini}
BUDGET=${BUDGET:-10m}
DB=./deferbench

die() {
	echo "kernel-regression: $*" >&2
	exit 2
}

# newest_run STAMP - the newest run directory whose run.json is newer than STAMP
newest_run() {
	find results -name run.json -newer "$1" -printf '%T@ %h\n' 2>/dev/null |
		sort -n | tail -n 1 | cut -d' ' -f2-
}

publish() {
	[ -n "${ARTIFACTS:-}" ] || return 0
	mkdir -p "$ARTIFACTS" || die "cannot create $ARTIFACTS"
	for f in report.md report.html compare.md junit.xml plots tables; do
		[ -e "$1/$f" ] && cp -r "$1/$f" "$ARTIFACTS/"
	done
	echo "kernel-regression: artifacts in $ARTIFACTS"
}

# say_status RC - compare's exit status in words
say_status() {
	case $1 in
	0) echo "kernel-regression: no regression" ;;
	1) echo "kernel-regression: REGRESSION (see compare.md)" ;;
	3) echo "kernel-regression: UNDECIDED: a primary metric could not be decided (see compare.md)" ;;
	*) echo "kernel-regression: compare failed (exit $1)" ;;
	esac
}

# runs_in DIR - the run directories DIR holds, one a line
runs_in() {
	find "$1" -mindepth 2 -maxdepth 2 -name run.json -printf '%h\n' 2>/dev/null | sort
}

if [ -n "${COMPARE_SETS:-}" ]; then
	# shellcheck disable=SC2086
	set -- $COMPARE_SETS
	[ $# -eq 2 ] || die "COMPARE_SETS takes two set directories, 'DIR_A DIR_B' (got: $COMPARE_SETS)"
	a=$(runs_in "$1")
	b=$(runs_in "$2")
	[ "$(echo "$a" | grep -c .)" -ge 2 ] && [ "$(echo "$b" | grep -c .)" -ge 2 ] ||
		die "COMPARE_SETS: $1 and $2 must hold 2 or more runs each (SET_DIR of earlier boots)"
	out=${ARTIFACTS:-$2}
	mkdir -p "$out" || die "cannot create $out"
	# shellcheck disable=SC2086
	$DB compare ${COMPARE_ARGS:-} -o "$out" $a vs $b
	rc=$?
	echo "kernel-regression: compared the sets $1 and $2: $out/compare.md, $out/junit.xml"
	say_status $rc
	exit $rc
fi

base=$($DB baseline path --name "$NAME" 2>/dev/null) || base=""
if [ -z "${RUN_DIR:-}" ]; then
	ci/install-deps.sh >&2 || die "cannot install the build dependencies"
	make >/dev/null || die "build failed"
	if [ "${QUICK:-0}" = 1 ]; then
		echo "kernel-regression: QUICK=1: one repetition per cell; compare cannot decide" >&2
		stamp=$(mktemp) || die "mktemp"
		trap 'rm -f "$stamp"' EXIT
		make bench QUICK=1 || die "the quick suite failed on $(uname -r)"
		RUN_DIR=$(newest_run "$stamp")
		[ -n "$RUN_DIR" ] || die "the quick suite left no run.json under results/"
	else
		RUN_DIR=results/ci-$(date -u +%Y%m%dT%H%M%SZ)
		if [ -n "$base" ] && [ "$BUDGET" != 0 ]; then
			$DB run -o "$RUN_DIR" --until-decided="$BUDGET" --against "$base" "$SCENARIO" ||
				die "$SCENARIO failed on $(uname -r)"
		else
			$DB run -o "$RUN_DIR" "$SCENARIO" || die "$SCENARIO failed on $(uname -r)"
		fi
	fi
fi
[ -f "$RUN_DIR/run.json" ] || die "$RUN_DIR is not a run directory"
if [ -n "${ARTIFACTS:-}" ]; then
	# for ci/lava/lava-report.sh, which reports each metric of this run
	mkdir -p "$ARTIFACTS" && echo "$RUN_DIR" >"$ARTIFACTS/run-dir" ||
		die "cannot write $ARTIFACTS/run-dir"
fi
if [ -n "${STORE:-}" ]; then
	$DB history add --store "$STORE" "$RUN_DIR" || die "cannot add $RUN_DIR to the store $STORE"
fi

$DB report "$RUN_DIR" || die "report failed"
echo "kernel-regression: report $RUN_DIR/report.html"
if [ -n "${SET_DIR:-}" ]; then
	mkdir -p "$SET_DIR" && cp -r "$RUN_DIR" "$SET_DIR/" ||
		die "cannot copy $RUN_DIR into the set $SET_DIR"
	echo "kernel-regression: $RUN_DIR added to the set $SET_DIR ($(runs_in "$SET_DIR" | grep -c .) runs)"
	if [ -z "$base" ] && [ "${SAVE_BASELINE:-0}" != 1 ]; then
		publish "$RUN_DIR"
		exit 0
	fi
fi

if [ -z "$base" ]; then
	[ "${SAVE_BASELINE:-0}" = 1 ] ||
		die "no baseline '$NAME' for $(uname -n); run once with SAVE_BASELINE=1"
	$DB baseline save --name "$NAME" "$RUN_DIR" || die "cannot save the baseline"
	echo "kernel-regression: no baseline '$NAME' yet; saved this run as it"
	if [ "${CALIBRATE_RUNS:-5}" != 0 ]; then
		$DB baseline calibrate --name "$NAME" --runs "${CALIBRATE_RUNS:-5}" "$SCENARIO" ||
			die "calibrating the noise floors failed"
	fi
	publish "$RUN_DIR"
	exit 0
fi
[ -f "$base/noise.json" ] ||
	echo "kernel-regression: the baseline has no calibration: between two runs only a" \
		"change beyond the uncalibrated floor (x2, x6 on p99s) is decided, nothing is" \
		"'no change'; calibrate with 'deferbench baseline calibrate --name $NAME $SCENARIO'" >&2

# shellcheck disable=SC2086
$DB compare ${COMPARE_ARGS:-} -o "$RUN_DIR" "$base" "$RUN_DIR"
rc=$?
echo "kernel-regression: compared with $base: $RUN_DIR/compare.md, $RUN_DIR/junit.xml"
publish "$RUN_DIR"
say_status $rc
exit $rc
