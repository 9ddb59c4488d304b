# machine-lock.sh - sourced by the runners that trace and change the machine
# (run-integration.sh, run-sanitized.sh): one at a time on a machine. Two would see each
# other's knobs, journal, veths and tracefs instances (a second session's tune once
# failed CI's t-analyze-hostile.sh). The lock is held on fd 9 until the sourcing shell
# exits; a runner started under it (t-cleanup.sh starts one) inherits it and does not
# wait for itself. The lock file is /run/lock/deferbench-machine.lock (a tmpfs emptied
# at boot; /tmp where there is no /run/lock); DB_MACHINE_LOCK names another.
if [ -z "${DB_MACHINE_LOCK_HELD:-}" ] && command -v flock > /dev/null; then
	_lock=/tmp/deferbench-machine.lock
	[ -d /run/lock ] && [ -w /run/lock ] && _lock=/run/lock/deferbench-machine.lock
	_lock=${DB_MACHINE_LOCK:-$_lock}
	exec 9> "$_lock" || exit 1
	if ! flock -n 9; then
		echo "runner: another measurement holds $_lock; waiting for it"
		flock 9
	fi
	export DB_MACHINE_LOCK_HELD=1
fi
