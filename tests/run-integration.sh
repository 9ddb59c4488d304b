#!/bin/sh
# run-integration.sh [TEST...] - integration tests that really trace and really load the
# machine: every tests/integration/t-*.sh, or the scripts given.
#
# Each test is a script in tests/integration/ that exits 0 (pass), 77 (skipped, with the
# reason on stdout) or anything else (fail). The runner:
#  - runs each one in a session of its own under a time limit (TEST_TIMEOUT seconds,
#    default 180): at the limit it gets SIGTERM, which runs its cleanup, and SIGKILL 30 s
#    later;
#  - checks after each one that it left the machine as it found it: no process of its
#    session, no knobs journal, no tracefs instance of a process that is gone, no
#    trigger on the top level's softirq_entry, the same workqueue/softirq settings, no
#    new network namespace or dbv veth. A test that left
#    anything fails, and the runner removes what it left, so that the next tests do not
#    skip or fail because of it; its temporary directories (mktemp_dir, made in a
#    directory of the runner's) go too, even when it was killed;
#  - runs the tests whose header says '# lane: files' (they read and write files only:
#    stores, fixtures, captures on disk) in a second lane beside the others when it
#    runs them all (DB_LANES=1: one lane); their processes and temporary directories
#    are checked, not the machine's state, which the other lane may be changing;
#    those that say '# lane: sanitize' are left to the sanitizer step (run them by name);
#  - when it runs as root on a kernel with tracefs (as make test does in CI), counts a
#    skipped test as a failure unless the test said the kernel lacks a feature it needs
#    (skip_kernel in lib.sh): a missing tool or a stale journal must not pass silently.
#    Without root every test may skip.
#
# DB_BUSY=1 (what .ci/run sets) runs the tests beside a CPU load that keeps every CPU
# busy: 'deferbench load hog', one spinning thread per CPU at normal priority
# (SCHED_OTHER, nice 0), started here before the first test and stopped on every exit
# path (and sent SIGTERM by the kernel should the runner itself be killed). No test
# may depend on how fast the machine is; this shows it on every landing. The tests do
# not see DB_BUSY: a runner a test starts (t-cleanup.sh) starts no load of its own.
cd "$(dirname "$0")/.." || exit 1
. tests/integration/lib-knobs.sh

DB=${DB:-$(pwd)/deferbench}
TRACEFS_DIR=/sys/kernel/tracing
TEST_TIMEOUT=${TEST_TIMEOUT:-180}
strict=0
[ "$(id -u)" -eq 0 ] && grep -qw tracefs /proc/filesystems && strict=1

busy=${DB_BUSY:-0}
unset DB_BUSY
# DB_LANE_EXTRA: a file-only command make test has the file-only lane run after its
# tests (the sanitizer's unit tests), counted as a test; never seen by the tests
extra=${DB_LANE_EXTRA:-}
unset DB_LANE_EXTRA
busy_pid=""

. tests/machine-lock.sh

work=$(mktemp -d /tmp/deferbench-runner.XXXXXX) || exit 1
lane_pid=""
test_sid=""
# stop_test - the test running now, if any: its session has a signal of its own (it is
# out of reach of the runner's process group, Ctrl-C's); timeout passes it on to the
# test, whose traps clean up; then it is waited for
stop_test() {
	[ -n "$test_sid" ] || return 0
	kill -TERM $test_sid 2>/dev/null
	wait $test_sid 2>/dev/null
	test_sid=""
}
# on every exit, the tests first: a test still running would write into $work after it
# is gone (an interrupted make test left /tmp/deferbench-runner.* and its test running)
trap 'stop_test; [ -z "$lane_pid" ] || { kill $lane_pid 2>/dev/null; wait $lane_pid; }
	busy_stop; rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# busy_start - the CPU load of DB_BUSY=1: once its threads spin (one per CPU), return
