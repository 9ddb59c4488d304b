#!/bin/sh
# t-contexts.sh - execution contexts and the causes of softirq delay under real load:
#   - net with TCP streams: NET_RX delay is partly the BH-disabled sections of tasks, and
#     the workload's own threads are named; every vector's causes add up to its delay;
#   - a run of net with napi=softirq (baseline) and napi=threaded: the report's contexts
#     overview shows the napi threads and their polls next to the baseline's NET_RX
#     softirq, and the context ladders are drawn.
. tests/integration/lib.sh
need_root_tracefs
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mktemp_dir T

$DB record -o "$T/tcp" -- $DB load net -d 4s rate=1000 tcp=1 > "$T/tcp.txt" 2>&1 ||
	{ cat "$T/tcp.txt"; fail "record of net with TCP failed"; }
grep -q "^WHY SOFTIRQS WAITED" "$T/tcp.txt" || fail "record's table has no softirq wait section"
grep -q "^CONTEXTS" "$T/tcp.txt" || fail "record's table has no contexts section"
python3 - "$T/tcp/summary.json" <<'EOF' || fail "the NET_RX delay split is wrong"
import json, sys
d = json.load(open(sys.argv[1]))
assert not d["capture"]["lossy"], "the capture lost events"
waits = {w["vector"]: w for w in d["softirq_wait"]}
for v, w in waits.items():
    total = sum(c["total_ns"] for c in w["causes"])
    assert total == w["delay_ns"], "%s: causes add up to %d, not %d" % (v, total, w["delay_ns"])
    assert sum(o["delays"] for o in w["raised_in"]) == w["delays"], v
rx = waits["NET_RX"]
bh = [c for c in rx["causes"] if c["cause"] == "bh_disabled"][0]
assert bh["total_ns"] > 0, "no NET_RX delay from BH-disabled sections under TCP"
names = [t["task"] for t in rx["bh_tasks"]]
assert any(n.startswith("db-") for n in names), "the workload's threads are not named: %s" % names
# the holders are named for both parts of the section: running, and preempted (RT only)
held = sum(c["total_ns"] for c in rx["causes"] if c["cause"] in ("bh_disabled", "bh_preempted"))
assert sum(t["total_ns"] for t in rx["bh_tasks"]) <= held
rows = {(c["context"], c["name"], c["where"]) for c in d["contexts"]}
assert ("softirq", "NET_RX", "inline") in rows, "no NET_RX inline context"
assert any(c == "napi_poll" and w == "softirq" for c, n, w in rows), "no napi poll in softirq"
print("   NET_RX: %d delays, %.1f%% BH disabled, by %s" %
      (rx["delays"], 100.0 * bh["total_ns"] / rx["delay_ns"], ", ".join(names[:3])))
EOF

cat > "$T/napi.ini" <<'EOF'
[global]
duration = 3s
warmup = 1s
repetitions = 1
seed = 1

[workload net]
type = net
rate = 2000
tcp = 1
configs = baseline, napi-threaded

[config baseline]
description = NAPI in the NET_RX softirq

[config napi-threaded]
description = NAPI in napi/ kthreads
opt.net.napi = threaded
EOF
$DB run -o "$T/run" "$T/napi.ini" > "$T/run.txt" 2>&1 || { cat "$T/run.txt"; fail "run failed"; }
$DB report "$T/run" > "$T/report.txt" 2>&1 || { cat "$T/report.txt"; fail "report failed"; }
python3 - "$T/run" <<'EOF' || fail "the napi-threaded cell lacks its napi contexts"
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/cells/net--*/summary.json"):
    d = json.load(open(f))
    kinds = {(c["context"], c["where"]) for c in d["contexts"] if c["count"]}
    if "napi-threaded" in f:
        assert ("napi_thread", "") in kinds and ("napi_poll", "thread") in kinds, kinds
    else:
        assert ("napi_poll", "softirq") in kinds and ("softirq", "inline") in kinds, kinds
EOF
md=$T/run/report.md
grep -q "^| net | baseline | NET\\\\_RX softirq, inline |" "$md" ||
	{ grep "^| net" "$md"; fail "the overview has no baseline NET_RX softirq row"; }
grep -q "^| net | napi-threaded | napi thread |" "$md" ||
	{ grep "^| net" "$md"; fail "the overview has no napi thread row for napi-threaded"; }
grep -q "^| net | napi-threaded | napi poll in thread |" "$md" ||
	fail "the overview has no napi poll row for napi-threaded"
grep -q "why softirqs waited" "$md" || fail "the report has no softirq wait table"
if command -v gnuplot >/dev/null 2>&1; then
	assert_file "$T/run/plots/ladder-net-contexts-delay.png"
	assert_file "$T/run/plots/ladder-net-contexts-runtime.png"
	# the causes as stacked bars, each cause in its colour, its label from docs/figures.md
	assert_file "$T/run/plots/causes-net.png"
	grep -q "^# colour cause:hardirq #" "$T/run/plots/causes-net.gp" || fail "causes plot: no hard irq part"
	grep -q "title 'hard interrupts'" "$T/run/plots/causes-net.gp" || fail "causes plot: no legend"
	# the contexts plot shows the work in both places, each in its place's colour
	for p in softirq napi_thread; do
		grep -q "^# colour place:$p #" "$T/run/plots/ladder-net-contexts-delay.gp" ||
			fail "contexts plot: no $p boxes"
	done
fi
assert_file "$T/run/tables/contexts.csv"
assert_file "$T/run/tables/softirq_wait.csv"
no_leftover_instances
exit 0
