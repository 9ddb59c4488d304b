# load-lib.sh - helpers for the t-load-*.sh tests (POSIX sh). Source after lib.sh.
#
# The workloads need root for real-time priorities and mlockall, and the checks read
# workload.json with jq.

need_root_jq() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (SCHED_FIFO, mlockall)"
	command -v jq >/dev/null 2>&1 || skip "jq is not installed (apt-get install jq)"
}

# counter FILE NAME - a counter of workload.json
counter() {
	jq -er ".counters[\"$2\"]" "$1" || fail "$1: no counter $2"
}

# metric FILE NAME FIELD - a field (count, p50, ...) of a metric of workload.json
metric() {
	jq -er ".metrics[] | select(.name == \"$2\") | .$3" "$1" || fail "$1: no metric $2"
}

# within WHAT VALUE LOW HIGH - fail unless LOW <= VALUE <= HIGH (numbers, maybe fractional)
within() {
	awk -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
		fail "$1 = $2, expected within [$3, $4]"
	echo "   $1 = $2 (within [$3, $4])"
}

# no_leftovers PID - nothing of run PID remains: its process and threads, its temporary
# directories, its cyclictest. Only what carries PID is checked: the machine is shared,
# and other runs (a scenario runner) may be using the same workloads meanwhile. That a
# long-lived process gets its threads and fds back is tested in test_workload_teardown.
no_leftovers() {
	_l=$(ls -d /tmp/deferbench-block-"$1"-* /tmp/deferbench-timer-"$1"-* 2>/dev/null || true)
	[ -z "$_l" ] || fail "temporary directories left behind: $_l"
	pgrep -f "deferbench-timer-$1-" >/dev/null && fail "cyclictest of run $1 still running"
	[ -d /proc/"$1" ] && fail "deferbench $1 (or one of its threads) still running"
	return 0
}

# run_load OUTDIR ARGS... - run 'deferbench load ARGS -o OUTDIR' in the background;
# sets LOAD_PID. Its stdout/stderr go to OUTDIR.out / OUTDIR.err.
run_load() {
	_o=$1
	shift
	"$DB" load "$@" -o "$_o" >"$_o.out" 2>"$_o.err" &
	LOAD_PID=$!
}

# wait_load EXPECTED_RC - wait for LOAD_PID and check its exit code
wait_load() {
	wait "$LOAD_PID"
	_rc=$?
	[ "$_rc" -eq "$1" ] || { cat "$_o.err" >&2; fail "deferbench load exited $_rc, not $1"; }
}
