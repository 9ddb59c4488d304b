# lib.sh - helpers for integration tests (POSIX sh). Source it from a t-*.sh script.
#
# Exit codes: 0 pass, 77 skipped (say why on stdout first), anything else fails.
# Sourcing it installs the script's one cleanup (cleanup.sh): use at_exit, never trap.

DB=${DB:-$(pwd)/deferbench}
TRACEFS=/sys/kernel/tracing
. tests/integration/cleanup.sh

# skip REASON - this test cannot run here (not root, a tool missing, ...). When
# run-integration.sh runs as root with tracefs (as make test in CI), that is a failure.
skip() {
	echo "   SKIP: $*"
	exit 77
}

# skip_kernel REASON - the kernel lacks a feature this test needs: a skip everywhere
skip_kernel() {
	echo "   SKIP: $*"
	[ -z "${DB_SKIP_KIND:-}" ] || echo kernel > "$DB_SKIP_KIND"
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
			skip_kernel "tracefs is not mounted at $TRACEFS and cannot be mounted"
		_MOUNTED_TRACEFS=1	# cleanup.sh unmounts it
	fi
	[ -d $TRACEFS/events/irq ] || skip_kernel "the kernel has no irq trace events"
}

# mktemp_dir VAR - a temporary directory removed when the test exits (run-integration.sh
# gives each test a directory of its own for these, removed even if the test is killed)
mktemp_dir() {
	_d=$(mktemp -d "${DB_TEST_TMPDIR:-/tmp}/deferbench-test.XXXXXX") || fail "mktemp"
	eval "$1=\$_d"
	_CLEANUP_DIRS="$_CLEANUP_DIRS $_d"
}

# capturing PID - the capture of deferbench PID runs: its instance is configured (an
# event enabled) and tracing is on. tracing_on alone reads 1 in an instance just made,
# before deferbench turns it off to configure it, and says nothing yet.
capturing() {
	_e=$(cat $TRACEFS/instances/deferbench-$1/events/enable 2>/dev/null)
	[ -n "$_e" ] && [ "$_e" != 0 ] &&
	[ "$(cat $TRACEFS/instances/deferbench-$1/tracing_on 2>/dev/null)" = 1 ]
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

# wait_for CMD... - retry a condition for up to 15 s (never a fixed sleep in its place)
wait_for() {
	_n=0
	until "$@"; do
		_n=$((_n + 1))
		[ $_n -lt 150 ] || return 1
		sleep 0.1
	done
}

# expect_exit RC OUT CMD... - run CMD, its stdout and stderr into OUT; fail unless it
# exits with RC (an error exits 1; a crash, 134 or 139, is no error message)
expect_exit() {
	_want=$1
	_out=$2
	shift 2
	"$@" > "$_out" 2>&1
	_got=$?
	[ "$_got" -eq "$_want" ] || { cat "$_out" >&2; fail "'$*' exited $_got, not $_want"; }
}

# expect_message OUT MESSAGE CMD... - CMD exits 1 and says MESSAGE (a fixed string)
expect_message() {
	_mo=$1
	_msg=$2
	shift 2
	expect_exit 1 "$_mo" "$@"
	grep -qF -- "$_msg" "$_mo" || { cat "$_mo" >&2; fail "'$*' does not say '$_msg'"; }
}

# mono - CLOCK_MONOTONIC in seconds, the clock deferbench stamps with: bound a duration
# a process reports by the span the test saw it live, never by how fast it should be
mono() {
	python3 -c 'import time; print("%.6f" % time.monotonic())'
}

# within WHAT VALUE LOW HIGH - fail unless LOW <= VALUE <= HIGH (numbers, maybe fractional)
within() {
	awk -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
		fail "$1 = $2, expected within [$3, $4]"
	echo "   $1 = $2 (within [$3, $4])"
}

# assert_file FILE - exists and is not empty
assert_file() {
	[ -s "$1" ] || fail "missing or empty: $1"
}
