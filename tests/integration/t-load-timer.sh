#!/bin/sh
# t-load-timer.sh - cyclictest runs as the probe and is reaped, the hrtimer and
# timer-wheel loads run at the rates asked: never above (a load thread skips the
# deadlines it missed, it does not catch up), and at least a quarter of it on a busy
# machine. How many wakeups were late is a measurement, not a criterion.
. tests/integration/lib.sh
. tests/integration/load-lib.sh
need_root_jq
command -v cyclictest >/dev/null 2>&1 || skip "cyclictest (rt-tests) is not installed"
mktemp_dir D

# rate_ok NAME ASKED - counter NAME_rate_achieved of $J within [ASKED / 4, ASKED x 1.05]
rate_ok() {
	within "$1_rate_achieved" "$(counter "$J" "$1_rate_achieved")" \
		"$(awk -v a="$2" 'BEGIN { print a / 4 }')" "$(awk -v a="$2" 'BEGIN { print a * 1.05 }')"
}

run_load "$D/r" timer threads=2 periods=500us,1ms wheel_rate=500 -d 2s
wait_load 0
no_leftovers "$LOAD_PID"
J=$D/r/workload.json
cpus=$(jq -r '.options.cpus' "$J")
[ "$(counter "$J" load_rate_asked)" = 3000 ] || fail "load_rate_asked $(counter "$J" load_rate_asked), not 2000 + 1000"
rate_ok probe "$(counter "$J" probe_rate_asked)"
rate_ok load 3000
rate_ok wheel 500
[ "$(metric "$J" wakeup count)" = "$(counter "$J" cycles)" ] || fail "wakeup count != cycles"
[ "$(metric "$J" load_wakeup count)" = "$(counter "$J" load_wakeups)" ] ||
	fail "load_wakeup count != load_wakeups"
[ "$(metric "$J" wheel_wakeup count)" = "$(counter "$J" wheel_expiries)" ] ||
	fail "wheel_wakeup count != wheel_expiries"
echo "   cyclictest ran on CPUs $cpus"

# without the probe: no cyclictest, no cycles, no wakeup samples
run_load "$D/n" timer probe=no threads=1 wheel_rate=0 -d 1s
wait_load 0
no_leftovers "$LOAD_PID"
[ "$(counter "$D/n/workload.json" cycles)" = 0 ] || fail "cycles without a probe"
[ "$(metric "$D/n/workload.json" wakeup count)" = 0 ] || fail "wakeup samples without a probe"
exit 0
