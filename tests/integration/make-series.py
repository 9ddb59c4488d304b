#!/usr/bin/env python3
"""make-series.py - a simulated kernel series from the two real fixture runs.

    make-series.py RUN_A RUN_B OUTDIR STEP_AT FACTOR WORKLOAD CONFIG METRIC [one-rep]

writes OUTDIR/run0 .. run9: copies of RUN_A's layout whose kernel strings are rewritten
to ten releases (6.12 ... 6.18; MAKE_SERIES_KERNELS=14 in the environment: fourteen,
to 7.0) and whose start dates are a day apart. Each cell of each
copy is one of the six real repetitions of that workload x configuration (three in
RUN_A, three in RUN_B), drawn with a fixed seed, so that the copies vary the way real
reruns do. From run STEP_AT on, the workload metric METRIC of WORKLOAD/CONFIG is
multiplied by FACTOR (statistics and histogram buckets, re-bucketed onto the log-linear
layout of analysis/hist.h): the injected step. With "one-rep", every cell is RUN_A's
first repetition: no noise at all, for checks of a verdict rather than of the noise.
MAKE_SERIES_HOST in the environment names another host (hostname rewritten, its own
draws). Prints the kernels in order.
"""
import csv
import json
import math
import os
import random
import shutil
import sys

KERNELS = ["6.12", "6.13", "6.14-rc1", "6.14", "6.15", "6.16-rc3", "6.16", "6.17",
           "6.18-rc1", "6.18", "6.19-rc1", "6.19", "7.0-rc1", "7.0"]


def bucket_of(v):
    """[lo, hi) of the bucket holding v (hist.h: 0..127 exact, then 64 per octave)"""
    v = int(v)
    if v < 128:
        return v, v + 1
    e = v.bit_length() - 1
    w = 1 << (e - 6)
    lo = v // w * w
    return lo, lo + w


def scale_metric(cell, metric, factor):
    wj = os.path.join(cell, "workload.json")
    with open(wj) as f:
        w = json.load(f)
    for m in w["metrics"]:
        if m["name"] == metric:
            for k in ("min", "p50", "p90", "p99", "p999", "max"):
                m[k] = int(m[k] * factor)
            m["mean"] *= factor
            m["stddev"] *= factor
    with open(wj, "w") as f:
        json.dump(w, f, indent=2)
    wh = os.path.join(cell, "workload-hist.csv")
    with open(wh) as f:
        rows = list(csv.reader(f))
    out, merged = [rows[0]], {}
    for r in rows[1:]:
        if r[0] != metric:
            out.append(r)
            continue
        lo, hi = bucket_of((int(r[1]) + int(r[2])) / 2 * factor)
        merged[(lo, hi)] = merged.get((lo, hi), 0) + int(r[3])
    for (lo, hi), c in sorted(merged.items()):
        out.append([metric, str(lo), str(hi), str(c)])
    with open(wh, "w", newline="") as f:
        wr = csv.writer(f, quoting=csv.QUOTE_MINIMAL)
        for r in out:
            wr.writerow(r)


def rewrite_json(path, fn):
    with open(path) as f:
        d = json.load(f)
    fn(d)
    with open(path, "w") as f:
        json.dump(d, f, indent=2)


def main():
    a, b, outdir, step_at, factor, workload, config, metric = sys.argv[1:9]
    step_at, factor = int(step_at), float(factor)
    one_rep = len(sys.argv) > 9 and sys.argv[9] == "one-rep"
    with open(os.path.join(a, "run.json")) as f:
        run = json.load(f)
    host = os.environ.get("MAKE_SERIES_HOST")
    rng = random.Random(13 + sum(map(ord, host or "")))
    os.makedirs(outdir, exist_ok=True)
    for i, kernel in enumerate(KERNELS[:int(os.environ.get("MAKE_SERIES_KERNELS", "10"))]):
        dst = os.path.join(outdir, "run%d" % i)
        os.makedirs(os.path.join(dst, "cells"))
        shutil.copy(os.path.join(a, "scenario.ini"), dst)
        started = "2026-11-%02dT03:00:00Z" % (i + 1)
        # per workload x configuration: three of the six real repetitions
        draws = {}
        for c in run["cells"]:
            key = (c["workload"], c["config"])
            if key not in draws:
                pool = [(src, r) for src in (a, b) for r in (1, 2, 3)]
                draws[key] = [(a, 1)] * 3 if one_rep else rng.sample(pool, 3)
        for c in run["cells"]:
            src, rep = draws[(c["workload"], c["config"])][c["rep"] - 1]
            sdir = os.path.join(src, "cells", "%s--%s--r%d" % (c["workload"], c["config"], rep))
            cdir = os.path.join(dst, c["dir"])
            shutil.copytree(sdir, cdir)

            def fix_cell(d, c=c):
                d["rep"], d["id"] = c["rep"], c["id"]
            rewrite_json(os.path.join(cdir, "cell.json"), fix_cell)

            def fix_summary(d):
                d["meta"]["kernel"], d["meta"]["started"] = kernel, started
                if host:
                    d["meta"]["hostname"] = host
            rewrite_json(os.path.join(cdir, "summary.json"), fix_summary)
            if i >= step_at and c["workload"] == workload and c["config"] == config:
                scale_metric(cdir, metric, factor)
        run["meta"]["kernel"], run["meta"]["started"] = kernel, started
        if host:
            run["meta"]["hostname"] = host
        with open(os.path.join(dst, "run.json"), "w") as f:
            json.dump(run, f, indent=2)
        print(kernel)


if __name__ == "__main__":
    main()
