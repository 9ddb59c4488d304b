#!/bin/sh
# t-capture-json.sh - issue 34: every number of a raw capture's capture.json is checked
# against its range and against the rest of the capture (end_ts and start_ts against
# the pages' timestamps, counters against the capture's length, buffer_kb against
# record -b, capture_cpu_s against the threads' time): capture-json-corpus.py sets each
# field out of range, one at a time, and analyze must refuse every case naming the
# field. No root.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh
mktemp_dir T
tar xzf tests/fixtures/capture-tty.tar.gz -C "$T" || fail "cannot unpack the capture"
mkdir "$T/work"
python3 tests/integration/capture-json-corpus.py "$DB" "$T/cap" "$T/work" > "$T/out" 2>&1 ||
	{ cat "$T/out"; fail "a capture.json value out of range was taken"; }
tail -2 "$T/out"
# a tampered end that the reader cannot see from capture.json alone: the pages say it
python3 - "$T/cap/raw/capture.json" <<'PY' || fail "cannot edit capture.json"
import json, sys
m = json.load(open(sys.argv[1]))
m['end_ts'] += 3600 * 10**9
json.dump(m, open(sys.argv[1], 'w'))
PY
expect_message "$T/o" "field 'end_ts' lies 3600." "$DB" analyze "$T/cap" -o "$T/an"
"$DB" analyze --accept-damaged "$T/cap" -o "$T/an" > "$T/o" 2>&1 ||
	{ cat "$T/o"; fail "--accept-damaged did not take the times as they are"; }
grep -q "analyzed as the file says" "$T/o" || { cat "$T/o"; fail "no warning with --accept-damaged"; }
exit 0
