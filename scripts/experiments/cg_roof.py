#!/usr/bin/env python3
"""The aggregate bandwidth roof of a distributed CG record (issue 36): bytes each iteration must
move / time per iteration, against the GPUs' summed copy bandwidth.

    scripts/experiments/cg_roof.py RECORD.json [--copy-gbs 4252] [--nnz N --rows N]

Bytes per iteration, the least any CG over CSR-like storage moves (our dist CG's passes,
kernels/src/dist_cg.cu): the SpMV reads every nonzero's value and column index (8 + 4 bytes in
double), reads x once and writes y once (2 x 8 bytes per row); the vector steps read and write
12 vectors of the rows' length (dot2 {p.q, r.p}: 3; x += alpha p, r -= alpha q with r.r: 4 read,
2 written; p = r + beta p: 2 read, 1 written). Padding, the row offsets and the halo are not
counted: the roof is what the iteration must move, so the fraction is a lower bound.
For gen:pde:size=n (7-point stencil on an n^3 grid) rows = n^3 and nnz = 7 n^3 - 6 n^2.
--copy-gbs: each GPU's measured copy bandwidth (the H200's: 4252 GB/s, docs/benchmarks).
"""
import argparse
import json
import re

ap = argparse.ArgumentParser()
ap.add_argument("record")
ap.add_argument("--copy-gbs", type=float, default=4252.0)
ap.add_argument("--nnz", type=int)
ap.add_argument("--rows", type=int)
a = ap.parse_args()
j = json.load(open(a.record))
rows, nnz = a.rows, a.nnz
m = re.match(r"gen:pde:size=(\d+)$", j["matrix"])
if m and (rows is None or nnz is None):
    n = int(m.group(1))
    rows, nnz = n ** 3, 7 * n ** 3 - 6 * n ** 2
if rows is None or nnz is None:
    raise SystemExit("give --rows and --nnz for " + j["matrix"])
value = 8 if j.get("precision", "double") == "double" else 4
spmv_bytes = nnz * (value + 4) + rows * 2 * value
vector_bytes = rows * 12 * value
per_it = spmv_bytes + vector_bytes
its = j["iterations"]
t_it = j["total_ms"] / its / 1e3
ranks = j["ranks"]
roof = ranks * a.copy_gbs * 1e9
print(f"{j['matrix']}: {rows:,} rows, {nnz:,} nonzeros, {ranks} GPUs, {j.get('exchange_path')}, "
      f"{its} iterations, {j['total_ms']:.1f} ms")
print(f"bytes per iteration: SpMV {spmv_bytes / 1e9:.1f} GB + vectors {vector_bytes / 1e9:.1f} GB "
      f"= {per_it / 1e9:.1f} GB; time per iteration {t_it * 1e3:.3f} ms")
print(f"achieved {per_it / t_it / 1e12:.2f} TB/s against {roof / 1e12:.2f} TB/s "
      f"({ranks} x {a.copy_gbs:.0f} GB/s copy): {per_it / t_it / roof:.1%} of the roof")
