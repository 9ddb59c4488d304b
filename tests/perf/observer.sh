#!/bin/bash
# observer.sh - 'make observer': where the capture's disturbance of a workload comes
# from, one event group at a time. A benchmark, not a test: it prints figures and fails
# only if it cannot measure.
#
# The workload (default: deferbench load net rate=2000, 3 s) runs OBS_PAIRS times
# (default 7) with an event group enabled and as often without, the order alternating
# within each pair, each round running one pair of every group; per group, the median
# and quartiles over the pairs of (traced / untraced) of each of its metrics' p50 and
# p99 are printed. The groups are enabled in a tracefs instance of this script's own
# (overwrite on, nobody reading it, made with record-cmd off like record's), so each
# figure is the cost of the tracepoints firing and writing into the ring buffer alone:
#   softirq    irq:softirq_raise/entry/exit
#   workqueue  workqueue:workqueue_queue_work/activate_work/execute_start/execute_end
#   sched      sched:sched_switch/sched_wakeup with deferbench's filter (deferred work's
#              threads only): the events the filter drops still run it
#   sched-all  the same without the filter (record --sched-all)
#   hardirq    irq:irq_handler_entry/exit, irq_vectors:local_timer_entry/exit
#   napi       napi:napi_poll
#   tasklet    irq:tasklet_entry/exit
#   stacks     the softirq group and record --stacks's trigger: a kernel stack after each
#              softirq_entry of NET_RX, BLOCK and TIMER (stacktrace if vec == ...)
#   none       nothing: both sides untraced, the spread of a pair on this machine
# and then 'record', the whole of deferbench record (every group, the default filter,
# the reader and analysis threads): what a run's capture costs.
# First, the price of one event: build/tests/evgen (pipe ping-pong between two
# processes, a pty write every fourth round trip), both on CPU 0, runs 2 s as fast as it
# can with the sched-all, sched and workqueue groups on and off (and 'none': both off,
# the noise), 7 alternating pairs each; the time a round trip gained, divided by the
# events written per round trip, is the cost of one event on the critical path (for the
# filtered sched group the events the filter dropped are in the price too).
# 'pathcost' prices each group and record's whole set ('capture', also on the trace clocks
# local and x86-tsc, and 'capture+stacks': with record --stacks's trigger) the same way
# on evgen's UDP ping-pong over loopback: the net
# workload's path (NET_RX softirqs, NAPI polls, wakeups, switches) on one CPU, and on
# evgen's pty write and read (the tty workload's flush_to_ldisc delivery).
# Last, the capture on and off within one run (see alternate() below): net, tty and
# timer each run 120 s under 'deferbench record' while build/tests/evtoggle turns the
# capture's events off and on in 1 s phases; tests/perf/alternate.py compares the
# workload's traced intervals with its untraced ones.
# Then 'recordcost': the whole of record on a pinned pipe ping-pong (evgen without its
# pty writes on CPU 0, record --capture-cpus 1, with the filter and --sched-all), 6
# alternating rounds; OBS_DB=PATH runs
# another deferbench binary there (e.g. an older commit's, to compare).
# OBS_PARTS picks parts (default "price pathcost recordcost groups alternate"), OBS_GROUPS groups
# (space-separated), OBS_WORKLOAD and OBS_ARGS the workload of the groups part;
# OBS_PATH_GROUPS the groups pathcost prices on the UDP ping-pong, OBS_PATH_TTY_GROUPS on
# the pty ("": none), e.g. "none capture capture+stacks" and "" for --stacks' cost alone;
# OBS_ALT_SECONDS (120), OBS_ALT_WORKLOADS (net tty timer), OBS_ALT_RECORD (more record
# options, e.g. --capture-cpus 1) and OBS_ALT_CAPTURE=instance (record's events and
# filter in this script's instance, nobody reading: the tracepoints alone; with
# OBS_ALT_GROUPS only those groups) the last. OBS_CLOCK: the trace clock of this
# script's instance (default mono, record's).
# Needs root and tracefs; the instance is removed on every exit.
set -eu
cd "$(dirname "$0")/../.."
DB=${OBS_DB:-$(pwd)/deferbench}
PAIRS=${OBS_PAIRS:-7}
SECS=${OBS_SECONDS:-3}
WL=${OBS_WORKLOAD:-net}
ARGS=${OBS_ARGS:-rate=2000}
GROUPS_WANTED=${OBS_GROUPS:-none softirq workqueue sched sched-all hardirq napi tasklet record}
PARTS=${OBS_PARTS:-price pathcost recordcost groups alternate}
ALT_SECS=${OBS_ALT_SECONDS:-120}
ALT_RECORD=${OBS_ALT_RECORD:-}
ALT_CAPTURE=${OBS_ALT_CAPTURE:-record}
ALT_GROUPS=${OBS_ALT_GROUPS:-softirq workqueue sched hardirq napi tasklet}
CLOCK=${OBS_CLOCK:-mono}
OUT=build/observer
TR=/sys/kernel/tracing
# not deferbench-PID: record would take it for a dead run's instance and remove it
INST=$TR/instances/observer-$$

