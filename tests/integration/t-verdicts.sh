#!/bin/sh
# t-verdicts.sh - verdicts on real runs: noise floors calibrated from the recorded
# fixtures (run-a, run-b: the same scenario twice on the development VM), an A/A compare
# with them, advise, kernel-regression.sh's exit status on a finished run, and - as root
# with tracefs - a short adaptive run that adds repetitions where a verdict is open.
. tests/integration/lib.sh

GEN=${GEN:-$(pwd)/build/tests/tools/gen-run}
[ -x "$GEN" ] || fail "missing $GEN (make build/tests/tools/gen-run)"
mktemp_dir T
for f in run-a run-b; do
	tar xzf "tests/fixtures/$f.tar.gz" -C "$T" || fail "unpacking $f"
done

# floors from two runs: one pair; every primary and advisory metric that could be judged
"$DB" baseline calibrate --from "$T/runA" "$T/runB" -o "$T/noise.json" >"$T/cal.out" 2>&1 ||
	{ cat "$T/cal.out"; fail "calibrate --from failed"; }
python3 - "$T/noise.json" <<'EOF' || fail "noise.json is not what calibrate promises"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "deferbench-noise/1" and d["runs"] == 2 and d["looks"] == 4, d
f = {(x["workload"], x["config"], x["metric"]): x for x in d["floors"]}
x = f[("timer", "baseline", "workload:load_wakeup:p99")]
assert 0 < x["floor"] < 100 and x["pairs"] == 1, x
assert all(v["floor"] >= 0 for v in f.values())
EOF
"$DB" baseline calibrate --from "$T/runA" -o "$T/n2.json" >"$T/err" 2>&1 &&
	fail "calibrate with one run succeeded"
grep -q "need 2 or more run directories" "$T/err" || fail "one run: $(cat "$T/err")"

# A/A with the floors: nothing worse or better, and every primary decided or explained
"$DB" compare --wide --noise "$T/noise.json" --no-files "$T/runA" "$T/runB" >"$T/aa.out" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$T/aa.out"; fail "A/A exited $rc, want 0"; }
grep -q '^primary: 0 worse, 0 better, .*; advisory: 0 worse, 0 better' "$T/aa.out" ||
	{ cat "$T/aa.out"; fail "A/A with the floors has worse or better verdicts"; }
grep -q "margin: threshold 10% or the host's noise floor (f) when larger: $T/noise.json" \
	"$T/aa.out" || fail "compare does not say which noise floors it used"
grep -q ' [0-9.]*%f ' "$T/aa.out" || fail "no margin is marked as a noise floor"

# a baseline with noise.json is found by compare without --noise
"$DB" baseline save --dir "$T/bl" --force "$T/runA" >/dev/null 2>&1 || fail "baseline save"
base=$("$DB" baseline path --dir "$T/bl" --host "$(python3 -c "import json;print(json.load(open('$T/runA/run.json'))['meta']['hostname'])")") ||
	fail "baseline path"
cp "$T/noise.json" "$base/noise.json"
"$DB" compare --wide --no-files "$base" "$T/runB" >"$T/bl.out" 2>&1 || fail "compare with the baseline"
grep -q "$base/noise.json" "$T/bl.out" || fail "the baseline's noise.json was not used"
grep -q "more repetitions* of new\|no change\|worse\|better" "$T/bl.out" ||
	fail "no verdict against the baseline"

# advise: a configuration is named or the reference kept, in text and JSON alike
"$DB" advise "$T/runA" >"$T/adv.out" 2>&1 || { cat "$T/adv.out"; fail "advise failed"; }
grep -q '^advice for .*: family-wise error 0.05 per run (Holm)' "$T/adv.out" ||
	{ head -1 "$T/adv.out"; fail "advise does not say what its family-wise error holds"; }
grep -q '^tty (reference baseline; primary: workload:delivery:p99' "$T/adv.out" ||
	{ cat "$T/adv.out"; fail "advise does not name tty's reference and primary metrics"; }
