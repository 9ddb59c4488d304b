#!/bin/sh
# t-report-compare.sh - deferbench compare end to end on synthetic runs, its exit
# status (0: no regression, also when better; 1: a regression; 2: unreadable input),
# what it prints and writes (compare.md, junit.xml, by default into NEW), --threshold,
# --metric, the multiple-comparison split, the rows of cells found on one side only and
# of knobs set differently; and the baseline store round trip. Not root.
. tests/integration/lib.sh

GEN=${GEN:-$(pwd)/build/tests/tools/gen-run}
[ -x "$GEN" ] || fail "missing $GEN (make build/tests/tools/gen-run)"

mktemp_dir T
"$GEN" "$T/base" || fail "gen-run base"
"$GEN" --seed 7 --slowdown 2 --kernel 6.19.0-slow "$T/slow" || fail "gen-run slow"

# summary FILE - the counts line of compare's output
summary() {
	grep -E '^[0-9]+ worse, [0-9]+ better, [0-9]+ no change, ' "$1" ||
		fail "no summary line in $1: $(cat "$1")"
}
# count FILE VERDICT - how many judged metrics got VERDICT, from the summary line
count() {
	summary "$1" | sed -n "s/.*\<\([0-9][0-9]*\) $2,.*/\1/p"
}

# a run against itself: nothing worse or better, and no change shown where the
# repetitions allow it
expect_exit 0 "$T/self.out" "$DB" compare -o "$T/self" "$T/base" "$T/base"
[ "$(count "$T/self.out" worse)" = 0 ] && [ "$(count "$T/self.out" better)" = 0 ] ||
	fail "run vs itself: $(summary "$T/self.out")"
[ "$(count "$T/self.out" 'no change')" -ge 1 ] || fail "run vs itself: no 'no change': $(summary "$T/self.out")"
grep -q "^- result: 0 worse, 0 better, [1-9][0-9]* no change, " "$T/self/compare.md" ||
	fail "compare.md: $(grep result: "$T/self/compare.md")"
grep -q 'failures="0"' "$T/self/junit.xml" || fail "junit.xml reports failures for itself"
grep -q "^None in kernel, command line, CPU, scenario or knob values.$" "$T/self/compare.md" ||
	fail "compare.md lists differences between a run and itself"

# 2x slower: a regression, exit 1, with what differs between the runs
expect_exit 1 "$T/slow.out" "$DB" compare -o "$T/slow-out" "$T/base" "$T/slow"
grep -q 'workload:rtt:p50 .* worse' "$T/slow.out" || fail "rtt p50 not judged worse"
[ "$(count "$T/slow.out" better)" = 0 ] || fail "2x slower: better verdicts: $(summary "$T/slow.out")"
grep -q "differs: kernel: '6.18.0-synth' -> '6.19.0-slow'" "$T/slow.out" ||
	fail "kernel difference not listed"
grep -q '<failure message="worse' "$T/slow-out/junit.xml" || fail "no junit failure"
[ "$(grep -c '<failure ' "$T/slow-out/junit.xml")" = "$(count "$T/slow.out" worse)" ] ||
	fail "junit.xml failures differ from the worse verdicts"
grep -q '^- result: REGRESSION: ' "$T/slow-out/compare.md" || fail "compare.md does not say REGRESSION"

# 2x faster: better is no regression, exit 0
"$GEN" --seed 7 --slowdown 0.5 "$T/fast" || fail "gen-run fast"
expect_exit 0 "$T/fast.out" "$DB" compare --no-files "$T/base" "$T/fast"
[ "$(count "$T/fast.out" worse)" = 0 ] && [ "$(count "$T/fast.out" better)" -ge 1 ] ||
	fail "2x faster: $(summary "$T/fast.out")"
grep -q 'workload:rtt:p50 .* better: lower by more than the threshold' "$T/fast.out" ||
	fail "rtt p50 not judged better"

