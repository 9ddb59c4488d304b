#!/bin/sh
# t-report-browser.sh - report.html as a reader's browser shows it (issues 24 and 35).
# Headless Chromium (ci/install-deps.sh --test installs it) opens two reports at
# 1366x900: a record report (the recorded tty load of tests/fixtures/capture-tty) and
# the report of a real QUICK run (bench/scenarios/quick.ini with its phases halved, half
# a minute; whole with DB_KEEP_SCREENSHOT: needs root and tracefs). Each is checked in place and copied out alone (it is one file to send),
# and the test fails on:
#   - an image that does not load, a link to a file (any href but #anchor), a link to an
#     anchor the page lacks, a script error;
#   - a workload's answer that is not on the first screen, or whose line does not name
#     the work it drives with its wait p50 / p99 in every configuration (a record: its
#     top waiters, never "background");
#   - a (bg) row of the all-vectors/all-pools table with a ratio;
#   - the page with every section opened longer than 25 screens, report.html over
#     1.5 MB;
#   - plot text under 10 px as shown (each plot is drawn at the size it is shown);
#   - a colour that means two things: a thing (configuration, place, work, cause) with
#     two colours, two things with one.
# It keeps a screenshot of each first screen (DB_KEEP_SCREENSHOT=FILE: the QUICK one's).
. tests/integration/lib.sh

command -v gnuplot >/dev/null 2>&1 || skip "gnuplot is not installed"
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip "chromium is not installed (ci/install-deps.sh --test installs it)"
MAX_BYTES=1500000
MAX_SCREENS=25

mktemp_dir T

# chrome ARGS... - headless Chromium at 1366x900, nothing fetched, no profile kept
chrome() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update \
		--user-data-dir="$T/profile" --window-size=1366,900 "$@"
}

