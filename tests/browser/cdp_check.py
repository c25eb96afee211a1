#!/usr/bin/env python3
"""tests/browser/cdp_check.py - opens an HTML report in headless Chromium
and checks it the way a person would see it.

Drives Chromium through the DevTools protocol over a pipe
(--remote-debugging-pipe), so it needs nothing but Python's standard
library and Debian's chromium. It fails when the page logs a console
error or throws, when it asks for anything but the file itself (the page
must be self-contained), when a cell does not hold the expected text, or
when the page is wider than a phone's screen at phone width (tables
scroll inside their own boxes instead).

  cdp_check.py CHROMIUM PAGE.html EXPECT.json [SCREENSHOT_DIR [NAME]]

At 1400 pixels (a desktop) no comparison or group table may scroll
sideways; at 390 (a phone) the first cell of the first table must show
its mean first, on screen; at both no word may be broken across lines.
With SCREENSHOT_DIR it saves NAME.png and NAME-phone.png (default NAME:
report) at those widths.

EXPECT.json maps "row header | data-metric" to the text the cell should
start with, e.g. {"diff [1] \u2212 [2] | putc": "1691"}, compared without
the page's thousands separators ("1,691"); a row header is matched as the
page shows it at desktop width.
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

TIMEOUT = 60.0


class Browser:
    def __init__(self, exe, logfile):
        self.profile = tempfile.mkdtemp(prefix="bstore-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def child():
            # Chromium reads commands on fd 3 and answers on fd 4.
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [exe, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--disable-extensions",
                "--hide-scrollbars", "--remote-debugging-pipe",
                "--user-data-dir=" + self.profile, "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=child, close_fds=False,
                                     stdin=subprocess.DEVNULL,
                                     stdout=logfile, stderr=logfile)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self.from_chrome, 65536)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, deadline):
        while True:
            for i, m in enumerate(self.events):
                if m.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        subprocess.run(["rm", "-rf", self.profile])


class Tab:
    """A page of Browser b, its Runtime, Log, Network and Page events on."""

    def __init__(self, b):
        self.b = b
        target = b.call("Target.createTarget", {"url": "about:blank"})
        s = b.call("Target.attachToTarget",
                   {"targetId": target["targetId"], "flatten": True})
        self.sid = s["sessionId"]
        for domain in ("Runtime", "Log", "Network", "Page"):
            b.call(domain + ".enable", session=self.sid)

    def load(self, url, width, height, mobile):
        self.b.call("Emulation.setDeviceMetricsOverride",
                    {"width": width, "height": height,
                     "deviceScaleFactor": 1, "mobile": mobile},
                    session=self.sid)
        self.b.call("Page.navigate", {"url": url}, session=self.sid)
        self.b.wait_event("Page.loadEventFired", time.monotonic() + TIMEOUT)

    def evaluate(self, expr):
        r = self.b.call("Runtime.evaluate",
                        {"expression": expr, "returnByValue": True},
                        session=self.sid)
        return r["result"].get("value")

    def screenshot(self, path, width, max_height):
        """The top of the page, at most max_height pixels of it."""
        h = min(int(self.evaluate("document.documentElement.scrollHeight")),
                max_height)
        self.b.call("Emulation.setDeviceMetricsOverride",
                    {"width": width, "height": h, "deviceScaleFactor": 1,
                     "mobile": width < 600}, session=self.sid)
        png = self.b.call("Page.captureScreenshot", {"format": "png"},
                          session=self.sid)
        with open(path, "wb") as f:
            f.write(base64.b64decode(png["data"]))


def event_problems(b, url):
    """What the events of b say went wrong on the page url: exceptions,
    console errors, and requests for anything but the page itself."""
    problems = []
    for m in b.events:
        method, p = m.get("method"), m.get("params", {})
        if method == "Runtime.exceptionThrown":
            problems.append("exception: %s" %
                            p["exceptionDetails"].get("text"))
        elif method == "Runtime.consoleAPICalled" and \
                p.get("type") in ("error", "assert"):
            problems.append("console %s: %s" % (p["type"], [
                a.get("value") for a in p.get("args", [])]))
        elif method == "Log.entryAdded" and \
                p["entry"]["level"] == "error":
            problems.append("console error: %s" % p["entry"]["text"])
        elif method == "Network.requestWillBeSent":
            u = p["request"]["url"]
            if u != url and not u.startswith("data:"):
                problems.append("the page asks for %s" % u)
    return problems


CELLS_JS = r"""
JSON.stringify([...document.querySelectorAll('table.cmp tbody tr')].map(tr => {
  const th = tr.querySelector('th');
  const cells = {};
  tr.querySelectorAll('td[data-metric]').forEach(td => {
    cells[td.dataset.metric] = (td.firstChild ? td.firstChild.textContent : '');
  });
  return [th.textContent.replace(/\s+/g, ' ').trim(), cells];
}))
"""


# The smallest text a reader sees, in CSS pixels: every element with text
# of its own that is rendered, SVG text scaled as its chart is drawn.
SMALLEST_JS = r"""
(() => {
  let min = 1e9, what = '';
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest('svg');
    if (svg && svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width)
      px *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    if (px < min) { min = px; what = el.tagName.toLowerCase() + '.' + (el.className.baseVal ?? el.className) + ': ' + el.textContent.trim().slice(0, 30); }
  }
  return JSON.stringify([min, what]);
})()
"""

# Every bar chart has an axis with at least two labelled ticks.
CHARTS_JS = r"""
JSON.stringify([...document.querySelectorAll('div.bars')].map(c =>
  c.querySelectorAll('.ax span').length))
