#!/bin/sh
# t-report-browser-record.sh - a record report (the recorded tty load of
# tests/fixtures/capture-tty) as a reader's browser shows it (issues 24 and 35; the
# checks are lib-browser.sh's): the recorded command's work named as the top waiters
# with its wait, never called background.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh
. tests/integration/lib-browser.sh
mktemp_dir T

tar xzf tests/fixtures/capture-tty.tar.gz -C "$T" || fail "tar"
"$DB" report -o "$T/rec" "$T/cap" >"$T/out" 2>&1 || { cat "$T/out"; fail "report of a record"; }
check "$T/rec" record
[ "$(val answers)" = 1 ] || fail "record: $(val answers) answers, not 1"
answer system | grep -q 'top waiters (most total wait): flush_to_ldisc (workqueue[^)]*), wait p50 / p99: [0-9.]* / [0-9.]*\*\{0,1\} us ([0-9]* waits)' ||
	fail "record: its line does not name flush_to_ldisc as a top waiter with its wait: $(answer system)"
grep -qi 'background\|(bg)' "$T/probe" && fail "record: the recorded command's work is called background"
colours "$T/rec"
exit 0
