#!/bin/sh
# t-record-mount.sh - record mounts tracefs when nobody has, and unmounts it again:
# the machine is left as found. Runs in a private mount namespace.
. tests/integration/lib.sh
need_root_tracefs
command -v unshare >/dev/null || skip "needs unshare (util-linux)"
out=$(unshare -m sh -c "umount -l $TRACEFS; umount -l /sys/kernel/debug 2>/dev/null;
	grep -c ' tracefs ' /proc/mounts; $DB record -d 1s >/dev/null 2>&1 || echo record-failed;
	grep -c ' tracefs ' /proc/mounts")
[ "$out" = "$(printf '0\n0')" ] || fail "tracefs mounts before/after record: $out"
exit 0
