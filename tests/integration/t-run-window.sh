#!/bin/sh
# t-run-window.sh - in 'deferbench run', the workloads' own metrics cover the capture's
# time, not the warm-up before it: workload.json's duration_s is the cell's duration,
# warmup_s the warm-up, and counts and rates agree with the duration alone; cyclictest
# starts when the window opens; a background load is measured over the same window.
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

# cell_window CELL_DIR - the window is the duration, the warm-up left before it
cell_window() {
	_j=$1/workload.json
	within "$(basename $1) duration_s" "$(jq -r .duration_s $_j)" 1.98 2.1
	within "$(basename $1) warmup_s" "$(jq -r .warmup_s $_j)" 1.49 1.7
	# the capture's time, with the same start (the windows open right after it)
	_cap=$(jq -r .meta.duration_s $1/summary.json)
	within "$(basename $1) workload - capture duration" \
		"$(awk -v a="$(jq -r .duration_s $_j)" -v b="$_cap" 'BEGIN { print a - b }')" -0.05 0.1
}

C=$T/r/cells/tty--hogged--r1
cell_window $C
# 1000/s over 2 s, not over the 3.5 s the writer ran
within "tty sent" "$(counter $C/workload.json sent)" 1900 2100
[ "$(counter $C/workload.json received)" = "$(counter $C/workload.json sent)" ] ||
	fail "tty received != sent"
within "tty rate_achieved" "$(counter $C/workload.json rate_achieved)" 950 1050
# the load shares the window
within "hog duration_s" "$(jq -r .duration_s $C/load-hog/workload.json)" 1.98 2.4
within "hog warmup_s" "$(jq -r .warmup_s $C/load-hog/workload.json)" 1.49 1.7

C=$T/r/cells/timer--plain--r1
cell_window $C
asked=$(counter $C/workload.json probe_rate_asked)
# cyclictest ran from the window on: at most its rate over the window, far from 3.5 s of it
within "cyclictest cycles" "$(counter $C/workload.json cycles)" \
	"$(awk -v a="$asked" 'BEGIN { print a * 2 * 0.8 }')" \
	"$(awk -v a="$asked" 'BEGIN { print a * 2.1 }')"

C=$T/r/cells/net--plain--r1
cell_window $C
within "net sent" "$(counter $C/workload.json sent)" 1900 2100
within "net rate_achieved" "$(counter $C/workload.json rate_achieved)" 950 1050
[ "$(metric $C/workload.json rtt count)" = "$(counter $C/workload.json received)" ] ||
	fail "net rtt count != received"
exit 0
