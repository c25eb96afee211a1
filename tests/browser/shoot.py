#!/usr/bin/env python3
"""tests/browser/shoot.py CHROMIUM PAGE PNG WIDTH SELECTOR - a screenshot
of the element SELECTOR of PAGE (a file) at WIDTH CSS pixels (a phone's
when under 600), the whole element even below the first screen, for
docs/screenshots/. Exits 1 when the page has no such element."""
import base64
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp_check import Browser, Tab  # noqa: E402


def main():
    exe, page, out, width, selector = sys.argv[1:6]
    width = int(width)
    log = tempfile.TemporaryFile()
    b = Browser(exe, log)
    try:
        tab = Tab(b)
        tab.load("file://" + os.path.abspath(page), width, 900, width < 600)
        box = tab.evaluate(
            "(function(){var e=document.querySelector(%s);if(!e)return null;"
            "var r=e.getBoundingClientRect();return JSON.stringify([r.left,"
            "r.top+window.scrollY,r.width,r.height]);})()"
            % json.dumps(selector))
        if box is None:
            print("%s: no %s" % (page, selector), file=sys.stderr)
            return 1
        x, y, w, h = json.loads(box)
        png = b.call("Page.captureScreenshot",
                     {"format": "png", "captureBeyondViewport": True,
                      "clip": {"x": max(x - 8, 0), "y": max(y - 8, 0),
                               "width": min(w + 16, width), "height": h + 16,
                               "scale": 1}}, session=tab.sid)
        with open(out, "wb") as f:
            f.write(base64.b64decode(png["data"]))
    finally:
        b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
