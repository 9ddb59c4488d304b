#!/bin/sh
# t-net-threaded.sh - napi=threaded really moves the veth NAPI into napi/<dev>-N
# kthreads (one per end), they exist while the load runs and are gone afterwards;
# napi=softirq has none.
. tests/integration/lib.sh
. tests/integration/netlib.sh
need_root_netns
mktemp_dir T

before=$(ip netns list 2>/dev/null)
"$NETTOOL" duration=3s napi=threaded > "$T/out" 2> "$T/err" &
pid=$!
wait_ready "$T/out" $pid
n=$(napi_threads "dbv$pid-")
echo "   napi=threaded: $n napi/dbv$pid-* kthreads while running"
[ "$n" -eq 2 ] || { ps -eo pid,comm | grep napi; fail "expected 2 napi threads, found $n"; }
inodes=$(ns_inodes $pid)
[ -n "$inodes" ] || fail "nettool holds no namespace fd"
wait $pid || { cat "$T/err"; fail "nettool failed"; }
[ "$(kv "$T/out" napi_threads)" -eq 2 ] || fail "nettool saw $(kv "$T/out" napi_threads) threads"
[ "$(kv "$T/out" napi_threads_after)" -eq 0 ] || fail "napi threads left after close"
# 3 s at 2000/s: at least half of the 6000 requests answered, whatever the machine
[ "$(kv "$T/out" received)" -ge 3000 ] || fail "received $(kv "$T/out" received) of 6000"
no_leftovers "dbv$pid-" "$before" "$inodes"

"$NETTOOL" duration=1s napi=softirq > "$T/soft" 2> "$T/err" || { cat "$T/err"; fail "softirq run"; }
[ "$(kv "$T/soft" napi_threads)" -eq 0 ] || fail "napi=softirq has napi threads"

# The threads must also do the work. napi:napi_poll, filtered on this run's devices
# (so other traffic on the machine cannot blur it), says which task ran each poll of
# the veth NAPI: never a napi/ thread in softirq mode, only napi/ threads in threaded
# mode. With TSO on (the veth default) local traffic bypasses veth's NAPI altogether and
# the softirq-mode count below would be 0: see netns_knob.c.
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
	"$NETTOOL" duration=2s rate=2000 napi=$mode > "$T/$mode" 2> "$T/err" ||
		{ cat "$T/err"; fail "$mode run"; }
	dev="dbv$(kv "$T/$mode" pid)-"
	grep "device $dev" "$INST/trace" > "$T/$mode.polls"
	total=$(wc -l < "$T/$mode.polls")
	bythread=$(grep -c '^ *napi/' "$T/$mode.polls")
	echo "   napi=$mode: $total polls of $dev* NAPI, $bythread of them by napi/ threads"
	# 8000 packets; a poll takes what has queued, so a busy machine polls less often
	[ "$total" -ge 100 ] || fail "napi=$mode: only $total NAPI polls for 8000 packets"
	case $mode in
	softirq) [ "$bythread" -eq 0 ] || fail "napi=softirq: polls ran in napi/ threads" ;;
	threaded) [ "$bythread" -eq "$total" ] ||
		fail "napi=threaded: $((total - bythread)) polls ran outside the napi/ threads" ;;
	esac
done
exit 0
