#!/bin/sh
# t-top.sh - deferbench top under real load: the text view and --json under the net and
# tty workloads, its intervals against 'record -i 1s --align-intervals' beside it, and
# no tracefs instance left on q (on a terminal), SIGINT, SIGTERM, SIGHUP or a closed pipe.
. tests/integration/lib.sh
need_root_tracefs
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mktemp_dir T

# Nothing here is timed: each load runs until what looks at it has ended (then
# SIGINT), the record runs around top's whole run, and a top to be stopped is stopped
# once it captures. How long stopping takes is the runner's time limit to bound.

# running PID - the workload of PID has started: its db- threads exist
running() {
	grep -qs '^db-' /proc/"$1"/task/*/comm
}

# 1. tty: top --json per pool beside record -i 1s on the same intervals
$DB load tty -d 600s rate=1000 > "$T/tty-load.txt" 2>&1 &
load=$!
wait_for running $load || fail "the tty load never ran: $(cat "$T/tty-load.txt")"
$DB record -i 1s --align-intervals -o "$T/rec" > "$T/rec.txt" 2>&1 &
rec=$!
wait_for capturing $rec || fail "record never started: $(cat "$T/rec.txt")"
$DB top -d 5s --json -g pool > "$T/top.json" 2> "$T/top.err" ||
	{ cat "$T/top.err"; fail "top --json exited with an error"; }
kill -INT $rec
wait $rec || { cat "$T/rec.txt"; fail "record beside top failed"; }
kill -INT $load
wait $load || fail "the tty load failed"
n=$(wc -l < "$T/top.json")
[ "$n" -ge 3 ] || { cat "$T/top.json" "$T/top.err"; fail "top -d 5s printed $n intervals, not 3 or more"; }
python3 - "$T/top.json" <<'EOF' || fail "top --json lines are not interval objects"
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert o["end_ns"] - o["start_ns"] == 10**9, o["start_ns"]
    assert o["start_ns"] % 10**9 == 0, "intervals are aligned to the second"
    assert any(w["workqueue"] == "events_unbound" and w["function"] == "flush_to_ldisc"
               and w["items"] > 500 for w in o["workqueues"]), "no tty work in an interval"
EOF
python3 tests/integration/top_compare.py "$T/top.json" "$T/rec" ||
	fail "top's intervals disagree with record's"

# 2. net: the text view once, and one JSON line once
$DB load net -d 600s rate=2000 tcp=1 > "$T/net-load.txt" 2>&1 &
load=$!
wait_for running $load || fail "the net load never ran: $(cat "$T/net-load.txt")"
$DB top -d 5s --once > "$T/once.txt" 2> "$T/once.err" || { cat "$T/once.err"; fail "top --once failed"; }
grep -q "^WORKQUEUES" "$T/once.txt" || fail "top --once shows no workqueue table"
grep -q "^NET_RX " "$T/once.txt" || { cat "$T/once.txt"; fail "top --once shows no NET_RX row under net load"; }
[ "$(grep -c '^deferbench top' "$T/once.txt")" -eq 1 ] || fail "top --once printed more than one interval"
grep -q "$(printf '\033')" "$T/once.txt" && fail "top wrote ANSI escapes into a file"
$DB top -d 5s --once --json > "$T/once.json" 2> "$T/oncej.err" || { cat "$T/oncej.err"; fail "top --once --json failed"; }
python3 - "$T/once.json" <<'EOF' || fail "top --once --json is not one interval with NET_RX"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, len(lines)
o = json.loads(lines[0])
assert any(s["vector"] == "NET_RX" and s["runs"] > 0 for s in o["softirqs"]), o["softirqs"]
EOF
kill -INT $load
wait $load || fail "the net load failed"

# 3. every way to stop it removes the instance
for sig in INT TERM HUP; do
	$DB top > /dev/null 2>&1 &
	top=$!
	wait_for capturing $top || fail "top never started capturing"
	kill -$sig $top
	wait $top
	no_leftover_instances
done
# a closed pipe: the reader went away after one line
$DB top --json 2> "$T/pipe.err" | head -1 > "$T/pipe.json"
[ -s "$T/pipe.json" ] || { cat "$T/pipe.err"; fail "top --json | head -1 printed nothing"; }
no_leftover_instances
# q on a terminal (a pseudo-terminal from python's pty module)
python3 - "$DB" <<'EOF' || fail "top did not quit on q on a terminal"
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "top"])
# no time limit: a top that never draws is stopped by the runner's (and fails)
out = b""
while b"SOFTIRQS" not in out:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        chunk = b""
    if not chunk:
        sys.exit("top ended before its first screen: %r" % out[-300:])
    out += chunk
if b"\x1b[H" not in out:
    os.kill(pid, 9)
    sys.exit("a terminal screen is not redrawn in place")
os.write(fd, b"q")
# what it still draws must be read, or it could block writing; then its exit status
while True:
    try:
        if not os.read(fd, 65536):
            break
    except OSError:
        break
done, status = os.waitpid(pid, 0)
sys.exit(0 if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else "exit %d" % status)
EOF
no_leftover_instances
exit 0
