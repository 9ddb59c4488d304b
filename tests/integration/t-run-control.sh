#!/bin/sh
# t-run-control.sh - control = yes: every cell has an untraced twin beside it, in
# alternating order; the twin has the workload's files and no capture; the report judges
# traced against untraced ("Capture effect", tables/observer.csv, a Findings line);
# nothing else counts the twins (cells of compare, the store). Also: record's cost lines
# and the kernel-side filter of scheduler events.
. tests/integration/lib.sh
. tests/integration/load-lib.sh
need_root_tracefs
need_root_jq
mktemp_dir T
cat > $T/s.ini <<EOS
[global]
duration = 1s
warmup = 200ms
repetitions = 2
interval = 250ms
control = yes
[workload tty]
type = tty
rate = 500
configs = baseline
[config baseline]
EOS
$DB run -o $T/r $T/s.ini > $T/log 2>&1 || fail "run failed: $(cat $T/log)"

# run order: rep 1 untraced first, rep 2 traced first
order=$(jq -r '[.cells[] | .id] | join(" ")' $T/r/run.json)
[ "$order" = "tty--baseline--r1--control tty--baseline--r1 tty--baseline--r2 tty--baseline--r2--control" ] ||
	fail "cell order: $order"
[ "$(jq '[.cells[] | select(.control == true)] | length' $T/r/run.json)" = 2 ] ||
	fail "run.json does not mark the two control cells"
C=$T/r/cells/tty--baseline--r1--control
[ -f $C/workload.json ] || fail "a control cell has no workload.json"
[ ! -e $C/summary.json ] || fail "a control cell has a capture (summary.json)"
[ "$(jq -r .control $C/cell.json)" = true ] || fail "cell.json of a control cell says nothing"
[ "$(jq -r .seed $C/cell.json)" = "$(jq -r .seed $T/r/cells/tty--baseline--r1/cell.json)" ] ||
	fail "a control cell and its twin have different seeds"

$DB report --no-plots $T/r > $T/rep.log 2>&1 || fail "report: $(cat $T/rep.log)"
grep -q '^## Capture effect' $T/r/report.md || fail "no Capture effect section"
grep -q '^- capture effect: ' $T/r/report.md || fail "no capture effect finding"
# "no metric moved" says how large a move the comparisons could have seen
grep -q '^- capture effect: \(WARNING\|no primary .*; they detect [0-9.]*-[0-9.]*%;\)' $T/r/report.md ||
	{ grep '^- capture effect' $T/r/report.md; fail "the capture effect finding does not say what it detects"; }
grep -q '| tty | baseline | \\\* | workload:delivery:p90 |' $T/r/report.md ||
	fail "the capture effect table lacks tty delivery p90"
python3 - $T/r/tables/observer.csv <<'EOF' || fail "tables/observer.csv is not what the report promises"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert list(rows[0])[:6] == ["workload", "config", "metric", "primary", "untraced_ns",
                             "traced_ns"], list(rows[0])
r = {x["metric"]: x for x in rows}["workload:delivery:p50"]
# tty's p50, p90 and p99 delivery are primary (workloads/tty.c)
assert r["workload"] == "tty" and r["primary"] == "1", r
assert r["reps_untraced"] == "2" and r["reps_traced"] == "2", r
assert float(r["untraced_ns"]) > 0 and float(r["traced_ns"]) > 0, r
# what the comparison would have caught, beside its verdict: a positive, finite size
# (two repetitions a side read with Student's t on one degree of freedom can make it
# huge beside a CPU load: interval [0.709, 10012] once, detects far beyond x100)
assert 0 < float(r["detects"]) < float("inf"), r
assert not any(x["metric"].startswith(("softirq:", "wq:", "wakeup:")) for x in rows)
EOF
grep -q 'tty--baseline--r1--control | ok (control: not traced)' $T/r/report.md ||
	fail "the cells table does not show the control cell as untraced"
# compare sees two traced repetitions per side, never the twins
$DB compare --wide --no-files --allow-undecided $T/r $T/r > $T/cmp.log 2>&1 ||
	fail "compare: $(cat $T/cmp.log)"
grep -q 'workload:delivery:p50 .* 2/2 ' $T/cmp.log || fail "compare counted control cells: $(grep delivery:p50 $T/cmp.log)"
# --quick turns control cells off
$DB run --dry-run --quick $T/s.ini > $T/dry.log 2>&1 || fail "dry run"
grep -q ', 1 cells' $T/dry.log || fail "--quick kept control cells: $(head -1 $T/dry.log)"

# record: its cost, and the sched events of deferred work's threads only by default
$DB record -d 1s -o $T/rec -- $DB load tty -d 1s > $T/rec.log 2>&1 || fail "record: $(cat $T/rec.log)"
grep -q '^capture cost: .* of one CPU, .* per million events; sched events: deferred$' $T/rec.log ||
	fail "record does not print its cost: $(grep cost $T/rec.log)"
grep -q '^events/s per CPU: cpu0 ' $T/rec.log || fail "record does not print events per CPU"
[ "$(jq -r .meta.sched_events $T/rec/summary.json)" = deferred ] ||
	fail "summary.json meta.sched_events: $(jq -r .meta.sched_events $T/rec/summary.json)"
$DB record --sched-all --no-sched -d 1s > $T/both.log 2>&1 && fail "--sched-all --no-sched accepted"
grep -q 'contradict' $T/both.log || fail "--sched-all --no-sched: $(cat $T/both.log)"
$DB record --capture-cpus 999 -d 1s > $T/cpus.log 2>&1 && fail "--capture-cpus 999 accepted"
grep -q -- '--capture-cpus' $T/cpus.log || fail "--capture-cpus 999: $(cat $T/cpus.log)"
no_leftover_instances
echo "   ok: control cells, capture effect, record cost and filters"
