#!/bin/sh
# t-messages.sh - issue 34's unclear messages, each now naming what is wrong: a store
# that is a device or a FIFO, 'all' in a list of vectors, a run compared with itself, a
# baseline saved inside the run it reads, an output beyond a symbolic link. No root.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh
mktemp_dir T
for f in run-a run-b; do
	tar xzf tests/fixtures/$f.tar.gz -C "$T" || fail "cannot unpack $f"
done

# history_error MESSAGE CMD... - history's error (exit 2) saying MESSAGE
history_error() {
	_m=$1
	shift
	expect_exit 2 "$T/o" "$@"
	grep -qF -- "$_m" "$T/o" || { cat "$T/o"; fail "'$*' does not say '$_m'"; }
}
# a store that is no regular file: not "migrate it", not "disk I/O error"
history_error "/dev/zero is a device, not a regular file" "$DB" history -S /dev/zero
grep -q migrate "$T/o" && fail "history -S /dev/zero still advises a migration"
mkfifo "$T/fifo.db"
history_error "fifo.db is a pipe, not a regular file" timeout 10 "$DB" history -S "$T/fifo.db"
history_error "fifo.db is a pipe, not a regular file" \
	timeout 10 "$DB" history add -S "$T/fifo.db" "$T/runA"

# 'all' stands alone, whatever the case
for v in all,TIMER TIMER,ALL; do
	expect_message "$T/o" "'all' stands alone" "$DB" record --stacks=$v -d 1s -o "$T/x"
	grep -q "is not a softirq vector" "$T/o" && fail "--stacks=$v: 'all' called no vector"
done

# a run against itself: said, whichever way it is named
"$DB" compare --no-files "$T/runA" "$T/runA/" > /dev/null 2> "$T/o"
grep -q "BASE and NEW are the same run" "$T/o" || { cat "$T/o"; fail "compare A A says nothing"; }
"$DB" compare --no-files "$T/runA" "$T/runB" > /dev/null 2> "$T/o"
grep -q "the same run" "$T/o" && fail "compare A B calls them the same run"

# a baseline inside the run it reads: refused, nothing made in the run
expect_message "$T/o" "lies in $T/runA, which this command reads" \
	"$DB" baseline save "$T/runA" -D "$T/runA"
expect_message "$T/o" "which this command reads" "$DB" baseline save "$T/runA" -D "$T/runA/cells"
[ "$(ls "$T/runA")" = "$(printf 'cells\nrun.json\nscenario.ini')" ] ||
	fail "baseline save left something in the run: $(ls "$T/runA")"

# a link in a parent component of an output: refused, the resolved path named and taken
mkdir "$T/elsewhere"
ln -s elsewhere "$T/pl"
expect_message "$T/o" "$T/pl is a symbolic link" "$DB" report --no-plots -o "$T/pl/sub" "$T/runA"
grep -qF "give the resolved path ($T/elsewhere/sub)" "$T/o" || { cat "$T/o"; fail "no resolved path"; }
[ -z "$(ls "$T/elsewhere")" ] || fail "report wrote through the link: $(ls "$T/elsewhere")"
expect_message "$T/o" "is a symbolic link" "$DB" export --lava -o "$T/pl/x.txt" "$T/runA"
history_error "is a symbolic link" "$DB" history add -S "$T/pl/s.db" "$T/runA"
expect_message "$T/o" "is a symbolic link" \
	env DEFERBENCH_BASELINE_DIR="$T/pl/bl" "$DB" baseline save "$T/runA"
[ -z "$(ls "$T/elsewhere")" ] || fail "a command wrote through the link: $(ls "$T/elsewhere")"
"$DB" report --no-plots -o "$T/elsewhere/sub" "$T/runA" > "$T/o" 2>&1 ||
	{ cat "$T/o"; fail "report to the resolved path failed"; }
assert_file "$T/elsewhere/sub/report.md"
exit 0
