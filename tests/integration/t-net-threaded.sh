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
[ "$(kv "$T/out" received)" -gt 5000 ] || fail "received $(kv "$T/out" received)"
no_leftovers "dbv$pid-" "$before" "$inodes"

"$NETTOOL" duration=1s napi=softirq > "$T/soft" 2> "$T/err" || { cat "$T/err"; fail "softirq run"; }
[ "$(kv "$T/soft" napi_threads)" -eq 0 ] || fail "napi=softirq has napi threads"

# The threads must also do the work: NET_RX softirqs per request/response packet in
# softirq mode, (almost) none in threaded mode. With TSO on (the veth default) local
# traffic bypasses veth's NAPI and this would fail: see netns_knob.c.
net_rx() {
	awk '$1 == "NET_RX:" { s = 0; for (i = 2; i <= NF; i++) s += $i; print s }' /proc/softirqs
}
for mode in softirq threaded; do
	r0=$(net_rx)
	"$NETTOOL" duration=2s rate=2000 napi=$mode > "$T/$mode" 2> "$T/err" ||
		{ cat "$T/err"; fail "$mode run"; }
	eval "rx_$mode=\$((\$(net_rx) - r0))"
done
echo "   NET_RX softirqs during 2 s at 2000 req/s: softirq mode $rx_softirq," \
	"threaded mode $rx_threaded"
[ "$rx_softirq" -ge 4000 ] || fail "softirq mode raised only $rx_softirq NET_RX"
[ "$rx_threaded" -lt $((rx_softirq / 4)) ] ||
	fail "threaded mode still ran $rx_threaded NET_RX softirqs (softirq mode: $rx_softirq)"
exit 0
