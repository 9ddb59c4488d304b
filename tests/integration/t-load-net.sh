#!/bin/sh
# t-load-net.sh - 'deferbench load net' measures round trips at the rate asked with the
# veth NAPI in softirq and in napi/ kthreads (which exist only in threaded mode, only
# while it runs); audio's mode=net runs over threaded NAPI too, xruns counted. Nothing
# of either survives: no dbv veth, no napi thread, no namespace.
. tests/integration/lib.sh
. tests/integration/load-lib.sh
. tests/integration/netlib.sh	# its no_leftovers (veth, napi, netns) replaces load-lib's
need_root_jq
need_root_netns
mktemp_dir D
before=$(ip netns list 2>/dev/null)

# Each load runs until the test has looked at it and sent SIGINT: a load of a fixed
# duration could end before a slow machine let the test look.

# running_napi PID WANT - while PID runs (set up: its veth pair is up), it has WANT
# napi/ threads
running_napi() {
	[ "$(napi_threads "dbv$1-")" -eq "$2" ] ||
		fail "$(napi_threads "dbv$1-") napi/dbv$1-* threads, expected $2"
	echo "   $2 napi/dbv$1-* threads while running"
}

# devices_up PID - both namespaces PID holds have its dbvPID- device up: setup is done
devices_up() {
	_n=0
	for _f in /proc/"$1"/fd/*; do
		case $(readlink "$_f" 2>/dev/null) in net:*) ;; *) continue ;; esac
		nsenter --net="$_f" ip -o link show up 2>/dev/null | grep -q ": dbv$1-" &&
			_n=$((_n + 1))
	done
	[ $_n -ge 2 ]
}

# two_namespaces PID - PID holds its namespace pair
two_namespaces() {
	[ "$(ns_inodes "$1" | wc -w)" -ge 2 ]
}

# held_namespaces PID - the namespaces PID holds, once it holds two
held_namespaces() {
	wait_for two_namespaces "$1" || fail "deferbench $1 holds no namespace pair"
	ns_inodes "$1"
}

for mode in softirq threaded; do
	run_load "$D/$mode" net napi=$mode rate=2000 -d 600s
	pid=$LOAD_PID
	inodes=$(held_namespaces $pid)
	wait_for devices_up $pid || fail "napi=$mode: the veth pair never came up"
	# up, and the threads are made after: wait for the load's own threads (db-)
	wait_for grep -qs '^db-rr-send' /proc/$pid/task/*/comm || fail "napi=$mode: the load never ran"
	case $mode in
	softirq) running_napi $pid 0 ;;
	threaded) running_napi $pid 2 ;;
	esac
	sleep 2		# something to measure: not a synchronisation
	kill -INT $pid
	wait_load 0
	[ -d /proc/$pid ] && fail "deferbench $pid still running"
	no_leftovers "dbv$pid-" "$before" "$inodes"
	J=$D/$mode/workload.json
	sent=$(counter "$J" sent)
	received=$(counter "$J" received)
	echo "   napi=$mode: rtt p50 $(metric "$J" rtt p50) ns, p99 $(metric "$J" rtt p99) ns"
	# 2000/s over the window, on an absolute schedule: never more than were due; late
	# requests are sent late, not skipped (only the backlog at the stop is not sent)
	due=$(jq -r '.duration_s * 2000 | floor' "$J")
	within "napi=$mode sent" "$sent" $((due / 2)) $((due + 1))
	[ "$(metric "$J" rtt count)" = "$received" ] || fail "napi=$mode: rtt count != received"
	[ $((received + $(counter "$J" lost))) -eq "$sent" ] ||
		fail "napi=$mode: received $received + lost $(counter "$J" lost) != sent $sent"
	within "napi=$mode received" "$received" $((sent / 2)) "$sent"
	[ "$(counter "$J" napi_threads)" -eq "$([ $mode = threaded ] && echo 2 || echo 0)" ] ||
		fail "napi=$mode: napi_threads counter $(counter "$J" napi_threads)"
done

run_load "$D/audio" audio mode=net napi=threaded -d 600s
pid=$LOAD_PID
inodes=$(held_namespaces $pid)
wait_for devices_up $pid || fail "audio: the veth pair never came up"
wait_for grep -qs '^db-' /proc/$pid/task/*/comm || fail "audio: the load never ran"
running_napi $pid 2
sleep 2		# something to measure: not a synchronisation
kill -INT $pid
wait_load 0
[ -d /proc/$pid ] && fail "deferbench $pid still running"
no_leftovers "dbv$pid-" "$before" "$inodes"
J=$D/audio/workload.json
every_period "$J" "$(counter "$J" lost_packets)" 8
[ "$(metric "$J" wakeup count)" = "$(counter "$J" periods)" ] || fail "audio: wakeup count != periods"
xruns_match "$D/audio"
[ "$(counter "$J" napi_threads)" -eq 2 ] || fail "audio: napi_threads $(counter "$J" napi_threads)"
[ "$(jq -r .options.napi "$J")" = threaded ] || fail "audio: option napi not recorded"

# the NAPI options belong to mode=net, napi_prio to threaded NAPI
expect_message "$D/bad" "audio options 'napi' and 'napi_prio' apply to mode=net" \
	"$DB" load audio napi=threaded -d 1s
expect_message "$D/bad" "audio option 'napi_prio' needs napi=threaded" \
	"$DB" load audio mode=net napi_prio=50 -d 1s
exit 0
