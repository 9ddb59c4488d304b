#!/bin/sh
# t-load-timer.sh - cyclictest runs as the probe and is reaped, the hrtimer and
# timer-wheel loads run at the rates asked.
. tests/integration/lib.sh
. tests/integration/load-lib.sh
need_root_jq
command -v cyclictest >/dev/null 2>&1 || skip "cyclictest (rt-tests) is not installed"
mktemp_dir D

run_load "$D/r" timer threads=2 periods=500us,1ms wheel_rate=500 -d 2s
wait_load 0
no_leftovers "$LOAD_PID"
J=$D/r/workload.json
cpus=$(jq -r '.options.cpus' "$J")
asked=$(counter "$J" probe_rate_asked)
within probe_rate_achieved "$(counter "$J" probe_rate_achieved)" \
	"$(awk -v a="$asked" 'BEGIN{print a * 0.9}')" "$(awk -v a="$asked" 'BEGIN{print a * 1.05}')"
[ "$(metric "$J" wakeup count)" = "$(counter "$J" cycles)" ] || fail "wakeup count != cycles"
within load_rate_achieved "$(counter "$J" load_rate_achieved)" 2400 3100	# 2000 + 1000
within wheel_rate_achieved "$(counter "$J" wheel_rate_achieved)" 450 520
echo "   cyclictest ran on CPUs $cpus"

# without the probe: no child at all
run_load "$D/n" timer probe=no threads=1 wheel_rate=0 -d 1s
wait_load 0
[ "$(counter "$D/n/workload.json" cycles)" = 0 ] || fail "cycles without a probe"
exit 0
