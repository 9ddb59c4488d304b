#!/bin/sh
# t-report-compare.sh - deferbench compare end to end on synthetic runs: its exit status
# (0: no primary metric worse, also when better; 1: a primary metric worse; 2:
# unreadable input), what it prints and writes (compare.md, junit.xml, by default into
# NEW), --threshold, --metric, Holm's correction over each family, the rows of cells
# found on one side only and of knobs set differently; and the baseline store round
# trip. Not root.
. tests/integration/lib.sh

GEN=${GEN:-$(pwd)/build/tests/tools/gen-run}
[ -x "$GEN" ] || fail "missing $GEN (make build/tests/tools/gen-run)"

mktemp_dir T
"$GEN" "$T/base" || fail "gen-run base"
"$GEN" --seed 7 --slowdown 2 --kernel 6.19.0-slow "$T/slow" || fail "gen-run slow"

# summary FILE - the counts line of compare's output
summary() {
	grep -E '^primary: [0-9]+ worse, [0-9]+ better, [0-9]+ no change, [0-9]+ cannot tell' "$1" ||
		fail "no summary line in $1: $(cat "$1")"
}
# count FILE FAMILY VERDICT - how many metrics of FAMILY (primary, advisory) got VERDICT
count() {
	summary "$1" | sed "s/.*$2: //; s/;.*//" | sed -n "s/.*\<\([0-9][0-9]*\) $3[,( ].*/\1/p"
}

# a run against itself: nothing worse or better in either family, and no change shown
# where the repetitions allow it
expect_exit 0 "$T/self.out" "$DB" compare -o "$T/self" "$T/base" "$T/base"
for f in primary advisory; do
	[ "$(count "$T/self.out" $f worse)" = 0 ] && [ "$(count "$T/self.out" $f better)" = 0 ] ||
		fail "run vs itself: $(summary "$T/self.out")"
done
[ $(( $(count "$T/self.out" primary 'no change') + $(count "$T/self.out" advisory 'no change') )) -ge 1 ] ||
	fail "run vs itself: no 'no change': $(summary "$T/self.out")"
grep -q "^- result: primary: 0 worse, 0 better, [0-9]* no change, " "$T/self/compare.md" ||
	fail "compare.md: $(grep result: "$T/self/compare.md")"
grep -q 'failures="0"' "$T/self/junit.xml" || fail "junit.xml reports failures for itself"
grep -q "^None in kernel, command line, CPU, scenario or knob values.$" "$T/self/compare.md" ||
	fail "compare.md lists differences between a run and itself"

# Two separate runs without a calibration are held to the default floor (x2 on p50 and
# p90, x6 above; docs/verdicts.md): 2x slower is no regression by that floor alone...
expect_exit 0 "$T/floor.out" "$DB" compare --no-files "$T/base" "$T/slow"
[ "$(count "$T/floor.out" primary worse)" = 0 ] || fail "default floor: $(summary "$T/floor.out")"
grep -q '^net  *default  *\* workload:rtt:p99 .* 500%d ' "$T/floor.out" ||
	fail "default floor: the p99 margin is not the x6 floor"
# ...while a margin given with -t replaces the floor: the runs below are generated with
# a known, small spread, so the engine's verdicts can be checked against -t 10.
# 2x slower: a regression of the primary metrics (only they set the exit status), exit 1
expect_exit 1 "$T/slow.out" "$DB" compare --wide -t 10 -o "$T/slow-out" "$T/base" "$T/slow"
grep -q 'workload:rtt:p50 .* worse' "$T/slow.out" || fail "rtt p50 not judged worse"
grep -q '^net  *default  *\* workload:rtt:p99 .* worse: ' "$T/slow.out" ||
	fail "rtt p99 (primary) not judged worse"
[ "$(count "$T/slow.out" primary worse)" -ge 1 ] && [ "$(count "$T/slow.out" primary better)" = 0 ] ||
	fail "2x slower: $(summary "$T/slow.out")"
grep -q "differs: kernel: '6.18.0-synth' -> '6.19.0-slow'" "$T/slow.out" ||
	fail "kernel difference not listed"
