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

  site_crawl.py CHROMIUM SITE_DIR
"""
import json
import os
import sys
import time
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp_check import Browser, Tab, TIMEOUT  # noqa: E402

LINKS_JS = r"""
JSON.stringify([...document.querySelectorAll('a[href]')].map(a => a.href))
"""


def path_of(url):
    return urllib.parse.unquote(urllib.parse.urlsplit(url).path)


def main():
    exe, site = sys.argv[1], os.path.abspath(sys.argv[2])
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
