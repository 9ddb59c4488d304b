#!/bin/sh
# kernel-regression.sh - is the running kernel slower at deferred work than the baseline?
#
# Builds deferbench, runs the quick suite (make bench QUICK=1, or the scenario in
# SCENARIO) on the running kernel, writes the run's report, compares the run with this
# host's stored baseline and exits with compare's status:
#   0  no regression        1  regression        2  error (build, run, input, no baseline)
#
# Needs what the suite needs (root, tracefs); the baseline must come from the same
# machine and scenario. Environment:
#   DEFERBENCH_BASELINE_DIR  baseline store (default /var/lib/deferbench/baselines)
#   BASELINE_NAME            which baseline of this host (default: default)
#   SAVE_BASELINE=1          no baseline yet: store this run as it and exit 0
#   COMPARE_ARGS             extra options for compare, e.g. "--threshold 15"
#   ARTIFACTS                copy report, plots, tables, compare.md, junit.xml here
#   SCENARIO                 run this scenario file (deferbench run -o) instead of
#                            make bench QUICK=1; verdicts need >= 3 repetitions per cell
#   RUN_DIR                  skip building and running; use this finished run
#   STORE                    also add the run to this results store (deferbench history)
set -u
cd "$(dirname "$0")/.." || exit 2

NAME=${BASELINE_NAME:-default}
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

# few_reps RUN - warn when no workload x configuration has 3 repetitions: every verdict
# would be "cannot tell" and the job could never fail on a regression
few_reps() {
	max=$(sed -n 's/.*"rep": *\([0-9][0-9]*\).*/\1/p' "$1/run.json" | sort -n | tail -n 1)
	[ "${max:-0}" -ge 3 ] && return 0
	echo "kernel-regression: WARNING: at most ${max:-0} repetition(s) per cell: compare" \
		"cannot judge anything; use a SCENARIO with repetitions >= 3" >&2
}

if [ -z "${RUN_DIR:-}" ]; then
	ci/install-deps.sh >&2 || die "cannot install the build dependencies"
	make >/dev/null || die "build failed"
	if [ -n "${SCENARIO:-}" ]; then
		RUN_DIR=results/ci-$(date -u +%Y%m%dT%H%M%SZ)
		$DB run -o "$RUN_DIR" "$SCENARIO" || die "$SCENARIO failed on $(uname -r)"
	else
		stamp=$(mktemp) || die "mktemp"
		trap 'rm -f "$stamp"' EXIT
		make bench QUICK=1 || die "the quick suite failed on $(uname -r)"
		RUN_DIR=$(newest_run "$stamp")
		[ -n "$RUN_DIR" ] || die "the quick suite left no run.json under results/"
	fi
fi
[ -f "$RUN_DIR/run.json" ] || die "$RUN_DIR is not a run directory"
few_reps "$RUN_DIR"
if [ -n "${ARTIFACTS:-}" ]; then
	# for ci/lava/lava-report.sh, which reports each metric of this run
	mkdir -p "$ARTIFACTS" && echo "$RUN_DIR" >"$ARTIFACTS/run-dir" ||
		die "cannot write $ARTIFACTS/run-dir"
fi
if [ -n "${STORE:-}" ]; then
	$DB history add --db "$STORE" "$RUN_DIR" || die "cannot add $RUN_DIR to the store $STORE"
fi

$DB report "$RUN_DIR" || die "report failed"
echo "kernel-regression: report $RUN_DIR/report.html"

if ! base=$($DB baseline path --name "$NAME" 2>/dev/null); then
	if [ "${SAVE_BASELINE:-0}" = 1 ]; then
		$DB baseline save --name "$NAME" "$RUN_DIR" || die "cannot save the baseline"
		echo "kernel-regression: no baseline '$NAME' yet; saved this run as it"
		publish "$RUN_DIR"
		exit 0
	fi
	die "no baseline '$NAME' for $(uname -n); run once with SAVE_BASELINE=1"
fi

# shellcheck disable=SC2086
$DB compare ${COMPARE_ARGS:-} -o "$RUN_DIR" "$base" "$RUN_DIR"
rc=$?
echo "kernel-regression: compared with $base: $RUN_DIR/compare.md, $RUN_DIR/junit.xml"
publish "$RUN_DIR"
case $rc in
0) echo "kernel-regression: no regression" ;;
1) echo "kernel-regression: REGRESSION (see compare.md)" ;;
*) echo "kernel-regression: compare failed (exit $rc)" ;;
esac
exit $rc
