#!/bin/bash
# perf.sh - 'make perf': how fast deferbench turns raw ring-buffer data into
# histograms. A benchmark, not a test: it prints figures and fails only if it cannot
# measure.
#
# 1. records a large raw capture (build/tests/evgen: pipe ping-pong and pty writes,
#    about 200k events/s) with 'deferbench record --raw', unless PERF_CAPTURE names
#    an existing one;
# 2. runs 'deferbench analyze' on it five times and reports the best run: events per
#    second of decode + merge + match + histogram, wall clock and CPU;
# 3. reports what the live capture cost: reader and analysis threads' CPU time per
#    million events.
set -eu
cd "$(dirname "$0")/.."
DB=./deferbench
CAP=${PERF_CAPTURE:-build/perf-capture}
SECS=${PERF_SECONDS:-10}

if [ -z "${PERF_CAPTURE:-}" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "perf: recording the benchmark capture needs root (or set PERF_CAPTURE=DIR)" >&2
		exit 1
	fi
	echo "perf: recording ${SECS}s of build/tests/evgen into $CAP ..."
	$DB record --raw --force -o "$CAP" -- build/tests/evgen "$SECS" > build/perf-record.txt
fi
[ -f "$CAP/raw/capture.json" ] || { echo "perf: $CAP holds no raw capture" >&2; exit 1; }

field() {
	python3 -c "import json,sys; d=json.load(open('$CAP/summary.json')); print(d$1)" 2>/dev/null ||
	sed -n "s/.*\"${2}\": *\([0-9.e+-]*\).*/\1/p" "$CAP/summary.json" | head -1
}
events=$(field "['capture']['events']" events)
lost=$(field "['capture']['lost_events']" lost_events)
cpu=$(field "['capture']['capture_cpu_s']" capture_cpu_s)
bytes=$(du -sb "$CAP/raw" | cut -f1)

best_wall=999999 best_cpu=999999
TIMEFORMAT='%R %U %S'
for i in 1 2 3 4 5; do
	t=$( { time $DB analyze "$CAP" > /dev/null; } 2>&1 | tail -1)
	read -r wall user sys <<< "$t"
	c=$(echo "$user + $sys" | bc -l 2>/dev/null || awk "BEGIN { print $user + $sys }")
	best_wall=$(awk "BEGIN { print ($wall < $best_wall) ? $wall : $best_wall }")
	best_cpu=$(awk "BEGIN { print ($c < $best_cpu) ? $c : $best_cpu }")
done

awk -v ev="$events" -v lost="$lost" -v cpu="$cpu" -v w="$best_wall" -v c="$best_cpu" \
    -v mb="$bytes" 'BEGIN {
	printf "perf: capture %s: %d events, %d lost, %.1f MB of sub-buffers\n", "'"$CAP"'", ev, lost, mb / 1e6
	printf "perf: live capture cost     %.3f s CPU per million events (readers + analysis)\n", cpu * 1e6 / ev
	printf "perf: offline analyze, best of 5:\n"
	printf "perf:   wall  %.3f s  -> %.1f million events/s\n", w, ev / w / 1e6
	printf "perf:   CPU   %.3f s  -> %.1f million events/s per core\n", c, ev / c / 1e6
}'
