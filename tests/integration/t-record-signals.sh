#!/bin/sh
# t-record-signals.sh - SIGINT or SIGTERM in the middle of a capture stops it cleanly:
# results are written, exit status 0, and no tracefs instance is left.
. tests/integration/lib.sh
need_root_tracefs
mktemp_dir T

for sig in INT TERM; do
	$DB record -o "$T/$sig" > "$T/$sig.txt" 2>&1 &
	pid=$!
	sleep 1.5
	ls $TRACEFS/instances | grep -q "^deferbench-$pid$" || fail "no instance during capture"
	kill -$sig $pid
	wait $pid || { cat "$T/$sig.txt"; fail "record exited with $? after SIG$sig"; }
	no_leftover_instances
	assert_file "$T/$sig/summary.json"
	grep -q "interrupted" "$T/$sig.txt" || fail "no 'interrupted' note after SIG$sig"
done

# with a command: the command is stopped too (a duration nobody else uses: the machine
# is shared, and another 'sleep 60' is not ours)
nap=60.$$
$DB record -o "$T/cmd" -- sleep $nap > "$T/cmd.txt" 2>&1 &
pid=$!
sleep 1
pgrep -f "^sleep $nap$" >/dev/null || fail "the recorded command never ran"
kill -INT $pid
wait $pid || fail "record with a command exited with $?"
pgrep -f "^sleep $nap$" >/dev/null && fail "the recorded command survived"
no_leftover_instances
exit 0
