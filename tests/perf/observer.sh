#!/bin/bash
# observer.sh - 'make observer': where the capture's disturbance of a workload comes
# from, one event group at a time. A benchmark, not a test: it prints figures and fails
# only if it cannot measure.
#
# The workload (default: deferbench load net rate=2000, 3 s) runs OBS_PAIRS times
# (default 5) with an event group enabled and as often without, the order alternating
# within each pair, and the median over the pairs of (traced / untraced) of each of its
# metrics' p50 and p99 is printed per group. The groups are enabled in a tracefs
# instance of this script's own (overwrite on, nobody reading it), so each figure is
# the cost of the tracepoints firing and writing into the ring buffer alone:
#   softirq    irq:softirq_raise/entry/exit
#   workqueue  workqueue:workqueue_queue_work/activate_work/execute_start/execute_end
#   sched      sched:sched_switch/sched_wakeup with deferbench's filter (deferred work's
#              threads only): the events the filter drops still run it
#   sched-all  the same without the filter (record --sched-all)
#   hardirq    irq:irq_handler_entry/exit, irq_vectors:local_timer_entry/exit
#   napi       napi:napi_poll
#   tasklet    irq:tasklet_entry/exit
# and then 'record', the whole of deferbench record (every group, the default filter,
# the reader and analysis threads): what a run's capture costs.
# OBS_GROUPS picks groups (space-separated), OBS_WORKLOAD and OBS_ARGS the workload.
# Needs root and tracefs; the instance is removed on every exit.
set -eu
cd "$(dirname "$0")/../.."
DB=$(pwd)/deferbench
PAIRS=${OBS_PAIRS:-5}
SECS=${OBS_SECONDS:-3}
WL=${OBS_WORKLOAD:-net}
ARGS=${OBS_ARGS:-rate=2000}
GROUPS_WANTED=${OBS_GROUPS:-softirq workqueue sched sched-all hardirq napi tasklet record}
OUT=build/observer
TR=/sys/kernel/tracing
INST=$TR/instances/deferbench-$$

die() {
	echo "observer: $*" >&2
	exit 1
}

[ "$(id -u)" -eq 0 ] || die "needs root (it enables trace events and runs workloads)"
[ -d "$TR/instances" ] || die "tracefs is not mounted at $TR (mount -t tracefs nodev $TR)"
[ -x "$DB" ] || die "build deferbench first (make)"
case $PAIRS in ''|*[!0-9]*|0) die "OBS_PAIRS=$PAIRS: want a positive whole number" ;; esac

cleanup() {
	if [ -d "$INST" ]; then
		echo 0 > "$INST/tracing_on" 2>/dev/null || true
		echo > "$INST/set_event" 2>/dev/null || true
		for f in "$INST"/events/sched/sched_switch/filter "$INST"/events/sched/sched_wakeup/filter; do
			[ -e "$f" ] && echo 0 > "$f" 2>/dev/null || true
		done
		rmdir "$INST" 2>/dev/null || echo "observer: could not remove $INST" >&2
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# the filter deferbench's capture sets (bench/trace/capture.c, DEFERRED_COMMS)
comms() {
	echo "$1 ~ \"kworker/*\" || $1 ~ \"ksoftirqd/*\" || $1 ~ \"napi/*\" || $1 ~ \"irq/*\""
}

# events GROUP - "system/event" lines of a group
events() {
	case $1 in
	softirq) printf 'irq/softirq_raise\nirq/softirq_entry\nirq/softirq_exit\n' ;;
	workqueue) printf 'workqueue/workqueue_queue_work\nworkqueue/workqueue_activate_work\nworkqueue/workqueue_execute_start\nworkqueue/workqueue_execute_end\n' ;;
	sched|sched-all) printf 'sched/sched_switch\nsched/sched_wakeup\n' ;;
	hardirq) printf 'irq/irq_handler_entry\nirq/irq_handler_exit\nirq_vectors/local_timer_entry\nirq_vectors/local_timer_exit\n' ;;
	napi) printf 'napi/napi_poll\n' ;;
	tasklet) printf 'irq/tasklet_entry\nirq/tasklet_exit\n' ;;
	*) return 1 ;;
	esac
}

