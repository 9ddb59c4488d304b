#!/bin/sh
# t-run-until-alt.sh - run --until-decided on the alternating design: after the planned
# blocks the loop adds blocks, not cells (a continuation segment of the same group, its
# blocks numbered on after the first's, within the budget), says so in those words, and
# compare reads the two segments as one side of so many blocks. Every knob is back
# (lib-knobs.sh's snapshot).
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_tracefs
command -v python3 >/dev/null || skip "needs python3 to read run.json"
mktemp_dir T
snapshot "$T/before"
# tty at 100 keystrokes a second: 6 blocks of 750 ms kept per arm hold about 450
# deliveries, too few for a p99 (10 samples beyond it on each side), so the first look
# always finds an undecided primary metric and adds blocks
cat > "$T/u.ini" <<INI
[global]
design = alternate
blocks = 6
phase = 1s
settle = 250ms
warmup = 500ms

[workload tty]
type = tty
rate = 100

[config asis]
[config cpu0]
wq.cpumask = 1
INI
$DB run --until-decided=40s -o "$T/run" "$T/u.ini" > "$T/out.txt" 2>&1 ||
	{ cat "$T/out.txt"; fail "the adaptive run failed"; }
same_as "$T/before"
grep -q '^until-decided: look 1 of 4' "$T/out.txt" || { cat "$T/out.txt"; fail "no first look"; }
grep -qE '^until-decided: adding [0-9]+ block\(s\) in 1 segment\(s\), about ' "$T/out.txt" ||
	{ cat "$T/out.txt"; fail "the first look added no blocks, or did not say so"; }
if grep -q 'cell(s)' "$T/out.txt"; then
	cat "$T/out.txt"
	fail "an alternating run's look speaks of cells"
fi
python3 - "$T/run/run.json" > "$T/blocks" <<'PY' || { cat "$T/out.txt"; fail "run.json of the adaptive run"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] and d["looks"] == 4, (d["complete"], d["looks"])
segs = d["cells"]
assert all(c["design"] == "alternate" for c in segs), segs
assert segs[0]["id"] == "tty--asis--a1" and segs[0]["blocks"] == 6 and \
       segs[0]["first_block"] == 1, segs[0]
nxt = 7
for i, c in enumerate(segs[1:], 2):
    # a continuation: the same group, numbered on, 1 to 16 blocks (the budget's cut)
    assert c["id"] == "tty--asis--a%d" % i, c["id"]
    assert c["first_block"] == nxt and 1 <= c["blocks"] <= 16, c
    nxt += c["blocks"]
assert len(segs) >= 2, "no continuation segment"
print(nxt - 1)
PY
blocks=$(cat "$T/blocks")
# compare pools the group's segments: each side has every block of them
$DB compare --wide --no-files --allow-empty --allow-undecided "$T/run" "$T/run" > "$T/cmp.txt" 2>&1 ||
	[ $? -eq 1 ] || { cat "$T/cmp.txt"; fail "compare of the adaptive run"; }
grep -q "workload:delivery:p50 .* $blocks/$blocks " "$T/cmp.txt" ||
	{ cat "$T/cmp.txt"; fail "compare does not read $blocks blocks per side"; }
no_leftover_instances
echo "   $blocks blocks in $(python3 -c "import json; print(len(json.load(open('$T/run/run.json'))['cells']))" ) segments, every knob back"
