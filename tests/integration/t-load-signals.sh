#!/bin/sh
# t-load-signals.sh - SIGINT or SIGTERM mid-run: every workload stops, tears everything
# down, still reports the time it ran, and exits 0. How fast it stops is a real-time
# figure, 'make perf' prints it (tests/perf.sh); here the time it reports is bounded by
# causality: no more than the process lived, on CLOCK_MONOTONIC (mono in lib.sh).
. tests/integration/lib.sh
. tests/integration/load-lib.sh
need_root_jq
mktemp_dir D

# running PID - the workload of PID has started: its db- threads exist
running() {
	grep -qs '^db-' /proc/"$1"/task/*/comm
}

sig=INT
for wl in timer audio tty block hog; do
	[ $wl = timer ] && ! command -v cyclictest >/dev/null 2>&1 && continue
	t0=$(mono)
	run_load "$D/$wl" $wl -d 600s
	wait_for running "$LOAD_PID" || fail "$wl never started: $(cat "$D/$wl.err")"
	kill -$sig "$LOAD_PID"
	wait_load 0
	t1=$(mono)
	no_leftovers "$LOAD_PID"
	grep -q "^deferbench: $wl: stopped by signal after [0-9.]* s$" "$D/$wl.err" ||
		fail "$wl: no stop message: $(cat "$D/$wl.err")"
	# the results cover the time it ran, not the 600 s asked: at most its life
	within "$wl duration_s" "$(jq -r .duration_s "$D/$wl/workload.json")" 0 \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
	[ "$(jq -r '.metrics | length' "$D/$wl/workload.json")" -ge 1 ] || fail "$wl: no metrics"
	echo "   $wl: stopped by SIG$sig, cleaned up"
	[ $sig = INT ] && sig=TERM || sig=INT
done
exit 0