die() {
	echo "observer: $*" >&2
	exit 1
}

[ "$(id -u)" -eq 0 ] || die "needs root (it enables trace events and runs workloads)"
[ -d "$TR/instances" ] || die "tracefs is not mounted at $TR (mount -t tracefs nodev $TR)"
[ -x "$DB" ] || die "build deferbench first (make)"
EVGEN=$(pwd)/build/tests/evgen
[ -x "$EVGEN" ] || die "build $EVGEN first (make build/tests/evgen)"
EVTOGGLE=$(pwd)/build/tests/evtoggle
[ -x "$EVTOGGLE" ] || die "build $EVTOGGLE first (make build/tests/evtoggle)"
case $PAIRS in ''|*[!0-9]*|0) die "OBS_PAIRS=$PAIRS: want a positive whole number" ;; esac

# the trigger of record --stacks (bench/capture/instance.c), on its default vectors
STACKS_TRIGGER='stacktrace if vec == 1 || vec == 3 || vec == 4'

cleanup() {
	[ -z "${RECORD_CMD:-}" ] || echo "$RECORD_CMD" > "$TR/options/record-cmd" 2>/dev/null || true
	if [ -d "$INST" ]; then
		echo 0 > "$INST/tracing_on" 2>/dev/null || true
		echo "!$STACKS_TRIGGER" > "$INST/events/irq/softirq_entry/trigger" 2>/dev/null || true
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

# the filter deferbench's capture sets (bench/capture/instance.c, DEFERRED_COMMS)
comms() {
	echo "$1 ~ \"[bknir]*/*\""
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
	stacks) events softirq ;;
	none) ;;
	*) return 1 ;;
	esac
}

# add_group GROUP - the group's events on in the instance, sched with deferbench's filter
add_group() {
	local e
	for e in $(events "$1"); do
		[ -d "$INST/events/$e" ] || { echo "  (this kernel has no $e)"; continue; }
		if [ "$1" = sched ]; then
			case $e in
			*/sched_switch) echo "$(comms next_comm) || $(comms prev_comm)" > "$INST/events/$e/filter" ;;
			*/sched_wakeup) comms comm > "$INST/events/$e/filter" ;;
			esac
		elif [ "$1" = sched-all ]; then
			echo 0 > "$INST/events/$e/filter"
		fi
		echo 1 > "$INST/events/$e/enable"
	done
	[ "$1" = stacks ] && echo "$STACKS_TRIGGER" > "$INST/events/irq/softirq_entry/trigger"
	return 0
}

# enable GROUP[@CLOCK] - only the group's events on, in the instance, tracing on (on that
# trace clock); the group 'capture' is every group of record's with its filter
enable() {
	local g=${1%@*} c=$CLOCK
	case $1 in *@*) c=${1#*@} ;; esac
	echo 0 > "$INST/tracing_on"
	echo > "$INST/set_event"
	echo "!$STACKS_TRIGGER" > "$INST/events/irq/softirq_entry/trigger" 2>/dev/null || true
	echo > "$INST/trace"
	echo "$c" > "$INST/trace_clock" || die "$1: no trace clock '$c' in this kernel"
	if [ "$g" = capture ] || [ "$g" = capture+stacks ]; then
		for g in softirq workqueue sched hardirq napi tasklet; do
			add_group "$g" > /dev/null
		done
		[ "${1%@*}" = capture+stacks ] && add_group stacks > /dev/null
	else
		add_group "$g"
	fi
	echo 1 > "$INST/tracing_on"
}

