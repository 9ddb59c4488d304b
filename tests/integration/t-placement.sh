#!/bin/sh
# t-placement.sh - did the knob move the work? One alternating segment of tty: the unbound
# cpumask narrowed to CPU 0 moves flush_to_ldisc to other worker pools, and advise says
# "moved"; the nice of blkcg_punt_bio, a workqueue none of tty's work uses, "had no
# effect on the work it targets"; --json and the report's Findings say the same. Every
# knob is back after.
. tests/integration/lib.sh
. tests/integration/lib-knobs.sh
need_root_tracefs
need_root_wq
[ -w $WQ/blkcg_punt_bio/nice ] || skip_kernel "no $WQ/blkcg_punt_bio (WQ_SYSFS) on this kernel"
command -v jq >/dev/null 2>&1 || skip "jq is not installed (ci/install-deps.sh)"
mktemp_dir T
snapshot "$T/before"
nice0=$(cat $WQ/blkcg_punt_bio/nice)
nice1=$(( nice0 == -5 ? -6 : -5 ))
# three blocks of three 1 s phases: exploratory for the verdicts, enough for the places
cat > "$T/p.ini" <<INI
[global]
design = alternate
blocks = 3
phase = 1s
settle = 250ms
warmup = 500ms
control = no

[workload tty]
type = tty
rate = 1000
configs = asis, cpu0, punt

[config asis]
[config cpu0]
wq.cpumask = 1
[config punt]
wq.blkcg_punt_bio.nice = $nice1
INI
$DB run -o "$T/run" "$T/p.ini" > "$T/out.txt" 2>&1 || { cat "$T/out.txt"; fail "run failed"; }
same_as "$T/before"
[ ! -e "$JOURNAL" ] || fail "the run left a knobs journal"
$DB advise "$T/run" > "$T/advise.txt" 2>&1 || { cat "$T/advise.txt"; fail "advise failed"; }
grep -q '^    placement: wq.cpumask = 1: moved: ' "$T/advise.txt" ||
	{ cat "$T/advise.txt"; fail "the unbound cpumask on CPU 0 is not reported as moving the work"; }
grep -q "^    placement: wq.blkcg_punt_bio.nice = $nice1: had no effect on the work it targets" \
	"$T/advise.txt" || { cat "$T/advise.txt"; fail "an unused workqueue's nice is not reported as having no effect"; }
# with the unbound cpumask on CPU 0, flush_to_ldisc ran in pools the reference did not use
# (the work queued on CPU 0 may stay in the pool of CPU 0's pod: the share is not 100%)
$DB advise --json "$T/run" > "$T/advise.json" || fail "advise --json failed"
jq -e '.workloads[0].configs[] | select(.config == "cpu0") | .placement[0] |
	.verdict == "moved" and .moved >= 0.1 and
	(([.here | keys[]] - [.reference | keys[]]) | length) > 0' "$T/advise.json" >/dev/null ||
	fail "advise --json: $(jq -c '.workloads[0].configs[] | {config, placement}' "$T/advise.json")"
# the report's Findings say the same
$DB report "$T/run" > "$T/report.txt" 2>&1 || { cat "$T/report.txt"; fail "report failed"; }
grep -q '^- tty, cpu0: wq.cpumask = 1: moved: ' "$T/run/report.md" ||
	fail "report.md: no finding that the unbound cpumask moved the work"
grep -q "^- tty, punt: wq.blkcg.\{0,1\}_punt.\{0,1\}_bio.nice = $nice1: had no effect on the work it targets" \
	"$T/run/report.md" || fail "report.md: no finding that blkcg_punt_bio's nice had no effect"
echo "   $(grep 'placement: wq.cpumask' "$T/advise.txt" | cut -c1-150)"
exit 0
