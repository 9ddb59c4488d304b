#!/bin/sh
# t-write-limits.sh - issue 34: a write that meets a file-size limit (ulimit -f, SIGXFSZ)
# or a full disk ends the command with the reason named ("File too large", "No space
# left on device"; not "Input/output error") and leaves nothing: no staging directory,
# no journal in the owned directory, no empty baseline host directory, no 0-byte store.
# SIGXFSZ used to kill the writer, as SIGKILL would. The full disk (a small tmpfs)
# needs root; the file-size limit does not.
. tests/integration/lib.sh
mktemp_dir T
for f in run-a run-b capture-tty; do
	tar xzf tests/fixtures/$f.tar.gz -C "$T" || fail "cannot unpack $f"
done
export DEFERBENCH_OWNED_DIR="$T/owned"
mkdir "$T/owned"

# left DIR WHAT - fail when DIR holds anything but the fixtures, or a journal is left
left() {
	_l=$(ls -A "$1" | grep -v -e '^runA$' -e '^runB$' -e '^cap$' -e '^owned$' -e '^fill$' \
		-e '^o$' -e '^rc$' -e '^mnt$')
	[ -z "$_l" ] || fail "$2 left: $_l"
	[ -z "$(ls -A "$T/owned")" ] || fail "$2 left a journal: $(ls -A "$T/owned")"
}

# limited KB MESSAGE CMD... - CMD under ulimit -f KB fails saying MESSAGE, leaving nothing
limited() {
	_kb=$1
	_m=$2
	shift 2
	# the limit is the command's alone: its output goes through a pipe to a file
	{ (ulimit -f "$_kb"; cd "$T" && exec "$@"); echo $? > "$T/rc"; } 2>&1 | cat > "$T/o"
	_rc=$(cat "$T/rc")
	[ $_rc -eq 1 ] || [ $_rc -eq 2 ] || { cat "$T/o"; fail "'$*' under ulimit -f $_kb: exit $_rc"; }
	grep -q "$_m" "$T/o" || { cat "$T/o"; fail "'$*' under ulimit -f $_kb does not say '$_m'"; }
	left "$T" "'$*' under ulimit -f $_kb"
}
limited 20 "File too large" "$DB" analyze cap -o an
limited 8 "File too large" "$DB" report --no-plots -o rp cap
limited 8 "File too large" "$DB" compare -o cmp runA runB
limited 8 "File too large" "$DB" baseline save -D bl runA
limited 30 "store" "$DB" history add -S h.db runA
limited 1 "File too large" "$DB" export --kcidb -o ex.json runA

[ "$(id -u)" -eq 0 ] || { echo "   (the full disk skipped: needs root to mount a tmpfs)"; exit 0; }
mkdir "$T/mnt"
mount -t tmpfs -o size=48k tmpfs "$T/mnt" || fail "cannot mount a tmpfs"
at_exit "umount $T/mnt"
# full MESSAGE CMD... - CMD writing into the full tmpfs fails saying MESSAGE, leaving nothing
full() {
	_m=$1
	shift
	(cd "$T" && exec "$@") > "$T/o" 2>&1
	_rc=$?
	[ $_rc -eq 1 ] || [ $_rc -eq 2 ] || { cat "$T/o"; fail "'$*' on a full disk: exit $_rc"; }
	grep -q "$_m" "$T/o" || { cat "$T/o"; fail "'$*' on a full disk does not say '$_m'"; }
	grep -q "Input/output error" "$T/o" && { cat "$T/o"; fail "'$*': an I/O error named"; }
	_l=$(ls -A "$T/mnt" | grep -v '^fill$')
	[ -z "$_l" ] || fail "'$*' on a full disk left: $_l"
	[ -z "$(ls -A "$T/owned")" ] || fail "'$*' on a full disk left a journal"
}
# a disk with a page or two left: every command meets it full
dd if=/dev/zero of="$T/mnt/fill" bs=1k count=40 2>/dev/null
full "No space left on device" "$DB" analyze cap -o mnt/an
full "No space left on device" "$DB" report --no-plots -o mnt/rp cap
full "No space left on device" "$DB" compare -o mnt/cmp runA runB
full "No space left on device" "$DB" baseline save -D mnt/bl runA
full "disk full" "$DB" history add -S mnt/h.db runA
full "No space left on device" "$DB" export --kcidb -o mnt/ex.json runA
exit 0
