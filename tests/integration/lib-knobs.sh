# lib-knobs.sh - helpers for the knob tests (POSIX sh); source after lib.sh.

WQ=/sys/devices/virtual/workqueue
JOURNAL=${DEFERBENCH_JOURNAL:-/run/deferbench/journal.json}

# need_root_wq - skip unless root on a kernel with the writeback workqueue in sysfs,
# and no other deferbench run holds the journal
need_root_wq() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (changes workqueue settings)"
	[ -w $WQ/writeback/nice ] || skip_kernel "no $WQ/writeback (WQ_SYSFS) on this kernel"
	[ ! -e "$JOURNAL" ] || skip "$JOURNAL exists: another run owns the knobs"
}

# snapshot FILE - every setting the knob tests may touch, one "name=value" a line (one
# grep for all: the runner takes a snapshot before and after every test, and a cat a
# file made each take most of a second beside a CPU load)
snapshot() {
	{
		grep -H '' $WQ/*/nice $WQ/*/cpumask $WQ/*/affinity_scope $WQ/*/affinity_strict \
			$WQ/*/max_active $WQ/cpumask /sys/module/workqueue/parameters/* \
			/sys/class/net/lo/queues/rx-*/rps_cpus /proc/sys/net/core/busy_poll \
			/proc/sys/net/core/netdev_budget 2>/dev/null | sed 's/:/=/'
		for p in $(pgrep '^ksoftirqd/'); do
			echo "ksoftirqd pid $p: $(chrt -p "$p" | tr '\n' ' ')"
		done
	} > "$1"
}

# same_as FILE - the machine matches the snapshot in FILE
same_as() {
	snapshot "$1.now"
	diff -u "$1" "$1.now" >&2 || fail "settings differ from the snapshot (above)"
}

# attr_is WQ ATTR VALUE - a workqueue attribute reads VALUE
attr_is() {
	[ "$(cat $WQ/$1/$2)" = "$3" ]
}

# dead_pid - a pid that no longer runs
dead_pid() {
	sh -c 'exit 0' &
	_p=$!
	wait $_p
	echo $_p
}
