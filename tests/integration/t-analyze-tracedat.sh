#!/bin/sh
# t-analyze-tracedat.sh - a trace.dat written by trace-cmd gives the same figures as
# deferbench's own raw capture of the same events.
#
# The same window is recorded both ways: a tracefs instance set up here like deferbench's
# (the same events, trace_clock mono, overwrite off) traces from before 'deferbench
# record --raw' starts until after it ends, and 'trace-cmd extract -B' writes it to a
# trace.dat ('trace-cmd record' is refused on machines without the function tracer).
# analyze then reads the trace.dat between the raw capture's first and last event.
. tests/integration/lib.sh
need_root_tracefs
command -v trace-cmd >/dev/null 2>&1 || skip "trace-cmd is not installed (ci/install-deps.sh)"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mktemp_dir T
I=deferbench-test-tdat-$$
cleanup() {
	if [ -d "$TRACEFS/instances/$I" ]; then
		echo 0 > "$TRACEFS/instances/$I/tracing_on"
		rmdir "$TRACEFS/instances/$I"
	fi
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

# the events deferbench enables on this kernel: the formats its raw capture kept (every
# scheduler event, --sched-all: the instance below has no filter on them)
$DB record -d 200ms --sched-all --raw -o "$T/probe" > /dev/null 2>&1 || fail "record (probe) failed"
events=$(cd "$T/probe/raw/formats" && ls -d */* | sort)
[ -n "$events" ] || fail "the probe capture kept no event formats"

mkdir "$TRACEFS/instances/$I" || fail "cannot create instance $I"
echo 0 > "$TRACEFS/instances/$I/tracing_on"
echo mono > "$TRACEFS/instances/$I/trace_clock"
echo 0 > "$TRACEFS/instances/$I/options/overwrite"
echo 8192 > "$TRACEFS/instances/$I/buffer_size_kb"
for e in $events; do
	echo 1 > "$TRACEFS/instances/$I/events/$e/enable" || fail "cannot enable $e in $I"
done
echo 1 > "$TRACEFS/instances/$I/tracing_on"
$DB record -d 3s --sched-all --raw -o "$T/raw" -- $DB load tty -d 2500ms rate=500 > "$T/raw.txt" 2>&1 ||
	{ cat "$T/raw.txt"; fail "record failed"; }
echo 0 > "$TRACEFS/instances/$I/tracing_on"
trace-cmd extract -B "$I" -o "$T/trace.dat" > "$T/extract.txt" 2>&1 ||
	{ cat "$T/extract.txt"; fail "trace-cmd extract failed"; }
[ -d "$TRACEFS/instances/$I" ] && rmdir "$TRACEFS/instances/$I"

# the raw capture's first and last event, as trace-cmd writes timestamps
win=$(python3 - "$T/raw/summary.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))["capture"]
f, l = c["first_event_ns"], c["last_event_ns"]
print("%d.%09d %d.%09d" % (f // 10**9, f % 10**9, l // 10**9, l % 10**9))
EOF
) || fail "cannot read the raw capture's window"
set -- $win
$DB analyze "$T/trace.dat" --start "$1" --end "$2" -o "$T/tdat" > "$T/tdat.txt" 2>&1 ||
	{ cat "$T/tdat.txt"; fail "analyze trace.dat failed"; }

# (1) the same sub-buffers: trace-cmd restore turns the raw capture's cpuN.dat (pages as
# read from trace_pipe_raw) into a trace.dat; every figure must be the same, exactly
trace-cmd restore -c -o "$T/head.dat" > "$T/restore.txt" 2>&1 &&
	trace-cmd restore -i "$T/head.dat" -o "$T/restored.dat" "$T"/raw/raw/cpu*.dat \
		>> "$T/restore.txt" 2>&1 || { cat "$T/restore.txt"; fail "trace-cmd restore failed"; }
$DB analyze "$T/restored.dat" -o "$T/rest" > "$T/rest.txt" 2>&1 ||
	{ cat "$T/rest.txt"; fail "analyze of the restored trace.dat failed"; }
python3 tests/integration/tdat_compare.py exact "$T/raw/summary.json" "$T/rest/summary.json" ||
	fail "the restored trace.dat's figures differ from the raw capture's"

# (2) the same window traced by a second instance: each instance stamps every event
# itself (a few hundred ns apart) and the windows' edges differ by an event or two, so
# counts must agree within 2 and the softirq and workqueue delays within 10% or 2 us
# (a p99 of fewer than 1000 delays: that, or between the other's p90 and max;
# tdat_compare.py)
python3 tests/integration/tdat_compare.py close "$T/raw/summary.json" "$T/tdat/summary.json" ||
	fail "the extracted trace.dat's figures differ from the raw capture's"

# a trace.dat without the events deferbench needs: a clear message naming them
mkdir "$TRACEFS/instances/$I" || fail "cannot create instance $I"
echo 1 > "$TRACEFS/instances/$I/events/sched/sched_switch/enable"
sleep 0.3
echo 0 > "$TRACEFS/instances/$I/tracing_on"
trace-cmd extract -B "$I" -o "$T/sched.dat" > "$T/extract2.txt" 2>&1 ||
	{ cat "$T/extract2.txt"; fail "trace-cmd extract (sched only) failed"; }
[ -d "$TRACEFS/instances/$I" ] && rmdir "$TRACEFS/instances/$I"
$DB analyze "$T/sched.dat" > "$T/sched.txt" 2>&1 && fail "analyze accepted a trace.dat without softirq or workqueue events"
grep -q "lacks the events deferbench needs" "$T/sched.txt" || { cat "$T/sched.txt"; fail "no clear message for missing events"; }
grep -q "irq:softirq_raise" "$T/sched.txt" || fail "the message does not name the missing events"
no_leftover_instances
exit 0
