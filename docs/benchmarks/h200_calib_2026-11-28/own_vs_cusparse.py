#!/usr/bin/env python3
"""Per matrix and precision: the fastest own kernel against the fastest cuSPARSE baseline, and
the fraction of the measured copy bandwidth the fastest own kernel reaches (min_bytes / time).
   own_vs_cusparse.py bench.json [...]"""
import json
import sys

for path in sys.argv[1:]:
    d = json.load(open(path))
    copy = d["copy_bandwidth_gbs"]
    cases = {}
    for r in d["results"]:
        if r.get("error") or r.get("median_ms") is None:
            continue
        key = (r["matrix"], r["precision"])
        side = "cusparse" if r["format"].startswith("cusparse") else "own"
        best = cases.setdefault(key, {}).get(side)
        if best is None or r["median_ms"] < best["median_ms"]:
            cases[key][side] = r
    print(f"# {path}: {d['device']}, copy bandwidth {copy:.0f} GB/s")
    print(f"{'matrix':58} {'prec':6} {'own':14} {'us':>8} {'cuSPARSE':18} {'us':>8} {'speedup':>7} {'roof':>5}")
    wins = 0
    for (m, p), c in sorted(cases.items()):
        o, b = c.get("own"), c.get("cusparse")
        if not o or not b:
            continue
        s = b["median_ms"] / o["median_ms"]
        wins += s >= 1.0
        roof = o["min_bytes"] / (o["median_ms"] * 1e-3) / 1e9 / copy
        print(f"{m[:58]:58} {p:6} {o['format']:14} {o['median_ms']*1e3:8.2f} {b['format']:18} "
              f"{b['median_ms']*1e3:8.2f} {s:7.3f} {roof:5.2f}")
    print(f"own >= cuSPARSE on {wins} of {sum(1 for c in cases.values() if 'own' in c and 'cusparse' in c)}\n")
