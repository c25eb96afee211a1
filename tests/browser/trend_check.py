#!/usr/bin/env python3
"""tests/browser/trend_check.py - opens a bstore trend page in headless
Chromium (through cdp_check.py's DevTools client) and checks it the way a
person would see it, at a desktop's width (1400 px) and a phone's (390
px):

- the page loads without console errors or exceptions and asks for
  nothing but itself;
- every chart has an x axis and a y axis with tick labels, and a line;
- every text of every chart is drawn at 12 px or more on the screen (its
  computed font size times the chart's scale);
- at phone width nothing reaches past the screen's right edge except
  inside a box that scrolls (.scroll), and the page is no wider.

  trend_check.py CHROMIUM PAGE.html CHARTS [SCREENSHOT_DIR]

CHARTS is the number of charts the page must have. With SCREENSHOT_DIR,
saves trend.png (1400 px wide) and trend-phone.png (390 px) of the top of
the page there.
"""
import base64
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp_check import Browser, TIMEOUT  # noqa: E402

CHECK_JS = r"""
(() => {
  const out = {charts: 0, problems: [], minFont: 1e9};
  document.querySelectorAll('svg.trend').forEach((svg, i) => {
    out.charts++;
    const xt = svg.querySelectorAll('text.xt:not(.at)');
    const yt = svg.querySelectorAll('text.yt');
    if (xt.length < 2) out.problems.push(`chart ${i + 1}: ${xt.length} x tick labels`);
    if (yt.length < 2) out.problems.push(`chart ${i + 1}: ${yt.length} y tick labels`);
    [...xt, ...yt].forEach(t => {
      if (!t.textContent.trim()) out.problems.push(`chart ${i + 1}: an empty tick label`);
    });
    if (!svg.querySelector('path.line')) out.problems.push(`chart ${i + 1}: no line`);
    svg.querySelectorAll('text').forEach(t => {
      const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
      if (px < out.minFont) out.minFont = px;
      if (px < 12) out.problems.push(`chart ${i + 1}: '${t.textContent}' at ${px.toFixed(1)}px`);
    });
  });
  const w = document.documentElement.clientWidth;
  out.width = document.documentElement.scrollWidth;
  document.querySelectorAll('body *').forEach(el => {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > w + 0.5 && !el.closest('.scroll'))
      out.problems.push(`<${el.tagName.toLowerCase()} class="${el.className.baseVal ?? el.className}"> reaches ${Math.round(r.right)}px of ${w}`);
  });
  return JSON.stringify(out);
})()
"""


def main():
    exe, page, charts = sys.argv[1], sys.argv[2], int(sys.argv[3])
    shots = sys.argv[4] if len(sys.argv) > 4 else None
    url = "file://" + os.path.abspath(page)
    problems = []
    fonts = {}
    log = tempfile.TemporaryFile()
    b = Browser(exe, log)
    try:
        target = b.call("Target.createTarget", {"url": "about:blank"})
        s = b.call("Target.attachToTarget",
                   {"targetId": target["targetId"], "flatten": True})
        sid = s["sessionId"]
        for domain in ("Runtime", "Log", "Network", "Page"):
            b.call(domain + ".enable", session=sid)

        def evaluate(expr):
            r = b.call("Runtime.evaluate",
                       {"expression": expr, "returnByValue": True},
                       session=sid)
            return r["result"].get("value")

        def load(width, height, mobile):
            b.call("Emulation.setDeviceMetricsOverride",
                   {"width": width, "height": height,
                    "deviceScaleFactor": 1, "mobile": mobile}, session=sid)
            b.call("Page.navigate", {"url": url}, session=sid)
            b.wait_event("Page.loadEventFired", time.monotonic() + TIMEOUT)

        def screenshot(name, width, max_height):
            h = min(int(evaluate("document.documentElement.scrollHeight")),
                    max_height)
            b.call("Emulation.setDeviceMetricsOverride",
                   {"width": width, "height": h, "deviceScaleFactor": 1,
                    "mobile": width < 600}, session=sid)
            png = b.call("Page.captureScreenshot", {"format": "png"},
                         session=sid)
            with open(os.path.join(shots, name), "wb") as f:
                f.write(base64.b64decode(png["data"]))

        for name, width, mobile, shot, shot_h in (
                ("desktop", 1400, False, "trend.png", 1500),
                ("phone", 390, True, "trend-phone.png", 1500)):
            load(width, 900, mobile)
            r = json.loads(evaluate(CHECK_JS))
            fonts[name] = r["minFont"]
            if r["charts"] != charts:
                problems.append("%s: %d charts, expected %d"
                                % (name, r["charts"], charts))
            for p in r["problems"]:
                if name == "desktop" and "reaches" in p:
                    continue
                problems.append("%s: %s" % (name, p))
            if name == "phone" and r["width"] > width:
                problems.append("at phone width the page is %dpx wide"
                                % r["width"])
            if shots:
                screenshot(shot, width, shot_h)

        for m in b.events:
            method, p = m.get("method"), m.get("params", {})
            if method == "Runtime.exceptionThrown":
                problems.append("exception: %s" %
                                p["exceptionDetails"].get("text"))
            elif method == "Runtime.consoleAPICalled" and \
                    p.get("type") in ("error", "assert"):
                problems.append("console %s" % p["type"])
            elif method == "Log.entryAdded" and \
                    p["entry"]["level"] == "error":
                problems.append("console error: %s" % p["entry"]["text"])
            elif method == "Network.requestWillBeSent":
                u = p["request"]["url"]
                if u != url and not u.startswith("data:"):
                    problems.append("the page asks for %s" % u)
    finally:
        b.close()
    if problems:
        for p in problems[:40]:
            print("FAIL: " + p, file=sys.stderr)
        sys.exit(1)
    print("%s: %d charts with both axes labelled, chart text at %.1fpx or "
          "more on a desktop and %.1fpx on a phone, no console errors, no "
          "requests, fits a phone"
          % (os.path.basename(page), charts, fonts["desktop"],
             fonts["phone"]))


if __name__ == "__main__":
    main()
