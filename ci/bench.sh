#!/bin/sh
# bench.sh - `make bench`: the default scenario (QUICK=1: the one-minute one), as root.
set -eu
cd "$(dirname "$0")/.."
scenario=bench/scenarios/default.ini
[ "${QUICK:-0}" = 1 ] && scenario=bench/scenarios/quick.ini
if [ "$(id -u)" -ne 0 ]; then
	echo "bench: deferbench run needs root; dry run of $scenario:" >&2
	exec ./deferbench run --dry-run "$scenario"
fi
exec ./deferbench run "$scenario"
