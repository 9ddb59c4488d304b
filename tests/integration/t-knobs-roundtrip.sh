#!/bin/sh
# t-knobs-roundtrip.sh - set every attribute of the writeback workqueue, read it back
# while set, then check that everything is as before; refusals change nothing.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_wq
command -v jq >/dev/null 2>&1 || skip "jq is not installed (ci/install-deps.sh)"
mktemp_dir T

snapshot $T/before
nice0=$(cat $WQ/writeback/nice)
# held until SIGINT, not for a time: the checks below must see it set, however slow
$DB knobs set wq.writeback.nice=-5 wq.writeback.cpumask=1 \
	wq.writeback.affinity_scope=cpu wq.writeback.affinity_strict=1 \
	wq.writeback.max_active=64 sched.ksoftirqd.0=fifo:3 \
	param.cpu_intensive_thresh_us=20000 > $T/out 2>&1 &
pid=$!
wait_for grep -q '^applied' $T/out || fail "knobs set did not finish applying: $(cat $T/out)"
attr_is writeback nice -5 || fail "nice is $(cat $WQ/writeback/nice), not -5: $(cat $T/out)"
attr_is writeback cpumask 1 || fail "cpumask is $(cat $WQ/writeback/cpumask)"
attr_is writeback affinity_scope cpu || fail "affinity_scope is $(cat $WQ/writeback/affinity_scope)"
attr_is writeback affinity_strict 1 || fail "affinity_strict not set"
attr_is writeback max_active 64 || fail "max_active not set"
chrt -p "$(pgrep -x ksoftirqd/0)" | grep -q SCHED_FIFO || fail "ksoftirqd/0 is not SCHED_FIFO"
[ -s "$JOURNAL" ] || fail "no journal while knobs are set"
jq -e --arg p $WQ/writeback/nice --arg o "$nice0" \
	'.entries[] | select(.path == $p and .orig == $o)' "$JOURNAL" >/dev/null ||
	fail "the journal lacks the original nice $nice0: $(cat "$JOURNAL")"
kill -INT $pid
wait $pid || fail "knobs set exited $?: $(cat $T/out)"
grep -q '^restored' $T/out || fail "no 'restored' line: $(cat $T/out)"
same_as $T/before
[ ! -e "$JOURNAL" ] || fail "journal left behind"

# -t: restored by itself when the time is up (what it held is checked above)
expect_exit 0 $T/t.out $DB knobs set -d 200ms wq.writeback.nice=-5 wq.writeback.max_active=64
grep -q '^applied; restoring when the time is up' $T/t.out && grep -q '^restored' $T/t.out ||
	fail "knobs set -d: $(cat $T/t.out)"
same_as $T/before
[ ! -e "$JOURNAL" ] || fail "journal left behind by knobs set -d"

# refusals, exit 1 with the reason: a workqueue without sysfs, a CPU that is not
# online, RPS of a device other than loopback, a device this namespace does not have
expect_message $T/r1 "wq.events_unbound.nice: workqueue 'events_unbound' has no sysfs attributes" \
	$DB knobs set wq.events_unbound.nice=1
grep -q 'tunable here: .*writeback' $T/r1 || fail "no list of tunable workqueues: $(cat $T/r1)"
expect_message $T/r2 "wq.writeback.cpumask: mask ffff0000 selects CPU 16-31, not online" \
	$DB knobs set wq.writeback.cpumask=ffff0000
expect_message $T/r3 "netdev.eth0.rps_cpus: rps_cpus is loopback's only" \
	$DB knobs set netdev.eth0.rps_cpus=1
expect_message $T/r4 "no network device 'dbnone0' in deferbench's network namespace" \
	$DB knobs set netdev.dbnone0.threaded=1
same_as $T/before
[ ! -e "$JOURNAL" ] || fail "a refused knobs set left a journal"
echo "   writeback knobs set, read back and restored"
