#!/bin/sh
# t-record-errors.sh - bad input gets a clear message and exit status 1 (not a crash,
# not a usage text alone), and leaves nothing half-written.
. tests/integration/lib.sh
need_root_tracefs
mktemp_dir T

# expect_fail "what the message must say" command... - exit 1 with that message
expect_fail() {
	expect_message "$T/err.txt" "$@"
}

expect_fail "unknown option '--bogus'" $DB record --bogus
expect_fail "unknown command 'recrod'" $DB recrod
expect_fail "--duration: 'soon' is not a duration" $DB record -d soon
expect_fail "--buffer-kb" $DB record -b 1
expect_fail "--raw needs -o" $DB record --raw -d 1s
expect_fail "holds no raw/ capture" $DB analyze "$T"
expect_fail "which capture" $DB analyze

# an output directory holding results, or holding anything else
mkdir -p "$T/old" "$T/foreign"
echo '{}' > "$T/old/summary.json"
echo notes > "$T/foreign/notes.txt"
# a summary.json no manifest lists is not deferbench's (docs/hostile-inputs.md)
expect_fail "holds 'summary.json', which is not deferbench's" $DB record -d 1s -o "$T/old"
expect_fail "holds 'notes.txt', which is not deferbench's" $DB record -d 1s -o "$T/foreign" --force
[ "$(cat "$T/old/summary.json")" = "{}" ] || fail "refused run still touched the old results"
ls "$T" | grep -q partial && fail "a refused run left a staging directory"

# not root: a clear message before anything is created
if command -v setpriv >/dev/null; then
	expect_fail "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups \
		$DB record -d 1s -o "$T/nobody"
	[ -e "$T/nobody" ] && fail "a non-root run created its output directory"
fi

# no tracefs: in a private mount namespace where /sys/kernel/tracing cannot exist
if command -v unshare >/dev/null; then
	expect_fail "tracefs is not mounted" unshare -m sh -c "umount -l $TRACEFS 2>/dev/null;
		umount -l /sys/kernel/debug 2>/dev/null;
		mount -t tmpfs -o ro none /sys/kernel && exec $DB record -d 1s"
fi
no_leftover_instances
exit 0
