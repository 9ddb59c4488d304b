#!/bin/sh
# t-load-signals.sh - SIGINT or SIGTERM mid-run: every workload stops at once, tears
# everything down, still reports, and exits 0.
. tests/integration/lib.sh
. tests/integration/load-lib.sh
need_root_jq
mktemp_dir D

sig=INT
for wl in timer audio tty block hog; do
	[ $wl = timer ] && ! command -v cyclictest >/dev/null 2>&1 && continue
	run_load "$D/$wl" $wl -d 30s
	sleep 1
	kill -$sig "$LOAD_PID"
	t0=$(date +%s)
	wait_load 0
	[ $(( $(date +%s) - t0 )) -le 5 ] || fail "$wl took more than 5 s to stop"
	no_leftovers "$LOAD_PID"
	assert_file "$D/$wl/workload.json"
	grep -q "stopped by signal" "$D/$wl.err" || fail "$wl: no stop message"
	echo "   $wl: stopped by SIG$sig, cleaned up"
	[ $sig = INT ] && sig=TERM || sig=INT
done
exit 0
