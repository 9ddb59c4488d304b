#!/bin/sh
# t-report-synthetic.sh - deferbench report on a synthetic run: every plot kind is drawn
# as a real PNG (and SVG), the HTML holds its images and links no file, the tables are
# there, the first screen answers for the work each workload drives. Needs gnuplot, not
# root.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh

GEN=${GEN:-$(pwd)/build/tests/tools/gen-run}
[ -x "$GEN" ] || fail "missing $GEN (make build/tests/tools/gen-run)"
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot is not installed"

mktemp_dir T
RUN=$T/run
"$GEN" --lossy net--threaded-napi--r2 --failed tty--default--r3 --partial "$RUN" ||
	fail "gen-run"
"$DB" report "$RUN" >"$T/out" 2>&1 || { cat "$T/out"; fail "report exited $?"; }

for f in report.md report.html tables/workload.csv tables/softirq.csv \
	tables/workqueue.csv tables/cells.csv tables/counters.csv tables/wakeup.csv; do
	assert_file "$RUN/$f"
done

# is_png FILE - the PNG signature and more than a trivial size
is_png() {
	sig=$(od -An -tx1 -N4 "$1" | tr -d ' \n')
	[ "$sig" = "89504e47" ] || fail "$1 is not a PNG (starts with $sig)"
	[ "$(wc -c <"$1")" -gt 8000 ] || fail "$1 is suspiciously small"
}

for kind in pctl ladder time; do
	n=0
	for png in "$RUN"/plots/"$kind"-*.png; do
		[ -e "$png" ] || fail "no $kind plot"
		is_png "$png"
		svg=${png%.png}.svg
		grep -q '<svg' "$svg" || fail "$svg is not an SVG"
		n=$((n + 1))
	done
	echo "   $n $kind plots"
done

# the HTML is one file to send: its images are inside it (the SVG or the PNG, whichever
# is smaller) and it links no file, only anchors of the page
grep -q "<img src='data:image/\(svg+xml,\|png;base64,\)" "$RUN/report.html" ||
	fail "no image inside report.html"
[ "$(grep -c '<img ' "$RUN/report.html")" -eq "$(grep -c "<img src='data:image/" "$RUN/report.html")" ] ||
	fail "report.html links an image instead of holding it"
for r in $(grep -o 'href="[^"]*"' "$RUN/report.html" | sed 's/^href="//; s/"$//'); do
	case $r in
	'#'*) grep -q "id=\"${r#\#}\"" "$RUN/report.html" || fail "report.html: no anchor $r" ;;
	*) fail "report.html links a file, which breaks once it is sent alone: $r" ;;
	esac
done

