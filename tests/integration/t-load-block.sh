#!/bin/sh
# t-load-block.sh - write + sync at the rate asked in a private directory, removed
# afterwards; each operation counted once with its bytes; tmpfs refused. How fast fsync
# is here is a measurement: an operation done late is late, and only the backlog at the
# stop is left undone, so the count is bounded by what was due, not by the disk.
. tests/integration/lib.sh
. tests/integration/load-lib.sh
need_root_jq
need_root_tracefs
mktemp_dir D

# ops_ok DIR RATE SIZE - at most what was due in the window, at least a quarter of it
# (fsync four times slower than the period), one sample per operation, SIZE bytes each
ops_ok() {
	_j=$1/workload.json
	_ops=$(counter "$_j" ops)
	_due=$(jq -r ".duration_s * $2 | floor" "$_j")
	within "ops at $2/s" "$_ops" $((_due / 4)) $((_due + 1))
	[ "$(metric "$_j" sync count)" = "$_ops" ] || fail "sync count != ops"
	[ "$(metric "$_j" op count)" = "$_ops" ] || fail "op count != ops"
	[ "$(counter "$_j" bytes)" = $((_ops * $3)) ] || fail "bytes != ops x $3"
	[ "$(counter "$_j" late)" -le "$_ops" ] || fail "more late operations than operations"
	echo "   $_ops ops, sync p50 $(metric "$_j" sync p50) ns, $(counter "$_j" late) late"
}

run_load "$D/r" block rate=100 -d 2s
wait_load 0
no_leftovers "$LOAD_PID"
ops_ok "$D/r" 100 4096
[ "$(jq -r .options.sync "$D/r/workload.json")" = fsync ] || fail "default sync is not fsync"

run_load "$D/s" block rate=200 sync=sync_file_range size=64k -d 1s
wait_load 0
no_leftovers "$LOAD_PID"
ops_ok "$D/s" 200 65536

# syncfs hands the writing to the flusher: every call queues wb_workfn on the writeback
# workqueue and waits for it (two items a call on ext4 here: writeback_inodes_sb, then
# sync_inodes_sb), so the items are at least as many as the operations
$DB record -o "$D/rec" -- "$DB" load block rate=100 sync=syncfs -d 2s -o "$D/f" \
	> "$D/rec.txt" 2>&1 || { cat "$D/rec.txt"; fail "record of load block sync=syncfs failed"; }
no_leftover_instances
ops_ok "$D/f" 100 4096
_wb=$(jq '[.workqueue[] | select(.workqueue == "writeback" and .function == "wb_workfn")
	| .count] | add // 0' "$D/rec/summary.json")
_ops=$(counter "$D/f/workload.json" ops)
within "wb_workfn items for $_ops syncfs calls" "$_wb" "$_ops" $((4 * _ops + 100))

if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	expect_message "$D/err" "block option 'dir': /dev/shm is on tmpfs/ramfs, where fsync does no block I/O" \
		"$DB" load block dir=/dev/shm -d 1s
fi
exit 0
