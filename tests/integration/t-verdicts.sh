#!/bin/sh
# t-verdicts.sh - verdicts on real runs: two back-to-back runs of one scenario (the
# recorded fixtures run-a and run-b, the same scenario twice on the development VM)
# compared without a calibration - undecided, never a clean bill of health; the spread
# between runs calibrated from five synthetic runs and compare judging with it, advise,
# kernel-regression.sh's exit status on a finished run (the adaptive run that adds
# repetitions where a verdict is open is t-verdicts-adaptive.sh).
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh

GEN=${GEN:-$(pwd)/build/tests/tools/gen-run}
[ -x "$GEN" ] || fail "missing $GEN (make build/tests/tools/gen-run)"
mktemp_dir T
for f in run-a run-b; do
	tar xzf "tests/fixtures/$f.tar.gz" -C "$T" || fail "unpacking $f"
done

# two runs cannot calibrate: their spread would be one difference, with no estimate of
# how far it could be
"$DB" baseline calibrate --from "$T/runA" "$T/runB" -o "$T/n2.json" >"$T/err" 2>&1 &&
	fail "calibrate with two runs succeeded"
grep -q "need 3 or more run directories" "$T/err" || fail "two runs: $(cat "$T/err")"

# Two back-to-back runs of a scenario, no calibration (issue 33): the spread inside each
# says nothing of how far apart runs are, so nothing is worse, better or "no change"
# (timer wakeup p99 101 -> 189 us is not "no change"), the primary metrics nobody could
# judge are listed, and the exit status is 3, undecided - a CI job does not pass
"$DB" compare --wide -o "$T/aa" "$T/runA" "$T/runB" >"$T/aa.out" 2>&1
rc=$?
[ $rc -eq 3 ] || { cat "$T/aa.out"; fail "A/A without a calibration exited $rc, want 3"; }
grep -q '^primary: 0 worse, 0 better, 0 higher, 0 lower, 0 no change, [1-9][0-9]* cannot tell (.* not judged); advisory: 0 worse, 0 better, 0 higher, 0 lower, 0 no change' \
	"$T/aa.out" || { cat "$T/aa.out"; fail "A/A without a calibration claims something"; }
grep -q '^timer  *wb-nice  *\* workload:wakeup:p99 .* 1.88 .*cannot tell without a calibration' \
	"$T/aa.out" || fail "timer wakeup p99 x1.88 is not 'cannot tell without a calibration'"
grep -q '^tty  *baseline  *\* workload:delivery:p99 .*cannot tell: not judged: ' "$T/aa.out" ||
	fail "tty's primary delivery p99, judged by nobody, is not listed"
grep -q '<skipped message="undecided: not judged: ' "$T/aa/junit.xml" ||
	fail "junit.xml does not list the primary metrics nobody judged"
grep -q 'exit status 3' "$T/aa.out" || fail "exit status 3 not explained"

# the spread between runs of a host, from five runs of the same (synthetic) scenario
for s in 21 22 23 24 25; do
	"$GEN" --seed $s --samples 8000 "$T/c$s" >/dev/null || fail "gen-run c$s"
done
"$DB" baseline calibrate --from "$T/c21" "$T/c22" "$T/c23" "$T/c24" "$T/c25" \
	-o "$T/noise.json" >"$T/cal.out" 2>&1 || { cat "$T/cal.out"; fail "calibrate --from failed"; }
python3 - "$T/noise.json" <<'EOF' || fail "noise.json is not what calibrate promises"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "deferbench-noise/2" and d["runs"] == 5 and d["looks"] == 4, d
f = {(x["workload"], x["config"], x["metric"]): x for x in d["floors"]}
x = f[("net", "default", "workload:rtt:p99")]
assert x["runs"] == 5 and 0 < x["sd"] < 0.5 and x["floor"] > 0, x
assert all(v["floor"] >= 0 and v["sd"] >= 0 for v in f.values())
EOF
# A/A with the spread: nothing worse or better (the runs are the unit, margin marked r)
"$GEN" --seed 26 --samples 8000 "$T/aa1" >/dev/null || fail "gen-run aa1"
"$GEN" --seed 27 --samples 8000 "$T/aa2" >/dev/null || fail "gen-run aa2"
"$DB" compare --wide --noise "$T/noise.json" --no-files "$T/aa1" "$T/aa2" >"$T/aac.out" 2>&1
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat "$T/aac.out"; fail "calibrated A/A exited $rc"; }
grep -q '^primary: 0 worse, 0 better, .*; advisory: 0 worse, 0 better' "$T/aac.out" ||
	{ cat "$T/aac.out"; fail "calibrated A/A has worse or better verdicts"; }
grep -q "the runs are the unit (r)" "$T/aac.out" || fail "compare does not say runs are the unit"
grep -q -- "- $T/noise.json" "$T/aac.out" || fail "compare does not say which calibration it used"
grep -q ' [0-9.]*%r ' "$T/aac.out" || fail "no margin is marked as judged with the runs as the unit"

# a baseline with noise.json is found by compare without --noise
"$DB" baseline save --dir "$T/bl" --accept-incomplete "$T/aa1" >/dev/null 2>&1 || fail "baseline save"
base=$("$DB" baseline path --dir "$T/bl" --host synthhost) || fail "baseline path"
cp "$T/noise.json" "$base/noise.json"
"$DB" compare --wide --no-files "$base" "$T/aa2" >"$T/bl.out" 2>&1
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { cat "$T/bl.out"; fail "compare with the baseline exited $rc"; }
grep -q "$base/noise.json" "$T/bl.out" || fail "the baseline's noise.json was not used"
grep -q "runs a side\|no change\|worse\|better" "$T/bl.out" ||
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
        assert v["verdict"] in ("worse", "better", "higher", "lower", "no change",
                                "cannot tell"), v
        assert v["metric"] in x["primary"]
EOF

# a synthetic slowdown in the new run is a regression for kernel-regression.sh too;
# the baseline is not calibrated, so only one past the default floor of two separate
# runs (x6 on the p99s the synthetic runs make primary), read with three repetitions a
# side, counts: 20x slower
"$GEN" "$T/sa" >/dev/null || fail "gen-run"
"$GEN" --seed 3 --slowdown 20 "$T/sb" >/dev/null || fail "gen-run"
DEFERBENCH_BASELINE_DIR="$T/bl2" "$DB" baseline save --host "$(uname -n)" "$T/sa" >/dev/null || fail "save"
DEFERBENCH_BASELINE_DIR="$T/bl2" BASELINE_NAME=default RUN_DIR="$T/sb" \
	ci/kernel-regression.sh >"$T/kr.out" 2>&1
rc=$?
[ $rc -eq 1 ] || { tail -20 "$T/kr.out"; fail "kernel-regression.sh on a 20x slowdown exited $rc, want 1"; }
grep -q 'REGRESSION' "$T/kr.out" || fail "kernel-regression.sh does not say REGRESSION"
grep -q 'the baseline has no calibration' "$T/kr.out" || fail "no warning about the calibration"
# the baseline's own source run, uncalibrated: nothing regressed, nothing shown equal
DEFERBENCH_BASELINE_DIR="$T/bl2" RUN_DIR="$T/sa" ci/kernel-regression.sh >"$T/kr2.out" 2>&1
rc=$?
[ $rc -eq 3 ] || { tail -20 "$T/kr2.out"; fail "kernel-regression.sh on the baseline itself exited $rc, want 3"; }
grep -q 'UNDECIDED' "$T/kr2.out" || fail "kernel-regression.sh does not say UNDECIDED"
echo "   A/A uncalibrated and calibrated, advise, kernel-regression exit codes"
