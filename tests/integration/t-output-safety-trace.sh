#!/bin/sh
# t-output-safety-trace.sh - issue 21 for the commands that trace (record, load, run,
# tune): a symbolic link as the output, a directory of someone else's files, an input
# given as the output, a system directory - refused before any work, every canary kept
# (the commands that read and write files are t-output-safety.sh's).
. tests/integration/lib.sh
need_root_tracefs
mktemp_dir T
. tests/integration/lib-outsafety.sh
victims
ln -s victimdir "$T/outlink"

refused "is a symbolic link" $DB record -d 200ms -o "$T/outlink"
refused "not deferbench's" $DB record -d 200ms -o "$T/foreign" --force
refused "system directory" $DB record -d 200ms -o /etc/deferbench-t-output-safety
works $DB record -d 200ms --raw -o "$T/rec"
rm "$T/rec/summary.json"
ln -s ../victim "$T/rec/summary.json"
refused "symbolic link" $DB record -d 200ms -o "$T/rec" --force
# record reads no input file: there is no input to give as its output
works $DB load tty -d 1s -o "$T/lo"
refused "pass --force" $DB load tty -d 1s -o "$T/lo"
rm "$T/lo/workload.json"
ln -s ../victim "$T/lo/workload.json"
refused "symbolic link" $DB load tty -d 1s -o "$T/lo" --force
refused "no directory deferbench wrote" $DB load tty -d 1s -o "$T/foreign"
refused "system directory" $DB load tty -d 1s -o /etc
# load reads no input file either
refused "is a symbolic link" $DB run -o "$T/outlink" tests/fixtures/fixture.ini
refused "is not empty" $DB run -o "$T/foreign" tests/fixtures/fixture.ini
cp tests/fixtures/fixture.ini "$T/victimdir/s.ini"
refused "which this command reads" $DB run -o "$T/victimdir" "$T/victimdir/s.ini"
refused "system directory" $DB run -o /etc/deferbench-t-output-safety tests/fixtures/fixture.ini
# tune writes where run does, the same way (its own run goes into DIR/run)
refused "is a symbolic link" $DB tune -o "$T/outlink" --live
refused "is not empty" $DB tune -o "$T/foreign" --live
refused "system directory" $DB tune -o /etc/deferbench-t-output-safety --live
no_leftover_instances
check_canaries "the end"
echo "   record, load, run and tune: links, foreign and system directories refused"
exit 0
