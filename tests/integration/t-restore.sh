#!/bin/sh
# t-restore.sh - 'deferbench restore' refuses (exit 1, saying how to stop it) while the
# run that owns the journal still runs, and changes nothing then; it never writes a
# journal entry that is not a target deferbench changes (a tampered journal), restores
# the rest, and keeps the journal when anything could not be restored; a journal it
# cannot read is kept and nothing is written.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_wq
mktemp_dir T
snapshot $T/before
nice0=$(cat $WQ/writeback/nice)
new=$(( nice0 == 3 ? 4 : 3 ))

# the owner still runs: refused, nothing changed, the journal kept
$DB knobs set wq.writeback.nice=$new > $T/out 2>&1 &
pid=$!
wait_for grep -q '^applied' $T/out || fail "never applied: $(cat $T/out)"
expect_message $T/r "deferbench pid $pid is still running and restores on exit; stop it with 'kill -INT $pid'" \
	$DB restore
attr_is writeback nice $new || fail "restore changed nice under a running owner"
[ -s "$JOURNAL" ] || fail "restore removed the journal of a running owner"
kill -INT $pid
wait $pid || fail "knobs set exited $? after SIGINT: $(cat $T/out)"
same_as $T/before
[ ! -e "$JOURNAL" ] || fail "journal left after SIGINT"

# a journal (of a dead run, in a file of our own) with one genuine and one tampered
# entry: the genuine one is restored, the tampered one never written, the journal kept
J=$T/journal.json
dead=$(dead_pid)
echo "precious" > $T/victim
at_exit "echo $nice0 > $WQ/writeback/nice"
echo $new > $WQ/writeback/nice		# what the dead run had set
cat > $J <<EOF
{ "schema": "deferbench-journal/1", "pid": $dead, "started": "2026-01-01T00:00:00Z",
  "command": "deferbench run t", "entries": [
  { "knob": "wq.writeback.nice", "path": "$WQ/writeback/nice", "rpath": "$WQ/writeback/nice",
    "orig": "$nice0" },
  { "knob": "wq.writeback.nice", "path": "$T/victim", "rpath": "$T/victim", "orig": "0" } ] }
EOF
expect_message $T/r "journal entry wq.writeback.nice ($T/victim) is not a target deferbench changes; not written" \
	env DEFERBENCH_JOURNAL=$J $DB restore
grep -qF "1 setting(s) could not be restored; $J is kept" $T/r || fail "journal not said kept: $(cat $T/r)"
[ "$(cat $T/victim)" = precious ] || fail "restore wrote a tampered journal entry's file"
attr_is writeback nice $nice0 || fail "the genuine entry was not restored"
grep -q "wq.writeback.nice ($WQ/writeback/nice): $new -> $nice0" $T/r ||
	fail "the genuine entry's restore was not reported: $(cat $T/r)"
[ -s $J ] || fail "the journal was removed although an entry could not be restored"
same_as $T/before

# a journal naming a knob deferbench does not know: refused whole, kept, nothing written
echo $new > $WQ/writeback/nice
sed 's/"knob": "wq.writeback.nice", "path": "[^"]*victim"/"knob": "vm.swappiness", "path": "\/proc\/sys\/vm\/swappiness"/' \
	$J > $T/j2.json
grep -q swappiness $T/j2.json || fail "test setup: sed did not tamper the journal"
expect_message $T/r "'vm.swappiness' is not a knob deferbench sets" \
	env DEFERBENCH_JOURNAL=$T/j2.json $DB restore
grep -qF "put back by hand the settings it lists" $T/r && grep -qF "then remove it" $T/r ||
	fail "no advice for an unreadable journal: $(cat $T/r)"
attr_is writeback nice $new || fail "a journal that could not be read was partly applied"
[ -s $T/j2.json ] || fail "an unreadable journal was removed"
echo $nice0 > $WQ/writeback/nice
same_as $T/before
echo "   restore: refuses under a live owner, skips tampered entries, keeps the journal"
exit 0
