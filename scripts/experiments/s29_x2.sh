#!/usr/bin/env bash
# Session 29's 2-GPU batch (issue 37; nvidia-h200-x2): the distributed model with the format
# model's overlap q (docs/benchmarks/model_overlap_2026-11-29) against fresh measurements at this
# commit: pde150 in CSR and SELL on 1 and 2 H200, then pde400 in SELL on 2 H200 (the point),
# CUDA IPC, every mode (scripts/experiments/dist_model.sh).
# Usage (device machine, repository root with .deps): SPMV_COMMIT=<sha> OUT=DIR bash scripts/experiments/s29_x2.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
device_build "$OUT/logs" spmvlab || exit 1
nvidia-smi --query-gpu=index,name,driver_version --format=csv > "$OUT/gpu.csv"
echo "commit ${SPMV_COMMIT:-unknown} $(date -u +%FT%TZ)" > "$OUT/commit.txt"
PDE_SIZES=150 REPEAT=100 bash scripts/experiments/dist_model.sh build-device/cli/spmvlab "$OUT/pde150" 1 2 \
    > "$OUT/pde150.txt" 2>&1
tail -n 20 "$OUT/pde150/summary.txt"
PDE_SIZES=400 FORMATS=sell REPEAT=50 bash scripts/experiments/dist_model.sh build-device/cli/spmvlab \
    "$OUT/pde400" 2 > "$OUT/pde400.txt" 2>&1
tail -n 6 "$OUT/pde400/summary.txt"
