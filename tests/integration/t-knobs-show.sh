#!/bin/sh
# t-knobs-show.sh - 'deferbench knobs list' names every knob a scenario may set, each
# documented in docs/scenarios.md; 'deferbench knobs show' prints this machine's
# settings as sysfs and /proc have them (every WQ_SYSFS workqueue with each attribute,
# the unbound cpumask, the workqueue parameters, each ksoftirqd thread with its
# policy), read when it runs: a knob set meanwhile shows its new value. Bad verbs are
# errors.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_wq
mktemp_dir T

expect_exit 0 $T/list $DB knobs list
for k in 'wq.<workqueue>.nice' 'wq.<workqueue>.cpumask' 'wq.<workqueue>.affinity_scope' \
	 'wq.<workqueue>.affinity_strict' 'wq.<workqueue>.max_active' wq.cpumask \
	 param.default_affinity_scope param.cpu_intensive_thresh_us 'sched.ksoftirqd[.<cpu>]' \
	 'sched.ktimers[.<cpu>]' 'sched.rcuc[.<cpu>]' 'sched.irq_work[.<cpu>]' \
	 'sched.backlog_napi[.<cpu>]' \
	 sched.napi sysctl.net.core.busy_poll sysctl.net.core.busy_read \
	 sysctl.net.core.netdev_budget sysctl.net.core.netdev_budget_usecs \
	 sysctl.net.core.dev_weight 'netdev.<dev>.threaded' 'netdev.<dev>.napi_defer_hard_irqs' \
	 'netdev.<dev>.gro_flush_timeout' netdev.lo.rps_cpus; do
	grep -qF "  $k " $T/list || fail "knobs list lacks $k"
	doc=$(echo "$k" | sed 's/<workqueue>/<wq>/; s/\[\.<cpu>\]//')	# the docs' spelling
	grep -qF "\`$doc\`" docs/scenarios.md || fail "knobs list has $k, docs/scenarios.md does not"
done
[ "$(grep -c '^  [a-z]' $T/list)" -eq 23 ] || fail "knobs list: $(grep -c '^  [a-z]' $T/list) knobs, not 23"

# show_matches FILE - every line of show in FILE agrees with the machine right now
show_matches() {
	for d in $WQ/*/; do
		d=${d%/}
		[ -e $d/max_active ] || continue
		wq=${d##*/}
		row=$(grep "^  $wq " "$1") || fail "show lacks workqueue $wq"
		set -- "$1" $row
		[ "$3" = "$(cat $d/per_cpu)" ] || fail "$wq per_cpu: show $3, sysfs $(cat $d/per_cpu)"
		[ -e $d/nice ] || continue
		[ "$4" = "$(cat $d/nice)" ] || fail "$wq nice: show $4, sysfs $(cat $d/nice)"
		[ "$5" = "$(cat $d/cpumask)" ] || fail "$wq cpumask: show $5, sysfs $(cat $d/cpumask)"
		echo "$row" | grep -qF "$(cat $d/affinity_scope)" || fail "$wq affinity_scope: $row"
		[ "$(echo "$row" | awk '{ print $(NF - 1), $NF }')" = "$(cat $d/affinity_strict) $(cat $d/max_active)" ] ||
			fail "$wq affinity_strict/max_active: $row"
	done
	grep -q "^  effective $(cat $WQ/cpumask) " "$1" || fail "show: unbound cpumask effective"
	for p in /sys/module/workqueue/parameters/*; do
		grep -q "^  ${p##*/}  *$(cat $p) " "$1" || fail "show: parameter ${p##*/} is not $(cat $p)"
	done
	for pid in $(pgrep '^ksoftirqd/'); do
		grep -q "^  $(cat /proc/$pid/comm)  *pid $pid " "$1" ||
			fail "show lacks $(cat /proc/$pid/comm) (pid $pid)"
	done
}

expect_exit 0 $T/show $DB knobs show
show_matches $T/show
# alone, knobs shows the settings (README)
expect_exit 0 $T/alone $DB knobs
show_matches $T/alone

# a knob set meanwhile is what show reports
nice0=$(cat $WQ/writeback/nice)
new=$(( nice0 == 5 ? 6 : 5 ))
$DB knobs set wq.writeback.nice=$new sched.ksoftirqd.0=fifo:3 > $T/out 2>&1 &
pid=$!
wait_for grep -q '^applied' $T/out || fail "never applied: $(cat $T/out)"
expect_exit 0 $T/show2 $DB knobs show
kill -INT $pid
wait $pid || fail "knobs set exited $?: $(cat $T/out)"
grep -q "^  writeback  *[01]  *$new " $T/show2 || fail "show while set: $(grep writeback $T/show2)"
grep -q "^  ksoftirqd/0  *pid [0-9]*  *fifo:3 " $T/show2 ||
	fail "show while set: $(grep ksoftirqd/0 $T/show2)"

# PREEMPT_RT's threads: their order, and a knob naming one that is not here is refused
grep -q "^RT thread order (recommended: irq_work > rcuc > ksoftirqd, ktimers > ksoftirqd" \
	$T/show || fail "show lacks the RT thread order"
grep -q "^  ksoftirqd  *[a-z]*:" $T/show || fail "show: ksoftirqd's place in the RT order"
if ! ps -eo comm= | grep -q '^ktimers/'; then
	grep -q "^  ktimers  *(no such thread here)" $T/show || fail "show: ktimers without threads"
	expect_message $T/rt "no ktimers/N thread on this machine: they exist only on forced-threaded" \
		$DB knobs set -d 1s sched.ktimers=fifo:2
fi
if ! ps -eo comm= | grep -q '^rcuc/'; then
	expect_message $T/rt "no rcuc/1 thread on this machine" $DB knobs set -d 1s sched.rcuc.1=fifo:2
fi

# cache_shard: taken where the kernel has it; 6.18 reads it as cache, which is said and undone
before=$(cat $WQ/writeback/affinity_scope)
if ! $DB knobs set -d 1s wq.writeback.affinity_scope=cache_shard > $T/scope 2>&1; then
	grep -qF "this kernel has no affinity scope 'cache_shard'" $T/scope ||
		{ cat $T/scope; fail "cache_shard refused without the reason"; }
fi
[ "$(cat $WQ/writeback/affinity_scope)" = "$before" ] || fail "affinity_scope not restored"

# bad verbs and arguments: exit 1, saying what is accepted
expect_message $T/bad "unknown knobs command 'shwo': need show, list or set" $DB knobs shwo
expect_message $T/bad "list takes no arguments" $DB knobs list wq.cpumask
expect_message $T/bad "--duration goes with 'set'" $DB knobs show -d 1s
exit 0
