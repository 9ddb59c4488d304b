#!/usr/bin/env python3
# tdat_compare.py - compare two summary.json files of the same events (t-analyze-tracedat.sh)
#
#   tdat_compare.py exact A B   every figure equal: events, unmatched, softirq, workqueue,
#                               contexts and softirq_wait rows (the tasks that held bottom
#                               halves off by their total only, and the 'deferbench'
#                               cause added into 'other': a trace.dat names tasks from
#                               its saved cmdlines, which may lack one)
#   tdat_compare.py close A B   the same rows; counts within 2; softirq and workqueue delay
#                               p50 (rows of 200 samples or more) within 10% or 2 us, p99
#                               too, or below 1000 samples within two ranks of each
#                               other (histograms.csv beside each summary.json)
import csv
import json
import math
import os
import sys

mode, pa, pb = sys.argv[1:4]
a, b = (json.load(open(p)) for p in (pa, pb))
bad = []

SECTIONS = (("softirq", ("vector", "cpu")), ("workqueue", ("workqueue", "function", "pool")),
            ("contexts", ("context", "name", "where")), ("softirq_wait", ("vector",)))


def rows(d, key, keys):
    return {tuple(r[k] for k in keys): r for r in d[key]}


def merge_own(causes):
    """the causes with 'deferbench' added into 'other' (their shares, and other's part
    distribution, left out): which of the two a delay goes to is told by the holder's
    comm, and a trace.dat takes comms from its saved cmdlines, the raw capture from the
    live tasks (a short-lived deferbench process may be known to one only)"""
    own = [c for c in causes if c["cause"] == "deferbench"]
    out = []
    for c in causes:
        if c["cause"] == "deferbench":
            continue
        c = dict(c)
        c.pop("share", None)
        if c["cause"] == "other":
            c.pop("part_ns", None)
            for o in own:
                c["delays"] += o["delays"]
                c["total_ns"] += o["total_ns"]
        out.append(c)
    return out


def near(x, y, slack):
    return abs(x - y) <= slack


def hists(summary):
    """histograms.csv's delay buckets beside summary, by the keys of SECTIONS[:2]"""
    out = {}
    for r in csv.DictReader(open(os.path.join(os.path.dirname(summary), "histograms.csv"))):
        if r["metric"] != "delay":
            continue
        if r["kind"] == "softirq":
            k = ("softirq", r["name"], int(r["cpu"]))
        elif r["kind"] == "workqueue":
            k = ("workqueue", r["name"], r["function"], r["pool"])
        else:
            continue
        out.setdefault(k, []).append((int(r["lo_ns"]), int(r["hi_ns"]), int(r["count"])))
    return out


def within_ranks(buckets, n, v, q, ranks):
    """v could be the q-quantile of these n samples within this many ranks: the ranks
    v may hold in them (all samples of its bucket below it, or none) come that near"""
    below = sum(c for lo, hi, c in buckets if hi <= v)
    upto = sum(c for lo, hi, c in buckets if lo <= v)
    r = math.ceil(q * n)
    return below - ranks < r <= upto + ranks


ca, cb = a["capture"], b["capture"]
if mode == "exact":
    for k in ("events", "events_by_kind", "lost_events", "unmatched", "unmatched_detail",
              "first_event_ns", "last_event_ns", "wq_flush_barriers", "wq_superseded"):
        if ca[k] != cb[k]:
            bad.append("capture.%s: %s / %s" % (k, ca[k], cb[k]))
    for sect, keys in SECTIONS:
        ra, rb = rows(a, sect, keys), rows(b, sect, keys)
        if sorted(ra) != sorted(rb):
            bad.append("%s: rows only in one: %s" % (sect, sorted(set(ra) ^ set(rb))))
        for k in sorted(set(ra) & set(rb)):
            x, y = dict(ra[k]), dict(rb[k])
            if sect == "softirq_wait":
                for d in (x, y):
                    d["bh_tasks"] = sum(t["total_ns"] for t in d.pop("bh_tasks", []))
                    d.pop("bh_tasks_other", None)
                    d["causes"] = merge_own(d["causes"])
            for f in sorted(set(x) | set(y)):
                if x.get(f) != y.get(f):
                    bad.append("%s %s: %s: %s / %s" % (sect, "/".join(map(str, k)), f,
                                                       x.get(f), y.get(f)))
else:
    ha, hb = hists(pa), hists(pb)
    for ev, n in ca["events_by_kind"].items():
        if not near(n, cb["events_by_kind"].get(ev, 0), 2):
            bad.append("events %s: %d / %d" % (ev, n, cb["events_by_kind"].get(ev, 0)))
    for sect, keys in SECTIONS[:2]:
        ra, rb = rows(a, sect, keys), rows(b, sect, keys)
        for k in sorted(set(ra) | set(rb)):
            x, y = ra.get(k), rb.get(k)
            name = "%s %s" % (sect, "/".join(map(str, k)))
            # a group of one or two items at the window's edge may be in one file only
            if x is None or y is None:
                if (x or y)["delay_ns"]["count"] > 2:
                    bad.append("%s: only in one file" % name)
                continue
            dx, dy = x["delay_ns"], y["delay_ns"]
            if not near(dx["count"], dy["count"], 2):
                bad.append("%s: %d / %d delays" % (name, dx["count"], dy["count"]))
            if min(dx["count"], dy["count"]) < 200:
                continue
            if not near(dx["p50"], dy["p50"], max(0.10 * dx["p50"], 2000)):
                bad.append("%s: delay p50 %d / %d ns" % (name, dx["p50"], dy["p50"]))
            # a p99 of n samples is the (n/100)th largest: under 1000 samples one
            # event stamped late in one instance (an interrupt between the two
            # instances' writes of it) moves it to its neighbour, 10-20% away (CI:
            # RCU p99 44.8 / 54.5 us of 300 delays, beside a CPU load), or above the
            # other's max (CI: TIMER/0 p99 61.7 / 70.1 us): then each p99 must stand
            # within two ranks of the other's samples - no more than two delays apart
            if near(dx["p99"], dy["p99"], max(0.10 * dx["p99"], 2000)):
                pass
            elif min(dx["count"], dy["count"]) >= 1000:
                bad.append("%s: delay p99 %d / %d ns" % (name, dx["p99"], dy["p99"]))
            elif not (within_ranks(ha.get((sect,) + k, []), dx["count"], dy["p99"], 0.99, 2) and
                      within_ranks(hb.get((sect,) + k, []), dy["count"], dx["p99"], 0.99, 2)):
                bad.append("%s: delay p99 %d / %d ns, more than two ranks apart" %
                           (name, dx["p99"], dy["p99"]))
if bad:
    print("   %s and %s differ (%s):" % (pa, pb, mode), file=sys.stderr)
    for line in bad[:20]:
        print("     " + line[:300], file=sys.stderr)
    sys.exit(1)
print("   %s: %d events, %d softirq rows, %d workqueue rows, %d contexts agree" %
      (mode, ca["events"], len(a["softirq"]), len(a["workqueue"]), len(a.get("contexts", []))))
