#!/bin/sh
# t-lossy.sh - a capture whose ring buffers lost events is marked lossy, from any of the
# kernel's per-CPU counters (overrun, commit overrun, dropped events), and every output
# shows it: the table, summary.json, softirq.csv and workqueue.csv, the report, and
# compare, which does not judge its trace-derived metrics. The counters a live capture
# reads from per_cpu/cpuN/stats are kept in raw/capture.json; analyze of the recorded
# fixture with one of them raised gives what a live capture that lost events writes
# (the live parsing of the stats file: test_output.c). Needs neither root nor tracefs.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh
command -v jq >/dev/null 2>&1 || skip "jq is not installed (ci/install-deps.sh)"
mktemp_dir T
tar xzf tests/fixtures/capture-tty.tar.gz -C "$T" || fail "untar the fixture"

# the fixture as recorded lost nothing
expect_exit 0 "$T/clean.out" $DB analyze "$T/cap" -o "$T/clean"
grep -q '^events [0-9]*   lost 0   unmatched' "$T/clean.out" || fail "the fixture is lossy already"
[ "$(jq .capture.lossy "$T/clean/summary.json")" = false ] || fail "the fixture is lossy already"

# lossy CPU COUNTER N - the fixture with COUNTER of CPU raised to N, analyzed into $T/COUNTER
lossy() {
	d=$T/$2
	cp -r "$T/cap" "$d.cap"
	jq ".loss[$1].$2 = $3" "$T/cap/raw/capture.json" > "$d.cap/raw/capture.json" || fail "jq"
	expect_exit 0 "$d.out" $DB analyze "$d.cap" -o "$d"
	grep -q "^events [0-9]*   lost $3 \\[LOSSY: figures below undercount\\]   unmatched" "$d.out" ||
		fail "$2: the table does not say LOSSY: $(grep '^events' "$d.out")"
	[ "$(jq .capture.lossy "$d/summary.json")" = true ] || fail "$2: summary.json not lossy"
	[ "$(jq .capture.lost_events "$d/summary.json")" = "$3" ] || fail "$2: lost_events"
	[ "$(jq ".capture.lost_by_cpu[$1].$2" "$d/summary.json")" = "$3" ] || fail "$2: lost_by_cpu"
	for f in softirq.csv workqueue.csv; do
		# every row carries the capture's lost_events and lossy, the last two columns
		awk -F, -v n="$3" 'NR == 1 { if ($(NF - 2) != "\"lost_events\"" || $NF != "\"lossy\"") exit 1; next }
			$(NF - 2) != n || $NF != 1 { exit 1 }' "$d/$f" ||
			fail "$2: $f rows do not all say lost $3, lossy"
	done
}
lossy 0 overrun 7
lossy 1 commit_overrun 3
lossy 0 dropped 11

# the report of a lossy capture says so, in its findings and its tables
expect_exit 0 "$T/rep.out" $DB report --no-plots "$T/dropped" -o "$T/rep"
grep -q "is LOSSY: 11 trace events lost" "$T/rep/report.md" || fail "report.md: no LOSSY finding"
grep -q "LOSSY 1/1" "$T/rep/report.md" || fail "report.md: tables not flagged LOSSY"
grep -q '^"system--as-is--r1","system","as-is",1,"ok","",1,[0-9]*,11,' "$T/rep/tables/cells.csv" ||
	fail "tables/cells.csv: the cell is not lossy: $(cat "$T/rep/tables/cells.csv")"

# compare: the lossy side's trace-derived metrics are not judged, the row says why; a
# capture has no workload metrics, so nothing is left to judge: an error (exit 2) unless
# --allow-empty
expect_exit 2 "$T/empty.out" $DB compare --no-files "$T/clean" "$T/dropped"
grep -q "no primary metric was judged" "$T/empty.out" || fail "compare: $(cat "$T/empty.out")"
expect_exit 0 "$T/cmp.out" $DB compare --wide --no-files --allow-empty "$T/clean" "$T/dropped"
grep -q "softirq:\\*, wq:\\*, wakeup:\\* .* lossy: trace events lost in 0 base and 1 new repetitions" \
	"$T/cmp.out" || fail "compare: no lossy row: $(cat "$T/cmp.out")"
grep -q ' softirq:[A-Z_]*:delay:p50 .* \(worse\|better\|no change\|cannot tell\)' "$T/cmp.out" &&
	fail "compare judged a softirq metric of a lossy capture"
grep -q "^primary: .*; 1 lossy, 0 incomplete$" "$T/cmp.out" ||
	fail "compare: the summary does not count the lossy cell: $(grep '^primary' "$T/cmp.out")"
exit 0
