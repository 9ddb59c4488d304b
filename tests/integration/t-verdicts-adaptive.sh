#!/bin/sh
# t-verdicts-adaptive.sh - a short adaptive run (--until-decided) that adds repetitions
# where a verdict is open, and compare applying its looks (the file-only verdicts on
# real and synthetic runs are t-verdicts.sh, in the file-only lane).
. tests/integration/lib.sh

need_root_tracefs
mktemp_dir T
cat >"$T/s.ini" <<EOF
[global]
duration = 500ms
warmup = 250ms
repetitions = 2
interval = 100ms

[workload tty]
type = tty
rate = 500

[config baseline]
[config slow]
load = hog

[load hog]
type = hog
threads = 1
policy = fifo
priority = 10
duty = 50
period = 10ms
EOF
"$DB" run --until-decided=25s -o "$T/ad" "$T/s.ini" >"$T/ad.out" 2>&1 ||
	{ cat "$T/ad.out"; fail "the adaptive run failed"; }
grep -q '^until-decided: look 1 of 4' "$T/ad.out" || { cat "$T/ad.out"; fail "no first look"; }
python3 - "$T/ad/run.json" <<'EOF' || { cat "$T/ad.out"; fail "run.json of the adaptive run"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["looks"] == 4 and d["complete"], (d.get("looks"), d["complete"])
assert d["cells_planned"] == len(d["cells"]) >= 4, (d["cells_planned"], len(d["cells"]))
EOF
# it either decided everything, or added repetitions, or said its budget had no room
# for them (which of the three depends on how fast the machine ran the cells)
if ! grep -q 'every primary metric is decided' "$T/ad.out" &&
   ! grep -q 'the budget has no room for another cell' "$T/ad.out"; then
	grep -q 'adding [0-9]* cell' "$T/ad.out" || { cat "$T/ad.out"; fail "undecided, nothing added"; }
fi
"$DB" compare --wide --no-files --allow-undecided "$T/ad" "$T/ad" >"$T/adc.out" 2>&1 ||
	fail "compare of the adaptive run"
grep -q "split over the looks of an adaptive run" "$T/adc.out" ||
	fail "compare does not apply the adaptive run's looks"
no_leftover_instances
echo "   adaptive run: looks, cells added or decided, compare split over the looks"
