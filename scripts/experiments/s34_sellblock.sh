#!/usr/bin/env bash
# Session 34's block-size batch (issue 37; one H200): sell and sell_i16 with at most 256 (the
# committed), 128 or 64 threads per block (SPMV_SELL_BLOCK, read by the experiment build of
# kernels/src/sell.cu, scripts/experiments/s34/sell_block.patch on e706318). Why: on blocks5 in
# double, Nsight Compute showed sell_i16 (sigma auto) with 75 % of the warps active and DRAM at
# 65 % of peak, where pJDS (rows fully sorted) keeps 90 % active at 82 % of peak
# (docs/benchmarks/h200_roof_2026-11-30): a 256-thread block waits for the longest of its 8
# slices. Alternating in each round (ROUNDS, default "1 2"), pJDS and cuSPARSE SELL beside them.
#   SPMV_COMMIT=e706318+s34 OUT=DIR bash scripts/experiments/s34_sellblock.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
source scripts/device_build.sh
mkdir -p "$OUT"
device_build "$OUT/logs" spmvlab test_gpu || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.memory --format=csv > "$OUT/gpu.csv"
for b in 256 64; do
    SPMV_SELL_BLOCK=$b timeout 120 build-device/tests/test_gpu "[permuted],[sell_i16],[spmv_dot]" > "$OUT/test_gpu_$b.txt" 2>&1
    echo "test_gpu [permuted],[sell_i16],[spmv_dot] block $b rc=$?"; tail -2 "$OUT/test_gpu_$b.txt"
done
M="gen:blocks5:block-rows=100000,blocks=8 gen:blocks5:block-rows=60000,blocks=8,seed=7 gen:pde:size=100 gen:pde:size=150 gen:powerlaw:rows=1000000"
for r in ${ROUNDS:-1 2}; do
    for b in 256 128 64; do
        t0=$SECONDS
        # shellcheck disable=SC2086  # M is a list of words
        SPMV_SELL_BLOCK=$b timeout 200 build-device/cli/spmvlab bench --gpu --precision both --sigma auto \
            --formats sell,sell_i16,pjds,cusparse_sell --min-time 100 --min-reps 50 $M \
            --json-out "$OUT/b${b}_r$r.json" > "$OUT/b${b}_r$r.txt" 2> "$OUT/b${b}_r$r.err"
        echo "block $b round $r rc=$? $((SECONDS - t0)) s"
    done
done
cd "$OUT" && tar cf sellblock.tar ./*.txt ./*.err ./*.json gpu.csv logs && rm -rf ./*.txt ./*.err ./*.json logs
