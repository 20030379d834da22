#!/usr/bin/env python3
"""Writes warp_timeline_synthetic.json: a SYNTHETIC warp timeline (made here, not measured) in
the format of `spmvlab bench --gpu --warp-timeline` (schemas/warp-timeline.schema.json), for the
explorer's screenshot test. A power law of 4,096 rows (lengths 1..600, Pareto), ELLPACK-R in the
original row order and pJDS (rows sorted, b_r = 32) on a device of 16 SMs; the model's warps
are computed from the row lengths as spmv::analysis::analyze_warps does, the warps' durations
are invented from them (600 ns + 14 ns per loop trip of the busiest lane, +-10 %). The real
files come from the GPU (scripts/experiments/warp_timeline.sh)."""
import json
import random

rng = random.Random(34)
ROWS, SMS, TPB = 4096, 16, 64
lengths = [min(600, int(1 / (1 - rng.random()) ** (1 / 1.3))) for _ in range(ROWS)]
nnz = sum(lengths)


def model(lens, stored):
    warps = []
    for f in range(0, len(lens), 32):
        g = lens[f:f + 32]
        s = stored[f:f + 32]
        m = max(g)
        warps.append({"first_thread": f, "threads": len(g), "max_iterations": m,
                      "useful": sum(g), "idle_slots": len(g) * m - sum(g),
                      "stored_padding": sum(s) - sum(g)})
    return warps


def launch(kernel, lens, m):
    blocks = (len(lens) + TPB - 1) // TPB
    warps = []
    for b in range(blocks):
        for w in range(TPB // 32):
            first = b * TPB + w * 32
            if first >= len(lens):
                continue
            iters = m[first // 32]["max_iterations"]
            start = 40 * b + rng.randint(0, 60)
            dur = int((600 + 14 * iters) * rng.uniform(0.9, 1.1))
            warps.append({"block": b, "warp": w, "sm": b % SMS, "start_ns": float(start),
                          "end_ns": float(start + dur), "cycles": float(dur * 1.755),
                          "row_begin": first, "row_end": min(first + 32, len(lens))})
    t0 = min(w["start_ns"] for w in warps)
    for w in warps:
        w["start_ns"] -= t0
        w["end_ns"] -= t0
    warps.sort(key=lambda w: w["start_ns"])
    return {"index": 0, "kernel": kernel, "blocks": blocks, "threads_per_block": TPB,
            "expected_warps": blocks * (TPB // 32), "recorded_warps": len(warps),
            "offset_ns": 0.0, "span_ns": max(w["end_ns"] for w in warps), "warps": warps}


width = max(lengths)
ellr_model = model(lengths, [width] * ROWS)
order = sorted(range(ROWS), key=lambda i: -lengths[i])
sorted_lens = [lengths[i] for i in order]
pjds_stored = [sorted_lens[(k // 32) * 32] for k in range(ROWS)]
pjds_model = model(sorted_lens, pjds_stored)

doc = {
    "schema": "spmvlab.warp-timeline/1",
    "device": "synthetic device (16 SMs; not measured)",
    "precision": "double",
    "matrix": "synthetic power law, 4096 rows (tests/gui/data/make_warp_timeline_synthetic.py)",
    "rows": ROWS, "cols": ROWS, "nnz": nnz,
    "date": "2026-12-01T00:00:00Z", "commit": "synthetic",
    "multiprocessors": SMS, "sm_clock_khz": 1755000.0, "synthetic": True,
    "variants": [
        {"variant": "ellr", "format": "ellr",
         "launches": [launch("ellr_spmv_kernel", lengths, ellr_model)],
         "model": {"warp_size": 32, "source": "row lengths of the synthetic matrix",
                   "warps": ellr_model}},
        {"variant": "pjds", "format": "pjds",
         "launches": [launch("pjds_spmv_kernel", sorted_lens, pjds_model)],
         "model": {"warp_size": 32, "source": "row lengths of the synthetic matrix",
                   "warps": pjds_model}},
    ],
}
with open(__file__.replace("make_warp_timeline_synthetic.py", "warp_timeline_synthetic.json"),
          "w") as f:
    json.dump(doc, f, separators=(",", ":"))
    f.write("\n")
