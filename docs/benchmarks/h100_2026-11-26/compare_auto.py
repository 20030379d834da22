#!/usr/bin/env python3
"""The advisor's picks measured by `bench --gpu --formats auto` (auto/) against the full records
of every own variant (b/, large/): per matrix and precision, the time of the pick in the auto run,
the same variant in the full run, and the fastest own variant of the full run.
Usage: python3 docs/benchmarks/h100_2026-11-26/compare_auto.py  (from the repository root)"""
import json, os
here = os.path.dirname(os.path.abspath(__file__))
full = {}
for part in ("b", "large"):
    for r in json.load(open(os.path.join(here, part, "bench.json")))["results"]:
        if r["error"] or r["format"].startswith("cusparse"):
            continue
        full.setdefault((r["matrix"], r["precision"]), {})[r["format"]] = r["median_ms"] * 1e3
rows, within, n = [], 0, 0
for name in ("auto_b.json", "auto_large.json"):
    for r in json.load(open(os.path.join(here, "auto", name)))["results"]:
        key = (r["matrix"], r["precision"])
        if key not in full or r["error"]:
            continue
        pick = r["auto_choice"]["variant"]
        t_auto = r["median_ms"] * 1e3
        fastest = min(full[key].items(), key=lambda kv: kv[1])
        same = full[key].get(pick)
        ratio = t_auto / fastest[1]
        n += 1
        within += ratio <= 1.10
        rows.append(f"| {key[0]} | {key[1]} | {pick} | {t_auto:.2f} | "
                    f"{same:.2f} | {fastest[0]} | {fastest[1]:.2f} | {ratio:.3f}{' **' if ratio > 1.10 else ''} |"
                    if same else f"| {key[0]} | {key[1]} | {pick} | {t_auto:.2f} | - | {fastest[0]} | {fastest[1]:.2f} | {ratio:.3f} |")
print("| matrix | prec | auto pick | auto run us | same variant, full run us | fastest (full run) | us | auto / fastest |")
print("|---|---|---|---:|---:|---|---:|---:|")
print("\n".join(rows))
print(f"\nauto pick within 10 % of the full run's fastest own variant: {within} of {n}")
