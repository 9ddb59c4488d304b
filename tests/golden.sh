#!/bin/sh
# golden.sh - deferbench's outputs on the recorded fixtures, against the expected files.
#
#   tests/golden.sh           check (make golden; part of make test): exit 1 on any difference
#   tests/golden.sh --update  rewrite tests/golden/ from the current binary (make golden-update):
#                             for an output change made on purpose, reviewed in the diff
#
# Needs neither root nor tracefs. What is checked, byte for byte:
#   analyze   of tests/fixtures/capture-tty.tar.gz must reproduce the files the live
#             capture wrote (summary.json, the CSVs, histograms.csv, intervals.csv): the
#             offline path computes what the live one did; of capture-tty-v1.tar.gz (a
#             capture from before the execution contexts: fewer events, no interval
#             origin) it must give the files in tests/golden/analyze-v1/;
#   report    --no-plots of run-a and of the capture: report.md, report.html, tables/;
#   compare   run-a against run-b, and run-a against itself: stdout, compare.md, junit.xml;
#   synth     the synthesized captures of tests/synth/*.ev (event sequences of kernels that
#             do not boot here: PREEMPT_RT's threads, BH workqueues; SYNTH, default
#             build/tests/tools/synth-capture, writes them): analyze's table, contexts.csv,
#             softirq.csv, softirq_wait.csv, workqueue.csv; compare of the tasklet capture
#             with the BH workqueue one (the moved work), and history of the two.
set -u
cd "$(dirname "$0")/.." || exit 2
DB=${DB:-$(pwd)/deferbench}
SYNTH=${SYNTH:-$(pwd)/build/tests/tools/synth-capture}
case $SYNTH in /*) ;; *) SYNTH=$(pwd)/$SYNTH ;; esac
GOLDEN=tests/golden
command -v jq >/dev/null 2>&1 ||
	{ echo "golden: needs jq to read summary.json (ci/install-deps.sh --test installs it)" >&2
	  exit 2; }
update=0
[ "${1:-}" = "--update" ] && update=1

work=$(mktemp -d /tmp/deferbench-golden.XXXXXX) || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
for f in capture-tty capture-tty-v1 run-a run-b; do
	tar xzf "tests/fixtures/$f.tar.gz" -C "$work" || exit 2
done
out=$work/out
mkdir -p "$out"

# run CMD... - run a deferbench command from inside $work (so that paths in its output are
# the fixtures' relative names), keeping its stdout and its exit status
run() {
	name=$1
	shift
	(cd "$work" && "$DB" "$@") > "$out/$name.stdout" 2> "$work/$name.stderr"
	echo "$name exit $?" >> "$out/status"
}

run analyze analyze cap -o out/analyze
run analyze-v1 analyze cap-v1 -o out/analyze-v1
run report report --no-plots runA -o out/report
run report-cap report --no-plots cap -o out/report-cap
run compare compare runA runB -o out/compare
run compare-aa compare runA runA -o out/compare-aa
rm -f "$out/analyze.stdout"	# the table: printed by record too, checked by its own tests
rm -f "$out/analyze-v1.stdout"

# the synthesized captures: the event sequences each script cites, analyzed
mkdir -p "$work/synth" "$work/synth-out" "$out/synth"
for ev in tests/synth/*.ev; do
	sn=$(basename "$ev" .ev)	# not 'name': run() sets that
	if ! "$SYNTH" "$ev" "$work/synth/$sn" 2> "$work/synth-$sn.stderr"; then
		echo "golden: FAIL: synth-capture $ev: $(cat "$work/synth-$sn.stderr")" >&2
		exit 1
	fi
	run "synth/$sn" analyze "synth/$sn" -o "synth-out/$sn"
	for f in contexts.csv softirq.csv softirq_wait.csv workqueue.csv; do
		cp "$work/synth-out/$sn/$f" "$out/synth/$sn.$f" || exit 2
	done
done
# a tasklet's function that reappears as a BH workqueue item: moved, in compare and history
run synth/compare-moved compare --allow-empty synth-out/moved-tasklet synth-out/moved-bh-work \
	-o out/synth/compare-moved
run synth/history-add history add -S synth-out/h.db synth-out/moved-tasklet synth-out/moved-bh-work
run synth/history-moved history -S synth-out/h.db -m 'moved:*:p50'

if [ $update = 1 ]; then
	rm -rf "$GOLDEN"
	mkdir -p "$GOLDEN"
	cp -r "$out"/. "$GOLDEN"/
	rm -rf "$GOLDEN/analyze"	# its expected files are the capture's own
	echo "golden: rewrote $GOLDEN from $DB; review 'git diff $GOLDEN' before committing"
	exit 0
fi

fail=0
# analyze must write what the live capture wrote; intervals.csv gained rows since the
# fixture was recorded (a workqueue item's activate_wait and worker_wait, the thread
# wakeups, a softirq delay's origin and BH-disabling tasks, per interval): the rest must
# be the live file's, and the new rows agree with the delay's and with summary.json's
grep -v ',"activate_wait",\|,"worker_wait",\|^[0-9]*,[0-9.]*,"wakeup",\|,"origin",\|,"bh_task",' \
	"$out/analyze/intervals.csv" > "$work/iv-then.csv"
cp "$work/iv-then.csv" "$out/analyze/intervals-then.csv"
for f in summary.json softirq.csv workqueue.csv contexts.csv softirq_wait.csv histograms.csv \
	intervals.csv:intervals-then.csv; do
	if ! cmp -s "$work/cap/${f%%:*}" "$out/analyze/${f#*:}"; then
		echo "golden: FAIL analyze cap: ${f%%:*} differs from the live capture's" >&2
		fail=1
	fi
done
# per group and interval: as many worker_wait as activate_wait samples, at most the
# delay's; and some there are (the tty capture's flush_to_ldisc items)
if ! awk -F, '$3 == "\"workqueue\"" { k = $1 FS $4 FS $5 FS $6; n[k, $7] = $8 }
	END { for (kk in n) { split(kk, a, SUBSEP); k = a[1]
		if (a[2] == "\"worker_wait\"") { w++
			if (n[k, "\"activate_wait\""] != n[kk] || n[kk] > n[k, "\"delay\""]) bad++ } }
	      exit !(w > 0 && !bad) }' "$out/analyze/intervals.csv"; then
	echo "golden: FAIL analyze cap: intervals.csv's worker_wait rows disagree with" \
		"activate_wait and delay, or there are none" >&2
	fail=1
fi
# the wakeups of each ksoftirqd and worker pool, summed over the intervals: summary.json's
awk -F, '$3 == "\"wakeup\"" { gsub(/"/, ""); n[$4 " " $6] += $8 }
	END { for (k in n) print k, n[k] }' "$out/analyze/intervals.csv" | sort > "$work/wake-iv"
jq -r '.thread_wakeup | (.ksoftirqd[] | "ksoftirqd \(.cpu) \(.wakeup_ns.count)"),
	(.workers[] | "worker \(.pool) \(.wakeup_ns.count)")' "$out/analyze/summary.json" |
	awk '$3 > 0' | sort > "$work/wake-sum"
if ! [ -s "$work/wake-sum" ] || ! cmp -s "$work/wake-iv" "$work/wake-sum"; then
	echo "golden: FAIL analyze cap: intervals.csv's wakeups do not sum to summary.json's:" >&2
	diff "$work/wake-sum" "$work/wake-iv" >&2
	fail=1
fi
# wait_sums DIR WHAT - a vector's delays by origin and its tasks' BH-disabled parts in
# DIR/intervals.csv, summed over the intervals, are DIR/summary.json's raised_in and
# bh_tasks (counts; the sums to a nanosecond a row)
wait_sums() {
	awk -F, '$3 == "\"softirq_wait\"" && ($7 == "\"origin\"" || $7 == "\"bh_task\"") {
			gsub(/"/, ""); k = $7 " " $4 " " $5; n[k] += $8; s[k] += $8 * $10; r[k]++ }
		END { for (k in n) printf "%s %d %.0f %d\n", k, n[k], s[k], r[k] }' \
		"$1/intervals.csv" | sort > "$work/wait-iv"
	jq -r '.softirq_wait[] | .vector as $v |
		(.raised_in[] | select(.delays > 0) |
		 "origin \($v) \(.origin) \(.delays) \(.total_ns)"),
		(.bh_tasks[] | "bh_task \($v) \(.task) \(.delays) \(.total_ns)")' \
		"$1/summary.json" | sort > "$work/wait-sum"
	if ! [ -s "$work/wait-sum" ] || ! awk 'NR == FNR { k = $1 " " $2 " " $3
			n[k] = $4; s[k] = $5; next }
		{ k = $1 " " $2 " " $3; d = $5 - s[k]; if (d < 0) d = -d
		  if (n[k] != $4 || d > $6) bad++; delete n[k] }
		END { for (k in n) bad++; exit bad > 0 }' "$work/wait-sum" "$work/wait-iv"; then
		echo "golden: FAIL $2: intervals.csv's origins and BH tasks do not sum to" \
			"summary.json's:" >&2
		diff "$work/wait-sum" "$work/wait-iv" >&2
		fail=1
	fi
}
wait_sums "$out/analyze" "analyze cap"
# the irq thread's BH sections hold NET_RX back: its tasks are there
wait_sums "$work/synth-out/irq-thread-softirq" "synth irq-thread-softirq"
grep -q '^[0-9]*,[0-9.]*,"softirq_wait","NET_RX","irq/40-eth0","","bh_task",' \
	"$work/synth-out/irq-thread-softirq/intervals.csv" ||
	{ echo "golden: FAIL synth irq-thread-softirq: intervals.csv lacks irq/40-eth0's" \
		"BH-disabled parts" >&2; fail=1; }
rm -rf "$out/analyze"
if ! diff -r "$GOLDEN" "$out" > "$work/diff"; then
	echo "golden: FAIL: outputs differ from $GOLDEN (first lines below); if the change is" \
		"intended, run 'make golden-update' and review the diff" >&2
	head -40 "$work/diff" >&2
	fail=1
fi
[ $fail = 0 ] && echo "== golden: analyze, report and compare outputs match ($(find "$GOLDEN" -type f | wc -l) files)"
exit $fail
