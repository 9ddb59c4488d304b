#!/usr/bin/env python3
"""xcheck.py - an independent reading of the same kernel events.

Reads the text trace of a second tracefs instance that recorded the same softirq and
workqueue events while 'deferbench record' ran, pairs them with its own simple
implementation of the documented rules, and compares counts and percentiles with
deferbench's summary.json. Text timestamps have microsecond resolution, so delays are
compared within 2 us plus 3 %, at the percentile's rank or at most two ranks away
(an event at the edges of the capture can shift a sparse tail by a rank).

usage: xcheck.py TRACE_TEXT RESULT_DIR
"""
import json
import math
import re
import sys

LINE = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): (\w+): (.*)$')
VECS = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
        "HRTIMER", "RCU"]


def pct(values, q, shift=0):
    """nearest-rank percentile, as deferbench defines it, or a rank nearby"""
    v = sorted(values)
    rank = max(1, math.ceil(q * len(v))) + shift
    return v[min(max(rank, 1), len(v)) - 1]


def close_rank(ours_ns, values, q):
    """deferbench's figure matches the independent value at the rank, or at most two
    ranks away: an event at the capture's edges can shift a sparse tail by one"""
    return any(abs(ours_ns / 1000 - b) <= 2 + 0.03 * b
               for b in (pct(values, q, s) for s in range(-2, 3)))


def main(trace, rdir):
    summary = json.load(open(rdir + "/summary.json"))
    # the window both saw: deferbench's first and last event on the trace clock. Its
    # start and stop stamps lie outside its tracing (taken before tracing goes on and
    # after it goes off): the checking instance's events between them and the first or
    # last event were never deferbench's to see, and a busy machine makes that gap long
    cap = summary["capture"]
    start, end = cap["first_event_ns"] / 1000, cap["last_event_ns"] / 1000   # microseconds
    counts = {}
    raise_ts = {}
    delays = {v: [] for v in VECS}
    queued = {}
    ldisc = []
    for line in open(trace):
        m = LINE.match(line)
        if not m:
            continue
        cpu, us = int(m.group(3)), int(m.group(4)) * 1000000 + int(m.group(5))
        ev, args = m.group(6), m.group(7)
        # one microsecond of slack: our text timestamps are truncated
        if us < start - 1 or us > end + 1:
            continue
        counts[ev] = counts.get(ev, 0) + 1
        if ev == "softirq_raise":
            vec = int(re.search(r'vec=(\d+)', args).group(1))
            raise_ts.setdefault((cpu, vec), us)
        elif ev == "softirq_entry":
            vec = int(re.search(r'vec=(\d+)', args).group(1))
            if (cpu, vec) in raise_ts:
                delays[VECS[vec]].append(us - raise_ts.pop((cpu, vec)))
        elif ev == "workqueue_queue_work":
            w = re.search(r'work struct=(\S+) function=(\S+) workqueue=(\S+)', args)
            queued[w.group(1)] = (us, w.group(2), w.group(3))
        elif ev == "workqueue_execute_start":
            w = re.search(r'work struct (\S+): function (\S+)', args)
            q = queued.pop(w.group(1), None)
            if q and q[1] == "flush_to_ldisc" and q[2] == "events_unbound":
                ldisc.append(us - q[0])
    ours = summary["capture"]["events_by_kind"]
    bad = []
    for kind, n in ours.items():
        name = kind.split(":")[1]
        if name.startswith("sched_"):
            continue            # not enabled in the checking instance
        theirs = counts.get(name, 0)
        # events at the window's edges: stamped by each instance on its own
        if abs(theirs - n) > max(10, 0.01 * n):
            bad.append("%s: deferbench %d, independent %d" % (name, n, theirs))
        print("   %-26s deferbench %7d  independent %7d" % (name, n, theirs))

    rows = {r["vector"]: r for r in summary["softirq"] if r["cpu"] == -1}
    for vec, d in delays.items():
        if len(d) < 50 or vec not in rows:
            continue
        for q, key in ((0.5, "p50"), (0.9, "p90")):
            a, b = rows[vec]["delay_ns"][key], pct(d, q)
            print("   %-8s delay %s deferbench %8.1f us  independent %6d us" %
                  (vec, key, a / 1000, b))
            if not close_rank(a, d, q):
                bad.append("%s delay %s: %d ns vs %d us" % (vec, key, a, b))
    ld = [w for w in summary["workqueue"]
          if w["function"] == "flush_to_ldisc" and w["workqueue"] == "events_unbound"]
    n = sum(w["count"] for w in ld)
    print("   flush_to_ldisc count deferbench %d  independent %d" % (n, len(ldisc)))
    if abs(n - len(ldisc)) > max(3, 0.01 * n) or not ldisc:
        bad.append("flush_to_ldisc count %d vs %d" % (n, len(ldisc)))
    elif len(ld) == 1:
        a, b = ld[0]["delay_ns"]["p50"], pct(ldisc, 0.5)
        print("   flush_to_ldisc delay p50 deferbench %.1f us  independent %d us" % (a / 1000, b))
        if not close_rank(a, ldisc, 0.5):
            bad.append("flush_to_ldisc p50 %d ns vs %d us" % (a, b))
    for b in bad:
        print("   MISMATCH " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
