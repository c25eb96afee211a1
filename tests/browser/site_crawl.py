#!/usr/bin/env python3
"""tests/browser/site_crawl.py - walks a bstore site in headless Chromium
from its index, following every link, the way a reader clicking through
it would.

Every page reachable from index.html is loaded in Chromium from file://.
It fails when a link leads to a page Chromium cannot load, when a page
asks for anything outside the site (or for a file that is not there),
logs a console error or throws, or when a page of the site is never
reached from the index. Uses cdp_check.py's Browser (DevTools over a
pipe; Python's standard library only).

Then the index, and the run pages named with --page, are loaded at
1,400 px and at a phone's 390 px: it fails when one scrolls sideways (the
document wider than the window) or, for the index, when the first thing
under its heading is not the table of each machine's latest results
(whose first row is a run, its machine and some result). It prints
what the index shows first. --screenshots DIR saves site-index.png and
site-index-phone.png, and NAME.png and NAME-phone.png for each --page
NAME=PATH.

  site_crawl.py CHROMIUM SITE_DIR [--page NAME=PATH]... [--screenshots DIR]
"""
import json
import os
import sys
import time
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp_check import Browser, Tab, TIMEOUT  # noqa: E402

WIDTHS = ((1400, 900, False, ""), (390, 844, True, "-phone"))

# The width of the document against the window's, and what the index shows
# first: the heading of the first section under the page's header, and
# the text of the first row of its table.
LAYOUT_JS = r"""
JSON.stringify({
  scroll: document.documentElement.scrollWidth,
  width: window.innerWidth,
  first: (document.querySelector('header + section h2') || {}).textContent,
  row: [...(document.querySelector('header + section tbody tr') ||
           {cells: []}).cells].map(c => c.textContent.trim())
})
"""

LINKS_JS = r"""
JSON.stringify([...document.querySelectorAll('a[href]')].map(a => a.href))
"""


def path_of(url):
    return urllib.parse.unquote(urllib.parse.urlsplit(url).path)


def layout(b, site, pages, shots, problems):
    """Loads each page at each width: no sideways scroll; the index
    leads with the latest results of a test."""
    tab = Tab(b)
    for name, rel in pages:
        for width, height, mobile, suffix in WIDTHS:
            tab.load("file://" + os.path.join(site, rel), width, height,
                     mobile)
            m = json.loads(tab.evaluate(LAYOUT_JS))
            if m["scroll"] > m["width"]:
                problems.append("%s at %d px scrolls sideways: %d px wide"
                                % (rel, width, m["scroll"]))
            if name == "site-index":
                print("index at %d px: first '%s', first row %s"
                      % (width, m["first"], " | ".join(m["row"][:4])))
                if not m["first"].startswith("Latest results: ") or \
                        len(m["row"]) < 3 or not m["row"][0].isdigit() or \
                        not any(c[:1].isdigit() for c in m["row"][2:]):
                    problems.append("the index at %d px does not lead "
                                    "with the latest results: %s"
                                    % (width, m))
            if shots:
                tab.screenshot(os.path.join(shots, name + suffix + ".png"),
                               width, 2400 if mobile else 1600)
    print("%d pages checked at 1400 and 390 px, none scrolls sideways"
          % len(pages) if not problems else "")


def main():
    args = sys.argv[1:]
    shots, extra = None, []
    while "--page" in args:
        i = args.index("--page")
        name, rel = args[i + 1].split("=", 1)
        extra.append((name, rel))
        del args[i:i + 2]
    if "--screenshots" in args:
        i = args.index("--screenshots")
        shots = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    exe, site = args[0], os.path.abspath(args[1])
    start = "file://" + os.path.join(site, "index.html")
    problems, seen, todo, links = [], set(), [start], 0
    log = tempfile.TemporaryFile()
    b = Browser(exe, log)
    try:
        sid = Tab(b).sid
        while todo:
            url = todo.pop()
            page = path_of(url)
            if page in seen:
                continue
            seen.add(page)
            b.events = []
            r = b.call("Page.navigate", {"url": "file://" + page},
                       session=sid)
            if r.get("errorText"):
                problems.append("%s: Chromium cannot load it: %s"
                                % (page, r["errorText"]))
                continue
            b.wait_event("Page.loadEventFired", time.monotonic() + TIMEOUT)
            r = b.call("Runtime.evaluate",
                       {"expression": LINKS_JS, "returnByValue": True},
                       session=sid)
            for href in json.loads(r["result"]["value"]):
                links += 1
                target_path = path_of(href)
                if not href.startswith("file://") or \
                        not target_path.startswith(site + "/"):
                    problems.append("%s links outside the site: %s"
                                    % (page, href))
                elif not os.path.isfile(target_path):
                    problems.append("%s links to a missing page: %s"
                                    % (page, href))
                elif target_path.endswith(".html"):
                    todo.append(href)
            for m in b.events:
                method, p = m.get("method"), m.get("params", {})
                if method == "Runtime.exceptionThrown":
                    problems.append("%s: exception" % page)
                elif method == "Log.entryAdded" and \
                        p["entry"]["level"] == "error":
                    problems.append("%s: console error: %s"
                                    % (page, p["entry"]["text"]))
                elif method == "Network.loadingFailed":
                    problems.append("%s: a request failed: %s"
                                    % (page, p.get("errorText")))
                elif method == "Network.requestWillBeSent":
                    u = p["request"]["url"]
                    if not u.startswith("file://" + site + "/") and \
                            not u.startswith("data:"):
                        problems.append("%s asks for %s" % (page, u))
        layout(b, site, [("site-index", "index.html")] + extra, shots,
               problems)
    finally:
        b.close()
    pages = set()
    for root, _, files in os.walk(site):
        for f in files:
            if f.endswith(".html"):
                pages.add(os.path.join(root, f))
    for p in sorted(pages - seen):
        problems.append("%s is not reached from the index" % p)
    if problems:
        for p in problems[:40]:
            print("FAIL: " + p, file=sys.stderr)
        sys.exit(1)
    print("%d pages loaded in Chromium from the index, %d links followed, "
          "all resolve" % (len(seen), links))


if __name__ == "__main__":
    main()
