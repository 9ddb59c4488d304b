#!/bin/sh
# t-load-signals.sh - SIGINT or SIGTERM mid-run: every workload stops at once, tears
# everything down, still reports the time it ran, and exits 0.
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
	run_load "$D/$wl" $wl -d 30s
	wait_for running "$LOAD_PID" || fail "$wl never started: $(cat "$D/$wl.err")"
	kill -$sig "$LOAD_PID"
	t0=$(date +%s)
	wait_load 0
	[ $(( $(date +%s) - t0 )) -le 5 ] || fail "$wl took more than 5 s to stop"
	no_leftovers "$LOAD_PID"
	grep -q "^deferbench: $wl: stopped by signal after [0-9.]* s$" "$D/$wl.err" ||
		fail "$wl: no stop message: $(cat "$D/$wl.err")"
	# the results cover the time it ran, not the 30 s asked
	within "$wl duration_s" "$(jq -r .duration_s "$D/$wl/workload.json")" 0 10
	[ "$(jq -r '.metrics | length' "$D/$wl/workload.json")" -ge 1 ] || fail "$wl: no metrics"
	echo "   $wl: stopped by SIG$sig, cleaned up"
	[ $sig = INT ] && sig=TERM || sig=INT
done
exit 0
