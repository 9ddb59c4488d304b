#!/bin/sh
# t-sched-filter.sh - the kernel-side filter on the scheduler events (instance.c,
# DEFERRED_COMMS) keeps every event the figures use: 'record' (filtered) and
# 'record --sched-all' capture the same 4 s side by side under threaded NAPI and tty
# load, and every thread-wakeup and NAPI-thread figure has the same count in both
# (within a few at the windows' edges: each instance starts and stops on its own),
# while the filtered capture holds fewer events.
. tests/integration/lib.sh
need_root_tracefs
command -v python3 >/dev/null || skip "needs python3 to compare the two summaries"
mktemp_dir T
$DB load net rate=2000 napi=threaded -d 7s > $T/net.log 2>&1 &
$DB load tty rate=1000 -d 7s > $T/tty.log 2>&1 &
sleep 1
$DB record -d 4s -o $T/filt > $T/filt.log 2>&1 &
F=$!
$DB record --sched-all -d 4s -o $T/all > $T/all.log 2>&1 || fail "record --sched-all: $(cat $T/all.log)"
wait $F || fail "record: $(cat $T/filt.log)"
wait
grep -q 'sched events: deferred$' $T/filt.log || fail "the filtered capture: $(grep cost $T/filt.log)"
grep -q 'sched events: all$' $T/all.log || fail "the --sched-all capture: $(grep cost $T/all.log)"
python3 - $T/filt/summary.json $T/all/summary.json <<'PY' || fail "the filter lost events the figures use"
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
bad = [(k, cf.get(k), ca.get(k)) for k in set(cf) | set(ca)
       if abs(cf.get(k, 0) - ca.get(k, 0)) > max(5, 0.002 * max(cf.get(k, 0), ca.get(k, 0)))]
assert not bad, "filtered vs all differ: %s" % bad
assert f["capture"]["events"] < 0.9 * a["capture"]["events"], \
    "the filter dropped nothing: %d vs %d events" % (f["capture"]["events"], a["capture"]["events"])
print("   %d figures agree; events %d filtered, %d all" % (len(cf), f["capture"]["events"], a["capture"]["events"]))
PY
no_leftover_instances
echo "   ok: the scheduler filter keeps every thread wakeup and NAPI thread event"