# one colour per thing across every plot: each script records what its colours stand
# for ("# colour work:NET_RX #882255"); a thing drawn in several plots keeps its colour
cat "$RUN"/plots/*.gp | awk '/^# colour / { n++; if (($3 in c) && c[$3] != $4) { print $3 ": " c[$3] " and " $4; bad = 1 }
	c[$3] = $4; seen[$3]++ } END { for (k in seen) if (seen[k] > 1) multi++; exit bad || !n || !multi }' ||
	fail "a thing has two colours across the plots, or no colour is recorded"
# and no two things share a colour, of one kind or of two (configurations, places, work
# and causes draw from colours of their own)
cat "$RUN"/plots/*.gp | awk '/^# colour / { if (($4 in by) && by[$4] != $3) { print by[$4] " and " $3 " share " $4; bad = 1 } by[$4] = $3 }
	END { exit bad }' || fail "two things share a colour"
grep -q '](plots/pctl-net-rtt.png)' "$RUN/report.md" || fail "report.md lacks the plots"

# the tables hold one row per group of the run gen-run wrote: 3 workloads x 3 configs
# x 3 repetitions (the interrupted .partial- cell is not one); per workload x config, 1
# workload metric, 5 softirq vectors x (delay, runtime), 5 work functions x 4 metrics,
# 2 ksoftirqd threads + 4 worker pools of thread wakeup, 2 counters
rows() {
	[ "$(($(wc -l < "$RUN/tables/$1") - 1))" -eq "$2" ] ||
		fail "tables/$1 has $(($(wc -l < "$RUN/tables/$1") - 1)) rows, not $2"
}
rows cells.csv 27
rows workload.csv 9
rows softirq.csv 90
rows workqueue.csv 180
rows wakeup.csv 54
rows counters.csv 18
# a field of a table row: field FILE "key1","key2",... COLUMN
field() {
	awk -F, -v k="$2" -v col="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "\"" col "\"") c = i }
		index($0, k ",") == 1 { gsub(/"/, "", $c); print $c }' "$RUN/tables/$1"
}
# 4000 samples per repetition; the failed repetition counts in no figure, the lossy
# one is flagged where it counts
[ "$(field workload.csv '"net","default"' count)" = 12000 ] || fail "workload.csv: net/default count"
[ "$(field workload.csv '"tty","default"' count)" = 8000 ] ||
	fail "workload.csv: tty/default counts the failed repetition"
[ "$(field workload.csv '"tty","default"' incomplete_reps)" = 1 ] || fail "workload.csv: incomplete_reps"
[ "$(field workload.csv '"tty","default"' reps_with_data)" = 2 ] || fail "workload.csv: reps_with_data"
[ "$(field workload.csv '"net","threaded-napi"' lossy_reps)" = 1 ] || fail "workload.csv: lossy_reps"
[ "$(field workload.csv '"net","default"' lossy_reps)" = 0 ] || fail "workload.csv: net/default lossy"
[ "$(field cells.csv '"tty--default--r3"' status)" = failed ] || fail "cells.csv: failed cell status"
[ "$(field cells.csv '"net--threaded-napi--r2"' lossy)" = 1 ] || fail "cells.csv: lossy cell"
[ "$(field cells.csv '"net--threaded-napi--r2"' lost_events)" = 1234 ] || fail "cells.csv: lost_events"

# the first screen is the answer: the summary is the first section, one line per
# workload with the work it drives and that work's wait p50 / p99 in every
# configuration, its own latency and the answer; below them every place's deferred work
# merged, a row per workload and configuration; the run's metadata is the last section
[ "$(grep -m1 '^## ' "$RUN/report.md")" = "## Summary: the work each workload drives, per configuration" ] ||
	fail "report.md does not open with the summary: $(grep -m1 '^## ' "$RUN/report.md")"
[ "$(grep '^## ' "$RUN/report.md" | tail -n 1)" = "## Run" ] || fail "the run's metadata is not last"
for a in 'net\*\* drives NET\\_RX (softirq)' 'tty\*\* drives flush\\_to\\_ldisc (workqueue [a-z_\\]*)' \
	'timer\*\* drives TIMER (softirq)'; do
	grep -q "^- \*\*$a, wait p50 / p99: default [0-9.]* / [0-9.]*\\\\\{0,1\}\*\{0,1\} us, threaded-napi [0-9.]* / [0-9.]*.* us, wq-nice-10 [0-9.]* / [0-9.]*.* us\. Own latency, [a-z]* p50 / p99: default [0-9.]* / [0-9.]* us, .*\. Answer: " \
		"$RUN/report.md" || { grep '^- \*\*' "$RUN/report.md"; fail "summary: no answer line $a"; }
done
# every place merged below; workqueue items of a workload that drives none are marked
# (bg) and get no ratio, others do
for wl in net tty timer; do
	grep -q "^| $wl | default | [0-9.]* / [0-9.]* ([0-9]*) | .* | [0-9.]* / [0-9.]* ([0-9]*)\( (bg)\)\{0,1\} | [0-9.-]* |$" \
		"$RUN/report.md" || fail "summary: no softirq and workqueue waits of $wl/default"
done
grep -q '^| tty | default | .* ([0-9]*) | [0-9.]* |$' "$RUN/report.md" ||
	fail "summary: tty's workqueue items are marked background, or have no ratio"
grep -q '^| net | default | .* ([0-9]*) (bg) | - |$' "$RUN/report.md" ||
	fail "summary: net's workqueue items are not marked background, or have a ratio"
grep -q '(bg) | [0-9]' "$RUN/report.md" && fail "summary: a (bg) row has a ratio"
grep -q '^- \[Workload net\](#wl-net)$' "$RUN/report.md" || fail "contents: no link to workload net"
# the plot below the answers: the driven work of every workload, a box per configuration
for g in 'net: NET_RX' 'tty: flush_to_ldisc' 'timer: TIMER'; do
	grep -q "^set x2tics .*'$g'" "$RUN/plots/summary-waits.gp" ||
		fail "summary plot: no boxes of $g"
done
grep -q '^# colour config:threaded-napi #' "$RUN/plots/summary-waits.gp" ||
	fail "summary plot: the configurations have no colours"

# the findings are there, the lossy and failed cells are named
grep -q '^## Findings' "$RUN/report.md" || fail "no Findings section"
grep -q 'net--threaded-napi--r2 is LOSSY' "$RUN/report.md" || fail "lossy cell not flagged"
grep -q 'tty--default--r3 did not finish' "$RUN/report.md" || fail "failed cell not named"
grep -q 'INCOMPLETE' "$RUN/report.md" || fail "incomplete run not flagged"
grep -q 'LOSSY 1/3' "$RUN/report.md" || fail "lossy figures not flagged in the tables"

# the headline findings: per workload, the configuration to use, judged against the
# reference on the workload's primary metrics, or the reference kept when none is
# shown better. gen-run scales the configurations it is given by 1.0, 0.75 and 1.3 in
# that order: "fast" is best, "default" (the reference) last; with enough samples and
# little spread between repetitions, decided
"$GEN" --samples 40000 --noise 0.01 --workloads net,tty --configs slow,fast,default "$T/f1" ||
	fail "gen-run f1"
"$DB" report --no-plots "$T/f1" >"$T/f1.out" 2>&1 || { cat "$T/f1.out"; fail "report f1"; }
# the summary's answer; then, under Findings, each configuration metric by metric, each
# verdict with the change it would have caught (detects)
grep -q '^- \*\*net\*\* drives NET\\_RX (softirq), .* Answer: use fast: better than default on 2 primary metric(s) (the most: [a-z:\\_A-Z]*p99 x0\.[56][0-9] \[[0-9.]*, [0-9.]*\]), worse on none\. Against default: slow: [^;]*; fast: better rtt p99 x0\.[56][0-9], NET\\_RX p99 x0\.[56][0-9]\.$' \
	"$T/f1/report.md" || { grep '^- \*\*net' "$T/f1/report.md"; fail "summary answer of net"; }
grep -q '^- net: use fast: better than default' "$T/f1/report.md" ||
	{ grep '^- net' "$T/f1/report.md"; fail "findings: answer of net"; }
grep -q '^- net: .*fast against default: workload:rtt:p99 x0\.[56][0-9]* \[[0-9.]*, [0-9.]*\]: better (detects [0-9.]*%), softirq:NET\\_RX:delay:p99 x0\.[0-9]* \[[0-9.]*, [0-9.]*\]: better (detects [0-9.]*%)$' \
	"$T/f1/report.md" || { grep '^- net' "$T/f1/report.md"; fail "findings: verdicts of net"; }
grep -q '^- tty: .*fast against default: workload:delivery:p99 x0\.[56][0-9]* \[[0-9.]*, [0-9.]*\]: better (detects [0-9.]*%), ' \
	"$T/f1/report.md" || { grep '^- tty' "$T/f1/report.md"; fail "findings of tty"; }
"$GEN" --samples 40000 --noise 0.01 --workloads net --configs other,default "$T/f2" || fail "gen-run f2"
"$DB" report --no-plots "$T/f2" >"$T/f2.out" 2>&1 || { cat "$T/f2.out"; fail "report f2"; }
grep -q "^- \*\*net\*\* drives NET\\\\_RX (softirq), .* Answer: keep default: other worse\. Against default: other: worse " \
	"$T/f2/report.md" || { grep '^- \*\*net' "$T/f2/report.md"; fail "summary: the reference is best"; }
grep -q "^- net: keep default: other worse\.$" "$T/f2/report.md" &&
grep -q "^- net: other against default: " "$T/f2/report.md" ||
	{ grep '^- net' "$T/f2/report.md"; fail "findings: the reference is best"; }

# thirteen configurations: every verdict of every one is listed, none cut (the line
# was once a 2 KiB buffer, and tty's sixth configuration ended mid-word)
"$GEN" --samples 4000 --workloads tty --configs default,c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11,c12 \
	"$T/f3" || fail "gen-run f3"
"$DB" report --no-plots "$T/f3" >"$T/f3.out" 2>&1 || { cat "$T/f3.out"; fail "report f3"; }
grep -q '^- tty: .*; c12 against default: workload:delivery:p99 x[0-9.]* \[[0-9.]*, [0-9.]*\]: [a-z ]* (detects [0-9.]*%), .*(detects [0-9.]*%)$' \
	"$T/f3/report.md" || { grep '^- tty' "$T/f3/report.md" | tail -c 300; fail "findings of 12 configurations cut"; }

# a re-run needs --force; it replaces plots/ whole (no stale plot survives), and only
# while every file in it is the earlier report's: what is not (a file of the user's,
# one of the report's names put there by hand) refuses it and stays
nplots=$(ls "$RUN"/plots | wc -l)
"$DB" report "$RUN" >"$T/out2" 2>&1 && fail "a second report replaced the first without --force"
grep -q "pass --force" "$T/out2" || { cat "$T/out2"; fail "second report: no reason given"; }
touch "$RUN/plots/pctl-gone-rtt.png" "$RUN/plots/notes.txt"
"$DB" report --force "$RUN" >"$T/out2" 2>&1 && fail "report --force replaced files that are not its own"
grep -q "not deferbench's" "$T/out2" || { cat "$T/out2"; fail "report --force: no reason given"; }
[ -e "$RUN/plots/notes.txt" ] && [ -e "$RUN/plots/pctl-gone-rtt.png" ] ||
	fail "a refused report removed a file that is not the report's"
rm "$RUN/plots/pctl-gone-rtt.png" "$RUN/plots/notes.txt"
"$DB" report --force "$RUN" >"$T/out2" 2>&1 || { cat "$T/out2"; fail "report --force exited $?"; }
[ "$(ls "$RUN"/plots | wc -l)" -eq "$nplots" ] || fail "the re-run changed the plots"

# a single cell directory is a record directory: it reports too
"$DB" report --no-plots -o "$T/one" "$RUN/cells/net--default--r1" >/dev/null 2>&1 ||
	fail "report on a record directory"
assert_file "$T/one/report.md"
grep -q 'record directory' "$T/one/report.md" || fail "record directory not said"
exit 0
