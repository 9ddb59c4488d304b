#!/bin/sh
# t-ci-formats.sh - the CI outputs, checked offline: the LAVA test definition and the
# example job validate with Debian's lava-common; lava-report.sh turns a run into
# lava-test-set / lava-test-case calls (fake helpers record them); result.txt keeps
# only words test-definitions parses; deferbench export --kcidb validates against the
# JSON schema of what it emits. A regressed run must fail, an unchanged one pass.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh

# lava-common and python3-jsonschema are Debian packages for the system python
PY=/usr/bin/python3
[ -x $PY ] || skip "needs /usr/bin/python3 (Debian's, for lava-common)"
$PY -c "import lava_common.schemas, jsonschema, yaml" 2>/dev/null ||
	skip "needs lava-common and python3-jsonschema (ci/install-deps.sh installs them)"
mktemp_dir T

# --- LAVA: test definition and job ---
$PY - ci/lava/deferbench.yaml ci/lava/job-example.yaml <<'EOF' || fail "LAVA validation"
import sys, yaml
from lava_common.schemas import validate
from lava_common.schemas.test.testdef import validate as validate_testdef
validate_testdef(yaml.safe_load(open(sys.argv[1])))
job = yaml.safe_load(open(sys.argv[2]))
validate(job)
# the job's test action runs this very definition
defs = [a["test"]["definitions"] for a in job["actions"] if "test" in a]
assert any(d["path"] == "ci/lava/deferbench.yaml" for ds in defs for d in ds), defs
# and a broken job is refused (the check can fail)
job["actions"][0]["deploy"]["to"] = "nowhere"
try:
    validate(job)
except Exception:
    sys.exit(0)
sys.exit("a job deploying to 'nowhere' validated")
EOF

# --- f/run0: a run whose three repetitions are copies of one (no noise); s/run0: the same
# with tty delivery times eight - a regression compare can see with three repetitions,
# past the default floor two separate uncalibrated runs are held to (x6 on a p99) ---
tar xzf tests/fixtures/run-a.tar.gz -C "$T" && tar xzf tests/fixtures/run-b.tar.gz -C "$T" ||
	fail "cannot unpack the fixtures"
python3 tests/integration/make-series.py "$T/runA" "$T/runB" "$T/s" 0 8 tty baseline \
	delivery one-rep >/dev/null || fail "make-series.py"
python3 tests/integration/make-series.py "$T/runA" "$T/runB" "$T/f" 99 1 tty baseline \
	delivery one-rep >/dev/null || fail "make-series.py"

# --- result.txt and the LAVA lines ---
$DB export --result-txt --min-tail 5 --against "$T/f/run0" "$T/s/run0" >"$T/result.txt" ||
	fail "export --result-txt"
# test-definitions keeps "name pass|fail|skip [measurement units]" and drops the rest
awk 'NF != 2 && NF != 4 { exit 1 } $2 !~ /^(pass|fail|skip)$/ { exit 1 }
     NF == 4 && ($3 !~ /^[0-9.]+$/ || $4 != "us") { exit 1 }' "$T/result.txt" ||
	fail "result.txt has a line test-definitions would drop: $(cat "$T/result.txt")"
grep -q '^tty_baseline_workload_delivery_p99 fail [0-9.]* us$' "$T/result.txt" ||
	fail "the eightfold tty delivery p99 is not a fail: $(cat "$T/result.txt")"
$DB export --lava --min-tail 5 -o "$T/lava.tsv" "$T/f/run1" || fail "export --lava"
awk -F'\t' 'NF != 5 || $3 != "skip" { exit 1 }' "$T/lava.tsv" ||
	fail "without a baseline every case must be skip: $(cat "$T/lava.tsv")"

# lava-report.sh as a LAVA test shell runs it, with helpers that log their arguments
mkdir -p "$T/bin" "$T/art" "$T/bl"
for h in lava-test-case lava-test-set; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$h" "$T" >"$T/bin/$h"
	chmod +x "$T/bin/$h"
done
$DB baseline save --dir "$T/bl" --host "$(uname -n)" "$T/f/run0" >/dev/null 2>&1 ||
	fail "baseline save"
