#!/bin/sh
# t-history-store-safety.sh - the results store under two writers at once and under
# kill -9 in the middle of an import: both writers succeed, and a killed import leaves
# a store that opens, passes SQLite's integrity check, and holds the run whole or not
# at all. Needs no root: it only reads and writes files.
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh

command -v python3 >/dev/null || skip "needs python3"
mktemp_dir T
tar xzf tests/fixtures/run-a.tar.gz -C "$T" && tar xzf tests/fixtures/run-b.tar.gz -C "$T" ||
	fail "cannot unpack the fixtures"
python3 tests/integration/make-series.py "$T/runA" "$T/runB" "$T/s" 99 1 tty baseline \
	delivery >/dev/null || fail "make-series.py"

# --- two writers: each adds five runs, one history add per run, at the same time ---
S="$T/shared.db"
( for i in 0 2 4 6 8; do $DB history add --store "$S" "$T/s/run$i" || exit 1; done ) 2>"$T/w1.log" &
w1=$!
( for i in 1 3 5 7 9; do $DB history add --store "$S" "$T/s/run$i" || exit 1; done ) 2>"$T/w2.log" &
w2=$!
wait $w1 || fail "writer 1 failed: $(cat "$T/w1.log")"
wait $w2 || fail "writer 2 failed: $(cat "$T/w2.log")"
check() {	# STORE - integrity ok; prints runs, and cells of runs that are not whole
	python3 - "$1" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute("pragma integrity_check").fetchone()[0] == "ok", "integrity check failed"
runs = c.execute("select count(*) from run").fetchone()[0]
cells = [r[0] for r in c.execute("select count(*) from cell group by run_id")]
print(runs, " ".join(str(n) for n in cells))
EOF
}
out=$(check "$S") || fail "store damaged after two writers"
[ "$out" = "10 12 12 12 12 12 12 12 12 12 12" ] || fail "two writers: want 10 runs of 12 cells, got: $out"

# --- kill -9 during an import ---
# a big run (the 12 cells of run0 repeated to 600) so that an import lasts long enough
python3 - "$T/s/run0" "$T/big" <<'EOF' || fail "cannot build the big run"
import json, os, shutil, sys
src, dst = sys.argv[1:]
run = json.load(open(os.path.join(src, "run.json")))
os.makedirs(os.path.join(dst, "cells"))
shutil.copy(os.path.join(src, "scenario.ini"), dst)
cells = []
for k in range(50):
    for c in run["cells"]:
        rep = c["rep"] + 3 * k
        cid = "%s--%s--r%d" % (c["workload"], c["config"], rep)
        d = os.path.join(dst, "cells", cid)
        shutil.copytree(os.path.join(src, c["dir"]), d)
        cj = json.load(open(os.path.join(d, "cell.json")))
        cj["rep"], cj["id"] = rep, cid
        json.dump(cj, open(os.path.join(d, "cell.json"), "w"))
        cells.append(dict(c, id=cid, rep=rep, dir="cells/" + cid))
run["cells"], run["cells_planned"] = cells, len(cells)
run["meta"]["kernel"] = "6.19-big"
json.dump(run, open(os.path.join(dst, "run.json"), "w"))
EOF
K="$T/kill.db"
$DB history add --store "$K" "$T/s/run1" 2>/dev/null || fail "seeding the store"
cp "$K" "$T/seed.db"
start=$(date +%s%N)
$DB history add --store "$T/timing.db" "$T/big" 2>/dev/null || fail "importing the big run"
took=$(( ($(date +%s%N) - start) / 1000000 ))

# after_kill WHERE - the store killed into opens (rolling a journal back), passes the
# integrity check, and holds the big run whole or not at all
after_kill() {
	[ -e "$K-journal" ] && hot=$((hot + 1))
	$DB history --store "$K" --metric 'workload:*' --min-tail 1 >/dev/null 2>"$T/open.log" ||
		fail "after kill -9 $1: the store does not open: $(cat "$T/open.log")"
	out=$(check "$K") || fail "after kill -9 $1: integrity check failed"
	case "$out" in
	"1 12") none=$((none + 1)) ;;
	"2 12 600") whole=$((whole + 1)) ;;
	*) fail "after kill -9 $1: the run is partly in: runs and cells: $out" ;;
	esac
}
hot=0 whole=0 none=0
# Kills at fractions of a timed import land anywhere, before, inside or after the
# transaction: which, depends on the machine, and no check below depends on it.
for pct in 20 40 60 80 95 150; do
	cp "$T/seed.db" "$K"
	$DB history add --store "$K" "$T/big" 2>/dev/null &
	pid=$!
	sleep "$(awk -v t="$took" -v p="$pct" 'BEGIN { printf "%.3f", t * p / 100000 }')"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	after_kill "at ${pct}%"
done
# One kill lands inside the transaction by construction: the importer is stopped as
# soon as its journal exists (the transaction has written), and killed while stopped.
# Only an import whose whole transaction passed between two looks of this loop can
# miss it: that one is retried.
landed=0 try=0
while [ $landed = 0 ] && [ $try -lt 20 ]; do
	try=$((try + 1))
	cp "$T/seed.db" "$K"
	$DB history add --store "$K" "$T/big" 2>/dev/null &
	pid=$!
	until [ -e "$K-journal" ] || ! kill -0 $pid 2>/dev/null; do :; done
	kill -STOP $pid 2>/dev/null
	[ -e "$K-journal" ] && kill -0 $pid 2>/dev/null && landed=1
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	after_kill "inside the transaction (try $try)"
done
echo "   kill -9 in $((6 + try)) imports of $took ms: $hot left a hot journal; run whole $whole, absent $none"
[ $landed = 1 ] || fail "in 20 imports, the importer was never seen inside its transaction"
[ "$hot" -ge 1 ] || fail "a kill inside the transaction left no journal"
exit 0
