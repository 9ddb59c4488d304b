#!/bin/sh
# lava-report.sh RC - report a kernel-regression.sh run to LAVA, inside a LAVA test shell
# (lava-test-case and lava-test-set are LAVA's helpers on PATH there).
#
# RC is kernel-regression.sh's exit status (0 no regression, 1 regression, 2 error,
# 3 undecided: reported as deferbench-regression "unknown", never a pass).
# Reads $ARTIFACTS/run-dir (written by kernel-regression.sh) and reports:
#   - one test set per workload x configuration, one test case per primary metric, from
#     'deferbench export --lava' (judged against the baseline when there is one);
#   - deferbench-regression pass/fail (RC 0/1), or deferbench-run fail (RC 2);
#   - with STORE set: deferbench-history, fail when 'deferbench history --regressions'
#     finds this host's newest kernel past a change point for the worse.
# EXPORT_ARGS adds options to deferbench export (e.g. "--min-tail 5" for short runs).
set -u
cd "$(dirname "$0")/../.." || exit 2
rc=${1:?usage: lava-report.sh RC}
DB=${DEFERBENCH:-./deferbench}
art=${ARTIFACTS:-artifacts}
tab=$(printf '\t')

if [ -s "$art/run-dir" ]; then
	run=$(cat "$art/run-dir")
	base=$($DB baseline path --name "${BASELINE_NAME:-default}" 2>/dev/null || true)
	# shellcheck disable=SC2086
	if $DB export --lava ${EXPORT_ARGS:-} ${base:+--against "$base"} -o "$art/lava.tsv" "$run"; then
		current=""
		while IFS="$tab" read -r set name result value units; do
			if [ "$set" != "$current" ]; then
				[ -n "$current" ] && lava-test-set stop
				lava-test-set start "$set"
				current=$set
			fi
			if [ -n "$value" ]; then
				lava-test-case "$name" --result "$result" --measurement "$value" --units "$units"
			else
				lava-test-case "$name" --result "$result"
			fi
		done <"$art/lava.tsv"
		[ -n "$current" ] && lava-test-set stop
	else
		lava-test-case deferbench-export --result fail
	fi
fi

case $rc in
0) lava-test-case deferbench-regression --result pass ;;
1) lava-test-case deferbench-regression --result fail ;;
3) lava-test-case deferbench-regression --result unknown ;;
*) lava-test-case deferbench-run --result fail ;;
esac

if [ -n "${STORE:-}" ]; then
	$DB history --store "$STORE" --host "$(uname -n)" --regressions
	case $? in
	0) lava-test-case deferbench-history --result pass ;;
	1) lava-test-case deferbench-history --result fail ;;
	*) lava-test-case deferbench-history --result unknown ;;
	esac
fi
exit 0