"$DB" advise --json "$T/runA" >"$T/adv.json" 2>&1 || fail "advise --json failed"
python3 - "$T/adv.json" <<'EOF' || fail "advise --json is not what it should be"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["family"] == "run" and abs(d["alpha"] - 0.05) < 1e-12, (d["family"], d["alpha"])
w = {x["workload"]: x for x in d["workloads"]}
assert set(w) == {"tty", "timer"}, w.keys()
for x in w.values():
    assert x["reference"] == "baseline" and x["use"] in ("baseline", "wb-nice"), x
    assert [c["config"] for c in x["configs"]] == ["wb-nice"], x["configs"]
    for v in x["configs"][0]["verdicts"]:
        assert v["verdict"] in ("worse", "better", "no change", "cannot tell"), v
        assert v["metric"] in x["primary"]
EOF

# a synthetic slowdown in the new run is a regression for kernel-regression.sh too;
# the baseline is not calibrated, so only one past the default floor of two separate
# runs (x6 on the p99s the synthetic runs make primary) counts
"$GEN" "$T/sa" >/dev/null || fail "gen-run"
"$GEN" --seed 3 --slowdown 8 "$T/sb" >/dev/null || fail "gen-run"
DEFERBENCH_BASELINE_DIR="$T/bl2" "$DB" baseline save --host "$(uname -n)" "$T/sa" >/dev/null || fail "save"
DEFERBENCH_BASELINE_DIR="$T/bl2" BASELINE_NAME=default RUN_DIR="$T/sb" \
	ci/kernel-regression.sh >"$T/kr.out" 2>&1
rc=$?
[ $rc -eq 1 ] || { tail -20 "$T/kr.out"; fail "kernel-regression.sh on an 8x slowdown exited $rc, want 1"; }
grep -q 'REGRESSION' "$T/kr.out" || fail "kernel-regression.sh does not say REGRESSION"
grep -q 'the baseline has no noise floors' "$T/kr.out" || fail "no warning about the floors"
DEFERBENCH_BASELINE_DIR="$T/bl2" RUN_DIR="$T/sa" ci/kernel-regression.sh >"$T/kr2.out" 2>&1
rc=$?
[ $rc -eq 0 ] || { tail -20 "$T/kr2.out"; fail "kernel-regression.sh on the baseline itself exited $rc"; }

# the rest traces and changes the machine
[ "$(id -u)" -eq 0 ] || { echo "   adaptive run: SKIPPED (needs root)"; exit 0; }
need_root_tracefs
cat >"$T/s.ini" <<EOF
[global]
duration = 500ms
warmup = 250ms
repetitions = 2
interval = 100ms

[workload tty]
type = tty
rate = 500

[config baseline]
[config slow]
load = hog

[load hog]
type = hog
threads = 1
policy = fifo
priority = 10
duty = 50
period = 10ms
EOF
"$DB" run --until-decided=25s -o "$T/ad" "$T/s.ini" >"$T/ad.out" 2>&1 ||
	{ cat "$T/ad.out"; fail "the adaptive run failed"; }
grep -q '^until-decided: look 1 of 4' "$T/ad.out" || { cat "$T/ad.out"; fail "no first look"; }
python3 - "$T/ad/run.json" <<'EOF' || { cat "$T/ad.out"; fail "run.json of the adaptive run"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["looks"] == 4 and d["complete"], (d.get("looks"), d["complete"])
assert d["cells_planned"] == len(d["cells"]) >= 4, (d["cells_planned"], len(d["cells"]))
EOF
# it either decided everything, or added repetitions, or said its budget had no room
# for them (which of the three depends on how fast the machine ran the cells)
if ! grep -q 'every primary metric is decided' "$T/ad.out" &&
   ! grep -q 'the budget has no room for another cell' "$T/ad.out"; then
	grep -q 'adding [0-9]* cell' "$T/ad.out" || { cat "$T/ad.out"; fail "undecided, nothing added"; }
fi
"$DB" compare --wide --no-files "$T/ad" "$T/ad" >"$T/adc.out" 2>&1 || fail "compare of the adaptive run"
grep -q "split over the looks of an adaptive run" "$T/adc.out" ||
	fail "compare does not apply the adaptive run's looks"
no_leftover_instances
echo "   floors, A/A, advise, kernel-regression exit codes, adaptive run"
