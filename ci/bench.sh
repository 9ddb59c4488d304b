#!/bin/sh
# bench.sh - 'make bench': run the default scenario (QUICK=1: the one-minute one;
# BLOCKS=N: N blocks of each segment in place of the scenario's) as root, then write
# its report, and say where both are.
set -eu
cd "$(dirname "$0")/.."
scenario=bench/scenarios/default.ini
[ "${QUICK:-0}" = 1 ] && scenario=bench/scenarios/quick.ini
set -- "$scenario"
[ -n "${BLOCKS:-}" ] && set -- --blocks "$BLOCKS" "$@"
if [ "$(id -u)" -ne 0 ]; then
	echo "bench: deferbench run needs root; here is the dry run of $scenario:" >&2
	exec ./deferbench run --dry-run "$@"
fi
name=$(basename "$scenario" .ini)
out="results/$(hostname)/$(uname -r)/$(date -u +%Y%m%dT%H%M%SZ)-$name"
status=0
./deferbench run -o "$out" "$@" || status=$?
# an interrupted or failed run still has finished cells worth a report
if [ -f "$out/run.json" ]; then
	./deferbench report "$out" || status=1
	# the answer the run was for: the configuration each workload should use
	./deferbench advise "$out" || status=1
	echo "bench: results in $out, report in $out/report.html"
fi
exit $status
