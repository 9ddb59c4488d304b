#!/bin/sh
# t-tune-metric.sh - tune judging a program that is not deferbench by the latency it
# prints: ping over a veth pair between two namespaces of the test's own.
#  1. ping as tune's COMMAND, its replies turned into the line format by awk
#     ("[TIMESTAMP] LATENCYms") into a file that tune reads while it runs, with three
#     bad lines (garbage, negative, absurd) among them: an answer on workload:latency,
#     the bad lines counted and said, every setting back;
#  2. --live --latency: a ping already running, writing its own output (-D) to a file, is
#     judged without being restarted, and still runs after;
#  3. a latency command that ends early: an error that says so, exit 1, every setting back.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_tracefs
need_root_wq
command -v jq >/dev/null 2>&1 || skip "jq is not installed (ci/install-deps.sh)"
command -v ping >/dev/null 2>&1 || skip "ping is not installed (iputils-ping; ci/install-deps.sh)"
unshare -n true 2>/dev/null || skip_kernel "cannot create a network namespace here"
mktemp_dir T
snapshot "$T/before"

# the namespaces and the veth pair, removed on every exit path
N=dbtm$$
at_exit "ip netns del $N-a 2>/dev/null; ip netns del $N-b 2>/dev/null"
ip netns add $N-a && ip netns add $N-b || fail "cannot create the namespaces"
ip link add ${N}a netns $N-a type veth peer name ${N}b netns $N-b || fail "cannot create the veth pair"
ip -n $N-a addr add 10.99.77.1/24 dev ${N}a
ip -n $N-b addr add 10.99.77.2/24 dev ${N}b
ip -n $N-a link set ${N}a up && ip -n $N-b link set ${N}b up || fail "cannot bring the veth up"
PING="ip netns exec $N-a ping -D -i 0.01 10.99.77.2"

# 1. ping as the command, in the line format. -d 14s: six blocks of two arms
# (the machine as it is and the --try: --allow napi adds nothing without --probe net)
# (three bad lines about 5 s in: while the run reads the file)
cat > "$T/lines.sh" <<SH
#!/bin/sh
exec $PING | awk 'NR == 500 { print "garbage"; print "-5ms"; print "99999s" }
	/time=/ { t = \$1; sub(/.*time=/, ""); print t, \$1 "ms"; fflush() }'
SH
chmod +x "$T/lines.sh"
$DB tune -d 14s --phase 1s --survey 1s --allow napi --try sched.ksoftirqd=fifo:1 \
	--latency "$T/lat.txt" -o "$T/tune" -- sh -c "exec '$T/lines.sh' > '$T/lat.txt'" \
	> "$T/out.txt" 2>&1 || { cat "$T/out.txt"; fail "tune exited $?"; }
grep -Eq '^tune: (use|keep|exploratory)' "$T/out.txt" || { cat "$T/out.txt"; fail "no answer"; }
grep -q '^    workload:latency:p50 ' "$T/out.txt" ||
	{ cat "$T/out.txt"; fail "ping's latency was not judged"; }
grep -q "^metric = $T/lat.txt\$" "$T/tune/tune.ini" || fail "tune.ini lacks the metric"
wl=$(ls -d "$T"/tune/run/cells/*/ | head -1)
jq -e '.counters.metric_in_window > 100' "$wl/workload.json" >/dev/null ||
	fail "too few samples of ping in the measurement: $(jq -c .counters "$wl/workload.json")"
jq -e '.counters.metric_lines_skipped == 3' "$wl/workload.json" >/dev/null ||
	fail "the bad lines were not counted: $(jq -c .counters "$wl/workload.json")"
grep -q "3 lines skipped: 1 not a sample (line [0-9]* 'garbage'), 1 negative (line [0-9]* '-5ms'), 1 absurd" \
	"$T/out.txt" || { cat "$T/out.txt"; fail "the bad lines were not said"; }
same_as "$T/before"
[ ! -e "$JOURNAL" ] || fail "tune left a knobs journal"

# 2. --live: a ping that runs already, judged by its own output, not restarted
$PING > "$T/live.txt" 2>&1 &
ping_pid=$!
at_exit "kill $ping_pid 2>/dev/null"
sleep 1
$DB tune --live -d 14s --phase 1s --survey 1s --allow napi --try sched.ksoftirqd=fifo:1 \
	--latency "$T/live.txt" -o "$T/live" > "$T/live-out.txt" 2>&1 ||
	{ cat "$T/live-out.txt"; fail "tune --live exited $?"; }
grep -q '^    workload:rtt:p50 ' "$T/live-out.txt" ||
	{ cat "$T/live-out.txt"; fail "the running ping's latency was not judged"; }
kill -0 $ping_pid 2>/dev/null || fail "tune --live stopped the ping it judged"
kill $ping_pid
wait $ping_pid 2>/dev/null
same_as "$T/before"

# 3. a latency command that ends at once: nothing could be judged
expect_message "$T/err" "ended (status 3) while the run went on" \
	$DB tune --live -d 14s --phase 1s --survey 1s --allow napi --try sched.ksoftirqd=fifo:1 \
	--latency-cmd "echo 1ms && echo gone >&2 && exit 3" -o "$T/early"
grep -q 'it printed on stderr: gone' "$T/err" || { cat "$T/err"; fail "the command's stderr is not shown"; }
same_as "$T/before"
[ ! -e "$JOURNAL" ] || fail "a failed tune left a knobs journal"
echo "   $(grep -E '^tune: (use|keep|exploratory)' "$T/live-out.txt" | cut -c1-100)"
exit 0
