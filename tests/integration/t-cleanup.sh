#!/bin/sh
# t-cleanup.sh - a test that fails midway leaves the machine as it found it. Three
# scripts that break in the middle of changing it run under run-integration.sh:
#   fail     knobs set (nice, cpumask, ksoftirqd policy) and a record running, then
#            a failed assertion: the script's cleanup stops both, they restore
#   killed   knobs set SIGKILLed (its journal stays), then a failed assertion: the
#            cleanup runs 'deferbench restore'
#   timeout  a record and knobs set running when the runner's time limit strikes:
#            SIGTERM, the cleanup runs
# Each must be reported as a failure, and afterwards every workqueue and ksoftirqd
# setting, the journal, the tracefs instances and the processes are as before.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_wq
need_root_tracefs
mktemp_dir T
snapshot $T/before
ls $TRACEFS/instances > $T/instances-before

# inner NAME BODY - a test script whose body runs after the usual preamble
inner() {
	cat > $T/t-$1.sh <<EOF
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
mktemp_dir U
\$DB knobs set wq.writeback.nice=11 wq.cpumask=1 sched.ksoftirqd=rr:3 > \$U/knobs 2>&1 &
wait_for grep -q '^applied' \$U/knobs || fail "knobs never applied"
\$DB record -d 120s > /dev/null 2>&1 &
wait_for test -d $TRACEFS/instances/deferbench-\$! || fail "record never started"
attr_is writeback nice 11 || fail "the knobs are not set"
$2
EOF
}
inner fail 'fail "injected failure midway"'
inner killed 'kill -KILL $(pgrep -f "deferbench knobs set wq.writeback.nice=11")
[ -s "$JOURNAL" ] || fail "the killed knobs set left no journal (test broken)"
fail "injected failure after a SIGKILL"'
inner timeout 'sleep 120'

for t in fail killed timeout; do
	TEST_TIMEOUT=8 expect_exit 1 $T/$t.out sh tests/run-integration.sh $T/t-$t.sh
	grep -q "FAIL t-$t.sh" $T/$t.out || fail "$t: not reported as a failure: $(cat $T/$t.out)"
	case $t in
	fail) grep -q "FAIL: injected failure midway" $T/$t.out || fail "$t: $(cat $T/$t.out)" ;;
	timeout) grep -q "timed out after 8s" $T/$t.out || fail "$t: no time-out: $(cat $T/$t.out)" ;;
	esac
	grep -q "left behind" $T/$t.out && fail "$t: its cleanup left work to the runner: $(cat $T/$t.out)"
	same_as $T/before
	[ ! -e "$JOURNAL" ] || fail "$t: a knobs journal is left"
	ls $TRACEFS/instances > $T/instances-after
	cmp -s $T/instances-before $T/instances-after ||
		fail "$t: tracefs instances changed: $(diff $T/instances-before $T/instances-after)"
	pgrep -f "deferbench (record -d 120s|knobs set wq.writeback.nice=11)" > /dev/null &&
		fail "$t: a process of the broken test still runs"
	echo "   $t: reported as a failure, the machine unchanged"
done
exit 0
