#!/bin/sh
# t-knobs-signals.sh - Ctrl-C and SIGTERM restore; after SIGKILL the journal remains,
# new runs refuse to start, and 'deferbench restore' puts everything back, removing a
# dead run's tracefs instance and block directory too.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_wq
mktemp_dir T
snapshot $T/before
nice0=$(cat $WQ/writeback/nice)

# Each run writes a file of its own: the shell truncates a reused one only once the
# child runs, and a wait for 'applied' could read the last run's (then signal a run
# that had set nothing yet).
for sig in INT TERM; do
	$DB knobs set wq.writeback.nice=7 wq.cpumask=1 sched.ksoftirqd=rr:2 > $T/$sig.out 2>&1 &
	pid=$!
	wait_for grep -qs '^applied' $T/$sig.out || fail "never applied: $(cat $T/$sig.out)"
	attr_is writeback nice 7 || fail "nice is $(cat $WQ/writeback/nice), not 7"
	kill -$sig $pid
	wait $pid || fail "SIG$sig: knobs set exited $?: $(cat $T/$sig.out)"
	grep -q '^restored$' $T/$sig.out || fail "SIG$sig: no 'restored': $(cat $T/$sig.out)"
	same_as $T/before
	[ ! -e "$JOURNAL" ] || fail "SIG$sig: journal left behind"
done

$DB knobs set wq.writeback.nice=9 wq.writeback.affinity_scope=system sched.ksoftirqd=fifo:4 \
	> $T/kill.out 2>&1 &
pid=$!
wait_for grep -qs '^applied' $T/kill.out || fail "never applied: $(cat $T/kill.out)"
attr_is writeback nice 9 || fail "nice is $(cat $WQ/writeback/nice), not 9, once applied"
kill -KILL $pid
wait $pid 2>/dev/null
attr_is writeback nice 9 || fail "SIGKILL: nice should still be 9"
[ -s "$JOURNAL" ] || fail "SIGKILL: the journal is gone"

expect_message $T/r "left settings changed (journal $JOURNAL); run 'deferbench restore' first" \
	$DB knobs set wq.writeback.nice=1
attr_is writeback nice 9 || fail "a refused knobs set changed nice"
printf '[workload t]\ntype = tty\n' > $T/s.ini
expect_exit 0 $T/dry $DB run --dry-run $T/s.ini
grep -q "^warning: .*run 'deferbench restore' first" $T/dry || fail "dry run does not warn of the stale journal: $(cat $T/dry)"

# what else a killed run leaves: its tracefs instance and block directory
dead=$(dead_pid)
at_exit "rm -rf /tmp/deferbench-block-$dead-test"
mkdir -p /tmp/deferbench-block-$dead-test/sub && touch /tmp/deferbench-block-$dead-test/sub/f
inst=""
if [ -d $TRACEFS/instances ]; then
	inst=$TRACEFS/instances/deferbench-$dead
	at_exit "rmdir $inst"
	mkdir $inst || inst=""
fi

expect_exit 0 $T/restore $DB restore
grep -q "wq.writeback.nice ($WQ/writeback/nice): 9 -> $nice0" $T/restore ||
	fail "restore did not report nice: $(cat $T/restore)"
same_as $T/before
[ ! -e "$JOURNAL" ] || fail "restore left the journal"
[ ! -e /tmp/deferbench-block-$dead-test ] || fail "block directory of a dead run left"
[ -z "$inst" ] || [ ! -e "$inst" ] || fail "tracefs instance of a dead run left"
expect_exit 0 $T/again $DB restore
grep -q "^no journal at $JOURNAL: no kernel settings to restore$" $T/again ||
	fail "second restore: $(cat $T/again)"
echo "   SIGINT/SIGTERM restore, SIGKILL + 'deferbench restore' restores"
