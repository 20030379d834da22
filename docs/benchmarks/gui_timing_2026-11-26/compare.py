#!/usr/bin/env python3
"""Compares the explorer's Timing-view records (gui_*.json, written by spmvlab-gui --record)
with `spmvlab bench --gpu` on the same matrix and precision (bench_*.json): one line per
kernel variant, the two medians and their ratio. Usage: compare.py RECORD_DIR > compare.md
Exit status 1 when a variant timed by both differs by more than 10 %."""
import glob, json, os, sys

d = sys.argv[1]
worst = 0.0
compared = 0
print("| matrix | precision | variant | Timing view µs | spmvlab bench µs | view / bench |")
print("|---|---|---|---:|---:|---:|")
for gpath in sorted(glob.glob(os.path.join(d, "gui_*.json"))):
    bpath = gpath.replace("gui_", "bench_")
    if not os.path.exists(bpath):
        print(f"missing {bpath}", file=sys.stderr)
        sys.exit(2)
    g = json.load(open(gpath))
    b = json.load(open(bpath))
    bench = {r["format"]: r for r in b["results"] if not r.get("error")}
    for r in g["rows"]:
        if r.get("error") or not r["gpu"]:
            continue
        ref = bench.get(r["variant"])
        if ref is None:
            print(f"| {g['matrix']} | {r['precision']} | {r['variant']} | {r['median_us']:.1f} | (not in bench) | |")
            continue
        ratio = r["median_us"] / (ref["median_ms"] * 1e3)
        worst = max(worst, abs(ratio - 1.0))
        compared += 1
        print(f"| {g['matrix']} | {r['precision']} | {r['variant']} | {r['median_us']:.1f} | "
              f"{ref['median_ms'] * 1e3:.1f} | {ratio:.3f} |")
if compared == 0:
    print("no variant was timed by both: nothing compared", file=sys.stderr)
    sys.exit(2)
print(f"\n{compared} variants compared; largest difference: {100 * worst:.1f} %")
sys.exit(1 if worst > 0.10 else 0)
