#!/bin/sh
# t-run-window.sh - in 'deferbench run', the workloads' own metrics cover the capture's
# time, not the warm-up before it: workload.json's duration_s is the cell's duration,
# warmup_s the warm-up, and counts and rates agree with the duration alone; cyclictest
# starts when the window opens; a background load is measured over the same window.
# What is checked holds on a busy machine: a window never shorter than the duration
# asked, nor as long as duration + warm-up; counts never above what was due in it, and
# at least half of that.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
. tests/integration/load-lib.sh
need_root_tracefs
need_root_jq
[ ! -e "$JOURNAL" ] || skip "$JOURNAL exists: another run owns the knobs"
command -v cyclictest >/dev/null 2>&1 || skip "cyclictest (rt-tests) is not installed"
mktemp_dir T
cat > $T/s.ini <<EOS
[global]
duration = 2s
warmup = 1500ms
repetitions = 1
[load hog]
type = hog
threads = 1
duty = 50
[workload tty]
type = tty
rate = 1000
configs = hogged
[workload timer]
type = timer
threads = 0
wheel_rate = 0
configs = plain
[workload net]
type = net
rate = 1000
configs = plain
[config plain]
[config hogged]
load = hog
EOS
$DB run -o $T/r $T/s.ini > $T/log 2>&1 || fail "run failed: $(cat $T/log)"

# window J - the window of workload.json J is the cell's 2 s, the 1.5 s warm-up left
# before it. At least what was asked, by construction; that the window leaves the
# warm-up out is shown by what the process reports, not by how soon it stops (a bound
# on that would be a bound on the machine's speed): a window that took the warm-up in
# would exceed 2 s by the whole warm-up it reports.
window() {
	_w=$(jq -r .warmup_s $2)
	within "$1 warmup_s" "$_w" 1.49 1e9
	within "$1 duration_s" "$(jq -r .duration_s $2)" 1.99 "$(awk -v w="$_w" 'BEGIN { print 2 + w }')"
}

# cell_window CELL_DIR - the workload's window, and the capture's: the same time, the
# engine's steps apart (tracing on just before the window opens, off just before it
# closes); had either taken the warm-up in, they would differ by the whole warm-up
cell_window() {
	window "$(basename $1)" $1/workload.json
	_cap=$(jq -r .meta.duration_s $1/summary.json)
	_w=$(jq -r .warmup_s $1/workload.json)
	within "$(basename $1) workload - capture duration" \
		"$(awk -v a="$(jq -r .duration_s $1/workload.json)" -v b="$_cap" 'BEGIN { print a - b }')" \
		"-$_w" "$_w"
}

# count_ok WHAT J COUNTER RATE - COUNTER of J at most RATE over its window (+1), at
# least half of that; rate_achieved is that count over the window, at most RATE (+1)
count_ok() {
	_due=$(jq -r ".duration_s * $4 | floor" $2)
	within "$1" "$(counter $2 $3)" $((_due / 2)) $((_due + 1))
	within "$1 rate_achieved" "$(counter $2 rate_achieved)" $(($4 / 2)) $(($4 + 1))
}

C=$T/r/cells/tty--hogged--r1
cell_window $C
# 1000/s over the 2 s window, not over the 3.5 s the writer ran
count_ok "tty sent" $C/workload.json sent 1000
[ "$(counter $C/workload.json received)" = "$(counter $C/workload.json sent)" ] ||
	fail "tty received != sent"
# the load shares the window
window hog $C/load-hog/workload.json

C=$T/r/cells/timer--plain--r1
cell_window $C
asked=$(counter $C/workload.json probe_rate_asked)
# cyclictest ran from the window on: at most its rate over the window, far from 3.5 s
# of it, and at least half of that (it runs SCHED_FIFO)
within "cyclictest cycles" "$(counter $C/workload.json cycles)" \
	"$(jq -r ".duration_s * $asked / 2" $C/workload.json)" \
	"$(jq -r ".duration_s * $asked * 1.02 + 10" $C/workload.json)"

C=$T/r/cells/net--plain--r1
cell_window $C
count_ok "net sent" $C/workload.json sent 1000
[ "$(metric $C/workload.json rtt count)" = "$(counter $C/workload.json received)" ] ||
	fail "net rtt count != received"
exit 0
