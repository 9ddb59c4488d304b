#!/bin/sh
# t-net-threaded.sh - napi=threaded really moves the veth NAPI into napi/<dev>-N
# kthreads (one per end), they exist while the load runs and are gone afterwards;
# napi=softirq has none.
. tests/integration/lib.sh
. tests/integration/netlib.sh
need_root_netns
mktemp_dir T

# Every run lasts until the test has looked at it and sent SIGINT (nettool then reports
# as at its end): a run of a fixed duration could end before a slow machine let the
# test look.
before=$(ip netns list 2>/dev/null)
"$NETTOOL" duration=600s napi=threaded > "$T/out" 2> "$T/err" &
pid=$!
wait_ready "$T/out" $pid
n=$(napi_threads "dbv$pid-")
echo "   napi=threaded: $n napi/dbv$pid-* kthreads while running"
[ "$n" -eq 2 ] || { ps -eo pid,comm | grep napi; fail "expected 2 napi threads, found $n"; }
inodes=$(ns_inodes $pid)
[ -n "$inodes" ] || fail "nettool holds no namespace fd"
sleep 1		# something to answer: not a synchronisation
kill -INT $pid
wait $pid || { cat "$T/err"; fail "nettool failed"; }
[ "$(kv "$T/out" napi_threads)" -eq 2 ] || fail "nettool saw $(kv "$T/out" napi_threads) threads"
[ "$(kv "$T/out" napi_threads_after)" -eq 0 ] || fail "napi threads left after close"
# requests answered over threaded NAPI, every one accounted for
[ "$(kv "$T/out" received)" -gt 0 ] || fail "no request answered"
[ $(( $(kv "$T/out" sent) - $(kv "$T/out" received) )) -eq "$(kv "$T/out" lost)" ] ||
	fail "lost != sent - received"
no_leftovers "dbv$pid-" "$before" "$inodes"

"$NETTOOL" duration=1s napi=softirq > "$T/soft" 2> "$T/err" || { cat "$T/err"; fail "softirq run"; }
[ "$(kv "$T/soft" napi_threads)" -eq 0 ] || fail "napi=softirq has napi threads"

# The threads must also do the work. napi:napi_poll, filtered on this run's devices
# (so other traffic on the machine cannot blur it), says where each poll of the veth
# NAPI ran: its irq-info flags show 's' (serving a softirq) for a poll in NET_RX softirq,
# never for one in a napi/ thread (which polls with BH disabled: 'b'); and its pid says
# which task ran it. Never by task name: the trace prints names from the kernel's
# saved_cmdlines, which an instance made while the top-level option record-cmd is 0
# (as deferbench turns it for the moment it makes its own instance) never fills: every
# name is then "<...>". With TSO on (the veth default) local traffic bypasses veth's
# NAPI altogether and the softirq-mode count below would be 0: see netns_knob.c.
need_root_tracefs	# its cleanup unmounts tracefs if it mounted it
[ -d $TRACEFS/events/napi/napi_poll ] || skip_kernel "the kernel has no napi:napi_poll event"
INST=$TRACEFS/instances/dbnet-test-$$
at_exit "echo 0 > $INST/tracing_on; rmdir $INST"
mkdir "$INST" || fail "cannot create tracefs instance $INST"
echo 4096 > "$INST/buffer_size_kb"
echo 'dev_name ~ "dbv*"' > "$INST/events/napi/napi_poll/filter" || fail "napi_poll filter"
echo 1 > "$INST/events/napi/napi_poll/enable" || fail "cannot enable napi:napi_poll"
for mode in softirq threaded; do
	echo > "$INST/trace"
	"$NETTOOL" duration=600s rate=2000 napi=$mode > "$T/$mode" 2> "$T/err" &
	pid=$!
	wait_ready "$T/$mode" $pid
	# the napi threads of this run, by pid (listed while it runs: ready is printed
	# once the devices are set up, and they stay until the load has stopped)
	ps -eo pid=,comm= | awk -v p="napi/dbv$pid-" 'index($2, p) == 1 { print $1 }' > "$T/$mode.pids"
	sleep 2		# something to trace: not a synchronisation
	kill -INT $pid
	wait $pid || { cat "$T/err"; fail "$mode run"; }
	grep "device dbv$pid-" "$INST/trace" > "$T/$mode.polls"
	# task-pid [cpu] flags: the pid after the last '-', the softirq flag third
	awk -v pids=" $(echo $(cat "$T/$mode.pids")) " '
		{ n = split($1, t, "-"); total++; if (substr($3, 3, 1) == "s") insoft++
		  if (index(pids, " " t[n] " ")) bythread++ }
		END { print total + 0, insoft + 0, bythread + 0 }' "$T/$mode.polls" > "$T/$mode.count"
	read total insoft bythread < "$T/$mode.count"
	echo "   napi=$mode: $total polls of dbv$pid-* NAPI, $insoft in softirq, $bythread by" \
		"its $(wc -l < "$T/$mode.pids") napi/ threads"
	# every request and response went through the veth NAPI: polls there were
	[ "$total" -ge 1 ] && [ "$(kv "$T/$mode" received)" -gt 0 ] ||
		fail "napi=$mode: $total NAPI polls for $(kv "$T/$mode" received) responses"
	case $mode in
	softirq) [ "$insoft" -eq "$total" ] ||
		fail "napi=softirq: $((total - insoft)) polls ran outside NET_RX softirq" ;;
	threaded)
		[ "$(wc -l < "$T/$mode.pids")" -eq 2 ] || fail "napi=threaded: no 2 napi threads listed"
		[ "$insoft" -eq 0 ] || fail "napi=threaded: $insoft polls ran in NET_RX softirq"
		[ "$bythread" -eq "$total" ] ||
			fail "napi=threaded: $((total - bythread)) polls ran outside the napi/ threads" ;;
	esac
done
exit 0
