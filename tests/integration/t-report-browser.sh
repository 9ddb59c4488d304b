#!/bin/sh
# t-report-browser.sh - the report of a real QUICK run (bench/scenarios/quick.ini with
# its phases halved, half a minute; whole with DB_KEEP_SCREENSHOT: needs root and
# tracefs) as a reader's browser shows it (issues 24 and 35; the checks are
# lib-browser.sh's, the record report's test is t-report-browser-record.sh). It keeps
# a screenshot of the first screen (DB_KEEP_SCREENSHOT=FILE).
. tests/integration/lib.sh
. tests/integration/lib-browser.sh
mktemp_dir T

# the report of a QUICK run (make bench QUICK=1 runs the same scenario). Its shape -
# workloads, configurations, blocks, so every section and plot - is what the report's
# length depends on, not the length of a phase: the phases are halved (25 s of the
# test's 70) unless the screenshot is kept for the README, which shows the real one
need_root_tracefs
if [ -n "${DB_KEEP_SCREENSHOT:-}" ]; then
	cp bench/scenarios/quick.ini "$T/quick.ini"
else
	sed -e 's/^phase = 2s$/phase = 1s/' -e 's/^settle = 500ms$/settle = 250ms/' \
		-e 's/^warmup = 1s$/warmup = 500ms/' bench/scenarios/quick.ini > "$T/quick.ini"
	grep -q '^phase = 1s$' "$T/quick.ini" || fail "quick.ini has no 'phase = 2s' to halve"
fi
"$DB" run -o "$T/quick" "$T/quick.ini" >"$T/run.log" 2>&1 ||
	{ tail -20 "$T/run.log"; fail "the QUICK run failed"; }
"$DB" report "$T/quick" >"$T/out" 2>&1 || { cat "$T/out"; fail "report of the QUICK run"; }
check "$T/quick" quick
[ "$(val answers)" = 5 ] || fail "quick: $(val answers) answers, not 5"
wait_figures tty flush_to_ldisc baseline unbound-cpu0
wait_figures block kblockd baseline unbound-cpu0
wait_figures block writeback baseline unbound-cpu0
wait_figures net net_rx baseline napi-threaded
wait_figures timer TIMER baseline
answer net | grep -q 'napi-threaded [0-9.]* / [0-9.]*\*\{0,1\} us (napi thread' ||
	fail "quick: net's line does not say its NET_RX work ran in napi threads: $(answer net)"
answer audio | grep -q 'drives no deferred work of its own' ||
	fail "quick: audio's line claims driven work: $(answer audio)"
for wl in tty block net timer audio; do
	answer $wl | grep -q 'Own latency, [a-z_]* p50 / p99: baseline [0-9.]* / [0-9.]*' ||
		fail "quick: the line of $wl lacks its own latency: $(answer $wl)"
	answer $wl | grep -q 'Answer: ' || fail "quick: the line of $wl has no answer"
done
# net and audio drive no workqueue work: their workqueue figures are marked, no ratio
grep -q '^AGGR net|baseline|.*(bg)|-$' "$T/probe" || fail "quick: net's workqueue row not (bg)"
colours "$T/quick"
[ -n "${DB_KEEP_SCREENSHOT:-}" ] && cp "$T/quick.png" "$DB_KEEP_SCREENSHOT"
exit 0
