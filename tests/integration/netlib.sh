# netlib.sh - helpers for the t-net-*.sh integration tests (POSIX sh), on top of lib.sh.
#
# The net tests run build/tests/tools/nettool, which builds the namespace pair and runs
# the network load without the workload driver, and prints key=value lines.

NETTOOL=${NETTOOL:-$(pwd)/build/tests/tools/nettool}

# need_root_netns - skip unless root and network namespaces can be created
need_root_netns() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (creates network namespaces and a veth pair)"
	[ -x "$NETTOOL" ] || fail "$NETTOOL is missing: run 'make integration'"
	unshare -n true 2>/dev/null || skip_kernel "cannot create a network namespace here"
}

# kv FILE KEY - the value of KEY=... in a nettool output file
kv() {
	sed -n "s/^$2=//p" "$1" | tail -n 1
}

# wait_ready FILE PID - wait (10 s at most) until nettool printed "ready"
wait_ready() {
	_i=0
	until grep -q '^ready$' "$1" 2>/dev/null; do
		kill -0 "$2" 2>/dev/null || { cat "$1"; fail "nettool died before it was ready"; }
		_i=$((_i + 1))
		[ $_i -le 100 ] || fail "nettool not ready after 10 s"
		sleep 0.1
	done
}

# napi_threads PREFIX - how many kthreads are called napi/PREFIX*
napi_threads() {
	ps -eo comm= | grep -c "^napi/$1" || true
}

# ns_inodes PID - the inodes of the network namespaces PID holds by file descriptor
ns_inodes() {
	for _f in /proc/"$1"/fd/*; do
		readlink "$_f" 2>/dev/null
	done | sed -n 's/^net:\[\([0-9]*\)\]$/\1/p' | sort -u
}

# ns_inode_ours INODE PREFIX - true if a live namespace with that inode holds a device
# called PREFIX*: a task is in it or an fd refers to it. Namespace inode numbers are
# reused at once, and other users of the machine create namespaces too, so the inode
# alone does not say the namespace is ours: the device inside it does.
ns_inode_ours() {
	for _f in $(find /proc/[0-9]*/fd /proc/[0-9]*/task/*/ns -lname "net:\[$1\]" 2>/dev/null); do
		nsenter --net="$_f" ip -o link show 2>/dev/null | grep -q ": $2" && return 0
	done
	return 1
}

# no_leftovers PREFIX NSLIST_BEFORE INODES - nothing of a finished nettool remains:
# no dbv veth in the root namespace, no new named namespace, no napi thread of its
# devices (netns cleanup is asynchronous: wait up to 10 s), none of its namespaces alive
no_leftovers() {
	_i=0
	while [ "$(napi_threads "$1")" -ne 0 ]; do
		_i=$((_i + 1))
		[ $_i -le 100 ] || fail "napi/$1* threads still exist 10 s after exit"
		sleep 0.1
	done
	ip -o link show type veth | grep -q dbv && fail "a dbv veth is left in the root namespace"
	[ "$(ip netns list 2>/dev/null)" = "$2" ] || fail "ip netns list changed: $(ip netns list)"
	for _ino in $3; do
		ns_inode_ours "$_ino" "$1" && fail "namespace net:[$_ino] with $1* is still alive"
	done
	return 0
}