# enable GROUP - the group's events on, in the instance, tracing on
enable() {
	local e
	echo 0 > "$INST/tracing_on"
	echo > "$INST/set_event"
	echo > "$INST/trace"
	for e in $(events "$1"); do
		[ -d "$INST/events/$e" ] || { echo "  (this kernel has no $e)"; continue; }
		if [ "$1" = sched ]; then
			case $e in
			*/sched_switch) echo "$(comms prev_comm) || $(comms next_comm)" > "$INST/events/$e/filter" ;;
			*/sched_wakeup) comms comm > "$INST/events/$e/filter" ;;
			esac
		elif [ "$1" = sched-all ]; then
			echo 0 > "$INST/events/$e/filter"
		fi
		echo 1 > "$INST/events/$e/enable"
	done
	echo 1 > "$INST/tracing_on"
}

# written - events the instance took since enable (kept and overwritten, all CPUs)
written() {
	cat "$INST"/per_cpu/cpu*/stats | awk '/^entries:|^overrun:/ { n += $2 } END { print n + 0 }'
}

# once DIR TRACED GROUP - one run of the workload into DIR, traced by GROUP or not
once() {
	rm -rf "$1"
	if [ "$2" = 1 ] && [ "$3" = record ]; then
		"$DB" record --force -o "$1.rec" -- "$DB" load "$WL" -d "${SECS}s" -o "$1" $ARGS \
			> "$1.log" 2>&1
	else
		[ "$2" = 1 ] && enable "$3"
		"$DB" load "$WL" -d "${SECS}s" -o "$1" $ARGS > "$1.log" 2>&1
		if [ "$2" = 1 ]; then
			echo 0 > "$INST/tracing_on"
			echo "$(written)" > "$1.events"
			echo > "$INST/set_event"
		fi
	fi || die "the workload failed: $(tail -3 "$1.log")"
}

mkdir -p "$OUT"
mkdir "$INST" || die "cannot create the tracefs instance $INST"
echo 1 > "$INST/options/overwrite"
echo 1024 > "$INST/buffer_size_kb"
echo mono > "$INST/trace_clock"
echo "observer: $WL $ARGS, ${SECS}s runs, $PAIRS traced/untraced pairs per group, on $(uname -r)"
for g in $GROUPS_WANTED; do
	[ "$g" = record ] || events "$g" > /dev/null || die "unknown group '$g' (groups: softirq workqueue sched sched-all hardirq napi tasklet record)"
	for p in $(seq 1 "$PAIRS"); do
		# alternate which side goes first
		if [ $((p % 2)) = 1 ]; then
			once "$OUT/$g-$p-on" 1 "$g"
			once "$OUT/$g-$p-off" 0 "$g"
		else
			once "$OUT/$g-$p-off" 0 "$g"
			once "$OUT/$g-$p-on" 1 "$g"
		fi
	done
	python3 - "$OUT" "$g" "$PAIRS" "$SECS" <<'EOF'
import json, os, statistics as st, sys
out, g, pairs, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
def metrics(d):
    return {m["name"]: m for m in json.load(open(os.path.join(d, "workload.json")))["metrics"]}
rows, evs = {}, []
for p in range(1, pairs + 1):
    on, off = metrics(f"{out}/{g}-{p}-on"), metrics(f"{out}/{g}-{p}-off")
    ev = f"{out}/{g}-{p}-on.events"
    if os.path.exists(ev):
        evs.append(int(open(ev).read()) / secs)
    else:
        s = json.load(open(f"{out}/{g}-{p}-on.rec/summary.json"))
        evs.append(s["capture"]["events"] / s["meta"]["duration_s"])
    for name in on:
        if name not in off or not on[name].get("count"):
            continue
        for q in ("p50", "p99"):
            a, b = on[name].get(q), off[name].get(q)
            if a and b:
                rows.setdefault((name, q), []).append((a / b, a, b))
line = []
for (name, q), r in sorted(rows.items()):
    med = st.median(x[0] for x in r)
    line.append(f"{name} {q} {med:.3f} ({st.median(x[2] for x in r) / 1e3:.1f} -> {st.median(x[1] for x in r) / 1e3:.1f} us)")
print(f"observer: {g:9} {st.median(evs):9.0f} events/s | " + "; ".join(line), flush=True)
EOF
done
echo "observer: traced / untraced, median over $PAIRS pairs (median untraced -> traced); runs in $OUT"
