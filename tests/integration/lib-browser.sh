# lib-browser.sh - report.html as a reader's browser shows it: the checks of
# t-report-browser.sh (a QUICK run's report) and t-report-browser-record.sh (a record
# report). Source after lib.sh; skips when gnuplot or Chromium is missing. Headless
# Chromium (ci/install-deps.sh --test installs it) opens a report at 1366x900 copied out
# alone (it is one file to send: what works alone works in place, where it has no more
# than its own directory to reach; any link to a file fails either way), and check()
# fails on:
#   - an image that does not load, a link to a file (any href but #anchor), a link to an
#     anchor the page lacks, a script error;
#   - a workload's answer that is not on the first screen (the tests check that its
#     line names the work it drives with its wait p50 / p99 in every configuration; a
#     record: its top waiters, never "background");
#   - a (bg) row of the all-vectors/all-pools table with a ratio;
#   - the page with every section opened longer than 25 screens, report.html over
#     1.5 MB;
#   - plot text under 10 px as shown (each plot is drawn at the size it is shown);
# and colours() on a colour that means two things: a thing (configuration, place,
# work, cause) with two colours, two things with one. check() keeps a screenshot of
# the first screen in $T/NAME.png.
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot is not installed"
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip "chromium is not installed (ci/install-deps.sh --test installs it)"
MAX_BYTES=1500000
MAX_SCREENS=25

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

# check DIR NAME - the checks every report gets, copied out alone
check() {
	_bytes=$(wc -c < "$1/report.html")
	[ "$_bytes" -le $MAX_BYTES ] || fail "$2: report.html is $_bytes bytes, over $MAX_BYTES"
	_where=$T/alone-$2
	mkdir "$_where" && cp "$1/report.html" "$_where/" || fail "cp"
	probe "$_where"
	grep '^BAD ' "$T/probe" && fail "$2 (copied out alone): broken in a browser"
	[ "$(val images)" -ge 1 ] || fail "$2: no image"
	[ "$(val below)" = 0 ] || fail "$2: $(val below) answers end below the first screen"
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