# clear_events - no event on in the instance, and no trigger: a trigger keeps softirq_entry
# firing (the kernel's soft mode) with its events off, and the stacktrace trigger
# unwinds the stack before it finds tracing off, so an untraced run must not keep it
clear_events() {
	echo > "$INST/set_event"
	echo "!$STACKS_TRIGGER" > "$INST/events/irq/softirq_entry/trigger" 2>/dev/null || true
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
			clear_events
		fi
	fi || die "the workload failed: $(tail -3 "$1.log")"
}

mkdir -p "$OUT"
# made with record-cmd off, as record makes its own (bench/capture/instance.c), and the
# option put back at once (and by cleanup, should mkdir fail)
RECORD_CMD=$(cat "$TR/options/record-cmd" 2>/dev/null || echo "")
[ -z "$RECORD_CMD" ] || echo 0 > "$TR/options/record-cmd"
mkdir "$INST" || die "cannot create the tracefs instance $INST"
[ -z "$RECORD_CMD" ] || echo "$RECORD_CMD" > "$TR/options/record-cmd"
echo 1 > "$INST/options/overwrite"
echo 1024 > "$INST/buffer_size_kb"
echo "$CLOCK" > "$INST/trace_clock" || die "OBS_CLOCK=$CLOCK: not a trace clock of this kernel ($(cat "$TR/trace_clock"))"
# evgen_rounds [SECONDS [RATE [MODE]]] - round trips of an evgen run (default 2 s), both
# of its processes on CPU 0: a round trip on one CPU (two wakeups and two switches, no
# IPI) varies far less than across two
evgen_rounds() {
	taskset -c 0 "$EVGEN" "${@:-2}" | sed -n 's/^evgen: \([0-9]*\) round trips.*/\1/p'
}

# start_record LOG ARGS... - 'deferbench record ARGS' in the background, once its capture
# runs; its pid in REC
start_record() {
	local log=$1
	shift
	"$DB" record "$@" > "$log" 2>&1 &
	REC=$!
	for _ in $(seq 50); do
		[ "$(cat "$TR/instances/deferbench-$REC/tracing_on" 2>/dev/null)" = 1 ] && return 0
		sleep 0.1
	done
	die "record did not start: $(cat "$log")"
}

has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

# price TITLE EVGEN-MODE GROUP... - per group, 7 pairs of evgen runs (2 s, on CPU 0) with
# the group's events on and off, alternating which goes first; prints the median time a
# round trip gained and, divided by the events written per round trip, the price of one
# event on the path (for the filtered sched group the events the filter dropped are in
# the price too). GROUP@CLOCK: the group with the instance on that trace clock.
price() {
	local title=$1 mode=$2 g p on off ev
	shift 2
	echo "observer: $title, evgen${mode:+ $mode} on CPU 0 for 2 s, 7 pairs per group, on $(uname -r)"
	for g in "$@"; do
		for p in 1 2 3 4 5 6 7; do
			if [ $((p % 2)) = 1 ]; then
				off=$(evgen_rounds 2 0 $mode)
				enable "$g"; on=$(evgen_rounds 2 0 $mode); echo 0 > "$INST/tracing_on"; ev=$(written)
			else
				enable "$g"; on=$(evgen_rounds 2 0 $mode); echo 0 > "$INST/tracing_on"; ev=$(written)
				off=$(evgen_rounds 2 0 $mode)
			fi
			clear_events
			echo "$on $off $ev"
		done | awk -v g="$g" '
			{ t_on = 2e9 / $1; t_off = 2e9 / $2; per = $3 / $1
			  c[NR] = per > 0 ? (t_on - t_off) / per : 0; e[NR] = per; d[NR] = t_on - t_off
			  o[NR] = t_off; n = NR }
			function med(a,   i, j, t, b) { for (i = 1; i <= n; i++) b[i] = a[i]
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (b[j] < b[i]) { t = b[i]; b[i] = b[j]; b[j] = t }
				return b[int((n + 1) / 2)] }
			END { printf "observer: %-15s %5.1f events per round trip, %+5.0f ns per round trip (%+5.1f%%; untraced %.0f ns)", g, med(e), med(d), 100 * med(d) / med(o), med(o)
			      if (med(e) > 0.5) printf ": %4.0f ns per event written", med(c)
			      printf " (median of %d pairs)\n", n }'
	done
	echo "$CLOCK" > "$INST/trace_clock"
}

