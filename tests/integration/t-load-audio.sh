#!/bin/sh
# t-load-audio.sh - the audio thread runs every period with its calibrated DSP, counts
# each period exactly once (run, dropped because its slot passed, or lost on the wire),
# and counts as xruns exactly the periods that finished after their slot; mode=net runs
# too. How many xruns a machine has is a measurement (report, compare), not a criterion:
# what is checked holds on any machine, loaded or not.
. tests/integration/lib.sh
. tests/integration/load-lib.sh
need_root_jq
mktemp_dir D

run_load "$D/r" audio -d 2s
wait_load 0
no_leftovers "$LOAD_PID"
J=$D/r/workload.json
periods=$(counter "$J" periods)
every_period "$J" 0
[ "$(metric "$J" wakeup count)" = "$periods" ] || fail "wakeup count != periods"
[ "$(metric "$J" finish count)" = "$periods" ] || fail "finish count != periods"
xruns_match "$D/r"
# the DSP fills the 25% asked: passes x the cost of one pass is 2667 us / 4, to half a
# pass; and no period ran less than half of it (a pass costs at least the calibration's
# fastest batch)
pass=$(counter "$J" dsp_pass_ns)
work=$(( $(counter "$J" dsp_passes) * pass ))
within "dsp_passes x dsp_pass_ns" "$work" $((666667 - pass / 2 - 1)) $((666667 + pass / 2 + 1))
[ "$(metric "$J" dsp min)" -ge $((work / 2)) ] ||
	fail "a period ran less than half its calibrated DSP: dsp min $(metric "$J" dsp min) ns"

# a 333 us period with 90% DSP: periods finish late and slots pass on most machines,
# and each is counted where it belongs
run_load "$D/tight" audio frames=16 duty=90 -d 1s
wait_load 0
no_leftovers "$LOAD_PID"
J=$D/tight/workload.json
every_period "$J" 0
xruns_match "$D/tight"
echo "   frames=16 duty=90: $(counter "$J" xruns) xruns, $(counter "$J" dropped) dropped"

# mode=net over softirq NAPI (threaded: t-load-net.sh): a period per packet, a packet
# per period; a packet that never arrived is lost, not a period
run_load "$D/net" audio mode=net -d 1s
wait_load 0
no_leftovers "$LOAD_PID"
J=$D/net/workload.json
[ "$(jq -r .options.mode "$J")" = net ] || fail "mode=net not recorded"
[ "$(counter "$J" dropped)" = 0 ] || fail "mode=net dropped periods: it has no slots to skip"
every_period "$J" "$(counter "$J" lost_packets)" 8
[ "$(metric "$J" wakeup count)" = "$(counter "$J" periods)" ] || fail "net: wakeup count != periods"
xruns_match "$D/net"
exit 0
