# cleanup.sh - the one cleanup of an integration test (POSIX sh); lib.sh sources it.
#
# Sourcing installs a single EXIT trap (SIGINT and SIGTERM exit through it too, so a
# test stopped by run-integration.sh's timeout cleans up as well). Whatever way the
# script ends - pass, fail, skip, signal - the trap, in this order:
#   1. stops every process the script started, with all their children: SIGTERM
#      first (deferbench restores its knobs and removes its instance on SIGTERM), then
#      SIGKILL for what is still there after 10 s;
#   2. runs the script's own undo steps (at_exit), newest first;
#   3. runs 'deferbench restore' when a journal is left whose owner is gone (a killed
#      'run' or 'knobs set': knobs, its tracefs instance, its temporary files) - not
#      in the file-only lane (DB_TEST_LANE=files), whose tests change no setting while
#      a test of the other lane may be running, and finishing, with a journal;
#   4. unmounts tracefs if this script mounted it (need_root_tracefs), and removes
#      the directories of mktemp_dir.
# A test that passed but needed steps 1 or 3 fails: it left its machine changed.
# Scripts never set traps of their own: they call at_exit.

JOURNAL=${DEFERBENCH_JOURNAL:-/run/deferbench/journal.json}
_CLEANUP_STEPS=""	# at_exit commands, newest first, one per line
_CLEANUP_DIRS=""	# mktemp_dir directories
_MOUNTED_TRACEFS=""	# set by need_root_tracefs when it mounted tracefs

# at_exit CMD - run CMD (a shell command line) when the script exits, before the
# journal check; steps run newest first and their failures are ignored
at_exit() {
	_CLEANUP_STEPS="$1
$_CLEANUP_STEPS"
}

# _descendants PID - the pids of every process below PID (children, their children...)
_descendants() {
	ps -eo pid=,ppid= | awk -v root="$1" '
		{ parent[$1] = $2 }
		END {
			for (p in parent) {
				q = parent[p]
				for (n = 0; q != root && q in parent && n < 64; n++)
					q = parent[q]
				if (q == root)
					print p
			}
		}'
}

# _running PID... - true if one of them still runs (a zombie has finished)
_running() {
	for _p in "$@"; do
		_s=$(sed 's/.*) //' "/proc/$_p/stat" 2>/dev/null | cut -d' ' -f1)
		[ -n "$_s" ] && [ "$_s" != Z ] && [ "$_s" != X ] && return 0
	done
	return 1
}

# _stop_children - SIGTERM to every descendant, SIGKILL to what is left after 10 s;
# sets _live to the pids it had to stop (not in a subshell: it would be one of them)
_stop_children() {
	_pids=$(_descendants $$)
	_live=""
	for _p in $_pids; do
		_running "$_p" && _live="$_live $_p"
	done
	[ -n "$_live" ] || return 0
	kill -TERM $_live 2>/dev/null
	_i=0
	while _running $_live && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	_running $_live && kill -KILL $_live 2>/dev/null
	wait 2>/dev/null
	return 0
}

# _journal_pid - the process the journal names, or nothing (no journal, or none named)
_journal_pid() {
	sed -n 's/.*"pid" *: *\([0-9][0-9]*\).*/\1/p' "$JOURNAL" 2>/dev/null | head -n 1
}

# _journal_left - a journal is there whose owner is gone: read twice, so that a run
# that removed its journal as it exited, between the two looks, has not left one
_journal_left() {
	[ -e "$JOURNAL" ] || return 1
	_o=$(_journal_pid)
	[ -n "$_o" ] && _running "$_o" && return 1
	sleep 0.2
	[ -e "$JOURNAL" ] && [ "$(_journal_pid)" = "$_o" ] && ! { [ -n "$_o" ] && _running "$_o"; }
}

_cleanup() {
	_rc=$1
	_dirty=""
	trap '' INT TERM	# a second signal must not cut the cleanup short
	_stop_children
	[ -z "$_live" ] || _dirty="still running at exit:$_live"
	if [ -n "$_CLEANUP_STEPS" ]; then
		_steps=$_CLEANUP_STEPS
		_CLEANUP_STEPS=""
		eval "$_steps" >/dev/null 2>&1
	fi
	if [ "${DB_TEST_LANE:-machine}" != files ] && _journal_left; then
		echo "   cleanup: a journal was left: deferbench restore" >&2
		"${DB:-./deferbench}" restore >&2 || echo "   cleanup: restore FAILED" >&2
		_dirty="${_dirty:+$_dirty; }it left $JOURNAL (knobs changed)"
	fi
	[ -z "$_MOUNTED_TRACEFS" ] || umount /sys/kernel/tracing 2>/dev/null
	for _d in $_CLEANUP_DIRS; do
		rm -rf "$_d"
	done
	if [ -n "$_dirty" ]; then
		echo "   cleanup: $_dirty" >&2
		[ "$_rc" -ne 0 ] || _rc=1
	fi
	exit "$_rc"
}

trap '_cleanup $?' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
