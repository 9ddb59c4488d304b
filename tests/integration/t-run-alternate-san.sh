#!/bin/sh
# t-run-alternate-san.sh - a short alternating run (tty, the unbound cpumask switched,
# a capture-off arm), then report, advise, export -o and baseline save read it back:
# small enough for the sanitizer build (tests/run-sanitized.sh), which checks every step
# for memory errors (export -o without --against once passed memcpy a NULL source,
# which only UBSan sees); six blocks, the fewest a verdict (and advise's check of each
# arm inside its phases) is reached with. t-run-alternate.sh checks the figures.
# lane: sanitize (make test runs it once, with the sanitizer build)
. tests/integration/lib.sh
need_root_tracefs
mktemp_dir T
mask0=$(cat /sys/devices/virtual/workqueue/cpumask)
cat > "$T/alt.ini" <<INI
[global]
design = alternate
blocks = 6
phase = 1s
settle = 250ms
warmup = 500ms
control = reference
[workload tty]
type = tty
rate = 500
[config baseline]
[config cpu0]
wq.cpumask = 1
INI
$DB run -o "$T/run" "$T/alt.ini" > "$T/out.txt" 2>&1 || { cat "$T/out.txt"; fail "run failed"; }
[ "$(cat /sys/devices/virtual/workqueue/cpumask)" = "$mask0" ] || fail "the cpumask is not back"
$DB report --no-plots "$T/run" > "$T/rep.txt" 2>&1 || { cat "$T/rep.txt"; fail "report failed"; }
$DB advise --json "$T/run" > "$T/adv.json" 2>"$T/adv.err" || { cat "$T/adv.err"; fail "advise failed"; }
$DB export --kcidb -o "$T/ex.json" "$T/run" > "$T/ex.txt" 2>&1 || { cat "$T/ex.txt"; fail "export -o failed"; }
assert_file "$T/ex.json"
# baseline save of an alternating run (issue 34: the segment directory, shared by every
# arm and block, was copied once per arm: "File exists", and an empty host directory
# left): saved once, and every arm read back the same (--accept-incomplete: on a busy
# phase may be late, and the run then short of a cell)
$DB baseline save --accept-incomplete -D "$T/bl" --host h "$T/run" > "$T/bl.txt" 2>&1 || { cat "$T/bl.txt"; fail "baseline save failed"; }
$DB advise "$T/bl/h/default" 2>&1 | sed 1d > "$T/adv-bl.txt"
$DB advise "$T/run" 2>&1 | sed 1d > "$T/adv-run.txt"
cmp -s "$T/adv-bl.txt" "$T/adv-run.txt" || { diff "$T/adv-run.txt" "$T/adv-bl.txt"; fail "the baseline's arms differ from the run's"; }
$DB compare --no-files "$T/run" "$T/run" > "$T/cmp.txt" 2>&1
rc=$?
[ $rc -le 1 ] || [ $rc -eq 3 ] || { cat "$T/cmp.txt"; fail "compare failed"; }
exit 0
