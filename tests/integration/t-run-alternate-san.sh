#!/bin/sh
# t-run-alternate-san.sh - a short alternating run (tty, the unbound cpumask switched,
# a capture-off arm), then report, advise and export -o read it back: small enough for
# the sanitizer build (tests/run-sanitized.sh), which checks every step for memory
# errors (export -o without --against once passed memcpy a NULL source, which only
# UBSan sees); six blocks, the fewest a verdict (and advise's check of each arm inside
# its phases) is reached with. t-run-alternate.sh checks the figures.
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
$DB compare --no-files "$T/run" "$T/run" > "$T/cmp.txt" 2>&1
[ $? -le 1 ] || { cat "$T/cmp.txt"; fail "compare failed"; }
exit 0
