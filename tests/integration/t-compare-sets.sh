#!/bin/sh
# t-compare-sets.sh - a kernel A/B with the runs as the unit, a knob standing in for the
# kernel: four short runs alternated A B B A (B with every unbound workqueue on CPU 0,
# written to sysfs around the run as a reboot into another kernel would change it,
# outside deferbench, which runs on whatever it finds), each added to its set by
# ci/kernel-regression.sh (SET_DIR), then the two sets compared (COMPARE_SETS): paired
# by order because they alternated, every metric judged with the runs as the unit, and
# the knob restored after every B run.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_tracefs
need_root_wq
command -v python3 >/dev/null || skip "needs python3"
mktemp_dir T
snapshot "$T/before"

cat >"$T/s.ini" <<EOF
[global]
duration = 800ms
warmup = 200ms
repetitions = 1
interval = 200ms

[workload tty]
type = tty
rate = 2000
EOF

mask=$(cat $WQ/cpumask)
at_exit "echo $mask > $WQ/cpumask"
i=0
for side in A B B A; do
	i=$((i + 1))
	[ $side = B ] && { echo 1 > $WQ/cpumask || fail "cannot confine unbound work to CPU 0"; }
	"$DB" run -o "$T/r$i" "$T/s.ini" >"$T/run$i.log" 2>&1 ||
		{ cat "$T/run$i.log"; fail "run $i ($side) failed"; }
	echo "$mask" > $WQ/cpumask || fail "cannot restore the unbound cpumask"
	RUN_DIR="$T/r$i" SET_DIR="$T/sets/$side" DEFERBENCH_BASELINE_DIR="$T/none" \
		ci/kernel-regression.sh >"$T/kr$i.log" 2>&1 ||
		{ cat "$T/kr$i.log"; fail "kernel-regression.sh could not add run $i to set $side"; }
done
same_as "$T/before" || fail "the knob was not restored after the B runs"
grep -q "added to the set $T/sets/A (2 runs)" "$T/kr4.log" || { cat "$T/kr4.log"; fail "set A"; }

COMPARE_SETS="$T/sets/A $T/sets/B" ARTIFACTS="$T/art" ci/kernel-regression.sh >"$T/cmp.log" 2>&1
rc=$?
case $rc in 0|1|3) ;; *) cat "$T/cmp.log"; fail "comparing the sets exited $rc" ;; esac
grep -q '^sets: 2 base runs and 2 new runs, the runs the unit: paired by order' "$T/cmp.log" ||
	{ cat "$T/cmp.log"; fail "the alternated sets are not paired by order"; }
grep -q ' [0-9.]*%r ' "$T/cmp.log" || fail "no metric judged with the runs as the unit"
grep -q '^- sets: 2 base runs and 2 new runs' "$T/art/compare.md" ||
	fail "compare.md does not say it compared sets"
[ -s "$T/art/junit.xml" ] || fail "no junit.xml for the sets"

# sets given out of their time order still pair by it; two runs a side are the least
"$DB" compare --no-files "$T/r4" "$T/r1" vs "$T/r3" "$T/r2" >"$T/o.log" 2>&1
grep -q 'paired by order' "$T/o.log" || { cat "$T/o.log"; fail "order of the arguments mattered"; }
"$DB" compare --no-files "$T/r1" vs "$T/r2" "$T/r3" >"$T/e.log" 2>&1
[ $? -eq 2 ] && grep -q "need 2 or more on each side of 'vs'" "$T/e.log" ||
	{ cat "$T/e.log"; fail "a set of one run was not refused"; }
no_leftover_instances
echo "   four runs alternated A B B A, two sets, paired, the runs the unit"
