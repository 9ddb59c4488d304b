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
# What share a SCHED_OTHER spinner gets depends on what else runs (the runner's own
# hogs, a shared machine): no bound on it holds by itself. Its accounting does: every
# moment of the window the thread either ran (its CPU time) or was away from its loop
# (a gap it recorded); interrupts inside it count in both, short gaps in neither
J=$D/r/workload.json
share=$(counter "$J" share_t0)
within share_t0 "$share" 0.001 1.05
within "share_t0 + gap_total / duration" "$(jq -r '.counters.share_t0 +
	.counters.gap_total_ns / 1e9 / .duration_s' "$J")" 0.9 1.1

run_load "$D/f" hog policy=fifo priority=5 duty=30 period=10ms threads=1 -d 1s
wait_load 0
no_leftovers "$LOAD_PID"
within share_t0 "$(counter "$D/f/workload.json" share_t0)" 0.15 0.4

expect_message "$D/err" "hog: policy=fifo needs duty < 100" "$DB" load hog policy=fifo -d 1s
exit 0
