#!/bin/sh
# t-net-rr.sh - 2 s of UDP request/response at 2000/s between two private namespaces:
# requests go out on an absolute schedule (never more than were due), each one is
# answered or counted lost, the RTT histogram holds one sample per answer, and nothing
# is left behind. Bad options are refused (exit 2; 1 when the topology cannot be built)
# before anything is created.
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
# 2 s at 2000/s: 4000 requests due (a slow machine sends late, not fewer: only the
# backlog at the end is not sent)
# at most what fell due while the sender ran, by its own clock (a busy machine wakes
# the stop late, and the sender sends on until then); at least half of it
due=$(awk -v s="$(kv "$T/out" send_s)" 'BEGIN { printf "%d", s * 2000 + 1 }')
within sent "$sent" $((due / 2)) "$due"
[ "$rtt" -eq "$recv" ] || fail "rtt_count $rtt != received $recv"
[ $((sent - recv)) -eq "$lost" ] || fail "lost $lost != sent $sent - received $recv"
[ "$recv" -ge $((sent / 2)) ] || fail "received $recv of $sent"
[ "$(kv "$T/out" errors)" -eq 0 ] || fail "errors: $(kv "$T/out" errors)"
[ "$(kv "$T/out" interrupted)" = "" ] || fail "the run says it was interrupted"
# every RTT is at least its two one-way parts
[ "$(kv "$T/out" rtt_p50_ns)" -ge "$(kv "$T/out" fwd_p50_ns)" ] || fail "rtt p50 < fwd p50"
no_leftovers "dbv$(kv "$T/out" pid)-" "$before" ""

# with bulk load and busy polling: the options reach the kernel and the load flows
"$NETTOOL" duration=1s rate=1000 flood=20000 tcp=2 busy_poll=20 rps=0 > "$T/bulk" 2> "$T/err" ||
	{ cat "$T/err"; fail "nettool with flood and tcp failed"; }
[ "$(kv "$T/bulk" flood_received)" -gt 0 ] || fail "the flood never arrived"
[ "$(kv "$T/bulk" tcp_bytes)" -gt 0 ] || fail "the tcp streams moved nothing"
[ "$(kv "$T/bulk" received)" -gt 0 ] || fail "no request answered under load"
[ $(( $(kv "$T/bulk" sent) - $(kv "$T/bulk" received) )) -eq "$(kv "$T/bulk" lost)" ] ||
	fail "under load: lost != sent - received"
no_leftovers "dbv$(kv "$T/bulk" pid)-" "$before" ""

# bad options fail before anything is created: a value out of range is a usage error
# (2), a combination the topology cannot have an error (1)
expect_message "$T/bad" "napi=threaded needs gro: veth has no NAPI of its own without it" \
	"$NETTOOL" napi=threaded gro=off
expect_exit 2 "$T/bad" "$NETTOOL" size=10
grep -qF "10 is out of range [40, 65507] bytes" "$T/bad" || fail "size=10: $(cat "$T/bad")"
ip -o link show type veth | grep -q dbv && fail "a refused run left a dbv veth"
[ "$(ip netns list 2>/dev/null)" = "$before" ] || fail "a refused run changed ip netns list"
exit 0
