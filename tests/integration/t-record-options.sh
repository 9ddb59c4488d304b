#!/bin/sh
# t-record-options.sh - record's options do what they say: --interval sets the width of
# intervals.csv's intervals (which add up to the whole capture's counts); --no-sched
# leaves sched_switch/sched_wakeup off in the instance and out of the results, where
# they are otherwise on and counted; --force replaces an earlier record's results (and
# only with it: without, exit 1 and the old results stay).
. tests/integration/lib.sh
need_root_tracefs
command -v jq >/dev/null 2>&1 || skip "jq is not installed (ci/install-deps.sh)"
mktemp_dir T

# sched_enabled PID - the sched_switch enable file of PID's instance, once it exists
sched_enabled() {
	cat $TRACEFS/instances/deferbench-$1/events/sched/sched_switch/enable 2>/dev/null
}

# watched PID OUT - the capture of PID runs until the test has looked at its instance:
# no duration that could end before the test sees it; SIGINT once seen
watched() {
	wait_for capturing $1 || fail "no capture deferbench-$1: $(cat "$2")"
}

# --interval 200ms, with sched events (the default), watched while it runs
$DB record -i 200ms -o "$T/iv" > "$T/iv.out" 2>&1 &
pid=$!
watched $pid "$T/iv.out"
[ "$(sched_enabled $pid)" = 1 ] || fail "sched_switch is off without --no-sched"
sleep 1.5	# something to record: not a synchronisation
kill -INT $pid
wait $pid || fail "record -i 200ms exited $?: $(cat "$T/iv.out")"
J=$T/iv/summary.json
[ "$(jq -r .meta.interval_s "$J")" = 0.2 ] || fail "meta.interval_s is $(jq -r .meta.interval_s "$J")"
# every interval starts at a multiple of 200 ms, and there is one per 200 ms traced
awk -F, 'NR > 1 && sprintf("%.3f", $1 * 0.2) != $2 { print; bad = 1 } END { exit bad }' \
	"$T/iv/intervals.csv" >&2 || fail "intervals.csv: an interval not at index x 200 ms"
n=$(awk -F, 'NR > 1 { print $1 }' "$T/iv/intervals.csv" | sort -un | wc -l)
want=$(jq -r '.meta.duration_s / 0.2 | ceil' "$J")
within "intervals" "$n" $((want - 1)) "$want"
# the intervals hold the same samples as the whole capture
sum=$(awk -F, '$3 == "\"softirq\"" && $4 == "\"TIMER\"" && $7 == "\"delay\"" { s += $8 }
	END { print s + 0 }' "$T/iv/intervals.csv")
[ "$sum" = "$(jq '.softirq[] | select(.vector == "TIMER" and .cpu == -1) | .delay_ns.count' "$J")" ] ||
	fail "TIMER delays: $sum in intervals.csv, not the capture's count"
sum=$(awk -F, '$3 == "\"workqueue\"" && $7 == "\"delay\"" { s += $8 } END { print s + 0 }' \
	"$T/iv/intervals.csv")
[ "$sum" = "$(jq '[.workqueue[] | .delay_ns.count] | add // 0' "$J")" ] ||
	fail "workqueue delays: $sum in intervals.csv, not the capture's count"
[ "$(jq -r '.capture.events_by_kind["sched:sched_switch"]' "$J")" -gt 0 ] ||
	fail "no sched_switch event counted with sched events on"

# --no-sched: the instance never enables them, the results hold none
$DB record --no-sched -o "$T/ns" > "$T/ns.out" 2>&1 &
pid=$!
watched $pid "$T/ns.out"
[ "$(sched_enabled $pid)" = 0 ] || fail "sched_switch is on with --no-sched"
sleep 1		# something to record: not a synchronisation
kill -INT $pid
wait $pid || fail "record --no-sched exited $?: $(cat "$T/ns.out")"
J=$T/ns/summary.json
for e in sched_switch sched_wakeup; do
	[ "$(jq -r ".capture.events_by_kind[\"sched:$e\"]" "$J")" = 0 ] || fail "--no-sched counted $e"
done
[ "$(jq '[.thread_wakeup // {} | .[] | length] | add // 0' "$J")" = 0 ] ||
	fail "--no-sched: thread_wakeup has data: $(jq -c .thread_wakeup "$J")"
[ "$(jq -r .capture.events "$J")" -gt 0 ] || fail "--no-sched recorded no event at all"

# --force: refused without it, the old results untouched; with it, replaced
cp "$T/ns/summary.json" "$T/ns-summary.json"
expect_message "$T/f.out" "already holds results" $DB record -d 1s -o "$T/ns"
cmp -s "$T/ns/summary.json" "$T/ns-summary.json" || fail "a refused record changed the results"
expect_exit 0 "$T/f.out" $DB record -d 1s -i 500ms -o "$T/ns" --force
[ "$(jq -r .meta.interval_s "$T/ns/summary.json")" = 0.5 ] || fail "--force did not replace summary.json"
jq -r .meta.command "$T/ns/summary.json" | grep -q -- '--force' || fail "summary.json is not the new one"
for f in softirq.csv workqueue.csv histograms.csv intervals.csv; do
	assert_file "$T/ns/$f"
done
[ "$(jq -r '.capture.events_by_kind["sched:sched_switch"]' "$T/ns/summary.json")" -gt 0 ] ||
	fail "the replaced results are still the --no-sched ones"
ls -d "$T"/ns.partial-* 2>/dev/null && fail "a staging directory was left"
no_leftover_instances
exit 0
