#!/bin/sh
# t-load-errors.sh - bad input is an error naming the option and bound, exit 1, and
# leaves nothing behind. Needs no root.
. tests/integration/lib.sh
mktemp_dir D
leftovers() { ls -d /tmp/deferbench-block-* /tmp/deferbench-timer-* 2>/dev/null | wc -l; }
before=$(leftovers)

# expect_error MESSAGE ARGS... - 'deferbench load ARGS' exits 1 saying MESSAGE
expect_error() {
	_m=$1
	shift
	"$DB" load "$@" -d 1s -o "$D/out" >/dev/null 2>"$D/err"
	_rc=$?
	[ $_rc -eq 1 ] || fail "load $*: exit $_rc, not 1"
	grep -qF "$_m" "$D/err" || fail "load $*: message '$(cat "$D/err")' lacks '$_m'"
	[ ! -e "$D/out" ] || fail "load $*: results written for a failed run"
}

expect_error "tty option 'rate': 0 is out of range [1, 20000]" tty rate=0
expect_error "'abc' is not a non-negative integer" tty --rate abc
expect_error "tty has no option 'bogus' (options: rate, size" tty --bogus 1
expect_error "timer option 'period': 10us is out of range [100us, 1s]" timer period=10us
expect_error "timer option 'interval' is now 'period'" timer --interval 2ms
expect_error "is not online" hog cpus=1023
expect_error "hog option 'priority': 100 is out of range [1, 99]" hog priority=100
expect_error "is below the 100us this workload can pace" audio frames=16 rate=384000
expect_error "'fast' is none of timer, net" audio mode=fast
expect_error "no workload 'nope'" nope
expect_error "unexpected argument 'foo'" tty foo
expect_error "load: --interval: 10us is shorter than 1ms" tty -i 10us
expect_error "load: --interval: 'soon' is not a duration" tty --interval soon
"$DB" load --list >"$D/list" || fail "load --list failed"
for wl in timer audio tty block hog; do
	grep -q "^$wl - " "$D/list" || fail "--list lacks $wl"
done
# --interval: standalone, the intervals lie on multiples of their length of
# CLOCK_MONOTONIC (what tests/perf/alternate.py lines up with evtoggle's phases)
up0=$(mono)
"$DB" load tty -d 1s -i 100ms -o "$D/iv" >/dev/null 2>"$D/err" || fail "load -i: $(cat "$D/err")"
up1=$(mono)
[ "$(jq -r .interval_s "$D/iv/workload.json")" = 0.1 ] ||
	fail "-i 100ms: interval_s $(jq -r .interval_s "$D/iv/workload.json")"
# (on CLOCK_MONOTONIC, within the load's life: an interval may begin up to 100 ms
# before the load did)
awk -F, -v up0="$up0" -v up1="$up1" 'NR > 1 {
	n++; if ($2 != sprintf("%.3f", $1 / 10) || $2 > up1 + 0 || $2 < up0 - 0.1) bad = $1 " " $2 }
	END { if (n < 9 || bad != "") { print "bad interval rows: " n " " bad; exit 1 } }' \
	"$D/iv/workload-intervals.csv" || fail "-i 100ms: rows not on CLOCK_MONOTONIC tenths"
[ "$(leftovers)" = "$before" ] || fail "temporary directories left behind"
exit 0
