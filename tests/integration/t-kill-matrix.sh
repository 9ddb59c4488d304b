#!/bin/sh
# t-kill-matrix.sh - issue 34: INT, TERM, HUP, XFSZ and KILL sent to record, run, tune,
# report and baseline save at several moments of their work. After a catchable signal
# nothing may be left at all: no journal of what the process owned (nor half of one),
# no knobs journal, no staging or replaced directory, no tracefs instance, no changed
# setting, no process of tune's command, no empty baseline host directory. After SIGKILL
# the next `deferbench restore` must exit 0 and leave the same nothing. The moment of
# each (command, signal) pair is taken from the command's list in turn, so that every
# command is hit early, mid-way and late across the five signals.
# KILL_MATRIX_COUNT=1 counts the trials that leave something instead of failing at the
# first (to measure another build: DB=old RESTORE_DB=new), cleaning up after each.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_tracefs
need_root_wq
mktemp_dir T
for f in run-a capture-tty; do
	tar xzf tests/fixtures/$f.tar.gz -C "$T" || fail "cannot unpack $f"
done
# this test's own journals: other deferbench processes on the machine are not its own
export DEFERBENCH_OWNED_DIR="$T/owned" DEFERBENCH_JOURNAL="$T/knobs.json"
JOURNAL=$DEFERBENCH_JOURNAL
mkdir "$T/owned" "$T/out"
snapshot "$T/before"
cat $TRACEFS/options/record-cmd > "$T/record-cmd"
nice0=$(cat $WQ/writeback/nice)
try=$(( nice0 == -5 ? -6 : -5 ))
cat > "$T/s.ini" <<EOS
[global]
duration = 2s
warmup = 500ms
[workload tty]
type = tty
rate = 300
[config c]
wq.writeback.nice = $try
EOS
"$DB" baseline save -D "$T/bl" --host h "$T/runA" > /dev/null 2>&1 || fail "baseline save"

# start CMD - run the command under test in the background: $pid
start() {
	case $1 in
	record) "$DB" record -d 3s --raw --stacks --keep-worst -o "$T/out/rec" ;;
	run) "$DB" run -o "$T/out/run" "$T/s.ini" ;;
	tune) "$DB" tune -d 14s --survey 1s --phase 1s --allow nice \
		--try wq.writeback.nice=$try -o "$T/out/tune" -- sleep 6061 ;;
	report) "$DB" report --no-plots -o "$T/out/rep" "$T/runA" ;;
	baseline) "$DB" baseline save --replace -D "$T/bl" --host h "$T/runA" ;;
	esac > "$T/log" 2>&1 &
	pid=$!
}

# moments CMD - when to signal it, in seconds after its start
moments() {
	case $1 in
	record) echo "0.05 0.3 0.7 1.2" ;;
	run) echo "0.1 0.5 1.0 1.6" ;;
	tune) echo "0.3 0.8 1.6 2.8" ;;
	report) echo "0.005 0.02 0.04 0.08" ;;
	baseline) echo "0.005 0.02 0.04 0.08" ;;
	esac
}

# miss WHAT - something is left: fail, or with KILL_MATRIX_COUNT count it
miss() {
	[ -n "${KILL_MATRIX_COUNT:-}" ] || fail "$*"
	echo "   LEFT: $*"
	left=1
}

# nothing_left WHAT - the machine and the output directories as they were
nothing_left() {
	_l=$(ls -A "$T/owned")
	[ -z "$_l" ] || miss "$1: the owned directory holds: $_l"
	[ -z "$(ls -A "$T" | grep 'knobs.json')" ] || miss "$1: a knobs journal is left"
	# (an interrupted run keeps its cell as cells/.partial-ID, status interrupted: a
	# result of the run, docs/run.md, not something left behind)
	_l=$(find "$T/out" "$T/bl" \( -name '*.partial-*' -o -name '*.old-*' -o -name '*.tmp.*' \
		-o -name '.deferbench-staging' \) 2>/dev/null | grep -v '/cells/\.partial-')
	[ -z "$_l" ] || miss "$1: left: $_l"
	[ ! -e "$TRACEFS/instances/deferbench-$pid" ] || miss "$1: its tracefs instance is left"
	[ "$(cat $TRACEFS/options/record-cmd)" = "$(cat "$T/record-cmd")" ] ||
		miss "$1: options/record-cmd is not back"
	grep -v "^#" $TRACEFS/events/irq/softirq_entry/trigger 2>/dev/null | grep -q stacktrace &&
		miss "$1: a stacktrace trigger is left"
	[ -z "$(pgrep -f '^sleep 6061$')" ] || miss "$1: tune's command is still running"
	# the baseline is there, old or new, never half and never gone
	[ -f "$T/bl/h/default/run.json" ] || miss "$1: the baseline is gone: $(ls -R "$T/bl" | head)"
	[ "$(ls -A "$T/bl")" = h ] && [ "$(ls -A "$T/bl/h")" = default ] ||
		miss "$1: the baselines hold: $(ls -A "$T/bl" "$T/bl/h")"
	snapshot "$T/now"
	cmp -s "$T/before" "$T/now" || { diff "$T/before" "$T/now" >&2; miss "$1: a setting changed"; }
}

trials=0
kills=0
bad=0
c=0
for cmd in record run tune report baseline; do
	set -- $(moments $cmd)
	s=$c
	for sig in INT TERM HUP XFSZ KILL; do
		# the moment: the command's list taken in turn, shifted per command
		i=$(( s % 4 + 1 ))
		eval "at=\${$i}"
		s=$((s + 1))
		rm -rf "$T/out"/*
		left=0
		start $cmd
		sleep "$at"
		kill -$sig $pid 2>/dev/null
		# a catchable signal: the process ends by itself, in a bound
		_n=0
		while kill -0 $pid 2>/dev/null; do
			_n=$((_n + 1))
			[ $_n -lt 300 ] || { kill -KILL $pid; cat "$T/log"; fail "$cmd did not end after SIG$sig"; }
			sleep 0.1
		done
		wait $pid 2>/dev/null
		if [ $sig = KILL ]; then
			# what tune's command was: its parent died, PR_SET_PDEATHSIG ends it
			wait_for sh -c "[ -z \"\$(pgrep -f '^sleep 6061$')\" ]" ||
				miss "$cmd: tune's command outlived a SIGKILL"
			"$DB" restore > "$T/restore" 2>&1 ||
				miss "restore after SIGKILL of $cmd at ${at}s exited $?: $(cat "$T/restore")"
			kills=$((kills + 1))
		fi
		nothing_left "$cmd, SIG$sig at ${at}s"
		if [ $left = 1 ]; then
			bad=$((bad + 1))
			"${RESTORE_DB:-$DB}" restore > /dev/null 2>&1
			rm -rf "$T/out"/* "$T/owned"/* "$T/bl"
			"${RESTORE_DB:-$DB}" baseline save -D "$T/bl" --host h "$T/runA" > /dev/null 2>&1
		fi
		[ -z "${KILL_MATRIX_VERBOSE:-}" ] || echo "   $cmd SIG$sig at ${at}s: nothing left ($(date +%s.%N | cut -c7-14))"
		trials=$((trials + 1))
	done
	c=$((c + 1))
done
echo "   $trials trials (5 commands x 5 signals, moments rotated; $kills SIGKILLs restored): $bad left something"
[ $bad = 0 ] || fail "$bad of $trials trials left something"
exit 0
