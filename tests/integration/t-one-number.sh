#!/bin/sh
# t-one-number.sh - one number per metric (issue 33): for every metric advise --json
# judges on the recorded fixture run, the report's tables and export show the very
# figure the verdict used (the repetitions pooled, nearest rank, the bucket's
# midpoint), not a median of repetitions. Not root.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh

command -v python3 >/dev/null || skip "needs python3"
mktemp_dir T
tar xzf tests/fixtures/run-a.tar.gz -C "$T" || fail "unpacking run-a"
"$DB" advise --json "$T/runA" >"$T/advise.json" 2>"$T/err" || { cat "$T/err"; fail "advise"; }
"$DB" report --no-plots -o "$T/rep" "$T/runA" >/dev/null 2>"$T/err" || { cat "$T/err"; fail "report"; }
"$DB" export --lava --min-tail 10 "$T/runA" >"$T/lava.tsv" 2>"$T/err" || { cat "$T/err"; fail "export"; }
python3 - "$T/advise.json" "$T/rep/tables" "$T/lava.tsv" <<'EOF' || fail "a metric shows different numbers"
import csv, json, os, sys

adv = json.load(open(sys.argv[1]))
tables = sys.argv[2]


def rows(name):
    with open(os.path.join(tables, name)) as f:
        return list(csv.DictReader(f))


wl, sq, wq = rows("workload.csv"), rows("softirq.csv"), rows("workqueue.csv")
lava = {}
for line in open(sys.argv[3]):
    f = line.rstrip("\n").split("\t")
    if len(f) >= 5 and f[3]:                 # no measurement: nothing to compare
        lava[f[1]] = float(f[3]) * 1000      # us -> ns


def table_figure(workload, config, metric):
    """the report's pooled figure of a metric id, or None when it has no row"""
    p = metric.split(":")
    col = p[-1] + "_ns"
    if p[0] == "workload":
        hit = [r for r in wl if (r["workload"], r["config"], r["metric"]) ==
               (workload, config, p[1])]
    elif p[0] == "softirq":
        hit = [r for r in sq if (r["workload"], r["config"], r["vector"], r["metric"]) ==
               (workload, config, p[1], p[2])]
    elif p[0] == "wq":
        # one pool: its row is the metric's (a metric merges a function's pools)
        hit = [r for r in wq if (r["workload"], r["config"], r["workqueue"], r["function"],
                                 r["metric"]) == (workload, config, p[1], p[2], p[3])]
        if len(hit) != 1:
            return None
    else:
        return None
    return float(hit[0][col]) if hit else None


checked = 0
for w in adv["workloads"]:
    for c in w["configs"]:
        for v in c["verdicts"]:
            for cfg, val in ((w["reference"], v["base_ns"]), (c["config"], v["new_ns"])):
                if val is None:
                    continue
                t = table_figure(w["workload"], cfg, v["metric"])
                assert t is not None, ("no table row", w["workload"], cfg, v["metric"])
                assert t == val, ("report", w["workload"], cfg, v["metric"], t, val)
                key = "%s_%s_%s" % (w["workload"], cfg,
                                    v["metric"].replace(":", "_").replace("*", "_"))
                assert key in lava, ("no export row", key)
                assert abs(lava[key] - val) < 1e-6 * val + 0.5, ("export", key, lava[key], val)
                checked += 1
assert checked >= 8, checked
print("   %d figures: advise = report = export" % checked)
EOF
exit 0
