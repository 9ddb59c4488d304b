#!/usr/bin/env python3
# top_compare.py - the intervals of 'deferbench top --json -g pool' against the same
# intervals of 'deferbench record -i DUR --align-intervals' run beside it (t-top.sh).
#
#   top_compare.py TOP.json RECORD_DIR
#
# Both capture the same events in their own instances, each stamping every event itself:
# usually a few hundred ns apart, but an interrupt that comes between the two writes
# moves one instance's timestamp by its length (10 us and more here). So an item at an
# interval's edge may fall on either side, and a single latency (the max, or the p99 of
# a small group) may differ: per interval and group, counts must agree within 2, p50
# within 10% or 2 us (groups of 50 items or more), p99 within 15% or 5 us (200 or more).
# Only intervals the record captured whole are compared (between its first and last
# event): a top interval outside them would compare with a part, or nothing.
# Exits 1 on a difference, 2 when there is nothing to compare.
import csv
import json
import sys

top = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
rec = json.load(open(sys.argv[2] + "/summary.json"))
origin = rec["meta"]["interval_origin_ns"]
first, last = rec["capture"]["first_event_ns"], rec["capture"]["last_event_ns"]
ival = int(round(rec["meta"]["interval_s"] * 1e9))
rows = {}
for r in csv.DictReader(open(sys.argv[2] + "/intervals.csv")):
    if r["metric"] != "delay":
        continue
    rows[(int(r["interval"]), r["kind"], r["name"], r["function"], r["pool"])] = r

bad, compared = [], 0


def check(what, n_top, p, r):
    global compared
    n_rec = int(r["count"]) if r else 0
    if abs(n_top - n_rec) > 2:
        bad.append("%s: %d items in top, %d in record" % (what, n_top, n_rec))
        return
    if min(n_top, n_rec) < 50:
        return
    compared += 1
    for k, col, rel, ns, least in (("p50", "p50_ns", 0.10, 2000, 50),
                                   ("p99", "p99_ns", 0.15, 5000, 200)):
        a, b = p[k], int(r[col])
        if min(n_top, n_rec) >= least and abs(a - b) > max(rel * b, ns):
            bad.append("%s: delay %s %d ns in top, %d in record" % (what, k, a, b))


for it in top:
    # the same interval on both grids; the record's first interval is partial
    k = (it["start_ns"] - origin) // ival
    if it["start_ns"] - origin != k * ival or k < 1:
        continue
    if it["start_ns"] < first or it["end_ns"] > last:
        continue
    for w in it["workqueues"]:
        r = rows.get((k, "workqueue", w["workqueue"], w["function"], w["pool"]))
        check("interval %d wq %s/%s/%s" % (k, w["workqueue"], w["function"], w["pool"]),
              w["items"], {"p50": w["delay_p50_ns"], "p99": w["delay_p99_ns"],
                           "max": w["delay_max_ns"]}, r)
    for s in it["softirqs"]:
        r = rows.get((k, "context", s["vector"], "softirq", s["context"]))
        check("interval %d softirq %s %s" % (k, s["vector"], s["context"]), s["delays"],
              {"p50": s["delay_p50_ns"], "p99": s["delay_p99_ns"], "max": s["delay_max_ns"]}, r)
if bad:
    print("   top and record differ:", file=sys.stderr)
    for line in bad[:20]:
        print("     " + line, file=sys.stderr)
    sys.exit(1)
if not compared:
    print("   nothing to compare: no interval with a group of 50 items in both", file=sys.stderr)
    sys.exit(2)
print("   top and record agree on %d groups over %d intervals" % (compared, len(top)))
