#!/bin/sh
# t-net-rr.sh - 2 s of UDP request/response at 2000/s between two private namespaces:
# every request is sent on schedule and answered, the RTT histogram holds one sample
# per answer, and nothing is left behind.
. tests/integration/lib.sh
. tests/integration/netlib.sh
need_root_netns
mktemp_dir T

before=$(ip netns list 2>/dev/null)
"$NETTOOL" duration=2s rate=2000 > "$T/out" 2> "$T/err" || { cat "$T/err"; fail "nettool failed"; }
sent=$(kv "$T/out" sent)
recv=$(kv "$T/out" received)
lost=$(kv "$T/out" lost)
rtt=$(kv "$T/out" rtt_count)
rate=$(kv "$T/out" rate_sent)
echo "   sent=$sent received=$recv lost=$lost rtt_count=$rtt rate_sent=$rate" \
	"rtt_p50=$(kv "$T/out" rtt_p50_ns)ns rtt_p99=$(kv "$T/out" rtt_p99_ns)ns"
# 2 s at 2000/s: 4000 requests (the schedule is absolute, a slow machine sends late, not fewer)
[ "$sent" -ge 3900 ] && [ "$sent" -le 4001 ] || fail "sent $sent, expected about 4000"
[ "$rtt" -eq "$recv" ] || fail "rtt_count $rtt != received $recv"
[ $((sent - recv)) -eq "$lost" ] || fail "lost $lost != sent $sent - received $recv"
[ "$lost" -le $((sent / 100)) ] || fail "lost $lost of $sent on an idle veth"
[ "$(kv "$T/out" errors)" -eq 0 ] || fail "errors: $(kv "$T/out" errors)"
# every RTT is at least its two one-way parts
[ "$(kv "$T/out" rtt_p50_ns)" -ge "$(kv "$T/out" fwd_p50_ns)" ] || fail "rtt p50 < fwd p50"
no_leftovers "dbv$(kv "$T/out" pid)-" "$before" ""

# with bulk load and busy polling: the options reach the kernel and the load flows
"$NETTOOL" duration=1s rate=1000 flood=20000 tcp=2 busy_poll=20 rps=0 > "$T/bulk" 2> "$T/err" ||
	{ cat "$T/err"; fail "nettool with flood and tcp failed"; }
[ "$(kv "$T/bulk" flood_received)" -gt 0 ] || fail "the flood never arrived"
[ "$(kv "$T/bulk" tcp_bytes)" -gt 0 ] || fail "the tcp streams moved nothing"
[ "$(kv "$T/bulk" received)" -gt 900 ] || fail "requests under load: $(kv "$T/bulk" received)"
no_leftovers "dbv$(kv "$T/bulk" pid)-" "$before" ""

# bad options fail before anything is created
"$NETTOOL" napi=threaded gro=off > "$T/bad" 2>&1 && fail "napi=threaded gro=off was accepted"
grep -q "needs gro" "$T/bad" || fail "no reason given for napi=threaded gro=off"
"$NETTOOL" size=10 > "$T/bad" 2>&1 && fail "size=10 was accepted"
exit 0
