#!/usr/bin/env python3
"""new / old median time of csr_adaptive and cuSPARSE SELL (unchanged: the drift) in the A/B run
of this folder: per round, best of the three rounds, and by matrix size.
Usage: python3 ab_table.py [DIR]   (DIR: the ab/ folder, default beside this script)"""
import json, lzma, os, statistics as st, sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "ab")


def load(name):
    t = {}
    with lzma.open(os.path.join(d, name + ".json.xz")) as f:
        for r in json.load(f)["results"]:
            if not r["error"]:
                t[(r["matrix"], r["precision"], r["format"])] = (r["median_ms"] * 1e3, r["nnz"])
    return t


runs = {(t, r): load(f"{t}_{r}") for t in ("old", "new") for r in (1, 2, 3)}
keys = sorted(runs[("old", 1)])
print("| kernel | round 1 | round 2 | round 3 | best of 3 | best of 3, old - new (us) |")
print("|---|---|---|---|---|---|")
for fmt in ("csr_adaptive", "cusparse_sell"):
    ks = [k for k in keys if k[2] == fmt and all(k in v for v in runs.values())]
    per = [st.median(runs[("new", r)][k][0] / runs[("old", r)][k][0] for k in ks) for r in (1, 2, 3)]
    best = lambda t, k: min(runs[(t, r)][k][0] for r in (1, 2, 3))
    b = st.median(best("new", k) / best("old", k) for k in ks)
    us = st.median(best("old", k) - best("new", k) for k in ks)
    print(f"| {fmt} ({len(ks)} cases) | {per[0]:.3f} | {per[1]:.3f} | {per[2]:.3f} | {b:.3f} | {us:.3f} |")
print()
print("| nonzeros | cases | csr_adaptive new / old | cuSPARSE SELL new / old |")
print("|---|---|---|---|")
bins = {}
for k in keys:
    if k[2] != "csr_adaptive":
        continue
    nnz = runs[("old", 1)][k][1]
    b = "< 1,000" if nnz < 1000 else "1,000-7,999" if nnz < 8000 else ">= 8,000"
    med = lambda t, kk: st.median(runs[(t, r)][kk][0] for r in (1, 2, 3))
    s = (k[0], k[1], "cusparse_sell")
    bins.setdefault(b, []).append((med("new", k) / med("old", k), med("new", s) / med("old", s)))
for b in ("< 1,000", "1,000-7,999", ">= 8,000"):
    v = bins.get(b, [])
    if v:
        print(f"| {b} | {len(v)} | {st.median(x[0] for x in v):.3f} | {st.median(x[1] for x in v):.3f} |")
