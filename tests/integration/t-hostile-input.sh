#!/bin/sh
# t-hostile-input.sh - issue 10, items 9 to 13: endless and special inputs, escape
# sequences in messages, messages that say what is wrong, outputs checked before the
# work, and the same rule for the same thing everywhere.
. tests/integration/lib.sh
mktemp_dir T

# expect WHAT COMMAND... - exit status 1 (2 for compare) within 10 s, WHAT in the message
expect() {
	want=$1
	shift
	timeout 10 "$@" </dev/null >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 124 ] && fail "hung (10 s): $*"
	[ $rc -ne 0 ] || fail "succeeded but should not: $*"
	[ $rc -lt 128 ] || fail "killed by a signal ($rc): $*"
	grep -q -- "$want" "$T/err" || { cat "$T/err"; fail "no '$want' in the message of: $*"; }
}

# 9. endless input and non-regular files where a file is expected
expect "/dev/zero is a device, not a regular file" $DB run --dry-run /dev/zero
mkfifo "$T/fifo.ini"
expect "is a pipe, not a regular file" $DB run --dry-run "$T/fifo.ini"
expect "is a directory, not a regular file" $DB run --dry-run /tmp
"${GEN:-$(pwd)/build/tests/tools/gen-run}" "$T/run" >/dev/null || fail "gen-run"
cp -r "$T/run" "$T/zero"
rm "$T/zero/run.json"
ln -s /dev/zero "$T/zero/run.json"
expect "not a regular file" $DB report "$T/zero"
expect "not a regular file" $DB compare --no-files "$T/run" "$T/zero"

# 10. an escape sequence in a scenario never reaches the terminal
printf '[global]\nduration = \033]0;pwned\007\n' >"$T/esc.ini"
expect "control character" $DB run --dry-run "$T/esc.ini"
if grep -q "$(printf '\033')" "$T/err"; then fail "an ESC byte reached the terminal"; fi
printf '[workload x]\ntype = tty\nrate = 10\033]0;t\007\n' >"$T/esc2.ini"
expect "control character" $DB run --dry-run "$T/esc2.ini"
# a path with an escape sequence in a message is escaped
expect '\\x1b' $DB analyze "$T/$(printf 'a\033]0;t\007b')"
if grep -q "$(printf '\033')" "$T/err"; then fail "an ESC byte of a path reached the terminal"; fi

# 11. messages that say what is wrong
expect "unknown option '--bogus'" $DB restore --bogus
expect "unknown option '--bogus'" $DB run --bogus
expect "unknown option '--bogus'" $DB knobs set --bogus
expect "too large" $DB record -b 99999999999999999999
long=$(printf 'x%.0s' $(seq 300))
tar xzf tests/fixtures/capture-tty.tar.gz -C "$T" || fail "cannot unpack the fixture"
expect "more than the 255 a file name may have" $DB analyze "$T/cap" -o "$T/$long"
expect "more than the 255 a file name may have" $DB load tty -d 1s -o "$T/$long"
# options before the baseline verb
$DB baseline -D "$T/bl" save "$T/run" >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "baseline -D DIR save RUN"; }
DEFERBENCH_JOURNAL="$T/journal.json"
export DEFERBENCH_JOURNAL
echo '{"schema": ' >"$T/journal.json"
if [ "$(id -u)" -eq 0 ]; then
	expect "by hand" $DB restore
	grep -q "knobs show" "$T/err" || { cat "$T/err"; fail "a damaged journal: no way to check"; }
fi
unset DEFERBENCH_JOURNAL
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	for wl in audio timer net; do
		expect "load $wl needs root" setpriv --reuid=65534 --regid=65534 --clear-groups \
			$DB load $wl -d 1s
	done
fi

# 12. outputs are checked before the work: no 5 s of load before "Not a directory"
# (10 minutes asked: a load that ran first would outlast the runner's time limit, so
# the order is shown without timing it)
touch "$T/file"
expect "exists and is not a directory" $DB load tty -d 600s -o "$T/file"
expect "exists and is not a directory" $DB compare -o "$T/file" "$T/run" "$T/run"
expect "exists and is not a directory" $DB report -o "$T/file" "$T/run"

# 13. one rule for one thing
expect "given twice" $DB load tty -d 1s rate=100 rate=200
expect "unknown option '--bogus'" $DB knobs show --bogus
expect "decimal" $DB record -d 1e3s
expect "decimal" $DB record -d 0x10s
expect "exists; pass --replace" $DB baseline -D "$T/bl" save "$T/run"
$DB baseline -D "$T/bl" save --replace "$T/run" >/dev/null 2>&1 || fail "baseline save --replace"
if [ "$(id -u)" -eq 0 ] && [ ! -e /run/deferbench/journal.json ]; then
	mkdir "$T/full"
	echo mine >"$T/full/notes.txt"
	expect "is not empty" $DB run -o "$T/full" tests/fixtures/fixture.ini
	[ "$(ls "$T/full")" = notes.txt ] || fail "run wrote into a directory that was not empty"
fi
exit 0
