#!/bin/sh
# t-knobs-netdev.sh - the NAPI knobs of a real device in deferbench's namespace: a veth the
# test creates (dbn<pid>a, its peer in a namespace of the test's own, GRO on), ping
# across it as the workload ('command' with metric_cmd: its rtt is the metric).
#  1. a run alternates netdev.<veth>.threaded, napi_defer_hard_irqs and
#     gro_flush_timeout with the veth as it is; each is read back (the run fails on a
#     value the kernel did not keep), all are back at the end, and advise says the
#     veth's NAPI polls moved to its napi/ thread;
#  2. a run killed with SIGKILL while they are set leaves them and its journal;
#     'deferbench restore' puts them back;
#  3. a device the kernel refuses (threaded on a veth without GRO, or with its link
#     down) is refused with the kernel's reason, and nothing changes.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_tracefs
need_root_wq
command -v ping >/dev/null 2>&1 || skip "ping is not installed (iputils-ping; ci/install-deps.sh)"
command -v ethtool >/dev/null 2>&1 || skip "ethtool is not installed (ci/install-deps.sh)"
unshare -n true 2>/dev/null || skip_kernel "cannot create a network namespace here"
mktemp_dir T

N=dbn$$
V=${N}a
at_exit "ip link del $V 2>/dev/null; ip netns del $N-b 2>/dev/null"
ip netns add $N-b || fail "cannot create a namespace"
ip link add $V type veth peer name ${N}b netns $N-b || fail "cannot create the veth pair"
[ -e /sys/class/net/$V/threaded ] || skip_kernel "no /sys/class/net/$V/threaded (Linux 5.12+)"
ip addr add 10.99.78.1/24 dev $V
ip -n $N-b addr add 10.99.78.2/24 dev ${N}b
ethtool -K $V gro on >/dev/null || fail "cannot turn GRO on"
# the replies reach the veth's NAPI (GRO) only from a peer without TSO: veth_xmit()
# passes any other skb not from a socket to netif_rx(), the backlog
ip netns exec $N-b ethtool -K ${N}b tso off >/dev/null || fail "cannot turn the peer's TSO off"
ip link set $V up && ip -n $N-b link set ${N}b up || fail "cannot bring the veth up"
snapshot "$T/before"
vals() {
	echo "$(cat /sys/class/net/$V/threaded) $(cat /sys/class/net/$V/napi_defer_hard_irqs)" \
		"$(cat /sys/class/net/$V/gro_flush_timeout)"
}
orig=$(vals)
[ "$orig" = "0 0 0" ] || fail "a new veth reads '$orig', not '0 0 0'"

cat > "$T/n.ini" <<INI
[global]
design = alternate
blocks = 3
phase = 1s
settle = 250ms
warmup = 500ms
control = no

[workload ping]
type = command
metric_cmd = ping -D -i 0.01 10.99.78.2
configs = asis, napi

[config asis]
[config napi]
netdev.$V.threaded = 1
netdev.$V.napi_defer_hard_irqs = 2
netdev.$V.gro_flush_timeout = 200000
INI

# 1. alternated, read back, restored; the polls moved
$DB run -o "$T/run" "$T/n.ini" > "$T/out.txt" 2>&1 || { cat "$T/out.txt"; fail "run failed"; }
[ "$(vals)" = "$orig" ] || fail "after the run the veth reads '$(vals)', not '$orig'"
same_as "$T/before"
[ ! -e "$JOURNAL" ] || fail "the run left a knobs journal"
$DB advise "$T/run" > "$T/advise.txt" 2>&1 || { cat "$T/advise.txt"; fail "advise failed"; }
grep -q "^    placement: netdev.$V.threaded = 1: moved: .*thread" "$T/advise.txt" ||
	{ cat "$T/advise.txt"; fail "advise does not say the veth's polls moved to its thread"; }
grep -q 'workload:rtt:p50 ' "$T/advise.txt" || { cat "$T/advise.txt"; fail "ping's rtt was not judged"; }

# 2. SIGKILL while the napi arm's values are set: they stay, restore puts them back
sed -e 's/^blocks = 3/blocks = 50/' -e 's/^configs = asis, napi/configs = napi/' \
	"$T/n.ini" > "$T/k.ini"
$DB run -o "$T/kill" "$T/k.ini" > "$T/kill.txt" 2>&1 &
pid=$!
# armed - the napi arm's values are set and its metric command (ping) runs
armed() {
	[ "$(cat /sys/class/net/$V/gro_flush_timeout)" = 200000 ] &&
	kids=$(_descendants $pid) && [ -n "$kids" ]
}
wait_for armed || { cat "$T/kill.txt"; fail "the run never set the veth's knobs"; }
kill -KILL $pid
wait $pid 2>/dev/null
# the metric command dies with its parent (PR_SET_PDEATHSIG), restore is not needed
wait_for eval '! _running $kids' ||
	{ ps -o pid,args -p "$kids"; fail "the metric command outlived its run"; }
[ "$(vals)" = "1 2 200000" ] || fail "after SIGKILL the veth reads '$(vals)'"
[ -s "$JOURNAL" ] || fail "SIGKILL: no journal left"
expect_exit 0 "$T/restore" $DB restore
grep -q "netdev.$V.threaded (/sys/class/net/$V/threaded): 1 -> 0" "$T/restore" ||
	{ cat "$T/restore"; fail "restore did not report threaded"; }
[ "$(vals)" = "$orig" ] || fail "after restore the veth reads '$(vals)', not '$orig'"
same_as "$T/before"
[ ! -e "$JOURNAL" ] || fail "restore left the journal"

# 3. the kernel's refusal, with its reason: no NAPI to thread without GRO, nor while the
# link is down (veth_close() deletes it)
for how in "gro off" "down"; do
	if [ "$how" = down ]; then
		ethtool -K $V gro on >/dev/null && ip link set $V down || fail "cannot set $V down"
	else
		ethtool -K $V gro off >/dev/null || fail "cannot turn GRO off"
	fi
	expect_message "$T/refused" "the kernel refused: Operation not supported" \
		$DB knobs set netdev.$V.threaded=1
	grep -q "ethtool -K DEV gro on" "$T/refused" ||
		{ cat "$T/refused"; fail "$how: no hint about GRO"; }
	[ "$(vals)" = "$orig" ] || fail "$how: a refused knob changed the veth: '$(vals)'"
	[ ! -e "$JOURNAL" ] || fail "$how: a refused knobs set left a journal"
done
echo "   $(grep "placement: netdev.$V.threaded" "$T/advise.txt" | cut -c1-140)"
exit 0
