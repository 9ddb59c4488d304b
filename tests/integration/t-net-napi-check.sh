#!/bin/sh
# t-net-napi-check.sh - the net workload fails a run whose NAPI did not poll where napi=
# says (issue 23), with the reason: the veth NAPI bypassed (napi=threaded tso=on: the
# napi/ threads never run), or threaded mode undone from outside during the run.
# A threaded run whose napi/ threads did the polling passes.
. tests/integration/lib.sh
. tests/integration/load-lib.sh
. tests/integration/netlib.sh
need_root_jq
need_root_netns
mktemp_dir D

run_load "$D/ok" net napi=threaded -d 2s
wait_load 0
echo "   napi=threaded: ran, $(counter "$D/ok/workload.json" received) responses"

# TSO on the sending end sends local traffic to the per-CPU backlog: veth's NAPI, and
# its threads, see none of it (docs/net-workload.md)
run_load "$D/tso" net napi=threaded tso=on -d 2s
wait_load 1
grep -q "napi thread [0-9]* never ran while both ends received" "$D/tso.err" ||
	{ cat "$D/tso.err" >&2; fail "napi=threaded tso=on: no NAPI failure reported"; }
echo "   napi=threaded tso=on: $(grep -o 'napi thread.*softirq' "$D/tso.err")"

# threaded mode undone during the run: written 0 inside the device's namespace (its
# sysfs, mounted in a mount namespace of the writer's own), then the run stopped
run_load "$D/undo" net napi=threaded -d 600s
pid=$LOAD_PID
# its_napi - both napi threads of the run exist: setup is done and the load runs
its_napi() { [ "$(napi_threads "dbv$pid-")" -eq 2 ]; }
wait_for its_napi || fail "the napi threads of deferbench $pid never appeared"
undone=0
for f in /proc/$pid/fd/*; do
	case $(readlink "$f" 2>/dev/null) in net:*) ;; *) continue ;; esac
	dev=$(nsenter --net="$f" ip -o link show 2>/dev/null | grep -o "dbv$pid-[0-9]*[ab]" | head -1)
	[ -n "$dev" ] || continue
	nsenter --net="$f" unshare -m sh -c "mount -t sysfs sysfs /sys &&
		echo 0 > /sys/class/net/$dev/threaded && cat /sys/class/net/$dev/threaded" \
		> "$D/undo.back" 2>&1 || { cat "$D/undo.back"; fail "cannot write $dev/threaded"; }
	[ "$(cat "$D/undo.back")" = 0 ] || fail "$dev/threaded reads $(cat "$D/undo.back")"
	undone=1
	break
done
[ $undone = 1 ] || fail "no namespace of deferbench $pid holds its veth"
kill -INT $pid
wait_load 1
grep -q "class/net/$dev/threaded reads 0, not 1: napi=threaded was undone" "$D/undo.err" ||
	{ cat "$D/undo.err" >&2; fail "threaded undone: not reported"; }
echo "   threaded undone during the run: $(grep -o 'class/net.*undone' "$D/undo.err")"
exit 0
