#!/bin/sh
# t-record-xcheck.sh - deferbench's figures agree with an independent reading of the
# same kernel events: a second tracefs instance records them as text while
# 'deferbench record' runs, and xcheck.py pairs them with its own code.
. tests/integration/lib.sh
need_root_tracefs
command -v python3 >/dev/null || skip "needs python3 for the independent reader"
mktemp_dir T
X=$TRACEFS/instances/dbxcheck-$$
at_exit "echo 0 > $X/tracing_on; rmdir $X"
mkdir "$X" || fail "cannot create the checking instance"
echo 0 > "$X/tracing_on"
echo mono > "$X/trace_clock"
echo 0 > "$X/options/overwrite"
echo 16384 > "$X/buffer_size_kb"
for e in irq/softirq_raise irq/softirq_entry irq/softirq_exit workqueue/workqueue_queue_work \
	 workqueue/workqueue_activate_work workqueue/workqueue_execute_start \
	 workqueue/workqueue_execute_end; do
	echo 1 > "$X/events/$e/enable" || fail "cannot enable $e"
done
# the events of the execution contexts, where this kernel has them (deferbench's counts
# of them are checked too)
for e in irq/irq_handler_entry irq/irq_handler_exit irq/tasklet_entry irq/tasklet_exit \
	 napi/napi_poll irq_vectors/local_timer_entry irq_vectors/local_timer_exit; do
	[ -d "$X/events/$e" ] || continue
	echo 1 > "$X/events/$e/enable" || fail "cannot enable $e"
done
cat > "$T/ptywriter.py" <<'PY'
import os, pty, time, tty
m, s = pty.openpty()
tty.setraw(s)
for i in range(1500):
    os.write(m, b"0123456789abcdef")
    os.read(s, 64)
    if i % 100 == 0:
        os.sync()
    time.sleep(0.001)
PY
echo 1 > "$X/tracing_on"
$DB record --raw -o "$T/r" -- python3 "$T/ptywriter.py" > "$T/out.txt" 2>&1 ||
	{ cat "$T/out.txt"; fail "record failed"; }
echo 0 > "$X/tracing_on"
dropped=$(cat "$X"/per_cpu/cpu*/stats | awk '/^dropped events/ { s += $3 } END { print s + 0 }')
[ "$dropped" -eq 0 ] || skip "the checking instance dropped $dropped events; rerun"
cat "$X/trace" > "$T/trace.txt"
python3 tests/integration/xcheck.py "$T/trace.txt" "$T/r" || fail "figures disagree"
exit 0