# probe DIR - open DIR/report.html with a probe appended, which at the load event
# writes: PROBE key=value..., then ANSWER lines (each answer of the first screen), AGGR
# lines (the cells of each row of the table of all deferred work), BAD lines
probe() {
	# the error listener goes first, before any script of the page can run
	sed 's|<head>|<head><script>var bad = []; window.addEventListener("error", function (e) { bad.push("script error: " + e.message); });</script>|
		s|</body>||; s|</html>||' "$1/report.html" > "$1/probe.html"
	grep -q 'var bad = \[\]' "$1/probe.html" || fail "$1/report.html has no <head>"
	cat >> "$1/probe.html" <<'PROBE'
<script>
window.addEventListener("load", function () {
  var out = [], i, j, h, imgs = document.images, a = document.querySelectorAll("a[href]");
  var li = document.querySelectorAll(".answer li"), below = 0;
  for (i = 0; i < li.length; i++) {
    if (li[i].getBoundingClientRect().bottom > window.innerHeight) below++;
    out.push("ANSWER " + li[i].textContent);
  }
  var t = document.querySelector(".answer ~ table");
  for (i = 0; t && i < t.rows.length; i++) {
    var c = [];
    for (j = 0; j < t.rows[i].cells.length; j++) c.push(t.rows[i].cells[j].textContent);
    out.push("AGGR " + c.join("|"));
  }
  for (i = 0; i < a.length; i++) {
    h = a[i].getAttribute("href");
    if (h.charAt(0) !== "#") bad.push("link to a file: " + h);
    else if (!document.getElementById(h.slice(1))) bad.push("no anchor " + h);
  }
  /* every section opened: the page's length (a screen: 900 px, the window's height;
     the viewport inside it is less), and each plot at the size it is shown */
  var det = document.querySelectorAll("details");
  for (i = 0; i < det.length; i++) det[i].open = true;
  var height = document.documentElement.scrollHeight, minpx = 1000, smallest = "";
  for (i = 0; i < imgs.length; i++) {
    var im = imgs[i], src = im.getAttribute("src"), scale, font = 13.9, m, re;
    if (!im.complete || !im.naturalWidth) { bad.push("image not loaded: " + im.alt); continue; }
    scale = im.getBoundingClientRect().width / im.naturalWidth;
    /* an SVG's text: its smallest font-size; a PNG's: 10 points, 13.9 px (pngcairo) */
    if (src.indexOf("data:image/svg+xml,") === 0) {
      font = 1000;
      re = /font-size=["']([0-9.]+)/g;
      while ((m = re.exec(decodeURIComponent(src.slice(19))))) font = Math.min(font, +m[1]);
    }
    if (font * scale < minpx) { minpx = font * scale; smallest = im.alt; }
  }
  var p = document.createElement("pre");
  p.id = "probe";
  p.textContent = "PROBE images=" + imgs.length + " bad=" + bad.length + " answers=" +
    li.length + " below=" + below + " height=" + height + " screens=" +
    (height / 900).toFixed(1) + " minpx=" + minpx.toFixed(1) + " width=" +
    document.documentElement.scrollWidth + "\nSMALLEST " + smallest + "\n" +
    out.join("\n") + "\n" + bad.map(function (b) { return "BAD " + b; }).join("\n");
  document.body.appendChild(p);
});
</script>
</body></html>
PROBE
	chrome --virtual-time-budget=15000 --dump-dom "file://$1/probe.html" > "$T/dom" \
		2>"$T/chromium.err" ||
		{ tail -5 "$T/chromium.err"; fail "chromium could not open $1/report.html"; }
	rm -f "$1/probe.html"
	sed -n '/<pre id="probe">/,/<\/pre>/p' "$T/dom" | sed 's/<pre id="probe">//; s|</pre>.*||' |
		sed 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' > "$T/probe"
	grep -q '^PROBE ' "$T/probe" || fail "$1/report.html: the probe did not run"
}

# val KEY - a value of the PROBE line
val() {
	sed -n "s/^PROBE .*\b$1=\([^ ]*\).*/\1/p" "$T/probe"
}

# check DIR NAME - the checks every report gets, in place and copied out alone
check() {
	_bytes=$(wc -c < "$1/report.html")
	[ "$_bytes" -le $MAX_BYTES ] || fail "$2: report.html is $_bytes bytes, over $MAX_BYTES"
	for _where in "$1" "$T/alone-$2"; do
		if [ "$_where" != "$1" ]; then
			mkdir "$_where" && cp "$1/report.html" "$_where/" || fail "cp"
		fi
		probe "$_where"
		grep '^BAD ' "$T/probe" && fail "$2 ($_where): broken in a browser"
		[ "$(val images)" -ge 1 ] || fail "$2: no image"
		[ "$(val below)" = 0 ] || fail "$2: $(val below) answers end below the first screen"
	done
	awk -v s="$(val screens)" -v m=$MAX_SCREENS 'BEGIN { exit !(s <= m) }' ||
		fail "$2: every section opened is $(val screens) screens of 900 px, over $MAX_SCREENS"
	[ "$(val width)" -le 1366 ] || fail "$2: the page is $(val width) px wide at 1366"
	awk -v m="$(val minpx)" 'BEGIN { exit !(m >= 10) }' ||
		fail "$2: plot text of $(val minpx) px as shown ($(sed -n 's/^SMALLEST //p' "$T/probe"))"
	# no ratio on a row whose workqueue figures are the machine's own
	grep '^AGGR .*(bg)' "$T/probe" | grep -v '|-$' && fail "$2: a (bg) row has a ratio"
	chrome --screenshot="$T/$2.png" "file://$1/report.html" >/dev/null 2>&1 ||
		fail "$2: no screenshot"
	[ "$(wc -c < "$T/$2.png")" -gt 20000 ] || fail "$2: the screenshot is nearly empty"
	echo "   $2: $_bytes bytes, $(val images) images, $(val screens) screens opened," \
		"plot text >= $(val minpx) px, $(val answers) answers on the first screen"
}

# answer WORKLOAD - the line of one workload
answer() {
	grep "^ANSWER $1[ :]" "$T/probe" | head -n 1
}

# wait_figures WORKLOAD WORK CONFIG... - its line names WORK and its wait in each
# configuration: "WORK (...), wait p50 / p99: CONFIG 12.3 / 45.6 us, ..."
wait_figures() {
	_l=$(answer "$1")
	[ -n "$_l" ] || fail "no answer line of $1"
	_w=$2
	shift 2
	for _c in "$@"; do
		echo "$_l" | grep -Eq "$_w \([^)]*\), wait p50 / p99:.* $_c [0-9.]+ / [0-9.]+\*? us" ||
			fail "the line of $1 lacks the wait of $_w under $_c: $_l"
	done
}

# colours DIR - every plot script's colours ("# colour SPACE:NAME #RRGGBB"): one colour
# per thing in every plot, no colour for two things anywhere in the report
colours() {
	cat "$1"/plots/*.gp | awk '/^# colour / { n++
		if (($3 in c) && c[$3] != $4) { print $3 ": " c[$3] " and " $4; bad = 1 }
		if (($4 in by) && by[$4] != $3) { print by[$4] " and " $3 " share " $4; bad = 1 }
		c[$3] = $4; by[$4] = $3 } END { exit bad || !n }' ||
		fail "a colour means two things, or no plot records its colours"
}

# 1. a record report: the recorded command's work, named as the top waiters
tar xzf tests/fixtures/capture-tty.tar.gz -C "$T" || fail "tar"
"$DB" report -o "$T/rec" "$T/cap" >"$T/out" 2>&1 || { cat "$T/out"; fail "report of a record"; }
check "$T/rec" record
[ "$(val answers)" = 1 ] || fail "record: $(val answers) answers, not 1"
answer system | grep -q 'top waiters (most total wait): flush_to_ldisc (workqueue[^)]*), wait p50 / p99: [0-9.]* / [0-9.]*\*\{0,1\} us ([0-9]* waits)' ||
	fail "record: its line does not name flush_to_ldisc as a top waiter with its wait: $(answer system)"
grep -qi 'background\|(bg)' "$T/probe" && fail "record: the recorded command's work is called background"
colours "$T/rec"

# 2. the report of a QUICK run (make bench QUICK=1 runs the same scenario). Its shape -
# workloads, configurations, blocks, so every section and plot - is what the report's
# length depends on, not the length of a phase: the phases are halved (25 s of the
# test's 70) unless the screenshot is kept for the README, which shows the real one
need_root_tracefs
if [ -n "${DB_KEEP_SCREENSHOT:-}" ]; then
	cp bench/scenarios/quick.ini "$T/quick.ini"
else
	sed -e 's/^phase = 2s$/phase = 1s/' -e 's/^settle = 500ms$/settle = 250ms/' \
		-e 's/^warmup = 1s$/warmup = 500ms/' bench/scenarios/quick.ini > "$T/quick.ini"
	grep -q '^phase = 1s$' "$T/quick.ini" || fail "quick.ini has no 'phase = 2s' to halve"
fi
"$DB" run -o "$T/quick" "$T/quick.ini" >"$T/run.log" 2>&1 ||
	{ tail -20 "$T/run.log"; fail "the QUICK run failed"; }
"$DB" report "$T/quick" >"$T/out" 2>&1 || { cat "$T/out"; fail "report of the QUICK run"; }
check "$T/quick" quick
[ "$(val answers)" = 5 ] || fail "quick: $(val answers) answers, not 5"
wait_figures tty flush_to_ldisc baseline unbound-cpu0
wait_figures block kblockd baseline unbound-cpu0
wait_figures block writeback baseline unbound-cpu0
wait_figures net net_rx baseline napi-threaded
wait_figures timer TIMER baseline
answer net | grep -q 'napi-threaded [0-9.]* / [0-9.]*\*\{0,1\} us (napi thread' ||
	fail "quick: net's line does not say its NET_RX work ran in napi threads: $(answer net)"
answer audio | grep -q 'drives no deferred work of its own' ||
	fail "quick: audio's line claims driven work: $(answer audio)"
for wl in tty block net timer audio; do
	answer $wl | grep -q 'Own latency, [a-z_]* p50 / p99: baseline [0-9.]* / [0-9.]*' ||
		fail "quick: the line of $wl lacks its own latency: $(answer $wl)"
	answer $wl | grep -q 'Answer: ' || fail "quick: the line of $wl has no answer"
done
# net and audio drive no workqueue work: their workqueue figures are marked, no ratio
grep -q '^AGGR net|baseline|.*(bg)|-$' "$T/probe" || fail "quick: net's workqueue row not (bg)"
colours "$T/quick"
[ -n "${DB_KEEP_SCREENSHOT:-}" ] && cp "$T/quick.png" "$DB_KEEP_SCREENSHOT"
exit 0