[ "$(grep -c '<failure message="worse' "$T/slow-out/junit.xml")" = "$(count "$T/slow.out" primary worse)" ] ||
	fail "junit.xml failures are not the primary worse verdicts"
grep -q '^- result: REGRESSION: ' "$T/slow-out/compare.md" || fail "compare.md does not say REGRESSION"
# decided rows first: no worse or better row after a row of another verdict
awk '/^[a-z]+ +[^ ]+ +[* ] [a-z]+:/ { d = / (worse|better)(: |$)/; if (d && other) bad = 1; if (!d) other = 1 }
	END { exit bad }' "$T/slow.out" || fail "a decided row comes after an undecided one"
# by default every line fits 100 columns but the counts line (one line, for scripts);
# a metric id cut to fit ends in ~; --wide (above) prints every column whole
"$DB" compare -t 10 --no-files "$T/base" "$T/slow" > "$T/narrow.out" 2>&1
awk 'length($0) > 100 && !/^primary: / { print; bad = 1 } END { exit bad }' "$T/narrow.out" ||
	fail "compare prints lines wider than 100 columns without --wide"
grep -q '^net  *default  *\* workload:rtt:p99  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9]*%d\{0,1\}  *worse$' "$T/narrow.out" ||
	fail "narrow: no row of rtt p99: $(grep 'rtt:p99' "$T/narrow.out")"
awk 'length($0) > 100 && !/^primary: / { n++ } END { exit !n }' "$T/slow.out" ||
	fail "--wide cut its lines"
# with 2>&1 (a CI log) stderr's lines come after what stdout printed before them:
# the counts line stays whole and the note of the files written comes last
"$DB" compare -t 10 -o "$T/slow-out2" "$T/base" "$T/slow" > "$T/both.out" 2>&1
grep -q '^primary: [0-9]* worse, .*judged)$' "$T/both.out" ||
	fail "the counts line is cut: $(grep -n 'primary:' "$T/both.out")"
tail -n 1 "$T/both.out" | grep -q '^deferbench: wrote ' ||
	fail "stderr came before stdout's lines: $(head -n 3 "$T/both.out")"

# 2x faster: better is no regression, exit 0
"$GEN" --seed 7 --slowdown 0.5 "$T/fast" || fail "gen-run fast"
expect_exit 0 "$T/fast.out" "$DB" compare --wide -t 10 --no-files "$T/base" "$T/fast"
[ "$(count "$T/fast.out" primary worse)" = 0 ] && [ "$(count "$T/fast.out" primary better)" -ge 1 ] ||
	fail "2x faster: $(summary "$T/fast.out")"
grep -q '^net  *default  *\* workload:rtt:p99 .* better: ' "$T/fast.out" ||
	fail "rtt p99 not judged better"

# without -o the files go into NEW, and nothing into BASE
cp -r "$T/fast" "$T/fast2"
expect_exit 0 "$T/default.out" "$DB" compare -t 10 "$T/base" "$T/fast2"
grep -q "wrote $T/fast2/compare.md and $T/fast2/junit.xml" "$T/default.out" ||
	fail "default output: $(tail -3 "$T/default.out")"
grep -q '^- result: primary: 0 worse, [1-9][0-9]* better' "$T/fast2/compare.md" ||
	fail "compare.md in NEW is not this comparison's"
grep -q '<testsuites name="deferbench compare" tests="[1-9]' "$T/fast2/junit.xml" ||
	fail "junit.xml in NEW is not a compare result"
ls "$T/base"/compare.md "$T/base"/junit.xml 2>/dev/null && fail "compare wrote into BASE"

# --threshold: 30% slower is worse against a 10% margin, not against 50%
"$GEN" --seed 7 --slowdown 1.3 "$T/s13" || fail "gen-run s13"
expect_exit 1 "$T/t10.out" "$DB" compare --wide -t 10 --no-files "$T/base" "$T/s13"
expect_exit 0 "$T/t50.out" "$DB" compare -o "$T/t50" --threshold 50 "$T/base" "$T/s13"
[ "$(count "$T/t50.out" primary worse)" = 0 ] && [ "$(count "$T/t50.out" advisory worse)" = 0 ] ||
	fail "--threshold 50: $(summary "$T/t50.out")"
[ "$(count "$T/t50.out" advisory 'no change')" -ge 1 ] || fail "--threshold 50: no 'no change'"
grep -q '^net  *default  *\* workload:rtt:p99 .* 50% ' "$T/t50.out" || fail "--threshold 50: no 50% margin"
grep -q '| workload:rtt:p99 | [^|]* | [^|]* | [^|]* | [^|]* | 50% |' "$T/t50/compare.md" ||
	fail "compare.md does not show the 50% margin"

# --metric: only the ids matching the patterns are primary and set the exit status
expect_exit 1 "$T/m1.out" "$DB" compare --wide -t 10 --no-files -m 'workload:wakeup:p99' "$T/base" "$T/s13"
awk '$3 == "*" && $4 != "workload:wakeup:p99" { bad = 1; print } END { exit bad }' "$T/m1.out" >&2 ||
	fail "--metric made other metrics primary"
summary "$T/m1.out" | grep -q '^primary: .*(3 judged); ' || fail "--metric: $(summary "$T/m1.out")"

# Holm over the family: its worse/better claims, h of the k primary metrics, are held
# to 0.05/h, 0.05/(h-1), ... 0.05 in the order of their p-values (the others, claims of
# no change, each stand alone at 0.05), so the same metric can be decided in a family of
# 3 and not in one of 18
k=$(summary "$T/t10.out" | sed -n 's/^primary: .*(\([0-9]*\) judged); .*/\1/p')
[ "$k" -gt 3 ] || fail "the default primary family has $k metrics"
got=$(awk '$3 == "*"' "$T/t10.out" | grep -o ' p [0-9.e+-]* [<>]=* [0-9.e+-]*' | awk '{ print $NF }' |
	sort -g)
[ "$(echo "$got" | wc -l)" = "$k" ] || fail "$k primary metrics but levels $(echo $got)"
h=$(echo "$got" | grep -cv '^0.05$')
h=$((h + 1))
[ "$h" -gt 3 ] || fail "only $h worse/better claims among $k: $(echo $got)"
want=$(awk -v k="$h" -v n="$k" 'BEGIN { for (i = k; i >= 1; i--) printf "%.2g\n", 0.05 / i
					for (; n > k; n--) print "0.05" }' | sort -g)
[ "$got" = "$want" ] || fail "the primary levels are not Holm's for $h of $k metrics: $(echo $got)"
grep -q '^worse/better: family-wise error 0.05 per family (Holm), no change: 0.05 each' "$T/t10.out" || fail "the correction is not stated"
grep -q '^timer  *wq-nice-10  *\* workload:wakeup:p99 .* worse: .* <= 0.05$' "$T/m1.out" ||
	fail "timer/wq-nice-10 wakeup p99 is not worse as the 2nd of 2 claims (3 metrics)"
grep -q '^timer  *wq-nice-10  *\* workload:wakeup:p99 .* cannot tell: ' "$T/t10.out" ||
	fail "timer/wq-nice-10 wakeup p99 is decided among $k metrics"

# cells on one side only: a row each, incomplete, no regression
"$GEN" --configs default,threaded-napi,extra "$T/other" || fail "gen-run other"
expect_exit 0 "$T/other.out" "$DB" compare --wide -o "$T/other-out" "$T/base" "$T/other"
for w in net tty timer; do
	grep -q "^$w  *wq-nice-10  *\* .* incomplete: only in the base run$" "$T/other.out" ||
		fail "no 'only in the base run' row for $w/wq-nice-10"
	grep -q "^$w  *extra  *\* .* incomplete: only in the new run$" "$T/other.out" ||
		fail "no 'only in the new run' row for $w/extra"
done
summary "$T/other.out" | grep -q '; 0 lossy, 6 incomplete$' || fail "one-sided: $(summary "$T/other.out")"
grep -q '^| net | wq-nice-10 | *| \\\* |.*| incomplete | only in the base run |$' "$T/other-out/compare.md" ||
	fail "compare.md has no 'only in the base run' row"
grep -q '^- 6 workload x configuration pairs matched' "$T/other-out/compare.md" ||
	fail "compare.md: $(grep matched "$T/other-out/compare.md")"
[ "$(grep -c '<skipped message="incomplete: only in the new run"/>' "$T/other-out/junit.xml")" = 3 ] ||
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
[ "$(count "$T/bl.out" primary worse)" = 0 ] && [ "$(count "$T/bl.out" primary better)" = 0 ] ||
	fail "baseline vs its source: $(summary "$T/bl.out")"
expect_message "$T/bl.out" "no baseline 'default' at $T/bl/nohost/default" \
	"$DB" baseline path --dir "$T/bl" --host nohost
"$GEN" --lossy net--default--r1 "$T/lossy" || fail "gen-run lossy"
expect_message "$T/bl.out" "1 of them lost events; use --force to save it anyway" \
	"$DB" baseline save --dir "$T/bl" --name lossy "$T/lossy"
exit 0