echo "$T/s/run0" >"$T/art/run-dir"
PATH="$T/bin:$PATH" ARTIFACTS="$T/art" DEFERBENCH="$DB" DEFERBENCH_BASELINE_DIR="$T/bl" \
	EXPORT_ARGS="--min-tail 5" \
	sh ci/lava/lava-report.sh 1 || fail "lava-report.sh failed"
grep -q '^lava-test-set start tty_baseline$' "$T/calls" || fail "no test set: $(cat "$T/calls")"
grep -q '^lava-test-case tty_baseline_workload_delivery_p99 --result fail --measurement [0-9.]* --units us$' \
	"$T/calls" || fail "the regressed metric is not a failing case: $(cat "$T/calls")"
grep -q '^lava-test-case deferbench-regression --result fail$' "$T/calls" ||
	fail "no overall regression case"
starts=$(grep -c '^lava-test-set start' "$T/calls")
stops=$(grep -c '^lava-test-set stop$' "$T/calls")
[ "$starts" -eq "$stops" ] && [ "$starts" -ge 4 ] ||
	fail "test sets: $starts started, $stops stopped"
grep '^lava-test-case' "$T/calls" | grep -vq -- '--result \(pass\|fail\|skip\|unknown\)' &&
	fail "a result word LAVA does not know"
grep '^lava-test-case' "$T/calls" | awk '$2 !~ /^[-_a-zA-Z0-9.]+$/ { exit 1 }' ||
	fail "a test case name LAVA would refuse"

# --- KCIDB ---
$DB export --kcidb --min-tail 5 --against "$T/f/run0" --origin lab_x "$T/s/run0" \
	>"$T/kcidb.json" || fail "export --kcidb"
$DB export --kcidb --min-tail 5 --build-id 'lab_x:build-42' "$T/f/run1" >"$T/kcidb2.json" ||
	fail "export --kcidb without a baseline"
$PY - tests/integration/schemas/kcidb-tests.schema.json "$T/kcidb.json" "$T/kcidb2.json" <<'EOF' ||
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
check = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
judged, plain = (json.load(open(p)) for p in sys.argv[2:4])
for doc in (judged, plain):
    errors = list(check.iter_errors(doc))
    assert not errors, [e.message for e in errors[:3]]
    assert doc["tests"], "no tests"
st = {t["path"]: t["status"] for t in judged["tests"]}
assert st["deferbench.tty.baseline.workload_delivery_p99"] == "FAIL", st
# two runs and no calibration: nothing can be shown equal, so nothing passes
assert set(st.values()) <= {"FAIL", "DONE", "SKIP"}, st
assert all(t["origin"] == "lab_x" and t["id"].startswith("lab_x:") for t in judged["tests"])
assert {t["status"] for t in plain["tests"]} <= {"DONE", "SKIP"}, "verdicts without a baseline"
assert all(t["build_id"] == "lab_x:build-42" for t in plain["tests"])
t = next(t for t in judged["tests"] if t["status"] == "FAIL")
assert t["number"]["unit"] == "s" and 1e-6 < t["number"]["value"] < 1, t["number"]
assert len(t["misc"]["repetitions"]) == 3 and t["misc"]["verdict"] == "worse", t["misc"]
# the schema can refuse: a status KCIDB does not know
judged["tests"][0]["status"] = "OK"
assert list(check.iter_errors(judged)), "schema accepted status OK"
EOF
	fail "KCIDB output does not validate"

# bad input
$DB export --kcidb --origin 'Bad-Origin' "$T/f/run1" >/dev/null 2>"$T/err" && fail "bad origin accepted"
grep -q "lowercase" "$T/err" || fail "bad origin: $(cat "$T/err")"
$DB export --kcidb "$T/bl" >/dev/null 2>"$T/err" && fail "export of a non-run accepted"
grep -q "neither a run directory" "$T/err" || fail "non-run: $(cat "$T/err")"
$DB export "$T/f/run1" >/dev/null 2>&1 && fail "export without a format accepted"
exit 0
