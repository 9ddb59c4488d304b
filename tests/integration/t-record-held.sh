#!/bin/sh
# t-record-held.sh - another process holds a file of record's tracefs instance open as
# the capture ends (a monitor reading tracing_on): the kernel refuses to remove the
# instance (EBUSY) until it is closed. Closed within a second, record removes it and
# exits 0; held past that, record keeps its results, says why the instance stays and
# how to remove it, exits 1, and 'deferbench restore' removes it.
. tests/integration/lib.sh
need_root_tracefs
command -v python3 >/dev/null || skip "needs python3 to hold the file"
mktemp_dir T

# held DIR SECONDS - 'record -d 1s -o DIR' with its instance's tracing_on held open from
# the capture's start until SECONDS after tracing went off at its end (-1: until record
# has exited); prints record's pid and exit status
held() {
	python3 - "$TRACEFS" "$1" "$2" $DB <<'PY'
import os, subprocess, sys, time
tracefs, out, after, db = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]
p = subprocess.Popen(db + ["record", "-d", "1s", "-o", out], stdout=open(out + ".txt", "w"),
                     stderr=subprocess.STDOUT)
path = "%s/instances/deferbench-%d/tracing_on" % (tracefs, p.pid)
fd = -1
while fd < 0 and p.poll() is None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        time.sleep(0.002)
if fd < 0:
    sys.exit("record ended before its instance could be held")
for want in (b"1", b"0"):	# on for the capture, off just before the removal
    while os.pread(fd, 8, 0).strip() != want:
        time.sleep(0.002)
if after < 0:
    p.wait()
else:
    time.sleep(after)
os.close(fd)
print(p.pid, p.wait())
PY
}

# closed 0.3 s after the end: within the second record tries again
r=$(held "$T/a" 0.3) || fail "could not hold the instance's file"
set -- $r
[ "$2" = 0 ] || { cat "$T/a.txt"; fail "record exited $2 with its instance held 0.3 s"; }
[ ! -d "$TRACEFS/instances/deferbench-$1" ] || fail "the instance stayed"
[ -f "$T/a/summary.json" ] || fail "no results"

# held until record has exited: results kept, exit 1, the reason and the remedy said
r=$(held "$T/b" -1) || fail "could not hold the instance's file"
set -- $r
[ "$2" = 1 ] || { cat "$T/b.txt"; fail "record exited $2 leaving its instance, not 1"; }
grep -q "cannot remove tracefs instance deferbench-$1: .*a process holds one of its files open.*deferbench restore" \
	"$T/b.txt" || { cat "$T/b.txt"; fail "no reason or remedy for the instance left"; }
[ -f "$T/b/summary.json" ] || { cat "$T/b.txt"; fail "the results were dropped"; }
[ -d "$TRACEFS/instances/deferbench-$1" ] || fail "the instance is gone: nothing was held?"
$DB restore > "$T/restore.txt" 2>&1 || { cat "$T/restore.txt"; fail "restore failed"; }
[ ! -d "$TRACEFS/instances/deferbench-$1" ] || fail "restore left the instance"
no_leftover_instances
exit 0
