#!/bin/bash
# perf.sh - 'make perf': what deferbench's capture costs and how fast it turns raw
# ring-buffer data into histograms. A benchmark, not a test: it prints figures and
# fails only if it cannot measure.
#
# 1. records build/tests/evgen (pipe ping-pong and pty writes) three ways, each for
#    PERF_SECONDS (default 10):
#      high-all   as fast as it goes, every sched event (--sched-all), with --raw:
#                 the offline benchmark's input (the same event mix as always)
#      high       as fast as it goes, sched events of deferred work's threads only
#                 (the default filter): the events it saves, and their cost
#      low        1000 round trips/s, default filter: the cost at a light load
#    and prints each live capture's cost: reader and analysis threads' CPU, per
#    second captured and per million events, with the events and losses;
# 2. runs 'deferbench analyze' on high-all five times and reports the best run:
#    events per second of decode + merge + match + histogram, wall clock and CPU;
# 3. stops each workload with SIGINT and prints how long it took to exit.
# PERF_CAPTURE=DIR skips the recordings and benchmarks analyze on DIR only.
set -eu
cd "$(dirname "$0")/.."
DB=./deferbench
SECS=${PERF_SECONDS:-10}
OUT=build/perf

# field DIR EXPR - a value of DIR/summary.json
field() {
	python3 -c "import json,sys; d=json.load(open('$1/summary.json')); print(d$2)"
}

# cost NAME DIR - one line: events, event rate, lost, capture CPU per s and per M events
cost() {
	local ev lost cpu dur
	ev=$(field "$2" "['capture']['events']")
	lost=$(field "$2" "['capture']['lost_events']")
	cpu=$(field "$2" "['capture']['capture_cpu_s']")
	dur=$(field "$2" "['meta']['duration_s']")
	awk -v n="$1" -v ev="$ev" -v lost="$lost" -v cpu="$cpu" -v d="$dur" 'BEGIN {
		printf "perf: live %-9s %9d events (%7.0f/s), %d lost: capture CPU %5.2f%% of one CPU, %.3f s per million events\n",
		       n, ev, ev / d, lost, 100 * cpu / d, ev ? cpu * 1e6 / ev : 0
	}'
}

if [ -z "${PERF_CAPTURE:-}" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "perf: recording the benchmark captures needs root (or set PERF_CAPTURE=DIR)" >&2
		exit 1
	fi
	mkdir -p "$OUT"
	echo "perf: recording build/tests/evgen for ${SECS}s three ways into $OUT ..."
	$DB record --sched-all --raw --force -o "$OUT/high-all" -- build/tests/evgen "$SECS" \
		> "$OUT/high-all.txt"
	$DB record --force -o "$OUT/high" -- build/tests/evgen "$SECS" > "$OUT/high.txt"
	$DB record --force -o "$OUT/low" -- build/tests/evgen "$SECS" 1000 > "$OUT/low.txt"
	cost high-all "$OUT/high-all"
	cost high "$OUT/high"
	cost low "$OUT/low"
	CAP=$OUT/high-all
else
	CAP=$PERF_CAPTURE
fi
[ -f "$CAP/raw/capture.json" ] || { echo "perf: $CAP holds no raw capture" >&2; exit 1; }

events=$(field "$CAP" "['capture']['events']")
bytes=$(du -sb "$CAP/raw" | cut -f1)
best_wall=999999 best_cpu=999999
TIMEFORMAT='%R %U %S'
for i in 1 2 3 4 5; do
	t=$( { time $DB analyze "$CAP" > /dev/null; } 2>&1 | tail -1)
	read -r wall user sys <<< "$t"
	c=$(awk "BEGIN { print $user + $sys }")
	best_wall=$(awk "BEGIN { print ($wall < $best_wall) ? $wall : $best_wall }")
	best_cpu=$(awk "BEGIN { print ($c < $best_cpu) ? $c : $best_cpu }")
done

awk -v ev="$events" -v w="$best_wall" -v c="$best_cpu" -v mb="$bytes" -v cap="$CAP" 'BEGIN {
	printf "perf: offline analyze of %s (%d events, %.1f MB of sub-buffers), best of 5:\n", cap, ev, mb / 1e6
	printf "perf:   wall  %.3f s  -> %.1f million events/s\n", w, ev / w / 1e6
	printf "perf:   CPU   %.3f s  -> %.1f million events/s per core\n", c, ev / c / 1e6
}'

# 3. (root, recording) how soon each workload stops on SIGINT: from the signal to the
# process's exit, teardown and results included. A real-time figure, so it lives here
# and not in the integration tests (t-load-signals.sh checks what stopping does).
if [ -z "${PERF_CAPTURE:-}" ]; then
	for wl in timer audio tty block hog net; do
		[ $wl = timer ] && ! command -v cyclictest >/dev/null 2>&1 && continue
		rm -rf "$OUT/stop-$wl"
		$DB load $wl -d 600s -o "$OUT/stop-$wl" > /dev/null 2>&1 &
		pid=$!
		until grep -qs '^db-' /proc/$pid/task/*/comm; do
			kill -0 $pid 2>/dev/null || { echo "perf: load $wl never ran" >&2; exit 1; }
			sleep 0.05
		done
		sleep 1
		t0=$(python3 -c 'import time; print(time.monotonic())')
		kill -INT $pid
		wait $pid || { echo "perf: load $wl failed after SIGINT" >&2; exit 1; }
		t1=$(python3 -c 'import time; print(time.monotonic())')
		awk -v w=$wl -v a="$t0" -v b="$t1" 'BEGIN {
			printf "perf: load %-5s stops %.3f s after SIGINT%s\n", w, b - a, (b - a > 5) ? "  [SLOW: over 5 s]" : "" }'
	done
fi