has price && price "the price of one event" "" none sched-all sched workqueue
# the net workload's path on one CPU: per round trip two NET_RX softirqs (raise, entry,
# a backlog NAPI poll, exit), two wakeups and two switches; 'capture' is record's set
if has pathcost; then
	grep -qw x86-tsc "$TR/trace_clock" && tsc=capture@x86-tsc || tsc=
	price "the price of each event group on a UDP ping-pong over loopback" udp \
		${OBS_PATH_GROUPS:-none softirq stacks napi sched sched-all capture capture+stacks \
		capture@local $tsc}
	# the tty workload's delivery: a flush_to_ldisc work item per round trip, run by a
	# kworker (unbound: on either CPU), the reader woken
	tty_groups=${OBS_PATH_TTY_GROUPS-none workqueue sched capture capture@local}
	[ -z "$tty_groups" ] ||
		price "the price of each event group on a pty write and read" tty $tty_groups
fi

# pipe_rt [RECORD ARGS...] - ns per round trip of evgen (pipe only, 1 s) on CPU 0,
# untraced or under 'record --capture-cpus 1 ARGS'
pipe_rt() {
	local REC=
	if [ "${1:-}" = record ]; then
		shift
		start_record "$OUT/recordcost.log" --capture-cpus 1 -d 30s --force -o "$OUT/recordcost" "$@"
	fi
	evgen_rounds 1 0 pipe | awk '{ printf "%.0f\n", 1e9 / $1 }'
	if [ -n "$REC" ]; then
		kill -INT $REC
		wait $REC || die "record failed: $(tail -3 "$OUT/recordcost.log")"
	fi
}

if has recordcost; then
	echo "observer: record on a pipe ping-pong pinned to CPU 0 (record --capture-cpus 1), 6 rounds"
	for p in 1 2 3 4 5 6; do
		if [ $((p % 2)) = 1 ]; then
			off=$(pipe_rt); on=$(pipe_rt record); all=$(pipe_rt record --sched-all)
		else
			all=$(pipe_rt record --sched-all); on=$(pipe_rt record); off=$(pipe_rt)
		fi
		echo "$off $on $all"
	done | awk '{ o[NR] = $1; t[NR] = $2; a[NR] = $3; n = NR }
		function med(v,   i, j, x, b) { for (i = 1; i <= n; i++) b[i] = v[i]
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (b[j] < b[i]) { x = b[i]; b[i] = b[j]; b[j] = x }
			return (b[int((n + 1) / 2)] + b[int(n / 2) + 1]) / 2 }
		END { printf "observer: round trip untraced %.0f ns; under record %.0f ns (%+.0f), under record --sched-all %.0f ns (%+.0f) (medians of %d)\n",
			      med(o), med(t), med(t) - med(o), med(a), med(a) - med(o), n }'
fi

if has groups; then
echo "observer: $WL $ARGS, ${SECS}s runs, $PAIRS traced/untraced pairs per group, on $(uname -r)"
for g in $GROUPS_WANTED; do
	[ "$g" = record ] || events "$g" > /dev/null || die "unknown group '$g' (groups: none softirq workqueue sched sched-all hardirq napi tasklet stacks record)"
