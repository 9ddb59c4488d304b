#!/bin/sh
# t-report-real.sh - report and compare read what record and load really write: three
# real cells (record around a tty load) wrapped in run.json/cell.json as the runner
# writes them (docs/results-format.md), reported with plots, compared with itself.
. tests/integration/lib.sh

need_root_tracefs
command -v jq >/dev/null 2>&1 || skip "jq is not installed (ci/install-deps.sh)"
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot is not installed"

mktemp_dir T
RUN=$T/run
mkdir -p "$RUN/cells" || fail "mkdir"
for r in 1 2 3; do
	d=$RUN/cells/tty--default--r$r
	# (no -d: record ends with its command, never before it on a slow machine)
	"$DB" record -o "$d" -- "$DB" load -d 1500ms -o "$T/wl$r" tty >"$T/rec$r.log" 2>&1 ||
		{ cat "$T/rec$r.log"; fail "record + load, repetition $r"; }
	mv "$T/wl$r"/* "$d/" || fail "no workload files from load"
	jq -n --argjson rep $r '{schema: "deferbench-cell/1", workload: "tty",
		config: "default", rep: $rep, knobs: {}, status: "ok"}' >"$d/cell.json" ||
		fail "jq"
done
jq -n --arg k "$(uname -r)" --arg h "$(uname -n)" --arg c "$(cat /proc/cmdline)" \
	--argjson n "$(nproc)" '{schema: "deferbench-run/1",
	meta: {kernel: $k, hostname: $h, cpus: $n, cmdline: $c}, scenario: "t-report-real",
	complete: true, cells: [range(1; 4) as $r | {workload: "tty", config: "default",
	rep: $r, dir: "cells/tty--default--r\($r)"}]}' >"$RUN/run.json" || fail "jq"

"$DB" report "$RUN" >"$T/report.log" 2>&1 || { cat "$T/report.log"; fail "report"; }
assert_file "$RUN/report.html"
for kind in pctl ladder deferred time; do
	ls "$RUN"/plots/"$kind"-*.png >/dev/null 2>&1 || fail "no $kind plot from real data"
done
grep -q '^### tty: own latency$' "$RUN/report.md" &&
	grep -q '^| delivery | default | 3/3 | ' "$RUN/report.md" || fail "no workload section"
# the work it drives first: flush_to_ldisc, from the load's workload.json
grep -q '^- \*\*tty\*\* drives flush\\_to\\_ldisc (workqueue), wait p50 / p99: default [0-9.]* / [0-9.]*' \
	"$RUN/report.md" || { grep '^- \*\*tty' "$RUN/report.md"; fail "the summary does not answer for flush_to_ldisc"; }
[ -s "$RUN/plots/ladder-tty-work-flush_to_ldisc.png" ] || fail "no ladder of flush_to_ldisc"
# thread wakeup, from the record's summary.json: the tty load wakes unbound kworkers
grep -q '^### tty: thread wakeup (sched' "$RUN/report.md" || fail "no thread wakeup section"
grep -q '^| config | thread | repetitions | wakeups | p50 (us) | p99 (us) | max (us) |' \
	"$RUN/report.md" || fail "no thread wakeup table"
grep -q '^| default | kworker unbound[0-9]* | [1-3]/3 | [0-9]' "$RUN/report.md" ||
	{ grep -A12 'thread wakeup (sched' "$RUN/report.md"; fail "no unbound pool wakeups"; }
[ "$(grep -c '^"tty","default","worker",-1,"unbound' "$RUN/tables/wakeup.csv")" -ge 1 ] ||
	fail "tables/wakeup.csv has no unbound pool row"
grep -q 'tty, thread wakeup: ' "$RUN/report.md" || fail "no thread wakeup finding"

# compared with itself, once (a compare of these real cells judges every metric they
# hold): nothing worse or better in the advisory family, and where the three
# repetitions can decide (a margin as wide as their spread read with Student's t on
# their few degrees of freedom, beside a CPU load: x11, while their delivery p50s lie
# within 2x of each other), "no change" - decided, not an absence of evidence
expect_exit 0 "$T/cmp1.log" "$DB" compare --wide --no-files -m workload:delivery:p50 -t 1000 "$RUN" "$RUN"
grep -q "^tty  *default  *\* workload:delivery:p50 .* 1000%  *[0-9.]*%  *3/3  *no change: interval inside the margin" \
	"$T/cmp1.log" || { cat "$T/cmp1.log"; fail "delivery p50 compared with itself is not 'no change'"; }
grep -q "^primary: 0 worse, 0 better, 0 higher, 0 lower, 1 no change, 0 cannot tell (1 judged); .*advisory: 0 worse, 0 better, 0 higher, 0 lower, " "$T/cmp1.log" ||
	fail "compare -m workload:delivery:p50 with itself: $(grep '^primary' "$T/cmp1.log")"
exit 0
