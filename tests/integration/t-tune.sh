#!/bin/sh
# t-tune.sh - deferbench tune end to end on a short run: the user's command (the tty
# workload, judged by the workload-intervals.csv it writes) adopted as the segment's
# workload, a candidate of the user's own (--try) alternated with the machine as it
# is; tune.ini, the run, tune.json and the answer are there, every setting is back and
# no journal is left. Then the refusals that cost nothing: too short a -d for six
# blocks, no command, --verify without the directory of a tune.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_tracefs
need_root_wq
command -v jq >/dev/null 2>&1 || skip "jq is not installed (ci/install-deps.sh)"
mktemp_dir T
snapshot "$T/before"
nice0=$(cat $WQ/writeback/nice)
try=$(( nice0 == -5 ? -6 : -5 ))

# 1 s survey, then 18 s of 1 s phases: 6 blocks of at most 3 arms (the machine as it
# is, the --try, and what the survey may add within --allow nice)
$DB tune -d 20s --phase 1s --survey 1s --allow nice --try wq.writeback.nice=$try \
	--latency "$T/load/workload-intervals.csv" -o "$T/tune" -- \
	$DB load tty -d 40s -i 500ms -o "$T/load" > "$T/out.txt" 2>&1 ||
	{ cat "$T/out.txt"; fail "tune exited $?"; }
grep -q '^tune: candidate try-1 ' "$T/out.txt" || { cat "$T/out.txt"; fail "the --try candidate is not listed"; }
grep -Eq '^tune: (use|keep|exploratory)' "$T/out.txt" || { cat "$T/out.txt"; fail "no answer"; }
grep -q '^design = alternate$' "$T/tune/tune.ini" || fail "tune.ini is not an alternating scenario"
grep -q "^wq.writeback.nice = $try\$" "$T/tune/tune.ini" || fail "tune.ini lacks the --try"
jq -e '.complete == true and (.cells | length) == 1' "$T/tune/run/run.json" >/dev/null ||
	fail "the run did not complete: $(jq -c '{complete, status}' "$T/tune/run/run.json")"
jq -e '.schema == "deferbench-tune/1" and has("use") and (.settings | type) == "array"' \
	"$T/tune/tune.json" >/dev/null || fail "tune.json: $(cat "$T/tune/tune.json")"
# the workload was judged by the file the command wrote, and by the surveyed work
$DB advise "$T/tune/run" > "$T/advise.txt" 2>&1 || { cat "$T/advise.txt"; fail "advise"; }
grep -q 'primary: workload:delivery:p50 ' "$T/advise.txt" ||
	{ head -3 "$T/advise.txt"; fail "the command's own latency is not primary"; }
grep -q 'reference current;' "$T/advise.txt" ||
	{ head -3 "$T/advise.txt"; fail "the machine as it is is not the reference"; }
same_as "$T/before"
[ ! -e "$JOURNAL" ] || fail "tune left a knobs journal"
no_leftover_instances

# refused with the reason, and nothing left changed
expect_message "$T/err" "at least 6 are needed" \
	$DB tune -d 5s --phase 1s --survey 1s --allow nice --try wq.writeback.nice=$try \
	-o "$T/short" -- $DB load tty -d 20s
expect_message "$T/err" "what to tune for?" $DB tune -d 20s
expect_message "$T/err" "--verify needs -o DIR" $DB tune --verify --live
same_as "$T/before"
echo "   $(grep -E '^tune: (use|keep|exploratory)' "$T/out.txt" | cut -c1-100)"
exit 0
