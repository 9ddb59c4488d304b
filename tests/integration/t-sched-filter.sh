#!/bin/sh
# t-sched-filter.sh - the kernel-side filter on the scheduler events (instance.c,
# DEFERRED_COMMS) keeps every event the figures use: 'record' (filtered) and
# 'record --sched-all' capture side by side under threaded NAPI and tty load, and over
# the window both traced every thread-wakeup and NAPI-thread figure has the same count
# in both, while the filtered capture holds fewer events.
#
# Two processes never start at the same moment, so the figures are compared over their
# common window only: both captures are kept raw, written out as trace.dat files
# (trace-cmd restore, as t-analyze-tracedat.sh does) and analyzed between the later
# first event and the earlier last event, on the trace clock. The --sched-all capture
# runs until the filtered one has ended, and both loads run until both captures have
# ended: the window is the filtered capture's whole 4 s, however slow the machine.
. tests/integration/lib.sh
need_root_tracefs
command -v python3 >/dev/null || skip "needs python3 to compare the two summaries"
command -v trace-cmd >/dev/null 2>&1 || skip "trace-cmd is not installed (ci/install-deps.sh)"
mktemp_dir T

# running PID - the workload of PID has started: its db- threads exist
running() {
	grep -qs '^db-' /proc/"$1"/task/*/comm
}
# net_polling PID - and its two napi/ threads too
net_polling() {
	running "$1" && [ "$(ps -eo comm= | grep -c "^napi/dbv$1-")" -eq 2 ]
}

$DB load net rate=2000 napi=threaded -d 600s > $T/net.log 2>&1 &
N=$!
$DB load tty rate=1000 -d 600s > $T/tty.log 2>&1 &
Y=$!
wait_for net_polling $N || fail "the net load never ran: $(cat $T/net.log)"
wait_for running $Y || fail "the tty load never ran: $(cat $T/tty.log)"
$DB record --sched-all --raw -o $T/all > $T/all.log 2>&1 &
A=$!
wait_for capturing $A || fail "record --sched-all never started: $(cat $T/all.log)"
$DB record --raw -d 4s -o $T/filt > $T/filt.log 2>&1 || fail "record: $(cat $T/filt.log)"
kill -INT $A
wait $A || fail "record --sched-all: $(cat $T/all.log)"
kill -INT $N $Y
wait $N || fail "the net load failed: $(cat $T/net.log)"
wait $Y || fail "the tty load failed: $(cat $T/tty.log)"
grep -q 'sched events: deferred$' $T/filt.log || fail "the filtered capture: $(grep cost $T/filt.log)"
grep -q 'sched events: all$' $T/all.log || fail "the --sched-all capture: $(grep cost $T/all.log)"

# the common window: from the later first event to the earlier last one
win=$(python3 - $T/filt/summary.json $T/all/summary.json <<'PY'
import json, sys
c = [json.load(open(p))["capture"] for p in sys.argv[1:3]]
f, l = max(x["first_event_ns"] for x in c), min(x["last_event_ns"] for x in c)
assert l - f > 3 * 10**9, "a common window of %d ns" % (l - f)
print("%d.%09d %d.%09d" % (f // 10**9, f % 10**9, l // 10**9, l % 10**9))
PY
) || fail "no common window of 3 s: the captures did not overlap"
set -- $win
trace-cmd restore -c -o $T/head.dat > $T/restore.txt 2>&1 || { cat $T/restore.txt; fail "trace-cmd restore -c"; }
for c in filt all; do
	trace-cmd restore -i $T/head.dat -o $T/$c.dat $T/$c/raw/cpu*.dat >> $T/restore.txt 2>&1 ||
		{ cat $T/restore.txt; fail "trace-cmd restore of the $c capture"; }
	$DB analyze $T/$c.dat --start "$1" --end "$2" -o $T/$c-win > $T/$c-win.txt 2>&1 ||
		{ cat $T/$c-win.txt; fail "analyze of the $c capture's common window"; }
done

python3 - $T/filt-win/summary.json $T/all-win/summary.json <<'PY' || fail "the filter lost events the figures use"
import json, sys
f, a = (json.load(open(p)) for p in sys.argv[1:3])
def counts(s):
    out = {}
    for kind, rows in s["thread_wakeup"].items():
        for r in rows:
            out["wakeup %s %s" % (kind, r.get("pool", r.get("cpu")))] = r["wakeup_ns"]["count"]
    for c in s["contexts"]:
        if c["context"] in ("napi_thread", "irq_thread"):
            out["%s %s delay" % (c["context"], c["name"])] = c["delay_ns"]["count"]
            out["%s %s runtime" % (c["context"], c["name"])] = c["runtime_ns"]["count"]
    return out
cf, ca = counts(f), counts(a)
napi = [k for k in cf if k.startswith("napi_thread") and cf[k] > 1000]
assert len(napi) >= 2, "no NAPI thread with 1000 wakeups: %s" % cf
assert any(k.startswith("wakeup workers") and cf[k] > 1000 for k in cf), \
    "no worker pool with 1000 wakeups (tty): %s" % cf
# the same window on the same clock: only a pair cut by the window's edge may differ
bad = [(k, cf.get(k), ca.get(k)) for k in set(cf) | set(ca)
       if abs(cf.get(k, 0) - ca.get(k, 0)) > 2]
assert not bad, "filtered vs all differ: %s" % bad
assert f["capture"]["events"] < 0.9 * a["capture"]["events"], \
    "the filter dropped nothing: %d vs %d events" % (f["capture"]["events"], a["capture"]["events"])
print("   %d figures agree over %.2f s; events %d filtered, %d all" % (len(cf),
      (f["capture"]["last_event_ns"] - f["capture"]["first_event_ns"]) / 1e9,
      f["capture"]["events"], a["capture"]["events"]))
PY
no_leftover_instances
echo "   ok: the scheduler filter keeps every thread wakeup and NAPI thread event"
