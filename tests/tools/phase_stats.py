#!/usr/bin/env python3
"""phase_stats.py - how an alternating segment's figures move inside and between phases.

The figures in docs/measurements.md about the settle time and the A/A's phase-to-phase
state come from this script, reading a segment's files only (no deferbench code, so that
it checks rather than repeats the reader):

  phases SEG METRIC Q     per arm: the Q-quantile of METRIC in each phase's measured part
                          [settled_ns, end_ns), and how those spread over the phases
  positions SEG METRIC Q  per arm: the Q-quantile of METRIC by the interval's place in its
                          phase (position 0 starts at start_ns, inside the settle time),
                          the settle part against the kept part, and the first kept
                          interval against the kept mean
  pairs SEG METRIC Q      how much the two sides of a pair differ, by how far apart in
                          time they are taken: the capture-off arm against the reference
                          (traced) arm of the same block, phase against phase and one
                          interval against one interval at the same place; and, inside
                          the reference's phases, adjacent intervals and the first half
                          against the second (what a capture toggled inside each phase
                          would pair). The sd of the log ratio, and 1.96 sd / sqrt(n)
  intervals FILE METRIC Q the Q-quantile of METRIC in each interval of one
                          workload-intervals.csv (deferbench load -i ... -o DIR)

SEG is a segment directory (results/.../cells/<workload>--<config>--a1); METRIC is a
workload metric (delivery, op, rtt, wakeup, ...: workload-intervals.csv) or a softirq
vector or work function (flush_to_ldisc, NET_RX: intervals.csv, its delay). Quantiles are
nearest-rank over the interval histograms' bucket values, as deferbench reads them.

usage: phase_stats.py phases|positions|pairs SEG METRIC Q | intervals FILE METRIC Q
"""
import collections
import csv
import json
import math
import os
import statistics
import sys


def quantile(counts, q):
    n = sum(counts.values())
    if not n:
        return float("nan")
    rank, seen = max(1, math.ceil(q * n)), 0
    for v in sorted(counts):
        seen += counts[v]
        if seen >= rank:
            return v
    return float("nan")


def rows_of(path, metric):
    """(t_s, Counter of bucket value -> count) of each interval row of metric"""
    for r in csv.DictReader(open(path)):
        if metric not in (r["name"], r["function"]):
            continue
        if r["kind"] != "workload" and r["metric"] != "delay":
            continue
        c = collections.Counter()
        for b in r["buckets"].split():
            v, n = b.split(":")
            c[int(v)] += int(n)
        yield float(r["t_s"]), c


def segment(seg, metric):
    """interval length (ns), phases, and {interval start ns: Counter}"""
    wl = json.load(open(os.path.join(seg, "workload.json")))
    path, origin, iv = os.path.join(seg, "workload-intervals.csv"), \
        wl["interval_origin_ns"], wl["interval_s"]
    hist = collections.defaultdict(collections.Counter)
    for t, c in rows_of(path, metric):
        hist[origin + round(t * 1e9)].update(c)
    if not hist:	# not a workload metric: the capture's
        meta = json.load(open(os.path.join(seg, "summary.json")))["meta"]
        path, origin, iv = os.path.join(seg, "intervals.csv"), \
            meta["interval_origin_ns"], meta["interval_s"]
        for t, c in rows_of(path, metric):
            hist[origin + round(t * 1e9)].update(c)
    if not hist:
        sys.exit("phase_stats: no metric %r in %s" % (metric, seg))
    phases = [p for p in csv.DictReader(open(os.path.join(seg, "phases.csv")))
              if p["status"] == "ok"]
    return round(iv * 1e9), phases, hist


def arm(p):
    return p["config"] + ("" if p["traced"] == "1" else " (capture off)")


