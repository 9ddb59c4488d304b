#!/bin/sh
# t-knobs-signals.sh - Ctrl-C and SIGTERM restore; after SIGKILL the journal remains,
# new runs refuse to start, and 'deferbench restore' puts everything back, removing a
# dead run's tracefs instance and block directory too.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_wq
mktemp_dir T
snapshot $T/before

for sig in INT TERM; do
	$DB knobs set wq.writeback.nice=7 wq.cpumask=1 sched.ksoftirqd=rr:2 > $T/out 2>&1 &
	pid=$!
	wait_for grep -q '^applied' $T/out || fail "never applied: $(cat $T/out)"
	attr_is writeback nice 7 || fail "nice not 7"
	kill -$sig $pid
	wait $pid || fail "SIG$sig: knobs set exited $?: $(cat $T/out)"
	same_as $T/before
	[ ! -e "$JOURNAL" ] || fail "SIG$sig: journal left behind"
done

$DB knobs set wq.writeback.nice=9 wq.writeback.affinity_scope=system sched.ksoftirqd=fifo:4 \
	> $T/out 2>&1 &
pid=$!
wait_for grep -q '^applied' $T/out || fail "never applied: $(cat $T/out)"
kill -KILL $pid
wait $pid 2>/dev/null
attr_is writeback nice 9 || fail "SIGKILL: nice should still be 9"
[ -s "$JOURNAL" ] || fail "SIGKILL: the journal is gone"

$DB knobs set wq.writeback.nice=1 > $T/r 2>&1 && fail "a run started over a stale journal"
grep -q "deferbench restore" $T/r || fail "no hint to restore: $(cat $T/r)"
printf '[workload t]\ntype = tty\n' > $T/s.ini
$DB run --dry-run $T/s.ini > $T/dry 2>&1
grep -q "deferbench restore" $T/dry || fail "dry run does not warn of the stale journal"

# what else a killed run leaves: its tracefs instance and block directory
dead=$(dead_pid)
mkdir -p /tmp/deferbench-block-$dead-test/sub && touch /tmp/deferbench-block-$dead-test/sub/f
inst=""
if [ -d $TRACEFS/instances ]; then
	inst=$TRACEFS/instances/deferbench-$dead
	mkdir $inst || inst=""
fi

$DB restore > $T/restore 2>&1 || fail "restore failed: $(cat $T/restore)"
grep -q "wq.writeback.nice.*9 -> 0" $T/restore || fail "restore did not report nice: $(cat $T/restore)"
same_as $T/before
[ ! -e "$JOURNAL" ] || fail "restore left the journal"
[ ! -e /tmp/deferbench-block-$dead-test ] || fail "block directory of a dead run left"
[ -z "$inst" ] || [ ! -e "$inst" ] || fail "tracefs instance of a dead run left"
$DB restore > $T/again 2>&1 || fail "a second restore failed: $(cat $T/again)"
grep -q "no journal" $T/again || fail "second restore: $(cat $T/again)"
echo "   SIGINT/SIGTERM restore, SIGKILL + 'deferbench restore' restores"
