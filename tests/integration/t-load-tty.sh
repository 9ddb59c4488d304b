#!/bin/sh
# t-load-tty.sh - the tty workload delivers every message it wrote in the window, and
# each delivery is one sample of its histograms (workload.json and workload-hist.csv),
# then closes its pty pair. It writes at most the rate asked (late messages are written
# late, not skipped); how late is a measurement, not a criterion.
. tests/integration/lib.sh
. tests/integration/load-lib.sh
need_root_jq
mktemp_dir D

run_load "$D/r" tty rate=1000 -d 2s
wait_load 0
no_leftovers "$LOAD_PID"
J=$D/r/workload.json
H=$D/r/workload-hist.csv
sent=$(counter "$J" sent)
due=$(jq -r '.duration_s * 1000 | floor' "$J")
within sent "$sent" $((due / 2)) $((due + 1))
[ "$(counter "$J" received)" = "$sent" ] || fail "received $(counter "$J" received) != sent $sent"
[ "$(counter "$J" lost)" = 0 ] || fail "lost messages"
[ "$(counter "$J" late)" -le "$sent" ] || fail "more late messages than messages"
for m in delivery write_to_read; do
	[ "$(metric "$J" $m count)" = "$sent" ] || fail "$m count $(metric "$J" $m count) != sent $sent"
	# the histogram file holds the same samples: its buckets add up to sent, and its
	# lowest and highest buckets hold min and max
	set -- $(awk -F, -v m="\"$m\"" '$1 == m { n += $4; if (lo == "") lo = $2; hi = $3 }
		END { print n + 0, lo, hi }' "$H")
	[ "$1" = "$sent" ] || fail "workload-hist.csv: $m buckets add up to $1, not sent $sent"
	min=$(metric "$J" $m min)
	max=$(metric "$J" $m max)
	[ "$2" -le "$min" ] && [ "$min" -lt "$3" ] && [ "$max" -lt "$3" ] ||
		fail "workload-hist.csv: $m spans [$2, $3), min $min and max $max outside"
	[ "$min" -le "$(metric "$J" $m p50)" ] && [ "$(metric "$J" $m p50)" -le "$max" ] ||
		fail "$m p50 outside [min, max]"
done
# a message is delivered after it is written, and written at or after it is due
[ "$(metric "$J" write_to_read min)" -le "$(metric "$J" delivery min)" ] ||
	fail "write_to_read min above delivery min: a message was read before it was written"
exit 0
