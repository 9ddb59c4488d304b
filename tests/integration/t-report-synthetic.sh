#!/bin/sh
# t-report-synthetic.sh - deferbench report on a synthetic run: every plot kind is drawn
# as a real PNG (and SVG), the HTML references only files that exist, the tables are
# there. Needs gnuplot, not root.
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

for kind in pctl hist ladder deferred time; do
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

# every src= and href= of the HTML names an existing file, relative to the report
refs=$(grep -o '\(src\|href\)="[^"]*"' "$RUN/report.html" | sed 's/^[a-z]*="//; s/"$//')
[ -n "$refs" ] || fail "report.html references no plot"
for r in $refs; do
	case $r in
	/* | *://* | ../*) fail "report.html reference is not local and relative: $r" ;;
	esac
	[ -s "$RUN/$r" ] || fail "report.html references a missing file: $r"
done
grep -q '<img src="plots/' "$RUN/report.html" || fail "no image in report.html"
grep -q '](plots/pctl-net-rtt.png)' "$RUN/report.md" || fail "report.md lacks the plots"

# the findings are there, the lossy and failed cells are named
grep -q '^## Findings' "$RUN/report.md" || fail "no Findings section"
grep -q 'net--threaded-napi--r2 is LOSSY' "$RUN/report.md" || fail "lossy cell not flagged"
grep -q 'tty--default--r3 did not finish' "$RUN/report.md" || fail "failed cell not named"
grep -q 'INCOMPLETE' "$RUN/report.md" || fail "incomplete run not flagged"
grep -q 'LOSSY 1/3' "$RUN/report.md" || fail "lossy figures not flagged in the tables"

# a re-run leaves no stale plot behind, and keeps what is not the report's
nplots=$(ls "$RUN"/plots | wc -l)
touch "$RUN/plots/pctl-gone-rtt.png" "$RUN/plots/pctl-gone-rtt.gp" "$RUN/plots/notes.txt"
"$DB" report "$RUN" >"$T/out2" 2>&1 || { cat "$T/out2"; fail "second report exited $?"; }
[ ! -e "$RUN/plots/pctl-gone-rtt.png" ] && [ ! -e "$RUN/plots/pctl-gone-rtt.gp" ] ||
	fail "a stale plot survived the re-run"
[ -e "$RUN/plots/notes.txt" ] || fail "the re-run removed a file that is not the report's"
[ "$(ls "$RUN"/plots | wc -l)" -eq $((nplots + 1)) ] || fail "the re-run changed the plots"

# a single cell directory is a record directory: it reports too
"$DB" report --no-plots -o "$T/one" "$RUN/cells/net--default--r1" >/dev/null 2>&1 ||
	fail "report on a record directory"
assert_file "$T/one/report.md"
grep -q 'record directory' "$T/one/report.md" || fail "record directory not said"
exit 0
