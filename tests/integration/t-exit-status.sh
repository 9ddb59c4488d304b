#!/bin/sh
# t-exit-status.sh - issue 10, items 6 and 7: errors are never reported as success.
# record: a command that cannot run is an error (exit 1, nothing written); a command
# that fails is in the results and in record's exit status, as with time(1).
# compare: a --metric that matches nothing, or nothing judged, is exit 2; a primary
# metric left undecided is exit 3 (issue 33), unless --allow-undecided.
. tests/integration/lib.sh
mktemp_dir T

# help (issue 24): 'deferbench help [COMMAND]' is --help, exit 0; an unknown one exit 1
expect_exit 0 "$T/help" "$DB" help
grep -q '^commands:' "$T/help" || fail "deferbench help: no command list"
for c in record compare knobs; do
	expect_exit 0 "$T/help-$c" "$DB" help $c
	"$DB" $c --help > "$T/dash-$c" 2>&1
	cmp -s "$T/help-$c" "$T/dash-$c" || fail "deferbench help $c differs from $c --help"
done
expect_message "$T/help-bad" "help: unknown command 'nosuch'" "$DB" help nosuch

# 7. compare (no root needed)
GEN=${GEN:-$(pwd)/build/tests/tools/gen-run}
[ -x "$GEN" ] || fail "missing $GEN (make build/tests/tools/gen-run)"
"$GEN" "$T/base" >/dev/null || fail "gen-run"
for m in 'workload:rtt:p5O' 'nosuch' ''  '[' 'wq:[a-'; do
	"$DB" compare --no-files -m "$m" "$T/base" "$T/base" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || { cat "$T/err"; fail "compare -m '$m' exited $rc, want 2"; }
	grep -q -- "--metric" "$T/err" || { cat "$T/err"; fail "compare -m '$m': no reason"; }
done
"$DB" compare --no-files -m 'workload:rtt:p50' -m 'typo*' "$T/base" "$T/base" >/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "one -m of two matching nothing passed"
grep -q "'typo\*' matches no metric" "$T/err" || { cat "$T/err"; fail "the typo is not named"; }
"$DB" compare --no-files --allow-undecided -m 'workload:rtt:p50' "$T/base" "$T/base" \
	>/dev/null 2>&1 || fail "compare -m with a matching pattern failed"
"$DB" compare --no-files -m nosuch --allow-empty "$T/base" "$T/base" >/dev/null 2>&1 ||
	fail "--allow-empty did not allow an empty comparison"
# two separate runs and no calibration: nothing can be "no change", so the primary
# metrics stay undecided - exit 3, never a clean 0 - and the message says why
"$GEN" --seed 5 "$T/again" >/dev/null || fail "gen-run again"
"$DB" compare --no-files "$T/base" "$T/again" >"$T/u.out" 2>"$T/u.err"
rc=$?
[ $rc -eq 3 ] || { cat "$T/u.out" "$T/u.err"; fail "undecided compare exited $rc, want 3"; }
grep -q "undecided .*exit status 3" "$T/u.err" || { cat "$T/u.err"; fail "exit 3 not explained"; }
"$DB" compare --no-files --allow-undecided "$T/base" "$T/again" >/dev/null 2>&1 ||
	fail "--allow-undecided did not pass an undecided comparison"

# 6. record
[ "$(id -u)" -eq 0 ] || { echo "   (record part skipped: needs root)"; exit 0; }
need_root_tracefs
expect_error() {	# expect_error WHAT DIR COMMAND...
	what=$1 dir=$2
	shift 2
	"$DB" record -d 1s -o "$dir" "$@" >"$T/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || { cat "$T/out"; fail "record $*: exit $rc, want 1"; }
	grep -q "$what" "$T/out" || { cat "$T/out"; fail "record $*: no '$what'"; }
	[ -e "$dir" ] && fail "record $*: wrote $dir"
	ls "$T" | grep -q partial && fail "record $*: left a staging directory"
	return 0
}
expect_error "cannot run 'nosuchcmd'" "$T/a" -- nosuchcmd
expect_error "cannot run 'typo'" "$T/b" typo
expect_error "cannot run '/etc/passwd'" "$T/c" -- /etc/passwd
expect_error "it is a directory" "$T/d" -- /tmp

# a failing command: results written, its status passed on
# no -d with a command that must end by itself: the duration could end it first
"$DB" record -o "$T/f" -- sh -c 'exit 3' >"$T/out" 2>&1
rc=$?
[ $rc -eq 3 ] || { cat "$T/out"; fail "record -- sh -c 'exit 3': exit $rc, want 3"; }
python3 -c "import json,sys; s=json.load(open('$T/f/summary.json'))['meta']['command_status']
sys.exit(0 if s == {'exit': 3, 'stopped_by_deferbench': False} else 1)" ||
	fail "summary.json does not say the command exited with 3"
"$DB" record -o "$T/g" -- false >/dev/null 2>&1
[ $? -eq 1 ] || fail "record -- false exited 0"
"$DB" record -o "$T/k" -- sh -c 'kill -9 $$' >/dev/null 2>&1
rc=$?
[ $rc -eq 137 ] || fail "a command killed by SIGKILL: exit $rc, want 137"
# stopped by deferbench after -d: not a failure
"$DB" record -d 300ms -o "$T/s" -- sleep 600 >/dev/null 2>&1 || fail "record -d stopping its command failed"
grep -q '"stopped_by_deferbench":true' "$T/s/summary.json" || fail "no stopped_by_deferbench"
no_leftover_instances
exit 0
