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

# audio_due J - how many audio periods fell in the window of workload.json J (its
# duration over frames / rate), rounded down
audio_due() {
	jq -r '(.duration_s * (.options.rate | tonumber) / (.options.frames | tonumber)) | floor' "$1"
}

# every_period J LOST [TAIL] - audio: each period of the window is counted once: run,
# dropped (its slot passed while the thread was busy) or lost (mode=net); the first
# and last may straddle the window's edges. mode=net knows a packet lost only when a
# later one arrives: the packets still in flight at the stop (TAIL at most) are neither.
# Without a measurement window (deferbench load) the run's duration starts when start
# has returned, but a period that fell due while start still ran (its thread started,
# the main thread preempted before it returned) is recorded, by design (test_window.c):
# as many as fall due in the start_s the workload reports (a 333 us period beside a CPU
# hog: a dozen).
every_period() {
	_n=$(( $(counter "$1" periods) + $(counter "$1" dropped) + $2 ))
	_d=$(audio_due "$1")
	# the periods that fell due while start ran (start_s, as the workload reports it)
	_s=$(jq -r '(.start_s // 0) * (.options.rate | tonumber) / (.options.frames | tonumber) |
		ceil' "$1")
	within "periods + dropped + lost ($(basename "$(dirname "$1")"))" "$_n" \
		$((_d - 2 - ${3:-0})) $((_d + 2 + _s))
}

# xruns_match DIR - xruns is the count of finish times above one period, read from the
# finish histogram in workload-hist.csv (a bucket spans < 0.8%: the one holding the
# period itself may go either way)
xruns_match() {
	_j=$1/workload.json
	_p=$(jq -r '1e9 * (.options.frames | tonumber) / (.options.rate | tonumber) | floor' "$_j")
	_x=$(counter "$_j" xruns)
	set -- $(awk -F, -v p="$_p" '$1 == "\"finish\"" {
			if ($2 > p) sure += $4; else if ($3 > p + 1) maybe += $4 }
		END { print sure + 0, sure + maybe }' "$1/workload-hist.csv")
	within "xruns" "$_x" "$1" "$2"
}