done
# round p runs one pair of every group: a slow spell of a shared machine then falls on
# every group alike instead of on one; which side goes first alternates
for p in $(seq 1 "$PAIRS"); do
	n=0
	for g in $GROUPS_WANTED; do
		n=$((n + 1))
		if [ $(((p + n) % 2)) = 0 ]; then
			once "$OUT/$g-$p-on" 1 "$g"
			once "$OUT/$g-$p-off" 0 "$g"
		else
			once "$OUT/$g-$p-off" 0 "$g"
			once "$OUT/$g-$p-on" 1 "$g"
		fi
	done
	echo "observer: round $p of $PAIRS done"
done
for g in $GROUPS_WANTED; do
	python3 - "$OUT" "$g" "$PAIRS" "$SECS" <<'EOF'
import json, os, statistics as st, sys
out, g, pairs, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
def metrics(d):
    return {m["name"]: m for m in json.load(open(os.path.join(d, "workload.json")))["metrics"]}
def quartiles(v):
    v = sorted(v)
    q = lambda f: v[min(len(v) - 1, max(0, round(f * (len(v) - 1))))]
    return q(0.25), q(0.75)
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
    lo, hi = quartiles([x[0] for x in r])
    line.append(f"{name} {q} {st.median(x[0] for x in r):.2f} [{lo:.2f}, {hi:.2f}]")
print(f"observer: {g:9} {st.median(evs):7.0f} ev/s | " + "; ".join(line), flush=True)
EOF
done
echo "observer: traced / untraced per pair: median [quartiles] over $PAIRS pairs; runs in $OUT"
fi

# alternate WORKLOAD ARGS... - the whole of 'deferbench record' on and off within one run
# of the workload: record runs throughout, evtoggle turns its events off and on in 1 s
# phases (pairs in a seeded random order), the workload keeps 100 ms intervals on
# CLOCK_MONOTONIC, and alternate.py compares the intervals of traced phases with those
# of untraced ones. No second setup and no other minute of the machine in between: the
# closest this machine comes to "the same run, traced and not". The untraced phases
# still have record's reader threads polling (they find nothing), so the figure leaves
# out their share; record's own figures of such a run mean nothing and are not read.
alternate() {
	local wl=$1 d="$OUT/alt-$1" rec="" inst g
	shift
	rm -rf "$d" "$d.rec"
	if [ "$ALT_CAPTURE" = record ]; then
		start_record "$d.rec.log" $ALT_RECORD -d "$((ALT_SECS + 4))s" -o "$d.rec"
		rec=$REC
		inst=deferbench-$rec
	else
		# record's events and filter in this script's instance, which nobody reads
		inst=${INST##*/}
		enable none
		for g in $ALT_GROUPS; do
			add_group "$g" > /dev/null
		done
	fi
	"$DB" load "$wl" -d "$((ALT_SECS + 2))s" -i 100ms -o "$d" "$@" > "$d.log" 2>&1 &
	"$EVTOGGLE" "$inst" 1000 "$ALT_SECS" > "$d.phases" || die "evtoggle failed on $inst"
	wait $! || die "the workload failed: $(tail -3 "$d.log")"
	if [ -n "$rec" ]; then
		kill -INT $rec 2>/dev/null || true
		wait $rec || die "record failed: $(tail -3 "$d.rec.log")"
	else
		echo 0 > "$INST/tracing_on"
		clear_events
	fi
	python3 tests/perf/alternate.py "$d.phases" "$d/workload-intervals.csv" "$wl $*" ||
		die "cannot split $d by phase"
}

if has alternate; then
	echo "observer: capture on and off within one run, ${ALT_SECS} s, capture: $ALT_CAPTURE $ALT_RECORD$([ "$ALT_CAPTURE" = record ] || echo " ($ALT_GROUPS)"), on $(uname -r)"
	for w in ${OBS_ALT_WORKLOADS:-net tty timer}; do
		case $w in
		net) alternate net rate=2000 ;;
		tty) alternate tty rate=1000 ;;
		*) alternate "$w" ;;
		esac
	done
	echo "observer: traced / untraced: pooled quantile ratio [95% interval, pairs resampled]"
fi
