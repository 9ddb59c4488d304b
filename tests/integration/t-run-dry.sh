#!/bin/sh
# t-run-dry.sh - 'deferbench run --dry-run' plans the shipped scenarios, shows knob
# changes and changes nothing; bad scenarios are refused with file and line.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
mktemp_dir T
snapshot $T/before
$DB run --dry-run bench/scenarios/default.ini > $T/out 2>$T/err || fail "dry run: $(cat $T/err)"
grep -q '51 cells' $T/out || fail "default.ini should plan 51 cells: $(head -3 $T/out)"
grep -q 'wq.cpumask .*-> 1' $T/out || fail "the unbound cpumask change is not shown"
grep -q 'tty--baseline--r1' $T/out || fail "no cell list"
$DB run --dry-run --quick bench/scenarios/default.ini > $T/q 2>&1 || fail "--quick"
grep -q '17 cells (1 repetition' $T/q || fail "--quick should plan 17 cells: $(head -1 $T/q)"
$DB run --dry-run bench/scenarios/quick.ini > /dev/null 2>&1 || fail "quick.ini"
printf '[global]\nduration = soon\n[workload t]\ntype = tty\n' > $T/bad.ini
$DB run --dry-run $T/bad.ini > $T/bad 2>&1 && fail "a bad scenario was accepted"
grep -q "bad.ini:2: \[global\] duration" $T/bad || fail "no file:line in: $(cat $T/bad)"
same_as $T/before
echo "   dry runs plan and change nothing"
