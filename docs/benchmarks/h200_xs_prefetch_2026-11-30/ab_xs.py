#!/usr/bin/env python3
"""The "_xs" kernels old (8 slots before the barrier, x staged one entry per thread and step)
against new (all slots of a launch whose longest row is <= 16, x staged 4 per thread and step),
alternating in one call; cuSPARSE SELL unchanged (the drift, and the baseline of the ties).
Usage: python3 ab_xs.py [DIR] [MTXDIR]   (DIR: the ab/ folder; MTXDIR: the matrices, for the
longest row and the column count of each)"""
import json, lzma, os, statistics as st, sys, collections

d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "ab")
ROUNDS = sorted({int(f.split("_")[1].split(".")[0]) for f in os.listdir(d) if f.startswith("old_") and f.endswith(".json.xz")})


def load(name):
    t, info = {}, {}
    with lzma.open(os.path.join(d, name + ".json.xz")) as f:
        for r in json.load(f)["results"]:
            if not r["error"] and r["median_ms"]:
                t[(r["matrix"], r["precision"], r["format"])] = r["median_ms"] * 1e3
                info[r["matrix"]] = (r["rows"], r["cols"], r["nnz"])
    return t, info


runs, info = {}, {}
for t in ("old", "new"):
    for r in ROUNDS:
        runs[(t, r)], i = load(f"{t}_{r}")
        info.update(i)
keys = sorted(k for k in runs[("old", ROUNDS[0])] if all(k in v for v in runs.values()))
best = lambda t, k: min(runs[(t, r)][k] for r in ROUNDS)
print(f"rounds: {ROUNDS}; best of the rounds per case")
print()
print("| kernel | cases | " + " | ".join(f"round {r}" for r in ROUNDS) + " | best, new / old | after the drift | cases faster |")
print("|---|---|" + "---|" * len(ROUNDS) + "---|---|---|")
drift = {}
for fmt in ("cusparse_sell", "ell_xs", "sell_xs"):
    ks = [k for k in keys if k[2] == fmt]
    per = [st.median(runs[("new", r)][k] / runs[("old", r)][k] for k in ks) for r in ROUNDS]
    b = [best("new", k) / best("old", k) for k in ks]
    if fmt == "cusparse_sell":
        drift = {k[:2]: x for k, x in zip(ks, b)}
        adj = b
    else:
        adj = [x / drift[k[:2]] for k, x in zip(ks, b)]
    print(f"| {fmt} | {len(ks)} | " + " | ".join(f"{p:.3f}" for p in per) +
          f" | {st.median(b):.3f} | {st.median(adj):.3f} | {100 * sum(a < 1 for a in adj) / len(adj):.0f} % |")
print()
# the best of ell_xs / sell_xs against cuSPARSE SELL, in the same run (round by round)
print("| | old: own xs best / cuSPARSE SELL | new |")
print("|---|---|---|")
for t in ("old", "new"):
    pass
rows = []
for m, p in sorted({k[:2] for k in keys}):
    for t in ("old", "new"):
        pass
    o = [min(runs[("old", r)][(m, p, f)] for f in ("ell_xs", "sell_xs")) / runs[("old", r)][(m, p, "cusparse_sell")] for r in ROUNDS]
    n = [min(runs[("new", r)][(m, p, f)] for f in ("ell_xs", "sell_xs")) / runs[("new", r)][(m, p, "cusparse_sell")] for r in ROUNDS]
    rows.append((m, p, st.median(o), st.median(n)))
print(f"| median over {len(rows)} cases | {st.median(r[2] for r in rows):.3f} | {st.median(r[3] for r in rows):.3f} |")
print(f"| cases where xs <= cuSPARSE SELL (median of rounds <= 1) | {sum(r[2] <= 1 for r in rows)} | {sum(r[3] <= 1 for r in rows)} |")
print()
watch = sys.argv[3].split(",") if len(sys.argv) > 3 else ["bcspwr05.mtx", "oscil_dcop_15.mtx", "Trec4.mtx", "GD01_b.mtx", "bcspwr02.mtx", "cage3.mtx", "494_bus.mtx"]
print("| matrix | prec | ell_xs old -> new (us, best) | sell_xs old -> new | cuSPARSE SELL old, new |")
print("|---|---|---|---|---|")
for m in watch:
    for p in ("double", "single"):
        k = lambda f: (m, p, f)
        if k("ell_xs") not in keys:
            continue
        print(f"| {m} | {p[0].upper()}P | {best('old', k('ell_xs')):.2f} -> {best('new', k('ell_xs')):.2f} | "
              f"{best('old', k('sell_xs')):.2f} -> {best('new', k('sell_xs')):.2f} | "
              f"{best('old', k('cusparse_sell')):.2f}, {best('new', k('cusparse_sell')):.2f} |")
# the worst regressions
print()
print("largest new / old after the drift (best of the rounds):")
adj = []
for k in keys:
    if k[2] == "cusparse_sell":
        continue
    adj.append((best("new", k) / best("old", k) / drift[k[:2]], k, best("old", k), best("new", k), info[k[0]]))
adj.sort()
for a in adj[-8:]:
    print(f"  {a[0]:.3f} {a[1][0]} {a[1][1]} {a[1][2]}: {a[2]:.2f} -> {a[3]:.2f} us  (rows, cols, nnz {a[4]})")
print("smallest:")
for a in adj[:8]:
    print(f"  {a[0]:.3f} {a[1][0]} {a[1][1]} {a[1][2]}: {a[2]:.2f} -> {a[3]:.2f} us  (rows, cols, nnz {a[4]})")
