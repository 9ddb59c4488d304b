#!/bin/sh
# install-deps.sh - install what deferbench needs, and nothing else.
#
#   ci/install-deps.sh           what a run needs: build deferbench, run a scenario, write
#                                its report (make bench; a benchmark machine stays as a
#                                benchmark should find it)
#   ci/install-deps.sh --test    that, and what the tests need besides (make test)
#   ci/install-deps.sh --list [--test]
#                                print the packages, one a line, and install nothing
#
# Idempotent: asks dpkg which packages are already installed and apt-installs only the
# missing ones. Needs root (or sudo) only when something is missing.
set -eu

# Build: compiler, pkg-config and the libraries the binary links.
BUILD="gcc make pkg-config libtracefs-dev libtraceevent-dev libtracecmd-dev libcsv-dev \
libjson-c-dev libinih-dev libnl-3-dev libnl-route-3-dev libsqlite3-dev"
# Run: cyclictest (timer workload), gnuplot (the report's plots), network plumbing (net
# workload: namespaces, veth, ethtool), procps.
RUN="rt-tests gnuplot-nox iproute2 ethtool procps"
# Test only: cmocka (unit tests); jq and python3 read result files in the integration
# tests; lava-common and python3-jsonschema validate the LAVA job and the KCIDB export
# offline (Debian packages: they install for the system /usr/bin/python3, which the tests
# use); trace-cmd writes the trace.dat that the analyze test reads; headless chromium
# opens report.html as a reader's browser does (t-report-browser.sh); ping is the
# user's latency command of the netdev knob and tune --latency tests.
TEST="libcmocka-dev jq python3 lava-common python3-jsonschema trace-cmd chromium iputils-ping"

test=0
list=0
for arg in "$@"; do
	case $arg in
	--test) test=1 ;;
	--list) list=1 ;;
	*) echo "install-deps: unknown argument $arg (--test, --list)" >&2; exit 2 ;;
	esac
done
pkgs="$BUILD $RUN"
[ $test = 1 ] && pkgs="$pkgs $TEST"
if [ $list = 1 ]; then
	printf '%s\n' $pkgs
	exit 0
fi

missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = "installed" ] || missing="$missing $p"
done

if [ -z "$missing" ]; then
	exit 0
fi

echo "install-deps: installing:$missing" >&2
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "install-deps: missing packages:$missing; run as root or install them by hand" >&2
		exit 1
	fi
else
	SUDO=
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: no apt-get; install by hand:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet.
$SUDO apt-get update -qq || echo "install-deps: apt-get update failed, trying with cached lists" >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
