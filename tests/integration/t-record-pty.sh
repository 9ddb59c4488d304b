#!/bin/sh
# t-record-pty.sh - record while writing to a pty: flush_to_ldisc on events_unbound
# must appear with plausible delays, softirqs must be seen, nothing may be left behind.
. tests/integration/lib.sh
need_root_tracefs
command -v python3 >/dev/null || skip "needs python3 to drive a pty"
mktemp_dir T

cat > "$T/ptywriter.py" <<'PY'
import os, pty, time, tty
m, s = pty.openpty()
tty.setraw(s)
for i in range(2000):
    os.write(m, b"0123456789abcdef")
    os.read(s, 64)
    time.sleep(0.001)
PY
$DB record -o "$T/r" -- python3 "$T/ptywriter.py" > "$T/out.txt" 2>&1 || { cat "$T/out.txt"; fail "record failed"; }
no_leftover_instances
for f in summary.json softirq.csv workqueue.csv histograms.csv intervals.csv; do
	assert_file "$T/r/$f"
done
grep -q "flush_to_ldisc" "$T/out.txt" || fail "the table shows no flush_to_ldisc"
python3 - "$T/r/summary.json" <<'PY' || fail "summary.json check failed"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "deferbench/1"
assert d["meta"]["trace_clock"] == "mono"
rows = [w for w in d["workqueue"]
        if w["function"] == "flush_to_ldisc" and w["workqueue"] == "events_unbound"]
n = sum(w["count"] for w in rows)
print("   flush_to_ldisc items:", n, "p50 delays:", [w["delay_ns"]["p50"] for w in rows])
assert n >= 1900, "expected about 2000 flush_to_ldisc items, saw %d" % n
# The writer waits for each write to be read before the next: the items' delays lie in
# disjoint spans of the capture, so they add up to less than its duration, and no more
# than half of them can exceed twice their mean. That bounds p50 whatever the machine's
# speed (a busy machine makes delays long, never longer than the time they took).
for w in rows:
    dl = w["delay_ns"]
    limit = 2 * d["meta"]["duration_s"] * 1e9 / w["count"]
    assert 100 <= dl["p50"] <= limit, "implausible p50 delay %d ns (at most %d)" % (dl["p50"], limit)
    assert dl["min"] <= dl["p50"] <= dl["p99"] <= dl["max"]
    assert w["pool"].startswith("unbound"), w["pool"]
sirq = [s for s in d["softirq"] if s["cpu"] == -1]
assert sum(s["count"] for s in sirq) > 0, "no softirq seen"
cap = d["capture"]
assert cap["events"] > 0 and "lost_events" in cap and "unmatched" in cap
PY
