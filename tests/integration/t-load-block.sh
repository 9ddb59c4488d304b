#!/bin/sh
# t-load-block.sh - fsync at the rate asked in a private directory, removed afterwards;
# tmpfs refused.
. tests/integration/lib.sh
. tests/integration/load-lib.sh
need_root_jq
mktemp_dir D

run_load "$D/r" block rate=100 -d 2s
wait_load 0
no_leftovers "$LOAD_PID"
J=$D/r/workload.json
ops=$(counter "$J" ops)
within ops "$ops" 160 220
[ "$(metric "$J" sync count)" = "$ops" ] || fail "sync count != ops"
[ "$(metric "$J" op count)" = "$ops" ] || fail "op count != ops"
[ "$(counter "$J" bytes)" = $((ops * 4096)) ] || fail "bytes != ops x 4096"

run_load "$D/s" block rate=200 sync=sync_file_range size=64k -d 1s
wait_load 0
no_leftovers "$LOAD_PID"
within ops "$(counter "$D/s/workload.json" ops)" 150 220

if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	"$DB" load block dir=/dev/shm -d 1s >/dev/null 2>"$D/err" && fail "tmpfs accepted"
	grep -q "tmpfs" "$D/err" || fail "no tmpfs message: $(cat "$D/err")"
fi
exit 0
