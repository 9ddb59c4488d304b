#!/bin/sh
# t-output-safety.sh - issue 21: every command that writes goes through the one output
# writer (bench/lib/outw.h): no symbolic link is written through, no input is written
# onto, no file deferbench did not write is replaced or removed, no system directory is
# written in, write errors and empty results are errors, a broken pipe leaves nothing
# staged. Each of the issue's repros, and for EVERY command that writes (the command
# table of bench/cli/main.c, less an explicit list of commands that write no file) a
# symbolic link, an input given as the output and a directory of someone else's files;
# canary files must keep their checksums throughout. The commands that trace are
# t-output-safety-trace.sh's (they need root and the machine).
# lane: files (no machine state: the runner runs it beside the other tests)
. tests/integration/lib.sh
mktemp_dir T

# Commands that write no file (their output is the terminal or the kernel's settings);
# each is checked to have no -o/--output, so that one that gains it must be covered.
NONWRITING="top restore knobs advise"

. tests/integration/lib-outsafety.sh

# --- fixtures: two runs, a capture, a victim, a directory of someone else's files
for f in run-a run-b capture-tty; do
	tar xzf "tests/fixtures/$f.tar.gz" -C "$T" || fail "cannot unpack $f"
done
A=$T/runA
B=$T/runB
CAP=$T/cap
CELL=$(ls "$A/cells" | head -1)
for f in "$A/run.json" "$A/cells/$CELL/cell.json" "$B/run.json" "$CAP/raw/cpu0.dat" \
	 "$CAP/raw/capture.json" "$CAP/summary.json"; do
	canary_keep "$f"
done
victims

# --- analyze
covers analyze
# input as output (also through a link), a link as the output, a system directory
ln -s cap "$T/caplink"
for o in "$CAP" "$CAP/raw" "$CAP/raw/sub" "$T/caplink"; do
	refused "which this command reads" $DB analyze "$CAP" -o "$o" --force
done
ln -s victimdir "$T/outlink"
refused "is a symbolic link" $DB analyze "$CAP" -o "$T/outlink" --force
refused "system directory" $DB analyze "$CAP" -o /etc/deferbench-t-output-safety
[ ! -e /etc/deferbench-t-output-safety ] || fail "analyze wrote into /etc"
# 4. a user's summary.json is not ours, --force or not
refused "not deferbench's" $DB analyze "$CAP" -o "$T/foreign" --force
# earlier results, then a link planted among them: never replaced through it
works $DB analyze "$CAP" -o "$T/an"
refused "already holds results" $DB analyze "$CAP" -o "$T/an"
works $DB analyze "$CAP" -o "$T/an" --force
rm "$T/an/softirq.csv"
ln -s ../victim "$T/an/softirq.csv"
refused "symbolic link" $DB analyze "$CAP" -o "$T/an" --force
rm "$T/an/softirq.csv"
# 6. an emptied per-CPU file: damaged unless --accept-damaged
cp -r "$CAP" "$T/short"
: > "$T/short/raw/cpu0.dat"
refused "capture.json says" $DB analyze "$T/short"
works $DB analyze "$T/short" --accept-damaged
grep -q "missing events counted as lost" "$T/err" || fail "--accept-damaged does not say what is missing"
grep -q "LOSSY" "$T/out" || fail "--accept-damaged: the figures do not say LOSSY"
# 8. a broken pipe leaves no staging directory
for i in 1 2 3 4 5; do
	$DB analyze "$CAP" -o "$T/p$i" 2>/dev/null | true
done
check_canaries "analyze | true"
# 9. messages that say what is wrong and what to do
refused "is a device: give a directory" $DB analyze /dev/zero
printf '\027\010Dtracing6\0\0\0garbage' > "$T/bad.dat"
refused "libtracecmd cannot read it" $DB analyze "$T/bad.dat"

# --- report
covers report
# 1. links planted in the run directory: refused, never written through
mkdir "$A/tables"
ln -s ../../victim "$A/tables/workqueue.csv"
refused "symbolic link" $DB report "$A" --no-plots
refused "symbolic link" $DB report "$A" --no-plots --force
rm -r "$A/tables"
for f in report.md report.html; do
	ln -s ../victim "$A/$f"
	refused "symbolic link" $DB report "$A" --no-plots --force
	rm "$A/$f"
