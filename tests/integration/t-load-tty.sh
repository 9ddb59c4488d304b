#!/bin/sh
# t-load-tty.sh - the tty workload delivers every message at the rate asked, then
# closes its pty pair.
. tests/integration/lib.sh
. tests/integration/load-lib.sh
need_root_jq
mktemp_dir D

run_load "$D/r" tty rate=1000 -d 2s
wait_load 0
no_leftovers "$LOAD_PID"
J=$D/r/workload.json
assert_file "$J"
assert_file "$D/r/workload-hist.csv"
sent=$(counter "$J" sent)
within sent "$sent" 1800 2200
[ "$(counter "$J" received)" = "$sent" ] || fail "received != sent"
[ "$(counter "$J" lost)" = 0 ] || fail "lost messages"
[ "$(metric "$J" delivery count)" = "$sent" ] || fail "delivery count != sent"
within rate_achieved "$(counter "$J" rate_achieved)" 900 1100
# a terminal's delivery is tens of microseconds; allow a noisy machine 20 ms
within delivery_p50_ns "$(metric "$J" delivery p50)" 1000 20000000
exit 0
