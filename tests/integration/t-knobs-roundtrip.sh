#!/bin/sh
# t-knobs-roundtrip.sh - set every attribute of the writeback workqueue, read it back
# while set, then check that everything is as before; refusals change nothing.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_wq
mktemp_dir T

snapshot $T/before
$DB knobs set -t 3s wq.writeback.nice=-5 wq.writeback.cpumask=1 \
	wq.writeback.affinity_scope=cpu wq.writeback.affinity_strict=1 \
	wq.writeback.max_active=64 sched.ksoftirqd.0=fifo:3 \
	param.cpu_intensive_thresh_us=20000 > $T/out 2>&1 &
pid=$!
wait_for attr_is writeback nice -5 || fail "nice never became -5: $(cat $T/out)"
wait_for grep -q '^applied' $T/out || fail "knobs set did not finish applying: $(cat $T/out)"
attr_is writeback cpumask 1 || fail "cpumask is $(cat $WQ/writeback/cpumask)"
attr_is writeback affinity_scope cpu || fail "affinity_scope is $(cat $WQ/writeback/affinity_scope)"
attr_is writeback affinity_strict 1 || fail "affinity_strict not set"
attr_is writeback max_active 64 || fail "max_active not set"
chrt -p "$(pgrep -x ksoftirqd/0)" | grep -q SCHED_FIFO || fail "ksoftirqd/0 is not SCHED_FIFO"
[ -s "$JOURNAL" ] || fail "no journal while knobs are set"
grep -q '"orig":"0"' "$JOURNAL" || fail "the journal lacks the original nice"
wait $pid || fail "knobs set failed: $(cat $T/out)"
grep -q '^restored' $T/out || fail "no 'restored' line: $(cat $T/out)"
same_as $T/before
[ ! -e "$JOURNAL" ] || fail "journal left behind"

# refusals: a workqueue without sysfs, a CPU that is not online, a NIC
$DB knobs set wq.events_unbound.nice=1 > $T/r1 2>&1 && fail "events_unbound accepted"
grep -q 'tunable here: .*writeback' $T/r1 || fail "no list of tunable workqueues: $(cat $T/r1)"
$DB knobs set wq.writeback.cpumask=ffff0000 > $T/r2 2>&1 && fail "offline CPUs accepted"
grep -q 'not online' $T/r2 || fail "no 'not online' message: $(cat $T/r2)"
$DB knobs set netdev.eth0.rps_cpus=1 > $T/r3 2>&1 && fail "a host NIC accepted"
same_as $T/before
[ ! -e "$JOURNAL" ] || fail "a refused knobs set left a journal"
echo "   writeback knobs set, read back and restored"
