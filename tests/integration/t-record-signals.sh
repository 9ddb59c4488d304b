#!/bin/sh
# t-record-signals.sh - SIGINT or SIGTERM in the middle of a capture stops it cleanly:
# exit status 0, the output says the results were interrupted, and the results cover
# the time traced (summary.json's duration lies between what the test saw of the
# capture running and the life of the process); no tracefs instance is left. With a
# command, the command is stopped too.
#
# The bounds hold by causality, not by speed: the capture's own stamps (start before
# tracing goes on, end after it goes off) enclose the span from the moment its "recording"
# line was seen to the signal, and lie inside the process's life. Both spans are read on
# CLOCK_MONOTONIC (mono in lib.sh), the clock of the capture's stamps.
. tests/integration/lib.sh
need_root_tracefs
command -v jq >/dev/null 2>&1 || skip "jq is not installed (ci/install-deps.sh)"
mktemp_dir T

now() { mono; }

for sig in INT TERM; do
	t_launch=$(now)
	$DB record -o "$T/$sig" > "$T/$sig.txt" 2>&1 &
	pid=$!
	# printed once the capture runs (an instance's tracing_on reads 1 already when it
	# is made, before deferbench turns it off to configure it: no sign of a capture)
	wait_for grep -qs "^deferbench: recording until Ctrl-C" "$T/$sig.txt" ||
		fail "the capture never started: $(cat "$T/$sig.txt")"
	t_on=$(now)
	sleep 0.5	# something to record: not a synchronisation
	t_kill=$(now)
	kill -$sig $pid
	wait $pid || { cat "$T/$sig.txt"; fail "record exited with $? after SIG$sig"; }
	t_end=$(now)
	no_leftover_instances
	grep -q "^deferbench: interrupted: results cover the time traced so far$" "$T/$sig.txt" ||
		fail "no 'interrupted' note after SIG$sig: $(cat "$T/$sig.txt")"
	J=$T/$sig/summary.json
	assert_file "$J"
	within "SIG$sig duration_s" "$(jq -r .meta.duration_s "$J")" \
		"$(awk -v a="$t_on" -v b="$t_kill" 'BEGIN { print b - a }')" \
		"$(awk -v a="$t_launch" -v b="$t_end" 'BEGIN { print b - a }')"
	[ "$(jq -r .capture.events "$J")" -gt 0 ] || fail "SIG$sig: no event in the results"
	for f in softirq.csv workqueue.csv histograms.csv intervals.csv; do
		assert_file "$T/$sig/$f"
	done
	ls -d "$T/$sig".partial-* 2>/dev/null && fail "SIG$sig: a staging directory was left"
done

# with a command: the command is stopped too (a duration nobody else uses: the machine
# is shared, and another 'sleep 60' is not ours)
nap=60.$$
$DB record -o "$T/cmd" -- sleep $nap > "$T/cmd.txt" 2>&1 &
pid=$!
wait_for pgrep -f "^sleep $nap$" >/dev/null || fail "the recorded command never ran"
kill -INT $pid
wait $pid || fail "record with a command exited with $?"
pgrep -f "^sleep $nap$" >/dev/null && fail "the recorded command survived"
grep -q "interrupted" "$T/cmd.txt" || fail "no 'interrupted' note: $(cat "$T/cmd.txt")"
no_leftover_instances
exit 0