done
# 3. a directory of the user's: foreign/tables/x.csv stays
refused "no directory deferbench wrote" $DB report "$A" --no-plots -o "$T/foreign"
# input as output: a cell directory of the run, a report file hard-linked to run.json
refused "which this command reads" $DB report "$A" --no-plots -o "$A/cells/$CELL"
ln "$A/run.json" "$A/report.md"
refused "which this command reads" $DB report "$A" --no-plots --force
rm "$A/report.md"
# 10. a system directory
refused "system directory" $DB report "$A" --no-plots -o /etc
# its own earlier report: replaced only with --force, and only while unchanged
works $DB report "$A" --no-plots
refused "pass --force" $DB report "$A" --no-plots
works $DB report "$A" --no-plots --force
echo "my edit" >> "$A/report.md"
refused "changed since" $DB report "$A" --no-plots --force
canary_keep "$A/report.md"

# --- compare
covers compare
for f in compare.md junit.xml; do
	ln -s ../victim "$B/$f"
	refused "symbolic link" $DB compare --force "$A" "$B"
	rm "$B/$f"
done
refused "no directory deferbench wrote" $DB compare -o "$T/foreign" "$A" "$B"
refused "which this command reads" $DB compare -o "$A/cells/$CELL" "$A" "$B"
refused "system directory" $DB compare -o /etc "$A" "$B"
works $DB compare --allow-undecided -o "$T/cmp" "$A" "$B"
refused "pass --force" $DB compare --allow-undecided -o "$T/cmp" "$A" "$B"

# --- export
covers export
# 2. the output is its own input
refused "which this command reads" $DB export --result-txt "$A" -o "$A/run.json"
refused "which this command reads" $DB export --lava "$A" -o "$A/cells/$CELL/cell.json"
refused "which this command reads" $DB export --kcidb "$CAP" -o "$CAP/raw/cpu0.dat"
# 5. an existing file is never replaced, --force or not, unless export wrote it
refused "not deferbench's" $DB export --lava "$A" -o "$T/foreign/keep.txt"
refused "not deferbench's" $DB export --lava "$A" -o "$T/foreign/keep.txt" --force
ln -s victim "$T/link.tsv"
refused "symbolic link" $DB export --lava "$A" -o "$T/link.tsv" --force
works $DB export --lava "$A" -o "$T/lava.tsv"
refused "pass --force" $DB export --lava "$A" -o "$T/lava.tsv"
works $DB export --lava "$A" -o "$T/lava.tsv" --force
# 7. write errors and empty results are errors
refused "system directory" $DB export --lava "$A" -o /dev/full
timeout 30 $DB export --lava "$A" > /dev/full 2> "$T/err" && fail "export to a full disk exited 0"
grep -q "No space left" "$T/err" || { cat "$T/err"; fail "export to /dev/full: no reason"; }
python3 - "$A/run.json" "$T/killed" <<'EOF' || fail "cannot make a killed run"
import json, os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
shutil.copytree(os.path.dirname(src), dst)
r = json.load(open(src))
r["complete"] = False
r["status"] = "interrupted"
json.dump(r, open(os.path.join(dst, "run.json"), "w"))
EOF
refused "is incomplete" $DB export --lava "$T/killed"
refused "is incomplete" $DB export --kcidb "$T/killed" -o "$T/k.json"
refused "nothing to export" $DB export --lava "$CAP"
[ ! -e "$T/k.json" ] || fail "a refused export left its file"

