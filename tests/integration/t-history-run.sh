#!/bin/sh
# t-history-run.sh - a real run and a real record reach the results store when asked
# (the scenario's store key, run --store, record --store) and not otherwise: a dry run
# and a run without a store leave no store behind.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_tracefs
[ ! -e "$JOURNAL" ] || skip "$JOURNAL exists: another run owns the knobs"
mktemp_dir T
cat > $T/s.ini <<EOS
[global]
duration = 1s
warmup = 200ms
repetitions = 1
store = $T/key.db
[workload tty]
type = tty
rate = 200
EOS
sed '/^store =/d' $T/s.ini > $T/plain.ini

$DB run --dry-run $T/s.ini > $T/log 2>&1 || fail "dry run failed: $(cat $T/log)"
[ ! -e $T/key.db ] || fail "a dry run created the store"
$DB run -o $T/r1 $T/s.ini > $T/log 2>&1 || fail "run failed: $(cat $T/log)"
grep -q "added to $T/key.db as run 1" $T/log || fail "the store key did not add the run: $(cat $T/log)"
$DB run -o $T/r2 --store $T/opt.db $T/plain.ini > $T/log 2>&1 || fail "run --store failed: $(cat $T/log)"
grep -q "added to $T/opt.db" $T/log || fail "run --store did not add the run: $(cat $T/log)"
$DB run -o $T/r3 $T/plain.ini > $T/log 2>&1 || fail "run failed: $(cat $T/log)"
[ "$(ls $T/*.db | wc -l)" -eq 2 ] || fail "a run without a store made one: $(ls $T)"
$DB record -d 1s -o $T/rec --store $T/opt.db > $T/log 2>&1 || fail "record --store failed: $(cat $T/log)"
grep -q "added to $T/opt.db as run 2" $T/log || fail "record --store did not add: $(cat $T/log)"
# the stored run is the directory's: adding it again changes nothing
$DB history add --store $T/opt.db $T/r2 $T/rec 2>$T/log || fail "history add: $(cat $T/log)"
[ "$(grep -c 'already in' $T/log)" -eq 2 ] || fail "re-adding stored runs: $(cat $T/log)"
$DB history --store $T/opt.db --metric 'workload:delivery:p50' --min-tail 1 > $T/out 2>&1 ||
	fail "history: $(cat $T/out)"
grep -q "tty/default  workload:delivery:p50" $T/out || fail "the run is not in the history: $(cat $T/out)"
no_leftover_instances
exit 0
