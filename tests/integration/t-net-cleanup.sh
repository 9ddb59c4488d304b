#!/bin/sh
# t-net-cleanup.sh - however nettool ends, nothing of the topology survives it:
# SIGINT and SIGTERM run the teardown; SIGKILL runs none, and the anonymous
# namespaces still die with their last file descriptor, taking the veth with them.
. tests/integration/lib.sh
. tests/integration/netlib.sh
need_root_netns
mktemp_dir T

before=$(ip netns list 2>/dev/null)
for sig in INT TERM KILL; do
	"$NETTOOL" duration=60s napi=threaded flood=10000 tcp=1 > "$T/$sig" 2> "$T/$sig.err" &
	pid=$!
	wait_ready "$T/$sig" $pid	# "ready": the load runs
	inodes=$(ns_inodes $pid)
	[ "$(echo "$inodes" | wc -w)" -eq 2 ] || fail "expected 2 namespace fds, got: $inodes"
	[ "$(napi_threads "dbv$pid-")" -eq 2 ] || fail "no napi threads before SIG$sig"
	kill -$sig $pid
	{ wait $pid; } 2>/dev/null	# no "Killed" line from the shell
	rc=$?
	case $sig in
	KILL) [ $rc -eq 137 ] || fail "SIGKILL: exit $rc" ;;
	*) [ $rc -eq 0 ] || { cat "$T/$sig.err"; fail "SIG$sig: exit $rc"; }
	   grep -q '^interrupted=1$' "$T/$sig" || fail "SIG$sig did not interrupt the run"
	   [ "$(kv "$T/$sig" napi_threads_after)" -eq 0 ] || fail "SIG$sig: napi threads after close" ;;
	esac
	no_leftovers "dbv$pid-" "$before" "$inodes"
	echo "   SIG$sig: nothing left (namespaces $(echo $inodes))"
done
exit 0