# --- baseline (save and calibrate)
covers baseline
works $DB baseline save -d "$T/bl" -H vm "$A"
canary "$T/bl/vm/default/notes.txt" "the user's note in a baseline"
# 4. --replace removes only what the manifest lists: a foreign notes.txt refuses it
refused "not deferbench's" $DB baseline save -d "$T/bl" -H vm --replace "$A"
# a link where the host's directory goes
ln -s ../victimdir "$T/bl/linkhost"
refused "symbolic link" $DB baseline save -d "$T/bl" -H linkhost "$A"
# input as output: the store inside a cell of the run
refused "which this command reads" $DB baseline save -d "$A/cells/$CELL/bl" "$A"
# 10. a system directory
refused "system directory" env DEFERBENCH_BASELINE_DIR=/etc $DB baseline save -H dbtest "$A"
[ ! -e /etc/dbtest ] || fail "baseline save wrote into /etc"
# calibrate: 2. its own input, 5. a foreign file, 7. /dev/full, a link (three runs: the
# least a calibration takes; the output is refused before anything is computed)
cp -r "$B" "$T/runC" || fail "cp"
C3="$A $B $T/runC"
refused "which this command reads" $DB baseline calibrate --from $C3 -o "$A/run.json"
refused "not deferbench's" $DB baseline calibrate --from $C3 -o "$T/foreign/keep.txt"
refused "system directory" $DB baseline calibrate --from $C3 -o /dev/full
refused "symbolic link" $DB baseline calibrate --from $C3 -o "$T/link.tsv" --force
refused "twice" $DB baseline calibrate --from "$A" "$A/" "$B" -o "$T/n.json"

# --- history
covers history
works $DB history add --db "$T/s.db" "$A"
# 7. a killed run is no data
python3 - "$T/killed" <<'EOF' || fail "cannot make a run of no finished cell"
import json, os, sys
d = sys.argv[1]
r = json.load(open(os.path.join(d, "run.json")))
r["cells"] = []
json.dump(r, open(os.path.join(d, "run.json"), "w"))
EOF
refused "no cell of this run finished" $DB history add --db "$T/s.db" "$T/killed"
# the store: never its input, never through a link, never in /etc
refused "which this command reads" $DB history add --db "$A/run.json" "$A"
refused "which this command reads" $DB history add --db "$A/cells/$CELL/s.db" "$A"
ln -s victim "$T/link.db"
refused "symbolic link" $DB history add --db "$T/link.db" "$B"
refused "system directory" $DB history add --db /etc/deferbench-t.db "$B"
# plots: a directory of the user's, a link among its own plots
refused "no directory deferbench wrote" $DB history --db "$T/s.db" --min-tail 1 -o "$T/foreign"
works $DB history --db "$T/s.db" --min-tail 1 -o "$T/hplots"
refused "pass --force" $DB history --db "$T/s.db" --min-tail 1 -o "$T/hplots"
p=$(ls "$T/hplots" | grep '\.gp$' | head -1)
[ -n "$p" ] || fail "history -o wrote no plot"
rm "$T/hplots/$p"
ln -s ../victim "$T/hplots/$p"
refused "symbolic link" $DB history --db "$T/s.db" --min-tail 1 -o "$T/hplots" --force
# 9. SQLite's errors say what is wrong with the store
cp "$T/s.db" "$T/bad.db"
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('ALTER TABLE cell RENAME COLUMN ok TO ok2'); c.commit()" "$T/bad.db" ||
	fail "cannot damage a store"
refused "tables are not those deferbench made" $DB history --db "$T/bad.db"

# --- the commands that trace (record, load, run, tune) are t-output-safety-trace.sh's
covers record; covers load; covers run; covers tune

# --- every command that writes is covered, every other one writes nothing
# the registry main.c dispatches from (bench/cli/cli.c)
commands=$(sed -n '/^const struct cli_command \*const cli_commands\[\] = {/,/^};/p' bench/cli/cli.c |
	grep -o '&cli_[a-z]*' | sed 's/^&cli_//')
[ -n "$commands" ] || fail "no command found in bench/cli/cli.c"
for c in $commands; do
	case " $NONWRITING " in
	*" $c "*)
		if $DB $c --help 2>&1 | grep -q -- '--output'; then
			fail "'$c' has --output but is listed as writing no file: cover it here"
		fi
		;;
	*)
		case "$COVERED" in
		*" $c "*) ;;
		*) fail "'$c' writes output, and no case of t-output-safety(-trace).sh covers it" ;;
		esac
		;;
	esac
done
echo "   commands that write, each covered:$(echo "$COVERED" | tr -s ' ')"
check_canaries "the end"
exit 0