# without -o the files go into NEW, and nothing into BASE
cp -r "$T/fast" "$T/fast2"
expect_exit 0 "$T/default.out" "$DB" compare "$T/base" "$T/fast2"
grep -q "wrote $T/fast2/compare.md and $T/fast2/junit.xml" "$T/default.out" ||
	fail "default output: $(cat "$T/default.out")"
assert_file "$T/fast2/compare.md"
grep -q '<testsuites name="deferbench compare" tests="[1-9]' "$T/fast2/junit.xml" ||
	fail "junit.xml in NEW is not a compare result"
ls "$T/base"/compare.md "$T/base"/junit.xml 2>/dev/null && fail "compare wrote into BASE"

# --threshold: 30% slower is worse against 10%, not against 50%
"$GEN" --seed 7 --slowdown 1.3 "$T/s13" || fail "gen-run s13"
expect_exit 1 "$T/t10.out" "$DB" compare --no-files "$T/base" "$T/s13"
expect_exit 0 "$T/t50.out" "$DB" compare -o "$T/t50" --threshold 50 "$T/base" "$T/s13"
[ "$(count "$T/t50.out" worse)" = 0 ] || fail "--threshold 50: $(summary "$T/t50.out")"
grep -q '; threshold 50%$' "$T/t50.out" || fail "--threshold 50 not reported"
grep -q 'The threshold is 50%' "$T/t50/compare.md" || fail "compare.md does not state the threshold"
grep -q 'within \[0.667, 1.5\]' "$T/t50.out" || fail "no verdict uses the 50% bounds"

# --metric: only the ids matching the patterns are judged (the others are shown as
# information, or not at all), and the split covers those only
expect_exit 1 "$T/m1.out" "$DB" compare --no-files -m 'workload:rtt:p50' "$T/base" "$T/s13"
awk '$NF != "info" && $3 ~ /:/ && $3 != "workload:rtt:p50" { bad = 1; print }
	END { exit bad }' "$T/m1.out" >&2 || fail "--metric judged other metrics"
grep -q "^95% confidence over 3 judged metrics: each interval at 98.333% (Bonferroni)" "$T/m1.out" ||
	fail "--metric workload:rtt:p50: $(tail -1 "$T/m1.out")"
expect_exit 1 "$T/m2.out" "$DB" compare --no-files -m 'workload:rtt:p50' -m 'softirq:TIMER:delay:p50' \
	"$T/base" "$T/s13"
grep -q "^95% confidence over 12 judged metrics: each interval at 99.583% (Bonferroni)" "$T/m2.out" ||
	fail "two --metric patterns: $(tail -1 "$T/m2.out")"

# the multiple-comparison split decides: net/default rtt p50 is worse as one of 3 judged
# metrics (each interval at 1 - 0.05 / 3) and cannot tell as one of all of them
grep -q '^net  *default  *workload:rtt:p50 .* worse: ' "$T/m1.out" ||
	fail "net/default rtt p50 is not worse among 3 metrics"
k=$(sed -n 's/^95% confidence over \([0-9]*\) judged metrics.*/\1/p' "$T/t10.out")
[ "$k" -gt 3 ] || fail "the default patterns judged $k metrics"
level=$(awk -v k="$k" 'BEGIN { printf "%.5g", 100 * (1 - 0.05 / k) }')
grep -q "^95% confidence over $k judged metrics: each interval at $level% (Bonferroni)" "$T/t10.out" ||
	fail "with $k metrics each interval should be at $level%: $(tail -1 "$T/t10.out")"
grep -q '^net  *default  *workload:rtt:p50 .* cannot tell: ' "$T/t10.out" ||
	fail "net/default rtt p50 is not 'cannot tell' among $k metrics"

