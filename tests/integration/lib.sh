# lib.sh - helpers for integration tests (POSIX sh). Source it from a t-*.sh script.
#
# Exit codes: 0 pass, 77 skipped (say why on stdout first), anything else fails.

DB=${DB:-$(pwd)/deferbench}
TRACEFS=/sys/kernel/tracing

skip() {
	echo "   SKIP: $*"
	exit 77
}

fail() {
	echo "   FAIL: $*" >&2
	exit 1
}

# need_root_tracefs - skip unless root and tracefs is (or can be) mounted
need_root_tracefs() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (integration tests trace the kernel)"
	if [ ! -e $TRACEFS/trace_clock ]; then
		mount -t tracefs nodev $TRACEFS 2>/dev/null ||
			skip "tracefs is not mounted at $TRACEFS and cannot be mounted"
	fi
	[ -d $TRACEFS/events/irq ] || skip "the kernel has no irq trace events"
}

# mktemp_dir VAR - a temporary directory removed when the test exits
mktemp_dir() {
	_d=$(mktemp -d /tmp/deferbench-test.XXXXXX) || fail "mktemp"
	eval "$1=\$_d"
	# shellcheck disable=SC2064
	trap "rm -rf '$_d'" EXIT INT TERM
}

# no_leftover_instances - fail if a deferbench-PID tracefs instance outlived its
# process (an instance of a deferbench that is still running elsewhere is not ours)
no_leftover_instances() {
	_left=""
	for _i in $(ls $TRACEFS/instances 2>/dev/null | grep '^deferbench-' || true); do
		[ -d "/proc/${_i#deferbench-}" ] || _left="$_left $_i"
	done
	[ -z "$_left" ] || fail "tracefs instances left behind:$_left"
}

# assert_file FILE - exists and is not empty
assert_file() {
	[ -s "$1" ] || fail "missing or empty: $1"
}