def cmd_phases(seg, metric, q):
    _, phases, hist = segment(seg, metric)
    per = collections.defaultdict(list)
    for p in phases:
        c = collections.Counter()
        for t, h in hist.items():
            if int(p["settled_ns"]) <= t < int(p["end_ns"]):
                c.update(h)
        if c:
            per[arm(p)].append(quantile(c, q) / 1e3)
    print("%s p%g per phase (us): arm, phases, min, q1, median, q3, max" % (metric, q * 100))
    for a, v in sorted(per.items()):
        v.sort()
        print("  %-26s %4d %8.1f %8.1f %8.1f %8.1f %8.1f" % (
            a, len(v), v[0], v[len(v) // 4], statistics.median(v), v[3 * len(v) // 4], v[-1]))


def cmd_positions(seg, metric, q):
    iv, phases, hist = segment(seg, metric)
    at = collections.defaultdict(collections.Counter)
    settle = {}
    for p in phases:
        start, end = int(p["start_ns"]), int(p["end_ns"])
        settle[arm(p)] = (int(p["settled_ns"]) - start) // iv
        for t, h in hist.items():
            if start <= t < end:
                at[(arm(p), (t - start) // iv)].update(h)
    print("%s p%g by interval position in the phase (us); settle = the left-out part "
          "against the kept mean, first = the first kept interval against it" %
          (metric, q * 100))
    for a in sorted(settle):
        pos = sorted(k[1] for k in at if k[0] == a)
        v = {k: quantile(at[(a, k)], q) / 1e3 for k in pos}
        kept = [v[k] for k in pos if k >= settle[a]]
        left = [v[k] for k in pos if k < settle[a]]
        if not kept:
            continue
        mean = sum(kept) / len(kept)
        print("  %-26s %s  settle %s  first %.2f" % (
            a, " ".join("%7.1f" % v[k] for k in pos),
            "%.2f" % (sum(left) / len(left) / mean) if left else "-", kept[0] / mean))


def log_q(hists, q):
    c = collections.Counter()
    for h in hists:
        c.update(h)
    v = quantile(c, q)
    return math.log(v) if v > 0 else None


def cmd_pairs(seg, metric, q):
    iv, phases, hist = segment(seg, metric)
    off = {p["config"] for p in phases if p["traced"] == "0"}
    if len(off) != 1:
        sys.exit("phase_stats: %s has no capture-off arm (a scenario with control = "
                 "reference)" % seg)
    ref = off.pop()
    kept = collections.defaultdict(dict)
    for p in phases:
        if p["config"] == ref:
            kept[p["block"]][p["traced"]] = [
                hist[t] for t in sorted(hist)
                if int(p["settled_ns"]) <= t and t + iv <= int(p["end_ns"])]
    d = collections.defaultdict(list)

    def add(key, a, b):
        x, y = log_q(a, q), log_q(b, q)
        if x is not None and y is not None:
            d[key].append(x - y)

    for arms in kept.values():
        on, no = arms.get("1"), arms.get("0")
        if not on or not no:
            continue
        add("traced / off, phase against phase", on, no)
        for a, b in zip(on, no):
            add("traced / off, interval against interval", [a], [b])
        for a, b in zip(on, on[1:]):
            add("traced, adjacent intervals", [a], [b])
        add("traced, first half / second half", on[:len(on) // 2], on[len(on) // 2:])
    print("%s p%g, %s against %s (capture off): log ratio per pair, n, mean, sd, "
          "1.96 sd / sqrt(n)" % (metric, q * 100, ref, ref))
    for k, v in d.items():
        if len(v) > 1:
            sd = statistics.stdev(v)
            print("  %-42s %4d %+7.3f %6.3f %6.3f" % (
                k, len(v), statistics.mean(v), sd, 1.96 * sd / math.sqrt(len(v))))


def cmd_intervals(path, metric, q):
    v = sorted(quantile(c, q) / 1e3 for _, c in rows_of(path, metric) if c)
    if not v:
        sys.exit("phase_stats: no metric %r in %s" % (metric, path))
    print("%s p%g per interval (us): %d intervals, min %.1f, median %.1f, max %.1f" % (
        metric, q * 100, len(v), v[0], statistics.median(v), v[-1]))
    print("  the 10 highest: " + " ".join("%.0f" % x for x in v[-10:]))


def main(argv):
    cmds = {"phases": cmd_phases, "positions": cmd_positions, "pairs": cmd_pairs,
            "intervals": cmd_intervals}
    if len(argv) != 5 or argv[1] not in cmds:
        sys.exit(__doc__.strip().splitlines()[-1])
    try:
        q = float(argv[4])
    except ValueError:
        q = -1
    if not 0 < q < 1:
        sys.exit("phase_stats: Q is a quantile between 0 and 1 (0.5, 0.9), not %r" % argv[4])
    cmds[argv[1]](argv[2], argv[3], q)


if __name__ == "__main__":
    main(sys.argv)
