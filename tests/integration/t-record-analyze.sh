#!/bin/sh
# t-record-analyze.sh - analyze of a raw capture reproduces the live figures exactly.
. tests/integration/lib.sh
need_root_tracefs
mktemp_dir T

$DB record -d 2s --raw -o "$T/live" -- sh -c 'for i in $(seq 300); do sync; done' \
	> "$T/live.txt" 2>&1 || { cat "$T/live.txt"; fail "record failed"; }
for f in capture.json header_page comms symbols cpu0.dat; do
	assert_file "$T/live/raw/$f"
done
$DB analyze "$T/live" -o "$T/off" > "$T/off.txt" 2>&1 || { cat "$T/off.txt"; fail "analyze failed"; }
for f in summary.json softirq.csv workqueue.csv histograms.csv intervals.csv; do
	cmp "$T/live/$f" "$T/off/$f" || fail "$f differs between live and offline analysis"
done
# a truncated sub-buffer file is an error, not a silent partial result
cp -r "$T/live" "$T/cut"
size=$(stat -c %s "$T/cut/raw/cpu0.dat")
truncate -s $((size - 100)) "$T/cut/raw/cpu0.dat"
expect_exit 1 "$T/cut.txt" $DB analyze "$T/cut"
grep -q "truncated" "$T/cut.txt" || fail "no clear message for a truncated capture"
exit 0
