#!/bin/sh
# t-report-compare.sh - deferbench compare end to end on synthetic runs: its exit status
# (0: every primary metric decided and none worse; 1: a primary metric worse; 2:
# unreadable input; 3: a primary metric undecided), what it prints and writes
# (compare.md, junit.xml, by default into NEW); two separate runs judged with the runs
# as the unit against a calibrated spread, and without one never "no change";
# --threshold, --metric, Holm's family over every metric judged, the rows of cells
# found on one side only and of knobs set differently; and the baseline store round
# trip. Not root.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh

GEN=${GEN:-$(pwd)/build/tests/tools/gen-run}
[ -x "$GEN" ] || fail "missing $GEN (make build/tests/tools/gen-run)"

mktemp_dir T
# samples enough for steady p99s; five runs of the same thing calibrate the host (three
# are the least, but leave t two degrees of freedom: intervals about twice as wide)
for s in 11 12 13 14 15; do
	"$GEN" --seed $s --samples 8000 "$T/cal$s" >/dev/null || fail "gen-run cal$s"
done
"$DB" baseline calibrate --from "$T/cal11" "$T/cal12" "$T/cal13" "$T/cal14" "$T/cal15" \
	-o "$T/noise.json" >"$T/cal.out" 2>&1 || { cat "$T/cal.out"; fail "calibrate --from"; }
N="--noise $T/noise.json"
"$GEN" --samples 8000 "$T/base" >/dev/null || fail "gen-run base"
"$GEN" --seed 7 --samples 8000 --slowdown 2 --kernel 6.19.0-slow "$T/slow" >/dev/null ||
	fail "gen-run slow"

# summary FILE - the counts line of compare's output
summary() {
	grep -E '^primary: [0-9]+ worse, [0-9]+ better, [0-9]+ higher, [0-9]+ lower, [0-9]+ no change, [0-9]+ cannot tell' "$1" ||
		fail "no summary line in $1: $(cat "$1")"
}
# count FILE FAMILY VERDICT - how many metrics of FAMILY (primary, advisory) got VERDICT
count() {
	summary "$1" | sed "s/.*$2: //; s/;.*//" | sed -n "s/.*\<\([0-9][0-9]*\) $3[,( ].*/\1/p"
}

# a run against itself (one run: its repetitions are the unit): nothing worse or better
# in either family, and no change shown where the repetitions allow it; the rest stays
# undecided, which only --allow-undecided passes
expect_exit 3 "$T/self3.out" "$DB" compare --no-files "$T/base" "$T/base"
expect_exit 0 "$T/self.out" "$DB" compare --allow-undecided -o "$T/self" "$T/base" "$T/base"
for f in primary advisory; do
	[ "$(count "$T/self.out" $f worse)" = 0 ] && [ "$(count "$T/self.out" $f better)" = 0 ] ||
		fail "run vs itself: $(summary "$T/self.out")"
done
[ $(( $(count "$T/self.out" primary 'no change') + $(count "$T/self.out" advisory 'no change') )) -ge 1 ] ||
	fail "run vs itself: no 'no change': $(summary "$T/self.out")"
grep -q "^- result: primary: 0 worse, 0 better, 0 higher, 0 lower, [0-9]* no change, " \
	"$T/self/compare.md" || fail "compare.md: $(grep result: "$T/self/compare.md")"
grep -q 'failures="0"' "$T/self/junit.xml" || fail "junit.xml reports failures for itself"
grep -q "^None in kernel, command line, CPU, scenario or knob values.$" "$T/self/compare.md" ||
	fail "compare.md lists differences between a run and itself"

# Two separate runs without a calibration (docs/verdicts.md): their spread is unknown,
# so nothing is "no change", and worse or better only beyond the uncalibrated floor (x2
# on p50 and p90, x6 above): 2x slower is undecided, exit 3; -t 10 changes nothing
expect_exit 3 "$T/floor.out" "$DB" compare --wide --no-files "$T/base" "$T/slow"
[ "$(count "$T/floor.out" primary worse)" = 0 ] || fail "default floor: $(summary "$T/floor.out")"
[ "$(count "$T/floor.out" primary 'no change')" = 0 ] &&
	[ "$(count "$T/floor.out" advisory 'no change')" = 0 ] ||
	fail "no calibration, yet 'no change': $(summary "$T/floor.out")"
grep -q '^net  *default  *\* workload:rtt:p99 .* 500%d .*cannot tell without a calibration' \
	"$T/floor.out" || fail "default floor: the p99 margin is not the x6 floor, or not explained"
expect_exit 3 "$T/floor10.out" "$DB" compare --wide --no-files -t 10 "$T/base" "$T/slow"
[ "$(summary "$T/floor.out")" = "$(summary "$T/floor10.out")" ] ||
	fail "-t 10 (the default) changed the verdicts: $(summary "$T/floor10.out")"