# cells on one side only: a row each, incomplete, no regression
"$GEN" --configs default,threaded-napi,extra "$T/other" || fail "gen-run other"
expect_exit 0 "$T/other.out" "$DB" compare -o "$T/other-out" "$T/base" "$T/other"
for w in net tty timer; do
	grep -q "^$w  *wq-nice-10  *\* .* incomplete: only in the base run$" "$T/other.out" ||
		fail "no 'only in the base run' row for $w/wq-nice-10"
	grep -q "^$w  *extra  *\* .* incomplete: only in the new run$" "$T/other.out" ||
		fail "no 'only in the new run' row for $w/extra"
done
grep -q "^- result: 0 worse, .*, 6 incomplete$" "$T/other-out/compare.md" ||
	fail "compare.md: $(grep result: "$T/other-out/compare.md")"
grep -q '^| net | wq-nice-10 | \\\* |.*| incomplete | only in the base run |$' "$T/other-out/compare.md" ||
	fail "compare.md has no 'only in the base run' row"
grep -q '^- 6 workload x configuration pairs matched' "$T/other-out/compare.md" ||
	fail "compare.md: $(grep matched "$T/other-out/compare.md")"
grep -q '<skipped message="incomplete: only in the new run"/>' "$T/other-out/junit.xml" ||
	fail "junit.xml does not skip the one-sided cells"

# a configuration of the same name that set other knob values: listed as a difference
"$GEN" --knob wq.writeback.nice=5 --knob sched.ksoftirqd=fifo:2 "$T/knobs" || fail "gen-run knobs"
expect_exit 0 "$T/knobs.out" "$DB" compare -o "$T/knobs-out" "$T/base" "$T/knobs"
grep -q "^differs: wq-nice-10 knob wq.writeback.nice: '-10' -> '5'$" "$T/knobs.out" ||
	fail "knob value difference not listed: $(grep differs "$T/knobs.out")"
grep -q "^differs: default knob sched.ksoftirqd: '(not set)' -> 'fifo:2'$" "$T/knobs.out" ||
	fail "a knob set on one side only is not listed"
grep -q '^| wq-nice-10 knob wq.writeback.nice | -10 | 5 |$' "$T/knobs-out/compare.md" ||
	fail "compare.md does not list the knob difference"
expect_exit 0 "$T/knobs-r.out" "$DB" compare --no-files "$T/knobs" "$T/base"
grep -q "^differs: default knob sched.ksoftirqd: 'fifo:2' -> '(not set)'$" "$T/knobs-r.out" ||
	fail "a knob set in BASE only is not listed"
grep -q "^differs: .*knob net.threaded" "$T/knobs.out" && fail "an equal knob is listed as a difference"

# unreadable input: exit 2, naming what is wrong
expect_exit 2 "$T/err" "$DB" compare --no-files "$T/base" "$T/nonexistent"
grep -q 'nonexistent' "$T/err" || fail "the error does not name the input"

cp -r "$T/slow" "$T/broken"
sed 's/"p99"/"q99"/' "$T/broken/cells/net--default--r1/summary.json" >"$T/s.json"
mv "$T/s.json" "$T/broken/cells/net--default--r1/summary.json"
expect_exit 2 "$T/err" "$DB" compare --no-files "$T/base" "$T/broken"
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
expect_exit 0 "$T/bl.out" "$DB" compare --no-files "$p" "$T/base"
[ "$(count "$T/bl.out" worse)" = 0 ] && [ "$(count "$T/bl.out" better)" = 0 ] ||
	fail "baseline vs its source: $(summary "$T/bl.out")"
expect_exit 1 "$T/bl.out" "$DB" baseline path --dir "$T/bl" --host nohost
"$GEN" --lossy net--default--r1 "$T/lossy" || fail "gen-run lossy"
expect_exit 1 "$T/bl.out" "$DB" baseline save --dir "$T/bl" --name lossy "$T/lossy"
grep -q "1 lossy" "$T/bl.out" || fail "a lossy run refused without saying so: $(cat "$T/bl.out")"
exit 0
