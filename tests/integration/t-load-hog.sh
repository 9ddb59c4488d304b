#!/bin/sh
# t-load-hog.sh - hogs take the CPU share asked, record preemption gaps, and a
# real-time hog is refused without a duty below 100%.
. tests/integration/lib.sh
. tests/integration/load-lib.sh
need_root_jq
mktemp_dir D

run_load "$D/r" hog threads=1 cpus=0 -d 1s
wait_load 0
no_leftovers "$LOAD_PID"
# tolerant bounds: the machine is shared, other tasks and the host take their part
within share_t0 "$(counter "$D/r/workload.json" share_t0)" 0.2 1.05

run_load "$D/f" hog policy=fifo priority=5 duty=30 period=10ms threads=1 -d 1s
wait_load 0
no_leftovers "$LOAD_PID"
within share_t0 "$(counter "$D/f/workload.json" share_t0)" 0.15 0.4

expect_message "$D/err" "hog: policy=fifo needs duty < 100" "$DB" load hog policy=fifo -d 1s
exit 0
