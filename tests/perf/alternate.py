#!/usr/bin/env python3
# alternate.py - 'make observer': one workload run whose capture evtoggle turned off and
# on in phases, split by phase: each interval of workload-intervals.csv (deferbench load
# --interval, intervals on multiples of CLOCK_MONOTONIC) that lies wholly inside a
# phase goes to that phase's side; intervals a toggle falls in are left out. Per metric:
# the traced / untraced ratio of the pooled p50 and p99 (every traced interval's
# histogram merged, every untraced one's), with a 95% interval from resampling the
# pairs (percentile bootstrap, 2000 draws, seeded), and the median of the per-pair
# ratios. Quantiles are read at the bucket midpoint (bench/lib/hist.h: within 0.78%).
#
#   alternate.py PHASES WORKLOAD_INTERVALS_CSV LABEL
import csv
import random
import sys
from collections import defaultdict


def bucket_mid(lo):
    if lo < 128:
        return lo
    return lo + ((1 << (lo.bit_length() - 1)) // 64) / 2


def quantile(h, q):
    n = sum(h.values())
    if n == 0:
        return None
    want, seen = q * n, 0
    for lo in sorted(h):
        seen += h[lo]
        if seen >= want:
            return bucket_mid(lo)
    return bucket_mid(max(h))


def merge(hs):
    out = defaultdict(int)
    for h in hs:
        for k, v in h.items():
            out[k] += v
    return out


def main():
    phases_file, iv_file, label = sys.argv[1:4]
    phases = []
    for line in open(phases_file):
        pair, state, lo, hi = line.split()
        phases.append((int(pair), state, int(lo), int(hi)))
    if not phases:
        sys.exit(f"alternate: {phases_file}: no phases")
    # per metric, per pair, per side: the interval histograms
    data = defaultdict(lambda: defaultdict(lambda: {"on": [], "off": []}))
    rows = list(csv.DictReader(open(iv_file)))
    ival = None
    ts = sorted({float(r["t_s"]) for r in rows})
    if len(ts) > 1:
        ival = min(b - a for a, b in zip(ts, ts[1:]))
    if not ival:
        sys.exit(f"alternate: {iv_file}: fewer than two intervals")
    used = 0
    for r in rows:
        lo = round(float(r["t_s"]) * 1e9)
        hi = lo + round(ival * 1e9)
        for pair, state, plo, phi in phases:
            if plo <= lo and hi <= phi:
                h = {}
                for b in r["buckets"].split():
                    k, v = b.split(":")
                    h[int(k)] = int(v)
                data[r["name"]][pair][state].append(h)
                used += 1
                break
    rng = random.Random(1)
    npairs = len({p[0] for p in phases})
    print(f"observer: {label}: {npairs} pairs of {(phases[0][3] - phases[0][2]) / 1e9:.1f} s "
          f"phases, {used} of {len(rows)} interval rows inside a phase")
    for name in sorted(data):
        pairs = [(merge(s["on"]), merge(s["off"])) for s in data[name].values()
                 if s["on"] and s["off"]]
        if len(pairs) < 5:
            print(f"observer:   {name}: only {len(pairs)} whole pairs")
            continue
        on_n = sum(sum(p[0].values()) for p in pairs)
        off_n = sum(sum(p[1].values()) for p in pairs)
        out = []
        for q in (0.5, 0.99):
            def ratio(sample):
                a = quantile(merge(p[0] for p in sample), q)
                b = quantile(merge(p[1] for p in sample), q)
                return a / b if a and b else None
            a = quantile(merge(p[0] for p in pairs), q)
            b = quantile(merge(p[1] for p in pairs), q)
            boots = sorted(x for x in (ratio([rng.choice(pairs) for _ in pairs])
                                       for _ in range(2000)) if x)
            lo, hi = boots[int(0.025 * len(boots))], boots[int(0.975 * len(boots)) - 1]
            per = sorted(x for x in (ratio([p]) for p in pairs) if x)
            med = per[len(per) // 2]
            out.append(f"p{int(q * 100)} {b / 1000:.1f} -> {a / 1000:.1f} us x{a / b:.3f} "
                       f"[{lo:.3f}, {hi:.3f}] (pair median x{med:.3f})")
        print(f"observer:   {name:14} ({off_n} untraced, {on_n} traced): " + "; ".join(out))


main()
