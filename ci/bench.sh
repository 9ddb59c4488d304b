#!/bin/sh
# bench.sh - 'make bench': a short system-wide capture into results/ (the scenario
# runner replaces this with the full suite).
set -eu
cd "$(dirname "$0")/.."
host=$(hostname)
kernel=$(uname -r)
out="results/$host/$kernel/$(date -u +%Y%m%dT%H%M%SZ)-record"
./deferbench record -d "${DURATION:-10s}" -o "$out"
echo "bench: results in $out"
