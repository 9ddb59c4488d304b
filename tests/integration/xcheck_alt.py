#!/usr/bin/env python3
"""xcheck_alt.py - an alternating run's arms against an independent reading.

A second tracefs instance recorded the softirq and workqueue events as text while
'deferbench run' alternated a segment's arms. This script assigns each delay sample to
the phase whose measured part [settled_ns, end_ns) holds the event that completes it
(softirq_entry, workqueue_execute_start), as docs/alternate.md defines it, with its own
simple pairing of the events, and compares every traced arm's sample counts and
percentiles, summed over its phases, with deferbench's own per-configuration tables
(report tables/softirq.csv and tables/workqueue.csv, which read the arms' cells): the
softirq delays, and flush_to_ldisc's delay and worker wait (workqueue_activate_work to
workqueue_execute_start), which each arm has from intervals.csv.

Text timestamps have microsecond resolution: counts may differ by the few samples within
a microsecond of a phase boundary (at most 2 per phase and group), and percentiles are
compared as xcheck.py does (2 us plus 3 %, within two ranks).

usage: xcheck_alt.py TRACE_TEXT SEGMENT_DIR REPORT_TABLES_DIR
"""
import csv
import math
import re
import sys

LINE = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): (\w+): (.*)$')
VECS = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
        "HRTIMER", "RCU"]


def pct(values, q, shift=0):
    v = sorted(values)
    rank = max(1, math.ceil(q * len(v))) + shift
    return v[min(max(rank, 1), len(v)) - 1]


def close_rank(ours_ns, values, q):
    return any(abs(ours_ns / 1000 - b) <= 2 + 0.03 * b
               for b in (pct(values, q, s) for s in range(-2, 3)))


def main(trace, segdir, tables):
    phases = [p for p in csv.DictReader(open(segdir + "/phases.csv"))
              if p["status"] == "ok" and p["traced"] == "1"]
    if not phases:
        print("   no usable traced phase")
        return 1
    wins = sorted((int(p["settled_ns"]) // 1000, int(p["end_ns"]) // 1000, p["config"])
                  for p in phases)

    def arm_of(us):
        for lo, hi, cfg in wins:
            if lo <= us < hi:
                return cfg
            if us < lo:
                break
        return None

    raise_ts, queued, activated = {}, {}, {}
    delays = {}             # (config, vector) -> [us]
    ldisc = {}              # config -> [us]
    ldisc_worker = {}       # config -> [us]: activate -> execute_start
    for line in open(trace):
        m = LINE.match(line)
        if not m:
            continue
        cpu, us = int(m.group(3)), int(m.group(4)) * 1000000 + int(m.group(5))
        ev, args = m.group(6), m.group(7)
        if ev == "softirq_raise":
            vec = int(re.search(r'vec=(\d+)', args).group(1))
            raise_ts.setdefault((cpu, vec), us)
        elif ev == "softirq_entry":
            vec = int(re.search(r'vec=(\d+)', args).group(1))
            t0 = raise_ts.pop((cpu, vec), None)
            cfg = arm_of(us)
            if t0 is not None and cfg:
                delays.setdefault((cfg, VECS[vec]), []).append(us - t0)
        elif ev == "workqueue_queue_work":
            w = re.search(r'work struct=(\S+) function=(\S+) workqueue=(\S+)', args)
            queued[w.group(1)] = (us, w.group(2), w.group(3))
            activated.pop(w.group(1), None)
        elif ev == "workqueue_activate_work":
            w = re.search(r'work struct (\S+)', args)
            activated[w.group(1)] = us
        elif ev == "workqueue_execute_start":
            w = re.search(r'work struct (\S+): function (\S+)', args)
            q = queued.pop(w.group(1), None)
            a = activated.pop(w.group(1), None)
            cfg = arm_of(us)
            if q and cfg and q[1] == "flush_to_ldisc":
                ldisc.setdefault(cfg, []).append(us - q[0])
                if a is not None:
                    ldisc_worker.setdefault(cfg, []).append(us - a)
    nphases = {}
    for p in phases:
        nphases[p["config"]] = nphases.get(p["config"], 0) + 1
    bad = []
    ours = {}
    for r in csv.DictReader(open(tables + "/softirq.csv")):
        if r["metric"] == "delay":
            ours[(r["config"], r["vector"])] = r
    for (cfg, vec), d in sorted(delays.items()):
        r = ours.get((cfg, vec))
        n = int(r["count"]) if r else 0
        slack = 2 * nphases[cfg] + 2
        print("   %-14s %-7s delays deferbench %6d  independent %6d" % (cfg, vec, n, len(d)))
        if abs(n - len(d)) > slack:
            bad.append("%s %s: %d delays vs %d" % (cfg, vec, n, len(d)))
        if len(d) >= 100 and r:
            for q, key in ((0.5, "p50_ns"), (0.9, "p90_ns")):
                a = int(r[key])
                print("   %-14s %-7s %s deferbench %8.1f us  independent %6d us" %
                      (cfg, vec, key[:3], a / 1000, pct(d, q)))
                if not close_rank(a, d, q):
                    bad.append("%s %s %s: %d ns vs %d us" % (cfg, vec, key, a, pct(d, q)))
    for metric, samples in (("delay", ldisc), ("worker_wait", ldisc_worker)):
        wq = {}
        for r in csv.DictReader(open(tables + "/workqueue.csv")):
            if r["metric"] == metric and r["function"] == "flush_to_ldisc":
                wq.setdefault(r["config"], []).append(r)
        for cfg in sorted(set(samples) | set(wq)):
            rows, d = wq.get(cfg, []), samples.get(cfg, [])
            n = sum(int(r["count"]) for r in rows)
            print("   %-14s flush_to_ldisc %-11s deferbench %6d  independent %6d" %
                  (cfg, metric, n, len(d)))
            if abs(n - len(d)) > 2 * nphases.get(cfg, 0) + 2 or not d:
                bad.append("%s flush_to_ldisc %s: %d vs %d" % (cfg, metric, n, len(d)))
            elif len(rows) == 1 and len(d) >= 100:
                a = int(rows[0]["p50_ns"])
                print("   %-14s flush_to_ldisc %-11s p50 deferbench %.1f us  independent %d us"
                      % (cfg, metric, a / 1000, pct(d, 0.5)))
                if not close_rank(a, d, 0.5):
                    bad.append("%s flush_to_ldisc %s p50 %d ns vs %d us" %
                               (cfg, metric, a, pct(d, 0.5)))
    for b in bad:
        print("   MISMATCH " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3]))
