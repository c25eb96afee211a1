#!/usr/bin/env python3
"""tests/browser/bars_check.py PAGE.html - checks the bar charts of a
bstore HTML report against the numbers they show, without a browser: in
every chart the axis starts at 0 and its last tick is at or above the
largest value (and under twice it, or the scale would waste the chart);
each bar's width is its value over the last tick; each error bar lies
around its bar's end. Prints what it checked; exits 1 on a problem."""
import html.parser
import re
import sys


def num(text):
    return float(text.replace(",", "").rstrip("usm%"))


class Bars(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts = []
        self.field = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class", "") or ""
        style = a.get("style", "") or ""
        if tag == "figcaption" and self.charts is not None:
            self.field = "caption"
        if tag == "div" and "bars" in cls.split():
            self.charts.append({"caption": self.pending, "bars": [],
                                "ticks": []})
        elif not self.charts:
            return
        c = self.charts[-1] if self.charts else None
        if tag == "span" and cls == "bt":
            c["bars"].append({"w": None, "err": None, "value": None})
        elif tag == "b" and "width:" in style:
            c["bars"][-1]["w"] = float(re.search(r"width:([\d.]+)%",
                                                 style).group(1))
        elif tag == "i" and "left:" in style:
            c["bars"][-1]["err"] = (
                float(re.search(r"left:([\d.]+)%", style).group(1)),
                float(re.search(r"width:([\d.]+)%", style).group(1)))
        elif tag == "span" and cls.startswith("bv"):
            self.field = "nv" if "nv" in cls.split() else "value"
        elif tag == "span" and style.startswith("left:"):
            self.field = "tick"

    pending = ""

    def handle_data(self, data):
        if self.field == "caption":
            self.pending = data
        elif self.field == "value":
            self.charts[-1]["bars"][-1]["value"] = num(data)
        elif self.field == "tick":
            self.charts[-1]["ticks"].append(num(data))
        self.field = None


def main():
    p = Bars()
    with open(sys.argv[1], encoding="utf-8") as f:
        p.feed(f.read())
    problems, nbars = [], 0
    for c in p.charts:
        name, ticks = c["caption"], c["ticks"]
        vals = [b["value"] for b in c["bars"] if b["value"] is not None]
        if len(ticks) < 2 or ticks[0] != 0:
            problems.append("%s: axis %s" % (name, ticks))
            continue
        hi = ticks[-1]
        if vals and not (max(vals) <= hi * 1.0005 and
                         (max(vals) == 0 or hi < 2 * max(vals) * 1.0005 or
                          c["bars"] and any(b["err"] for b in c["bars"]))):
            problems.append("%s: values up to %g on an axis to %g"
                            % (name, max(vals), hi))
        for b in c["bars"]:
            if b["value"] is None:
                if b["w"] is not None:
                    problems.append("%s: a bar without a number" % name)
                continue
            nbars += 1
            want = b["value"] / hi * 100
            # The value shown is rounded: a tolerance of its last digit.
            if b["w"] is None or abs(b["w"] - want) > 0.6:
                problems.append("%s: bar of %g is %s%% wide, want %.2f%%"
                                % (name, b["value"], b["w"], want))
            if b["err"]:
                lo, w = b["err"]
                if not (lo <= b["w"] + 0.01 <= lo + w + 0.02):
                    problems.append("%s: error bar %s misses the bar's "
                                    "end %s" % (name, b["err"], b["w"]))
    for q in problems:
        print("FAIL: " + q, file=sys.stderr)
    print("%d charts, %d bars match their numbers and axes"
          % (len(p.charts), nbars))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