busy_start() {
	_ncpu=$(nproc)
	setpriv --pdeathsig TERM "$DB" load hog -d 6h > "$work/busy.log" 2>&1 &
	busy_pid=$!
	_i=0
	until [ "$(grep -s '^db-' /proc/$busy_pid/task/*/comm | wc -l)" -ge "$_ncpu" ]; do
		kill -0 $busy_pid 2>/dev/null || { cat "$work/busy.log"; echo "runner: the CPU load did not start" >&2; exit 1; }
		_i=$((_i + 1))
		[ $_i -lt 300 ] || { echo "runner: the CPU load's threads never ran" >&2; exit 1; }
		sleep 0.1
	done
	echo "== integration: beside a CPU load: deferbench load hog, $_ncpu threads at nice 0 (pid $busy_pid)"
}

# busy_stop - stop the CPU load, if one runs; safe to call twice
busy_stop() {
	[ -n "$busy_pid" ] || return 0
	kill -INT $busy_pid 2>/dev/null
	wait $busy_pid 2>/dev/null
	busy_pid=""
}

# state FILE - what a test may leave behind, one item a line: settings, the journal,
# network namespaces, dbv veths, tracefs instances of deferbench processes that are gone
state() {
	snapshot "$1"
	{
		[ -e "$JOURNAL" ] && echo "journal $JOURNAL"
		ip netns list 2>/dev/null | sed 's/^/netns /'
		ip -o link show type veth 2>/dev/null | grep -o 'dbv[^:@]*' | sed 's/^/veth /'
		for _i in $(ls $TRACEFS_DIR/instances 2>/dev/null | grep '^deferbench-'); do
			[ -d "/proc/${_i#deferbench-}" ] || echo "instance $_i"
		done
		# record --stacks sets its trigger in its own instance, never at the top level
		grep -v '^#' $TRACEFS_DIR/events/irq/softirq_entry/trigger 2>/dev/null |
			sed 's/^/trigger /'
	} >> "$1"
}

# session_pids SID - the processes of session SID that still run (not zombies)
session_pids() {
	ps -eo pid=,sid=,stat= | awk -v s="$1" '$2 == s && $3 !~ /^Z/ { printf "%s ", $1 }'
}

