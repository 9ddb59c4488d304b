#!/bin/sh
# t-run-signals.sh - 'deferbench run' under its config's knobs: Ctrl-C ends the cell,
# restores every knob, leaves the cell as .partial- with status interrupted and
# run.json incomplete; after SIGKILL, 'deferbench restore' restores the knobs and
# removes the dead run's tracefs instance.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_tracefs
need_root_wq
mktemp_dir T
cat > $T/s.ini <<EOS
[global]
duration = 60s
warmup = 1s
repetitions = 1
[workload t]
type = tty
rate = 200
[config c]
wq.writeback.nice = 7
wq.cpumask = 1
EOS
snapshot $T/before

# start_run DIR - start a run; sets pid; skips when this build cannot run
start_run() {
	$DB run -o "$1" $T/s.ini > $T/log 2>&1 &
	pid=$!
	wait_for sh -c "[ \"\$(cat $WQ/writeback/nice)\" = 7 ] || ! kill -0 $pid 2>/dev/null"
	if ! kill -0 $pid 2>/dev/null; then
		wait $pid
		fail "run exited early: $(cat $T/log)"
	fi
	attr_is writeback nice 7 || fail "the config's nice was never applied: $(cat $T/log)"
	wait_for test -d $TRACEFS/instances/deferbench-$pid || fail "no capture instance"
}

start_run $T/int
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 1 ] || fail "an interrupted run exited $rc, not 1: $(cat $T/log)"
grep -q "^interrupted: 0 of 1 cells in $T/int " $T/log || fail "no 'interrupted' summary: $(cat $T/log)"
same_as $T/before
[ ! -e "$JOURNAL" ] || fail "journal left after Ctrl-C"
[ ! -e $TRACEFS/instances/deferbench-$pid ] || fail "tracefs instance left after Ctrl-C"
grep -q '"status":"interrupted"' $T/int/run.json || fail "run.json: $(cat $T/int/run.json)"
grep -q '"complete":false' $T/int/run.json || fail "run.json says complete"
grep -q '"status":"interrupted"' "$T/int/cells/.partial-t--c--r1/cell.json" ||
	fail "no interrupted partial cell"
[ ! -e $T/int/cells/t--c--r1 ] || fail "an interrupted cell looks finished"

start_run $T/kill
kill -KILL $pid
wait $pid 2>/dev/null
[ -s "$JOURNAL" ] || fail "SIGKILL: no journal"
expect_exit 0 $T/restore $DB restore
grep -q "^restoring [0-9]* setting(s) saved by pid $pid " $T/restore || fail "restore: $(cat $T/restore)"
grep -q "wq.writeback.nice ($WQ/writeback/nice): 7 -> " $T/restore ||
	fail "restore did not put nice back: $(cat $T/restore)"
same_as $T/before
[ ! -e $TRACEFS/instances/deferbench-$pid ] || fail "restore left the dead run's instance"
grep -q '"complete":false' $T/kill/run.json || fail "a killed run looks complete"
echo "   run: Ctrl-C and SIGKILL + restore leave the machine as it was"
