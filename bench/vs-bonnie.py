#!/usr/bin/env python3
"""bench/vs-bonnie.py OUTDIR - summarises a bench/vs-bonnie run as Markdown.

Reads OUTDIR/{env,wall,bonnie.N.csv,bstore.N.csv,fio-write.N.json,
fio-read.N.json}, prints the median of every bonnie++ column for both
tools, their ratio, and whether the goals hold:
  block write, rewrite, block read, seeks: bstore within 15% of bonnie++;
  whole-suite wall time: bstore at most 1.05x bonnie++;
  block write / block read: bstore at least 0.9x fio's sequential rate.
"""
import glob
import json
import os
import statistics
import sys

# bonnie++ 1.98 CSV: (label, rate field, CPU field).
METRICS = [
    ("Per-char write", 9, 10), ("Block write", 11, 12), ("Rewrite", 13, 14),
    ("Per-char read", 15, 16), ("Block read", 17, 18),
    ("Random seeks", 19, 20),
    ("Seq. create", 26, 27), ("Seq. read", 28, 29), ("Seq. delete", 30, 31),
    ("Random create", 32, 33), ("Random read", 34, 35),
    ("Random delete", 36, 37),
]
GOAL_METRICS = {"Block write", "Rewrite", "Block read", "Random seeks"}


def csv_line(path):
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if l.startswith("1.98,")]
    if not lines:
        sys.exit(f"vs-bonnie.py: no CSV line in {path}")
    return lines[-1].split(",")


def cells(out, tool):
    runs = sorted(glob.glob(os.path.join(out, f"{tool}.*.csv")))
    return [csv_line(p) for p in runs]


def summarise(rows, field):
    """Median of the numeric cells, and how many were '+++++'."""
    nums = [float(r[field]) for r in rows
            if r[field] not in ("", "+++++", "+++")]
    fast = sum(1 for r in rows if r[field] == "+++++")
    return (statistics.median(nums) if nums else None), fast, len(nums)


def fmt(v, fast, n, unit_k):
    if v is None:
        return "+++++" if fast else "-"
    if not unit_k:
        text = f"{v:.0f}/s"
    elif v < 10240:
        text = f"{v:.0f} KiB/s"
    else:
        text = f"{v / 1024:.1f} MiB/s"
    if fast:
        text += f" ({fast}x +++++)"
    return text


def fio_rates(out, kind):
    rates = []
    for p in sorted(glob.glob(os.path.join(out, f"fio-{kind}.*.json"))):
        with open(p) as f:
            job = json.load(f)["jobs"][0]
        rates.append(job["write" if kind == "write" else "read"]["bw"])
    return rates


def mib(values):
    """KiB/s values (numbers or CSV cells) as whole MiB/s."""
    return ", ".join(f"{float(v) / 1024:.0f}" if str(v)[:1].isdigit()
                     else str(v) for v in values)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    bon, bst = cells(out, "bonnie"), cells(out, "bstore")
    walls = {"bonnie": [], "bstore": []}
    with open(os.path.join(out, "wall")) as f:
        for line in f:
            name, secs = line.split()
            walls[name.split(".")[0]].append(float(secs))

    print(f"## vs-bonnie: {os.path.basename(out.rstrip('/'))}\n")
    with open(os.path.join(out, "env")) as f:
        print("```\n" + f.read().rstrip() + "\n```\n")
    print(f"Medians of {len(bon)} bonnie++ and {len(bst)} bstore runs.\n")
    print("| test | bonnie++ 2.00a | bstore | bstore/bonnie++ | %CP bonnie++ "
          "| %CP bstore | goal |")
    print("|---|---|---|---|---|---|---|")
    fails = []
    for label, field, cpu in METRICS:
        bv, bf, bn = summarise(bon, field)
        sv, sf, sn = summarise(bst, field)
        bc, _, _ = summarise(bon, cpu)
        sc, _, _ = summarise(bst, cpu)
        unit_k = field <= 18
        ratio = f"{sv / bv:.2f}" if bv and sv else "-"
        goal = ""
        if label in GOAL_METRICS:
            if bv and sv:
                ok = abs(sv / bv - 1) <= 0.15
                goal = "within 15%: " + ("yes" if ok else "NO")
                if not ok:
                    fails.append(label)
            elif bf and sf:
                goal = "both too fast to time"
            else:
                goal = "not comparable (one side too fast)"
                fails.append(label)
        print(f"| {label} | {fmt(bv, bf, bn, unit_k)} | "
              f"{fmt(sv, sf, sn, unit_k)} | {ratio} | "
              f"{'' if bc is None else int(bc)} | "
              f"{'' if sc is None else int(sc)} | {goal} |")

    wb = statistics.median(walls["bonnie"])
    ws = statistics.median(walls["bstore"])
    ok = ws <= 1.05 * wb
    if not ok:
        fails.append("wall time")
    print(f"\nWhole-suite wall time (median): bonnie++ {wb:.1f} s, bstore "
          f"{ws:.1f} s, ratio {ws / wb:.2f} (goal <= 1.05: "
          f"{'yes' if ok else 'NO'}).")
    print("All wall times: bonnie++ " +
          ", ".join(f"{w:.1f}" for w in walls["bonnie"]) + " s; bstore " +
          ", ".join(f"{w:.1f}" for w in walls["bstore"]) + " s.")

    fws, frs = fio_rates(out, "write"), fio_rates(out, "read")
    if fws and frs:
        fw, fr = statistics.median(fws), statistics.median(frs)
        for what, field, fio in (("Block write", 11, fws),
                                 ("Block read", 17, frs)):
            print(f"\n{what}, every run (MiB/s): bonnie++ "
                  f"{mib(r[field] for r in bon)}; bstore "
                  f"{mib(r[field] for r in bst)}; fio {mib(fio)}.")
        sw, _, _ = summarise(bst, 11)
        sr, _, _ = summarise(bst, 17)
        bw, _, _ = summarise(bon, 11)
        br, _, _ = summarise(bon, 17)
        print(f"\nfio (psync, bs=8k, end_fsync=1, fallocate=none; read "
              f"right after, invalidate=0): "
              f"write {fw / 1024:.1f} MiB/s, read {fr / 1024:.1f} MiB/s.")
        for what, s, f in (("block write", sw, fw), ("block read", sr, fr)):
            if s is None:
                print(f"bstore {what}: too fast to time")
                continue
            ok = s >= 0.9 * f
            if not ok:
                fails.append(f"{what} vs fio")
            print(f"bstore {what} / fio: {s / f:.2f} (goal >= 0.9: "
                  f"{'yes' if ok else 'NO'})")
        for what, b, f in (("block write", bw, fw), ("block read", br, fr)):
            if b is not None:
                print(f"bonnie++ {what} / fio: {b / f:.2f} (for reference)")
    print("\nGoals missed: " + (", ".join(fails) if fails else "none"))


if __name__ == "__main__":
    main()
