#!/bin/sh
# t-stdout-errors.sh - issue 34: a command whose stdout cannot be written (/dev/full) says
# so and exits non-zero (compare: 2), for every command that prints; a closed pipe is the
# reader's choice and no error. The commands that need root (record, run, load) at the end.
. tests/integration/lib.sh
mktemp_dir T
for f in run-a run-b capture-tty; do
	tar xzf tests/fixtures/$f.tar.gz -C "$T" || fail "cannot unpack $f"
done
export DEFERBENCH_BASELINE_DIR="$T/bl" DEFERBENCH_STORE="$T/st.db"
"$DB" history add "$T/runA" "$T/runB" > /dev/null 2>&1 || fail "history add failed"
"$DB" baseline save "$T/runA" > /dev/null 2>&1 || fail "baseline save failed"

# full CMD... - CMD with stdout at /dev/full: exit status non-zero and the reason said
full() {
	"$DB" "$@" > /dev/full 2> "$T/err"
	_rc=$?
	[ $_rc -ne 0 ] || { cat "$T/err"; fail "'$*' > /dev/full exited 0"; }
	grep -q "cannot write .*stdout: No space left on device" "$T/err" ||
		{ cat "$T/err"; fail "'$*' > /dev/full does not say why it failed"; }
}
full help
full help record
full --help
full --version
full advise "$T/runA"
full advise --json "$T/runA"
full history
full history --fleet
full baseline list
full baseline show
full baseline path
full analyze "$T/cap" -o "$T/an"
full knobs show
full knobs list
full load --list
full export --lava "$T/runA"
"$DB" compare --no-files --allow-undecided "$T/runA" "$T/runB" > /dev/full 2> "$T/err"
[ $? -eq 2 ] || { cat "$T/err"; fail "compare > /dev/full: not exit 2 (an error)"; }
grep -q "cannot write to stdout" "$T/err" || fail "compare > /dev/full: no reason"
# report prints nothing to stdout: /dev/full loses nothing
"$DB" report --no-plots -o "$T/rp" "$T/runA" > /dev/full 2> "$T/err" ||
	{ cat "$T/err"; fail "report, which prints nothing, failed on /dev/full"; }
# a reader that leaves early is no error
"$DB" help | head -1 > /dev/null
"$DB" knobs list 2> "$T/err" | head -c 10 > /dev/null
[ -s "$T/err" ] && { cat "$T/err"; fail "a closed pipe was reported"; }

[ "$(id -u)" -eq 0 ] || { echo "   (record, run, load skipped: need root)"; exit 0; }
need_root_tracefs
full load hog -d 200ms
full record -d 300ms -o "$T/rec"
cat > "$T/s.ini" <<EOS
[global]
duration = 300ms
warmup = 100ms
[workload hog]
type = hog
[config baseline]
EOS
full run -o "$T/run" "$T/s.ini"
assert_file "$T/rec/summary.json"
assert_file "$T/run/run.json"
no_leftover_instances
exit 0