# With the calibration the runs are the unit (margin marked r): 2x slower is a
# regression of the primary metrics (only they set the exit status), exit 1
expect_exit 1 "$T/slow.out" "$DB" compare --wide $N -o "$T/slow-out" "$T/base" "$T/slow"
grep -q '^net  *default  *\* workload:rtt:p99 .* worse: ' "$T/slow.out" ||
	fail "rtt p99 (primary) not judged worse"
[ "$(count "$T/slow.out" primary worse)" -ge 1 ] && [ "$(count "$T/slow.out" primary better)" = 0 ] ||
	fail "2x slower: $(summary "$T/slow.out")"
grep -q "differs: kernel: '6.18.0-synth' -> '6.19.0-slow'" "$T/slow.out" ||
	fail "kernel difference not listed"
[ "$(grep -c '<failure message="worse' "$T/slow-out/junit.xml")" = "$(count "$T/slow.out" primary worse)" ] ||
	fail "junit.xml failures are not the primary worse verdicts"
grep -q '^- result: REGRESSION: ' "$T/slow-out/compare.md" || fail "compare.md does not say REGRESSION"
grep -q "the runs are the unit (r)" "$T/slow.out" || fail "the method line does not say runs are the unit"
# decided rows first: no worse or better row after a row of another verdict
awk '/^[a-z]+ +[^ ]+ +[* ] [a-z]+:/ { d = / (worse|better)(: |$)/; if (d && other) bad = 1; if (!d) other = 1 }
	END { exit bad }' "$T/slow.out" || fail "a decided row comes after an undecided one"
# by default every line fits 100 columns but the counts line (one line, for scripts);
# a metric id cut to fit ends in ~; --wide (above) prints every column whole
"$DB" compare $N --no-files "$T/base" "$T/slow" > "$T/narrow.out" 2>&1
awk 'length($0) > 100 && !/^primary: / { print; bad = 1 } END { exit bad }' "$T/narrow.out" ||
	fail "compare prints lines wider than 100 columns without --wide"
grep -q '^net  *default  *\* workload:rtt:p99  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9]*%r  *worse$' "$T/narrow.out" ||
	fail "narrow: no row of rtt p99: $(grep 'rtt:p99' "$T/narrow.out")"
awk 'length($0) > 100 && !/^primary: / { n++ } END { exit !n }' "$T/slow.out" ||
	fail "--wide cut its lines"
# with 2>&1 (a CI log) stderr's lines come after what stdout printed before them:
# the counts line stays whole and the note of the files written comes last
"$DB" compare $N -o "$T/slow-out2" "$T/base" "$T/slow" > "$T/both.out" 2>&1
grep -q '^primary: [0-9]* worse, .*judged.*)$' "$T/both.out" ||
	fail "the counts line is cut: $(grep -n 'primary:' "$T/both.out")"
tail -n 1 "$T/both.out" | grep -q '^deferbench: wrote ' ||
	fail "stderr came before stdout's lines: $(head -n 3 "$T/both.out")"

# 2x faster: better is no regression (exit 0 once nothing is left undecided)
"$GEN" --seed 7 --samples 8000 --slowdown 0.5 "$T/fast" >/dev/null || fail "gen-run fast"
expect_exit 0 "$T/fast.out" "$DB" compare --wide $N --allow-undecided --no-files "$T/base" "$T/fast"
[ "$(count "$T/fast.out" primary worse)" = 0 ] && [ "$(count "$T/fast.out" primary better)" -ge 1 ] ||
	fail "2x faster: $(summary "$T/fast.out")"
grep -q '^net  *default  *\* workload:rtt:p99 .* better: ' "$T/fast.out" ||
	fail "rtt p99 not judged better"

# without -o the files go into NEW, and nothing into BASE
cp -r "$T/fast" "$T/fast2"
expect_exit 3 "$T/default.out" "$DB" compare $N "$T/base" "$T/fast2"
grep -q "wrote $T/fast2/compare.md and $T/fast2/junit.xml" "$T/default.out" ||
	fail "default output: $(tail -3 "$T/default.out")"
grep -q '^- result: primary: 0 worse, [1-9][0-9]* better' "$T/fast2/compare.md" ||
	fail "compare.md in NEW is not this comparison's"
grep -q '<testsuites name="deferbench compare" tests="[1-9]' "$T/fast2/junit.xml" ||
	fail "junit.xml in NEW is not a compare result"
ls "$T/base"/compare.md "$T/base"/junit.xml 2>/dev/null && fail "compare wrote into BASE"

# --threshold: 2x slower is worse against a 10% margin, not against a 300% one, where
# the calibrated spread shows it no bigger than that
expect_exit 0 "$T/t300.out" "$DB" compare $N -o "$T/t300" --allow-undecided --threshold 300 \
	"$T/base" "$T/slow"
[ "$(count "$T/t300.out" primary worse)" = 0 ] && [ "$(count "$T/t300.out" advisory worse)" = 0 ] ||
	fail "--threshold 300: $(summary "$T/t300.out")"
[ "$(count "$T/t300.out" advisory 'no change')" -ge 1 ] || fail "--threshold 300: no 'no change'"
grep -q '^net  *default  *\* workload:rtt:p99 .* 300%r ' "$T/t300.out" || fail "--threshold 300: no 300% margin"
grep -q '| workload:rtt:p99 | [^|]* | [^|]* | [^|]* | [^|]* | 300%r |' "$T/t300/compare.md" ||
	fail "compare.md does not show the 300% margin"

# --metric: only the ids matching the patterns are primary and set the exit status
expect_exit 1 "$T/m1.out" "$DB" compare --wide $N --no-files -m 'workload:rtt:p50' "$T/base" "$T/slow"
awk '$3 == "*" && $4 != "workload:rtt:p50" { bad = 1; print } END { exit bad }' "$T/m1.out" >&2 ||
	fail "--metric made other metrics primary"
summary "$T/m1.out" | grep -q '^primary: .*(3 judged); ' || fail "--metric: $(summary "$T/m1.out")"

# Holm over the family: every one of the k primary metrics judged is a hypothesis,
# held to 0.05/k, 0.05/(k-1), ..., 0.05 by the rank of its side claim, whatever its
# data (those decided "no change" stand alone at 0.05, directions by their own closed
# test): the first level is 0.05/k, and every level is 0.05/j for some j <= k (levels
# print with 2 digits)
k=$(summary "$T/slow.out" | sed -n 's/^primary: .*(\([0-9]*\) judged.*); .*/\1/p')
[ "$k" -gt 3 ] || fail "the default primary family has $k metrics"
got=$(awk '$3 == "*"' "$T/slow.out" | grep -o ' p [0-9.e+-]* [<>]=* [0-9.e+-]*' | awk '{ print $NF }' |
	sort -g)
[ "$(echo "$got" | wc -l)" = "$k" ] || fail "$k primary metrics but levels $(echo $got)"
echo "$got" | awk -v k="$k" 'NR == 1 && ($1 < 0.05 / k * 0.99 || $1 > 0.05 / k * 1.01) { bad = 1 }
	{ j = 0.05 / $1; r = int(j + 0.5); if ((j - r) / r > 0.06 || (r - j) / r > 0.06 || r < 1 || r > k) bad = 1 }
	END { exit bad }' || fail "the primary levels are not Holm's in a family of $k: $(echo $got)"
grep -q '^worse/better/higher/lower: family-wise error 0.05 per family (Holm over every metric judged)' \
	"$T/slow.out" || fail "the correction is not stated"

# cells on one side only: a row each, incomplete, no regression
"$GEN" --configs default,threaded-napi,extra --samples 8000 "$T/other" || fail "gen-run other"
expect_exit 3 "$T/other.out" "$DB" compare --wide -o "$T/other-out" "$T/base" "$T/other"
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
"$GEN" --knob wq.writeback.nice=5 --knob sched.ksoftirqd=fifo:2 --samples 8000 "$T/knobs" ||
	fail "gen-run knobs"
expect_exit 3 "$T/knobs.out" "$DB" compare -o "$T/knobs-out" "$T/base" "$T/knobs"
grep -q "^differs: wq-nice-10 knob wq.writeback.nice: '-10' -> '5'$" "$T/knobs.out" ||
	fail "knob value difference not listed: $(grep differs "$T/knobs.out")"
grep -q "^differs: default knob sched.ksoftirqd: '(not set)' -> 'fifo:2'$" "$T/knobs.out" ||
	fail "a knob set on one side only is not listed"
grep -q '^| wq-nice-10 knob wq.writeback.nice | -10 | 5 |$' "$T/knobs-out/compare.md" ||
	fail "compare.md does not list the knob difference"
expect_exit 3 "$T/knobs-r.out" "$DB" compare --no-files "$T/knobs" "$T/base"
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
expect_exit 3 "$T/bl.out" "$DB" compare --no-files "$p" "$T/base"
[ "$(count "$T/bl.out" primary worse)" = 0 ] && [ "$(count "$T/bl.out" primary better)" = 0 ] ||
	fail "baseline vs its source: $(summary "$T/bl.out")"
expect_message "$T/bl.out" "no baseline 'default' at $T/bl/nohost/default" \
	"$DB" baseline path --dir "$T/bl" --host nohost
"$GEN" --lossy net--default--r1 "$T/lossy" || fail "gen-run lossy"
expect_message "$T/bl.out" "1 of them lost events; use --accept-incomplete to save it anyway" \
	"$DB" baseline save --dir "$T/bl" --name lossy "$T/lossy"
# -f replaces output only: it is refused here, naming the two options it used to mean
expect_message "$T/bl.out" "--accept-incomplete" \
	"$DB" baseline save -f --dir "$T/bl" --name lossy "$T/lossy"
"$DB" baseline save --accept-incomplete --dir "$T/bl" --name lossy "$T/lossy" > "$T/bl.out" 2>&1 ||
	fail "baseline save --accept-incomplete: $(cat "$T/bl.out")"
exit 0
