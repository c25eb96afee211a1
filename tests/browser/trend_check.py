#!/usr/bin/env python3
"""tests/browser/trend_check.py - opens a bstore trend page in headless
Chromium (through cdp_check.py's DevTools client) and checks it the way a
person would see it, at a desktop's width (1400 px) and a phone's (390
px):

- the page loads without console errors or exceptions and asks for
  nothing but itself;
- every chart has an x axis and a y axis with tick labels, and a line;
- every text of every chart is drawn at 12 px or more on the screen (its
  computed font size times the chart's scale), and so is every other text
  of the page (cdp_check.py's measure);
- at phone width nothing reaches past the screen's right edge except
  inside a box that scrolls (.scroll), and the page is no wider.

  trend_check.py CHROMIUM PAGE.html CHARTS [SCREENSHOT_DIR]

CHARTS is the number of charts the page must have. With SCREENSHOT_DIR,
saves trend.png (1400 px wide) and trend-phone.png (390 px) of the top of
the page there.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp_check import (Browser, Tab, event_problems,  # noqa: E402
                       MIN_TEXT_PX, SMALLEST_JS)

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
        tab = Tab(b)
        for name, width, mobile, shot, shot_h in (
                ("desktop", 1400, False, "trend.png", 1500),
                ("phone", 390, True, "trend-phone.png", 1500)):
            tab.load(url, width, 900, mobile)
            r = json.loads(tab.evaluate(CHECK_JS))
            small = json.loads(tab.evaluate(SMALLEST_JS))
            if small[0] < MIN_TEXT_PX:
                problems.append("%s: text is %.1fpx (%s)"
                                % (name, small[0], small[1]))
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
                tab.screenshot(os.path.join(shots, shot), width, shot_h)

        problems += event_problems(b, url)
    finally:
        b.close()
    if problems:
        for p in problems[:40]:
            print("FAIL: " + p, file=sys.stderr)
        sys.exit(1)
    print("%s: %d charts with both axes labelled, chart text at %.1fpx or "
          "more on a desktop and %.1fpx on a phone, no text under %dpx, no "
          "console errors, no requests, fits a phone"
          % (os.path.basename(page), charts, fonts["desktop"],
             fonts["phone"], MIN_TEXT_PX))


if __name__ == "__main__":
    main()
