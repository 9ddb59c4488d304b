#!/bin/sh
# t-run-knobs.sh - a normal 'deferbench run' whose configurations set knobs: each cell
# runs under its own configuration's values (read back into cell.json), the cell of a
# configuration without knobs runs on the machine as it was (the previous cell's knobs
# are restored between cells), and the run ends complete with everything restored and
# no journal. (A cell whose restore fails: test_runner.c.)
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_tracefs
need_root_wq
command -v jq >/dev/null 2>&1 || skip "jq is not installed (ci/install-deps.sh)"
mktemp_dir T
snapshot $T/before
nice0=$(cat $WQ/writeback/nice)
max0=$(cat $WQ/writeback/max_active)
a=$(( nice0 == 5 ? 6 : 5 ))
b=$(( nice0 == -3 ? -4 : -3 ))
ks0=$(pgrep -x ksoftirqd/0)
cat > $T/s.ini <<EOS
[global]
duration = 2s
warmup = 200ms
repetitions = 1
[workload t]
type = tty
rate = 200
configs = a, plain, b
[config a]
wq.writeback.nice = $a
sched.ksoftirqd = fifo:2
[config plain]
[config b]
wq.writeback.nice = $b
wq.writeback.max_active = 32
EOS

# watch - while the run lives, one line per look at the machine during a cell: the cell
# and the settings read. A look is taken while the cell traces (its capture goes on
# after every knob of the cell is applied and off before any is restored), with the run
# stopped (SIGSTOP) so that it cannot move on while the settings are read: what is
# read is the cell's, by construction. The cells last 2 s: 40 chances to look.
watch() {
	while kill -0 $1 2>/dev/null; do
		for d in $T/r/cells/.partial-*; do
			[ -d "$d" ] && capturing $1 || continue
			kill -STOP $1 2>/dev/null || continue
			if [ -d "$d" ] && capturing $1; then
				n=$(cat $WQ/writeback/nice)
				m=$(cat $WQ/writeback/max_active)
				p=$(chrt -p $ks0 | sed -n 's/.*scheduling policy: //p')
				echo "${d##*/} | $n $m $p"
			fi
			kill -CONT $1
		done
		sleep 0.05
	done
}

$DB run -o $T/r $T/s.ini > $T/log 2>&1 &
pid=$!
watch $pid > $T/seen
wait $pid || fail "run exited $?: $(cat $T/log)"
grep -q "^complete: 3 of 3 cells in $T/r " $T/log || fail "not complete: $(cat $T/log)"

# seen - the settings seen while only cell $1 was running, one line per look
seen() {
	sed -n "s/^\.partial-t--$1--r1 | //p" $T/seen | sort -u
}
[ -n "$(seen a)" ] && [ -n "$(seen plain)" ] && [ -n "$(seen b)" ] ||
	{ cat $T/seen; fail "not every cell was seen running"; }
# a cell's knobs are applied after its directory appears and restored before it is
# renamed: while it runs they are set; the cell without knobs sees only the machine as
# it was, never the values of the cell before or after it
[ "$(seen a)" = "$a $max0 SCHED_FIFO" ] || fail "cell a did not run under its knobs: $(seen a)"
[ "$(seen plain)" = "$nice0 $max0 SCHED_OTHER" ] ||
	fail "during cell plain (no knobs) the machine was not as before: $(seen plain)"
[ "$(seen b)" = "$b 32 SCHED_OTHER" ] || fail "cell b did not run under its knobs: $(seen b)"

# each cell.json has its own configuration's knobs, as read back
C=$T/r/cells
[ "$(jq -c .knobs $C/t--a--r1/cell.json)" = "{\"wq.writeback.nice\":\"$a\",\"sched.ksoftirqd\":\"fifo:2\"}" ] ||
	fail "cell a knobs: $(jq -c .knobs $C/t--a--r1/cell.json)"
[ "$(jq -c .knobs $C/t--plain--r1/cell.json)" = "{}" ] ||
	fail "cell plain knobs: $(jq -c .knobs $C/t--plain--r1/cell.json)"
[ "$(jq -c .knobs $C/t--b--r1/cell.json)" = "{\"wq.writeback.nice\":\"$b\",\"wq.writeback.max_active\":\"32\"}" ] ||
	fail "cell b knobs: $(jq -c .knobs $C/t--b--r1/cell.json)"
for c in a plain b; do
	[ "$(jq -r .status $C/t--$c--r1/cell.json)" = ok ] || fail "cell $c: $(cat $C/t--$c--r1/cell.json)"
	assert_file $C/t--$c--r1/summary.json
	assert_file $C/t--$c--r1/workload.json
done
[ "$(jq -r .complete $T/r/run.json)" = true ] || fail "run.json is not complete"
same_as $T/before
[ ! -e "$JOURNAL" ] || fail "journal left after a complete run"
echo "   run: each cell under its own knobs, restored between cells"
exit 0
