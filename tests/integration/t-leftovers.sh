#!/bin/sh
# t-leftovers.sh - issue 10, item 8: what a SIGKILLed deferbench leaves is journaled
# before it is made (owned.h) and removed by 'deferbench restore', and by the next
# record or run (with a warning): the tracefs instance that would go on tracing, the
# output staging directory, the block workload's directory under a custom dir=,
# cyclictest's /tmp directory, and a tracefs mount deferbench made.
. tests/integration/lib.sh
need_root_tracefs
mktemp_dir T

# wait_for CMD... - until the shell command succeeds (10 s at most)
wait_for() {
	_i=0
	until eval "$1"; do
		_i=$((_i + 1))
		[ $_i -gt 100 ] && return 1
		sleep 0.1
	done
}

# 1. a killed record: its instance traces on and its staging directory stays (killed
# once it captures: an instance just made reads tracing_on 1 before it is configured)
$DB record -d 600s -b 1024 --raw -o "$T/k" >/dev/null 2>&1 &
pid=$!
wait_for "capturing $pid" || fail "record did not start tracing"
kill -9 $pid
wait $pid 2>/dev/null
[ -d "$TRACEFS/instances/deferbench-$pid" ] || fail "the killed record left no instance (test broken?)"
[ -d "$T/k.partial-$pid" ] || fail "the killed record left no staging directory (test broken?)"
[ -f "/run/deferbench/owned/$pid.json" ] || fail "nothing journaled what record $pid made"
# the next record notices, says so, and cleans up
$DB record -d 200ms >/dev/null 2>"$T/w.txt" || { cat "$T/w.txt"; fail "the next record failed"; }
grep -q "left this behind: removed tracefs instance .*deferbench-$pid" "$T/w.txt" ||
	{ cat "$T/w.txt"; fail "the next record did not warn about the instance"; }
[ -d "$TRACEFS/instances/deferbench-$pid" ] && fail "the killed record's instance is still there"
[ -e "$T/k.partial-$pid" ] && fail "the killed record's staging directory is still there"
[ -e "/run/deferbench/owned/$pid.json" ] && fail "its journal is still there"

# 2. the block workload's directory under dir=, and the timer workload's in /tmp
BD="$T/blockdir"
mkdir "$BD"
if [ "$(stat -f -c %T "$BD")" = tmpfs ]; then
	echo "   (block part skipped: $T is on tmpfs)"
else
	$DB load block -d 60s dir="$BD" >/dev/null 2>&1 &
	bpid=$!
	wait_for "ls -d $BD/deferbench-block-$bpid-* >/dev/null 2>&1" || fail "block did not start"
fi
if command -v cyclictest >/dev/null; then
	$DB load timer -d 60s >/dev/null 2>&1 &
	tpid=$!
	wait_for "ls -d /tmp/deferbench-timer-$tpid-* >/dev/null 2>&1" || fail "timer did not start"
fi
# (their directories are journaled before they are made: killed once they exist)
[ -n "${bpid:-}" ] && kill -9 $bpid
[ -n "${tpid:-}" ] && kill -9 $tpid
wait 2>/dev/null
$DB restore >"$T/r.txt" 2>&1 || { cat "$T/r.txt"; fail "restore failed"; }
if [ -n "${bpid:-}" ]; then
	ls -d "$BD"/deferbench-block-$bpid-* >/dev/null 2>&1 &&
		{ cat "$T/r.txt"; fail "restore left the block directory under dir="; }
	grep -q "removed $BD/deferbench-block-$bpid-" "$T/r.txt" || { cat "$T/r.txt"; fail "restore did not say so"; }
fi
if [ -n "${tpid:-}" ]; then
	ls -d /tmp/deferbench-timer-$tpid-* >/dev/null 2>&1 &&
		{ cat "$T/r.txt"; fail "restore left the timer directory"; }
fi

# 3. a tracefs mount deferbench made, in a private mount namespace
if command -v unshare >/dev/null; then
	unshare -m sh -c "umount -l $TRACEFS; umount -l /sys/kernel/debug 2>/dev/null
		$DB record -d 600s >/dev/null 2>&1 & p=\$!
		i=0; until grep -q ' $TRACEFS tracefs' /proc/mounts &&
			[ \"\$(cat $TRACEFS/instances/deferbench-\$p/events/enable 2>/dev/null)\" != '' ] &&
			[ \"\$(cat $TRACEFS/instances/deferbench-\$p/events/enable)\" != 0 ]; do
			i=\$((i + 1)); [ \$i -gt 150 ] && exit 3; sleep 0.1; done
		kill -9 \$p; wait \$p
		grep -q ' $TRACEFS tracefs' /proc/mounts || exit 4
		$DB restore >$T/m.txt 2>&1 || exit 5
		grep -q ' $TRACEFS tracefs' /proc/mounts && exit 6
		exit 0"
	rc=$?
	[ $rc -eq 0 ] || { cat "$T/m.txt" 2>/dev/null; fail "tracefs mount after SIGKILL + restore: step $rc"; }
	grep -q "unmounted the tracefs deferbench mounted at $TRACEFS" "$T/m.txt" ||
		{ cat "$T/m.txt"; fail "restore did not say it unmounted tracefs"; }
fi

# 4. record turns the top-level option record-cmd off while it makes its instance (the
# instance takes it over) and back on at once; a run killed in between leaves it
# journaled, and restore turns it back on. A dead process's journal says so here.
opt=$TRACEFS/options/record-cmd
if [ -f "$opt" ]; then
	was=$(cat "$opt")
	at_exit "echo $was > $opt"
	echo 1 > "$opt"
	$DB record -d 200ms > /dev/null 2>&1 || fail "record failed"
	[ "$(cat "$opt")" = 1 ] || fail "record left record-cmd at $(cat "$opt")"
	dead=$(sh -c 'echo $$')
	echo 0 > "$opt"
	printf '{ "schema": "deferbench-owned/1", "pid": %s, "pid_start": 1, "mnt_ns": "", "command": "deferbench record", "resources": [ { "kind": "option_off", "path": "%s" } ] }\n' \
		"$dead" "$opt" > /run/deferbench/owned/$dead.json
	$DB restore > "$T/o.txt" 2>&1 || { cat "$T/o.txt"; fail "restore failed"; }
	grep -q "turned the tracefs option $opt back on" "$T/o.txt" || { cat "$T/o.txt"; fail "restore did not say it turned record-cmd on"; }
	[ "$(cat "$opt")" = 1 ] || fail "restore left record-cmd at $(cat "$opt")"
	[ -e /run/deferbench/owned/$dead.json ] && fail "the dead process's journal is still there"
	echo "$was" > "$opt"
fi
no_leftover_instances
exit 0