# leftovers SID BEFORE - what the test of session SID left (printed), removed: its
# processes, its journal (deferbench restore), the instances of its dead processes
leftovers() {
	_left=$(session_pids "$1")
	if [ -n "$_left" ]; then
		echo "processes still running: $_left"
		kill -TERM $_left 2>/dev/null	# deferbench restores what it changed on SIGTERM
		_i=0
		while [ -n "$(session_pids "$1")" ] && [ $_i -lt 50 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		_left=$(session_pids "$1")
		[ -z "$_left" ] || { kill -KILL $_left 2>/dev/null; sleep 0.5; }
	fi
	state "$work/after"
	# what is new or changed; what went away (a restore removing an older run's
	# leftovers) is not the test's doing
	diff "$2" "$work/after" | grep '^>' > "$work/diff" || return 0
	echo "the machine changed; now:"
	cat "$work/diff"
	if [ -e "$JOURNAL" ]; then
		"$DB" restore >"$work/restore" 2>&1 || { echo "restore failed:"; cat "$work/restore"; }
	fi
	for _i in $(sed -n 's/^> instance //p' "$work/diff"); do
		rmdir "$TRACEFS_DIR/instances/$_i" 2>/dev/null
	done
	for _i in $(sed -n 's/^> trigger \([a-z_]*\).*/\1/p' "$work/diff"); do
		echo "!$_i" > $TRACEFS_DIR/events/irq/softirq_entry/trigger 2>/dev/null
	done
}

# run_extra LANE - DB_LANE_EXTRA, reported and counted like a test
run_extra() {
	[ -n "$extra" ] || return 0
	echo "== integration: $extra"
	start=$(date +%s)
	sh -c "$extra"
	rc=$?
	took=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		echo pass >> "$work/$1.count"; echo "   PASS $extra (${took}s)"
	else
		echo fail >> "$work/$1.count"; echo "   FAIL $extra (exit $rc, ${took}s)" >&2
	fi
}

# run_one TEST LANE - one test in a session of its own, its result counted in
# $work/LANE.count; lane "files" (tests whose header says '# lane: files': they read
# and write files only) gets no check of the machine's state, which the other lane's
# test may be changing meanwhile - only its processes and its temporary directory
run_one() {
	_t=$1 _lane=$2
	name=${_t##*/}
	echo "== integration: $name"
	[ "$_lane" = machine ] && state "$work/before"
	rm -f "$work/skip.$_lane"
	mkdir "$work/tmp.$_lane" || exit 1
	start=$(date +%s)
	# not a process group leader (no job control here): setsid makes the test's sh
	# the leader of a new session whose id is its pid, $!
	DB_SKIP_KIND=$work/skip.$_lane DB_TEST_TMPDIR=$work/tmp.$_lane DB_TEST_LANE=$_lane \
		setsid timeout -k 30 "$TEST_TIMEOUT" sh "$_t" &
	sid=$!
	test_sid=$sid
	wait $sid
	rc=$?
	test_sid=""
	took=$(( $(date +%s) - start ))
	if [ "$_lane" = machine ]; then
		left=$(leftovers $sid "$work/before")
	else
		left=$(session_pids $sid)
		[ -z "$left" ] || { kill -KILL $left 2>/dev/null; left="processes still running: $left"; }
	fi
	rm -rf "$work/tmp.$_lane"
	[ $rc -eq 124 ] && echo "   timed out after ${TEST_TIMEOUT}s" >&2
	if [ -n "$left" ]; then
		echo "$left" | sed 's/^/   left behind: /' >&2
		[ $rc -eq 0 ] || [ $rc -eq 77 ] && rc=1
	fi
	if [ $rc -eq 77 ] && [ $strict = 1 ] && [ "$(cat "$work/skip.$_lane" 2>/dev/null)" != kernel ]; then
		echo "   a skip as root with tracefs is a failure unless the kernel lacks a feature" >&2
		rc=1
	fi
	case $rc in
	0) echo pass >> "$work/$_lane.count"; echo "   PASS $name (${took}s)" ;;
	77) echo skip >> "$work/$_lane.count"; echo "   SKIPPED $name" ;;
	*) echo fail >> "$work/$_lane.count"; echo "   FAIL $name (exit $rc, ${took}s)" >&2 ;;
	esac
}

# Every test, or those given. Run as a whole (no test given, DB_LANES unset or 2), the
# file-only tests run in a lane of their own beside the others: a quarter of the
# suite's time, most of it while the machine's tests wait in their timed phases.
lanes=${DB_LANES:-2}
all=1
[ $# -gt 0 ] && lanes=1 all=0
[ $# -gt 0 ] || set -- tests/integration/t-*.sh
[ "$busy" = 1 ] && busy_start
: > "$work/machine.count"
: > "$work/files.count"
lane_pid=""
if [ "$lanes" = 2 ]; then
	(
		trap 'stop_test; exit 143' TERM
		trap 'stop_test; exit 130' INT
		for t in "$@"; do
			grep -q '^# lane: files' "$t" && run_one "$t" files
		done
		run_extra files
	) > "$work/files.log" 2>&1 &
	lane_pid=$!
fi
for t in "$@"; do
	[ -e "$t" ] || continue
	[ -n "$lane_pid" ] && grep -q '^# lane: files' "$t" && continue
	# run by the sanitizer step (tests/run-sanitized.sh) with its build, not twice
	[ $all = 1 ] && grep -q '^# lane: sanitize' "$t" && continue
	run_one "$t" machine
done
[ -n "$lane_pid" ] || run_extra machine
if [ -n "$lane_pid" ]; then
	wait $lane_pid
	lane_pid=""	# reaped: the pid may be another's now
	echo "== integration: the file-only lane, run beside the tests above:"
	cat "$work/files.log"
fi
busy_stop
pass=$(cat "$work"/*.count | grep -c '^pass$')
fail=$(cat "$work"/*.count | grep -c '^fail$')
skip=$(cat "$work"/*.count | grep -c '^skip$')
echo "== integration tests: $pass passed, $fail failed, $skip skipped$([ "$busy" = 1 ] && echo ", beside a CPU load")"
[ $fail -eq 0 ]
