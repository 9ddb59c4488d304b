#!/bin/sh
# check-names.sh - every source file exports only names its file name announces, as
# libtracefs' tracefs-instance.c exports tracefs_instance_* and git's strbuf.c
# strbuf_*: a reader who meets a name knows which file holds it.
#
#   tests/check-names.sh BUILD    (make check-names; the objects must be built)
#
# NAME.c announces the names that begin with NAME or end in _NAME (msg.c: err_msg), or
# whose first word (up to the first '_') begins NAME's first word, in the singular or
# the plural (knobs_sys.c: knob_check, runner.c: run_scenario; scn, wl and cmp stand for
# scenario, workload and compare, hs and hstore for history (its store), jr for
# jsonread);
# cmd_NAME.c, a command, announces cmd_NAME, cli_NAME and NAME_*.
# Every file passes: the list of known exceptions it began with (48 files) is empty
# and gone.
build=${1:-build}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.bad" "$tmp.fail"' EXIT

# long WORD - L is the long word the tree writes WORD for (set, not printed: no
# subshell per symbol)
long() {
	case "$1" in
	scn) L=scenario ;;
	wl) L=workload ;;
	cmp) L=compare ;;
	hs | hstore) L=history ;;
	jr) L=jsonread ;;
	*) L=$1 ;;
	esac
}

announced() {	# announced STEM SYMBOL
	stem=$1 sym=$2
	long "${1%%_*}"
	first=$L
	long "${2%%_*}"
	sfirst=$L
	case "$sym" in "$stem"* | *_"$stem") return 0 ;; esac	# msg.c: err_msg
	case "$first" in "$sfirst"*) return 0 ;; esac	# runner.c: run_scenario
	[ "${sfirst%s}" = "$first" ] || [ "$sfirst" = "${first%s}" ] && return 0
	case "$stem" in
	cmd_*) cmd=${stem#cmd_}
	       case "$sym" in "cli_$cmd" | "$cmd"_*) return 0 ;; esac ;;
	esac
	return 1
}

# one nm for every object (one a file took 13 s), a line "OBJ:ADDR TYPE SYMBOL" each;
# the symbols a file does not announce, "SRC SYMBOL" a line, in order
objs=$(for dir in bench workloads analysis; do
	find "$build/$dir" -name '*.o' 2>/dev/null
done | sort)
[ -n "$objs" ] || { echo "check-names: no objects in $build: build them first" >&2; exit 1; }
# shellcheck disable=SC2086
nm -A --defined-only -g $objs | while read -r loc _type sym; do
	obj=${loc%%:*}
	src=${obj#"$build"/}
	src=${src%.o}.c
	stem=${src##*/}
	stem=${stem%.c}
	[ "$stem" = main ] || [ ! -f "$src" ] && continue
	announced "$stem" "$sym" || echo "$src $sym"
done >"$tmp.bad"
# per file: SRC SYMBOL SYMBOL...
awk '$1 != f { if (f) print line; f = $1; line = $1 } { line = line " " $2 }
     END { if (f) print line }' "$tmp.bad" | while read -r src bad; do
	stem=${src##*/}
	stem=${stem%.c}
	echo "check-names: $src exports $bad; its name announces ${stem%%_*}_*:" \
	     "rename the names, or move them to a file named for them" >&2
	echo x >>"$tmp.fail"
done
[ -f "$tmp.fail" ] && exit 1
echo "== check-names: no file exports a name its file name does not announce"