"""

MIN_TEXT_PX = 12

# The comparison and group tables whose box scrolls sideways: each as
# [section id, scrollWidth, clientWidth].
SCROLLS_JS = r"""
JSON.stringify([...document.querySelectorAll('.scroll')]
  .filter(s => s.querySelector('table.cmp, table.groups'))
  .filter(s => s.scrollWidth > s.clientWidth + 1)
  .map(s => [(s.closest('section') || {}).id || '?', s.scrollWidth, s.clientWidth]))
"""

# The first value cell of the first comparison table: its first text (the
# mean must come first), and whether that text is on screen beside the
# sticky row header, with the table scrolled to its start.
FIRST_CELL_JS = r"""
(() => {
  const td = document.querySelector('table.cmp tbody tr.val td[data-metric]');
  if (!td) return JSON.stringify(null);
  const t = [...td.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
  if (!t) return JSON.stringify(['', false]);
  const r = document.createRange();
  r.selectNodeContents(t);
  const b = r.getBoundingClientRect();
  const th = td.parentElement.querySelector('th').getBoundingClientRect();
  const seen = b.width > 0 && b.left >= th.right - 1 &&
    b.right <= document.documentElement.clientWidth + 1;
  return JSON.stringify([t.textContent.trim(), seen]);
})()
"""

# Words broken across lines (a tag name wrapped as "host.device_mo del"):
# each piece of the page's text between two places a line may break
# (blanks, and after a hyphen, an en dash or a slash), outside the list
# of runs and the charts, that is laid out on more than one line.
BROKEN_WORDS_JS = r"""
(() => {
  const out = [];
  const roots = document.querySelectorAll('header, #summary, #notes, #groups, #hosts, table.cmp thead, table.cmp tbody th');
  const r = document.createRange();
  for (const root of roots) {
    const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n && out.length < 5; n = w.nextNode()) {
      const text = n.textContent, re = /[^\s\-\u2013\/]{2,}/g;
      let m;
      while ((m = re.exec(text)) && out.length < 5) {
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()]
          .filter(x => x.width > 0).map(x => Math.round(x.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return JSON.stringify(out);
})()
"""

DESKTOP_PX = 1400
PHONE_PX = 390


def main():
    exe, page, expect_path = sys.argv[1:4]
    shots = sys.argv[4] if len(sys.argv) > 4 else None
    name = sys.argv[5] if len(sys.argv) > 5 else "report"
    with open(expect_path) as f:
        expect = json.load(f)
    url = "file://" + os.path.abspath(page)
    problems = []
    log = tempfile.TemporaryFile()
    b = Browser(exe, log)
    try:
        tab = Tab(b)
        evaluate = tab.evaluate

        def load(width, height, mobile):
            tab.load(url, width, height, mobile)

        def screenshot(name, width, max_height):
            # The top of the page: notes, groups, the first sections.
            tab.screenshot(os.path.join(shots, name), width, max_height)

        load(DESKTOP_PX, 900, False)
        rows = json.loads(evaluate(CELLS_JS))
        seen = {}
        for header, cells in rows:
            for metric, text in cells.items():
                seen.setdefault("%s | %s" % (header, metric), text)
        for key, want in sorted(expect.items()):
            got = seen.get(key)
            if got is None:
                problems.append("no cell '%s'" % key)
            elif not got.replace(",", "").startswith(want):
                problems.append("cell '%s' holds '%s', expected '%s'"
                                % (key, got, want))
        small = json.loads(evaluate(SMALLEST_JS))
        if small[0] < MIN_TEXT_PX:
            problems.append("at desktop width text is %.1fpx (%s)"
                            % tuple(small))
        axes = json.loads(evaluate(CHARTS_JS))
        if any(n < 2 for n in axes):
            problems.append("a bar chart without an axis: %s" % axes)
        wide = evaluate("document.documentElement.scrollWidth")
        if wide > DESKTOP_PX:
            problems.append("at %dpx the page is %dpx wide"
                            % (DESKTOP_PX, wide))
        for sec, sw, cw in json.loads(evaluate(SCROLLS_JS)):
            problems.append("at %dpx a table of section '%s' scrolls "
                            "sideways (%dpx in a box of %d)"
                            % (DESKTOP_PX, sec, sw, cw))
        broken = json.loads(evaluate(BROKEN_WORDS_JS))
        if broken:
            problems.append("at %dpx words break across lines: %s"
                            % (DESKTOP_PX, broken))
        if shots:
            screenshot(name + ".png", DESKTOP_PX, 2200)

        load(PHONE_PX, 844, True)
        wide = evaluate("document.documentElement.scrollWidth")
        if wide > PHONE_PX:
            problems.append("at phone width the page is %dpx wide" % wide)
        first = json.loads(evaluate(FIRST_CELL_JS))
        if first is not None and not (first[0] and first[1]):
            problems.append("at phone width the first cell does not show "
                            "its mean first: %s" % first)
        broken = json.loads(evaluate(BROKEN_WORDS_JS))
        if broken:
            problems.append("at phone width words break across lines: %s"
                            % broken)
        small = json.loads(evaluate(SMALLEST_JS))
        if small[0] < MIN_TEXT_PX:
            problems.append("at phone width text is %.1fpx (%s)"
                            % tuple(small))
        if shots:
            screenshot(name + "-phone.png", PHONE_PX, 2400)

        problems += event_problems(b, url)
    finally:
        b.close()
    if problems:
        for p in problems:
            print("FAIL: " + p, file=sys.stderr)
        sys.exit(1)
    print("%s: %d cells as expected, no console errors, no requests, "
          "fits a phone" % (os.path.basename(page), len(expect)))
    print("%s: no sideways scroll at %dpx, the mean first in a cell at "
          "%dpx, no word broken across lines"
          % (os.path.basename(page), DESKTOP_PX, PHONE_PX))
    print("%s: %d bar charts with axes, no text under %dpx"
          % (os.path.basename(page), len(axes), MIN_TEXT_PX))


if __name__ == "__main__":
    main()
