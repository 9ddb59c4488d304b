#!/bin/sh
# t-report-compare.sh - deferbench compare exit codes on synthetic runs (0 against
# itself, 1 with an injected 2x slowdown, 2 on unreadable input), its files, and the
# baseline store round trip. Not root.
. tests/integration/lib.sh

GEN=${GEN:-$(pwd)/build/tests/tools/gen-run}
[ -x "$GEN" ] || fail "missing $GEN (make build/tests/tools/gen-run)"

mktemp_dir T
"$GEN" "$T/base" || fail "gen-run base"
"$GEN" --seed 7 --slowdown 2 --kernel 6.19.0-slow "$T/slow" || fail "gen-run slow"

"$DB" compare -o "$T/self" "$T/base" "$T/base" >"$T/self.out" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$T/self.out"; fail "run vs itself exited $rc, want 0"; }
assert_file "$T/self/compare.md"
assert_file "$T/self/junit.xml"
grep -q 'failures="0"' "$T/self/junit.xml" || fail "junit.xml reports failures for itself"
grep -q '^primary: 0 worse, 0 better, .*; advisory: 0 worse, 0 better' "$T/self.out" ||
	{ cat "$T/self.out"; fail "run vs itself: a worse or better verdict, or no summary line"; }

"$DB" compare -o "$T/slow-out" "$T/base" "$T/slow" >"$T/slow.out" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$T/slow.out"; fail "2x slowdown exited $rc, want 1"; }
grep -q 'workload:rtt:p50 .* worse' "$T/slow.out" || fail "rtt p50 not judged worse"
# a primary metric decided it (only they set the exit status), and the summary counts it
grep -q '^net  *default  *\* workload:rtt:p99 .* worse: ' "$T/slow.out" ||
	{ cat "$T/slow.out"; fail "rtt p99 (primary) not judged worse"; }
grep -q '^primary: [1-9][0-9]* worse' "$T/slow.out" || fail "the summary line counts no worse primary"
grep -q "differs: kernel: '6.18.0-synth' -> '6.19.0-slow'" "$T/slow.out" ||
	fail "kernel difference not listed"
grep -q '<failure message="worse' "$T/slow-out/junit.xml" || fail "no junit failure"
grep -q 'REGRESSION' "$T/slow-out/compare.md" || fail "compare.md does not say REGRESSION"

"$DB" compare --no-files "$T/base" "$T/nonexistent" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || fail "missing input exited $rc, want 2"
grep -q 'nonexistent' "$T/err" || fail "the error does not name the input"

cp -r "$T/slow" "$T/broken"
sed 's/"p99"/"q99"/' "$T/broken/cells/net--default--r1/summary.json" >"$T/s.json"
mv "$T/s.json" "$T/broken/cells/net--default--r1/summary.json"
"$DB" compare --no-files "$T/base" "$T/broken" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || fail "malformed input exited $rc, want 2"
grep -q "net--default--r1/summary.json: field 'softirq\[0\].delay_ns.p99' missing" "$T/err" ||
	{ cat "$T/err"; fail "the error does not name file and field"; }

# baseline: save, locate, compare against it
"$DB" baseline save --dir "$T/bl" "$T/base" >/dev/null || fail "baseline save"
p=$("$DB" baseline path --dir "$T/bl" --host synthhost) || fail "baseline path"
[ -s "$p/run.json" ] || fail "baseline has no run.json"
[ -s "$p/baseline.json" ] || fail "baseline has no baseline.json"
ls "$p"/cells/*/summary.json >/dev/null 2>&1 || fail "baseline has no cells"
"$DB" baseline show --dir "$T/bl" --host synthhost | grep -q 'scenario: synthetic' ||
	fail "baseline show"
"$DB" compare --no-files "$p" "$T/base" >/dev/null 2>&1 || fail "baseline vs its source"
"$DB" baseline path --dir "$T/bl" --host nohost >/dev/null 2>&1 &&
	fail "baseline path succeeds without a baseline"
"$GEN" --lossy net--default--r1 "$T/lossy" || fail "gen-run lossy"
"$DB" baseline save --dir "$T/bl" --name lossy "$T/lossy" >/dev/null 2>&1 &&
	fail "a lossy run was saved as a baseline without --force"
exit 0
