#!/bin/sh
# t-run-load-pause.sh - a configuration alone under a background load that can pause
# (hog) alternates with the reference: the plan says so, the hog spins only in its own
# phases (its spin-loop gaps fall in the baseline's phases only in their settle), each
# arm of cell.json lists its own loads, and advise judges the configuration against
# the reference as the load's effect - never a configuration to use.
. tests/integration/lib.sh
need_root_tracefs
command -v python3 >/dev/null || skip "needs python3 to read the phases"
mktemp_dir T
cat > "$T/pause.ini" <<INI
[global]
design = alternate
blocks = 6
phase = 1s
settle = 250ms
warmup = 500ms
control = no

[load hog]
type = hog
threads = 1

[workload timer]
type = timer
configs = baseline, hogged

[config baseline]
[config hogged]
load = hog
INI
$DB run --dry-run "$T/pause.ini" > "$T/plan.txt" 2>&1 || { cat "$T/plan.txt"; fail "dry run"; }
grep -q "load hog: paused in the phases of the arms that do not run it" "$T/plan.txt" ||
	{ cat "$T/plan.txt"; fail "the plan does not say the hog pauses"; }
$DB run -o "$T/run" "$T/pause.ini" > "$T/out.txt" 2>&1 || { cat "$T/out.txt"; fail "run failed"; }
seg=$T/run/cells/timer--baseline--a1
jq -e '[.arms[] | {config, loads}] ==
	[{"config": "baseline", "loads": []}, {"config": "hogged", "loads": ["hog"]}]' \
	"$seg/cell.json" >/dev/null || fail "cell.json's arms do not list their own loads"
# the hog's gaps by phase: in baseline's phases only within the settle after a switch
python3 - "$seg" <<'PY' || fail "the hog ran outside its phases"
import csv, json, sys
seg = sys.argv[1]
ph = list(csv.DictReader(open(seg + "/phases.csv")))
wl = json.load(open(seg + "/load-hog/workload.json"))
origin, iv = wl["interval_origin_ns"], wl["interval_s"] * 1e9
by = {"baseline": [0, 0], "hogged": [0, 0]}   # [in the settle, measured]
for r in csv.DictReader(open(seg + "/load-hog/workload-intervals.csv")):
    t = origin + float(r["t_s"]) * 1e9
    for p in ph:
        if int(p["start_ns"]) <= t < int(p["end_ns"]):
            by[p["config"]][t >= int(p["settled_ns"])] += int(r["count"])
assert by["baseline"][1] == 0, ("gaps in baseline's measured time", by)
assert by["hogged"][1] > 0, ("the hog recorded nothing in its phases", by)
share = wl["counters"]["share_t0"]
assert 0.2 < share <= 1.0, ("share of its own phases", share)
print("hog gaps [settle, measured]:", by, "share", share)
PY
$DB advise --json "$T/run" > "$T/advise.json" 2> "$T/advise.err" ||
	{ cat "$T/advise.err"; fail "advise failed"; }
jq -e '.workloads[] | select(.loads == "hog") |
	.answer == "load effect" and .reference == "baseline" and .use == null and
	.configs[0].config == "hogged"' "$T/advise.json" >/dev/null ||
	{ cat "$T/advise.json"; fail "advise did not judge the hog against baseline as a load effect"; }
$DB advise "$T/run" > "$T/advise.txt" 2>&1 || fail "advise (text) failed"
grep -q "the effect of load hog (a condition, not a setting to choose), hogged against baseline" \
	"$T/advise.txt" || { cat "$T/advise.txt"; fail "advise does not name the load's effect"; }
if grep -q "use hogged" "$T/advise.txt"; then fail "advise says to use a load"; fi
exit 0
