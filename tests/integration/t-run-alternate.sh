#!/bin/sh
# t-run-alternate.sh - the alternating design: a segment of tty under two configurations
# (the unbound cpumask switched in phases) and a capture-off arm; every knob is back
# afterwards; the phases lie on the interval grid in the blocks' order, each settling for
# the longer of [global] settle and its configurations' own; and each traced
# arm's figures, summed over its phases, agree with an independent reading of the same
# events by a second tracefs instance (xcheck_alt.py).
. tests/integration/lib.sh
need_root_tracefs
command -v python3 >/dev/null || skip "needs python3 for the independent reader"
mktemp_dir T
mask0=$(cat /sys/devices/virtual/workqueue/cpumask)
cat > "$T/alt.ini" <<INI
[global]
design = alternate
blocks = 4
phase = 1s
settle = 250ms
warmup = 500ms
control = reference

[workload tty]
type = tty
rate = 1000

[config asis]
[config cpu0]
wq.cpumask = 1
settle = 500ms
INI
X=$TRACEFS/instances/dbxalt-$$
at_exit "echo 0 > $X/tracing_on; rmdir $X"
mkdir "$X" || fail "cannot create the checking instance"
echo 0 > "$X/tracing_on"
echo mono > "$X/trace_clock"
echo 0 > "$X/options/overwrite"
echo 16384 > "$X/buffer_size_kb"
for e in irq/softirq_raise irq/softirq_entry workqueue/workqueue_queue_work \
	 workqueue/workqueue_activate_work \
	 workqueue/workqueue_execute_start; do
	echo 1 > "$X/events/$e/enable" || fail "cannot enable $e"
done
echo 1 > "$X/tracing_on"
$DB run -o "$T/run" "$T/alt.ini" > "$T/out.txt" 2>&1 || { cat "$T/out.txt"; fail "run failed"; }
echo 0 > "$X/tracing_on"
[ "$(cat /sys/devices/virtual/workqueue/cpumask)" = "$mask0" ] ||
	fail "the unbound cpumask is $(cat /sys/devices/virtual/workqueue/cpumask), not $mask0"
dropped=$(cat "$X"/per_cpu/cpu*/stats | awk '/^dropped events/ { s += $3 } END { print s + 0 }')
[ "$dropped" -eq 0 ] || fail "the checking instance dropped $dropped events (buffer too small)"
cat "$X/trace" > "$T/trace.txt"
seg=$T/run/cells/tty--asis--a1
[ -f "$seg/phases.csv" ] || fail "no phases.csv in $seg"
jq -e '.schema == "deferbench-run/2" and .cells[0].design == "alternate"' "$T/run/run.json" \
	>/dev/null || fail "run.json does not list the segment"
# 4 blocks x 3 arms, each block every arm once, on the interval grid, back to back
python3 - "$seg/phases.csv" <<'PY' || fail "the phases are not as planned"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 12, len(rows)
for b in range(1, 5):
    arms = sorted(r["arm"] for r in rows if r["block"] == str(b))
    assert arms == ["0", "1", "2"], (b, arms)
for a, b in zip(rows, rows[1:]):
    assert a["end_ns"] == b["start_ns"]
prev = "asis"   # the segment comes up in its reference configuration
for r in rows:
    s, st, e = int(r["start_ns"]), int(r["settled_ns"]), int(r["end_ns"])
    # 250 ms, or cpu0's own 500 ms after a switch into or out of it
    settle = 500000000 if "cpu0" in (prev, r["config"]) else 250000000
    prev = r["config"]
    assert s % 250000000 == 0 and st == s + settle and e == s + 1000000000, r
    assert s <= int(r["switched_ns"]), r
    assert r["status"] in ("ok", "late", "overrun"), r
assert sum(r["status"] == "ok" for r in rows) >= 10, [r["status"] for r in rows]
PY
$DB report --no-plots "$T/run" > "$T/report.txt" 2>&1 || { cat "$T/report.txt"; fail "report failed"; }
python3 tests/integration/xcheck_alt.py "$T/trace.txt" "$seg" "$T/run/tables" ||
	fail "the arms' figures disagree with the independent reading"
# each traced arm has its thread wakeups (from the segment's intervals.csv), worker
# pools' at least (tty's flush_to_ldisc runs in kworkers); an arm's measured parts are
# less than the segment, so per thread the arms' sum is at most the segment's
python3 - "$seg/summary.json" "$T/run/tables/wakeup.csv" <<'PY' || fail "the arms' thread wakeups"
import csv, json, sys
tw = json.load(open(sys.argv[1]))["thread_wakeup"]
seg = {("ksoftirqd", str(e["cpu"]), ""): e["wakeup_ns"]["count"] for e in tw["ksoftirqd"]}
seg.update({("worker", "-1", e["pool"]): e["wakeup_ns"]["count"] for e in tw["workers"]})
arms = {}
for r in csv.DictReader(open(sys.argv[2])):
    arms.setdefault(r["config"], {})[(r["thread"], r["cpu"], r["pool"])] = int(r["wakeups"])
for cfg in ("asis", "cpu0"):
    n = sum(v for (t, _, _), v in arms.get(cfg, {}).items() if t == "worker")
    print("   %-5s worker wakeups %d" % (cfg, n))
    assert n > 0, "%s has no worker wakeups" % cfg
for k in set(k for a in arms.values() for k in a):
    total = sum(a.get(k, 0) for c, a in arms.items() if c in ("asis", "cpu0"))
    assert total <= seg.get(k, 0), (k, total, seg.get(k))
PY
$DB advise "$T/run" > "$T/advise.txt" 2>&1 || { cat "$T/advise.txt"; fail "advise failed"; }
grep -q 'exploratory: nothing decidable' "$T/advise.txt" ||
	{ cat "$T/advise.txt"; fail "4 blocks are too few to decide, and advise must say so"; }
# the reference is the segment's first arm, whatever arm the seeded order ran first
# (the configurations are named so that no reader can find it by name)
ref=$($DB advise --json "$T/run" | jq -r '.workloads[0].reference')
[ "$ref" = asis ] || fail "advise judged against $ref, not the reference arm asis"

# Ctrl-C while the cpu0 arm has the unbound cpumask: the run ends interrupted and every
# knob is back (the handshake is the kernel's own state, not a sleep)
sed -i 's/^blocks = 4/blocks = 50/' "$T/alt.ini"
$DB run -o "$T/int" "$T/alt.ini" > "$T/int.txt" 2>&1 &
pid=$!
at_exit "kill $pid 2>/dev/null"
i=0
while [ "$(cat /sys/devices/virtual/workqueue/cpumask)" = "$mask0" ]; do
	i=$((i + 1))
	[ $i -lt 6000 ] || fail "the cpu0 arm never ran (60 s)"
	kill -0 $pid 2>/dev/null || { cat "$T/int.txt"; fail "the run ended before its cpu0 arm"; }
	sleep 0.01
done
kill -INT $pid
wait $pid && fail "an interrupted run exited 0"
[ "$(cat /sys/devices/virtual/workqueue/cpumask)" = "$mask0" ] ||
	fail "after Ctrl-C the unbound cpumask is $(cat /sys/devices/virtual/workqueue/cpumask)"
jq -e '.status == "interrupted"' "$T/int/run.json" >/dev/null ||
	fail "run.json of the interrupted run: $(jq -c '{status}' "$T/int/run.json")"
exit 0
